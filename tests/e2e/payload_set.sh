#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# payload_set.sh - end to end: packet mangling, by the kernel's nf_tables
# in one set of scratch netns and by nfbpfd's tc programs in another, on
# the same frames; the bytes that arrive must be the same. Each side:
# netns FW with bridge br0 and ports pa, pb, veth peers of netns A (ea)
# and B (eb). A writes raw frames (IPv4/IPv6 UDP with and without a
# checksum, TCP, ICMPv6) and sends UDP datagrams from its stack
# (CHECKSUM_PARTIAL on veth); B captures what it receives on eb
# (tests/e2e/mangle-send.py). Phase 1: payload set in a netdev egress
# chain on pb and in bridge prerouting/postrouting chains: ether
# addresses, ip dscp/ttl and addresses (IPv4 header checksum, transport
# checksum over the pseudo header, UDP without a checksum), ports,
# ip6 fields, a rule that matches on what it wrote, a rule after that
# sees it; netdev and inet ingress chains on pa; a write past the VLAN
# tag the stack holds outside the frame; a TCP SYN and a UDP broadcast of FW's (looped back as a clone:
# the write copies its head) mangled at br0's egress and then by the
# bridge's postrouting. Phase 2: ebtables-nft dnat/snat (dnat to a port's mac, to the
# bridge's mac: up to FW's stack, snat with and without --snat-arp) and
# redirect (to the bridge's mac: up to FW's stack; CONTINUE: a rule after
# it sees pkttype host).
# Besides kernel == nfbpf, the kernel's result is checked against what
# the rules say, so the test can fail. Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start payload_set M ebtables-nft

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
	ip netns exec "$fw" sysctl -q -w net.ipv4.tcp_timestamps=0 || return 1
	ip -n "$fw" neigh add 10.11.0.2 lladdr $mac_b dev br0 nud permanent &&
	ip -n "$a" neigh add 10.11.0.2 lladdr $mac_b dev ea nud permanent &&
	ip -n "$b" neigh add 10.11.0.1 lladdr $mac_a dev eb nud permanent || return 1
	for n in "$a:ea" "$b:eb" "$fw:pa" "$fw:pb" "$fw:br0"; do
		ip -n "${n%%:*}" link set "${n#*:}" up || return 1
	done
	# B's mac is learnt once (static fdb entry); both ports forwarding
	bridge -n "$fw" fdb add $mac_b dev pb master static || return 1
	bridge -n "$fw" fdb add $mac_a dev pa master static || return 1
	for _ in $(seq 50); do
		[ "$(bridge -n "$fw" link show | grep -c 'state forwarding')" = 2 ] && return 0
		sleep 0.1
	done
	echo "payload_set e2e: ports not forwarding on side $1"
	return 1
}

ruleset='table netdev m {
	chain eg {
		type filter hook egress device "pb" priority 0; policy accept;
		udp dport 9101 ether saddr set 02:00:00:00:0b:77
		udp dport 9102 ip dscp set cs5
		udp dport 9103 ip ttl set 9
		udp dport 9104 udp dport set 9204
		tcp dport 9105 tcp dport set 9205
		udp dport 9106 ip saddr set 10.11.0.99
		tcp dport 9107 ip daddr set 10.11.0.98
		udp dport 9108 ip6 hoplimit set 7
		udp dport 9109 ip6 saddr set fd00::99
		tcp dport 9110 ip6 daddr set fd00::98
		icmpv6 type echo-request ip6 saddr set fd00::97
		udp dport 9111 ip6 dscp set cs3
		udp dport 9112 udp dport set 9113 udp dport 9113 ip ttl set 3
		udp dport 9113 ip dscp set cs1
	}
	chain ing {
		type filter hook ingress device "pa" priority 0; policy accept;
		udp dport 9115 ip ttl set 11 ether saddr set 02:00:00:00:0b:78
	}
	chain br_eg {
		type filter hook egress device "br0" priority 0; policy accept;
		tcp dport 9401 ip ttl set 7
		udp dport 9402 ip ttl set 8
	}
}
table inet i {
	chain ing {
		type filter hook ingress device "pa" priority 0; policy accept;
		udp dport 9116 ip ttl set 12 udp dport set 9216
	}
}
table bridge m {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		ether type 8021q @ll,208,8 set 3
		udp dport 9201 ether daddr set 02:00:00:00:0b:02
		udp dport 9202 ip dscp set af21 ip ttl set 33
		tcp dport 9203 ip saddr set 10.11.0.77 tcp sport set 4444
		ether daddr 02:00:00:00:0b:55 udp dport 9213 ether daddr set 02:00:00:00:0b:02 ip6 hoplimit set 5
		udp dport 9214 ip saddr set 10.11.0.78
	}
	chain post {
		type filter hook postrouting priority 0; policy accept;
		udp dport 9210 ether saddr set 02:00:00:00:0b:66
		udp dport 9211 ether daddr set 02:00:00:00:0b:02 ip daddr set 10.11.0.66
		udp dport 9212 ip6 daddr set fd00::55
		tcp dport 9401 ip dscp set cs2
		udp dport 9402 ip dscp set cs3
	}
}'

# the pkttype a bridge chain after dnat's sees (9305: a frame to the
# bridge's mac, dnat'ed to B's: other)
pkttypes='table bridge f {
	chain pre {
		type filter hook prerouting priority 0; policy accept;
		udp dport 9305 meta pkttype host counter
		udp dport 9305 meta pkttype other counter
		udp dport 9307 meta pkttype host counter
		udp dport 9307 ether daddr 02:00:00:00:0b:fe counter
	}
}'

status=0
for side in k b; do
	topology $side || { echo "payload_set e2e: topology failed"; exit 1; }
	pre=()
	[ $side = b ] && pre=("$run")
	echo "$ruleset" | ip netns exec "$tag$side" "${pre[@]}" nft -f - ||
		{ echo "payload_set e2e: ruleset refused on side $side"; status=1; continue; }
	timeout 20 python3 "$top_srcdir/tests/e2e/mangle-send.py" "$tag$side" \
		"$tag${side}a" "$tag${side}b" nft >"$work/$side.nft" 2>&1 ||
		{ echo "payload_set e2e: traffic failed on side $side"; status=1; }
	ip netns exec "$tag$side" "${pre[@]}" nft flush ruleset
	e() { ip netns exec "$tag$side" "${pre[@]}" ebtables-nft "$@"; }
	{
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9301 \
			-j dnat --to-dst $mac_b &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9302 \
			-j dnat --to-dst $mac_br --dnat-target ACCEPT &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9304 \
			-j dnat --to-dst $mac_b --dnat-target CONTINUE &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9304 \
			-j dnat --to-dst 02:00:00:00:0b:02 &&
		e -t nat -A POSTROUTING -o pb -p IPv4 --ip-proto udp --ip-dport 9303 \
			-j snat --to-src 02:00:00:00:0b:67 &&
		e -t nat -A POSTROUTING -o pb -p ARP --arp-op Request \
			-j snat --to-src 02:00:00:00:0b:68 &&
		e -t nat -A POSTROUTING -o pb -p ARP --arp-op Reply \
			-j snat --to-src 02:00:00:00:0b:69 --snat-arp &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9305 \
			-j dnat --to-dst $mac_b &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9306 \
			-j redirect &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9307 \
			-j redirect --redirect-target CONTINUE &&
		e -t nat -A PREROUTING -p IPv4 --ip-proto udp --ip-dport 9307 \
			-d $mac_br &&
		echo "$pkttypes" | ip netns exec "$tag$side" "${pre[@]}" nft -f -
	} || { echo "payload_set e2e: ebtables-nft failed on side $side"; status=1; }
	e -t nat -L >"$work/$side.ebt" 2>&1
	timeout 20 python3 "$top_srcdir/tests/e2e/mangle-send.py" "$tag$side" \
		"$tag${side}a" "$tag${side}b" ebt >"$work/$side.ebtframes" 2>&1 ||
		{ echo "payload_set e2e: ebtables traffic failed on side $side"; status=1; }
	ip netns exec "$tag$side" "${pre[@]}" nft list table bridge f \
		>"$work/$side.pkttypes" 2>&1
done

for f in nft ebt ebtframes pkttypes; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "payload_set e2e: kernel and nfbpf differ ($f)"
		status=1
	fi
done

# what the rules say, on the kernel's side (the oracle itself)
expect() {
	grep -q -- "$2" "$work/k.$1" ||
		{ echo "payload_set e2e: kernel: no frame with '$2'"; status=1; }
}
expect nft "src=02000000" # any frame at all
expect nft "src=020000000b77 ip .* dport=9101"
expect nft "dscp=40 ttl=64 ipsum=ok .* dport=9102 l4sum=ok"
expect nft "ttl=9 ipsum=ok .* dport=9103"
expect nft "dport=9204 l4sum=ok"
expect nft "dport=9204 l4sum=bad"	# a UDP checksum of 0 takes the change
expect nft "dport=9205 l4sum=ok"
expect nft "saddr=10.11.0.99 .* dport=9106 l4sum=ok"
expect nft "saddr=10.11.0.99 .* dport=9106 l4sum=none"
expect nft "daddr=10.11.0.98 proto=6 .* l4sum=ok"
expect nft "hl=7 .* dport=9108"
expect nft "saddr=fd00::99 .* dport=9109 l4sum=ok"
expect nft "daddr=fd00::98 proto=6 .* l4sum=ok"
expect nft "saddr=fd00::97 .* proto=58 l4sum=ok"
expect nft "tc=24 .* dport=9111"
expect nft "dscp=8 ttl=3 ipsum=ok .* dport=9113"
expect nft "dst=020000000b02 .* dport=9201"
expect nft "dscp=18 ttl=33 ipsum=ok .* dport=9202"
expect nft "saddr=10.11.0.77 .* sport=4444 dport=9203 l4sum=ok"
expect nft "src=020000000b66 .* dport=9210"
expect nft "daddr=10.11.0.66 .* dport=9211 l4sum=ok"
expect nft "daddr=fd00::55 .* dport=9212 l4sum=ok"
expect nft "dst=020000000b02 .* hl=5 .* dport=9213"
expect nft "saddr=10.11.0.78 .* dport=9214"
expect nft "dport=9120 l4sum=ok"
expect nft "src=020000000b78 ip dscp=0 ttl=11 ipsum=ok .* dport=9115 l4sum=ok"
expect nft "ttl=12 ipsum=ok .* dport=9216 l4sum=ok"
expect nft "ttl=3 ipsum=bad .* dport=9121"
expect nft "fw tcp: .* dscp=16 ttl=7 .* dport=9401"
expect nft "dst=ffffffffffff src=020000000bfe ip dscp=24 ttl=8 ipsum=ok .* dport=9402"
expect nft "fw udp 9402: nfbpf-bcast"
expect ebtframes "dst=020000000b02 .* dport=9301"
expect ebtframes "fw udp 9302: nfbpf-9302"
expect ebtframes "src=020000000b67 .* dport=9303"
expect ebtframes "dst=020000000b02 .* dport=9304"
expect ebtframes "dst=020000000b02 .* dport=9305"
expect pkttypes "pkttype host counter packets 0 "
expect pkttypes "pkttype other counter packets 1 "
expect pkttypes "dport 9307 meta pkttype host counter packets 1 "
expect pkttypes "dport 9307 ether daddr 02:00:00:00:0b:fe counter packets 1 "
expect ebtframes "fw udp 9306: nfbpf-9306"
expect ebtframes "fw udp 9307: nfbpf-9307"
expect ebtframes "src=020000000b68 arp op=1 sha=020000000b01"
expect ebtframes "src=020000000b69 arp op=2 sha=020000000b69"
if grep -q "dport=930[267]\|end frame not seen" "$work/k.ebtframes" "$work/k.nft"; then
	echo "payload_set e2e: kernel: unexpected frames"; status=1
fi
[ $status = 0 ] || { cat "$work/k.nft" "$work/k.ebtframes"; grep -i "error\|refus" "$work/nfbpfd.log" | tail -5; }
[ $status = 0 ] && echo "payload_set e2e: ok"
exit $status
