#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hunt.sh KIND SEED N [DIR]: N random rulesets (KIND nft: nft rulesets over
# inet/ip/ip6/netdev; then: the same plus a random incremental step; ipt:
# iptables-nft/ip6tables-nft restore batches), each line the kernel refuses
# dropped, then run through tests/dataplane/dpcheck.py against the nfbpfd
# at $NFBPF_SOCKET (NFBPF_PRELOAD set; run as root from the build tree).
# Not part of make check: some random rules are nondeterministic by nature
# (limit rates against timing, jhash over ICMP checksums of timestamp
# replies); look at each difference. Seeds make a run reproducible.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kind=$1 seed=$2 n=$3 dir=${4:-$(mktemp -d /tmp/nfbpf-hunt.XXXXXX)}
case "$kind" in
nft|then) python3 "$here/gen.py" "$seed" "$n" "$dir"; python3 "$here/fix.py" "$dir"/*.nft
	[ "$kind" = then ] && { python3 "$here/gen_then.py" "$dir" "$seed"; python3 "$here/fixthen.py" "$dir"; } ;;
ipt) python3 "$here/genipt.py" "$seed" "$n" "$dir"; python3 "$here/fixipt.py" "$dir"/*.nft ;;
*) echo "usage: $0 nft|then|ipt SEED N [DIR]" >&2; exit 2 ;;
esac
echo "hunt.sh: rulesets in $dir" >&2
exec python3 "$here/../dpcheck.py" --nfbpf-run "${NFBPF_RUN:-./nfbpf-run}" --rulesets "$dir" --keep "$dir/keep"
