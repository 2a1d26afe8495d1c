#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_limit_quota.sh - end to end: the same datagrams through the kernel's
# nft limit and quota rules in one scratch netns and through nfbpfd's BPF
# dataplane in another give the same listings: which packets each rule
# let through (counters), the quotas' used bytes (capped, depleted flags
# in --debug=netlink), for IPv4 and IPv6 sharing inet buckets. Rates are
# per minute/hour, so no refill happens during the run.
# Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start limit/quota Q

cat >"$work/rules.nft" <<'NFT'
table inet t {
	chain out {
		type filter hook output priority filter; policy accept;
		udp dport 9 limit rate over 1/minute burst 3 packets counter drop
		udp dport 9 quota over 250 bytes counter drop
		udp dport 9 counter
		udp dport 10 limit rate over 2 kbytes/hour burst 100 bytes counter drop
		udp dport 10 counter
	}
	chain in {
		type filter hook input priority filter; policy accept;
		udp dport 9 quota 150 bytes counter
		udp dport 9 quota until 100 bytes used 40 bytes counter accept
		udp dport 10 limit rate 1/hour burst 4 packets counter accept
		udp dport 10 counter drop
	}
}
NFT

status=0
for side in k b; do
	ns=$tag$side
	e2e_netns "$ns" || { echo "limit/quota e2e: netns setup failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	ip netns exec "$ns" "${pre[@]}" nft -f "$work/rules.nft" ||
		{ echo "limit/quota e2e: nft -f failed on side $side"; exit 1; }
	# datagrams of several sizes to ports 9 and 10, v4 and v6
	ip netns exec "$ns" python3 "$top_srcdir/tests/e2e/udp-send.py" \
		10 72 1 300 40 5 900 20
	for fmt in "" "-j" "--debug=netlink"; do
		ip netns exec "$ns" "${pre[@]}" nft $fmt list ruleset \
			>"$work/$side${fmt:+.$fmt}" 2>&1
	done
done
for fmt in "" "-j" "--debug=netlink"; do
	if ! diff -u "$work/k${fmt:+.$fmt}" "$work/b${fmt:+.$fmt}"; then
		echo "limit/quota e2e: kernel and nfbpf differ (nft $fmt list ruleset)"
		status=1
	fi
done
kill -0 "$dpid" 2>/dev/null || { echo "limit/quota e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "limit/quota e2e: identical"; cat "$work/k"; }
exit $status
