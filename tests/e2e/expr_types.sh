#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_types.sh - which expression types (and meta/ct keys) exist, per family:
# the reference kernel's build decides (no queue, flow_offload, bridge
# reject or bridge meta keys here; tunnel only in netdev; masq/redir only in
# ip/ip6/inet; dup only in ip/ip6/netdev). tests/e2e/expr-probe.py sends one
# rule per expression name (empty data) and per meta/ct key in each family,
# to the kernel in one netns and to nfbpfd in another; every answer must be
# the same errno, except the pairs below, where the kernel has the type and
# nfbpfd refuses it (EOPNOTSUPP: not built, or impossible for a BPF
# netfilter program). An unlisted difference, a listed pair nfbpfd does not
# refuse, or a listed pair that is now identical fails.
. "$(dirname "$0")/lib.sh"

e2e_start expr_types xt
probe="$top_srcdir/tests/e2e/expr-probe.py"
probes="expr:immediate,bitwise,byteorder,payload,cmp,lookup,range,dynset,meta,rt,exthdr,last,counter,objref,inner,ct,notrack,limit,log,nat,masq,redir,reject,quota,hash,numgen,fib,socket,osf,tproxy,tunnel,xfrm,synproxy,connlimit,queue,dup,fwd,flow_offload,match,target,nosuch meta:0-40 ct:0-45"

# probe: families where nfbpfd refuses what the kernel has
refused="
ct 23: ip ip6 inet
expr dup: ip ip6
expr inner: ip ip6 inet arp bridge netdev
expr last: ip ip6 inet arp bridge netdev
expr masq: ip ip6 inet
expr nat: ip ip6 inet arp bridge netdev
expr notrack: ip ip6 inet arp bridge netdev
expr osf: ip ip6 inet arp bridge netdev
expr redir: ip ip6 inet
expr socket: ip ip6 inet arp bridge netdev
expr synproxy: ip ip6 inet arp bridge netdev
expr tproxy: ip ip6 inet arp bridge netdev
expr tunnel: netdev
expr xfrm: ip ip6 inet arp bridge netdev
meta 33: ip ip6 inet arp bridge netdev
meta 34: ip ip6 inet arp bridge netdev
"
listed() {	# FAMILY KIND KEY
	local fams
	fams=$(printf '%s\n' "$refused" | sed -n "s/^$2 $3: //p")
	[[ " $fams " == *" $1 "* ]]
}

for side in k b; do
	e2e_netns "$tag$side"
done
ip netns exec "${tag}k" python3 "$probe" $probes >"$work/k.txt" 2>&1 ||
	{ echo "expr_types e2e: kernel probe failed: $(tail -3 "$work/k.txt")"; exit 1; }
ip netns exec "${tag}b" $run python3 "$probe" $probes >"$work/b.txt" 2>&1 ||
	{ echo "expr_types e2e: nfbpf probe failed: $(tail -3 "$work/b.txt")"; exit 1; }
[ "$(wc -l <"$work/k.txt")" = "$(wc -l <"$work/b.txt")" ] ||
	{ echo "expr_types e2e: the probes answered $(wc -l <"$work/k.txt") and $(wc -l <"$work/b.txt") times"; exit 1; }

fail=0 same=0 nref=0 n=0
while read -r fam kind key k _ _ _ b; do
	n=$((n + 1))
	if listed "$fam" "$kind" "$key"; then
		if [ "$k" = "$b" ]; then
			echo "expr_types e2e: $fam $kind $key: now identical ($k), remove it from the list"
			fail=1
		elif [ "$b" != ENOTSUP ] || [ "$k" = ENOENT ]; then
			echo "expr_types e2e: $fam $kind $key: kernel $k, nfbpf $b (listed as refused)"
			fail=1
		else
			nref=$((nref + 1))
		fi
	elif [ "$k" != "$b" ]; then
		echo "expr_types e2e: $fam $kind $key: kernel $k, nfbpf $b"
		fail=1
	else
		same=$((same + 1))
	fi
done < <(paste -d' ' "$work/k.txt" "$work/b.txt")
kill -0 "$dpid" 2>/dev/null || { echo "expr_types e2e: nfbpfd died"; exit 1; }
echo "expr_types e2e: $same identical, $nref refused as listed, of $n"
exit $fail
