// SPDX-License-Identifier: GPL-2.0-only
/* expr_meta.c - meta keys read from skb/state, by test run. */
#include "tests/codegen/model.h"

#include <time.h>
#include <arpa/inet.h>
#include <sys/syscall.h>
#include <sys/time.h>

enum { LEN = 0, PROTOCOL = 1, PRIORITY = 2, MARK = 3, IIF = 4, OIF = 5,
       IIFNAME = 6, OIFNAME = 7, IIFTYPE = 8, OIFTYPE = 9, SKUID = 10,
       SKGID = 11, SECMARK = 14, NFPROTO = 15, L4PROTO = 16, PKTTYPE = 19,
       CPU = 20, IIFGROUP = 21, OIFGROUP = 22, CGROUP = 23, PRANDOM = 24,
       SECPATH = 25, IIFKIND = 26, OIFKIND = 27, TIME_NS = 30, TIME_DAY = 31,
       TIME_HOUR = 32, SDIF = 33 };

TM_FIXTURE(expr_meta, 1 /* inet */, NF_ACCEPT);

/* rule: meta key -> r8; cmp op v; drop. Returns the verdict for pkt. */
static int meta_verdict(uint32_t key, uint32_t mlen, uint8_t op,
			const void *v, uint32_t len, uint8_t pf)
{
	struct tm_rb rb = { 0 };
	struct rule *r;
	int ret;

	tm_meta(&rb, key, 8, mlen);
	tm_cmp(&rb, 8, op, v, len);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	ret = tm_run(&net, base, pf, HOOK_OUT, pkt, plen);
	tm_rule_del(r);
	tm_commit_ok(&net);
	return ret;
}

Test(expr_meta, len_host_order)
{
	uint32_t len = plen, other = plen + 1;

	cr_assert_eq(meta_verdict(LEN, 4, CMP_EQ, &len, 4, 2), NF_DROP);
	cr_assert_eq(meta_verdict(LEN, 4, CMP_EQ, &other, 4, 2), NF_ACCEPT);
}

Test(expr_meta, nfproto_and_protocol)
{
	uint8_t v4 = 2, v6 = 10, eth_ip[2] = { 0x08, 0x00 };

	cr_assert_eq(meta_verdict(NFPROTO, 1, CMP_EQ, &v4, 1, 2), NF_DROP);
	cr_assert_eq(meta_verdict(NFPROTO, 1, CMP_EQ, &v6, 1, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(PROTOCOL, 2, CMP_EQ, eth_ip, 2, 2), NF_DROP);
}

Test(expr_meta, l4proto)
{
	uint8_t udp = 17, tcp = 6;

	cr_assert_eq(meta_verdict(L4PROTO, 1, CMP_EQ, &udp, 1, 2), NF_DROP);
	cr_assert_eq(meta_verdict(L4PROTO, 1, CMP_EQ, &tcp, 1, 2), NF_ACCEPT);
}

Test(expr_meta, register_word_is_cleared)
{
	/* nft_reg_store8: the rest of the 32-bit word is zero */
	uint8_t w[4] = { 17, 0, 0, 0 };
	struct tm_rb rb = { 0 };
	uint8_t ones[4] = { 0xff, 0xff, 0xff, 0xff };

	tm_imm(&rb, 8, ones, 4);
	tm_meta(&rb, L4PROTO, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, w, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
}

Test(expr_meta, mark_priority_zero)
{
	uint32_t zero = 0;

	cr_assert_eq(meta_verdict(MARK, 4, CMP_EQ, &zero, 4, 2), NF_DROP);
	cr_assert_eq(meta_verdict(PRIORITY, 4, CMP_EQ, &zero, 4, 2), NF_DROP);
}

Test(expr_meta, devices_in_test_run)
{
	/* test runs give LOCAL_OUT an output device (loopback, ifindex 1 in
	 * a fresh netns) and no input device */
	char lo[16] = "lo", none[16] = "";
	uint32_t one = 1, zero = 0;
	uint16_t loopback = 772;	/* ARPHRD_LOOPBACK */

	cr_assert_eq(meta_verdict(OIFNAME, 16, CMP_EQ, lo, 16, 2), NF_DROP);
	cr_assert_eq(meta_verdict(IIFNAME, 16, CMP_EQ, none, 16, 2), NF_DROP);
	cr_assert_eq(meta_verdict(OIF, 4, CMP_EQ, &one, 4, 2), NF_DROP);
	cr_assert_eq(meta_verdict(IIF, 4, CMP_EQ, &zero, 4, 2), NF_DROP);
	cr_assert_eq(meta_verdict(OIFTYPE, 2, CMP_EQ, &loopback, 2, 2), NF_DROP);
	/* no input device: iiftype breaks, even with != */
	cr_assert_eq(meta_verdict(IIFTYPE, 2, CMP_NEQ, &loopback, 2, 2), NF_ACCEPT);
}

Test(expr_meta, pkttype_host)
{
	uint8_t host = 0;

	cr_assert_eq(meta_verdict(PKTTYPE, 1, CMP_EQ, &host, 1, 2), NF_DROP);
}

Test(expr_meta, cpu_in_range)
{
	uint32_t none = 0xffffffff;

	cr_assert_eq(meta_verdict(CPU, 4, CMP_NEQ, &none, 4, 2), NF_DROP);
}

Test(expr_meta, random_varies)
{
	/* meta random & 1 == 0 and == 1 both happen over 64 packets */
	uint8_t one[4] = { 1, 0, 0, 0 }, zero[4] = { 0 }, bit[4] = { 1, 0, 0, 0 };
	struct tm_rb rb = { 0 };
	int i, drops = 0;

	tm_meta(&rb, PRANDOM, 8, 4);
	tm_bitwise(&rb, 8, 8, 4, bit, zero);
	tm_cmp(&rb, 8, CMP_EQ, one, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < 64; i++)
		drops += tm_run(&net, base, 2, HOOK_OUT, pkt, plen) == NF_DROP;
	cr_assert(drops > 0 && drops < 64, "drops %d of 64", drops);
}

Test(expr_meta, refuses_unsupported_keys)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_meta *m;
	struct rule *r;

	tm_meta(&rb, SDIF, 8, 4);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "meta key 'sdif' is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
	m = tm_add(&rb, EXPR_META, sizeof(*m));
	m->key = MARK;
	m->is_set = true;
	m->sreg = 8;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "meta set key 'mark' is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}

Test(expr_meta, set_pkttype_refused_in_netfilter_programs)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_meta *m;
	struct rule *r;
	uint8_t fam[] = { 2, 10, 1 };	/* ip, ip6, inet */
	unsigned int i;

	for (i = 0; i < sizeof(fam); i++) {
		memset(&rb, 0, sizeof(rb));
		m = tm_add(&rb, EXPR_META, sizeof(*m));
		m->key = PKTTYPE;
		m->is_set = true;
		m->sreg = 8;
		m->family = fam[i];
		r = tm_rule_new(base, &rb);
		cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
		cr_assert_str_eq(err.msg, "meta set pkttype in ip, ip6 and inet tables is not supported by the nfbpf dataplane (a netfilter BPF program cannot change skb->pkt_type)");
		free(r->exprs);
		free(r);
	}
}

Test(expr_meta, pkttype_from_eth_type_trans)
{
	struct chain *pre = tm_chain(t, "pre", HOOK_PRE, 0, NF_ACCEPT);
	uint8_t eth[160], mcast = 2 /* PACKET_MULTICAST */;
	struct tm_rb rb = { 0 };
	uint32_t n;

	/* eth_type_trans() on loopback (broadcast address 00:..:00) calls
	 * ff:ff:ff:ff:ff:ff multicast */
	memset(eth, 0xff, 6);
	memset(eth + 6, 0, 8);
	eth[12] = 0x08;
	n = 14 + tm_ip4(eth + 14, 17, 1000, 53, 0);
	tm_meta(&rb, PKTTYPE, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &mcast, 1);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(pre, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, pre, 2, HOOK_PRE, eth, n), NF_DROP);
	eth[0] = 0x02;	/* unicast, not ours: PACKET_OTHERHOST */
	cr_assert_eq(tm_run(&net, pre, 2, HOOK_PRE, eth, n), NF_ACCEPT);
}

Test(expr_meta, socket_keys_break_without_a_socket)
{
	/* a test run's skb has no socket: skuid/skgid/cgroup end the rule */
	uint32_t v = 12345;

	cr_assert_eq(meta_verdict(SKUID, 4, CMP_NEQ, &v, 4, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(SKGID, 4, CMP_NEQ, &v, 4, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(CGROUP, 4, CMP_NEQ, &v, 4, 2), NF_ACCEPT);
}

Test(expr_meta, device_group_kind_and_skb_fields)
{
	/* loopback: group 0, no rtnl_link_ops (kind breaks), no secpath */
	uint32_t zero = 0;
	char lo[16] = "lo";

	cr_assert_eq(meta_verdict(OIFGROUP, 4, CMP_EQ, &zero, 4, 2), NF_DROP);
	/* no input device: break (nft_meta_store_ifgroup(); the kernel's
	 * output hook matches neither iifgroup 0 nor any other) */
	cr_assert_eq(meta_verdict(IIFGROUP, 4, CMP_EQ, &zero, 4, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(IIFGROUP, 4, CMP_NEQ, &zero, 4, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(OIFKIND, 16, CMP_NEQ, lo, 16, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(IIFKIND, 16, CMP_NEQ, lo, 16, 2), NF_ACCEPT);
	cr_assert_eq(meta_verdict(SECPATH, 1, CMP_EQ, &zero, 1, 2), NF_DROP);
	cr_assert_eq(meta_verdict(SECMARK, 4, CMP_EQ, &zero, 4, 2), NF_DROP);
}

/* nft_meta_weekday() (in the kernel's timezone) and nft_meta_hour() of @t */
static void clock_of(time_t t, int tz_min_west, uint32_t *day, uint32_t *hour)
{
	*day = (uint32_t)((4 + (uint64_t)(t - 60 * tz_min_west) / 86400) % 7);
	*hour = (uint32_t)(t % 86400);
}

Test(expr_meta, clock_keys_read_the_realtime_clock)
{
	uint32_t day0, hour0, day1, hour1, lo, hi;
	struct tm_rb rb = { 0 };
	struct timezone tz = { 0 };
	time_t t0;

	cr_assert_eq(syscall(SYS_gettimeofday, NULL, &tz), 0);
	t0 = time(NULL);
	clock_of(t0, tz.tz_minuteswest, &day0, &hour0);
	clock_of(t0 + 60, tz.tz_minuteswest, &day1, &hour1);
	if (day0 != day1 || hour1 < hour0)
		cr_skip_test("too close to midnight");
	cr_assert_eq(meta_verdict(TIME_DAY, 1, CMP_EQ, &day0, 1, 2), NF_DROP);
	/* meta hour within [now - 60 s, now + 60 s], compared as nft does:
	 * byteorder hton, then a big-endian range */
	lo = htonl(hour0 >= 60 ? hour0 - 60 : 0);
	hi = htonl(hour1);
	tm_meta(&rb, TIME_HOUR, 8, 4);
	tm_byteorder(&rb, 8, 8, 1 /* hton */, 4, 4);
	tm_range(&rb, 8, 0 /* eq */, &lo, &hi, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
}
