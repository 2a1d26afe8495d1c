#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# objref.sh - end to end: named counters, quotas and limits, referenced by
# name and through object maps (both limit kinds in one map), in the
# kernel in one scratch netns and in nfbpfd's BPF dataplane in another:
# the same datagrams give the same listings (object counts, quota used
# bytes and depletion, rule counters showing which packets each object
# let through), also after unrelated commits, a reset of the counters and
# quotas (nft reset counters/quotas), a reset of one object, and an
# object deleted and created again with given values. Rates are per
# minute/hour, so no refill happens during the run.
# Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start objref O

cat >"$work/rules.nft" <<'NFT'
table inet t {
	counter c9 {
		packets 7 bytes 700
	}
	counter c10 {
	}
	counter cshared {
	}
	quota q9 {
		over 250 bytes used 10 bytes
	}
	quota q10 {
		until 400 bytes
	}
	limit lp {
		rate 1/hour burst 3 packets
	}
	limit lb {
		rate over 2 kbytes/hour burst 200 bytes
	}
	map cm {
		type inet_service : counter
		elements = { 9 : "c9", 10 : "c10" }
	}
	map qm {
		type inet_service : quota
		elements = { 9 : "q9", 10 : "q10" }
	}
	map lm {
		type inet_service : limit
		elements = { 9 : "lp", 10 : "lb" }
	}
	chain out {
		type filter hook output priority filter; policy accept;
		counter name udp dport map @cm
		udp dport { 9, 10 } counter name "cshared"
		quota name udp dport map @qm counter drop
		udp dport 9 counter
		udp dport 10 counter
	}
	chain in {
		type filter hook input priority filter; policy accept;
		udp dport { 9, 10 } counter name "cshared"
		limit name udp dport map @lm counter accept
		udp dport 9 limit name "lp" counter
		udp dport 10 counter drop
	}
}
NFT

# the traffic: datagrams of several sizes to ports 9 and 10, v4 and v6
send() { ip netns exec "$ns" python3 "$top_srcdir/tests/e2e/udp-send.py" "$@"; }

status=0
for side in k b; do
	ns=$tag$side
	e2e_netns "$ns" || { echo "objref e2e: netns setup failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	n() { ip netns exec "$ns" "${pre[@]}" nft "$@"; }
	out() { n "${@:2}" >"$work/$side.$1" 2>&1; }
	n -f "$work/rules.nft" ||
		{ echo "objref e2e: nft -f failed on side $side"; exit 1; }
	send 10 72 1 300 40 5 120 20
	out 1 list ruleset
	out 1j -j list ruleset
	# unrelated commits: counts stay
	n add rule inet t out udp dport 11 counter
	n add chain inet t other
	n delete rule inet t out handle "$(n -a list chain inet t out | \
		sed -n 's/.*dport 11 counter.*# handle \([0-9]*\)/\1/p')"
	out 2 list counters
	# a reset shows the counts once, then zero; then the single ones
	out 3 reset counters
	out 3q reset quotas
	out 4 list ruleset
	send 10 72 1
	out 5 reset counter inet t c9
	out 5q reset quota inet t q10
	out 6 list counters
	out 6q list quotas
	# deleted and created again: the given values
	n add counter inet t spare '{ packets 3 bytes 30 }'
	n delete counter inet t spare
	n add counter inet t spare '{ packets 4 bytes 40 }'
	out 7 list counter inet t spare
done
for f in 1 1j 2 3 3q 4 5 5q 6 6q 7; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "objref e2e: kernel and nfbpf differ (step $f)"
		status=1
	fi
done
kill -0 "$dpid" 2>/dev/null || { echo "objref e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "objref e2e: identical"; cat "$work/k.1" "$work/k.6" "$work/k.6q"; }
exit $status
