#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-dataplane-check.sh - the differential packet suite (tests/dataplane):
# the same rulesets and packets through the kernel's nf_tables and through an
# nfbpfd started from the build tree; verdict per packet and counters must
# agree. Cases listed in tests/dataplane-xfail.txt are known differences:
# reported as XFAIL; an unlisted failure fails the suite, and so does a listed
# case that passes (XPASS), so the list only shrinks.
# --kernel-only: both sides kernel (harness self-check; no daemon, no xfail).
# Other arguments go to tests/dataplane/dpcheck.py (ruleset names or globs).
# Needs root (network namespaces, BPF) and python3; skipped (77) otherwise.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
top_builddir=${top_builddir:-.}
[ "$(id -u)" = 0 ] || { echo "dataplane: needs root, skipped"; exit 77; }
for c in nft ip python3; do
	command -v "$c" >/dev/null || { echo "dataplane: $c not installed, skipped"; exit 77; }
done
dpcheck=$top_srcdir/tests/dataplane/dpcheck.py

if [ "${1:-}" = --kernel-only ]; then
	shift
	exec python3 "$dpcheck" --kernel-only "$@"
fi

work=$(mktemp -d /tmp/nfbpf-dataplane.XXXXXX)
sock=$work/nfbpf.sock
cleanup() { [ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# pins in a private bpffs of a mount namespace of its own: gone with it
mkdir "$work/bpf"
unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
	"$work/bpf" "$top_builddir/nfbpfd" --pin-dir "$work/bpf/nfbpf" \
	--state-dir "$work/state" \
	--socket "$sock" --foreground >"$work/nfbpfd.log" 2>&1 &
dpid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "dataplane: nfbpfd did not start"; cat "$work/nfbpfd.log"; exit 1; }

export NFBPF_SOCKET=$sock
export NFBPF_PRELOAD=$(cd "$top_builddir" && pwd)/.libs/libnfbpf-preload.so
timeout -k 10 "${DATAPLANE_TIMEOUT:-2400}" python3 "$dpcheck" \
	--nfbpf-run "$(cd "$top_builddir" && pwd)/nfbpf-run" "$@" >"$work/out" 2>&1
rc=$?
kill -0 "$dpid" 2>/dev/null || { echo "dataplane: nfbpfd died"; tail -20 "$work/nfbpfd.log"; exit 1; }
if [ "$rc" -gt 1 ] || ! grep -q '^# side B:' "$work/out"; then
	echo "dataplane: harness error (exit $rc)"; cat "$work/out"; exit 1
fi

xfail=$top_srcdir/tests/dataplane-xfail.txt
listed() { sed 's/#.*//' "$xfail" | awk 'NF {print $1}' | grep -qxF "$1"; }
bad=0 npass=0 nxfail=0
while read -r status _ _ name _; do
	l=no
	listed "$name" && l=yes
	case "$status/$l" in
	ok/no) npass=$((npass + 1)) ;;
	ok/yes) echo "XPASS: $name (remove it from tests/dataplane-xfail.txt)"; bad=1 ;;
	not/yes) nxfail=$((nxfail + 1)) ;;
	not/no) echo "FAIL: $name"; bad=1
		awk -v n="$name" '$0 ~ "- "n"( |$)" {p=1; print; next} /^(ok|not ok) / {p=0} p' "$work/out" | head -60 ;;
	esac
done < <(grep -E '^(ok|not ok) ' "$work/out" | sed 's/^not ok/not/')
grep -E '^# (topology|side B)' "$work/out"
echo "dataplane: $npass passed, $nxfail expected failures (tests/dataplane-xfail.txt)"
exit $bad
