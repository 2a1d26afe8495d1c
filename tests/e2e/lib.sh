# SPDX-License-Identifier: GPL-2.0-only
# lib.sh - sourced by the end-to-end scripts (tests/e2e/*.sh): the frame
# they share around comparing the kernel with nfbpfd.
#
# e2e_start NAME TAG [TOOL...]: skip (77) unless root with nft, python3
# and each TOOL; then $work (a scratch directory), $tag (a prefix of
# scratch netns names, TAG and the pid), nfbpfd started on $work/nfbpf.sock
# ($dpid, its log $work/nfbpfd.log), NFBPF_SOCKET/NFBPF_PRELOAD exported,
# $run the nfbpf-run wrapper. nfbpfd pins under a private bpffs
# ($work/bpf, mounted in a mount namespace of its own that process $holder
# keeps: never the host's /sys/fs/bpf) and keeps its state in $work/state;
# e2e_daemon (re)starts it there. On exit: e2e_on_exit (if the script
# defines it), nfbpfd stopped, every netns in nss deleted, the private
# bpffs gone with its mount namespace ($holder killed), $work removed.
# Messages start with "NAME e2e:".
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
nss=()

e2e_cleanup() {
	declare -F e2e_on_exit >/dev/null && e2e_on_exit
	[ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
	wait 2>/dev/null
	for n in "${nss[@]}"; do ip netns del "$n" 2>/dev/null; done
	[ -n "${E2E_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}

e2e_start() {
	local name=$1 t

	[ "$(id -u)" = 0 ] || { echo "$name e2e: needs root, skipped"; exit 77; }
	for t in nft python3 "${@:3}"; do
		command -v "$t" >/dev/null ||
			{ echo "$name e2e: $t missing, skipped"; exit 77; }
	done
	tag=$2$$x$RANDOM
	work=$(mktemp -d /tmp/nfbpf-e2e.XXXXXX)
	sock=$work/nfbpf.sock
	trap e2e_cleanup EXIT
	mkdir "$work/bpf"
	unshare -m --propagation private sh -c \
		'mount -t bpf bpf "$0" && : >"$0.ok" && exec sleep 3600' \
		"$work/bpf" 2>"$work/holder.log" &
	holder=$!
	for _ in $(seq 50); do [ -e "$work/bpf.ok" ] && break; sleep 0.1; done
	[ -e "$work/bpf.ok" ] ||
		{ echo "$name e2e: no private bpffs: $(cat "$work/holder.log")"; exit 1; }
	e2e_daemon || { echo "$name e2e: nfbpfd did not start"; exit 1; }
	export NFBPF_SOCKET=$sock
	export NFBPF_PRELOAD=$(cd "$top_builddir" && pwd)/.libs/libnfbpf-preload.so
	run=$(cd "$top_builddir" && pwd)/nfbpf-run
}

# e2e_daemon: start nfbpfd (again) in $holder's mount namespace, pins
# under $work/bpf/nfbpf, state in $work/state; $dpid; 1 if it does not
# listen in 30 s
e2e_daemon() {
	rm -f "$sock"
	# (entering a mount namespace goes to its root: absolute paths)
	nsenter -t "$holder" -m -- "$(cd "$top_builddir" && pwd)/nfbpfd" --socket "$sock" \
		--pin-dir "$work/bpf/nfbpf" --state-dir "$work/state" \
		--foreground >>"$work/nfbpfd.log" 2>&1 &
	dpid=$!
	for _ in $(seq 300); do [ -S "$sock" ] && return 0; sleep 0.1; done
	return 1
}

# e2e_netns NS: a scratch netns (deleted on exit) with lo up
e2e_netns() {
	nss+=("$1")
	ip netns add "$1" && ip -n "$1" link set lo up
}

# e2e_pair SIDE: sender netns $tag${SIDE}s, receiver $tag${SIDE}r, joined by
# veth0 (10.9.0.1/24, fd00::1/64) -- veth1 (10.9.0.2/24, fd00::2/64); a script
# that defines e2e_pair_extra S R gets it called before the links go up
e2e_pair() {
	local s=$tag$1s r=$tag$1r
	nss+=("$s" "$r")
	ip netns add "$s" && ip netns add "$r" || return 1
	ip -n "$s" link add veth0 type veth peer name veth1 netns "$r"
	ip -n "$s" addr add 10.9.0.1/24 dev veth0
	ip -n "$r" addr add 10.9.0.2/24 dev veth1
	ip -n "$s" addr add fd00::1/64 dev veth0 nodad
	ip -n "$r" addr add fd00::2/64 dev veth1 nodad
	for n in "$s" "$r"; do ip -n "$n" link set lo up; done
	if declare -F e2e_pair_extra >/dev/null; then
		e2e_pair_extra "$s" "$r" || return 1
	fi
	ip -n "$s" link set veth0 up && ip -n "$r" link set veth1 up
}
