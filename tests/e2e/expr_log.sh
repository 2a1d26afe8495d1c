#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# expr_log.sh - end to end: the same packets, logged by the kernel's nft
# `log` rules in one scratch netns and by nfbpfd's BPF dataplane in
# another, give the same kernel log lines (device names, MAC addresses,
# IP IDs, ports, flow labels and TCP sequence numbers are the only fields
# that legitimately differ and are normalised).
# Needs root; sets net.netfilter.nf_log_all_netns=1 for the run (the kernel
# logs from non-host netns only then) and restores it. Skipped (77) if not root.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
[ -w /dev/kmsg ] || { echo "log e2e: no /dev/kmsg, skipped"; exit 77; }
sysctl=/proc/sys/net/netfilter/nf_log_all_netns
old=$(cat $sysctl)
e2e_on_exit() { echo "$old" > $sysctl; }
e2e_start log L setpriv

e2e_pair k && e2e_pair b || { echo "log e2e: netns setup failed"; exit 1; }

ruleset() {
	cat <<NFT
table inet t {
	chain in {
		type filter hook input priority 0;
		icmp type echo-request log prefix "$1 in4: "
		icmpv6 type echo-request log prefix "$1 in6: " level info
		tcp dport 7777 log prefix "$1 tcpall: " flags tcp sequence,options flags ip options flags ether
		tcp dport 7778 log prefix "$1 tcp: "
		udp dport 9999 log prefix "$1 udp: " level debug
		udp dport 9998 log prefix "$1 ipopt: " flags ip options
	}
	chain pre {
		type filter hook prerouting priority 0;
		ip frag-off & 0x3fff != 0 log prefix "$1 frag4: "
		ip6 nexthdr 44 log prefix "$1 frag6: " flags ip options
	}
	chain out {
		type filter hook output priority 0;
		icmp type echo-reply log prefix "$1 out4: " level err
		icmpv6 type echo-reply log prefix "$1 out6: "
		udp dport 9996 log prefix "$1 mark: " level alert flags skuid
		udp dport 9995 log prefix "$1 uid: " flags skuid
		udp dport 9994 log prefix "$1 all: " flags all
		icmp type destination-unreachable log prefix "$1 unreach4: "
		icmpv6 type destination-unreachable log prefix "$1 unreach6: " flags all
	}
}
NFT
}
ruleset "${tag}k" | ip netns exec ${tag}kr nft -f - || exit 1
ruleset "${tag}b" | ip netns exec ${tag}br "$run" nft -f - || exit 1

echo 1 > $sysctl
send="python3 $top_srcdir/tests/e2e/log-send.py icmp4=10.9.0.2 icmp6=fd00::2 \
	tcp=10.9.0.2,7777 tcp=fd00::2,7777 tcp=10.9.0.2,7778 udp=10.9.0.2,9999 \
	udp=fd00::2,9999 udpopt=10.9.0.2,9998 udp=10.9.0.2,9990 udp=fd00::2,9990 \
	big=10.9.0.2,9989 big=fd00::2,9989"
ip netns exec ${tag}ks $send
ip netns exec ${tag}bs $send
back="python3 $top_srcdir/tests/e2e/log-send.py udpmark=10.9.0.1,9996"
ip netns exec ${tag}kr $back
ip netns exec ${tag}br $back
py=/usr/bin/python3; [ -x $py ] || py=python3
nobody="setpriv --reuid=65534 --regid=65533 --clear-groups $py $top_srcdir/tests/e2e/log-send.py udp=10.9.0.1,9995 udp=10.9.0.1,9994"
ip netns exec ${tag}kr $nobody
ip netns exec ${tag}br $nobody
sleep 1
echo "$old" > $sysctl

# the kernel log, this run only, without timestamps; normalised fields
norm() {
	sed -E -e "s/$tag[kb] /T /" -e 's/(IN|OUT)=veth[01]/\1=dev/g' \
	    -e 's/MAC(SRC|DST)?=[0-9a-f:]+/MAC\1=x/g' \
	    -e 's/ ID=[0-9]+ / ID=x /g' -e 's/SPT=[0-9]+/SPT=x/g' \
	    -e 's/FLOWLBL=[0-9]+/FLOWLBL=x/g' -e 's/ID:[0-9a-f]{8}/ID:x/' -e 's/SEQ=[0-9]+ ACK=0 /SEQ=x ACK=0 /' \
	    -e 's/OPT \(020405([0-9A-F]{2})0402080A[0-9A-F]{8}/OPT (020405\1-0402080A-x/' | sort
}
dmesg -x 2>/dev/null | grep -F "$tag" > "$work/raw"
grep -F "${tag}k " "$work/raw" | sed -E 's/^[a-z]+ *:([a-z]+) *: *\[[ 0-9.]+\] /\1 /' | norm > "$work/k"
grep -F "${tag}b " "$work/raw" | sed -E 's/^[a-z]+ *:([a-z]+) *: *\[[ 0-9.]+\] /\1 /' | norm > "$work/b"
nk=$(wc -l < "$work/k")
echo "log e2e: kernel logged $nk lines, nfbpfd $(wc -l < "$work/b")"
if [ "$nk" -lt 20 ] || ! diff -u "$work/k" "$work/b"; then
	echo "log e2e: FAIL"; cat "$work/raw"; tail "$work/nfbpfd.log"; exit 1
fi
echo "log e2e: PASS"
