// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_xt.c - validation of xtables match/target expressions: what the
 * kernel answers (nfnl_xt_check() asks it, in a namespace of its own) for
 * the cases iptables-nft runs into. Needs root (skipped otherwise).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <linux/netfilter.h>

#include "nfnl_xt.h"

static void need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root (a network namespace of its own)");
}

TestSuite(expr_xt, .init = need_root);

/* NFTA_RULE_COMPAT payload: PROTO, FLAGS */
struct compat {
	uint16_t l1, t1;
	uint32_t proto;
	uint16_t l2, t2;
	uint32_t flags;
};

static struct compat compat(uint32_t proto, uint32_t flags)
{
	struct compat c = { 8, 1, htonl(proto), 8, 2, htonl(flags) };

	return c;
}

static struct nfnl_xt_query q_input(const char *name, uint32_t rev,
				    const void *info, uint32_t len)
{
	struct nfnl_xt_query q = {
		.family = NFPROTO_IPV4, .table = "filter", .base = true,
		.hooknum = NF_INET_LOCAL_IN, .prio = 0, .type = "filter",
		.name = name, .rev = rev, .info = info, .len = len,
	};

	return q;
}

Test(expr_xt, tcp_match_accepted_with_its_protocol)
{
	uint8_t info[16] = { 0, 0, 0xff, 0xff, 22, 0, 22, 0 };
	struct compat c = compat(6, 0);
	struct nfnl_xt_query q = q_input("tcp", 0, info, sizeof(info));

	q.compat = &c;
	q.compat_len = sizeof(c);
	cr_assert_eq(nfnl_xt_check(&q), 0);
	/* the kernel's xt_check_match: proto must be tcp, not inverted */
	c = compat(17, 0);
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
	c = compat(6, 2 /* NFT_RULE_COMPAT_F_INV */);
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
	/* nft_parse_compat: unknown flags */
	c = compat(6, 1);
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
	/* no NFTA_RULE_COMPAT: proto 0 is not tcp */
	q.compat = NULL;
	q.compat_len = 0;
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
}

Test(expr_xt, size_and_checkentry_are_the_kernels)
{
	uint8_t info[16] = { 0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff };
	struct compat c = compat(6, 0);
	struct nfnl_xt_query q = q_input("tcp", 0, info, 8);

	q.compat = &c;
	q.compat_len = sizeof(c);
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL, "info shorter than xt_tcp");
	q.len = 24;
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL, "XT_ALIGN(len) != XT_ALIGN(size)");
	q.len = 12;
	cr_assert_eq(nfnl_xt_check(&q), 0, "the unaligned size is fine");
	info[11] = 0x40;	/* unknown invflags: tcp_mt_check */
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
}

Test(expr_xt, unknown_extension_or_revision_is_enoent)
{
	uint8_t info[8] = { 0 };
	struct nfnl_xt_query q = q_input("nosuchmatch", 0, info, sizeof(info));

	cr_assert_eq(nfnl_xt_check(&q), -ENOENT);
	q.name = "multiport";
	q.rev = 9;
	cr_assert_eq(nfnl_xt_check(&q), -ENOENT);
	q.target = true;
	q.name = "NOSUCHTARGET";
	q.rev = 0;
	cr_assert_eq(nfnl_xt_check(&q), -ENOENT);
}

Test(expr_xt, family_table_and_hook_restrictions)
{
	char comment[256] = "x";
	uint8_t iprange[72] = { 0 };
	uint8_t masq[24] = { 0 };	/* struct nf_nat_ipv4_multi_range_compat */
	uint8_t tcpmss[8] = { 0xff, 0xff };	/* --clamp-mss-to-pmtu */
	struct compat c = compat(6, 0);
	struct nfnl_xt_query q = q_input("comment", 0, comment, sizeof(comment));

	masq[0] = 1;	/* rangesize */
	q.family = NFPROTO_INET;
	cr_assert_eq(nfnl_xt_check(&q), 0, "comment is NFPROTO_UNSPEC");
	q = q_input("iprange", 1, iprange, 65);
	q.family = NFPROTO_INET;
	cr_assert_eq(nfnl_xt_check(&q), -ENOENT, "iprange is ipv4/ipv6 only");
	/* MASQUERADE: table "nat", POSTROUTING, nat chain */
	q = q_input("MASQUERADE", 0, masq, 24);
	q.target = true;
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
	q.table = "nat";
	q.type = "nat";
	q.hooknum = NF_INET_POST_ROUTING;
	q.prio = 100;
	cr_assert_eq(nfnl_xt_check(&q), 0);
	/* TCPMSS --clamp-mss-to-pmtu: FORWARD/OUTPUT/POSTROUTING only */
	q = q_input("TCPMSS", 0, tcpmss, 2);
	q.target = true;
	q.compat = &c;
	q.compat_len = sizeof(c);
	cr_assert_eq(nfnl_xt_check(&q), -EINVAL);
	q.hooknum = NF_INET_FORWARD;
	/* tcpmss_tg4_check skips its --tcp-flags SYN test for nft_compat */
	cr_assert_eq(nfnl_xt_check(&q), 0);
}

Test(expr_xt, answers_are_cached)
{
	char comment[256] = "cached";
	struct nfnl_xt_query q = q_input("comment", 0, comment, sizeof(comment));
	uint64_t p0, h0, p1, h1;

	cr_assert_eq(nfnl_xt_check(&q), 0);
	nfnl_xt_stats(&p0, &h0);
	cr_assert_eq(nfnl_xt_check(&q), 0);
	nfnl_xt_stats(&p1, &h1);
	cr_assert_eq(p1, p0);
	cr_assert_eq(h1, h0 + 1);
}

Test(expr_xt, prefetch_asks_once_per_chunk_with_each_answer_its_own)
{
	static char comments[300][256];
	static struct nfnl_xt_query qs[300];
	uint8_t tcp[16] = { 0 };
	uint64_t p0, h0, p1, h1;
	int i;

	for (i = 0; i < 300; i++) {
		snprintf(comments[i], sizeof(comments[i]), "prefetch %d", i);
		qs[i] = q_input("comment", 0, comments[i], sizeof(comments[i]));
	}
	/* among them: unknown, wrong size, wrong protocol */
	qs[10] = q_input("nosuchmatch", 0, comments[10], 8);
	qs[20] = q_input("comment", 0, comments[20], 8);
	qs[30] = q_input("tcp", 0, tcp, sizeof(tcp));
	nfnl_xt_stats(&p0, &h0);
	cr_assert_eq(nfnl_xt_prefetch(qs, 300), 0);
	nfnl_xt_stats(&p1, &h1);
	cr_assert_eq(p1 - p0, 3, "300 queries: 3 kernel batches, not %lu",
		     (unsigned long)(p1 - p0));
	for (i = 0; i < 300; i++) {
		int want = i == 10 ? -ENOENT : (i == 20 || i == 30) ? -EINVAL : 0;

		cr_assert_eq(nfnl_xt_check(&qs[i]), want, "query %d", i);
	}
	/* failures after the first one in the same table are asked again
	 * alone (a rule refused at validation poisons its table's replay) */
	nfnl_xt_stats(&p0, &h0);
	cr_assert_eq(p0 - p1, 2);
	cr_assert_eq(h0 - h1, 298);
}
