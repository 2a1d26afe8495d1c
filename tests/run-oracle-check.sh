#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-oracle-check.sh - the kernel-oracle suite (tests/oracle) against an
# nfbpfd started from the build tree. Cases listed in tests/oracle-xfail.txt
# are known differences (features not built yet): they are reported as XFAIL,
# an unexpected failure fails the suite, and a listed case that now passes is
# reported as XPASS and fails the suite too, so the list only shrinks.
# Needs root (network namespaces, BPF); skipped (exit 77) otherwise.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
top_builddir=${top_builddir:-.}
[ "$(id -u)" = 0 ] || { echo "oracle: needs root, skipped"; exit 77; }
command -v nft >/dev/null || { echo "oracle: nft not installed, skipped"; exit 77; }

work=$(mktemp -d /tmp/nfbpf-oracle.XXXXXX)
sock=$work/nfbpf.sock
cleanup() { [ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# pins in a private bpffs of a mount namespace of its own: gone with it
mkdir "$work/bpf"
unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
	"$work/bpf" "$top_builddir/nfbpfd" --pin-dir "$work/bpf/nfbpf" \
	--state-dir "$work/state" \
	--socket "$sock" --foreground >"$work/nfbpfd.log" 2>&1 &
dpid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "oracle: nfbpfd did not start"; cat "$work/nfbpfd.log"; exit 1; }

export NFBPF_SOCKET=$sock
export NFBPF_PRELOAD=$(cd "$top_builddir" && pwd)/.libs/libnfbpf-preload.so
"$top_srcdir/tests/oracle/run-oracle.sh" --nfbpf-run "$(cd "$top_builddir" && pwd)/nfbpf-run" \
	-j "${ORACLE_JOBS:-2}" "$@" >"$work/out" 2>&1
kill -0 "$dpid" 2>/dev/null || { echo "oracle: nfbpfd died"; tail -20 "$work/nfbpfd.log"; exit 1; }

xfail=$top_srcdir/tests/oracle-xfail.txt
bad=0 npass=0 nxfail=0
while read -r status _ _ name _; do
	listed=no
	grep -qxF "$name" "$xfail" && listed=yes
	case "$status/$listed" in
	ok/no) npass=$((npass + 1)) ;;
	ok/yes) echo "XPASS: $name (remove it from tests/oracle-xfail.txt)"; bad=1 ;;
	not/yes) nxfail=$((nxfail + 1)) ;;
	not/no) echo "FAIL: $name"; bad=1
		awk -v n="$name" '$0 ~ "- "n"( |$)" {p=1; print; next} /^(ok|not ok) / {p=0} p' "$work/out" | head -60 ;;
	esac
done < <(grep -E '^(ok|not ok) ' "$work/out" | sed 's/^not ok/not/')
echo "oracle: $npass passed, $nxfail expected failures (tests/oracle-xfail.txt), $(tail -1 "$work/out")"
exit $bad
