#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# persist_rulesets.sh - end to end: every ruleset of tests/dataplane/rulesets
# that nfbpfd takes lists the same (nft -a list ruleset: handles, userdata,
# sets, maps, objects, chain bindings, counters) after nfbpfd is killed with
# SIGKILL and restarted: the restart rebuilds each namespace's model from
# its state directory and adopts its pinned dataplane. Rulesets go in
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
for f in "${rulesets[@]}"; do
	ns=$tag$n
	n=$((n + 1))
	e2e_netns "$ns" || { echo "persist rulesets e2e: netns setup failed"; exit 1; }
	if ! ip netns exec "$ns" "$run" nft -f "$f" >/dev/null 2>&1; then
		refused=$((refused + 1))
		ip netns del "$ns"
		continue
	fi
	loaded=$((loaded + 1))
	basename "$f" >"$work/$ns.name"
	ip netns exec "$ns" "$run" nft -a list ruleset >"$work/$ns.before" 2>&1
	group+=("$ns")
	[ ${#group[@]} -ge $GROUP ] && check_group
done
check_group
echo "persist rulesets e2e: $n rulesets, $loaded loaded ($refused refused), $differ list differently after kill -9 and a restart"
[ $differ = 0 ] && [ $loaded -gt 100 ]
