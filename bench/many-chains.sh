#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/many-chains.sh - many base chains, kernel nf_tables vs nfbpfd side by
# side: `nft -f` of N inet base chains (one rule each, hooks in turn, one
# priority each: 2N netfilter hook points), then a rule of a new shape in
# one of them, then a rule of a known shape. Each side in its own scratch
# netns (unshare -n); nothing touches the host netns; no packets.
# usage: bench/many-chains.sh [--builddir DIR] [N]   (default N = 50)
set -eu
export LC_ALL=C
builddir=.
if [ "${1:-}" = --builddir ]; then builddir=$2; shift 2; fi
n=${1:-50}
b=$(cd "$builddir" && pwd)
dir=$(mktemp -d /tmp/nfbpf-manych.XXXXXX)
trap 'kill -9 $daemon 2>/dev/null; rm -rf "$dir"' EXIT
hooks=(input output forward prerouting postrouting)
{
	echo "table inet t {"
	for ((i = 0; i < n; i++)); do
		echo "  chain c$i { type filter hook ${hooks[i % 5]} priority $i; policy accept; tcp dport $((1000 + i)) drop; }"
	done
	echo "}"
} > "$dir/r.nft"
# pins in a private bpffs that goes with the daemon, state in $dir
mkdir -p "$dir/bpf"
unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
	"$dir/bpf" "$b/nfbpfd" --pin-dir "$dir/bpf/nfbpf" --state-dir "$dir/state" \
	--socket "$dir/s.sock" --foreground > "$dir/nfbpfd.log" 2>&1 &
daemon=$!
for i in $(seq 100); do [ -S "$dir/s.sock" ] && break; sleep 0.1; done
export NFBPF_SOCKET=$dir/s.sock NFBPF_PRELOAD=$b/.libs/libnfbpf-preload.so
side() {	# side NAME RUN...: prints NAME load new-shape known-shape (seconds)
	local name=$1; shift
	unshare -n bash -c '
		t() { date +%s%N; }
		t0=$(t); "$@" nft -f "'"$dir"'/r.nft"; t1=$(t)
		"$@" nft add rule inet t c3 udp sport 53 counter drop; t2=$(t)
		"$@" nft add rule inet t c7 tcp dport 99 drop; t3=$(t)
		"$@" nft list ruleset | md5sum | cut -c1-8 > "'"$dir"'/'"$name"'.md5"
		echo $(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 )) $(( (t3 - t2) / 1000 ))
	' side "$@"
}
read -r kl kn kk < <(side kernel env)
read -r bl bn bk < <(side nfbpf "$b/nfbpf-run")
cmp -s "$dir/kernel.md5" "$dir/nfbpf.md5" || { echo "listings differ" >&2; exit 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
echo "| $n inet base chains | kernel ms | nfbpf ms | nfbpf/kernel |"
echo "|---|---|---|---|"
echo "| nft -f | $((kl / 1000)) | $((bl / 1000)) | $(ratio $bl $kl) |"
echo "| add rule, new shape | $((kn / 1000)) | $((bn / 1000)) | $(ratio $bn $kn) |"
echo "| add rule, known shape | $((kk / 1000)) | $((bk / 1000)) | $(ratio $bk $kk) |"
