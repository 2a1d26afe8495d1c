// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_exthdr.c - IPv6 extension headers and TCP options by test run:
 * presence, field loads behind any number of headers, non-first
 * fragments, cut chains, the kernel's option-length rules.
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
	b[4] = (uint8_t)((extlen + 8) >> 8);
	b[5] = (uint8_t)(extlen + 8);
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

Test(expr_exthdr, ipv6_field_loads_behind_any_number_of_headers)
{
	uint8_t pkt[40 + 41 * 8 + 8], many[41 * 8] = { 0 }, dst = 60, udp = 17;
	uint8_t id[4] = { 0xde, 0xad, 0xbe, 0xef }, one = 1, zero = 0;
	uint8_t frag[8] = { 17, 0, 0, 1, 0xde, 0xad, 0xbe, 0xef };
	int i;

	rule(EXTHDR_OP_IPV6, 44 /* frag */, 4, 4, 0, id);
	cr_assert_eq(run6(pkt, ip6(pkt, 44, frag, 8)), NF_DROP, "frag id");
	frag[2] = 0x01;	/* non-first fragment: still found (it is the target) */
	cr_assert_eq(run6(pkt, ip6(pkt, 44, frag, 8)), NF_DROP);
	/* behind 40 destination options headers (no count limit) */
	for (i = 0; i < 40; i++)
		many[i * 8] = i == 39 ? 44 : 60;
	memcpy(many + 40 * 8, frag, 8);
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 41 * 8)), NF_DROP,
		     "frag behind 40 headers");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));

	/* dst nexthdr: the first of 13 destination option headers */
	rule(EXTHDR_OP_IPV6, 60, 0, 1, 0, &dst);
	for (i = 0; i < 13; i++)
		many[i * 8] = i == 12 ? 17 : 60;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 13 * 8)), NF_DROP);
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	/* a hop-by-hop header behind 13 and 40 headers: ipv6_find_hdr()
	 * finds the type asked for wherever it is in the chain */
	rule(EXTHDR_OP_IPV6, 0 /* hbh */, 0, 1, 0, &udp);
	for (i = 0; i < 41; i++)
		many[i * 8] = i == 12 || i == 39 ? 0 : 60;
	many[40 * 8] = 17;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 41 * 8)), NF_ACCEPT,
		     "the 14th header's nexthdr is 60, not 17");
	for (i = 0; i < 41; i++)
		many[i * 8] = i == 39 ? 0 : 60;
	many[40 * 8] = 17;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 41 * 8)), NF_DROP,
		     "hbh behind 40 headers, nexthdr 17");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	/* presence of a routing header behind 40: yes; with the chain cut
	 * inside the 40th header (-EBADMSG) or ending in UDP (-ENOENT): no */
	rule(EXTHDR_OP_IPV6, 43 /* rt */, 0, 1, EXTHDR_F_PRESENT, &one);
	for (i = 0; i < 41; i++)
		many[i * 8] = i == 39 ? 43 : 60;
	many[40 * 8] = 17;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 41 * 8)), NF_DROP);
	cr_assert_eq(run6(pkt, 40 + 39 * 8 + 1), NF_ACCEPT, "cut");
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	rule(EXTHDR_OP_IPV6, 43 /* rt */, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run6(pkt, 40 + 39 * 8 + 1), NF_DROP, "cut: absent");
	many[39 * 8] = 17;
	cr_assert_eq(run6(pkt, ip6(pkt, 60, many, 40 * 8)), NF_DROP, "no rt: absent");
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

/* IPv4 UDP with IP options @opts (@olen bytes, a multiple of 4) */
static uint32_t ip4opt(uint8_t *b, const uint8_t *opts, uint32_t olen)
{
	uint32_t n = tm_ip4(b, 17, 1000, 53, 0);

	memmove(b + 20 + olen, b + 20, n - 20);
	memcpy(b + 20, opts, olen);
	b[0] = 0x40 | (uint8_t)((20 + olen) / 4);
	b[3] = (uint8_t)(n + olen);
	return n + olen;
}

static int run4(const uint8_t *pkt, uint32_t n)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, n);
}

static void rule_del_first(void)
{
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
}

Test(expr_exthdr, ipv4_options_found_and_loaded)
{
	uint8_t pkt[128], one = 1, zero = 0, t131 = 131, ptr = 4;
	uint8_t rr[8] = { 1, 7, 7, 4, 0, 0, 0, 0 };	/* nop, rr ptr 4, end */
	uint8_t lsrr[8] = { 131, 7, 4, 10, 0, 0, 9, 0 };
	uint8_t ssrr[8] = { 137, 7, 4, 10, 0, 0, 9, 0 };
	uint8_t ra[4] = { 148, 4, 0, 0 }, ra1[4] = { 148, 4, 0, 1 };
	uint8_t ra_ra1[8] = { 148, 4, 0, 0, 148, 4, 0, 1 };

	rule(EXTHDR_OP_IPV4, 7, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr, 8)), NF_DROP, "rr exists");
	cr_assert_eq(run4(pkt, ip4opt(pkt, ra, 4)), NF_ACCEPT, "rr missing");
	cr_assert_eq(run4(pkt, tm_ip4(pkt, 17, 1, 2, 0)), NF_ACCEPT, "no options");
	rule_del_first();
	/* ip option rr ptr: offset 2 of the option (not of the header) */
	rule(EXTHDR_OP_IPV4, 7, 2, 1, 0, &ptr);
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr, 8)), NF_DROP, "rr ptr 4");
	rule_del_first();
	rule(EXTHDR_OP_IPV4, 131, 0, 1, 0, &t131);
	cr_assert_eq(run4(pkt, ip4opt(pkt, lsrr, 8)), NF_DROP, "lsrr type 131");
	cr_assert_eq(run4(pkt, ip4opt(pkt, ssrr, 8)), NF_ACCEPT,
		     "ssrr is not lsrr: not found, break");
	rule_del_first();
	rule(EXTHDR_OP_IPV4, 148, 0, 1, EXTHDR_F_PRESENT, &one);
	cr_assert_eq(run4(pkt, ip4opt(pkt, ra, 4)), NF_DROP, "ra exists");
	cr_assert_eq(run4(pkt, ip4opt(pkt, ra1, 4)), NF_ACCEPT,
		     "a router alert with a value is not router_alert");
	cr_assert_eq(run4(pkt, ip4opt(pkt, ra_ra1, 8)), NF_DROP,
		     "the first one counts, the second does not undo it");
	rule_del_first();
	rule(EXTHDR_OP_IPV4, 148, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr, 8)), NF_DROP, "ra missing");
}

Test(expr_exthdr, ipv4_options_invalid_lists_find_nothing)
{
	uint8_t pkt[128], zero = 0;
	uint8_t rr_rr[16] = { 7, 7, 4, 0, 0, 0, 0, 7, 7, 4, 0, 0, 0, 0, 0, 0 };
	uint8_t rr_ptr3[8] = { 7, 7, 3, 0, 0, 0, 0, 0 };
	uint8_t rr_tight[8] = { 7, 5, 4, 0, 0, 0, 0, 0 };	/* ptr + 3 > len */
	uint8_t rr_full[8] = { 7, 7, 8, 0, 0, 0, 0, 0 };	/* ptr past: fine */
	uint8_t rr_long[8] = { 7, 9, 4, 0, 0, 0, 0, 0 };	/* len past the end */
	uint8_t lsrr_ptr8[8] = { 131, 7, 8, 10, 0, 0, 9, 0 };	/* not 4 */
	uint8_t lsrr_len8[8] = { 131, 8, 4, 10, 0, 0, 9, 0 };	/* (8 - 3) % 4 */
	uint8_t lsrr_ssrr[16] = { 131, 7, 4, 1, 2, 3, 4, 137, 7, 4, 1, 2, 3, 4, 0, 0 };
	uint8_t cipso[12] = { 134, 10, 0, 0, 0, 1, 0, 0, 0, 0, 7, 0 };
	uint8_t ts_ovf[8] = { 68, 8, 9, 0xf0, 0, 0, 0, 0 };
	uint8_t ts_ovf3[8] = { 68, 8, 9, 0xf3, 0, 0, 0, 0 };
	uint8_t ts_addr[8] = { 68, 8, 5, 0x01, 0, 0, 0, 0 };
	uint8_t one_byte[4] = { 1, 1, 1, 7 };	/* rr with no length byte */
	uint8_t end_rr[4] = { 0, 7, 3, 4 };	/* after END nothing counts */
	uint8_t sec_rr[12] = { 130, 4, 0, 0, 7, 7, 4, 0, 0, 0, 0, 0 };

	/* ip option rr missing: matches when the list is invalid */
	rule(EXTHDR_OP_IPV4, 7, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr_rr, 16)), NF_DROP, "two rr");
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr_ptr3, 8)), NF_DROP, "ptr 3");
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr_tight, 8)), NF_DROP, "no room");
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr_full, 8)), NF_ACCEPT, "full rr");
	cr_assert_eq(run4(pkt, ip4opt(pkt, rr_long, 8)), NF_DROP, "too long");
	cr_assert_eq(run4(pkt, ip4opt(pkt, one_byte, 4)), NF_DROP, "1 byte left");
	cr_assert_eq(run4(pkt, ip4opt(pkt, end_rr, 4)), NF_DROP, "after end");
	cr_assert_eq(run4(pkt, ip4opt(pkt, sec_rr, 12)), NF_ACCEPT,
		     "a security option passes (capable sender)");
	{
		uint8_t buf[20];

		/* each invalid option before a valid rr hides it */
		const uint8_t *bad[] = { lsrr_ptr8, lsrr_len8, cipso, ts_ovf };
		const uint32_t blen[] = { 8, 8, 12, 8 };
		uint32_t i;

		for (i = 0; i < 4; i++) {
			memcpy(buf, bad[i], blen[i]);
			memcpy(buf + blen[i], (uint8_t[]){ 7, 3, 4, 0 }, 4);
			memset(buf + blen[i] + 4, 0, sizeof(buf) - blen[i] - 4);
			cr_assert_eq(run4(pkt, ip4opt(pkt, buf, blen[i] + 4)),
				     NF_DROP, "invalid option %u", i);
		}
		memcpy(buf, ts_ovf3, 8);
		memcpy(buf + 8, (uint8_t[]){ 7, 3, 4, 0 }, 4);
		cr_assert_eq(run4(pkt, ip4opt(pkt, buf, 12)), NF_ACCEPT,
			     "overflow 15 with flags 3 is fine");
		memcpy(buf, ts_addr, 8);
		cr_assert_eq(run4(pkt, ip4opt(pkt, buf, 12)), NF_DROP,
			     "flags 1: ptr + 7 > len");
		ts_addr[3] = 0;
		memcpy(buf, ts_addr, 8);
		cr_assert_eq(run4(pkt, ip4opt(pkt, buf, 12)), NF_ACCEPT,
			     "flags 0: a stamp fits");
	}
	rule_del_first();
	rule(EXTHDR_OP_IPV4, 137, 0, 1, EXTHDR_F_PRESENT, &zero);
	cr_assert_eq(run4(pkt, ip4opt(pkt, lsrr_ssrr, 16)), NF_DROP,
		     "a second source route is invalid");
}

Test(expr_exthdr, ipv4_options_breaks)
{
	uint8_t pkt[128], zero = 0;
	uint8_t rr[8] = { 7, 7, 4, 0, 0, 0, 0, 0 };
	uint8_t ports[4] = { 0x03, 0xe8, 0x00, 0x35 };
	uint32_t n;

	rule(EXTHDR_OP_IPV4, 7, 0, 1, EXTHDR_F_PRESENT, &zero);
	/* not IPv4: break even for presence */
	cr_assert_eq(run6(pkt, ip6(pkt, 17, NULL, 0)), NF_ACCEPT, "ipv6");
	/* ihl 15 in a 28 byte packet: the copy fails, not found */
	n = tm_ip4(pkt, 17, 1, 2, 0);
	pkt[0] = 0x4f;
	cr_assert_eq(run4(pkt, 28), NF_DROP, "short packet");
	(void)n;
	rule_del_first();
	/* a load past the option's end reads on (the udp ports here), and
	 * past the packet's end breaks */
	rule(EXTHDR_OP_IPV4, 7, 8, 4, 0, ports);
	n = ip4opt(pkt, rr, 8);
	cr_assert_eq(run4(pkt, n), NF_DROP, "the ports after the options");
	cr_assert_eq(run4(pkt, 30), NF_ACCEPT, "past the packet: break");
}
