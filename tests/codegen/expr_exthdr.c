// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_exthdr.c - IPv6 extension headers and TCP options by test run:
 * presence, field loads, the 12-header bound, non-first fragments, the
 * kernel's option-length rules.
 */
#include "tests/codegen/model.h"
#include "expr/exthdr.h"

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

TestSuite(expr_exthdr, .init = setup, .fini = teardown);

/* rule: exthdr (op, type, offset, len, flags) -> r8; cmp eq v; drop */
static void rule(uint8_t op, uint8_t type, uint8_t offset, uint8_t len,
		 uint8_t flags, const void *v)
{
	struct tm_rb rb = { 0 };
	struct expr_exthdr *x = tm_add(&rb, EXPR_EXTHDR, sizeof(*x));

	x->op = op;
	x->type = type;
	x->offset = offset;
	x->len = len;
	x->flags = flags;
	x->form = EXTHDR_GET;
	x->reg = 8;
	tm_cmp(&rb, 8, CMP_EQ, v, len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
}

/* IPv6 ::1 -> ::2, @ext (@extlen bytes) after the header, then 8 bytes */
static uint32_t ip6(uint8_t *b, uint8_t nexthdr, const uint8_t *ext,
		    uint32_t extlen)
{
	memset(b, 0, 40 + extlen + 8);
	b[0] = 0x60;
	b[5] = extlen + 8;
	b[6] = nexthdr;
	b[7] = 64;
	b[23] = 1;
	b[39] = 2;
	memcpy(b + 40, ext, extlen);
	return 40 + extlen + 8;
}

static int run6(const uint8_t *pkt, uint32_t n)
{
	return tm_run(&net, base, 10, HOOK_OUT, pkt, n);
}

Test(expr_exthdr, ipv6_presence)
{
	uint8_t pkt[256], one = 1, zero = 0;
	uint8_t hbh_dst[16] = { 60, 0, 1, 4, 0, 0, 0, 0, 17, 0, 1, 4 };

	rule(EXTHDR_OP_IPV6, 60 /* dst */, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run6(pkt, ip6(pkt, 0, hbh_dst, 16)), NF_DROP, "dst after hbh");
	cr_assert_eq(run6(pkt, ip6(pkt, 17, NULL, 0)), NF_ACCEPT, "no headers");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	rule(EXTHDR_OP_IPV6, 43 /* rt */, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run6(pkt, ip6(pkt, 0, hbh_dst, 16)), NF_DROP, "rt missing");
}

Test(expr_exthdr, ipv6_field_loads_and_the_twelve_header_bound)
{
	uint8_t pkt[256], many[13 * 8] = { 0 }, dst = 60, udp = 17;
	uint8_t id[4] = { 0xde, 0xad, 0xbe, 0xef };
	uint8_t frag[8] = { 17, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef };
	int i;

	rule(EXTHDR_OP_IPV6, 44 /* frag */, 4, 4, 0, id);
	cr_assert_eq(run6(pkt, ip6(pkt, 44, frag, 8)), NF_DROP, "frag id");
	frag[2] = 0x01;	/* non-first fragment: still found (it is the target) */
	cr_assert_eq(run6(pkt, ip6(pkt, 44, frag, 8)), NF_DROP);
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));

	/* dst nexthdr: the first of 12 destination option headers */
	rule(EXTHDR_OP_IPV6, 60, 0, 1, 0, &dst);
	for (i = 0; i < 13; i++)
		many[i * 8] = 60;
	many[11 * 8] = 17;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 12 * 8)), NF_DROP,
		     "the first dst header is found before the bound matters");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	rule(EXTHDR_OP_IPV6, 0 /* hbh */, 0, 1, EXTHDR_F_PRESENT, &udp /* 17 != 1 */);
	many[11 * 8] = 60;
	many[12 * 8] = 0;	/* 13th header would lead to a hop-by-hop */
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 13 * 8)), NF_ACCEPT);
}

Test(expr_exthdr, not_ipv6_breaks_even_for_presence)
{
	uint8_t pkt[128], zero = 0;
	uint32_t n = tm_ip4(pkt, 17, 1, 2, 0);

	rule(EXTHDR_OP_IPV6, 0, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
}

/* IPv4 TCP with @opts (@olen bytes, a multiple of 4) */
static uint32_t tcp4(uint8_t *b, const uint8_t *opts, uint32_t olen)
{
	uint32_t n = tm_ip4(b, 6, 1000, 22, 0);

	memmove(b + 40 + olen, b + 40, n - 40);
	memcpy(b + 40, opts, olen);
	b[32] = (uint8_t)((20 + olen) / 4) << 4;
	b[3] = (uint8_t)(n + olen);
	return n + olen;
}

Test(expr_exthdr, tcp_options)
{
	uint8_t pkt[128], mss[2] = { 0x05, 0xb4 }, one = 1;
	uint8_t syn[8] = { 1, 1, 2, 4, 0x05, 0xb4, 4, 2 };	/* nop nop mss sackok */
	uint8_t bad[4] = { 2, 8, 0x05, 0xb4 };	/* mss claiming 8 bytes: past the header */
	uint8_t eol[4] = { 0, 2, 4, 0 };	/* eol is one byte: the walk goes on */
	uint8_t eol_sack[4] = { 0, 4, 2, 1 };

	rule(EXTHDR_OP_TCPOPT, 2, 2, 2, 0, mss);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, syn, 8)), NF_DROP);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, bad, 4)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, eol, 4)), NF_ACCEPT,
		     "mss of length 4 but only 2 bytes left");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	rule(EXTHDR_OP_TCPOPT, 4 /* sack-perm */, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, syn, 8)), NF_DROP);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, eol_sack, 4)), NF_DROP,
		     "eol does not end the kernel's walk");
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, tcp4(pkt, eol, 4)), NF_ACCEPT,
		     "byte 22 is inside the mss option, not an option start");
}
