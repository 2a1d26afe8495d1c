#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netns_release.sh - nfbpfd frees the state of a network namespace once
# nothing but nfbpfd can reach it (nfnl/reach.c), and keeps the state (and
# the firewall) of namespaces still reachable through a task, a bind mount,
# another process's nsfs fd or a socket another process holds.
#
# Each namespace gets a table and a rule dropping UDP to port 9; a kept
# namespace must still list the table and still drop (sendto: EPERM) after several
# scans (REACH_INTERVAL_MS is 5 s); a freed one is counted from the log.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_start netns_release nr unshare nsenter

fail=0
ruleset=$work/ruleset.nft
printf 'table ip t {\n\tchain o {\n\t\ttype filter hook output priority 0;\n\t\tudp dport 9 drop\n\t}\n}\n' >"$ruleset"

gone() { grep -c "is gone" "$work/nfbpfd.log"; }

# wait_gone N: until N namespaces were freed (at most 30 s)
wait_gone() {
	for _ in $(seq 60); do
		[ "$(gone)" -ge "$1" ] && break
		sleep 0.5
	done
	[ "$(gone)" = "$1" ] || {
		echo "netns_release e2e: expected $1 namespaces freed, log says $(gone)"
		fail=1
	}
}

# check_kept HOW CMD...: CMD (entering the namespace) still lists table t
# and a datagram to 127.0.0.1:9 is still dropped (sendto fails with EPERM)
check_kept() {
	local how=$1
	shift
	if ! "$@" "$run" nft list ruleset 2>&1 | grep -q 'table ip t'; then
		echo "netns_release e2e: namespace kept by $how lost its ruleset"
		fail=1
	fi
	if "$@" python3 -c 'import socket; socket.socket(2, 2).sendto(b"x", ("127.0.0.1", 9))' \
		2>/dev/null; then
		echo "netns_release e2e: namespace kept by $how no longer drops"
		fail=1
	fi
}

# 1. five namespaces that die with their only process: all freed
for _ in 1 2 3 4 5; do
	unshare -n sh -c "ip link set lo up; \"$run\" nft -f '$ruleset'" ||
		{ echo "netns_release e2e: nft failed"; exit 1; }
done

# 2. kept: a bind mount (ip netns), a task, an nsfs fd, a socket
e2e_netns "${tag}m"
ip netns exec "${tag}m" "$run" nft -f "$ruleset" || exit 1

unshare -n sh -c "ip link set lo up; \"$run\" nft -f '$ruleset' && exec sleep 120" &
task_pid=$!

# a python process that enters a fresh netns, loads the ruleset there, then
# goes home keeping (a) an fd of the netns or (b) a UDP socket made in it
holder() {
	python3 - "$1" "$run" "$ruleset" <<'EOF' &
import ctypes, os, socket, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000
home = os.open("/proc/self/ns/net", os.O_RDONLY)
if libc.unshare(CLONE_NEWNET):
    sys.exit("unshare failed")
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
subprocess.run([sys.argv[2], "nft", "-f", sys.argv[3]], check=True)
keep = (os.open("/proc/self/ns/net", os.O_RDONLY) if sys.argv[1] == "fd"
        else socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
if libc.setns(home, CLONE_NEWNET):
    sys.exit("setns failed")
print(keep if sys.argv[1] == "fd" else keep.fileno(), flush=True)
time.sleep(120)
EOF
}
holder fd >"$work/fd.out"
fd_pid=$!
holder socket >"$work/sock.out"
sock_pid=$!
for _ in $(seq 50); do
	[ -s "$work/fd.out" ] && [ -s "$work/sock.out" ] && break
	sleep 0.2
done
[ -s "$work/fd.out" ] && [ -s "$work/sock.out" ] ||
	{ echo "netns_release e2e: holders did not start"; exit 1; }

e2e_on_exit() { kill "$task_pid" "$fd_pid" "$sock_pid" 2>/dev/null; }

wait_gone 5
sleep 6			# one more scan with the kept ones in place
[ "$(gone)" = 5 ] || { echo "netns_release e2e: a reachable namespace was freed"; fail=1; }

check_kept "a bind mount" ip netns exec "${tag}m"
check_kept "a task" nsenter -t "$task_pid" -n
# the holders are home again: reach their netns through what they hold
check_kept "an nsfs fd" nsenter --net="/proc/$fd_pid/fd/$(cat "$work/fd.out")"
# enter_sock PID FD CMD...: run CMD in the netns of socket FD of PID
enter_sock() {
	python3 - "$@" <<'EOF'
import ctypes, fcntl, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pidfd = os.pidfd_open(int(sys.argv[1]))
copy = libc.syscall(438, pidfd, int(sys.argv[2]), 0)   # pidfd_getfd
if copy < 0:
    sys.exit("pidfd_getfd failed")
ns = fcntl.ioctl(copy, 0x894C)                         # SIOCGSKNS
if libc.setns(ns, 0x40000000):
    sys.exit("setns failed")
os.close(ns); os.close(copy); os.close(pidfd)
os.execvp(sys.argv[3], sys.argv[3:])
EOF
}
check_kept "a socket" enter_sock "$sock_pid" "$(cat "$work/sock.out")"

# 3. each holder lets go: its namespace is freed
kill "$task_pid" "$fd_pid" "$sock_pid"
wait "$task_pid" "$fd_pid" "$sock_pid" 2>/dev/null
ip netns del "${tag}m"
wait_gone 9

if ! kill -0 "$dpid" 2>/dev/null; then
	echo "netns_release e2e: nfbpfd died"
	fail=1
fi
[ "$fail" = 0 ] && echo "netns_release e2e: 5 + 4 namespaces freed when unreachable, kept while reachable"
exit "$fail"
