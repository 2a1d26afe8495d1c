#!/bin/bash
# demo.sh - nfbpfd + stock nft in a scratch network namespace: load
# examples/demo.nft through nfbpf-run, list it, and send real packets that
# the BPF dataplane accepts or drops. Run as root from a built tree.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/nfbpf-demo.XXXXXX)
ns=nfbpf-demo-$$
cleanup() {
	[ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# its pins in a private bpffs (gone with the daemon's own mount namespace),
# its state in $tmp: the demo leaves nothing behind on the host
mkdir "$tmp/bpf"
unshare -m --propagation private sh -c 'mount -t bpf bpf "$0" && exec "$@"' \
	"$tmp/bpf" "$top/nfbpfd" --pin-dir "$tmp/bpf/nfbpf" --state-dir "$tmp/state" \
	--socket "$tmp/nfbpf.sock" --foreground 2>"$tmp/nfbpfd.log" &
dpid=$!
for _ in $(seq 50); do [ -S "$tmp/nfbpf.sock" ] && break; sleep 0.1; done
export NFBPF_SOCKET=$tmp/nfbpf.sock NFBPF_PRELOAD=$top/.libs/libnfbpf-preload.so
ip netns add "$ns"
ip -n "$ns" link set lo up
run() { ip netns exec "$ns" "$@"; }
nft_b() { run "$top/nfbpf-run" nft "$@"; }

echo "== nfbpf-run nft -f examples/demo.nft"
nft_b -f "$top/examples/demo.nft"
echo "== the kernel's own nf_tables in this netns is empty (nfbpf uses BPF):"
run nft list ruleset
echo "== BPF netfilter links attached:"
bpftool link show 2>/dev/null | grep -cE "netfilter|type 10" || true

# tcp connect to 127.0.0.1:PORT inside the netns; 1 s timeout, one try
probe() {
	local port=$1
	run python3 - "$port" <<'PY'
import socket, sys
port = int(sys.argv[1])
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port)); srv.listen(1)
c = socket.socket(); c.settimeout(1.0)
try:
    c.connect(("127.0.0.1", port)); print("tcp %d: accepted" % port)
except OSError:
    print("tcp %d: dropped" % port)
PY
}
echo "== packets"
probe 22
probe 23
probe 8042
probe 9000
echo "== nfbpf-run nft list ruleset (live BPF counters)"
nft_b list ruleset
