#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# debian_examples.sh - the example rulesets Debian's nftables package ships
# (/usr/share/doc/nftables/examples/*.nft, written by others, not for these
# tests): each is loaded with stock nft into a fresh netns of the kernel and
# into a fresh netns served by nfbpfd; exit status, stderr and the plain,
# -a and -j listings must be identical, except for the examples below that
# nfbpfd refuses (EOPNOTSUPP, with the reason), which must still be refused
# (an unlisted difference or a listed example that now passes fails).
. "$(dirname "$0")/lib.sh"

examples=${DEBIAN_EXAMPLES:-/usr/share/doc/nftables/examples}
# example: why nfbpfd refuses it
declare -A refused=(
	[ct_helpers.nft]="ct helper set: writes the connection (no BPF netfilter program can)"
	[nat.nft]="dnat/snat: packet rewriting (no BPF netfilter program can)"
)

ls "$examples"/*.nft >/dev/null 2>&1 || { echo "debian_examples e2e: no $examples/*.nft, skipped"; exit 77; }
e2e_start debian_examples dx

# side TAG NFT: load the example and list it, in a fresh netns
side() {
	local ns=$tag$1 nft=$2 f=$3
	e2e_netns "$ns"
	{
		ip netns exec "$ns" $nft -f "$f"; echo "### exit $?"
		ip netns exec "$ns" $nft list ruleset; echo "### exit $?"
		ip netns exec "$ns" $nft -a list ruleset; echo "### exit $?"
		ip netns exec "$ns" $nft -j list ruleset; echo "### exit $?"
	} 2>&1 | sed "s|$examples/||g"
	ip netns del "$ns"
}

fail=0 same=0 nref=0 i=0
for f in "$examples"/*.nft; do
	n=$(basename "$f")
	i=$((i + 1))
	side k$i nft "$f" >"$work/k.out"
	side b$i "$run nft" "$f" >"$work/b.out"
	if cmp -s "$work/k.out" "$work/b.out"; then
		if [ -n "${refused[$n]:-}" ]; then
			echo "debian_examples e2e: $n: now identical, remove it from the refused list"
			fail=1
		fi
		same=$((same + 1))
		continue
	fi
	if [ -n "${refused[$n]:-}" ] && head -1 "$work/b.out" | grep -q 'Operation not supported' &&
	   grep -q '^### exit 0$' "$work/k.out"; then
		echo "debian_examples e2e: $n: refused (${refused[$n]})"
		nref=$((nref + 1))
		continue
	fi
	echo "debian_examples e2e: $n: kernel and nfbpf differ"
	diff -u "$work/k.out" "$work/b.out" | head -40
	fail=1
done
kill -0 "$dpid" 2>/dev/null || { echo "debian_examples e2e: nfbpfd died"; exit 1; }
echo "debian_examples e2e: $same identical, $nref refused as listed, of $i"
exit $fail
