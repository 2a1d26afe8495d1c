#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make-corpus.py - regenerate tests/fuzz/corpus/ from real nft traffic.

Each scenario runs nft (as root, in a fresh network namespace made by
`unshare -n`, against the kernel's nf_tables) under
`strace -e trace=sendto,sendmsg -e write=all -xx`, and every netlink datagram
nft sends becomes one seed (deduplicated by content): batches, GETGEN,
NLM_F_DUMP requests, `nft -c` batches without BATCH_END.  A scenario may
first build state with an untraced `nft -f SETUP`, so that delete/flush
batches are the ones the kernel accepted.  A few seeds splice a setup batch
and a delete batch into one batch (create and delete in one transaction).

Not run by run-fuzz.sh: the corpus is committed.  Needs nft, strace, unshare.
"""
import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")

BASE = """
add table ip t
add set ip t blk { type ipv4_addr; }
add set ip t nets { type ipv4_addr; flags interval; }
add element ip t nets { 10.0.0.0/8, 192.168.0.0/16 }
add map ip t marks { type ipv4_addr : mark; }
add element ip t marks { 1.2.3.4 : 0x1 }
add map ip t vm { type inet_service : verdict; }
add element ip t vm { 22 : accept }
add chain ip t other
add rule ip t other counter
add chain ip t spare
add chain ip t in { type filter hook input priority 0; policy accept; }
add rule ip t in tcp dport 22 counter accept comment "ssh"
add rule ip t in ip saddr @blk drop
add rule ip t in jump other
"""


OBJECTS = """
add table inet o
add counter inet o c { packets 1 bytes 2; comment "c"; }
add quota inet o q { over 1 mbytes used 10 bytes; }
add limit inet o l { rate 10/second burst 3 packets; }
add limit inet o lb { rate over 1 kbytes/second; }
add ct helper inet o h { type "ftp" protocol tcp; l3proto inet; }
add ct timeout inet o tt { protocol tcp; l3proto ip; policy = { established: 100 }; }
add ct expectation inet o ex { protocol tcp; dport 21; timeout 1s; size 1; l3proto ip; }
add synproxy inet o sp { mss 1460; wscale 7; timestamp sack-perm; }
add map inet o cm { type inet_service : counter; elements = { 80 : "c" }; }
add map inet o qm { type ipv4_addr : quota; flags interval; elements = { 10.0.0.0/8 : "q" }; }
"""


def ip_chain(fam="ip", hook="input"):
    return ("add table %s t\nadd chain %s t c { type filter hook %s priority 0; }\n"
            % (fam, fam, hook))


def rules(fam, *rs, hook="input"):
    return ip_chain(fam, hook) + "".join("add rule %s t c %s\n" % (fam, r) for r in rs)


# (name, setup nft script or None, nft argv after "nft", stdin script or None)
SCENARIOS = [
    ("table", None, ["-f", "-"], "add table ip t\n"),
    ("table_flags_comment", None, ["-f", "-"],
     "add table inet t { flags dormant; comment \"c\"; }\n"),
    ("families", None, ["-f", "-"],
     "add table ip a\nadd table ip6 b\nadd table inet c\nadd table arp d\n"
     "add table bridge e\nadd table netdev f\n"),
    ("base_chain", None, ["-f", "-"],
     "add table ip t\nadd chain ip t c { type filter hook input priority 0; policy accept; }\n"),
    ("base_chain_drop_policy", None, ["-f", "-"],
     "add table ip6 t\nadd chain ip6 t c { type filter hook output priority -150; policy drop; }\n"),
    ("chains_inet_prio", None, ["-f", "-"],
     "add table inet t\n"
     "add chain inet t pre { type filter hook prerouting priority raw; }\n"
     "add chain inet t fw { type filter hook forward priority filter + 10; }\n"
     "add chain inet t post { type nat hook postrouting priority srcnat; }\n"),
    ("netdev_ingress", None, ["-f", "-"],
     "add table netdev t\n"
     "add chain netdev t c { type filter hook ingress device lo priority 0; }\n"),
    ("user_chain", None, ["-f", "-"],
     "add table ip t\nadd chain ip t u\nadd chain ip t v { comment \"x\"; }\n"),
    ("rule_payload_cmp", None, ["-f", "-"],
     rules("ip", "ip saddr 10.1.2.3 ip daddr != 10.0.0.1 drop", "tcp dport 22 accept",
           "udp sport 53 accept", "ip protocol icmp accept",
           "ether saddr 00:11:22:33:44:55 accept")),
    ("rule_payload_ip6", None, ["-f", "-"],
     rules("ip6", "ip6 saddr ::1 accept", "ip6 nexthdr tcp accept", "tcp sport 80 drop")),
    ("rule_meta", None, ["-f", "-"],
     rules("inet", "meta iifname \"lo\" accept", "meta l4proto tcp accept",
           "meta mark 0x10 drop", "meta nfproto ipv6 accept", "meta mark set 0x2",
           "meta length > 1000 drop", "meta pkttype broadcast drop")),
    ("rule_jump_goto", None, ["-f", "-"],
     rules("ip", "jump b", "goto a", "return", "continue")
     .replace("add rule", "add chain ip t a\nadd chain ip t b\nadd rule ip t b jump a\nadd rule", 1)),
    ("rule_counter", None, ["-f", "-"],
     rules("ip", "counter", "counter packets 10 bytes 1000 accept")),
    ("rule_limit_quota", None, ["-f", "-"],
     rules("inet", "limit rate 5/second burst 10 packets accept",
           "limit rate over 1 mbytes/second drop", "quota 100 mbytes",
           "quota over 10 mbytes used 5 mbytes drop")),
    ("rule_bitwise", None, ["-f", "-"],
     rules("ip", "ip saddr 10.0.0.0/8 accept", "tcp flags & (syn|ack) == syn drop",
           "ip dscp cs1 accept", "meta mark & 0xff00 == 0x100 accept")),
    ("rule_range", None, ["-f", "-"],
     rules("ip", "tcp dport 1000-2000 accept", "tcp dport != 3000-4000 drop",
           "ip ttl 1-10 drop")),
    ("rule_lookup_anon", None, ["-f", "-"],
     rules("ip", "tcp dport { 22, 80, 443 } accept",
           "ip saddr { 10.0.0.0/8, 172.16.0.0/12 } drop",
           "ip daddr != { 1.1.1.1, 8.8.8.8 } accept")),
    ("rule_vmap", None, ["-f", "-"],
     "add table ip t\nadd chain ip t a\n"
     "add chain ip t c { type filter hook input priority 0; }\n"
     "add rule ip t c tcp dport vmap { 22 : accept, 23 : drop, 80 : jump a }\n"),
    ("rule_byteorder", None, ["-f", "-"],
     rules("ip", "tcp dport set tcp dport lshift 1", "ip dscp set cs1",
           "meta mark set ip dscp map { cs1 : 0x1 }", hook="prerouting")),
    ("rule_unsupported", None, ["-f", "-"],
     rules("inet", "ct state established,related accept", "limit rate 10/second accept",
           "log prefix \"x \" drop", "reject with icmpx type port-unreachable")),
    ("sets", None, ["-f", "-"],
     "add table ip t\nadd set ip t s { type ipv4_addr; }\n"
     "add element ip t s { 1.2.3.4, 5.6.7.8 }\n"
     "add set ip t i { type ipv4_addr; flags interval; }\n"
     "add element ip t i { 10.0.0.0/8 }\n"
     "add set ip t c { type ipv4_addr . inet_service; }\n"
     "add element ip t c { 1.2.3.4 . 22 }\n"
     "add set ip t to { type ipv4_addr; flags timeout; timeout 1h; size 100; }\n"
     "add set ip t p { type inet_service; policy memory; comment \"p\"; }\n"),
    ("concat_interval", None, ["-f", "-"],
     "add table inet t\nadd set inet t ci { type ipv4_addr . inet_service; flags interval; }\n"
     "add element inet t ci { 10.0.0.0/8 . 22-23, 1.2.3.4 . 80 }\n"
     "add chain inet t c { type filter hook input priority 0; }\n"
     "add rule inet t c ip saddr . tcp dport @ci accept\n"),
    ("maps", None, ["-f", "-"],
     "add table ip t\nadd chain ip t a\n"
     "add map ip t m { type ipv4_addr : mark; }\n"
     "add element ip t m { 1.2.3.4 : 0x1 }\n"
     "add map ip t v { type inet_service : verdict; }\n"
     "add element ip t v { 22 : accept, 80 : jump a }\n"
     "add map ip t r { type ipv4_addr : ipv4_addr; flags interval; }\n"
     "add element ip t r { 10.0.0.0/8 : 1.1.1.1 }\n"),
    ("set_lookup_named",
     "add table ip t\nadd set ip t s { type ipv4_addr; }\n"
     "add map ip t m { type ipv4_addr : mark; }\nadd chain ip t c\n",
     ["-f", "-"],
     "add rule ip t c ip saddr @s drop\nadd rule ip t c meta mark set ip saddr map @m\n"
     "add rule ip t c ip daddr != @s accept\n"),
    ("elements_add", BASE, ["-f", "-"],
     "add element ip t blk { 9.9.9.9, 8.8.8.8 }\n"
     "add element ip t nets { 172.16.0.0/12 }\nadd element ip t vm { 80 : drop }\n"),
    ("elements_delete", BASE, ["-f", "-"],
     "delete element ip t nets { 10.0.0.0/8 }\ndelete element ip t marks { 1.2.3.4 }\n"),
    ("delete_rule_handle", BASE, ["delete", "rule", "ip", "t", "in", "handle", "10"], None),
    ("delete_chain", BASE, ["-f", "-"], "flush chain ip t other\ndelete chain ip t spare\n"),
    ("delete_set", BASE, ["-f", "-"], "delete set ip t marks\n"),
    ("delete_table", BASE, ["delete", "table", "ip", "t"], None),
    ("flush_table", BASE, ["flush", "table", "ip", "t"], None),
    ("flush_set", BASE, ["flush", "set", "ip", "t", "nets"], None),
    ("flush_ruleset", BASE, ["flush", "ruleset"], None),
    ("flush_ruleset_add", BASE, ["-f", "-"], "flush ruleset\n" + BASE),
    ("insert_replace", BASE, ["-f", "-"],
     "insert rule ip t in position 10 udp dport 53 accept\n"
     "replace rule ip t in handle 9 tcp dport 23 drop\n"
     "add rule ip t in index 0 counter\n"),
    ("rename_chain", BASE, ["rename", "chain", "ip", "t", "other", "other2"], None),
    ("policy_update", BASE, ["-f", "-"],
     "add chain ip t in { type filter hook input priority 0; policy drop; }\n"),
    ("table_dormant", BASE, ["-f", "-"], "add table ip t { flags dormant; }\n"),
    ("echo_handles", None, ["-e", "-a", "-f", "-"], BASE),
    ("check_only", None, ["-c", "-f", "-"], BASE),
    ("list_ruleset", BASE, ["list", "ruleset"], None),
    ("list_table", BASE, ["-a", "list", "table", "ip", "t"], None),
    ("list_chain", BASE, ["list", "chain", "ip", "t", "in"], None),
    ("list_set", BASE, ["list", "set", "ip", "t", "nets"], None),
    ("list_counters", BASE, ["list", "counters"], None),
    ("list_tables", BASE, ["list", "tables"], None),
    ("get_element", BASE, ["get", "element", "ip", "t", "nets", "{ 10.1.1.1 }"], None),
    ("reset_counters", BASE, ["reset", "counters"], None),
    ("handles_monitor_trace", BASE, ["-a", "-e", "add", "rule", "ip", "t", "other", "ip", "daddr", "1.1.1.1", "counter"], None),
    ("bad_delete", None, ["delete", "table", "ip", "nosuch"], None),
    ("objects", None, ["-f", "-"], OBJECTS),
    ("objects_update_delete", OBJECTS, ["-f", "-"],
     "add quota inet o q { 2 mbytes; }\nadd synproxy inet o sp { mss 536; wscale 0; }\n"
     "delete element inet o cm { 80 }\ndelete counter inet o c\n"
     "delete limit inet o handle 4\ndelete ct timeout inet o tt\n"),
    ("objects_list", OBJECTS, ["list", "ruleset"], None),
    ("objects_reset", OBJECTS, ["reset", "quotas"], None),
    ("objects_delete_table", OBJECTS, ["delete", "table", "inet", "o"], None),
    ("rule_ct", None, ["-f", "-"],
     "table inet c { chain i { type filter hook input priority 0;\n"
     "ct state established,related accept\nct state invalid drop\n"
     "ct direction reply ct status dnat ct mark 0x10 counter\n"
     "ct l3proto ipv4 ct protocol tcp ct original proto-dst 22 accept\n"
     "ct original ip saddr 10.0.0.0/8 ct reply ip6 daddr ::1 accept\n"
     "ct mark set 1\nct zone 3 ct expiration 5s\n}\n}\n"),
    ("rule_exthdr", None, ["-f", "-"],
     "table inet x { chain o { type filter hook output priority 0;\n"
     "exthdr hbh exists counter\nfrag more-fragments 1 drop\nrt type 2 accept\n"
     "tcp option maxseg size 1460 accept\ntcp option sack-perm missing drop\n"
     "tcp option maxseg size set 1360\n}\n}\n"),
    ("rule_hash_numgen", None, ["-f", "-"],
     "table ip h { chain o { type filter hook output priority 0;\n"
     "jhash ip saddr . tcp dport mod 16 seed 0xdead offset 100 { 100-107 } accept\n"
     "jhash ip saddr mod 2 vmap { 0 : accept, 1 : drop }\n"
     "numgen random mod 10 < 3 counter\nnumgen inc mod 4 offset 2 3 drop\n"
     "symhash mod 2 0 accept\n}\n}\n"),
    ("rule_meta_more", None, ["-f", "-"],
     "table inet m { chain o { type filter hook output priority 0;\n"
     "meta skuid 1000 meta skgid 1000 drop\nmeta oifgroup 7 meta oifkind \"veth\" accept\n"
     "meta cgroup 1 meta secpath exists accept\nmeta day \"Monday\" meta hour \"17:00\"-\"19:00\" drop\n"
     "meta time > \"2026-01-01\" accept\n}\n}\n"),
    ("set_timeouts", None, ["-f", "-"],
     "table ip s { set t { type ipv4_addr; flags timeout; timeout 1h; gc-interval 30s;\n"
     "elements = { 1.1.1.1, 2.2.2.2 timeout 30s, 3.3.3.3 timeout 1d expires 1h } }\n"
     "chain i { type filter hook input priority 0; ip saddr @t drop;\n}\n}\n"),
    ("rule_log", None, ["-f", "-"],
     "table ip l { chain i { type filter hook input priority 0;\n"
     "log prefix \"in: \" level warn flags tcp sequence,options\nlog group 2 snaplen 64\n"
     "log flags all counter drop\n}\n}\n"),
]


def run(name, setup, argv, stdin):
    """Run one scenario; return the list of datagrams nft sent."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "trace")
        sfile = os.path.join(d, "setup.nft")
        ifile = os.path.join(d, "in.nft")
        argv = list(argv)
        if stdin is not None:
            with open(ifile, "w") as f:
                f.write(stdin)
            argv = [ifile if a == "-" else a for a in argv]
        cmd = ""
        if setup:
            with open(sfile, "w") as f:
                f.write(setup)
            cmd = "nft -f %s || exit 42; " % sfile
        cmd += "strace -o %s -e trace=sendto,sendmsg -e write=all -xx -s 65535 nft %s" % (
            trace, " ".join("'%s'" % a for a in argv))
        r = subprocess.run(["unshare", "-n", "sh", "-c", cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 42:
            sys.exit("%s: setup failed: %s" % (name, r.stderr))
        if r.returncode:
            print("%s: nft exit %d: %s" % (name, r.returncode, r.stderr.strip()[:200]),
                  file=sys.stderr)
        return parse_trace(trace)


LINE = re.compile(r"^ \| [0-9a-f]{5}  ((?:[0-9a-f]{2} ){1,8}(?: (?:[0-9a-f]{2} ){0,8})?)")


def parse_trace(path):
    dgrams, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("sendto(") or line.startswith("sendmsg("):
                if cur:
                    dgrams.append(bytes(cur))
                cur = bytearray()
                continue
            m = LINE.match(line)
            if m and cur is not None:
                cur += bytes.fromhex(m.group(1).replace(" ", ""))
    if cur:
        dgrams.append(bytes(cur))
    return dgrams


def msgs(d):
    out, off = [], 0
    while off + 16 <= len(d):
        ln = struct.unpack_from("<I", d, off)[0]
        if ln < 16 or off + ln > len(d):
            break
        out.append(d[off:off + ln] + b"\0" * ((-ln) % 4))
        off += (ln + 3) & ~3
    return out


def is_batch(d):
    return len(d) >= 20 and struct.unpack_from("<H", d, 4)[0] == 0x10


def save(data, label, seen):
    h = hashlib.sha1(data).hexdigest()
    if h in seen:
        return
    seen.add(h)
    with open(os.path.join(OUT, "%s-%s" % (label, h[:10])), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.unlink(os.path.join(OUT, f))
    seen, batches, reqs = set(), {}, {}
    for name, setup, argv, stdin in SCENARIOS:
        for d in run(name, setup, argv, stdin):
            kind = "batch" if is_batch(d) else "req"
            save(d, "%s-%s" % (name, kind), seen)
            if kind == "batch":
                batches[name] = d
            else:
                reqs.setdefault(name, []).append(d)
    if setup_batch := [d for d in run("base", None, ["-f", "-"], BASE) if is_batch(d)]:
        base = msgs(setup_batch[-1])
        # create and delete in one transaction; delete then re-add
        for other in ("delete_rule_handle", "delete_chain", "delete_set",
                      "delete_table", "elements_delete", "flush_ruleset", "insert_replace"):
            if other in batches:
                m = msgs(batches[other])
                save(b"".join(base[:-1] + m[1:]), "splice-base+" + other, seen)
                save(b"".join(m[:-1] + base[1:]), "splice-%s+base" % other, seen)
        handmade(base, seen)
        sequences(setup_batch[-1], batches, reqs, seen)
    print("%d seeds in %s" % (len(os.listdir(OUT)), OUT))


def nlmsg(mtype, flags, seq, family=0, attrs=b"", res_id=0):
    body = struct.pack("<BBH", family, 0, res_id) + attrs
    return pad(struct.pack("<IHHII", 16 + len(body), mtype, flags, seq, 0) + body)


def pad(b):
    return b + b"\0" * ((-len(b)) % 4)


def nla(t, payload):
    return pad(struct.pack("<HH", 4 + len(payload), t) + payload)


def sequences(base, batches, reqs, seen):
    """Several datagrams in one input (fuzz_nfnl.c feeds them one by one):
    build state, GET and dump it, change it, dump again."""
    REQ, ACK, DUMP = 0x1, 0x4, 0x300
    nft = lambda m: (10 << 8) | m
    gets = []
    for n in ("list_table", "list_chain", "list_set", "get_element"):
        gets += [d for d in reqs.get(n, []) if not (struct.unpack_from("<H", d, 6)[0] & 0x200)]
    rule_get = nlmsg(nft(7), REQ | ACK, 50, 2, nla(1, b"t\0") + nla(2, b"in\0") +
                     nla(3, struct.pack(">Q", 10)))
    dumps = b"".join(nlmsg(nft(m), REQ | DUMP, 60 + m, 0) for m in (1, 4, 7, 10))
    elems = nlmsg(nft(13), REQ | DUMP, 70, 2, nla(2, b"t\0") + nla(3, b"nets\0"))
    for other in ("delete_rule_handle", "elements_delete", "flush_ruleset", "delete_table",
                  "insert_replace", "rename_chain", "policy_update", "table_dormant"):
        if other not in batches:
            continue
        seq = [base] + gets + [rule_get, dumps, elems, batches[other], dumps, elems]
        save(b"".join(seq), "seq-base-get-" + other, seen)
    for other in ("concat_interval", "rule_vmap", "maps", "rule_lookup_anon", "echo_handles"):
        if other in batches:
            save(batches[other] + dumps + batches.get("flush_ruleset", b"") + dumps,
                 "seq-%s-dump-flush" % other, seen)
    # base chain with NFTA_CHAIN_COUNTERS (nft never sends it; the kernel takes it)
    hook = nla(0x8000 | 4, nla(1, struct.pack(">I", 1)) + nla(2, struct.pack(">I", 0)))
    ctrs = nla(0x8000 | 8, nla(2, struct.pack(">Q", 7)) + nla(1, struct.pack(">Q", 700)))
    chain = nlmsg(nft(3), REQ | 0x400 | ACK, 2, 2, nla(1, b"t\0") + nla(3, b"cc\0") +
                  nla(7, b"filter\0") + hook + ctrs + nla(5, struct.pack(">I", 1)))
    save(b"".join([base_begin(), nlmsg(nft(0), REQ | 0x400, 1, 2, nla(1, b"t\0")), chain,
                   base_end()]) + dumps, "hand-chain-counters", seen)


def base_begin():
    return nlmsg(0x10, 0x1, 0, 0, b"", 10 << 8)


def base_end():
    return nlmsg(0x11, 0x1, 99, 0, b"", 10 << 8)


def handmade(base, seen):
    """Seeds nft does not send as such but nfnl_rcv() must handle."""
    REQ, ACK, DUMP, ECHO = 0x1, 0x4, 0x300, 0x8
    nft = lambda m: (10 << 8) | m
    res = 10 << 8  # htons(NFNL_SUBSYS_NFTABLES) as read on little endian
    # several requests in one datagram: GETGEN and every dump
    save(b"".join([nlmsg(nft(16), REQ, 1)] +
                  [nlmsg(nft(m), REQ | DUMP | ACK, 2 + i) for i, m in enumerate((1, 4, 7, 10))]),
         "hand-multi-dump", seen)
    # dump filtered on a table, GETSETELEM dump of a named set
    save(nlmsg(nft(7), REQ | DUMP, 5, 2, nla(1, b"t\0")), "hand-getrule-dump-table", seen)
    save(nlmsg(nft(13), REQ | DUMP, 6, 2, nla(2, b"t\0") + nla(3, b"nets\0")),
         "hand-getsetelem-dump", seen)
    # batch with a matching NFNL_BATCH_GENID (a fresh net is at 1), and a stale one
    for gen in (1, 0x7fff):
        b = [nlmsg(0x10, REQ, 0, 0, nla(1, struct.pack(">I", gen)), res)] + base[1:]
        save(b"".join(b), "hand-genid-%d" % gen, seen)
    # commit failure: fuzz_nfnl.c's fake dataplane_prepare() fails on seq 0xdb0f
    save(b"".join([nlmsg(0x10, REQ, 0xdb0f, 0, b"", res)] + base[1:]), "hand-prepare-fails", seen)
    # NLM_F_ECHO | NLM_F_ACK on every message of the batch
    ech = [base[0]]
    for m in base[1:-1]:
        m = bytearray(m)
        struct.pack_into("<H", m, 6, struct.unpack_from("<H", m, 6)[0] | ECHO | ACK)
        ech.append(bytes(m))
    save(b"".join(ech + [base[-1]]), "hand-echo-ack", seen)
    # nft_compat revision query (NFNL_SUBSYS_NFT_COMPAT, NFNL_MSG_COMPAT_GET)
    save(nlmsg((11 << 8) | 0, REQ | ACK, 7, 2,
               nla(1, b"tcp\0") + nla(2, struct.pack(">I", 0)) + nla(3, struct.pack(">I", 0))),
         "hand-compat-get", seen)
    # batch for another subsystem, non-request message, bare BATCH_END
    save(nlmsg(0x10, REQ, 0, 0, b"", 12 << 8) + base[1] + base[-1], "hand-batch-subsys", seen)
    save(nlmsg(nft(16), 0, 1), "hand-not-request", seen)
    save(nlmsg(0x11, REQ, 1), "hand-bare-end", seen)


if __name__ == "__main__":
    main()
