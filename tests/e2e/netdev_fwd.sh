#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netdev_fwd.sh - end to end: "fwd ip/ip6 to ADDR device DEV" and "meta
# pkttype set" in netdev (and bridge) chains, enforced by the kernel in
# one set of scratch netns and by nfbpfd's tc programs in another. Each
# side: netns S (s0: 10.1.0.1, fd01::1) -- R (r0: 10.1.0.2 and .3, fd01::2
# and ::3; r1: 10.2.0.1, fd02::1) -- D (d0: 10.2.0.2, fd02::2), fixed
# macs, no forwarding in R. S routes 10.3.0.0/24 and fd03::/64 through R,
# which only the fwd rules of r0's ingress chain send on, to D's address
# as the next hop (R resolves it: ARP, neighbour discovery); R's own
# datagrams to 10.4.0.5 (routed out of r0) r0's egress chain sends to D
# the same way. A packet socket on D records each frame that arrives:
# macs, TTL or hop limit (64 -> 63, 2 -> 1; 1 and 0 are dropped), IPv4
# header checksum. S also sends to R's own addresses: "meta pkttype set
# other" keeps a datagram from R's socket (ip_rcv() drops
# PACKET_OTHERHOST), "meta pkttype set host" lets one in that S sent to a
# foreign mac. Then a bridge prerouting chain sets the type of datagrams
# to the bridge's address and to a foreign mac. Frames, deliveries and
# counters must be the same on both sides and the expected ones (the
# kernel's too: the test can fail). Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start netdev_fwd F

mac_s=02:00:00:00:0f:01
mac_r0=02:00:00:00:0f:02
mac_r1=02:00:00:00:0f:03
mac_d=02:00:00:00:0f:04
mac_none=02:00:00:00:0f:99

# side X: netns ${tag}Xs, ${tag}Xr, ${tag}Xd
topology() {
	local s=$tag${1}s r=$tag${1}r d=$tag${1}d n
	for n in "$s" "$r" "$d"; do
		e2e_netns "$n" &&
		ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0 \
			net.ipv6.conf.all.forwarding=0 net.ipv4.ip_forward=0 || return 1
	done
	ip -n "$s" link add s0 address $mac_s type veth peer name r0 netns "$r" &&
	ip -n "$r" link set r0 address $mac_r0 &&
	ip -n "$r" link add r1 address $mac_r1 type veth peer name d0 netns "$d" &&
	ip -n "$d" link set d0 address $mac_d &&
	ip -n "$s" addr add 10.1.0.1/24 dev s0 &&
	ip -n "$s" addr add fd01::1/64 dev s0 nodad &&
	ip -n "$r" addr add 10.1.0.2/24 dev r0 &&
	ip -n "$r" addr add 10.1.0.3/24 dev r0 &&
	ip -n "$r" addr add fd01::2/64 dev r0 nodad &&
	ip -n "$r" addr add fd01::3/64 dev r0 nodad &&
	ip -n "$r" addr add 10.2.0.1/24 dev r1 &&
	ip -n "$r" addr add fd02::1/64 dev r1 nodad &&
	ip -n "$d" addr add 10.2.0.2/24 dev d0 &&
	ip -n "$d" addr add fd02::2/64 dev d0 nodad || return 1
	for n in "$s:s0" "$r:r0" "$r:r1" "$d:d0"; do
		ip -n "${n%%:*}" link set "${n#*:}" up || return 1
	done
	# S: R's first addresses at r0's mac, the second ones at a mac
	# nobody has (R's r0 takes them in as PACKET_OTHERHOST)
	ip -n "$s" neigh add 10.1.0.2 lladdr $mac_r0 dev s0 nud permanent &&
	ip -n "$s" neigh add fd01::2 lladdr $mac_r0 dev s0 nud permanent &&
	ip -n "$s" neigh add 10.1.0.3 lladdr $mac_none dev s0 nud permanent &&
	ip -n "$s" neigh add fd01::3 lladdr $mac_none dev s0 nud permanent &&
	ip -n "$s" route add 10.3.0.0/24 via 10.1.0.2 &&
	ip -n "$s" route add fd03::/64 via fd01::2 &&
	ip -n "$r" route add 10.4.0.0/24 via 10.1.0.1 &&
	ip -n "$r" neigh add 10.1.0.1 lladdr $mac_s dev r0 nud permanent
}

cat >"$work/rules.nft" <<'NFT'
table netdev t {
	chain ing {
		type filter hook ingress device "r0" priority 0; policy accept;
		ip daddr 10.3.0.5 udp dport 5000 counter fwd ip to 10.2.0.2 device "r1"
		ip6 daddr fd03::5 udp dport 5000 counter fwd ip6 to fd02::2 device "r1"
		ip6 daddr fd03::5 udp dport 5001 counter fwd ip to 10.2.0.2 device "r1"
		ip6 daddr fd03::5 udp dport 5001 counter
		udp dport 7777 counter meta pkttype set other
		udp dport 7777 meta pkttype other counter
		ip daddr 10.1.0.3 udp dport 7779 counter meta pkttype set host
		ip6 daddr fd01::3 udp dport 7779 counter meta pkttype set host
		meta l4proto udp meta pkttype host counter
		meta l4proto udp meta pkttype other counter
	}
	chain eg {
		type filter hook egress device "r0" priority 0; policy accept;
		ip daddr 10.4.0.5 udp dport 5002 counter fwd ip to 10.2.0.2 device "r1"
	}
}
NFT

# D: every frame to 10.3.0.5/fd03::5 that arrives on d0 in 4 s, one line each
cat >"$work/capture.py" <<'PY'
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("d0", 0))
open(sys.argv[1], "w").close()
end = time.time() + 4
out = []
def mac(b):
    return ":".join("%02x" % x for x in b)
def csum(h):
    t = sum(struct.unpack("!%dH" % (len(h) // 2), h))
    while t >> 16:
        t = (t & 0xffff) + (t >> 16)
    return t
while time.time() < end:
    s.settimeout(max(0.01, end - time.time()))
    try:
        f, a = s.recvfrom(2048)
    except socket.timeout:
        break
    if a[2] == socket.PACKET_OUTGOING:
        continue
    et = f[12:14]
    if et == b"\x08\x00" and f[30:34] in (bytes([10, 3, 0, 5]), bytes([10, 4, 0, 5])):
        ihl = (f[14] & 15) * 4
        port = struct.unpack("!H", f[14 + ihl + 2:14 + ihl + 4])[0]
        out.append("v4 dst %s src %s ttl %d checksum %s port %d %s" % (
            mac(f[0:6]), mac(f[6:12]), f[22],
            "ok" if csum(f[14:14 + ihl]) == 0xffff else "bad",
            port, f[14 + ihl + 8:].decode(errors="replace")))
    elif et == b"\x86\xdd" and f[38:54] == socket.inet_pton(socket.AF_INET6, "fd03::5"):
        port = struct.unpack("!H", f[56:58])[0]
        out.append("v6 dst %s src %s hoplimit %d port %d %s" % (
            mac(f[0:6]), mac(f[6:12]), f[21], port,
            f[62:].decode(errors="replace")))
for l in sorted(out):
    print(l)
PY

# R: datagrams its sockets get on ports 7777-7780 in 3 s
cat >"$work/recv.py" <<'PY'
import select, socket, sys, time
socks = {}
for fam, any_ in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
    for port in range(7777, 7781):
        r = socket.socket(fam, socket.SOCK_DGRAM)
        if fam == socket.AF_INET6:
            r.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        r.bind((any_, port))
        socks[r] = ["udp4" if fam == socket.AF_INET else "udp6", port, 0]
open(sys.argv[1], "w").close()
end = time.time() + 3
while time.time() < end:
    rd, _, _ = select.select(list(socks), [], [], max(0, end - time.time()))
    for r in rd:
        r.recv(2048)
        socks[r][2] += 1
for name, port, n in sorted(socks.values()):
    print(name, port, n)
PY

# S: the datagrams (a fixed number, small pauses for the neighbour queue)
cat >"$work/send.py" <<'PY'
import socket, time
s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for ttl in (64, 2, 1):
    s4.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, ttl)
    s4.sendto(b"ttl%d" % ttl, ("10.3.0.5", 5000))
    time.sleep(0.2)
for hl in (64, 2, 1, 0):
    s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, hl)
    s6.sendto(b"hl%d" % hl, ("fd03::5", 5000))
    time.sleep(0.2)
s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 64)
s6.sendto(b"ip-form", ("fd03::5", 5001))
s4.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, 64)
for port in (7777, 7778):
    s4.sendto(b"x", ("10.1.0.2", port))
    s6.sendto(b"x", ("fd01::2", port))
for port in (7779, 7780):
    s4.sendto(b"x", ("10.1.0.3", port))
    s6.sendto(b"x", ("fd01::3", port))
PY

wait_file() {
	for _ in $(seq 50); do [ -e "$1" ] && return 0; sleep 0.1; done
	return 1
}

status=0
for side in k b; do
	topology $side || { echo "netdev_fwd e2e: topology failed on side $side"; exit 1; }
	s=$tag${side}s r=$tag${side}r d=$tag${side}d
	pre=()
	[ $side = b ] && pre=("$run")
	ip netns exec "$r" "${pre[@]}" nft -f "$work/rules.nft" ||
		{ echo "netdev_fwd e2e: nft -f failed on side $side"; exit 1; }
	ip netns exec "$d" timeout 10 python3 "$work/capture.py" "$work/$side.cap.ok" \
		>"$work/$side.cap" &
	cpid=$!
	ip netns exec "$r" timeout 10 python3 "$work/recv.py" "$work/$side.rcv.ok" \
		>"$work/$side.rcv" &
	rpid=$!
	wait_file "$work/$side.cap.ok" && wait_file "$work/$side.rcv.ok" ||
		{ echo "netdev_fwd e2e: listeners did not start on side $side"; exit 1; }
	ip netns exec "$s" timeout 10 python3 "$work/send.py" ||
		{ echo "netdev_fwd e2e: send failed on side $side"; status=1; }
	# R's own datagrams to 10.4.0.5 (routed out of r0): r0's egress
	# chain sends them to D instead
	ip netns exec "$r" timeout 10 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for ttl in (64, 2, 1):
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TTL, ttl)
    s.sendto(b"eg%d" % ttl, ("10.4.0.5", 5002))
' || { echo "netdev_fwd e2e: egress send failed on side $side"; status=1; }
	wait $cpid $rpid
	ip netns exec "$r" "${pre[@]}" nft list ruleset >"$work/$side.list"
done

for f in cap rcv list; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "netdev_fwd e2e: kernel and nfbpf differ ($f)"
		status=1
	fi
done
# what the kernel does, so that the comparison says something
cat >"$work/want.cap" <<EOF
v4 dst $mac_d src $mac_r1 ttl 1 checksum ok port 5000 ttl2
v4 dst $mac_d src $mac_r1 ttl 1 checksum ok port 5002 eg2
v4 dst $mac_d src $mac_r1 ttl 63 checksum ok port 5000 ttl64
v4 dst $mac_d src $mac_r1 ttl 63 checksum ok port 5002 eg64
v6 dst $mac_d src $mac_r1 hoplimit 1 port 5000 hl2
v6 dst $mac_d src $mac_r1 hoplimit 63 port 5000 hl64
EOF
cat >"$work/want.rcv" <<'EOF'
udp4 7777 0
udp4 7778 1
udp4 7779 1
udp4 7780 0
udp6 7777 0
udp6 7778 1
udp6 7779 1
udp6 7780 0
EOF
for f in cap rcv; do
	if ! diff -u "$work/want.$f" "$work/k.$f"; then
		echo "netdev_fwd e2e: the kernel's $f is not the expected one"
		status=1
	fi
done
for want in 'udp dport 5001 counter packets 1 bytes [0-9]* fwd ip to' \
	    'udp dport 5001 counter packets 1 ' \
	    'udp dport 5000 counter packets 3 bytes [0-9]* fwd ip to' \
	    'udp dport 5000 counter packets 4 bytes [0-9]* fwd ip6 to' \
	    'udp dport 7777 meta pkttype other counter packets 2 ' \
	    'meta pkttype host counter packets 5 '; do
	grep -q "$want" "$work/k.list" ||
		{ echo "netdev_fwd e2e: the kernel's listing lacks '$want'"; status=1; }
done
# bridge prerouting: netns W (bridge br0, 10.12.0.254 and .253, port p0)
# -- A (a0: 10.12.0.1). A sends to .254 at br0's mac (the bridge passes
# it up as PACKET_HOST) and to .253 at a mac nobody has (flooded, not
# passed up): "meta pkttype set host" and "set other" on the first,
# "set host"/"set broadcast" on the second; what W's sockets get and the
# counters must agree
mac_br=02:00:00:00:0c:fe
mac_a=02:00:00:00:0c:01
brtopo() {
	local w=$tag${1}w a=$tag${1}a n
	for n in "$w" "$a"; do
		e2e_netns "$n" &&
		ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	done
	ip -n "$w" link add br0 address $mac_br type bridge forward_delay 0 \
		stp_state 0 mcast_snooping 0 &&
	ip -n "$w" link add p0 type veth peer name a0 netns "$a" &&
	ip -n "$a" link set a0 address $mac_a &&
	ip -n "$w" link set p0 master br0 &&
	ip -n "$w" addr add 10.12.0.254/24 dev br0 &&
	ip -n "$w" addr add 10.12.0.253/24 dev br0 &&
	ip -n "$a" addr add 10.12.0.1/24 dev a0 &&
	ip -n "$w" neigh add 10.12.0.1 lladdr $mac_a dev br0 nud permanent &&
	ip -n "$a" neigh add 10.12.0.254 lladdr $mac_br dev a0 nud permanent &&
	ip -n "$a" neigh add 10.12.0.253 lladdr $mac_none dev a0 nud permanent || return 1
	for n in "$a:a0" "$w:p0" "$w:br0"; do
		ip -n "${n%%:*}" link set "${n#*:}" up || return 1
	done
	for _ in $(seq 50); do
		[ "$(bridge -n "$w" link show | grep -c 'state forwarding')" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}
cat >"$work/br.nft" <<'NFT'
table bridge t {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		udp dport 7102 counter meta pkttype set host
		udp dport 7103 counter meta pkttype set host
		udp dport 7104 counter meta pkttype set broadcast
		meta l4proto udp meta pkttype host counter
		meta l4proto udp meta pkttype other counter
		meta l4proto udp meta pkttype broadcast counter
		udp dport 7101 counter meta pkttype set other
	}
}
NFT
cat >"$work/brrecv.py" <<'PY'
import select, socket, sys, time
socks = {}
for port in range(7101, 7105):
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.bind(("0.0.0.0", port))
    socks[r] = [port, 0]
open(sys.argv[1], "w").close()
end = time.time() + 2
while time.time() < end:
    rd, _, _ = select.select(list(socks), [], [], max(0, end - time.time()))
    for r in rd:
        r.recv(2048)
        socks[r][1] += 1
for port, n in sorted(socks.values()):
    print("udp4", port, n)
PY
for side in k b; do
	brtopo $side || { echo "netdev_fwd e2e: bridge topology failed on side $side"; exit 1; }
	w=$tag${side}w a=$tag${side}a
	pre=()
	[ $side = b ] && pre=("$run")
	ip netns exec "$w" "${pre[@]}" nft -f "$work/br.nft" ||
		{ echo "netdev_fwd e2e: nft -f (bridge) failed on side $side"; exit 1; }
	ip netns exec "$w" timeout 10 python3 "$work/brrecv.py" "$work/$side.brrcv.ok" \
		>"$work/$side.brrcv" &
	rpid=$!
	wait_file "$work/$side.brrcv.ok" ||
		{ echo "netdev_fwd e2e: bridge listener did not start on side $side"; exit 1; }
	ip netns exec "$a" timeout 10 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for dst, port in (("10.12.0.254", 7101), ("10.12.0.254", 7102),
                  ("10.12.0.253", 7103), ("10.12.0.253", 7104)):
    s.sendto(b"x", (dst, port))
' || { echo "netdev_fwd e2e: bridge send failed on side $side"; status=1; }
	wait $rpid
	ip netns exec "$w" "${pre[@]}" nft list ruleset >"$work/$side.brlist"
done
for f in brrcv brlist; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "netdev_fwd e2e: kernel and nfbpf differ ($f)"
		status=1
	fi
done
printf 'udp4 7101 0\nudp4 7102 1\nudp4 7103 0\nudp4 7104 0\n' >"$work/want.brrcv"
diff -u "$work/want.brrcv" "$work/k.brrcv" ||
	{ echo "netdev_fwd e2e: the kernel's bridge deliveries are not the expected ones"; status=1; }
for want in 'meta pkttype host counter packets 3 ' 'meta pkttype broadcast counter packets 1 ' \
	    'udp dport 7101 counter packets 1 '; do
	grep -q "$want" "$work/k.brlist" ||
		{ echo "netdev_fwd e2e: the kernel's bridge listing lacks '$want'"; status=1; }
done
kill -0 "$dpid" 2>/dev/null || { echo "netdev_fwd e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "netdev_fwd e2e: identical"; cat "$work/k.cap" "$work/k.rcv" "$work/k.list" \
	"$work/k.brrcv" "$work/k.brlist"; }
exit $status
