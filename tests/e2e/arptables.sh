#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# arptables.sh - end to end: arptables-nft rules (INPUT, OUTPUT, a user
# chain, counters) in the kernel in one scratch netns and in nfbpfd's BPF
# dataplane in another, each with a veth peer that does ARP. The peer
# sends ARP requests from several addresses (tests/e2e/arp-send.py) and
# the side's kernel resolves two addresses itself (a UDP datagram each,
# one ARP solicitation: mcast_solicit 1) and sends one request from a
# packet socket (as arping does: not seen by the OUTPUT chain). The
# same frames must come back to the peer (replies, requests), and the
# listings (counters included) must be the same. MARK and CLASSIFY set
# skb->mark and skb->priority (native `meta mark`/`meta priority` rules
# after them count what they set, at INPUT and OUTPUT); mangle rewrites
# the ARP header (sender/target addresses, each verdict) at INPUT (what
# the kernel answers changes) and OUTPUT (what the peer receives), and the
# rules after see the new bytes.
# Needs root and arptables-nft; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start arptables A arptables-nft

status=0
for side in k b; do
	ns=$tag$side
	peer=${tag}p$side
	e2e_netns "$ns" && e2e_netns "$peer" ||
		{ echo "arptables e2e: netns setup failed"; exit 1; }
	ip -n "$ns" link add vs type veth peer name vp netns "$peer" &&
	ip -n "$ns" link set vs address 02:00:00:00:06:01 &&
	ip -n "$peer" link set vp address 02:00:00:00:06:02 &&
	ip -n "$ns" addr add 10.6.0.1/24 dev vs &&
	ip -n "$ns" link set vs up && ip -n "$peer" link set vp up ||
		{ echo "arptables e2e: veth setup failed"; exit 1; }
	for k in mcast_solicit:1 ucast_solicit:0 app_solicit:0; do
		ip netns exec "$ns" sysctl -q -w "net.ipv4.neigh.vs.${k%:*}=${k#*:}"
	done
	pre=()
	[ $side = b ] && pre=("$run")
	a() { ip netns exec "$ns" "${pre[@]}" arptables-nft "$@"; }
	a -A INPUT -s 10.6.0.3 -j DROP &&
	a -A INPUT --opcode Request -s 10.6.0.4 -j ACCEPT &&
	a -N USER && a -A USER -s 10.6.0.6 -j DROP && a -A USER -j ACCEPT &&
	a -A INPUT -i vs -j USER &&
	a -A OUTPUT -d 10.6.0.5 -j DROP &&
	a -A OUTPUT -d 10.6.0.51 -j DROP &&
	a -A OUTPUT --opcode Request -o vs -j ACCEPT &&
	a -I INPUT -j MARK --set-mark 0x50 &&
	a -I INPUT 2 -s 10.6.0.4 -j MARK --or-mark 0x7 &&
	a -I OUTPUT -j CLASSIFY --set-class 1:2 &&
	a -I OUTPUT 2 -d 10.6.0.50 -j MARK --or-mark 0x3 &&
	a -A OUTPUT --h-length 6 -c 5 500 -j ACCEPT &&
	a -I INPUT -s 10.6.0.6 -j mangle --mangle-ip-s 10.6.0.7 --mangle-mac-s 02:00:00:00:06:07 --mangle-target CONTINUE &&
	a -I OUTPUT 3 -d 10.6.0.4 -j mangle --mangle-mac-s 02:00:00:00:06:aa --mangle-ip-s 10.6.0.99 --mangle-target CONTINUE &&
	a -I OUTPUT 4 -s 10.6.0.99 &&
	a -I OUTPUT 5 -d 10.6.0.2 -j mangle --mangle-mac-d 02:00:00:00:06:bb --mangle-ip-d 10.6.0.98 &&
	a -I OUTPUT 6 -d 10.6.0.51 -j mangle --mangle-ip-s 10.6.0.97 --mangle-target DROP &&
	a -I OUTPUT 7 -d 10.6.0.50 -j mangle --mangle-mac-d 02:00:00:00:06:cc --mangle-ip-d 10.6.0.50 --mangle-target CONTINUE &&
	ip netns exec "$ns" "${pre[@]}" nft -f - <<'NFT' ||
table arp t2 {
	chain in {
		type filter hook input priority 10; policy accept;
		meta mark 0x57 counter
		meta mark 0x50 counter
		meta priority 1:2 counter
	}
	chain out {
		type filter hook output priority 10; policy accept;
		meta priority 1:2 counter
		meta mark 0x3 counter
		meta mark 0 counter
	}
}
NFT
		{ echo "arptables e2e: arptables-nft failed on side $side"; status=1; }
	ip netns exec "$peer" python3 "$top_srcdir/tests/e2e/arp-send.py" vp \
		02:00:00:00:06:02 10.6.0.1 10.6.0.2 10.6.0.3 10.6.0.4 10.6.0.5 10.6.0.6 -- \
		ip netns exec "$ns" python3 -c '
import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for d in ("10.6.0.50", "10.6.0.51"):
    s.sendto(b"x", (d, 9))
p = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
p.bind(("vs", 0))
mac = bytes.fromhex("020000000601")
p.send(b"\xff" * 6 + mac + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x800, 6, 4, 1) +
       mac + socket.inet_aton("10.6.0.1") + bytes(6) + socket.inet_aton("10.6.0.52"))
' >"$work/$side.frames" 2>&1 ||
		{ echo "arptables e2e: traffic failed on side $side"; status=1; }
	a -L -n -v >"$work/$side.list" 2>&1
	ip netns exec "$ns" "${pre[@]}" nft list ruleset >"$work/$side.ruleset" 2>&1
done
for f in frames list ruleset; do
	if ! diff -u "$work/k.$f" "$work/b.$f"; then
		echo "arptables e2e: kernel and nfbpf differ ($f)"
		status=1
	fi
done
# what the rules must have done (the kernel side too: the test can fail)
want='reply 10.6.0.1 02:00:00:00:06:01 -> 10.6.0.7 02:00:00:00:06:07
reply 10.6.0.1 02:00:00:00:06:01 -> 10.6.0.98 02:00:00:00:06:bb
reply 10.6.0.99 02:00:00:00:06:aa -> 10.6.0.4 02:00:00:00:06:02
request 10.6.0.1 02:00:00:00:06:01 -> 10.6.0.50 02:00:00:00:06:cc
request 10.6.0.1 02:00:00:00:06:01 -> 10.6.0.52 00:00:00:00:00:00'
if [ "$(cat "$work/k.frames")" != "$want" ]; then
	echo "arptables e2e: unexpected frames:"; cat "$work/k.frames"; status=1
fi
kill -0 "$dpid" 2>/dev/null || { echo "arptables e2e: nfbpfd died"; status=1; }
[ $status = 0 ] && { echo "arptables e2e: identical"; cat "$work/k.frames" "$work/k.list" "$work/k.ruleset"; }
exit $status
