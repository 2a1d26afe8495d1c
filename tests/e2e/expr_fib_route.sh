#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_fib_route.sh - end to end: fib route lookups (oif, oifname,
# exists/missing: the reverse path filter) follow the namespace's routes.
# Per side (k: the kernel, b: nfbpfd) a netns fw with two veth links to
# a netns p; p sends raw frames (AF_PACKET) into fw with sources that are
# and are not routable back through the input device, while fw's routes
# change under a loaded ruleset: an on-link prefix, a route through a
# gateway on the other link, a multipath route over both links (any
# nexthop's device counts for `. iif`), a blackhole (the lookup fails),
# a device renamed (oifname), a device set down (its routes flushed
# without a route event). Listings (counters) must be identical.
# Then what nfbpfd cannot answer exactly fails closed, on side b only:
# a route using a nexthop object, and a policy rule: such packets are
# dropped (the kernel would have looked them up).
#
# nfbpfd's route mirror follows events asynchronously, so after each
# change the script waits for a barrier: a route for a fresh probe
# prefix, whose frame the probe rule (not compared) counts once the
# mirror has caught up with every change made before it. The wait is
# bounded (10 s); the verdicts compared are those of the frames sent
# after it. Needs root; skipped (77) otherwise.
set -u
. "$(dirname "$0")/lib.sh"
e2e_start "fib route" R

cat >"$work/rules.nft" <<'NFT'
table ip t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		ip saddr 10.99.0.0/16 fib saddr . iif oif exists counter comment "probe"
		ip saddr 10.99.0.0/16 accept
		fib saddr . iif oif missing counter
		fib saddr . iif oif exists counter
		fib saddr . iif oifname "v0" counter
		fib saddr . iif oifname "v1" counter
		fib saddr . iif oifname "w1" counter
		fib saddr oif "v0" counter
		fib saddr oifname "v1" counter
		fib saddr oifname "w1" counter
		fib saddr oif missing counter
		fib daddr oif missing counter
		fib daddr oifname "v0" counter
		ip saddr 10.1.1.7 fib saddr . iif oif missing counter
		ip saddr 10.2.2.7 fib saddr . iif oif missing counter
		ip saddr 10.3.3.3 fib saddr . iif oif missing counter
		ip saddr 10.5.5.5 fib saddr . iif oif missing counter
		ip saddr 10.6.6.6 fib saddr . iif oif missing counter
		ip saddr 127.0.0.1 fib saddr . iif oif missing counter
		ip saddr 10.1.1.1 fib saddr . iif oif missing counter
		fib saddr . mark . iif oif missing counter
		fib saddr . iif oif missing udp dport 7 counter drop
		counter comment "survivors"
	}
}
NFT

# frames from p into fw: send.py IFACE DMAC SRC... (to 10.1.1.1, UDP 7
# and 9; the tos byte from $TOS, 0 if unset)
cat >"$work/send.py" <<'PY'
import os, socket, struct, sys
tos = int(os.environ.get("TOS", "0"), 0)
ifname, dmac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", ""))
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
smac = s.getsockname()[4]
for src in sys.argv[3:]:
    for port in (7, 9):
        udp = struct.pack("!HHHH", 4000, port, 9, 0) + b"x"
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + len(udp), 1, 0, 64,
                         17, 0, socket.inet_aton(src),
                         socket.inet_aton("10.1.1.1"))
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        s.send(dmac + smac + b"\x08\x00" + ip + udp)
PY

status=0
srcs="10.1.1.7 10.2.2.7 10.3.3.3 10.5.5.5 10.6.6.6 127.0.0.1 10.1.1.1 10.9.9.9"
for side in k b; do
	fw=$tag${side}f
	p=$tag${side}p
	nss+=("$fw" "$p")
	ip netns add "$fw" && ip netns add "$p" ||
		{ echo "fib route e2e: netns setup failed"; exit 1; }
	x() { ip netns exec "$fw" "$@"; }
	y() { ip netns exec "$p" "$@"; }
	x ip link set lo up &&
	x ip link add v0 type veth peer name p0 netns "$p" &&
	x ip link add v1 type veth peer name p1 netns "$p" &&
	x ip link set v0 up && x ip link set v1 up &&
	y ip link set p0 up && y ip link set p1 up &&
	x ip addr add 10.1.1.1/24 dev v0 && x ip addr add 10.2.2.1/24 dev v1 ||
		{ echo "fib route e2e: topology failed"; exit 1; }
	mac0=$(x cat /sys/class/net/v0/address)
	pre=()
	[ $side = b ] && pre=("$run")
	n() { x "${pre[@]}" nft "$@"; }
	n -f "$work/rules.nft" ||
		{ echo "fib route e2e: nft -f failed on side $side"; exit 1; }
	step=0
	# barrier: a route for a fresh probe prefix through v0 is in the mirror
	barrier() {
		local want before i
		step=$((step + 1))
		x ip route add "10.99.$step.0/24" dev v0
		before=$(n list chain ip t pre | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
		for i in $(seq 200); do
			y python3 "$work/send.py" p0 "$mac0" "10.99.$step.1"
			want=$(n list chain ip t pre | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
			[ "$want" != "$before" ] && return 0
			sleep 0.05
		done
		echo "fib route e2e: side $side: route mirror did not catch up (step $step)"
		exit 1
	}
	traffic() { y python3 "$work/send.py" p0 "$mac0" $srcs; }
	barrier; traffic
	x ip route add 10.3.0.0/16 via 10.2.2.2 dev v1
	x ip route add 10.5.0.0/16 nexthop dev v1 nexthop dev v0
	x ip route add blackhole 10.6.0.0/16
	barrier; traffic
	x ip link set v1 down
	x ip link set v1 name w1
	x ip link set w1 up
	x ip route add 10.3.0.0/16 via 10.2.2.2 dev w1
	barrier; traffic
	x ip route del 10.5.0.0/16
	x ip route add 10.5.0.0/16 nexthop dev w1 nexthop dev w1
	x ip route replace 10.6.0.0/16 dev v0
	x ip link set v0 down
	x ip link set v0 up
	barrier; traffic
	n list ruleset | grep -v probe >"$work/$side.list"
done
if ! diff -u "$work/k.list" "$work/b.list"; then
	echo "fib route e2e: kernel and nfbpf differ"
	status=1
fi

# fail closed on side b: a nexthop object, then a policy rule
fw=${tag}bf
p=${tag}bp
x() { ip netns exec "$fw" "$@"; }
y() { ip netns exec "$p" "$@"; }
n() { x "$run" nft "$@"; }
survivors() { n list chain ip t pre | sed -n 's/.*packets \([0-9]*\).*survivors.*/\1/p'; }
pre=("$run")
mac0=$(x cat /sys/class/net/v0/address)
x ip nexthop add id 7 dev v0 &&
x ip route add 10.9.0.0/16 nhid 7 ||
	{ echo "fib route e2e: nexthop setup failed"; exit 1; }
barrier
before=$(survivors)
y python3 "$work/send.py" p0 "$mac0" 10.9.9.9
after=$(survivors)
if [ "$before" != "$after" ]; then
	echo "fib route e2e: a route with a nexthop object did not fail closed ($before -> $after)"
	status=1
fi
y python3 "$work/send.py" p0 "$mac0" 10.1.1.7
if [ "$(survivors)" != "$((after + 2))" ]; then
	echo "fib route e2e: a plain route stopped working next to a nexthop object"
	status=1
fi
# a route with a tos: packets with a DSCP fail closed, the others not
x ip route add 10.1.1.0/24 tos 0x10 dev v0
barrier
before=$(survivors)
TOS=0x10 y python3 "$work/send.py" p0 "$mac0" 10.1.1.7
if [ "$before" != "$(survivors)" ]; then
	echo "fib route e2e: a DSCP next to a route with a tos did not fail closed"
	status=1
fi
y python3 "$work/send.py" p0 "$mac0" 10.1.1.7
if [ "$(survivors)" != "$((before + 2))" ]; then
	echo "fib route e2e: no DSCP next to a route with a tos stopped working"
	status=1
fi
x ip rule add from 1.2.3.4 table 100
before=$(survivors)
y python3 "$work/send.py" p0 "$mac0" 10.1.1.7
if [ "$before" != "$(survivors)" ]; then
	echo "fib route e2e: a policy rule did not make route lookups fail closed"
	status=1
fi
# and a new route lookup rule is refused at commit (EOPNOTSUPP)
if n add rule ip t pre fib saddr . iif oif missing drop 2>/dev/null; then
	echo "fib route e2e: a route lookup rule was accepted next to a policy rule"
	status=1
fi

kill -0 "$dpid" 2>/dev/null || { echo "fib route e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "fib route e2e: identical"; cat "$work/k.list"; }
exit $status
