#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# persist.sh - end to end: killing nfbpfd never opens the firewall. A
# ruleset in the receiving netns of a veth pair drops udp port 9 and
# accepts port 10 (counted at the device's tcx ingress too, its source
# added to a dynamic set from the packet path), with a named counter and
# quota. nfbpfd is killed with SIGKILL: the pinned dataplane (a
# private bpffs, see lib.sh) still drops port 9 and lets port 10 pass.
# Restarted, nfbpfd rebuilds the model at startup from its state directory
# and adopts the pinned dataplane: `nft list ruleset` is the earlier one
# plus the datagrams counted while it was down, handles are kept, packets
# are still filtered, `nft add rule` gets the next handle; a second kill and
# restart keeps the listing. A namespace nobody can reach any more is freed
# with its pins and state file. Last, `nfbpfd --flush-pins` removes the pins
# and port 9 passes (so it was the pins that filtered). Bounded sends: COUNT
# datagrams per port.
# Needs root; skipped (77) otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start persist P unshare nsenter
COUNT=5

# fixed neighbours: no resolution drops or reorders the first datagrams
e2e_pair_extra() {
	local s=$1 r=$2

	ip -n "$s" link set veth0 address 02:00:00:00:00:01
	ip -n "$r" link set veth1 address 02:00:00:00:00:02
	ip -n "$s" neigh add 10.9.0.2 lladdr 02:00:00:00:00:02 dev veth0 nud permanent
	ip -n "$r" neigh add 10.9.0.1 lladdr 02:00:00:00:00:01 dev veth1 nud permanent
}
e2e_pair b || { echo "persist e2e: netns setup failed"; exit 1; }
s=${tag}bs r=${tag}br

cat >"$work/rules.nft" <<'NFT'
table inet f {
	counter c10 {
	}
	quota q9 {
		100000 bytes
	}
	set seen {
		type ipv4_addr
		flags dynamic
	}
	chain in {
		type filter hook input priority filter; policy accept;
		udp dport 10 add @seen { ip saddr }
		udp dport 9 quota name "q9" counter drop
		udp dport 10 counter name "c10" counter accept
	}
}
table netdev n {
	chain ing {
		type filter hook ingress device "veth1" priority filter; policy accept;
		udp dport 10 counter
	}
}
NFT

status=0
fail() { echo "persist e2e: $*"; status=1; }

# round NAME WANT: COUNT datagrams to each port; WANT = "9:<n> 10:<n>"
round() {
	local out=$work/round.$1
	ip netns exec "$r" python3 "$top_srcdir/tests/e2e/persist-udp.py" \
		recv "$out" "$COUNT" &
	local rpid=$!
	for _ in $(seq 300); do [ -e "$out.ready" ] && break; sleep 0.1; done
	ip netns exec "$s" python3 "$top_srcdir/tests/e2e/persist-udp.py" \
		send "$COUNT"
	wait "$rpid"
	[ "$(cat "$out" 2>/dev/null)" = "$2" ] ||
		fail "$1: received $(cat "$out" 2>/dev/null), want $2"
}
pins() { nsenter -t "$holder" -m -- ls "$work/bpf/nfbpf/$ino" 2>/dev/null; }

ip netns exec "$r" "$run" nft -f "$work/rules.nft" || { echo "persist e2e: nft -f failed"; exit 1; }
ino=$(ip netns exec "$r" stat -L -c %i /proc/self/ns/net)
round loaded "9:0 10:$COUNT"
pins | grep -q '^nf_10_1_0_' || fail "no pinned netfilter link: $(pins | tr '\n' ' ')"
pins | grep -q '^tc_' || fail "no pinned tcx link: $(pins | tr '\n' ' ')"
pins | grep -qx 'progs' || fail "no pinned walker prog array"

# (counted by nfbpfd: round "loaded"; round "killed" only by the pins)
ip netns exec "$r" "$run" nft list ruleset >"$work/list.before" 2>&1

{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
wait "$dpid" 2>/dev/null
dpid=
round killed "9:0 10:$COUNT"


# a new nfbpfd rebuilds the model from its state directory and adopts the
# pinned hook points: its listing is the earlier one with the datagrams
# counted while it was down; its commit replaced the pinned walkers (a
# second link at the same hook point would be EBUSY)
# (a process in the namespace lets nfbpfd find it at startup, /proc/PID/ns/net)
ip netns exec "$r" sleep 60 &
keeper=$!
e2e_on_exit() { kill "$keeper" 2>/dev/null; }
e2e_daemon || { echo "persist e2e: nfbpfd did not restart"; exit 1; }
for _ in $(seq 1200); do	# startup restore loads programs: slow under load
	grep -q "namespace $ino: served at startup" "$work/nfbpfd.log" && break
	sleep 0.1
done
grep -q "namespace $ino: ruleset restored" "$work/nfbpfd.log" ||
	fail "not restored at startup: $(tail -3 "$work/nfbpfd.log")"
ip netns exec "$r" "$run" nft -a list ruleset >"$work/list.restarted" 2>&1
sed "s/packets $COUNT bytes 150/packets $((2 * COUNT)) bytes 300/
     s/used 150 bytes/used 300 bytes/" "$work/list.before" >"$work/list.want"
grep -q "used 150 bytes" "$work/list.before" ||
	fail "quota before the kill: $(cat "$work/list.before")"
ip netns exec "$r" "$run" nft list ruleset >"$work/list.after" 2>&1
diff -u "$work/list.want" "$work/list.after" ||
	fail "listing after the restart differs (counters carried over?)"
grep -q "udp dport 10 counter name \"c10\" counter packets .* accept # handle 7" "$work/list.restarted" ||
	fail "handles after the restart: $(cat "$work/list.restarted")"
round restarted "9:0 10:$COUNT"
# the rebuilt model takes changes: a new rule gets the next handle
ip netns exec "$r" "$run" nft add rule inet f in udp dport 11 counter drop ||
	fail "nft add rule after the restart failed"
ip netns exec "$r" "$run" nft -a list chain inet f in >"$work/list.added" 2>&1
grep -q "udp dport 11 counter packets 0 bytes 0 drop # handle 8" "$work/list.added" ||
	fail "the rule added after the restart: $(cat "$work/list.added")"
grep -q "udp dport 9 quota name \"q9\" counter packets $((3 * COUNT)) bytes 450 drop" "$work/list.added" ||
	fail "counters after the restart: $(cat "$work/list.added")"
round added "9:0 10:$COUNT"

# a namespace nobody can reach any more is freed with its pins (a pinned
# netfilter link would hold it) and its state file
tino=$(unshare -n sh -c '"$1" nft -f "$2" && stat -L -c %i /proc/self/ns/net' \
	sh "$run" "$work/rules.nft") || fail "transient namespace: nft -f failed"
if [ -n "$tino" ]; then
	for _ in $(seq 600); do
		[ -z "$(nsenter -t "$holder" -m -- ls "$work/bpf/nfbpf/$tino" 2>/dev/null)" ] &&
			[ ! -e "$work/state/$tino" ] && break
		sleep 0.1
	done
	grep -q "namespace $tino is gone" "$work/nfbpfd.log" ||
		fail "transient namespace $tino not freed: $(tail -2 "$work/nfbpfd.log")"
	[ -z "$(nsenter -t "$holder" -m -- ls "$work/bpf/nfbpf/$tino" 2>/dev/null)" ] ||
		fail "pins of the freed namespace $tino remain"
	[ ! -e "$work/state/$tino" ] || fail "state file of the freed namespace $tino remains"
fi
[ "$(pins | grep -c '^nf_')" = 2 ] || fail "pins after the restart: $(pins | tr '\n' ' ')"

# a second kill and restart: what the first restart counted carries over too
ip netns exec "$r" "$run" nft -a list ruleset >"$work/list.second" 2>&1
{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
e2e_daemon || { echo "persist e2e: nfbpfd did not restart"; exit 1; }
ip netns exec "$r" "$run" nft -a list ruleset >"$work/list.second.after" 2>&1
diff -u "$work/list.second" "$work/list.second.after" ||
	fail "listing after the second restart differs"
grep -q "udp dport 9 quota name \"q9\" counter packets $((4 * COUNT)) bytes 600 drop" "$work/list.second.after" ||
	fail "counters after the second restart: $(cat "$work/list.second.after")"
{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
wait "$dpid" 2>/dev/null
dpid=

nsenter -t "$holder" -m -- "$(cd "$top_builddir" && pwd)/nfbpfd" --pin-dir "$work/bpf/nfbpf" --flush-pins ||
	fail "nfbpfd --flush-pins failed"
[ -z "$(pins)" ] || fail "pins left after --flush-pins: $(pins | tr '\n' ' ')"
round flushed "9:$COUNT 10:$COUNT"

[ $status = 0 ] && echo "persist e2e: the firewall outlived nfbpfd (SIGKILL); --flush-pins removed it"
exit $status
