#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_rt.sh - end to end: the rt expression (nexthop of IPv4 and IPv6
# routes with and without a gateway, the route's realm, ipsec) reads the
# packet's route. Per side (k: the kernel, b: nfbpfd) a netns fw with a
# veth link to a netns p and routes with realms (rt classid, meta
# rtclassid); fw sends UDP to prefixes
# routed through p's address or on-link, p sends UDP to fw (input: local
# routes), in IPv4 and IPv6. The counters of rules (UDP only: neighbour
# discovery is timing) in prerouting (no route yet: rt breaks), input and
# output must be identical, and the kernel's must be the expected ones.
# Needs root; skipped (77) otherwise.
set -u
. "$(dirname "$0")/lib.sh"
e2e_start rt T

cat >"$work/rules.nft" <<'NFT'
table inet t {
	chain out {
		type filter hook output priority 0; policy accept;
		meta l4proto udp rt ip nexthop 10.1.1.2 counter
		meta l4proto udp rt ip nexthop 10.60.0.5 counter
		meta l4proto udp rt ip nexthop 10.50.0.5 counter
		meta l4proto udp rt ip nexthop 10.1.1.2 udp dport 9 counter
		meta l4proto udp rt classid 7 counter
		meta l4proto udp rt classid 9 counter
		meta l4proto udp meta rtclassid 7 counter
		meta l4proto udp rt classid 0 counter
		meta l4proto udp rt ipsec missing counter
		meta l4proto udp rt ipsec exists counter
		meta l4proto udp rt ip6 nexthop fd01::2 counter
		meta l4proto udp rt ip6 nexthop fd60::5 counter
		meta l4proto udp rt ip6 nexthop fd50::5 counter
		meta l4proto udp counter
	}
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		meta l4proto udp rt classid 0 counter
		meta l4proto udp rt ipsec missing counter
		meta l4proto udp rt ip nexthop 10.1.1.1 counter
		meta l4proto udp meta rtclassid 0 counter
		meta l4proto udp counter
	}
	chain in {
		type filter hook input priority 0; policy accept;
		meta l4proto udp rt ip nexthop 10.1.1.1 counter
		meta l4proto udp rt ip6 nexthop fd01::1 counter
		meta l4proto udp rt classid 0 counter
		meta l4proto udp rt classid 5 counter
		meta l4proto udp counter
	}
}
NFT

cat >"$work/send.py" <<'PY'
import socket, sys
for dst in sys.argv[1:]:
    fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    for port in (7, 9):
        try:
            s.sendto(b"x" * 10, (dst, port))
        except OSError:
            pass
    s.close()
PY

status=0
for side in k b; do
	fw=$tag${side}f
	p=$tag${side}p
	nss+=("$fw" "$p")
	ip netns add "$fw" && ip netns add "$p" ||
		{ echo "rt e2e: netns setup failed"; exit 1; }
	x() { ip netns exec "$fw" "$@"; }
	y() { ip netns exec "$p" "$@"; }
	x ip link set lo up && y ip link set lo up &&
	x ip link add v0 type veth peer name p0 netns "$p" &&
	x ip link set v0 up && y ip link set p0 up &&
	x ip addr add 10.1.1.1/24 dev v0 && y ip addr add 10.1.1.2/24 dev p0 &&
	x ip addr add fd01::1/64 dev v0 nodad && y ip addr add fd01::2/64 dev p0 nodad &&
	x ip route add 10.50.0.0/24 via 10.1.1.2 realm 7 &&
	x ip route add 10.60.0.0/24 dev v0 realm 9 &&
	x ip route add fd50::/64 via fd01::2 &&
	x ip route add fd60::/64 dev v0 ||
		{ echo "rt e2e: topology failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	x "${pre[@]}" nft -f "$work/rules.nft" ||
		{ echo "rt e2e: nft -f failed on side $side"; exit 1; }
	x python3 "$work/send.py" 10.50.0.5 10.60.0.5 10.1.1.2 fd50::5 fd60::5 fd01::2
	y python3 "$work/send.py" 10.1.1.1 fd01::1
	x "${pre[@]}" nft list ruleset >"$work/$side.list"
done
if ! diff -u "$work/k.list" "$work/b.list"; then
	echo "rt e2e: kernel and nfbpf differ"
	status=1
fi
# the kernel's own counts, so that the comparison says something
for want in "rt ip nexthop 10.1.1.2 counter packets 4 " "rt classid 7 counter packets 2 " \
	    "rt ip6 nexthop fd01::2 counter packets 4 " "rt ip nexthop 10.1.1.1 counter packets 2 " \
	    "udp meta rtclassid 7 counter packets 2 "; do
	grep -q "$want" "$work/k.list" ||
		{ echo "rt e2e: the kernel's listing lacks '$want'"; status=1; }
done
kill -0 "$dpid" 2>/dev/null || { echo "rt e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "rt e2e: identical"; cat "$work/k.list"; }
exit $status
