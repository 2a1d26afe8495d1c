#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/run.sh - kernel nf_tables vs nfbpfd, side by side, in one run.
#
# Side k: stock nft against the kernel, in scratch netns <pfx>-k.
# Side b: the same nft through nfbpf-run against an nfbpfd started here,
#         in the sibling scratch netns <pfx>-b.
# A third scratch netns <pfx>-s sends UDP over one veth pair to each side.
# Builds nothing from nfbpf (only the tiny bench/udpblast.c sender, into the
# scratch dir, if a C compiler is there; else a python3 sender is used).
# Needs root. Never touches the host netns; all netns are removed on exit.
# See bench/README.md.
set -u
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
builddir=.
quick=0
only=""		# cp | pkt: one section only
sender_kind="" PKT_COUNT=0
o_pkt="" o_add="" o_load="" o_setadd="" o_mixed="" o_reps="" o_padd="" prefill=0 args_echo=""

usage() {
	cat <<EOF
usage: $0 [--builddir DIR] [--quick]
  --builddir DIR  nfbpf build tree holding nfbpfd, nfbpf-run and
                  .libs/libnfbpf-preload.so (default: .)
  --quick         smaller sizes and fewer packets (about a minute)
  --only cp|pkt   run only the control-plane or only the packet-path rows
  --pkt-sizes "N..."   packet rows (default: none 0 100 1000 10000)
  --add-sizes "N..."   nft add rule rows (default: 1000 10000 100000)
  --load-sizes "N..."  nft -f rows; "" = none (also skips the list row)
  --set-add-sizes "N..."  nft add element rows: set sizes (default: 1000000,
                  quick 100000); "" = none
  --policy-add-sizes "N..."  nft add rule right after a batch that changes
                  the chain's policy, chain of N rules (default: 10000 100000,
                  quick 1000 10000); "" = none
  --mixed-sizes "N..."  packet rows of N non-matching rules of 8 shapes in
                  turn, so that no run of them folds (default: 1000); "" = none
  --reps N        repetitions of each packet row (default 5, quick 3)
  --prefill N     before the packet rows, load N rules and flush them on
                  both sides (the history a full run leaves behind)
Prints a markdown table and writes it to $here/results-<date>.md
EOF
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--builddir) [ $# -ge 2 ] || usage; builddir=$2; shift 2 ;;
	--builddir=*) builddir=${1#--builddir=}; shift ;;
	--quick) quick=1; shift ;;
	--only) [ $# -ge 2 ] || usage; only=$2; args_echo+=" $1 $2"; shift 2 ;;
	--pkt-sizes) [ $# -ge 2 ] || usage; o_pkt=$2; args_echo+=" $1 '$2'"; shift 2 ;;
	--add-sizes) [ $# -ge 2 ] || usage; o_add=$2; args_echo+=" $1 '$2'"; shift 2 ;;
	--load-sizes) [ $# -ge 2 ] || usage; o_load=$2; [ -z "$2" ] && o_load=-; args_echo+=" $1 '$2'"; shift 2 ;;
	--set-add-sizes) [ $# -ge 2 ] || usage; o_setadd=$2; [ -z "$2" ] && o_setadd=-; args_echo+=" $1 '$2'"; shift 2 ;;
	--policy-add-sizes) [ $# -ge 2 ] || usage; o_padd=$2; [ -z "$2" ] && o_padd=-; args_echo+=" $1 '$2'"; shift 2 ;;
	--mixed-sizes) [ $# -ge 2 ] || usage; o_mixed=$2; [ -z "$2" ] && o_mixed=-; args_echo+=" $1 '$2'"; shift 2 ;;
	--reps) [ $# -ge 2 ] || usage; o_reps=$2; args_echo+=" $1 $2"; shift 2 ;;
	--prefill) [ $# -ge 2 ] || usage; prefill=$2; args_echo+=" $1 $2"; shift 2 ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument $1" >&2; usage ;;
	esac
done

die() { echo "run.sh: $*" >&2; exit 1; }
log() { echo "[bench $(date +%T)] $*" >&2; }

[ "$(id -u)" = 0 ] || die "needs root (network namespaces, BPF)"
for c in nft ip nsenter timeout awk sort; do
	command -v "$c" >/dev/null || die "$c not found"
done
builddir=$(cd "$builddir" 2>/dev/null && pwd) || die "no build dir"
for f in nfbpfd nfbpf-run .libs/libnfbpf-preload.so; do
	[ -e "$builddir/$f" ] || die "$builddir/$f missing (build the tree first; run.sh builds nothing)"
done

# ---------------------------------------------------------------------------
# Parameters

if ((quick)); then
	LOAD_SIZES=(1000 10000)		# nft -f of N rules
	ADD_SIZES=(100 1000 10000)	# nft add rule into a chain of N rules
	LIST_SIZE=10000			# nft list ruleset of N rules
	PKT_SIZES=(none 0 100 1000)	# non-matching rules in the input chain
	PKT_COUNT=200000 PKT_MAXSEC=1 PKT_REPS=3
	LOAD_REPS=3 LIST_REPS=3 NADD=20
	SET_PKT=10000 SET_ADD=(100000)	# set lookup row; element add rows
	MIXED_SIZES=(1000)		# packet rows, rules of varied shapes
	PADD_SIZES=(1000 10000)		# add rule after a policy change
else
	LOAD_SIZES=(10000 100000)
	ADD_SIZES=(1000 10000 100000)
	LIST_SIZE=100000
	PKT_SIZES=(none 0 100 1000 10000)
	PKT_COUNT=1000000 PKT_MAXSEC=3 PKT_REPS=5
	LOAD_REPS=3 LIST_REPS=3 NADD=20
	SET_PKT=100000 SET_ADD=(1000000)
	MIXED_SIZES=(1000)
	PADD_SIZES=(10000 100000)
fi
[ -n "$o_pkt" ] && read -r -a PKT_SIZES <<<"$o_pkt"
[ -n "$o_add" ] && read -r -a ADD_SIZES <<<"$o_add"
if [ "$o_mixed" = - ]; then MIXED_SIZES=()
elif [ -n "$o_mixed" ]; then read -r -a MIXED_SIZES <<<"$o_mixed"; fi
if [ "$o_setadd" = - ]; then SET_ADD=()
elif [ -n "$o_setadd" ]; then read -r -a SET_ADD <<<"$o_setadd"; fi
if [ "$o_padd" = - ]; then PADD_SIZES=()
elif [ -n "$o_padd" ]; then read -r -a PADD_SIZES <<<"$o_padd"; fi
if [ "$o_load" = - ]; then LOAD_SIZES=() LIST_SIZE=""
elif [ -n "$o_load" ]; then read -r -a LOAD_SIZES <<<"$o_load"; fi
[ -n "$o_reps" ] && PKT_REPS=$o_reps
case $only in ""|cp|pkt) ;; *) usage ;; esac
CMD_TIMEOUT=120		# seconds, any single nft command
CHUNK=10000		# rules per nft -f when a big ruleset is filled in pieces

# ---------------------------------------------------------------------------
# Scratch state and cleanup

tmp=$(mktemp -d /tmp/nfbpf-bench.XXXXXX) || die "mktemp failed"
pfx=nfbench$$
NS_K=$pfx-k NS_B=$pfx-b NS_S=$pfx-s
created_ns=()
dpid="" sink_pids=()
sock=$tmp/s.sock

cleanup() {
	local p n
	trap - EXIT INT TERM
	for p in "${sink_pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	wait 2>/dev/null
	for n in "${created_ns[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

for n in "$NS_K" "$NS_B" "$NS_S"; do
	ip netns add "$n" || die "ip netns add $n failed"
	created_ns+=("$n")
	ip -n "$n" link set lo up
done

# Freeze the binaries for the whole run: others may rebuild the tree meanwhile.
mkdir -p "$tmp/bin"
cp "$builddir/nfbpfd" "$builddir/.libs/libnfbpf-preload.so" "$tmp/bin/" || die "cannot copy binaries"
export NFBPF_SOCKET=$sock
export NFBPF_PRELOAD=$tmp/bin/libnfbpf-preload.so
RUN=$builddir/nfbpf-run

restarts=()
daemon_start() {
	rm -f "$sock"
	# pins in a private bpffs that goes with the daemon, state in $tmp:
	# a restarted daemon starts fresh, nothing stays on the host
	mkdir -p "$tmp/bpf"
	unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
		"$tmp/bpf" "$tmp/bin/nfbpfd" --pin-dir "$tmp/bpf/nfbpf" \
		--state-dir "$tmp/state" \
		--socket "$sock" --foreground >>"$tmp/nfbpfd.log" 2>&1 &
	dpid=$!
	local i
	for i in $(seq 100); do [ -S "$sock" ] && return 0; sleep 0.05; done
	tail -5 "$tmp/nfbpfd.log" >&2
	die "nfbpfd did not create $sock"
}
daemon_stop() {
	[ -n "$dpid" ] || return 0
	kill "$dpid" 2>/dev/null
	wait "$dpid" 2>/dev/null
	dpid=""
}
# daemon_restart WHY: a fresh nfbpfd, so that a failed step cannot skew the next
daemon_restart() {
	restarts+=("$1")
	log "restarting nfbpfd ($1)"
	daemon_stop
	daemon_start
}
daemon_start

# ---------------------------------------------------------------------------
# Helpers

# on SIDE CMD...: run CMD in the side's netns (b: through nfbpf-run), bounded
on() {
	local s=$1; shift
	if [ "$s" = k ]; then
		timeout -k 5 "$CMD_TIMEOUT" nsenter --net="/run/netns/$NS_K" -- "$@"
	else
		timeout -k 5 "$CMD_TIMEOUT" nsenter --net="/run/netns/$NS_B" -- "$RUN" "$@"
	fi
}

# timed SIDE CMD...: sets T_US (wall time, microseconds) and REASON on failure;
# stdout goes to $T_OUT (default /dev/null), stderr to $tmp/err
T_OUT=/dev/null
timed() {
	local t0 t1 rc
	t0=${EPOCHREALTIME/./}
	on "$@" >"$T_OUT" 2>"$tmp/err"
	rc=$?
	t1=${EPOCHREALTIME/./}
	T_US=$((t1 - t0))
	REASON=""
	if ((rc)); then
		if ((rc == 124 || rc == 137)); then
			REASON="timeout after ${CMD_TIMEOUT}s"
		else
			REASON=$(grep -m1 -o 'Error: .*' "$tmp/err" || grep -m1 . "$tmp/err")
			REASON=${REASON:-exit $rc}
			REASON=${REASON:0:90}
		fi
	fi
	return $rc
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {
		if (NR == 0) exit
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# flush SIDE: empty ruleset; a failing nfbpfd is restarted
flush() {
	if ! timed "$1" nft flush ruleset; then
		if [ "$1" = b ]; then daemon_restart "flush failed: $REASON"; else die "kernel flush failed: $REASON"; fi
	fi
}

# gen_rules N FILE: one table, one input base chain, N varied non-matching rules
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
# gen_mixed N FILE: N non-matching rules (for the UDP packets to PORT the rows
# send) of 8 shapes in turn: no two neighbours share a shape, so nothing folds
# and nfbpf walks every rule, as a hand-written ruleset makes it
gen_mixed() {
	awk -v n="$1" 'BEGIN {
		print "table ip t {"
		print "\tchain in {"
		print "\t\ttype filter hook input priority 0; policy accept;"
		for (i = 0; i < n; i++) {
			a = int(i / 256) % 256; b = i % 256; p = 1024 + i % 8000
			k = i % 8
			if (k == 0) printf "\t\tip saddr 172.16.%d.%d tcp dport %d counter accept\n", a, b, p
			else if (k == 1) printf "\t\tip daddr 172.17.%d.%d counter accept\n", a, b
			else if (k == 2) printf "\t\tudp dport %d counter drop\n", p
			else if (k == 3) printf "\t\tip saddr 172.18.%d.0/24 counter accept\n", a
			else if (k == 4) printf "\t\tmeta mark 0x%x counter accept\n", i + 1
			else if (k == 5) printf "\t\tiifname \"nfb%d\" counter accept\n", i
			else if (k == 6) printf "\t\tip ttl %d counter accept\n", 1 + i % 32
			else printf "\t\ttcp flags syn tcp dport %d counter drop\n", p
		}
		print "\t}"
		print "}" }' >"$2"
}
# gen_chunk FROM TO FILE: the same rules FROM..TO-1 as `add rule` lines
gen_chunk() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		for (i = a; i < b; i++)
			printf "add rule ip t in ip saddr 172.%d.%d.%d tcp dport %d counter accept\n",
				16 + int(i / 65536) % 16, int(i / 256) % 256, i % 256, 1024 + i % 60000 }' >"$3"
}
# gen_set N FILE: a table with a set of N distinct addresses (100.64.0.0/10,
# up to 4M, never the senders') and an input chain that looks every packet's source up in it
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
rules_file() {
	[ -f "$tmp/rules-$1.nft" ] || gen_rules "$1" "$tmp/rules-$1.nft"
	echo "$tmp/rules-$1.nft"
}

# Results: KEYS in order; LABEL[key]; VAL_k/VAL_b[key] numeric or FAIL_k/FAIL_b[key]
KEYS=()
declare -A LABEL VAL_k VAL_b FAIL_k FAIL_b FMT
row() { KEYS+=("$1"); LABEL[$1]=$2; FMT[$1]=$3; }
put() { if [ "$1" = k ]; then VAL_k[$2]=$3; else VAL_b[$2]=$3; fi; }
RAW=()
raw() { (($# > 2)) && RAW+=("$1 $2:$(printf ' %s' "${@:3}")"); }	# raw KEY SIDE VALUES...: for the details
putfail() { if [ "$1" = k ]; then FAIL_k[$2]=$3; else FAIL_b[$2]=$3; fi; }
has() { local x; for x in "${@:2}"; do [ "$x" = "$1" ] && return 0; done; return 1; }
human() { # 1000 -> 1k, 100000 -> 100k
	if (($1 >= 1000 && $1 % 1000 == 0)); then echo "$(($1 / 1000))k"; else echo "$1"; fi
}

loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$SECONDS

# ---------------------------------------------------------------------------
# 1. Control plane

if [ "$only" != pkt ]; then
log "control plane: empty-ruleset round trip"
row empty "nft list ruleset, empty ruleset (ms, median of $NADD; process start + 1 dump)" ms
for s in k b; do
	ts=()
	for i in $(seq "$NADD"); do
		if timed $s nft list ruleset; then ts+=("$T_US"); else putfail $s empty "$REASON"; break; fi
	done
	[ ${#ts[@]} = "$NADD" ] && put $s empty "$(median "${ts[@]}" | awk '{print $1 / 1000}')"
	raw empty $s "${ts[@]}"
done

ALL_SIZES=($(printf '%s\n' "${LOAD_SIZES[@]}" "${ADD_SIZES[@]}" $LIST_SIZE | sort -n | uniq))
for n in "${LOAD_SIZES[@]}"; do row "load$n" "nft -f, $(human "$n") rules (s, median of $LOAD_REPS)" s; done
for n in "${ADD_SIZES[@]}"; do row "add$n" "nft add rule into a chain of $(human "$n") (ms, median of $NADD)" ms; done
[ -n "$LIST_SIZE" ] && row "list$LIST_SIZE" "nft list ruleset, $(human "$LIST_SIZE") rules (s, median of $LIST_REPS)" s

addseq=0
for n in "${ALL_SIZES[@]}"; do
	f=$(rules_file "$n")
	for s in k b; do
		log "control plane: side $s, $n rules"
		is_load=0; has "$n" "${LOAD_SIZES[@]}" && is_load=1
		reps=1; ((is_load)) && reps=$LOAD_REPS
		filled=1 ts=() why=""
		for r in $(seq "$reps"); do
			flush $s
			if timed $s nft -f "$f"; then
				ts+=("$T_US")
			else
				filled=0 why=$REASON
				log "  nft -f of $n rules failed on side $s: $REASON"
				break
			fi
		done
		if ((is_load)); then
			raw "load$n" $s "${ts[@]}"
			if ((filled)); then put $s "load$n" "$(median "${ts[@]}" | awk '{print $1 / 1e6}')"
			else putfail $s "load$n" "$why"; fi
		fi
		need=0
		has "$n" "${ADD_SIZES[@]}" && need=1
		[ "$n" = "$LIST_SIZE" ] && need=1
		if ((!filled && need)); then
			# fill the chain in pieces of $CHUNK rules (untimed) so that the
			# add/list steps still run if only the single big batch failed
			[ $s = b ] && daemon_restart "after failed nft -f of $n rules"
			flush $s
			gen_rules 0 "$tmp/base.nft"
			if timed $s nft -f "$tmp/base.nft"; then
				filled=1 have=0
				while ((have < n)); do
					end=$((have + CHUNK)); ((end > n)) && end=$n
					gen_chunk "$have" "$end" "$tmp/chunk.nft"
					if ! timed $s nft -f "$tmp/chunk.nft"; then
						filled=0
						why="chain holds only $(human "$have") rules: $REASON"
						break
					fi
					have=$end
				done
			else
				why="$REASON"
			fi
			((filled)) && log "  filled in pieces of $CHUNK rules instead"
		fi
		if has "$n" "${ADD_SIZES[@]}"; then
			if ((filled)); then
				ts=()
				for i in $(seq "$NADD"); do
					addseq=$((addseq + 1))
					if timed $s nft add rule ip t in ip saddr 10.250.$((addseq / 256)).$((addseq % 256)) \
						tcp dport $((2000 + addseq)) counter accept; then
						ts+=("$T_US")
					else
						putfail $s "add$n" "$REASON"; break
					fi
				done
				[ ${#ts[@]} = "$NADD" ] && put $s "add$n" "$(median "${ts[@]}" | awk '{print $1 / 1000}')"
				raw "add$n" $s "${ts[@]}"
			else
				putfail $s "add$n" "$why"
			fi
		fi
		if [ "$n" = "$LIST_SIZE" ]; then
			if ((filled)); then
				ts=()
				for i in $(seq "$LIST_REPS"); do
					if timed $s nft list ruleset; then ts+=("$T_US"); else putfail $s "list$n" "$REASON"; break; fi
				done
				[ ${#ts[@]} = "$LIST_REPS" ] && put $s "list$n" "$(median "${ts[@]}" | awk '{print $1 / 1e6}')"
				raw "list$n" $s "${ts[@]}"
			else
				putfail $s "list$n" "$why"
			fi
		fi
		if [ $s = b ] && ((!filled)); then
			daemon_restart "after failing to fill a chain of $n rules"
		fi
		flush $s
	done
done

# element add into a set of N addresses, for each N of SET_ADD
for n in "${SET_ADD[@]}"; do
row "elemadd$n" "nft add element into a set of $(human "$n") (ms, median of $NADD)" ms
gen_set "$n" "$tmp/set-add.nft"
for s in k b; do
	log "control plane: side $s, element add into a set of $n"
	flush $s
	if timed $s nft -f "$tmp/set-add.nft"; then
		ts=()
		for i in $(seq "$NADD"); do
			if timed $s nft add element ip s s "{ 203.0.$((i / 256)).$((i % 256)) }"; then
				ts+=("$T_US")
			else
				putfail $s "elemadd$n" "$REASON"; break
			fi
		done
		[ ${#ts[@]} = "$NADD" ] && put $s "elemadd$n" "$(median "${ts[@]}" | awk '{print $1 / 1000}')"
		raw "elemadd$n" $s "${ts[@]}"
	else
		putfail $s "elemadd$n" "$REASON"
		[ $s = b ] && daemon_restart "after failed load of a $n-element set"
	fi
	flush $s
done
done

# nft add rule right after a batch that changes the chain's policy (untimed;
# it alternates drop and accept), for each N of PADD_SIZES: nfbpfd prepares
# the policy change from the whole ruleset, the rule batch after it from
# its rule (and the policy it settles)
for n in "${PADD_SIZES[@]}"; do
row "padd$n" "nft add rule right after a policy change, chain of $(human "$n") (ms, median of $NADD)" ms
f=$(rules_file "$n")
for s in k b; do
	log "control plane: side $s, rule add after a policy change, $n rules"
	flush $s
	if timed $s nft -f "$f"; then
		ts=() pol=drop
		for i in $(seq "$NADD"); do
			addseq=$((addseq + 1))
			if ! timed $s nft "chain ip t in { policy $pol; }"; then
				putfail $s "padd$n" "policy change: $REASON"; break
			fi
			if [ $pol = drop ]; then pol=accept; else pol=drop; fi
			if timed $s nft add rule ip t in ip saddr 10.251.$((addseq / 256)).$((addseq % 256)) \
				tcp dport $((2000 + addseq)) counter accept; then
				ts+=("$T_US")
			else
				putfail $s "padd$n" "$REASON"; break
			fi
		done
		[ ${#ts[@]} = "$NADD" ] && put $s "padd$n" "$(median "${ts[@]}" | awk '{print $1 / 1000}')"
		raw "padd$n" $s "${ts[@]}"
	else
		putfail $s "padd$n" "$REASON"
		[ $s = b ] && daemon_restart "after failed load of $n rules"
	fi
	flush $s
done
done
fi # only != pkt

# ---------------------------------------------------------------------------
# 2. Packet path: sender netns -> veth -> receiver netns (input base chain)
if [ "$only" != cp ]; then

log "packet path: setup"
ip -n "$NS_S" link add vk0 type veth peer name vk1 netns "$NS_K" || die "veth k"
ip -n "$NS_S" link add vb0 type veth peer name vb1 netns "$NS_B" || die "veth b"
ip -n "$NS_S" addr add 10.201.1.1/24 dev vk0
ip -n "$NS_K" addr add 10.201.1.2/24 dev vk1
ip -n "$NS_S" addr add 10.201.2.1/24 dev vb0
ip -n "$NS_B" addr add 10.201.2.2/24 dev vb1
ip -n "$NS_S" link set vk0 up
ip -n "$NS_S" link set vb0 up
ip -n "$NS_K" link set vk1 up
ip -n "$NS_B" link set vb1 up
declare -A DST=([k]=10.201.1.2 [b]=10.201.2.2) RNS=([k]=$NS_K [b]=$NS_B)
PORT=9999

if command -v "${CC:-cc}" >/dev/null && "${CC:-cc}" -O2 -o "$tmp/udpblast" "$here/udpblast.c" 2>"$tmp/cc.err"; then
	SENDER=("$tmp/udpblast") sender_kind="C (bench/udpblast.c, connect()+send() loop)"
else
	cat >"$tmp/udpblast.py" <<'EOF'
import socket, sys, time
if sys.argv[1] == "sink":
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("0.0.0.0", int(sys.argv[2]))); print("ready", flush=True); time.sleep(3600)
else:
    ip, port, count, maxsec = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect((ip, port))
    send, p, sent, err = s.send, b"nfbpf-bench-udp!!!", 0, 0
    t0 = time.monotonic_ns(); dl = t0 + int(maxsec * 1e9)
    while sent < count:
        try: send(p)
        except OSError: err += 1
        sent += 1
        if not sent & 63 and time.monotonic_ns() >= dl: break
    print(sent, err, time.monotonic_ns() - t0)
EOF
	SENDER=(python3 "$tmp/udpblast.py") sender_kind="python3 (no C compiler; adds ~1 us/packet)"
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c $(($(nproc) - 1)))

# a bound UDP socket that is never read: datagrams end as InDatagrams or
# RcvbufErrors, no ICMP is generated
for s in k b; do
	nsenter --net="/run/netns/${RNS[$s]}" -- "${SENDER[@]}" sink $PORT >"$tmp/sink-$s" 2>&1 &
	sink_pids+=($!)
done
sleep 0.3

# udp_in SIDE: UDP datagrams that reached the receiver's UDP layer (passed the hook)
udp_in() {
	nsenter --net="/run/netns/${RNS[$1]}" -- awk '/^Udp:/ { if (h) print $2 + $3 + $4; else h = 1 }' /proc/net/snmp
}
# blast SIDE COUNT MAXSEC: sets P_SENT P_RX P_NS (elapsed ns)
blast() {
	local a b out
	a=$(udp_in "$1")
	out=$(timeout -k 2 $(($3 + 20)) nsenter --net="/run/netns/$NS_S" -- "${pin[@]}" "${SENDER[@]}" \
		send "${DST[$1]}" $PORT "$2" "$3")
	sleep 0.05
	b=$(udp_in "$1")
	read -r P_SENT _ P_NS <<<"$out"
	P_SENT=${P_SENT:-0} P_NS=${P_NS:-0}
	P_RX=$((b - a))
}

# pkt_measure KEY: the packet rows' measurement, on the sides okside[] has
# loaded (warm-up, PKT_REPS alternating repetitions, median, losses)
pkt_measure() {
	local key=$1 r s order
	local -A nsp=() loss=()
	for s in k b; do ((okside[$s])) && blast $s 2000 1; done	# ARP + warm-up
	for r in $(seq "$PKT_REPS"); do
		order="k b"; ((r % 2)) || order="b k"	# alternate, so drift hits both
		for s in $order; do
			((okside[$s])) || continue
			blast $s "$PKT_COUNT" "$PKT_MAXSEC"
			if ((P_SENT == 0)); then
				putfail $s "$key" "sender failed"; okside[$s]=0; continue
			fi
			nsp[$s]+=" $((P_NS / P_SENT))"
			((P_RX < P_SENT)) && loss[$s]=$(( ${loss[$s]:-0} + P_SENT - P_RX ))
			log "  side $s rep $r: $P_SENT packets in $((P_NS / 1000000)) ms, $P_RX delivered"
		done
	done
	for s in k b; do
		((okside[$s])) || continue
		put $s "$key" "$(median ${nsp[$s]})"
		raw "$key" $s ${nsp[$s]}
		if [ -n "${loss[$s]:-}" ]; then
			LABEL[$key]+=" [side $s: ${loss[$s]} packets not delivered]"
		fi
	done
}

if ((prefill)); then
	for s in k b; do
		log "packet path: side $s, prefill $prefill rules, then flush"
		flush $s
		timed $s nft -f "$(rules_file "$prefill")" || log "  prefill failed: $REASON"
		flush $s
	done
fi
for n in "${PKT_SIZES[@]}"; do
	if [ "$n" = none ]; then
		row "pkt$n" "packet path, no ruleset at all (ns/packet, median of $PKT_REPS)" ns
	else
		row "pkt$n" "packet path, $(human "$n") non-matching rules (ns/packet, median of $PKT_REPS)" ns
	fi
	declare -A okside=([k]=1 [b]=1)
	for s in k b; do
		flush $s
		if [ "$n" != none ] && ! timed $s nft -f "$(rules_file "$n")"; then
			putfail $s "pkt$n" "$REASON"; okside[$s]=0
			[ $s = b ] && daemon_restart "after failed nft -f of $n rules (packet path)"
		fi
	done
	log "packet path: $n rules"
	pkt_measure "pkt$n"
	unset okside
	flush k; flush b
done
# rules of varied shapes (nothing folds)
for n in "${MIXED_SIZES[@]}"; do
	row "pktmix$n" "packet path, $(human "$n") non-matching rules of 8 shapes in turn (ns/packet, median of $PKT_REPS)" ns
	gen_mixed "$n" "$tmp/mixed-$n.nft"
	declare -A okside=([k]=1 [b]=1)
	for s in k b; do
		flush $s
		if ! timed $s nft -f "$tmp/mixed-$n.nft"; then
			putfail $s "pktmix$n" "$REASON"; okside[$s]=0
			[ $s = b ] && daemon_restart "after failed nft -f of $n mixed rules (packet path)"
		fi
	done
	log "packet path: $n rules of mixed shapes"
	pkt_measure "pktmix$n"
	unset okside
	flush k; flush b
done
# one set lookup, SET_PKT elements, no match
row pktset "packet path, one lookup in a set of $(human "$SET_PKT") addresses, no match (ns/packet, median of $PKT_REPS)" ns
gen_set "$SET_PKT" "$tmp/set-pkt.nft"
declare -A okside=([k]=1 [b]=1)
for s in k b; do
	flush $s
	if ! timed $s nft -f "$tmp/set-pkt.nft"; then
		putfail $s pktset "$REASON"; okside[$s]=0
		[ $s = b ] && daemon_restart "after failed load of a $SET_PKT-element set"
	fi
done
log "packet path: a set of $SET_PKT"
pkt_measure pktset
unset okside
flush k; flush b
# marginal cost per rule, from the largest chain against the empty chain
big=${PKT_SIZES[-1]:-0}
if [ "$big" != 0 ] && [ "$big" != none ]; then
row perrule "packet path, marginal cost per rule, (t($(human "$big")) - t(0)) / $(human "$big") (ns/rule)" ns2
for s in k b; do
	eval "v0=\${VAL_$s[pkt0]:-}; vb=\${VAL_$s[pkt$big]:-}"
	if [ -n "$v0" ] && [ -n "$vb" ]; then
		put $s perrule "$(awk -v a="$v0" -v b="$vb" -v n="$big" 'BEGIN { print (b - a) / n }')"
	else
		putfail $s perrule "needs both rows"
	fi
done
fi
fi # only != cp

# ---------------------------------------------------------------------------
# 3. Report

daemon_alive=yes
kill -0 "$dpid" 2>/dev/null || daemon_alive=no
fmt() { # fmt FORMAT VALUE
	case $1 in
	s) awk -v v="$2" 'BEGIN { printf "%.3f", v }' ;;
	ms) awk -v v="$2" 'BEGIN { printf "%.1f", v }' ;;
	ns) awk -v v="$2" 'BEGIN { printf "%.0f", v }' ;;
	ns2) awk -v v="$2" 'BEGIN { printf "%.2f", v }' ;;
	esac
}
commit=$(git -C "$builddir" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$builddir" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit+=" (+ uncommitted changes)"
stamp=$(date +%Y-%m-%d-%H%M)
mode=full; ((quick)) && mode=quick
report=$tmp/report.md
{
	echo "# nfbpf vs kernel nf_tables — $mode run, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "kernel $(uname -r), $(nproc) CPU ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)),"
	echo "$(nft --version), nfbpf $commit, \`bench/run.sh$( ((quick)) && echo ' --quick')$args_echo\`."
	echo "Load average before/after: $loadavg_start / $(cut -d' ' -f1-3 /proc/loadavg); run took $((SECONDS - t_start)) s."
	echo
	echo "| measurement | kernel | nfbpf | nfbpf/kernel |"
	echo "|---|---:|---:|---:|"
	for key in "${KEYS[@]}"; do
		k=${VAL_k[$key]:-} b=${VAL_b[$key]:-}
		if [ -n "$k" ]; then kc=$(fmt "${FMT[$key]}" "$k"); else kc="failed (${FAIL_k[$key]:-not run})"; fi
		if [ -n "$b" ]; then bc=$(fmt "${FMT[$key]}" "$b"); else bc="failed (${FAIL_b[$key]:-not run})"; fi
		ratio="—"
		if [ -n "$k" ] && [ -n "$b" ]; then
			ratio=$(awk -v k="$k" -v b="$b" 'BEGIN { if (k > 0) printf "%.2f", b / k; else print "—" }')
		fi
		echo "| ${LABEL[$key]} | $kc | $bc | $ratio |"
	done
	echo
	echo "Control plane: wall time of one \`nsenter --net=NS [nfbpf-run] nft ...\` process (nfbpf side"
	echo "includes the nfbpf-run wrapper); \`nft -f\` and list start from an empty netns / full chain."
	[ "$only" != cp ] && echo "Packet path: sender netns -> veth -> receiver netns, $PKT_COUNT UDP datagrams or ${PKT_MAXSEC} s"
	[ "$only" != cp ] && echo "per repetition (whichever first), sender pinned to one CPU; veth receive runs in the sender's"
	[ "$only" != cp ] && echo "softirq, so ns/packet = sender wall time / packets = send + veth + hook + UDP receive."
	[ "$only" != cp ] && echo "Sender: $sender_kind. Delivered count checked against /proc/net/snmp of the receiver."
	if ((${#restarts[@]})); then
		echo "nfbpfd was restarted ${#restarts[@]}x so that one failure cannot skew later rows:"
		for r in "${restarts[@]}"; do echo "- $r"; done
	fi
	echo "nfbpfd alive at the end: $daemon_alive."
	echo
	echo "<details><summary>raw samples (control plane: us per command; packet path: ns/packet per repetition)</summary>"
	echo
	for r in "${RAW[@]}"; do echo "    $r"; done
	echo
	echo "</details>"
} >"$report"
cat "$report"
sfx=$( ((quick)) && echo -quick)$([ -n "$only" ] && echo "-$only")
cp "$report" "$here/results-$stamp$sfx.md" && log "written $here/results-$stamp$sfx.md"
