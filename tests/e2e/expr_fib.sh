#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_fib.sh - end to end: fib ... type follows the namespace's routes.
# The same rules and datagrams in the kernel in one scratch netns and in
# nfbpfd's BPF dataplane in another, while the routing state changes
# under a loaded ruleset: a main-table route more specific than a local
# one (the merged tables), a new local address, a broadcast route added
# to the local table, a policy rule (the tables unmerge: local only), an
# address deleted and a device set down (routes flushed without a route
# event). Listings (counters) must be identical. Then iptables-nft's
# addrtype match (ufw's --dst-type LOCAL/MULTICAST/BROADCAST, inverted,
# --limit-iface-in/out): the same counters on both sides.
#
# nfbpfd's route mirror follows events asynchronously, so after each
# change the script waits for a barrier: a fresh probe address whose
# datagram the probe rule (not compared) counts as local once the mirror
# has caught up with every change made before it. The wait is bounded
# (10 s); the verdicts compared are those of the datagrams sent after it.
# Needs root; skipped (77) otherwise.
set -u
. "$(dirname "$0")/lib.sh"
e2e_start "fib" F

cat >"$work/rules.nft" <<'NFT'
table ip t {
	chain out {
		type filter hook output priority 0; policy accept;
		ip daddr 10.99.0.0/16 fib daddr type local counter comment "probe"
		ip daddr 127.0.0.5 fib daddr type local counter
		ip daddr 127.0.0.5 fib daddr type unicast counter
		ip daddr 10.5.5.5 fib daddr type local counter
		ip daddr 10.5.5.5 fib daddr type unicast counter
		ip daddr 10.5.5.5 fib daddr . oif type local counter
		ip daddr 10.7.0.1 fib daddr type broadcast counter
		ip daddr 10.7.0.1 fib daddr . oif type broadcast counter
		ip daddr 10.7.0.1 fib daddr type unicast counter
		ip daddr 10.7.0.1 fib daddr type broadcast udp dport 9 drop
	}
}
NFT

cat >"$work/send.py" <<'PY'
import socket, sys
for a in sys.argv[1:]:
    for port in (9, 10):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        try:
            s.sendto(b"x", (a, port))
        except OSError:
            pass
        s.close()
PY

status=0
for side in k b; do
	ns=$tag$side
	nss+=("$ns")
	ip netns add "$ns" && ip -n "$ns" link set lo up ||
		{ echo "fib e2e: netns setup failed"; exit 1; }
	x() { ip netns exec "$ns" "$@"; }
	x ip link add v0 type veth peer name v1 && x ip link set v0 up &&
		x ip link set v1 up && x ip addr add 10.1.1.1/24 dev v0 &&
		x ip route add 10.7.0.0/16 dev v0 ||
		{ echo "fib e2e: topology failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	n() { x "${pre[@]}" nft "$@"; }
	n -f "$work/rules.nft" ||
		{ echo "fib e2e: nft -f failed on side $side"; exit 1; }
	step=0
	# barrier: a new probe address is local in the mirror too
	barrier() {
		local want before i
		step=$((step + 1))
		x ip addr add "10.99.$step.1/32" dev lo
		before=$(n list chain ip t out | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
		for i in $(seq 200); do
			x python3 "$work/send.py" "10.99.$step.1"
			want=$(n list chain ip t out | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
			[ "$want" != "$before" ] && return 0
			sleep 0.05
		done
		echo "fib e2e: side $side: route mirror did not catch up (step $step)"
		exit 1
	}
	traffic() { x python3 "$work/send.py" 127.0.0.5 10.5.5.5 10.7.0.1; }
	traffic
	x ip route add 127.0.0.5/32 dev lo
	x ip addr add 10.5.5.5/32 dev lo
	x ip route add broadcast 10.7.0.1 dev v0 table local
	barrier; traffic
	x ip rule add from 1.2.3.4 table 100
	barrier; traffic
	x ip addr del 10.5.5.5/32 dev lo
	x ip link set v0 down
	barrier; traffic
	n list ruleset | grep -v probe >"$work/$side.list"
done
# addrtype (xt match rev 1) on the same routes
for side in k b; do
	ns=$tag$side
	x() { ip netns exec "$ns" "$@"; }
	pre=()
	[ $side = b ] && pre=("$run")
	n() { x "${pre[@]}" nft "$@"; }
	ipt() { x "${pre[@]}" iptables-nft "$@"; }
	x ip link set v0 up
	x ip addr add 10.5.5.5/32 dev lo
	ipt -A OUTPUT -m addrtype --dst-type LOCAL -j ACCEPT &&
	ipt -A OUTPUT -m addrtype --dst-type MULTICAST -j ACCEPT &&
	ipt -A OUTPUT -p udp --dport 10 -m addrtype --dst-type BROADCAST -j DROP &&
	ipt -A OUTPUT -m addrtype --dst-type BROADCAST &&
	ipt -A OUTPUT -m addrtype ! --dst-type LOCAL,BROADCAST --src-type LOCAL &&
	ipt -A OUTPUT -m addrtype --src-type LOCAL --limit-iface-out &&
	ipt -A OUTPUT -p udp --dport 9 -m addrtype --dst-type UNICAST --limit-iface-out -j DROP &&
	ipt -A INPUT -m addrtype --dst-type LOCAL --limit-iface-in &&
	ipt -A INPUT -m addrtype ! --src-type LOCAL,UNICAST &&
	ipt -A INPUT -m addrtype --dst-type BROADCAST -j DROP ||
		{ echo "fib e2e: iptables-nft failed on side $side"; exit 1; }
	barrier
	x python3 "$work/send.py" 127.0.0.5 10.5.5.5 10.7.0.1 10.1.1.255 10.1.1.7
	ipt -L -v -n -x >"$work/$side.xt"
done
if ! diff -u "$work/k.xt" "$work/b.xt"; then
	echo "fib e2e: addrtype: kernel and nfbpf differ"
	status=1
fi
if ! diff -u "$work/k.list" "$work/b.list"; then
	echo "fib e2e: kernel and nfbpf differ"
	status=1
fi
kill -0 "$dpid" 2>/dev/null || { echo "fib e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "fib e2e: identical"; cat "$work/k.list" "$work/k.xt"; }
exit $status
