#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_fib6_route.sh - end to end: IPv6 fib route lookups (oif,
# oifname, exists/missing: the reverse path filter, as firewalld loads
# it in an inet table) follow the namespace's routes. Per side (k: the
# kernel, b: nfbpfd) a netns fw with two veth links to a netns p; p sends
# raw frames (AF_PACKET) into fw with sources that are and are not
# routable back through the input device, link-local ones included,
# while fw's routes change under a loaded ruleset: routes through a
# gateway, a blackhole, two routes of one prefix with different metrics,
# two of the same metric (the first counts, whatever its router
# preference), a device renamed, a device set down. Listings (counters)
# must be identical. Then, on side b only, what nfbpfd cannot answer
# fails closed: a multipath route (the kernel picks a sibling by a flow
# hash under its own key), a route with a source prefix, a policy rule.
#
# nfbpfd's route mirror follows events asynchronously, so after each
# change the script waits for a barrier: a route for a fresh probe
# prefix, whose frame the probe rule (not compared) counts once the
# mirror has caught up with every change made before it. The wait is
# bounded (10 s); the verdicts compared are those of the frames sent
# after it. Needs root; skipped (77) otherwise.
set -u
. "$(dirname "$0")/lib.sh"
e2e_start "fib6 route" S

cat >"$work/rules.nft" <<'NFT'
table inet t {
	chain pre {
		type filter hook prerouting priority filter + 10; policy accept;
		meta nfproto ipv4 accept
		ip6 saddr fd99::/16 fib saddr . iif oif exists counter comment "probe"
		ip6 saddr fd99::/16 accept
		icmpv6 type { nd-router-advert, nd-neighbor-solicit, nd-neighbor-advert, mld2-listener-report } accept
		fib saddr . iif oif missing counter
		fib saddr . iif oif exists counter
		fib saddr . iif oifname "v0" counter
		fib saddr oif "v0" counter
		fib saddr oifname "v1" counter
		fib saddr oifname "w1" counter
		fib saddr oif missing counter
		fib daddr oif missing counter
		fib daddr oifname "v0" counter
		ip6 saddr fd01::7 fib saddr . iif oif missing counter
		ip6 saddr fd02::7 fib saddr . iif oif missing counter
		ip6 saddr fd03::3 fib saddr . iif oif missing counter
		ip6 saddr fd05::5 fib saddr . iif oif missing counter
		ip6 saddr fd06::6 fib saddr . iif oif missing counter
		ip6 saddr fd07::7 fib saddr . iif oif missing counter
		ip6 saddr fd07::7 fib saddr oifname "v0" counter
		ip6 saddr fd08::8 fib saddr oifname "v0" counter
		ip6 saddr fe80::7 fib saddr . iif oif missing counter
		ip6 saddr fe80::7 fib saddr oifname "v0" counter
		ip6 saddr ::1 fib saddr . iif oif missing counter
		ip6 saddr fd01::1 fib saddr . iif oif missing counter
		meta nfproto ipv6 fib saddr . mark . iif oif missing counter
		fib saddr . iif oif missing udp dport 7 counter drop
		counter comment "survivors"
	}
}
NFT

# frames from p into fw: send.py IFACE DMAC SRC... (to fd01::1, UDP 7 and 9)
cat >"$work/send.py" <<'PY'
import socket, struct, sys
ifname, dmac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", ""))
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s >> 16) + (s & 0xffff)
    return ~s & 0xffff or 0xffff
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
smac = s.getsockname()[4]
dst = socket.inet_pton(socket.AF_INET6, "fd01::1")
for a in sys.argv[3:]:
    src = socket.inet_pton(socket.AF_INET6, a)
    for port in (7, 9):
        udp = struct.pack("!HHHH", 4000, port, 9, 0) + b"x"
        ph = src + dst + struct.pack("!IxxxB", len(udp), 17)
        udp = udp[:6] + struct.pack("!H", csum(ph + udp)) + udp[8:]
        ip = struct.pack("!IHBB", 0x60000000, len(udp), 17, 64) + src + dst
        s.send(dmac + smac + b"\x86\xdd" + ip + udp)
PY

status=0
srcs="fd01::7 fd02::7 fd03::3 fd05::5 fd06::6 fd07::7 fd08::8 fe80::7 ::1 fd01::1 fd09::9"
for side in k b; do
	fw=$tag${side}f
	p=$tag${side}p
	nss+=("$fw" "$p")
	ip netns add "$fw" && ip netns add "$p" ||
		{ echo "fib6 route e2e: netns setup failed"; exit 1; }
	x() { ip netns exec "$fw" "$@"; }
	y() { ip netns exec "$p" "$@"; }
	x sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 &&
	y sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 &&
	x ip link set lo up &&
	x ip link add v0 type veth peer name p0 netns "$p" &&
	x ip link add v1 type veth peer name p1 netns "$p" &&
	x ip link set v0 up && x ip link set v1 up &&
	y ip link set p0 up && y ip link set p1 up &&
	x ip addr add fd01::1/64 dev v0 nodad && x ip addr add fd02::1/64 dev v1 nodad ||
		{ echo "fib6 route e2e: topology failed"; exit 1; }
	mac0=$(x cat /sys/class/net/v0/address)
	pre=()
	[ $side = b ] && pre=("$run")
	n() { x "${pre[@]}" nft "$@"; }
	n -f "$work/rules.nft" ||
		{ echo "fib6 route e2e: nft -f failed on side $side"; exit 1; }
	step=0
	# barrier: a route for a fresh probe prefix through v0 is in the mirror
	barrier() {
		local want before i
		step=$((step + 1))
		x ip -6 route add "fd99:$step::/64" dev v0
		before=$(n list chain inet t pre | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
		for i in $(seq 200); do
			y python3 "$work/send.py" p0 "$mac0" "fd99:$step::1"
			want=$(n list chain inet t pre | sed -n 's/.*packets \([0-9]*\).*probe.*/\1/p')
			[ "$want" != "$before" ] && return 0
			sleep 0.05
		done
		echo "fib6 route e2e: side $side: route mirror did not catch up (step $step)"
		exit 1
	}
	traffic() { y python3 "$work/send.py" p0 "$mac0" $srcs; }
	barrier; traffic
	x ip -6 route add fd03::/64 via fd02::2 dev v1
	x ip -6 route add blackhole fd06::/64
	x ip -6 route add fd07::/64 dev v1 metric 100
	x ip -6 route add fd07::/64 dev v0 metric 200
	x ip -6 route add fd08::/64 dev v1 metric 100 pref low
	x ip -6 route append fd08::/64 dev v0 metric 100 pref high
	barrier; traffic
	x ip -6 route del fd07::/64 dev v1 metric 100
	x ip -6 route del fd08::/64 dev v0 metric 100
	x ip -6 route append fd08::/64 dev v0 metric 100 pref medium
	barrier; traffic
	x ip link set v1 down
	x ip link set v1 name w1
	x ip link set w1 up
	x ip addr add fd02::1/64 dev w1 nodad
	x ip -6 route add fd03::/64 via fd02::2 dev w1
	barrier; traffic
	x ip link set v0 down
	x ip link set v0 up
	x ip addr add fd01::1/64 dev v0 nodad 2>/dev/null
	barrier; traffic
	n list ruleset | grep -v probe >"$work/$side.list"
done
if ! diff -u "$work/k.list" "$work/b.list"; then
	echo "fib6 route e2e: kernel and nfbpf differ"
	status=1
fi

# fail closed on side b: a multipath route, a route with a source
# prefix, then a policy rule
fw=${tag}bf
p=${tag}bp
x() { ip netns exec "$fw" "$@"; }
y() { ip netns exec "$p" "$@"; }
n() { x "$run" nft "$@"; }
survivors() { n list chain inet t pre | sed -n 's/.*packets \([0-9]*\).*survivors.*/\1/p'; }
pre=("$run")
mac0=$(x cat /sys/class/net/v0/address)
x ip -6 route add fd05::/64 nexthop via fd02::2 dev w1 nexthop via fd01::2 dev v0 ||
	{ echo "fib6 route e2e: multipath setup failed"; exit 1; }
barrier
before=$(survivors)
y python3 "$work/send.py" p0 "$mac0" fd05::5
if [ "$before" != "$(survivors)" ]; then
	echo "fib6 route e2e: a multipath route did not fail closed"
	status=1
fi
y python3 "$work/send.py" p0 "$mac0" fd01::7
if [ "$(survivors)" != "$((before + 2))" ]; then
	echo "fib6 route e2e: a plain route stopped working next to a multipath one"
	status=1
fi
before=$(survivors)
x ip -6 route add fd0a::/64 from fd0b::/64 dev v0 ||
	{ echo "fib6 route e2e: source route setup failed"; exit 1; }
for i in $(seq 200); do
	y python3 "$work/send.py" p0 "$mac0" fd01::7
	[ "$(survivors)" = "$before" ] && break
	before=$(survivors)
	sleep 0.05
done
before=$(survivors)
y python3 "$work/send.py" p0 "$mac0" fd01::7
if [ "$before" != "$(survivors)" ]; then
	echo "fib6 route e2e: a source-specific route did not make lookups fail closed"
	status=1
fi
x ip -6 route del fd0a::/64 from fd0b::/64 dev v0
for i in $(seq 200); do
	y python3 "$work/send.py" p0 "$mac0" fd01::7
	[ "$(survivors)" != "$before" ] && break
	sleep 0.05
done
x ip -6 rule add from fd0c::/64 table 100
before=$(survivors)
y python3 "$work/send.py" p0 "$mac0" fd01::7
if [ "$before" != "$(survivors)" ]; then
	echo "fib6 route e2e: a policy rule did not make lookups fail closed"
	status=1
fi
# and a new route lookup rule is refused at commit (EOPNOTSUPP)
if n add rule inet t pre fib saddr . iif oif missing drop 2>/dev/null; then
	echo "fib6 route e2e: a route lookup rule was accepted next to a policy rule"
	status=1
fi

kill -0 "$dpid" 2>/dev/null || { echo "fib6 route e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "fib6 route e2e: identical"; cat "$work/k.list"; }
exit $status
