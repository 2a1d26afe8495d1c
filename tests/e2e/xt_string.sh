#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# xt_string.sh - the xt string match on TCP segments, whose payload is in
# page fragments and headers in the skb's head (tcp_sendmsg()): the kernel
# hands skb_find_text() one block per head and fragment, kmp keeps its
# state across them, bm restarts in each (a pattern spanning the end of
# the TCP header and the payload: kmp matches, bm does not). The same
# iptables rules count the segments at output and input in a kernel
# namespace and in an nfbpfd one; the counters must be identical.
# Timestamps off: the TCP header is 20 bytes, ending with the urgent
# pointer 0000. Patterns are long or start past the headers: sequence
# numbers are random and a byte of them may be anything.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start xt_string xs iptables-nft ip6tables-nft

rules() {
	local ipt=$1 algo
	for algo in kmp bm; do
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --hex-string "|0000|XYZ"
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --string XYZ
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --string XYZ --to $2
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --string XYZ --to $(($2 + 1))
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --string QXYZR --from 100
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --string host --icase
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo --hex-string "|c9c9|END" --icase
		$ipt -A OUTPUT -p tcp --dport 8000 -m string --algo $algo ! --string XYZ
		$ipt -A INPUT -p tcp --dport 8000 -m string --algo $algo --hex-string "|0000|XYZ"
		$ipt -A INPUT -p tcp --dport 8000 -m string --algo $algo --string QQQQ --from $(($2 - 2)) --to 1500
		$ipt -A INPUT -p tcp --dport 8000 -m string --algo $algo --string R --from 3000 --to 3100
	done
}

fail=0
for fam in 4 6; do
	ipt=iptables-nft to=42
	[ $fam = 6 ] && ipt=ip6tables-nft to=62
	for side in k b; do
		ns=$tag$side$fam
		e2e_netns "$ns"
		w=
		[ $side = b ] && w=$run
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_timestamps=0
		if ! ip netns exec "$ns" bash -c "$(declare -f rules); rules '$w $ipt' $to" \
			>"$work/rules.$side$fam" 2>&1; then
			echo "xt_string e2e: rules refused ($side, IPv$fam): $(cat "$work/rules.$side$fam")"
			fail=1
			continue
		fi
		ip netns exec "$ns" python3 "$top_srcdir/tests/e2e/xt-string-tcp.py" $fam ||
			{ echo "xt_string e2e: traffic failed ($side, IPv$fam)"; fail=1; }
		ip netns exec "$ns" $w $ipt -L -v -n -x >"$work/list.$side$fam" 2>&1
	done
	if ! diff -u "$work/list.k$fam" "$work/list.b$fam"; then
		echo "xt_string e2e: IPv$fam counters differ (kernel -, nfbpfd +)"
		fail=1
	fi
	# the test is only worth something if it sees the kernel's split
	grep -q '^ *1 .*|000058595a|.*kmp' "$work/list.k$fam" &&
		grep -q '^ *0 .*|000058595a|.*bm' "$work/list.k$fam" ||
		{ echo "xt_string e2e: the kernel did not split the segments (IPv$fam)"; cat "$work/list.k$fam"; fail=1; }
done
[ $fail = 0 ] && echo "xt_string e2e: ok"
exit $fail
