#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-fuzz.sh [SECONDS] - build tests/fuzz/fuzz_nfnl.c with clang's libFuzzer
# (+ ASan, UBSan) and run it for SECONDS (default 60) on a copy of
# tests/fuzz/corpus.
#
# Exit: 0 no finding, 1 a finding (crash/leak/timeout/OOM/malformed output;
# the reproducer is printed), 77 clang, the fuzzer runtime or libmnl missing
# (automake's SKIP), 99 build error.
#
# Environment:
#   CC            compiler (default: clang-14, else clang)
#   FUZZ_WORKDIR  build and run directory (default: a new mktemp -d; kept)
#   FUZZ_JOBS     parallel fuzzing processes (default 1)
#   FUZZ_ARGS     extra libFuzzer flags
#
# Reproduce a finding:   $FUZZ_WORKDIR/fuzz_nfnl CRASH_FILE
#   (state carries over between inputs: if that is not enough, replay the
#   inputs since the last reset, saved in $FUZZ_WORKDIR/fuzz-history-PID/)
# Triage:                NFBPF_FUZZ_VERBOSE=1 $FUZZ_WORKDIR/fuzz_nfnl CRASH_FILE
# Minimize it:           $FUZZ_WORKDIR/fuzz_nfnl -minimize_crash=1 -runs=10000 CRASH_FILE

set -u

SECONDS_TO_RUN=${1:-60}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

skip() { echo "run-fuzz.sh: SKIP: $*" >&2; exit 77; }

case $SECONDS_TO_RUN in
	''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 99 ;;
esac

if [ -z "${CC:-}" ]; then
	for c in clang-14 clang; do
		if command -v "$c" >/dev/null 2>&1; then CC=$c; break; fi
	done
fi
[ -n "${CC:-}" ] && command -v "$CC" >/dev/null 2>&1 || skip "clang not found"

WORK=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/nfbpf-fuzz.XXXXXX")}
mkdir -p "$WORK" || exit 99

SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"

# the runtime: libclang-rt-dev (libclang_rt.fuzzer*.a, asan, ubsan)
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$WORK/probe.c"
"$CC" $SAN "$WORK/probe.c" -o "$WORK/probe" >"$WORK/probe.log" 2>&1 ||
	skip "$CC cannot link -fsanitize=fuzzer,address,undefined (install libclang-rt-dev): $(head -c 300 "$WORK/probe.log")"
printf '#include <libmnl/libmnl.h>\nint main(void) { return mnl_nlmsg_size(0) < 0; }\n' >"$WORK/probe2.c"
"$CC" "$WORK/probe2.c" -o "$WORK/probe2" -lmnl >"$WORK/probe2.log" 2>&1 ||
	skip "libmnl (libmnl-dev) not found"

SOURCES=
for f in "$SRC"/nfnl/*.c "$SRC"/nfnl/expr/*.c "$SRC"/nfnl/obj/*.c "$SRC"/ruleset/*.c "$SRC"/ruleset/expr/*.c; do
	# the daemon's own files (main loop, namespace reachability) use offload/
	case "$f" in "$SRC"/nfnl/daemon.c|"$SRC"/nfnl/reach.c) continue ;; esac
	SOURCES="$SOURCES $f"
done

echo "run-fuzz.sh: building $WORK/fuzz_nfnl with $CC"
# shellcheck disable=SC2086
"$CC" -std=gnu11 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE -I "$SRC/include" \
	-Wall -Wno-unused-parameter $SAN \
	-o "$WORK/fuzz_nfnl" "$HERE/fuzz_nfnl.c" $SOURCES -lmnl || {
	echo "run-fuzz.sh: build failed" >&2; exit 99; }

rm -rf "$WORK/corpus"
mkdir -p "$WORK/corpus"
if [ -d "$HERE/corpus" ]; then
	cp "$HERE"/corpus/* "$WORK/corpus/" 2>/dev/null || true
fi
NSEEDS=$(ls "$WORK/corpus" | wc -l)
DICT=
[ -f "$HERE/nfnl.dict" ] && DICT="-dict=$HERE/nfnl.dict"

echo "run-fuzz.sh: fuzzing for ${SECONDS_TO_RUN}s from $NSEEDS seeds in $WORK"
JOBS=${FUZZ_JOBS:-1}
PAR=
[ "$JOBS" -gt 1 ] && PAR="-jobs=$JOBS -workers=$JOBS"
# shellcheck disable=SC2086
(cd "$WORK" && NFBPF_FUZZ_HISTORY_DIR="$WORK" ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	./fuzz_nfnl -max_len=65536 -rss_limit_mb=2048 -timeout=25 \
	-max_total_time="$SECONDS_TO_RUN" -error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -artifact_prefix="$WORK/" $DICT $PAR ${FUZZ_ARGS:-} \
	corpus) >"$WORK/fuzz.log" 2>&1
RC=$?
[ "$JOBS" -gt 1 ] && cat "$WORK"/fuzz-*.log >>"$WORK/fuzz.log" 2>/dev/null

# executions and coverage, from libFuzzer's own lines
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
	"$WORK/fuzz.log" | sed 's/^/run-fuzz.sh: /'
grep -E '#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$WORK/fuzz.log" | tail -n 1 | \
	sed 's/^/run-fuzz.sh: last: /'

FINDINGS=$(ls "$WORK" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
# slow units are not findings
FINDINGS=$(echo "$FINDINGS" | grep -v '^slow-unit-' || true)
if [ -n "$FINDINGS" ] || [ "$RC" -ne 0 ]; then
	echo "run-fuzz.sh: FINDING (libFuzzer exit $RC); log: $WORK/fuzz.log" >&2
	grep -E 'ERROR: |malformed output|runtime error|SUMMARY' "$WORK/fuzz.log" | head -n 20 >&2
	for f in $FINDINGS; do
		echo "run-fuzz.sh: reproduce: $WORK/fuzz_nfnl $WORK/$f" >&2
	done
	for d in "$WORK"/fuzz-history-*; do
		[ -d "$d" ] || continue
		echo "run-fuzz.sh: if it needs the state built before:" \
			"NFBPF_FUZZ_RESET=1000000 $WORK/fuzz_nfnl $d/0*" >&2
	done
	exit 1
fi
echo "run-fuzz.sh: no finding"
exit 0
