#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# connlimit_meter.sh - end to end: "ct count" on the elements a rule adds
# to a dynamic set (add @perip { ip saddr ct count over 2 }, and a meter
# keyed by the source's /24; an ip6 set keyed by the source's /127), with real
# TCP connections and UDP flows over lo (connlimit-meter.py), through the
# kernel's nf_tables in one scratch netns and nfbpfd's dataplane in
# another: which connections are refused, and the set's listing at fixed
# points as connections open and close, must be identical. Elements whose
# connections all ended leave the set by its garbage collection (once a
# second, both sides); how long after the close each one left is printed
# for both (not compared: the two gc timers have their own phase). UDP
# conntrack timeout 12 s in both netns. Then an element deleted and the
# set flushed with connections open: the next connection starts a new list.
# Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start connlimit/meter M

cat >"$work/rules.nft" <<'NFT'
table ip t {
	set perip {
		type ipv4_addr
		flags dynamic
	}
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport 8181 ct state new meter tcpm { ip saddr & 255.255.255.0 ct count over 5 }
		tcp dport 8181 ct state new add @perip { ip saddr ct count over 2 } counter reject with tcp reset
		udp dport 9191 ct state new add @perip { ip saddr ct count over 2 } counter
	}
}
table ip6 t6 {
	set m6 {
		type ipv6_addr
		flags dynamic
	}
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport 8181 ct state new add @m6 { ip6 saddr and ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe ct count over 1 } counter reject with tcp reset
	}
}
NFT

pids=()
for side in k b; do
	ns=$tag$side
	e2e_netns "$ns" || { echo "connlimit/meter e2e: netns setup failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	ip netns exec "$ns" "${pre[@]}" nft -f "$work/rules.nft" ||
		{ echo "connlimit/meter e2e: nft -f failed on side $side"; exit 1; }
	ip netns exec "$ns" sh -c 'echo 12 >/proc/sys/net/netfilter/nf_conntrack_udp_timeout' ||
		{ echo "connlimit/meter e2e: no conntrack sysctl on side $side"; exit 1; }
	# both sides at once (each takes ~25 s)
	ip netns exec "$ns" timeout 90 python3 "$top_srcdir/tests/e2e/connlimit-meter.py" \
		"${pre[@]}" nft >"$work/$side.out" 2>&1 &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
[ $status = 0 ] || { echo "connlimit/meter e2e: a side failed"; cat "$work/k.out" "$work/b.out"; exit 1; }
for side in k b; do
	ip netns exec "$tag$side" "${pre[@]}" nft list ruleset >"$work/$side.rs" 2>&1
	grep -v '^# ' "$work/$side.out" >"$work/$side.cmp"
	cat "$work/$side.rs" >>"$work/$side.cmp"
done
# side k's listing with the kernel's nft (no wrapper)
ip netns exec "${tag}k" nft list ruleset >"$work/k.rs" 2>&1
grep -v '^# ' "$work/k.out" >"$work/k.cmp"
cat "$work/k.rs" >>"$work/k.cmp"
if ! diff -u "$work/k.cmp" "$work/b.cmp"; then
	echo "connlimit/meter e2e: kernel and nfbpf differ"
	status=1
fi
echo "connlimit/meter e2e: gc timing (kernel | nfbpf):"
paste -d'|' <(grep '^# ' "$work/k.out") <(grep '^# ' "$work/b.out")
kill -0 "$dpid" 2>/dev/null || { echo "connlimit/meter e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "connlimit/meter e2e: identical"; cat "$work/k.out"; }
exit $status
