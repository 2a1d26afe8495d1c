#!/bin/bash
# nfbpf kernel-oracle harness: run each case against the kernel (netns A) and
# against nfbpfd through nfbpf-run (netns B), compare everything byte for byte.
# See tests/oracle/README.md.  Needs root (creates/deletes scratch netns).
set -u
export LC_ALL=C
umask 022

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SELF="$HERE/$(basename "${BASH_SOURCE[0]}")"
CASES_DIR=${ORACLE_CASES:-$HERE/cases}
# Timeouts catch hangs, not slowness: nfbpfd loads one walker program per
# hook point, and rulesets/inet-many-chains (100 hook points) took 25 s on
# a 2-core VM at load average 16 (0.13 s on the kernel).
CASE_TIMEOUT=${ORACLE_CASE_TIMEOUT:-180}  # seconds, per side, whole case
CMD_TIMEOUT=${ORACLE_CMD_TIMEOUT:-60}     # seconds, per command

# Only these programs may appear as the first word of a case line.
ALLOWED_CMDS=" nft iptables-nft ip6tables-nft ebtables-nft arptables-nft"
ALLOWED_CMDS+=" iptables-nft-save ip6tables-nft-save ebtables-nft-save arptables-nft-save"
ALLOWED_CMDS+=" iptables-nft-restore ip6tables-nft-restore ebtables-nft-restore arptables-nft-restore "

usage() {
	cat <<EOF
usage: $0 [--nfbpf-run PATH] [--kernel-only] [--filter GLOB] [-j N] [-v] [--keep DIR] [CASE...]
  --nfbpf-run PATH  wrapper used for side B (default: \$NFBPF_RUN, else nfbpf-run in PATH)
  --kernel-only     side B is the kernel too (validates the harness and the corpus)
  --filter GLOB     only cases whose name (group/name) matches GLOB (bash pattern)
  -j N              run N cases in parallel (default 1)
  -v                print the kernel transcript of every case
  --keep DIR        keep transcripts (DIR/<group>/<name>.{kernel,nfbpf})
  CASE              case name (group/name), group name, or path to a .t file
env: ORACLE_CASE_TIMEOUT (180) ORACLE_CMD_TIMEOUT (60) NFBPF_SOCKET (passed through)
EOF
	exit 2
}

die() { echo "run-oracle: $*" >&2; exit 2; }

# ---------------------------------------------------------------------------
# Case-line tokenizer: words split on blanks; '...' literal; "..." literal
# except \" and \\; a backslash outside quotes escapes the next character.
# No expansion of any kind: a case can never run shell code.
tokenize() {
	local s=$1 n=${#1} i=0 c nc w="" inw=0 q=""
	TOKENS=()
	while ((i < n)); do
		c=${s:i:1}
		if [[ -n $q ]]; then
			if [[ $c == "$q" ]]; then
				q=""
			elif [[ $q == '"' && $c == '\' ]] && ((i + 1 < n)); then
				nc=${s:i+1:1}
				if [[ $nc == '"' || $nc == '\' ]]; then w+=$nc; ((i++)); else w+=$c; fi
			else
				w+=$c
			fi
		else
			case $c in
			' ' | $'\t') if ((inw)); then TOKENS+=("$w"); w=""; inw=0; fi ;;
			"'" | '"') q=$c; inw=1 ;;
			'\') ((i++)); w+=${s:i:1}; inw=1 ;;
			*) w+=$c; inw=1 ;;
			esac
		fi
		((i++))
	done
	[[ -n $q ]] && return 1
	((inw)) && TOKENS+=("$w")
	return 0
}

# parse_case FILE: validates every line and fills LINES_RAW (line as written),
# LINES_ARGC/ARGV_FLAT (the argument vectors, concatenated) and LINES_STDIN.
# Errors go to stderr, return 1.
parse_case() {
	local file=$1 dir base line lineno=0 tok
	dir=$(dirname "$file"); base=$(basename "$file" .t)
	LINES_RAW=(); LINES_ARGC=(); ARGV_FLAT=(); LINES_STDIN=()
	while IFS= read -r line || [[ -n $line ]]; do
		((lineno++))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		if ! tokenize "$line"; then
			echo "$file:$lineno: unterminated quote" >&2; return 1
		fi
		if [[ $ALLOWED_CMDS != *" ${TOKENS[0]} "* ]]; then
			echo "$file:$lineno: command '${TOKENS[0]}' not allowed" >&2; return 1
		fi
		local argv=() stdin="" i
		# `nft [OPTS] monitor [ARGS] &`: a background monitor (see side_main)
		if [[ ${TOKENS[-1]} == "&" ]]; then
			if [[ ${TOKENS[0]} != nft || " ${TOKENS[*]} " != *" monitor "* ]]; then
				echo "$file:$lineno: only 'nft ... monitor ... &' may run in the background" >&2; return 1
			fi
		fi
		for ((i = 0; i < ${#TOKENS[@]}; i++)); do
			tok=${TOKENS[i]}
			if [[ $tok == "<" ]]; then
				((i + 2 == ${#TOKENS[@]})) || { echo "$file:$lineno: '<' must be followed by exactly one @FILE word at the end" >&2; return 1; }
				tok=${TOKENS[i + 1]}
				[[ $tok == @FILE* ]] || { echo "$file:$lineno: stdin may only come from @FILE[.ext]" >&2; return 1; }
				stdin="$dir/$base${tok#@FILE}"
				[[ $tok == @FILE ]] && stdin="$dir/$base.nft"
				[[ -f $stdin ]] || { echo "$file:$lineno: missing $stdin" >&2; return 1; }
				break
			fi
			if [[ $tok == @FILE ]]; then
				tok="$dir/$base.nft"
			elif [[ $tok == @FILE.* ]]; then
				tok="$dir/$base${tok#@FILE}"
			fi
			if [[ ${TOKENS[i]} == @FILE* && ! -f $tok ]]; then
				echo "$file:$lineno: missing companion file $tok" >&2; return 1
			fi
			# xtables --modprobe would exec an arbitrary program
			if [[ ${TOKENS[0]} != nft && ($tok == --modprobe* || $tok == -M) ]]; then
				echo "$file:$lineno: --modprobe not allowed" >&2; return 1
			fi
			argv+=("$tok")
		done
		LINES_RAW+=("$line")
		LINES_ARGC+=(${#argv[@]})
		ARGV_FLAT+=("${argv[@]}")
		LINES_STDIN+=("$stdin")
	done <"$file"
	((${#LINES_RAW[@]})) || { echo "$file: no commands" >&2; return 1; }
	return 0
}

# ---------------------------------------------------------------------------
# Side runner (internal): --side NETNS CASEFILE OUT [WRAPPER...]
# Writes one transcript of everything observable to OUT.

strip_save_dates() { sed -E '/^# (Generated by|Completed on) /d'; }

# The only other normalisations: `nft -e` prints the NEWGEN notification
# "# new generation N by process PID (nft)"; PID is the client's and differs
# between runs by nature (the generation number N is still compared). And a
# binding chain ("jump { ... }") is named "__chain<N>" with N counting such
# chains since boot in every namespace (nf_tables_addchain()), so N differs
# between two kernel runs too: it shows in --debug=netlink and monitor output.
mask_pid() { sed -E 's/^(# new generation [0-9]+ by process )[0-9]+ /\1PID /; s/__chain[0-9]+/__chainN/g'; }

# Set elements come out of a hash set in per-boot random order in the
# --debug=netlink dump: sort element lines within each set block.
sort_debug_elements() {
	awk 'BEGIN{b=0} /^\telement /{print b "\t1\t" $0; next} {b++; print b "\t0\t" $0}' |
		sort -t "$(printf '\t')" -k1,1n -k2,2n -k3 | cut -f3-
}

# run_one LABEL FILTER STDIN ARGV...: run in the netns, append to transcript
run_one() {
	local label=$1 filter=$2 stdin=$3; shift 3
	local so="$WORK/so" se="$WORK/se" rc
	[[ -n $stdin ]] || stdin=/dev/null
	timeout -k 5 "$CMD_TIMEOUT" ip netns exec "$NETNS" "${WRAPPER[@]}" "$@" \
		<"$stdin" >"$so" 2>"$se"
	rc=$?
	{
		printf '### %s\n' "$label"
		case $filter in
		save) strip_save_dates <"$so" ;;
		debug) sort_debug_elements <"$so" | sed -E 's/__chain[0-9]+/__chainN/g' ;;
		*) mask_pid <"$so" ;;
		esac
		printf '### stderr\n'
		cat "$se"
		printf '### exit %d\n' "$rc"
	} >>"$OUT"
}

# A background `nft monitor` (case line ending in `&`): it runs line-buffered
# until the end of the case, then its output is printed. Synchronisation
# without sleeps: a probe table is added and deleted, and the wait (bounded)
# is for the monitor to print that deletion; the probe's lines (and what
# came before them) are cut. The monitor must show table events (plain or
# JSON, unfiltered or `tables`). Both sides run the same probes, so handles
# and generation numbers stay comparable.
MON_PID=""
mon_probe() {
	local k
	timeout -k 5 "$CMD_TIMEOUT" ip netns exec "$NETNS" "${WRAPPER[@]}" nft add table ip __monsync >/dev/null 2>&1
	timeout -k 5 "$CMD_TIMEOUT" ip netns exec "$NETNS" "${WRAPPER[@]}" nft delete table ip __monsync >/dev/null 2>&1
	for ((k = 0; k < 400; k++)); do
		(($(grep -c 'delete.*__monsync' "$WORK/mon") >= $1)) && return 0
		sleep 0.05
	done
	return 1
}

mon_start() {
	: >"$WORK/mon"
	ip netns exec "$NETNS" "${WRAPPER[@]}" stdbuf -oL "$@" >"$WORK/mon" 2>"$WORK/mon.err" </dev/null &
	MON_PID=$!
	# Probes change the generation: their number must not depend on
	# timing. Wait until nft sleeps steadily (its cache read, then the
	# subscription, are done), then one probe normally suffices.
	local k n=0 st
	for ((k = 0; k < 400 && n < 8; k++)); do
		st=$(awk '{print $3}' "/proc/$MON_PID/stat" 2>/dev/null)
		if [[ $(cat "/proc/$MON_PID/comm" 2>/dev/null) == nft && $st == S ]]; then
			((n++))
		else
			n=0
		fi
		sleep 0.05
	done
	for ((k = 0; k < 40; k++)); do
		mon_probe 1 && break
	done
	MON_SKIP=$(wc -l <"$WORK/mon")
}

mon_stop() {
	local label=$1 n
	mon_probe $(($(grep -c 'delete.*__monsync' "$WORK/mon") + 1))
	kill "$MON_PID" 2>/dev/null
	wait "$MON_PID" 2>/dev/null
	MON_PID=""
	{
		printf '### %s\n' "$label"
		# after the first probe (and its generation line), before the last
		tail -n +"$((MON_SKIP + 1))" "$WORK/mon" | sed -E '1{/^# new generation /d}' |
			awk '/__monsync/{exit} {print}' | mask_pid | sed -E 's/"pid": [0-9]+/"pid": PID/'
		printf '### stderr\n'
		cat "$WORK/mon.err"
	} >>"$OUT"
}

side_main() {
	NETNS=$1 CASEFILE=$2 OUT=$3; shift 3
	WRAPPER=("$@")
	WORK=$(mktemp -d /tmp/nfbpf-oracle-side.XXXXXX) || exit 2
	trap '[[ -n $MON_PID ]] && kill "$MON_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
	parse_case "$CASEFILE" || exit 2
	: >"$OUT"
	run_one "pre: nft list ruleset" "" "" nft list ruleset
	local i off=0 xt=0 argv filt
	for ((i = 0; i < ${#LINES_RAW[@]}; i++)); do
		argv=("${ARGV_FLAT[@]:off:${LINES_ARGC[i]}}")
		((off += LINES_ARGC[i]))
		[[ ${argv[0]} == nft ]] || xt=1
		filt=""
		[[ ${argv[0]} == *-save ]] && filt=save
		if [[ ${argv[-1]} == "&" ]]; then
			[[ -n $MON_PID ]] && mon_stop "monitor: $MON_LABEL"
			MON_LABEL="cmd $((i + 1)): ${LINES_RAW[i]}"
			mon_start "${argv[@]:0:${#argv[@]}-1}"
			continue
		fi
		run_one "cmd $((i + 1)): ${LINES_RAW[i]}" "$filt" "${LINES_STDIN[i]}" "${argv[@]}"
	done
	[[ -n $MON_PID ]] && mon_stop "monitor: $MON_LABEL"
	run_one "post: nft list ruleset" "" "" nft list ruleset
	run_one "post: nft -a list ruleset" "" "" nft -a list ruleset
	run_one "post: nft -j list ruleset" "" "" nft -j list ruleset
	run_one "post: nft --debug=netlink list ruleset" debug "" nft --debug=netlink list ruleset
	if ((xt)); then
		local s
		for s in iptables-nft-save ip6tables-nft-save ebtables-nft-save arptables-nft-save; do
			run_one "post: $s" save "" "$s"
		done
	fi
	exit 0
}

if [[ ${1:-} == --side ]]; then
	shift
	side_main "$@"
fi

# ---------------------------------------------------------------------------
# Driver

NFBPF_RUN_PATH=${NFBPF_RUN:-}
KERNEL_ONLY=0
FILTER=""
JOBS=1
VERBOSE=0
KEEP=""
ARGS=()
while (($#)); do
	case $1 in
	--nfbpf-run) NFBPF_RUN_PATH=${2:?}; shift 2 ;;
	--nfbpf-run=*) NFBPF_RUN_PATH=${1#*=}; shift ;;
	--kernel-only) KERNEL_ONLY=1; shift ;;
	--filter) FILTER=${2:?}; shift 2 ;;
	--filter=*) FILTER=${1#*=}; shift ;;
	-j) JOBS=${2:?}; shift 2 ;;
	-j*) JOBS=${1#-j}; shift ;;
	-v) VERBOSE=1; shift ;;
	--keep) KEEP=${2:?}; shift 2 ;;
	-h | --help) usage ;;
	--) shift; ARGS+=("$@"); break ;;
	-*) usage ;;
	*) ARGS+=("$1"); shift ;;
	esac
done

[[ $(id -u) == 0 ]] || die "must run as root (creates network namespaces)"
for c in nft ip timeout diff awk sort; do command -v "$c" >/dev/null || die "missing $c"; done

if ((KERNEL_ONLY)); then
	B_WRAPPER=()
	B_LABEL="kernel(B)"
else
	[[ -n $NFBPF_RUN_PATH ]] || NFBPF_RUN_PATH=$(command -v nfbpf-run) ||
		die "no nfbpf-run: pass --nfbpf-run PATH (or --kernel-only)"
	[[ -x $NFBPF_RUN_PATH ]] || die "$NFBPF_RUN_PATH is not executable"
	NFBPF_RUN_PATH=$(readlink -f "$NFBPF_RUN_PATH")
	B_WRAPPER=("$NFBPF_RUN_PATH")
	B_LABEL="nfbpf"
fi

# Collect cases
CASES=()
add_case() { CASES+=("$(readlink -f "$1")"); }
if ((${#ARGS[@]} == 0)); then
	while IFS= read -r f; do add_case "$f"; done < <(find "$CASES_DIR" -name '*.t' -type f | sort)
else
	for a in "${ARGS[@]}"; do
		if [[ -f $a ]]; then add_case "$a"
		elif [[ -f $CASES_DIR/$a.t ]]; then add_case "$CASES_DIR/$a.t"
		elif [[ -f $CASES_DIR/$a ]]; then add_case "$CASES_DIR/$a"
		elif [[ -d $CASES_DIR/$a ]]; then
			while IFS= read -r f; do add_case "$f"; done < <(find "$CASES_DIR/$a" -name '*.t' -type f | sort)
		else die "no such case: $a"
		fi
	done
fi
case_name() { local n=${1#"$CASES_DIR"/}; echo "${n%.t}"; }
if [[ -n $FILTER ]]; then
	sel=()
	for c in "${CASES[@]}"; do
		# shellcheck disable=SC2053
		[[ $(case_name "$c") == $FILTER ]] && sel+=("$c")
	done
	CASES=("${sel[@]}")
fi
TOTAL=${#CASES[@]}
((TOTAL)) || die "no cases selected"

RUNDIR=$(mktemp -d /tmp/nfbpf-oracle.XXXXXX) || die "mktemp"
NS_PREFIX="nfo$$"
cleanup() {
	local ns j
	for j in $(jobs -p); do kill "$j" 2>/dev/null; done
	wait 2>/dev/null
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		[[ $ns == "$NS_PREFIX"-* ]] && ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$RUNDIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

setup_netns() {
	# Identical scratch netns: lo + a veth pair, all down, so no packet ever
	# flows and counters stay at 0.
	ip netns add "$1" || return 1
	ip -n "$1" link add veth0 type veth peer name veth1 || return 1
}

# run_case IDX FILE: writes $RUNDIR/IDX.res (status line + diff)
run_case() {
	local idx=$1 file=$2 name nsa nsb ta tb res rc_a rc_b status=ok msg=""
	name=$(case_name "$file")
	nsa="$NS_PREFIX-$idx-k"; nsb="$NS_PREFIX-$idx-n"
	ta="$RUNDIR/$idx.kernel"; tb="$RUNDIR/$idx.nfbpf"; res="$RUNDIR/$idx.res"
	: >"$RUNDIR/$idx.detail"
	if ! (parse_case "$file") 2>"$RUNDIR/$idx.detail"; then
		status="not ok"; msg=" # harness: bad case"
	elif ! setup_netns "$nsa" 2>>"$RUNDIR/$idx.detail" || ! setup_netns "$nsb" 2>>"$RUNDIR/$idx.detail"; then
		status="not ok"; msg=" # harness: netns setup failed"
	else
		timeout -k 5 "$CASE_TIMEOUT" "$SELF" --side "$nsa" "$file" "$ta" 2>>"$RUNDIR/$idx.detail"
		rc_a=$?
		timeout -k 5 "$CASE_TIMEOUT" "$SELF" --side "$nsb" "$file" "$tb" "${B_WRAPPER[@]}" 2>>"$RUNDIR/$idx.detail"
		rc_b=$?
		if ((rc_a == 124 || rc_a == 137)); then status="not ok"; msg=" # kernel side timed out after ${CASE_TIMEOUT}s"
		elif ((rc_b == 124 || rc_b == 137)); then status="not ok"; msg=" # $B_LABEL side timed out after ${CASE_TIMEOUT}s"
		elif ((rc_a || rc_b)); then status="not ok"; msg=" # harness error (kernel=$rc_a $B_LABEL=$rc_b)"
		elif ! cmp -s "$ta" "$tb"; then
			status="not ok"; msg=" # kernel and $B_LABEL differ"
			diff -u -a --label kernel --label "$B_LABEL" "$ta" "$tb" >>"$RUNDIR/$idx.detail"
			if command -v jq >/dev/null; then
				# the JSON listing is one long line: add a pretty-printed diff
				local ja jb
				ja=$(awk '/^### post: nft -j list ruleset$/{getline; print; exit}' "$ta")
				jb=$(awk '/^### post: nft -j list ruleset$/{getline; print; exit}' "$tb")
				if [[ $ja != "$jb" ]]; then
					echo "--- pretty JSON diff:" >>"$RUNDIR/$idx.detail"
					diff -u --label kernel --label "$B_LABEL" <(jq . <<<"$ja" 2>&1) <(jq . <<<"$jb" 2>&1) >>"$RUNDIR/$idx.detail"
				fi
			fi
		fi
		if [[ -n $KEEP ]]; then
			mkdir -p "$KEEP/$(dirname "$name")"
			cp "$ta" "$KEEP/$name.kernel" 2>/dev/null
			cp "$tb" "$KEEP/$name.$([[ $KERNEL_ONLY == 1 ]] && echo kernelB || echo nfbpf)" 2>/dev/null
		fi
		((VERBOSE)) && [[ -f $ta ]] && cp "$ta" "$RUNDIR/$idx.verbose"
	fi
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
	printf '%s %d - %s%s\n' "$status" "$idx" "$name" "$msg" >"$res.tmp"
	mv "$res.tmp" "$res"
}

PASS=0 FAIL=0 NEXT_PRINT=1
print_ready() {
	local r
	while [[ -f $RUNDIR/$NEXT_PRINT.res ]]; do
		r=$(cat "$RUNDIR/$NEXT_PRINT.res")
		echo "$r"
		if [[ $r == ok* ]]; then ((PASS++)); else
			((FAIL++))
			sed 's/^/    /' "$RUNDIR/$NEXT_PRINT.detail"
		fi
		if [[ -f $RUNDIR/$NEXT_PRINT.verbose ]]; then sed 's/^/  | /' "$RUNDIR/$NEXT_PRINT.verbose"; fi
		((NEXT_PRINT++))
	done
}

START=$SECONDS
echo "1..$TOTAL"
running=0
for ((k = 0; k < TOTAL; k++)); do
	run_case $((k + 1)) "${CASES[k]}" &
	((running++))
	if ((running >= JOBS)); then
		wait -n
		((running--))
	fi
	print_ready
done
wait
print_ready
echo "# side B: $B_LABEL; ${JOBS} job(s); $((SECONDS - START))s"
echo "oracle: $PASS passed, $FAIL failed, $TOTAL total"
((FAIL == 0))
