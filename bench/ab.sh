#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ab.sh - the small control-plane operations, kernel vs two nfbpf builds
# (A = before, B = after), interleaved: each repetition runs the kernel,
# then A, then B (in turn rotated), so that the load of a shared machine
# weighs on the three alike. Prints a markdown table of medians with the
# B/A, A/kernel and B/kernel ratios; also writes it to bench/results-<date>-ab.md
# (or --out FILE), with the raw samples.
#
# Usage: sudo bench/ab.sh --old DIR --new DIR [--reps N] [--set-size N]
#        [--chain-size N] [--load-size N] [--small-size N] [--load-reps N]
#        [--first-reps N] [--out FILE]
#   DIR: a build tree (nfbpfd, .libs/libnfbpf-preload.so, nfbpf-run).
# Rows: nft list ruleset of an empty ruleset; nft add element into a set of
# --set-size (1000000); nft add rule into a chain of --chain-size (1000);
# nft -f of --small-size (100) and of --load-size (10000) rules into an
# empty netns (flushed, untimed, before each); the first nft add element after nft -f of the
# set (--first-reps loads per side, 0: none).
# Each side has its own scratch netns; each nfbpfd its own private bpffs
# for pins and its own state directory, as bench/run.sh. Everything is
# removed on exit. No packets are sent.
set -u

die() { echo "ab.sh: $*" >&2; exit 1; }
log() { echo "ab.sh: $*" >&2; }
usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2; exit 2; }

OLD="" NEW="" REPS=21 SET_SIZE=1000000 CHAIN_SIZE=1000 LOAD_SIZE=10000 SMALL_SIZE=100 LOAD_REPS=5
FIRST_REPS=2 OUT="" args_echo=""
while [ $# -gt 0 ]; do
	case $1 in
	--old) [ $# -ge 2 ] || usage; OLD=$2; shift 2 ;;
	--new) [ $# -ge 2 ] || usage; NEW=$2; shift 2 ;;
	--reps) [ $# -ge 2 ] || usage; REPS=$2; args_echo+=" $1 $2"; shift 2 ;;
	--set-size) [ $# -ge 2 ] || usage; SET_SIZE=$2; args_echo+=" $1 $2"; shift 2 ;;
	--chain-size) [ $# -ge 2 ] || usage; CHAIN_SIZE=$2; args_echo+=" $1 $2"; shift 2 ;;
	--load-size) [ $# -ge 2 ] || usage; LOAD_SIZE=$2; args_echo+=" $1 $2"; shift 2 ;;
	--small-size) [ $# -ge 2 ] || usage; SMALL_SIZE=$2; args_echo+=" $1 $2"; shift 2 ;;
	--load-reps) [ $# -ge 2 ] || usage; LOAD_REPS=$2; args_echo+=" $1 $2"; shift 2 ;;
	--first-reps) [ $# -ge 2 ] || usage; FIRST_REPS=$2; args_echo+=" $1 $2"; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
	*) usage ;;
	esac
done
[ -n "$OLD" ] && [ -n "$NEW" ] || usage
[ "$(id -u)" = 0 ] || die "needs root (netns, bpffs)"
for d in "$OLD" "$NEW"; do
	for f in nfbpfd .libs/libnfbpf-preload.so nfbpf-run; do
		[ -e "$d/$f" ] || die "$d/$f not found (build it first)"
	done
done
command -v nft >/dev/null || die "nft not found"
bench_dir=$(cd "$(dirname "$0")" && pwd)
[ -n "$OUT" ] || OUT=$bench_dir/results-$(date -u +%Y-%m-%d-%H%M)-ab.md

tmp=$(mktemp -d /tmp/nfbpf-ab.XXXXXX) || die "mktemp failed"
pfx=nfab$$
created_ns=() dpids=()
cleanup() {
	local p n
	trap - EXIT INT TERM
	for p in "${dpids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for n in "${created_ns[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

# side_setup SIDE DIR: frozen copies of DIR's binaries, a daemon, two netns
# (SIDE-w for the work, SIDE-e kept empty); kernel side: DIR empty
declare -A RUNNER SOCK PRE
side_setup() {
	local s=$1 dir=$2 n i
	for n in w e; do
		ip netns add "$pfx-$s-$n" || die "ip netns add failed"
		created_ns+=("$pfx-$s-$n")
		ip -n "$pfx-$s-$n" link set lo up
	done
	[ -n "$dir" ] || return 0
	mkdir -p "$tmp/$s/bin" "$tmp/$s/bpf"
	cp "$dir/nfbpfd" "$dir/nfbpf-run" "$dir/.libs/libnfbpf-preload.so" "$tmp/$s/bin/" ||
		die "cannot copy $dir's binaries"
	SOCK[$s]=$tmp/$s/s.sock
	PRE[$s]=$tmp/$s/bin/libnfbpf-preload.so
	RUNNER[$s]=$tmp/$s/bin/nfbpf-run
	unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
		"$tmp/$s/bpf" "$tmp/$s/bin/nfbpfd" --pin-dir "$tmp/$s/bpf/nfbpf" \
		--state-dir "$tmp/$s/state" --socket "${SOCK[$s]}" --foreground \
		>>"$tmp/$s/nfbpfd.log" 2>&1 &
	dpids+=($!)
	for i in $(seq 200); do [ -S "${SOCK[$s]}" ] && return 0; sleep 0.05; done
	tail -5 "$tmp/$s/nfbpfd.log" >&2
	die "nfbpfd of side $s did not start"
}
side_setup k ""
side_setup a "$OLD"
side_setup b "$NEW"

# on SIDE NS CMD...: CMD in the side's netns NS (w or e), through its nfbpf-run
on() {
	local s=$1 n=$2; shift 2
	if [ "$s" = k ]; then
		timeout -k 5 300 nsenter --net="/run/netns/$pfx-$s-$n" -- "$@"
	else
		NFBPF_SOCKET=${SOCK[$s]} NFBPF_PRELOAD=${PRE[$s]} \
			timeout -k 5 300 nsenter --net="/run/netns/$pfx-$s-$n" -- "${RUNNER[$s]}" "$@"
	fi
}
# timed SIDE NS CMD...: T_US = wall time in microseconds; fails like CMD
timed() {
	local t0 t1 rc
	t0=${EPOCHREALTIME/./}
	on "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	t1=${EPOCHREALTIME/./}
	T_US=$((t1 - t0))
	if ((rc)); then log "failed ($rc): ${*:3}: $(head -3 "$tmp/err")"; fi
	return $rc
}
median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {
		if (NR == 0) exit
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# order I: the sides in turn rotated, so no side always runs first
order() { case $(($1 % 3)) in 0) echo k a b ;; 1) echo a b k ;; 2) echo b k a ;; esac; }

gen_rules() {
	awk -v n="$1" 'BEGIN {
		print "table ip t {"
		print "\tchain in {"
		print "\t\ttype filter hook input priority 0; policy accept;"
		for (i = 0; i < n; i++)
			printf "\t\tip saddr 172.%d.%d.%d tcp dport %d counter accept\n",
				16 + int(i / 65536) % 16, int(i / 256) % 256, i % 256, 1024 + i % 60000
		print "\t}"
		print "}" }' >"$2"
}
gen_set() {
	awk -v n="$1" 'BEGIN {
		print "table ip s {"
		print "\tset s {"
		print "\t\ttype ipv4_addr"
		print "\t\telements = {"
		for (i = 0; i < n; i++)
			printf "\t\t\t100.%d.%d.%d%s\n", 64 + int(i / 65536) % 64,
				int(i / 256) % 256, i % 256, i < n - 1 ? "," : ""
		print "\t\t}"
		print "\t}"
		print "\tchain in {"
		print "\t\ttype filter hook input priority 0; policy accept;"
		print "\t\tip saddr @s counter drop"
		print "\t}"
		print "}" }' >"$2"
}

declare -A SAMPLES
KEYS=()
declare -A LABEL UNIT
row() { KEYS+=("$1"); LABEL[$1]=$2; UNIT[$1]=$3; }
add() { SAMPLES[$1-$2]+=" $3"; }	# add KEY SIDE US

loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$SECONDS
gen_rules "$LOAD_SIZE" "$tmp/load.nft"
gen_rules "$SMALL_SIZE" "$tmp/small.nft"
gen_rules "$CHAIN_SIZE" "$tmp/chain.nft"
gen_set "$SET_SIZE" "$tmp/set.nft"

# 1. first element add after loading the set (also leaves the set loaded)
if ((FIRST_REPS > 0)); then
	row first "first nft add element after nft -f of a set of $SET_SIZE (ms)" ms
	for r in $(seq "$FIRST_REPS"); do
		for s in $(order "$r"); do
			timed $s w nft flush ruleset || die "flush failed on side $s"
			timed $s w nft -f "$tmp/set.nft" || die "set load failed on side $s"
			timed $s w nft add element ip s s "{ 203.0.255.$r }" || die "add failed on side $s"
			add first $s "$T_US"
		done
	done
else
	for s in k a b; do timed $s w nft -f "$tmp/set.nft" || die "set load failed on side $s"; done
fi
# the chain, in a second table of the same netns
for s in k a b; do
	sed 's/table ip t/table ip c/' "$tmp/chain.nft" >"$tmp/chain-c.nft"
	timed $s w nft -f "$tmp/chain-c.nft" || die "chain load failed on side $s"
done

# 2. the small operations, interleaved
row empty "nft list ruleset, empty ruleset (ms; process start + 1 dump)" ms
row elem "nft add element into a set of $SET_SIZE (ms)" ms
row rule "nft add rule into a chain of $CHAIN_SIZE (ms)" ms
for r in $(seq "$REPS"); do
	for s in $(order "$r"); do
		timed $s e nft list ruleset && add empty $s "$T_US"
		timed $s w nft add element ip s s "{ 203.1.$((r / 256)).$((r % 256)) }" && add elem $s "$T_US"
		timed $s w nft add rule ip c in ip saddr 10.250.$((r / 256)).$((r % 256)) \
			tcp dport $((2000 + r)) counter accept && add rule $s "$T_US"
	done
done

# 3. nft -f of SMALL_SIZE, then LOAD_SIZE rules into the (flushed) empty netns
row small "nft -f, $SMALL_SIZE rules (ms)" ms
row load "nft -f, $LOAD_SIZE rules (ms)" ms
for r in $(seq "$LOAD_REPS"); do
	for s in $(order "$r"); do
		timed $s e nft flush ruleset || die "flush failed on side $s"
		timed $s e nft -f "$tmp/small.nft" && add small $s "$T_US"
		timed $s e nft flush ruleset || die "flush failed on side $s"
		timed $s e nft -f "$tmp/load.nft" && add load $s "$T_US"
	done
done
for s in k a b; do timed $s e nft flush ruleset; done

# report
fmt() { awk -v v="$1" 'BEGIN { printf "%.2f", v / 1000 }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "-" }'; }
{
	echo "# nfbpf A/B, control plane — $(date -u '+%Y-%m-%d %H:%M') UTC"
	echo
	echo "kernel $(uname -r), $(nproc) CPU, $(nft -v), \`bench/ab.sh --old $OLD --new $NEW$args_echo\`."
	echo "A = $OLD, B = $NEW. Medians of $REPS interleaved repetitions ($LOAD_REPS for nft -f, $FIRST_REPS for the first add);"
	echo "each repetition runs the three sides in turn, rotated. Wall time of one \`nsenter --net=NS [nfbpf-run] nft ...\` process."
	echo "Load average before/after: $loadavg_start / $(cut -d' ' -f1-3 /proc/loadavg); run took $((SECONDS - t_start)) s."
	echo
	echo "| measurement | kernel | A | B | B/A | A/kernel | B/kernel |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for k in "${KEYS[@]}"; do
		mk=$(median ${SAMPLES[$k-k]:-}) ma=$(median ${SAMPLES[$k-a]:-}) mb=$(median ${SAMPLES[$k-b]:-})
		echo "| ${LABEL[$k]} | $(fmt "${mk:-0}") | $(fmt "${ma:-0}") | $(fmt "${mb:-0}") |" \
			"$(ratio "${mb:-0}" "${ma:-0}") | $(ratio "${ma:-0}" "${mk:-0}") | $(ratio "${mb:-0}" "${mk:-0}") |"
	done
	echo
	echo "<details><summary>raw samples (us)</summary>"
	echo
	for k in "${KEYS[@]}"; do
		for s in k a b; do echo "    $k $s:${SAMPLES[$k-$s]:-}"; done
	done
	echo
	echo "</details>"
} | tee "$OUT"
log "written to $OUT"
