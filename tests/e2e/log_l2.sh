#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# log_l2.sh - end to end: nft `log` in the netdev, bridge and arp families.
# Each side: netns FW with bridge br0 (10.11.0.254/24) and ports pa, pb,
# veth peers of netns A (ea, 10.11.0.1) and B (eb, 10.11.0.2); in FW a
# netdev table (ingress and egress of pa), a bridge table (all five
# hooks) and an arp table (input, output) log every frame, with and
# without `flags ether`, and some rules `log group N` to an nfnetlink_log
# listener (nflog-listen.py) in FW. The same frames go through the
# kernel's nf_tables on one side and nfbpfd on the other: UDP forwarded,
# to and from the bridge, ARP requests and replies (to FW and across the
# bridge), a short ARP, frames of unknown ethertypes both ways, a VLAN-
# tagged datagram, a forwarded datagram with bridge-nf-call-iptables off
# (no PHYSIN=), IPv6 frames with extension headers. ebtables-nft adds its
# log and nflog watchers (xt targets "log", "nflog": ebt_log's own line
# format). The kernel log lines (IP IDs normalised) and the NFLOG
# messages must be the same, and the kernel must have logged them (at
# least 60 lines, exactly COUNT NFLOG messages).
# Needs root; sets net.netfilter.nf_log_all_netns=1 for the run and
# restores it. Skipped (77) if not root.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
[ -w /dev/kmsg ] || { echo "log_l2 e2e: no /dev/kmsg, skipped"; exit 77; }
sysctl=/proc/sys/net/netfilter/nf_log_all_netns
old=$(cat $sysctl)
e2e_on_exit() { echo "$old" > $sysctl; }
e2e_start log_l2 M ebtables-nft
py=/usr/bin/python3; [ -x $py ] || py=python3
listen=$top_srcdir/tests/e2e/nflog-listen.py
COUNT=24

mac_br=02:00:00:00:0c:fe
mac_a=02:00:00:00:0c:01
mac_b=02:00:00:00:0c:02

# side S: netns ${tag}S (fw), ${tag}Sa, ${tag}Sb (as tests/e2e/bridge.sh)
topology() {
	local fw=$tag$1 a=$tag${1}a b=$tag${1}b n
	for n in "$fw" "$a" "$b"; do
		e2e_netns "$n" || return 1
		ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	done
	ip -n "$fw" link add br0 address $mac_br type bridge forward_delay 0 \
		stp_state 0 mcast_snooping 0 &&
	ip -n "$fw" link add pa type veth peer name ea netns "$a" &&
	ip -n "$fw" link add pb type veth peer name eb netns "$b" &&
	ip -n "$a" link set ea address $mac_a &&
	ip -n "$b" link set eb address $mac_b &&
	ip -n "$fw" link set pa master br0 && ip -n "$fw" link set pb master br0 &&
	ip -n "$fw" addr add 10.11.0.254/24 dev br0 &&
	ip -n "$a" addr add 10.11.0.1/24 dev ea &&
	ip -n "$b" addr add 10.11.0.2/24 dev eb || return 1
	ip -n "$fw" neigh add 10.11.0.1 lladdr $mac_a dev br0 nud permanent &&
	ip -n "$a" neigh add 10.11.0.2 lladdr $mac_b dev ea nud permanent &&
	ip -n "$a" neigh add 10.11.0.254 lladdr $mac_br dev ea nud permanent &&
	ip -n "$b" neigh add 10.11.0.1 lladdr $mac_a dev eb nud permanent || return 1
	for n in "$a:ea" "$b:eb" "$fw:pa" "$fw:pb" "$fw:br0"; do
		ip -n "${n%%:*}" link set "${n#*:}" up || return 1
	done
	for _ in $(seq 50); do
		[ "$(bridge -n "$fw" link show | grep -c 'state forwarding')" = 2 ] && return 0
		sleep 0.1
	done
	echo "log_l2 e2e: ports not forwarding on side $1"
	return 1
}

ruleset() {
	cat <<NFT
table netdev n {
	chain ipa {
		type filter hook ingress device "pa" priority 0;
		ether type != ip log prefix "$1 nin: " flags ether
		ether type ip log prefix "$1 nin4: "
		udp dport 7101 log group 2
	}
	chain epa {
		type filter hook egress device "pa" priority 0;
		log prefix "$1 neg: " level info
		ether type arp log prefix "$1 negm: " flags ether
		udp dport 7103 log group 6 queue-threshold 1
	}
}
table bridge b {
	chain c_pre {
		type filter hook prerouting priority 0;
		log prefix "$1 bpre: "
	}
	chain c_in {
		type filter hook input priority 0;
		log prefix "$1 bin: " flags ether
	}
	chain c_fwd {
		type filter hook forward priority 0;
		log prefix "$1 bfwd: " level info flags all
		udp dport { 7101, 7105 } log group 1 prefix "br fwd"
	}
	chain c_out {
		type filter hook output priority 0;
		log prefix "$1 bout: "
	}
	chain c_post {
		type filter hook postrouting priority 0;
		log prefix "$1 bpost: " flags ether
		ether type arp log group 4
	}
}
table arp a {
	chain c_in {
		type filter hook input priority 0;
		log prefix "$1 ain: " flags ether
		log group 6 queue-threshold 1
	}
	chain c_out {
		type filter hook output priority 0;
		log prefix "$1 aout: " level debug flags ether
		log prefix "$1 aout2: "
		log group 2
	}
}
NFT
}

# ebtables-nft watchers: log (its own line, with --log-ip/-arp/-ip6
# or not; it returns EBT_CONTINUE) and nflog (nfnetlink_log;
# --nflog-range is ignored by the kernel)
ebrules() {
	local p=$1 fw=$2
	shift 2
	eb() { ip netns exec "$fw" "${pre[@]}" ebtables-nft "$@"; }
	local pre=("$@")
	eb -A FORWARD --log-level info --log-prefix "$p ebfwd:" --log-ip --log-arp --log-ip6 -j CONTINUE &&
	eb -A FORWARD -p IPv6 --log-prefix "$p ebfwd6" -j CONTINUE &&
	eb -A FORWARD -p IPv6 --nflog-group 3 --nflog-prefix eb6 --nflog-range 40 &&
	eb -A INPUT --log-level notice --log-prefix "$p ebin:" --log-arp -j CONTINUE &&
	eb -A OUTPUT --log-level debug --log-prefix "$p ebout:" --log-ip --log-arp -j ACCEPT &&
	eb -t nat -A PREROUTING -p ARP --nflog-group 5 --nflog-threshold 1 -j CONTINUE &&
	eb -t nat -A POSTROUTING --log-prefix "$p ebpost" --log-ip6 --log-ip -j CONTINUE || return 1
	# the log watcher with EBT_LOG_NFLOG (no option sets it): the
	# kernel's checkentry refuses it (EBT_LOG_MASK lacks it): EINVAL
	local info
	info=$($py -c 'import struct, sys
print((struct.pack("B", 5) + sys.argv[1].encode().ljust(31, b"\0") +
       struct.pack("=I", 0x0f)).hex())' "$p ebnf: ")
	ip netns exec "$fw" "$@" $py "$top_srcdir/tests/e2e/xt-target-raw.py" 7 filter \
		FORWARD log 0 "$info"
	[ $? = 22 ] || { echo "log_l2 e2e: EBT_LOG_NFLOG not refused with EINVAL"; return 1; }
}

# the frames of side S, sent from A (and one datagram from FW)
frames() {
	ip netns exec "$tag${1}a" $py - <<'PY'
import socket, struct, time
def udp(dst, port, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 40000 + port % 1000))
    s.sendto(b"u" * size, (dst, port))
    s.close()
    time.sleep(0.1)
p = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
p.bind(("ea", 0))
mac_a = bytes.fromhex("02000000" "0c01")
def arp(tpa):
    body = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + mac_a + \
        socket.inet_aton("10.11.0.1") + b"\0" * 6 + socket.inet_aton(tpa)
    p.send(b"\xff" * 6 + mac_a + struct.pack("!H", 0x0806) + body)
    time.sleep(0.3)
udp("10.11.0.2", 7101, 20)	# forwarded
udp("10.11.0.254", 7102, 30)	# to the bridge
arp("10.11.0.254")		# FW replies
arp("10.11.0.2")		# across the bridge, B replies
# an unknown ethertype to B, and a short ARP (no payload: INCOMPLETE)
p.send(bytes.fromhex("02000000" "0c02") + mac_a + b"\x88\xb5" + b"x" * 46)
time.sleep(0.1)
p.send(b"\xff" * 6 + mac_a + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + b"\0" * 10)
time.sleep(0.1)
# a UDP datagram to B in VLAN 5 (priority 3): the tag goes to
# skb->vlan_all on receive; no PHYSIN= (bridge-nf-filter-vlan-tagged 0)
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    return ~(s + (s >> 16)) & 0xffff
udph = struct.pack("!HHHH", 40105, 7105, 8 + 6, 0) + b"vlan!!"
iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udph), 7, 0, 64, 17, 0,
                  socket.inet_aton("10.11.0.1"), socket.inet_aton("10.11.0.2"))
iph = iph[:10] + struct.pack("!H", csum(iph)) + iph[12:]
p.send(bytes.fromhex("02000000" "0c02") + mac_a + struct.pack("!HHH", 0x8100, 3 << 13 | 5, 0x0800) + iph + udph)
time.sleep(0.1)
# IPv6 frames to B (IPv6 is off in the netns: raw), for ebt_log's
# ipv6_skip_exthdr(): hop-by-hop and destination options before UDP;
# AH (4-byte units) before TCP; a later fragment (the walk stops at the
# fragment header: no ports); NEXTHDR_NONE; ESP; 12 destination options
# headers before UDP; a truncated UDP header
mac_b = bytes.fromhex("02000000" "0c02")
def ip6(nh, payload, tc=0):
    return mac_b + mac_a + b"\x86\xdd" + struct.pack("!IHBB", 6 << 28 | tc << 20 | 0x12345,
        len(payload), nh, 64) + bytes.fromhex("fd000000000000000000000000000001") + \
        bytes.fromhex("fd000000000000000000000000000002") + payload
def ext(nh, n8):
    return bytes([nh, n8 - 1]) + b"\x01" + bytes([8 * n8 - 4]) + b"\0" * (8 * n8 - 4)
udp6 = struct.pack("!HHHH", 40201, 7201, 12, 0) + b"six6"
tcp6 = struct.pack("!HHIIBBHHH", 40202, 7202, 1, 0, 5 << 4, 2, 1024, 0, 0)
for f in (ip6(0, ext(60, 1) + ext(17, 2) + udp6, tc=0xb8),
          ip6(51, bytes([6, 4]) + b"\0" * 2 + b"\0" * 20 + tcp6),
          ip6(44, bytes([17, 0]) + struct.pack("!HI", 8 << 3 | 1, 77) + udp6),
          ip6(44, bytes([17, 0]) + struct.pack("!HI", 1, 78) + udp6),
          ip6(59, b"\0" * 8),
          ip6(0, ext(50, 1) + b"\0" * 16),
          ip6(60, b"".join(ext(60, 1) for _ in range(11)) + ext(17, 1) + udp6),
          ip6(17, b"\x9d")):
    p.send(f + bytes(max(0, 60 - len(f))))
    time.sleep(0.1)
PY
	# an unknown ethertype from B to A: out of pa (netdev egress: MAC=)
	ip netns exec "$tag${1}b" $py -c "
import socket, time
p = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
p.bind(('eb', 0))
p.send(bytes.fromhex('020000000c01020000000c0288b6') + b'y' * 46)
time.sleep(0.1)"
	ip netns exec "$tag$1" $py -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('0.0.0.0', 40103))
s.sendto(b'o' * 8, ('10.11.0.1', 7103))"
	sleep 0.3
	# br_netfilter off for IPv4 in FW: a forwarded datagram has no
	# PHYSIN= at postrouting any more
	ip netns exec "$tag$1" sysctl -q -w net.bridge.bridge-nf-call-iptables=0 2>/dev/null || :
	ip netns exec "$tag${1}a" $py -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('0.0.0.0', 40104))
s.sendto(b'n' * 4, ('10.11.0.2', 7104))"
	sleep 0.3
}

# side S WRAPPER...: topology, ruleset, listener, frames
side() {
	local x=$1 fw=$tag$1
	shift
	topology "$x" || return 1
	ruleset "$tag$x" | ip netns exec "$fw" "$@" nft -f - || return 1
	ebrules "$tag$x" "$fw" "$@" || { echo "log_l2 e2e: ebtables-nft failed on side $x"; return 1; }
	rm -f "$work/ready$x"
	ip netns exec "$fw" "$@" $py "$listen" "$work/ready$x" $COUNT > "$work/nflog$x" 2>&1 &
	local lpid=$!
	for _ in $(seq 100); do [ -e "$work/ready$x" ] && break; sleep 0.1; done
	[ -e "$work/ready$x" ] || { echo "log_l2 e2e: listener $x not ready"; cat "$work/nflog$x"; return 1; }
	frames "$x" || return 1
	wait $lpid
	{ ip netns exec "$fw" "$@" ebtables-nft -L --Lc
	  ip netns exec "$fw" "$@" ebtables-nft -t nat -L --Lc; } 2>&1 |
		sed "s/$tag$x /T /" > "$work/eblist$x"
}

echo 1 > $sysctl
side k || exit 1
side b "$run" || { tail "$work/nfbpfd.log"; exit 1; }
sleep 1
echo "$old" > $sysctl

norm() {
	sed -E -e "s/$tag[kb] /T /" -e 's/ ID=[0-9]+ / ID=x /g' | sort
}
dmesg -x 2>/dev/null | grep -F "$tag" > "$work/raw"
grep -F "${tag}k " "$work/raw" | sed -E 's/^[a-z]+ *:([a-z]+) *: *\[[ 0-9.]+\] /\1 /' | norm > "$work/k"
grep -F "${tag}b " "$work/raw" | sed -E 's/^[a-z]+ *:([a-z]+) *: *\[[ 0-9.]+\] /\1 /' | norm > "$work/b"
nk=$(wc -l < "$work/k")
echo "log_l2 e2e: kernel logged $nk lines, nfbpfd $(wc -l < "$work/b")"
fail=0
if [ "$nk" -lt 60 ] || ! diff -u "$work/k" "$work/b"; then
	echo "log_l2 e2e: log lines differ"; fail=1
fi
nm=$(grep -c " type 0x400 " "$work/nflogk")
echo "log_l2 e2e: kernel sent $nm NFLOG packet messages, nfbpfd $(grep -c " type 0x400 " "$work/nflogb")"
if [ "$nm" -ne $COUNT ] || ! diff -u "$work/nflogk" "$work/nflogb"; then
	echo "log_l2 e2e: NFLOG messages differ"; fail=1
fi
if ! grep -q 'pcnt = [1-9]' "$work/eblistk" || ! diff -u "$work/eblistk" "$work/eblistb"; then
	echo "log_l2 e2e: ebtables-nft listings differ"; fail=1
fi
if [ $fail = 1 ]; then
	echo "log_l2 e2e: FAIL"; cat "$work/raw"; tail "$work/nfbpfd.log"; exit 1
fi
echo "log_l2 e2e: PASS"
