// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_payload_inner.c - payload loads from the inner header (base 3, the
 * bytes after the transport header): UDP, TCP (its data offset), GRE
 * version 0 and its optional fields, IPIP; the cases that break.
 */
#include "tests/codegen/model.h"

static struct net net;
static struct table *t;
static struct chain *base;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 1 /* inet */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_payload_inner, .init = setup, .fini = teardown);

/* rule: payload inner off/len -> r4; cmp @op v; drop */
static void rule(uint32_t off, const void *v, uint32_t len, uint8_t op)
{
	struct tm_rb rb = { 0 };

	tm_payload(&rb, PAYLOAD_INNER, off, len, 4);
	tm_cmp(&rb, 4, op, v, len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
}

static void rule_del(void)
{
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
}

/* IPv4 10.0.0.1 -> 10.0.0.2, protocol @proto, fragment field @frag, then
 * @l4 (@n bytes) */
static uint32_t ip4(uint8_t *b, uint8_t proto, uint16_t frag,
		    const uint8_t *l4, uint32_t n)
{
	memset(b, 0, 20 + n);
	b[0] = 0x45;
	b[2] = (20 + n) >> 8;
	b[3] = (20 + n) & 0xff;
	b[6] = frag >> 8;
	b[7] = frag & 0xff;
	b[8] = 64;
	b[9] = proto;
	b[12] = 10; b[15] = 1;
	b[16] = 10; b[19] = 2;
	memcpy(b + 20, l4, n);
	return 20 + n;
}

static int run(const uint8_t *pkt, uint32_t n)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, n);
}

static const uint8_t magic[4] = { 0x14, 0, 0, 0 };

Test(expr_payload_inner, udp_and_tcp)
{
	uint8_t pkt[128], l4[64] = { 0 };
	uint32_t n;

	rule(0, magic, 4, CMP_EQ);
	/* udp: 8 bytes, then the inner bytes */
	l4[5] = 16;
	memcpy(l4 + 8, magic, 4);
	n = ip4(pkt, 17, 0, l4, 16);
	cr_assert_eq(run(pkt, n), NF_DROP, "udp");
	/* the same bytes as a first fragment; a later one breaks */
	n = ip4(pkt, 17, 0x2000, l4, 16);
	cr_assert_eq(run(pkt, n), NF_DROP, "udp first fragment");
	n = ip4(pkt, 17, 0x0003, l4, 16);
	cr_assert_eq(run(pkt, n), NF_ACCEPT, "udp later fragment");
	/* tcp: doff 5, then doff 6 (the magic moves 4 bytes on) */
	memset(l4, 0, sizeof(l4));
	l4[12] = 5 << 4;
	memcpy(l4 + 20, magic, 4);
	n = ip4(pkt, 6, 0, l4, 28);
	cr_assert_eq(run(pkt, n), NF_DROP, "tcp doff 5");
	l4[12] = 6 << 4;
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 28)), NF_ACCEPT, "tcp doff 6");
	memmove(l4 + 24, l4 + 20, 4);
	memset(l4 + 20, 1, 4);
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 28)), NF_DROP, "tcp doff 6");
	/* a tcp header cut short (19 bytes): break */
	rule_del();
	rule(0, magic, 4, CMP_NEQ);
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 19)), NF_ACCEPT, "short tcp");
	/* past the packet: break */
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 26)), NF_ACCEPT, "short load");
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 28)), NF_ACCEPT);
	l4[24] = 0x15;
	cr_assert_eq(run(pkt, ip4(pkt, 6, 0, l4, 28)), NF_DROP);
}

Test(expr_payload_inner, gre_and_ipip)
{
	uint8_t pkt[128], l4[64] = { 0 };
	struct { uint8_t f0, f1; uint32_t at; int verdict; } g[] = {
		{ 0x00, 0, 4, NF_DROP },	/* base header only */
		{ 0x80, 0, 8, NF_DROP },	/* csum + reserved1 */
		{ 0x20, 0, 8, NF_DROP },	/* key */
		{ 0x10, 0, 8, NF_DROP },	/* seq */
		{ 0xb0, 0, 16, NF_DROP },	/* all three */
		{ 0x30, 0, 12, NF_DROP },	/* key + seq */
		{ 0x40, 0, 4, NF_ACCEPT },	/* routing: break */
		{ 0x00, 1, 4, NF_ACCEPT },	/* version 1 (pptp): break */
		{ 0x00, 0x80, 4, NF_DROP },	/* ack flag, version 0 */
	};
	uint32_t i;

	rule(0, magic, 4, CMP_EQ);
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		memset(l4, 0, sizeof(l4));
		l4[0] = g[i].f0;
		l4[1] = g[i].f1;
		l4[3] = 0x08;
		memcpy(l4 + g[i].at, magic, 4);
		cr_assert_eq(run(pkt, ip4(pkt, 47, 0, l4, 24)), g[i].verdict,
			     "gre case %u", i);
	}
	/* gre with 3 bytes: break */
	cr_assert_eq(run(pkt, ip4(pkt, 47, 0, l4, 3)), NF_ACCEPT);
	/* ipip: the inner header is the transport header */
	memset(l4, 0, sizeof(l4));
	memcpy(l4, magic, 4);
	cr_assert_eq(run(pkt, ip4(pkt, 4, 0, l4, 24)), NF_DROP, "ipip");
	/* icmp, sctp: no inner header */
	cr_assert_eq(run(pkt, ip4(pkt, 1, 0, l4, 24)), NF_ACCEPT, "icmp");
	cr_assert_eq(run(pkt, ip4(pkt, 132, 0, l4, 24)), NF_ACCEPT, "sctp");
	rule_del();
	rule(0, magic, 4, CMP_NEQ);
	cr_assert_eq(run(pkt, ip4(pkt, 1, 0, l4, 24)), NF_ACCEPT, "icmp breaks");
}

Test(expr_payload_inner, ipv6_udp)
{
	uint8_t pkt[128], v[2] = { 0xab, 0xcd };
	uint32_t n;

	rule(2, v, 2, CMP_EQ);
	memset(pkt, 0, sizeof(pkt));
	pkt[0] = 0x60;
	pkt[5] = 16;
	pkt[6] = 17;
	pkt[7] = 64;
	pkt[23] = 1;
	pkt[39] = 2;
	pkt[45] = 16;
	pkt[40 + 8 + 2] = 0xab;
	pkt[40 + 8 + 3] = 0xcd;
	n = 40 + 16;
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP);
	pkt[40 + 8 + 3] = 0xce;
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_ACCEPT);
}
