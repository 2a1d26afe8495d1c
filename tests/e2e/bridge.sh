#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bridge.sh - end to end: a bridge table with chains at all five bridge
# hooks, enforced by the kernel in one set of scratch netns and by nfbpfd's
# BPF dataplane in another. Each side: netns FW with bridge br0
# (10.11.0.254/24) and ports pa, pb, veth peers of netns A (10.11.0.1)
# and B (10.11.0.2); static neighbours and no IPv6, so no frame but the
# test's own crosses the bridge. UDP datagrams go between A, B and FW,
# unicast and broadcast (tests/e2e/bridge-send.py); what each receives
# and the counters of the ruleset must be the same on both sides, and
# equal what the rules say (the kernel side too: the test can fail).
# Then ebtables-nft rules on both sides (ip, vlan, arp, mark, ip6, stp, 802_3
# matches, the mark target with each action and verdict), same frames
# (and raw IPv6 frames, BPDUs and LLC/SNAP frames for ip6, stp and 802_3), same listing with
# counters.
# Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start bridge B ebtables-nft

mac_br=02:00:00:00:0b:fe
mac_a=02:00:00:00:0b:01
mac_b=02:00:00:00:0b:02

# side S: netns ${tag}S (fw), ${tag}Sa, ${tag}Sb
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
	ip -n "$fw" neigh add 10.11.0.2 lladdr $mac_b dev br0 nud permanent &&
	ip -n "$a" neigh add 10.11.0.2 lladdr $mac_b dev ea nud permanent &&
	ip -n "$a" neigh add 10.11.0.254 lladdr $mac_br dev ea nud permanent &&
	ip -n "$b" neigh add 10.11.0.1 lladdr $mac_a dev eb nud permanent &&
	ip -n "$b" neigh add 10.11.0.254 lladdr $mac_br dev eb nud permanent || return 1
	for n in "$a:ea" "$b:eb" "$fw:pa" "$fw:pb" "$fw:br0"; do
		ip -n "${n%%:*}" link set "${n#*:}" up || return 1
	done
	# both ports forwarding (STP off, forward delay 0: at once)
	for _ in $(seq 50); do
		[ "$(ip -n "$fw" -o link show master br0 | grep -c 'state UP')" = 2 ] &&
		[ "$(bridge -n "$fw" link show | grep -c 'state forwarding')" = 2 ] && return 0
		sleep 0.1
	done
	echo "bridge e2e: ports not forwarding on side $1"
	return 1
}

ruleset='table bridge t {
	chain pre {
		type filter hook prerouting priority -10; policy accept;
		udp dport 7001 counter drop
		meta pkttype host counter
		meta pkttype broadcast counter
		meta pkttype other counter
		meta length 36 counter
		iifname "pa" counter
		counter
	}
	chain in_c {
		type filter hook input priority 0; policy accept;
		iifname "pa" udp dport 7002 counter drop
		iifname "pb" meta iiftype ether counter
		meta oiftype ether counter
		oifname != { "pa", "pb", "br0" } counter
		meta pkttype host counter
		meta pkttype broadcast counter
		meta length 36 counter
		counter
	}
	chain fw_c {
		type filter hook forward priority 0; policy accept;
		iifname "pa" oifname "pb" udp dport 7003 counter drop
		iifname "pb" oifname "pa" counter
		ether saddr 02:00:00:00:0b:01 ether type ip counter
		meta length 36 counter
		meta length 100-200 counter
		meta pkttype broadcast counter
		counter
	}
	chain out_c {
		type filter hook output priority 0; policy accept;
		oifname "pa" udp dport 7004 counter drop
		iifname != { "pa", "pb", "br0" } oifname "pb" counter
		meta iiftype ether counter
		ether saddr 02:00:00:00:0b:fe counter
		meta length 37 counter
		counter
	}
	chain post {
		type filter hook postrouting priority 0; policy accept;
		udp dport 7005 counter drop
		iifname != { "pa", "pb", "br0" } counter
		oifname "pb" counter
		meta length 36 counter
		counter
	}
	chain post2 {
		type filter hook postrouting priority 10; policy drop;
		udp dport 7009 counter drop
		counter accept
	}
}'

# one counter per kind of frame bridge-send.py raw writes, on every hook
kinds='		ether daddr 01:80:c2:00:00:00 counter
		ether daddr 01:80:c2:00:00:01 counter
		ether daddr 01:80:c2:00:00:02 counter
		ether daddr 01:80:c2:00:00:03 counter
		ether daddr 01:80:c2:00:00:0e counter
		ether saddr 03:00:00:00:00:01 counter
		ether saddr 00:00:00:00:00:00 counter
		ether daddr 02:00:00:00:0b:fe meta pkttype host counter
		vlan id 5 ip daddr 10.11.0.2 counter
		ether type ip ip protocol udp udp dport 7000 counter
		ether type arp arp operation request counter
		ether type arp arp operation reply counter
		ether type ip6 meta l4proto udp counter
		meta protocol ip meta l4proto udp counter
		counter'
rawrules="table bridge r {
	chain pre {
		type filter hook prerouting priority -100;
$kinds
	}
	chain in_c {
		type filter hook input priority 0;
$kinds
	}
	chain fw_c {
		type filter hook forward priority 0;
$kinds
	}
	chain out_c {
		type filter hook output priority 0;
$kinds
	}
	chain post {
		type filter hook postrouting priority 0;
$kinds
	}
}"

status=0
for side in k b; do
	topology $side || { echo "bridge e2e: topology failed on side $side"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	echo "$ruleset" | ip netns exec "$tag$side" "${pre[@]}" nft -f - ||
		{ echo "bridge e2e: nft -f failed on side $side"; status=1; continue; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" >"$work/$side.frames" 2>&1 ||
		{ echo "bridge e2e: traffic failed on side $side"; status=1; }
	ip netns exec "$tag$side" "${pre[@]}" nft list ruleset >"$work/$side.ruleset" 2>&1
	# a forward chain alone (no chain at ingress: the ports' ingress
	# programs must still run to tell forwarded frames apart)
	ip netns exec "$tag$side" "${pre[@]}" nft flush ruleset
	echo 'table bridge f {
		chain c {
			type filter hook forward priority 0;
			ip saddr 10.11.0.1 udp dport 7003 counter drop
			iifname "pb" counter
			counter
		}
	}' | ip netns exec "$tag$side" "${pre[@]}" nft -f - ||
		{ echo "bridge e2e: nft -f (forward) failed on side $side"; status=1; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" >"$work/$side.fwframes" 2>&1 ||
		{ echo "bridge e2e: forward traffic failed on side $side"; status=1; }
	ip netns exec "$tag$side" "${pre[@]}" nft list ruleset >"$work/$side.fwruleset" 2>&1
	# frames written on A's port: which hook sees which
	ip netns exec "$tag$side" "${pre[@]}" nft flush ruleset
	echo "$rawrules" | ip netns exec "$tag$side" "${pre[@]}" nft -f - ||
		{ echo "bridge e2e: nft -f (raw) failed on side $side"; status=1; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" raw >"$work/$side.rawframes" 2>&1 ||
		{ echo "bridge e2e: raw traffic failed on side $side"; status=1; }
	ip netns exec "$tag$side" "${pre[@]}" nft list ruleset >"$work/$side.rawruleset" 2>&1
	# ebtables-nft on the same bridge (its tables replace the nft one)
	ip netns exec "$tag$side" "${pre[@]}" nft flush ruleset
	e() { ip netns exec "$tag$side" "${pre[@]}" ebtables-nft "$@"; }
	e -A INPUT -p IPv4 --ip-dst 10.11.0.254 --ip-proto udp --ip-dport 7000:7002 -j CONTINUE &&
	e -A INPUT -p IPv4 --ip-src ! 10.11.0.1 --ip-proto udp --ip-sport 1024:65535 -j CONTINUE &&
	e -A INPUT -p IPv4 --ip-tos 0x00 --ip-proto ! tcp -j CONTINUE &&
	e -A INPUT -p IPv4 --ip-dst 10.11.0.0/24 --ip-proto udp --ip-dport ! 7002 -j CONTINUE &&
	e -A INPUT -p 802_1Q --vlan-id 5 -j CONTINUE &&
	e -A INPUT -p ARP --arp-op Request --arp-ip-dst 10.11.0.254 -j CONTINUE &&
	e -A INPUT -p ARP --arp-mac-src 02:00:00:00:0b:01 --arp-ip-src ! 10.11.0.9 -j CONTINUE &&
	e -A INPUT -p ARP --arp-htype 1 --arp-ptype IPv4 --arp-mac-dst ! 00:00:00:00:00:00 -j CONTINUE &&
	e -A INPUT -p ARP --arp-gratuitous -j CONTINUE &&
	e -A OUTPUT -p ARP --arp-op Reply --arp-mac-dst 02:00:00:00:0b:01 --arp-ip-dst 10.11.0.0/24 -j CONTINUE &&
	e -A INPUT -i pa -d $mac_br -j DROP &&
	e -A FORWARD -p IPv4 --ip-proto udp --ip-dport 7000 -j mark --mark-set 0x10 --mark-target CONTINUE &&
	e -A FORWARD --mark 0x10 -j CONTINUE &&
	e -A FORWARD -j mark --mark-or 0x3 --mark-target CONTINUE &&
	e -A FORWARD --mark 0x13/0xff -j CONTINUE &&
	e -A FORWARD --mark /0x2 -j CONTINUE &&
	e -A FORWARD --mark ! /0x10 -j CONTINUE &&
	e -A FORWARD -j mark --mark-xor 0x1 --mark-target CONTINUE &&
	e -A FORWARD -j mark --mark-and 0xf2 --mark-target CONTINUE &&
	e -A FORWARD --mark 0x12 -j CONTINUE &&
	e -A FORWARD --mark ! 0x2 -j CONTINUE &&
	e -N MK && e -A MK -j mark --mark-or 0x100 --mark-target RETURN &&
	e -A MK -j mark --mark-set 0xdead --mark-target CONTINUE && e -A FORWARD -j MK &&
	e -A FORWARD --mark 0x100/0x100 -j CONTINUE && e -A FORWARD --mark 0xdead -j CONTINUE &&
	e -A FORWARD -p IPv4 --ip-src 10.11.0.1 --ip-proto udp --ip-dport 7003 -j mark --mark-set 1 --mark-target DROP &&
	e -A FORWARD -p IPv4 --ip-src 10.11.0.1 --ip-proto udp --ip-dport 7003 -j DROP &&
	e -A FORWARD -p 802_1Q --vlan-id ! 6 --vlan-encap IPv4 -j CONTINUE &&
	e -A FORWARD -p ARP --arp-op ! Reply --arp-mac-src 02:00:00:00:0b:00/ff:ff:ff:ff:ff:00 -j CONTINUE &&
	e -A INPUT -i pb -p IPv4 -j ACCEPT &&
	e -A FORWARD -i pa -o pb -s $mac_a -p IPv4 --ip-proto udp --ip-dport 7005 -j mark --mark-xor 0x1000 --mark-target ACCEPT &&
	e -A FORWARD -i pa -o pb -s $mac_a -j ACCEPT &&
	e -A FORWARD -p IPv4 -d ff:ff:ff:ff:ff:ff -j ACCEPT &&
	e -N USER && e -A USER -p ARP -j ACCEPT && e -A USER -p IPv4 -j DROP &&
	e -A FORWARD -i pb -j USER && e -P FORWARD DROP &&
	e -A OUTPUT -o pa -p IPv4 -j DROP &&
	e -t nat -A PREROUTING -i pa -j ACCEPT &&
	e -t nat -A POSTROUTING --mark 0x1100/0x1100 -j CONTINUE &&
	e -t nat -A POSTROUTING --mark 0x100/0x100 -j CONTINUE &&
	e -t nat -A POSTROUTING -o pb -p IPv4 -j ACCEPT ||
		{ echo "bridge e2e: ebtables-nft failed on side $side"; status=1; }
	# the ip6 match (bridge-send.py raw6's frames; counted in IP6)
	e -N IP6 -P RETURN && e -I FORWARD 1 -p IPv6 -j IP6 &&
	e -A IP6 -p IPv6 --ip6-src fd00::1 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-src ! fd00::/120 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-dst fd00::2/128 --ip6-tclass 0xb8 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-tclass ! 0xb8 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-src fd00::/16 --ip6-dst ! fd00::3 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto udp -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto udp --ip6-dport 7201 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto udp --ip6-sport ! 40000:40201 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto udp --ip6-sport 40201 --ip6-dport ! 7000:7200 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto tcp --ip6-dport 7000:7300 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto tcp --ip6-sport 40204 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto ! udp -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto 44 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto 50 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto ! 59 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto ipv6-icmp --ip6-icmp-type echo-request -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto ipv6-icmp --ip6-icmp-type ! 1:10/0:3 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-proto ipv6-icmp --ip6-icmp-type 1/4 -j CONTINUE &&
	e -A IP6 -p IPv6 --ip6-src ! fd00::1 --ip6-proto ipv6-icmp --ip6-icmp-type 129 -j CONTINUE ||
		{ echo "bridge e2e: ebtables-nft (ip6) failed on side $side"; status=1; }
	# the stp match (raw6's BPDUs; counted in STP)
	e -N STP -P RETURN && e -I FORWARD 1 -d BGA -j STP &&
	e -A STP -d BGA --stp-type config -j CONTINUE &&
	e -A STP -d BGA --stp-type ! config -j CONTINUE &&
	e -A STP -d BGA --stp-type 128 -j CONTINUE &&
	e -A STP -d BGA --stp-flags topology-change -j CONTINUE &&
	e -A STP -d BGA --stp-flags ! 128 -j CONTINUE &&
	e -A STP -d BGA --stp-root-prio 32768 -j CONTINUE &&
	e -A STP -d BGA --stp-root-prio ! 0:16384 -j CONTINUE &&
	e -A STP -d BGA --stp-root-addr 02:00:00:00:0b:00/ff:ff:ff:ff:ff:00 -j CONTINUE &&
	e -A STP -d BGA --stp-root-addr ! 02:00:00:00:0b:aa -j CONTINUE &&
	e -A STP -d BGA --stp-root-cost 100:300000 -j CONTINUE &&
	e -A STP -d BGA --stp-root-cost ! 0:10 -j CONTINUE &&
	e -A STP -d BGA --stp-sender-prio 32768 -j CONTINUE &&
	e -A STP -d BGA --stp-sender-addr ! 02:00:00:00:0b:01 -j CONTINUE &&
	e -A STP -d BGA --stp-port 32769 -j CONTINUE &&
	e -A STP -d BGA --stp-msg-age 0:256 --stp-max-age 5120 -j CONTINUE &&
	e -A STP -d BGA --stp-hello-time 512 --stp-forward-delay ! 0:10 -j CONTINUE ||
		{ echo "bridge e2e: ebtables-nft (stp) failed on side $side"; status=1; }
	# the 802_3 match (raw6's LLC and SNAP frames; counted in L3)
	e -N L3 -P RETURN && e -I FORWARD 1 -p Length -j L3 &&
	e -A L3 -p Length --802_3-sap 0x0a -j CONTINUE &&
	e -A L3 -p Length ! --802_3-sap 0x0a -j CONTINUE &&
	e -A L3 -p Length --802_3-sap 0x42 -j CONTINUE &&
	e -A L3 -p Length --802_3-sap 0xaa -j CONTINUE &&
	e -A L3 -p Length --802_3-type 0x0800 -j CONTINUE &&
	e -A L3 -p Length ! --802_3-type 0x0800 -j CONTINUE &&
	e -A L3 -p Length --802_3-type 0x0806 -j CONTINUE &&
	e -A L3 -p Length --802_3-sap 0xaa --802_3-type ! 0x0806 -j CONTINUE ||
		{ echo "bridge e2e: ebtables-nft (802_3) failed on side $side"; status=1; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" >"$work/$side.ebframes" 2>&1 ||
		{ echo "bridge e2e: ebtables traffic failed on side $side"; status=1; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" raw >>"$work/$side.ebframes" 2>&1 ||
		{ echo "bridge e2e: ebtables raw traffic failed on side $side"; status=1; }
	python3 "$top_srcdir/tests/e2e/bridge-send.py" "$tag$side" "$tag${side}a" \
		"$tag${side}b" raw6 >>"$work/$side.ebframes" 2>&1 ||
		{ echo "bridge e2e: ebtables raw6 traffic failed on side $side"; status=1; }
	{ e -L --Lc; e -t nat -L --Lc; } >"$work/$side.eblist" 2>&1
done
for f in frames ruleset fwframes fwruleset rawframes rawruleset ebframes eblist; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "bridge e2e: kernel and nfbpf differ ($f)"
		status=1
	fi
done
# what the rules must have done (the kernel side too)
want='a got a-bcast-7006
a got b-a-7003
a got b-bcast-7008
a got fw-a-7000
a got fw-bcast-7007
b got a-b-7000
b got a-bcast-7006
b got b-bcast-7008
b got fw-b-7004
b got fw-bcast-7007
fw got a-bcast-7006
fw got a-fw-7000
fw got b-bcast-7008
fw got b-fw-7002
fw got fw-bcast-7007'
if [ "$(cat "$work/k.frames")" != "$want" ]; then
	echo "bridge e2e: unexpected frames:"; cat "$work/k.frames"; status=1
fi
# the forward chain alone drops A -> B 7003 only
grep -q 'a-b-7003' "$work/k.fwframes" &&
	{ echo "bridge e2e: forward chain did not drop:"; cat "$work/k.fwframes"; status=1; }
grep -q 'b got a-b-7001' "$work/k.fwframes" ||
	{ echo "bridge e2e: forward chain dropped too much:"; cat "$work/k.fwframes"; status=1; }
# ebtables: OUTPUT drops what FW sends to A, FORWARD only A -> B (but
# UDP 7003: the ip match) and broadcasts, INPUT what A sends to the
# bridge's address
want='a got a-bcast-7006
a got b-bcast-7008
b got a-b-7000
b got a-b-7001
b got a-b-7005
b got a-bcast-7006
b got b-bcast-7008
b got fw-b-7004
b got fw-b-7005
b got fw-bcast-7007
fw got a-bcast-7006
fw got b-bcast-7008
fw got b-fw-7002
fw got fw-bcast-7007'
if [ "$(grep -v '^missing' "$work/k.ebframes")" != "$want" ]; then
	echo "bridge e2e: unexpected ebtables frames:"; cat "$work/k.ebframes"; status=1
fi
kill -0 "$dpid" 2>/dev/null || { echo "bridge e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "bridge e2e: identical"; cat "$work/k.frames" "$work/k.ruleset" \
	"$work/k.fwruleset" "$work/k.rawframes" "$work/k.rawruleset" \
	"$work/k.ebframes" "$work/k.eblist"; }
exit $status
