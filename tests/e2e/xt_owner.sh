#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# xt_owner.sh - end to end: iptables-nft -m owner (xt owner rev 1) in
# OUTPUT and POSTROUTING. Per side (k: the kernel, b: nfbpfd) a netns with
# a veth pair: processes of several uids/gids send UDP and TCP SYNs (to a
# closed port: the kernel's RST has no socket file) and ping (the kernel's
# echo reply neither), a peer sends through it to a third netns
# (forwarded: no socket at all), with uid/gid ranges, inversions and
# --socket-exists; the counters (iptables-save -c) must be identical, and
# the kernel's must show that each rule was exercised.
# Needs root; skipped (77) otherwise.
set -u
. "$(dirname "$0")/lib.sh"
e2e_start owner O iptables-nft-restore iptables-nft-save

cat >"$work/rules" <<'IPT'
*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
-A OUTPUT -p udp -m owner --uid-owner 0
-A OUTPUT -p udp -m owner --uid-owner 1000
-A OUTPUT -p udp -m owner --uid-owner 1000-2000
-A OUTPUT -p udp -m owner ! --uid-owner 1000-2000
-A OUTPUT -p udp -m owner --gid-owner 1500
-A OUTPUT -p udp -m owner ! --gid-owner 1500
-A OUTPUT -p udp -m owner --uid-owner 1000 --gid-owner 1500
-A OUTPUT -m owner --socket-exists
-A OUTPUT -m owner ! --socket-exists
-A OUTPUT -p tcp -m owner --uid-owner 0-4294967294
-A OUTPUT -p tcp -m owner ! --uid-owner 0-4294967294
-A OUTPUT -p icmp -m owner ! --uid-owner 7
-A OUTPUT -p icmp -m owner --uid-owner 7
-A OUTPUT -p udp -m owner --uid-owner 1001 -j DROP
-A OUTPUT -p udp
COMMIT
*mangle
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
-A POSTROUTING -p udp -m owner --uid-owner 1000
-A POSTROUTING -p udp -m owner ! --socket-exists
COMMIT
IPT

cat >"$work/send.py" <<'PY'
import os, socket, sys
# uid gid: send 3 UDP datagrams and one TCP SYN to DST as that uid/gid
dst = sys.argv[1]
for spec in sys.argv[2:]:
    uid, gid = (int(v) for v in spec.split(":"))
    pid = os.fork()
    if pid == 0:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _ in range(3):
            try:
                s.sendto(b"x" * 20, (dst, 9))
            except OSError:
                pass
        t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        t.settimeout(1)
        try:
            t.connect((dst, 7))
        except OSError:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
PY

cat >"$work/ping.py" <<'PY'
import socket, struct, sys
# one ICMP echo request from a raw socket (root), to provoke an echo reply
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
body = struct.pack("!BBHHH", 8, 0, 0, 7, 1) + b"ping"
c = sum(struct.unpack("!%dH" % (len(body) // 2), body))
c = (c >> 16) + (c & 0xffff); c = ~(c + (c >> 16)) & 0xffff
s.sendto(body[:2] + struct.pack("!H", c) + body[4:], (sys.argv[1], 0))
PY

status=0
for side in k b; do
	ns=$tag$side
	peer=$tag${side}p
	far=$tag${side}q
	nss+=("$ns" "$peer" "$far")
	ip netns add "$ns" && ip netns add "$peer" && ip netns add "$far" ||
		{ echo "owner e2e: netns setup failed"; exit 1; }
	x() { ip netns exec "$ns" "$@"; }
	y() { ip netns exec "$peer" "$@"; }
	x ip link set lo up && y ip link set lo up &&
	x ip link add v0 type veth peer name p0 netns "$peer" &&
	x ip link set v0 up && y ip link set p0 up &&
	x ip addr add 10.7.0.1/24 dev v0 && y ip addr add 10.7.0.2/24 dev p0 &&
	x ip link add v1 type veth peer name q0 netns "$far" &&
	x ip link set v1 up && ip -n "$far" link set q0 up &&
	x ip addr add 10.8.0.1/24 dev v1 && ip -n "$far" addr add 10.8.0.2/24 dev q0 &&
	x sysctl -qw net.ipv4.ip_forward=1 &&
	y ip route add 10.8.0.0/24 via 10.7.0.1 ||
		{ echo "owner e2e: topology failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	x "${pre[@]}" iptables-nft-restore "$work/rules" ||
		{ echo "owner e2e: iptables-nft-restore failed on side $side"; exit 1; }
	x python3 "$work/send.py" 10.7.0.2 0:0 1000:1500 1001:1500 1500:100 3000:3000 65534:65534
	x python3 "$work/send.py" 127.0.0.1 1000:1000 0:1500
	y python3 "$work/ping.py" 10.7.0.1
	y python3 "$work/send.py" 10.7.0.1 0:0
	y python3 "$work/send.py" 10.8.0.2 0:0	# forwarded: no socket
	sleep 0.2
	x "${pre[@]}" iptables-nft-save -c | grep '^\[' >"$work/$side.save"
done
if ! diff -u "$work/k.save" "$work/b.save"; then
	echo "owner e2e: kernel and nfbpf differ"
	status=1
fi
# every rule but the two that match nothing counted something in the kernel
zero=$(grep -c '^\[0:0\]' "$work/k.save")
if [ "$zero" -gt 2 ]; then
	echo "owner e2e: $zero rules never matched in the kernel: the traffic does not exercise them"
	cat "$work/k.save"
	status=1
fi
kill -0 "$dpid" 2>/dev/null || { echo "owner e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "owner e2e: identical"; cat "$work/k.save"; }
exit $status
