#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# nflog.sh - end to end: nfnetlink_log. The same listener
# (nflog-listen.py, a raw NETLINK_NETFILTER socket) runs once against the
# kernel in a scratch netns and once under nfbpf-run against nfbpfd, with
# the same `log group` / xt NFLOG ruleset and the same packets sent over a
# veth pair from a second scratch netns: the config answers and the
# decoded NFULNL_MSG_PACKET messages, datagram by datagram, must be the
# same (timestamps, IPv4 ID/checksum, IPv6 flow labels and fragment ids
# masked). Skipped (77) if not root or without iptables-nft/setpriv.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start nflog N iptables-nft setpriv
py=/usr/bin/python3; [ -x $py ] || py=python3
listen=$top_srcdir/tests/e2e/nflog-listen.py
COUNT=16

# fixed addresses and neighbours: no resolution reorders packets
e2e_pair_extra() {
	local s=$1 r=$2

	ip -n "$s" link set veth0 address 02:00:00:00:00:01
	ip -n "$r" link set veth1 address 02:00:00:00:00:02
	ip -n "$s" neigh add 10.9.0.2 lladdr 02:00:00:00:00:02 dev veth0 nud permanent
	ip -n "$s" neigh add fd00::2 lladdr 02:00:00:00:00:02 dev veth0 nud permanent
	ip -n "$r" neigh add 10.9.0.1 lladdr 02:00:00:00:00:01 dev veth1 nud permanent
}
e2e_pair k && e2e_pair b || { echo "nflog e2e: netns setup failed"; exit 1; }

ruleset() {
	cat <<NFT
table inet t {
	chain in {
		type filter hook input priority 0;
		udp dport 9001 log group 1 prefix "g1 "
		udp dport 9002 log group 2 snaplen 20
		udp dport 9003 log group 3 queue-threshold 2 prefix "g3"
		udp dport 9008 log group 8
	}
	chain pre {
		type filter hook prerouting priority 0;
		udp dport 9005 log group 5
	}
	chain out {
		type filter hook output priority 0;
		udp dport 9004 log group 4 prefix "out"
	}
}
NFT
}
xt="-A INPUT -p udp --dport 9006 -j NFLOG --nflog-group 6 --nflog-prefix xt6 --nflog-size 30 --nflog-threshold 2"

# send FROM-NS: UDP datagrams from fixed source ports
send() {
	ip netns exec "$1" $py - <<'PY'
import socket
def udp(fam, dst, port, size, n=1):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0" if fam == socket.AF_INET else "::", 40000 + port % 1000))
    for i in range(n):
        s.sendto(bytes([65 + i]) * size, (dst, port))
    s.close()
A4, A6 = socket.AF_INET, socket.AF_INET6
udp(A4, "10.9.0.2", 9001, 10)
udp(A6, "fd00::2", 9001, 12)
udp(A4, "10.9.0.2", 9001, 3000)
udp(A6, "fd00::2", 9001, 3000)
udp(A4, "10.9.0.2", 9002, 100)
udp(A4, "10.9.0.2", 9003, 20, 4)
udp(A4, "10.9.0.2", 9005, 30, 3)
udp(A4, "10.9.0.2", 9006, 40, 2)
udp(A4, "10.9.0.2", 9008, 50)
PY
}
# from the receiver: root with SO_MARK 0x42 (MARK), nobody (UID/GID)
out_send="import os, socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if os.getuid() == 0:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, 0x42)
s.sendto(b'o' * 8, ('10.9.0.1', 9004))"

# side X WRAPPER...: ruleset, listener, packets; the listener's output in $work/X
side() {
	local x=$1 s=$tag$1s r=$tag$1r
	shift
	ruleset | ip netns exec "$r" "$@" nft -f - || return 1
	ip netns exec "$r" "$@" iptables-nft $xt || return 1
	rm -f "$work/ready$x"
	ip netns exec "$r" "$@" $py "$listen" "$work/ready$x" $COUNT > "$work/$x" 2>&1 &
	local lpid=$!
	for _ in $(seq 100); do [ -e "$work/ready$x" ] && break; sleep 0.1; done
	[ -e "$work/ready$x" ] || { echo "nflog e2e: listener $x not ready"; cat "$work/$x"; return 1; }
	send "$s"
	ip netns exec "$r" $py -c "$out_send"
	ip netns exec "$r" setpriv --reuid=65534 --regid=65533 --clear-groups $py -c "$out_send"
	wait $lpid
}
side k || exit 1
side b "$run" || { tail "$work/nfbpfd.log"; exit 1; }

nk=$(grep -c " type 0x400 " "$work/k")
echo "nflog e2e: kernel sent $nk packet messages, nfbpfd $(grep -c " type 0x400 " "$work/b")"
if [ "$nk" -ne $COUNT ] || ! diff -u "$work/k" "$work/b"; then
	echo "nflog e2e: FAIL"; tail "$work/nfbpfd.log"; exit 1
fi
echo "nflog e2e: PASS"
