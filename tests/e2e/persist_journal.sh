#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# persist_journal.sh - end to end: the state journal. nfbpfd writes the
# whole ruleset (the base) at a commit only now and then; the commits in
# between go to <state-dir>/<netns inode>.journal as the batches the
# client sent. A ruleset is loaded (the base: a chain of 300 rules makes it
# larger than the journal below), then changed by single commits (rules
# added, inserted, replaced, deleted; set elements added and deleted; a
# named counter; a chain renamed; a policy changed; a batch that fails):
# the base file stays as it was and the journal grows. Datagrams over lo are
# counted by a rule added after the base, also while nfbpfd is down. After
# kill -9 and a restart, `nft -a list ruleset` is the one before the kill
# with those datagrams, and the next rule gets the next handle. Then a batch
# larger than the base writes the base again and empties the journal;
# commits after it, kill -9, restart: the listing is kept again. Last, a
# journal record whose handles were altered is refused at the restart.
# Bounded sends: COUNT datagrams per round. Needs root; skipped (77)
# otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start "persist journal" PJ unshare nsenter
COUNT=3
ns=${tag}j
e2e_netns "$ns" || { echo "persist journal e2e: netns setup failed"; exit 1; }

status=0
fail() { echo "persist journal e2e: $*"; status=1; }
nftj() { ip netns exec "$ns" "$run" nft "$@"; }
# COUNT datagrams of 10 bytes to 127.0.0.1 port $1
send() {
	ip netns exec "$ns" bash -c 'for i in $(seq "$1"); do
		echo 123456789 >/dev/udp/127.0.0.1/"$2"; done' sh "$COUNT" "$1" 2>/dev/null
}
restart() {
	{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
	dpid=
	e2e_daemon || { echo "persist journal e2e: nfbpfd did not restart"; exit 1; }
}

{
	echo 'table inet f {'
	echo '	counter c1 { }'
	echo '	set s { type ipv4_addr; elements = { 10.0.0.1 } }'
	echo '	chain out { type filter hook output priority 0; policy accept; udp dport 7 counter; }'
	echo '	chain fw { type filter hook forward priority 0; policy accept; }'
	echo '	chain sub { ip daddr @s counter; }'
	echo '	chain bulk {'
	for i in $(seq 300); do echo "		udp dport $((i + 1000)) counter"; done
	echo '	}'
	echo '}'
} >"$work/base.nft"
nftj -f "$work/base.nft" || { echo "persist journal e2e: nft -f failed"; exit 1; }
ino=$(ip netns exec "$ns" stat -L -c %i /proc/self/ns/net)
state=$work/state/$ino
[ -s "$state" ] || fail "no state file"
base_sum=$(md5sum <"$state")

# single commits: each one a journal record
nftj add rule inet f out udp dport 9 counter || fail "add rule"
nftj add rule inet f out udp dport 10 counter name c1 || fail "add rule (named counter)"
h=$(nftj -a list chain inet f out | sed -n 's/.*dport 7 .*# handle \([0-9]*\)$/\1/p')
nftj insert rule inet f out position "$h" udp dport 11 counter accept || fail "insert rule"
h=$(nftj -a list chain inet f out | sed -n 's/.*dport 11 .*# handle \([0-9]*\)$/\1/p')
nftj replace rule inet f out handle "$h" udp dport 11 counter drop || fail "replace rule"
nftj add rule inet f out udp dport 12 quota 1000 bytes counter || fail "add quota rule"
nftj add rule inet f out udp dport 13 counter || fail "add rule 13"
h=$(nftj -a list chain inet f out | sed -n 's/.*dport 13 .*# handle \([0-9]*\)$/\1/p')
nftj delete rule inet f out handle "$h" || fail "delete rule"
nftj add element inet f s '{ 10.0.0.2, 10.0.0.3 }' || fail "add element"
nftj delete element inet f s '{ 10.0.0.1 }' || fail "delete element"
nftj add rule inet f out ip daddr '{ 127.0.0.1, 127.0.0.2 }' udp dport 14 counter || fail "anonymous set rule"
nftj add counter inet f c2 || fail "add counter"
nftj rename chain inet f sub sub2 || fail "rename chain"
nftj add chain inet f fw '{ policy drop; }' || fail "policy change"
# a batch that fails: not journaled (its handle is used up, as the kernel's)
nftj add rule inet f nosuch counter 2>/dev/null && fail "a rule into no chain taken"
nftj add rule inet f out udp dport 15 counter || fail "add rule 15"
[ "$(md5sum <"$state")" = "$base_sum" ] || fail "the base was written again by single commits"
[ -s "$state.journal" ] || fail "no journal"

send 9; send 10; send 11; send 12; send 14
nftj -a list ruleset >"$work/list.before" 2>&1
grep -q "udp dport 9 counter packets $COUNT bytes " "$work/list.before" ||
	fail "no datagrams counted: $(grep 'dport 9 ' "$work/list.before")"
# (counted by the pins while nfbpfd is down)
{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
dpid=
send 9
e2e_daemon || { echo "persist journal e2e: nfbpfd did not restart"; exit 1; }
nftj -a list ruleset >"$work/list.after" 2>&1
grep -q "namespace $ino: ruleset restored" "$work/nfbpfd.log" ||
	fail "not restored: $(tail -3 "$work/nfbpfd.log")"
b9=$(sed -n 's/.*udp dport 9 counter packets [0-9]* bytes \([0-9]*\) .*/\1/p' "$work/list.before")
sed "s/udp dport 9 counter packets $COUNT bytes $b9 /udp dport 9 counter packets $((2 * COUNT)) bytes $((2 * b9)) /" \
	"$work/list.before" >"$work/list.want"
diff -u "$work/list.want" "$work/list.after" ||
	fail "listing after a restart from base and journal differs"
[ ! -e "$state.journal" ] || fail "journal left after the restore wrote the base"
nftj add rule inet f out udp dport 16 counter || fail "add rule after the restart"
last=$(sed -n 's/.*# handle \([0-9]*\)$/\1/p' "$work/list.after" | sort -n | tail -1)
nftj -a list chain inet f out | grep -q "udp dport 16 counter packets 0 bytes 0 # handle $((last + 1))$" ||
	fail "handle after the restart: $(nftj -a list chain inet f out | grep 'dport 16')"

# compaction: a batch larger than the base writes the base again
base_sum=$(md5sum <"$state")
{
	for i in $(seq 600); do echo "add rule inet f bulk udp dport $((i + 2000)) counter"; done
} >"$work/big.nft"
nftj -f "$work/big.nft" || fail "big batch"
[ "$(md5sum <"$state")" != "$base_sum" ] || fail "a batch larger than the base did not write it"
[ ! -s "$state.journal" ] || fail "journal not emptied by writing the base"
base_sum=$(md5sum <"$state")
nftj add rule inet f out udp dport 17 counter || fail "add rule 17"
nftj delete rule inet f bulk handle 20 || fail "delete rule after compaction"
nftj add element inet f s '{ 10.0.0.9 }' || fail "add element after compaction"
[ "$(md5sum <"$state")" = "$base_sum" ] || fail "the base was written again after compaction"
[ -s "$state.journal" ] || fail "no journal after compaction"
send 17
nftj -a list ruleset >"$work/list.before2" 2>&1
grep -q "udp dport 17 counter packets $COUNT " "$work/list.before2" ||
	fail "no datagrams counted after compaction"
restart
nftj -a list ruleset >"$work/list.after2" 2>&1
diff -u "$work/list.before2" "$work/list.after2" ||
	fail "listing after a restart from the compacted base and journal differs"

# a record whose handles are not what its replay gives is refused
nftj add rule inet f out udp dport 18 counter || fail "add rule 18"
[ -s "$state.journal" ] || fail "no journal for the refusal case"
python3 - "$state.journal" <<'PY' || fail "could not alter the journal"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
# header (16), record: magic, len, th_pre, th_post, seq_pre/post,
# ntables, ncounters, nhandles, pad, msgs_len (72 bytes)
ntables, ncounters, nhandles = struct.unpack_from('=III', b, 16 + 40)
off = 16 + 72 + ntables * 280 + ncounters * 296
assert nhandles == 1
h, = struct.unpack_from('=Q', b, off)
struct.pack_into('=Q', b, off, h + 100)
open(p, 'wb').write(bytes(b))
PY
restart
nftj list ruleset >/dev/null 2>&1	# (the namespace is served from here)
grep -q "namespace $ino: ruleset not restored: record 0 of the state journal: its replay gave other handles" "$work/nfbpfd.log" ||
	fail "an altered journal was not refused: $(tail -2 "$work/nfbpfd.log")"

[ $status = 0 ] && echo "persist journal e2e: base and journal restored (listing, handles, counters), compaction, an altered record refused"
exit $status
