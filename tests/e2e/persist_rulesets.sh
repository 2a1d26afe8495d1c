#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# persist_rulesets.sh - end to end: every ruleset of tests/dataplane/rulesets
# that nfbpfd takes lists the same (nft -a list ruleset: handles, userdata,
# sets, maps, objects, chain bindings, counters) after nfbpfd is killed with
# SIGKILL and restarted: the restart rebuilds each namespace's model from
# its state directory and adopts its pinned dataplane. Each ruleset is
# loaded twice: into an empty namespace (the state file has it) and after
# a larger ruleset (the state journal has its batch). Rulesets go in
# groups of GROUP namespaces (each keeps its BPF maps while pinned); a
# ruleset nfbpfd refuses is passed over (counted). Needs root; skipped (77)
# otherwise.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start "persist rulesets" PR unshare nsenter
GROUP=20

rulesets=("$top_srcdir"/tests/dataplane/rulesets/*.nft)
n=0 loaded=0 refused=0 differ=0
group=()
check_group() {
	local ns ino

	[ ${#group[@]} = 0 ] && return
	{ kill -9 "$dpid"; wait "$dpid"; } 2>/dev/null
	e2e_daemon || { echo "persist rulesets e2e: nfbpfd did not restart"; exit 1; }
	for ns in "${group[@]}"; do
		ip netns exec "$ns" "$run" nft -a list ruleset >"$work/$ns.after" 2>&1
		if ! diff -u "$work/$ns.before" "$work/$ns.after" >"$work/$ns.diff"; then
			differ=$((differ + 1))
			echo "persist rulesets e2e: $(cat "$work/$ns.name") lists differently after the restart:"
			head -20 "$work/$ns.diff"
			ino=$(stat -L -c %i "/run/netns/$ns")
			grep "namespace $ino" "$work/nfbpfd.log" | tail -2
		fi
		# the namespace goes: its pins first (they hold it)
		ino=$(stat -L -c %i "/run/netns/$ns")
		nsenter -t "$holder" -m -- rm -r "$work/bpf/nfbpf/$ino"
		ip netns del "$ns"
	done
	group=()
}
# a table of 300 rules: a state file larger than a ruleset's batch, which
# goes to the journal then
{
	echo 'table ip jbase {'
	echo '	chain c {'
	for i in $(seq 300); do echo "		tcp dport $i counter"; done
	echo '	}'
	echo '}'
} >"$work/jbase.nft"
journaled=0
# each ruleset twice: alone (in the state file), after jbase (a journal
# record, unless its replay could not give the same)
for mode in base journal; do
for f in "${rulesets[@]}"; do
	ns=$tag$n
	n=$((n + 1))
	e2e_netns "$ns" || { echo "persist rulesets e2e: netns setup failed"; exit 1; }
	if [ $mode = journal ] &&
	   ! ip netns exec "$ns" "$run" nft -f "$work/jbase.nft"; then
		echo "persist rulesets e2e: jbase refused"
		exit 1
	fi
	if ! ip netns exec "$ns" "$run" nft -f "$f" >/dev/null 2>&1; then
		refused=$((refused + 1))
		ip netns del "$ns"
		continue
	fi
	loaded=$((loaded + 1))
	ino=$(stat -L -c %i "/run/netns/$ns")
	[ -s "$work/state/$ino.journal" ] && journaled=$((journaled + 1))
	echo "$mode $(basename "$f")" >"$work/$ns.name"
	ip netns exec "$ns" "$run" nft -a list ruleset >"$work/$ns.before" 2>&1
	group+=("$ns")
	[ ${#group[@]} -ge $GROUP ] && check_group
done
done
check_group
echo "persist rulesets e2e: $n loads of ${#rulesets[@]} rulesets, $loaded taken ($refused refused; $journaled in a journal), $differ list differently after kill -9 and a restart"
[ $differ = 0 ] && [ $loaded -gt 200 ] && [ $journaled -gt 100 ]
