// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_fib.c - the fib expression's netlink side against nft_fib.c: the
 * policy's flag mask, select_ops of ip/ip6 (none for inet/netdev),
 * nft_fib_init()'s errors, the register length of each result,
 * nft_fib_dump() and nft_fib_validate()'s hooks.
 */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "nfnl_expr.h"
#include "ruleset.h"
#include "expr/fib.h"

/* the daemon's multicast hooks (not used here, but nfnl links them) */
void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude,
		    const void *data, size_t len)
{
	(void)net; (void)group; (void)exclude; (void)data; (void)len;
}

bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	(void)net; (void)group;
	return false;
}

static char msg[4096] __attribute__((aligned(4)));
static struct nlattr *nest;
static struct expr_fib fb;

static void begin(void)
{
	memset(msg, 0, sizeof(msg));
	memset(&fb, 0, sizeof(fb));
	nest = (struct nlattr *)msg;
	nest->nla_type = NFTA_EXPR_DATA;
	nest->nla_len = NLA_HDRLEN;
}

static void put32(uint16_t type, uint32_t v)
{
	struct nlattr *a = (struct nlattr *)(msg + NLA_ALIGN(nest->nla_len));

	v = htobe32(v);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy((char *)a + NLA_HDRLEN, &v, 4);
	nest->nla_len = NLA_ALIGN(nest->nla_len) + NLA_ALIGN(a->nla_len);
}

/* dreg, result, flags, in this order (as nft sends them) */
static void put_fib(uint32_t dreg, uint32_t result, uint32_t flags)
{
	begin();
	put32(NFTA_FIB_DREG, dreg);
	put32(NFTA_FIB_RESULT, result);
	put32(NFTA_FIB_FLAGS, flags);
}

static int parse_in(uint8_t family)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_FIB];
	const struct nlattr *tb[NFTA_FIB_MAX + 1];
	struct chain c = { 0 };
	struct nfnl_expr_ctx ctx = { .family = family, .chain = &c };
	int err;

	cr_assert_str_eq(ops->name, "fib");
	err = nfnl_attr_parse_nested(nest, ops->maxattr, ops->policy, tb, NULL);
	if (err)
		return err;
	return ops->parse(&ctx, &fb, tb);
}

static int parse(void)
{
	return parse_in(NFPROTO_IPV4);
}

static void dump_is_input(void)
{
	struct nfnl_buf b;
	size_t n = nest->nla_len - NLA_HDRLEN;

	nfnl_buf_init(&b);
	nfnl_expr_ops[EXPR_FIB]->dump(&b, &fb);
	cr_assert_eq(b.len, n, "dump length %zu, want %zu", b.len, n);
	cr_assert_arr_eq(b.data, msg + NLA_HDRLEN, n);
	nfnl_buf_fini(&b);
}

Test(expr_fib, type_parses_and_dumps)
{
	put_fib(NFT_REG_1, NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_IIF);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(fb.result, FIB_RESULT_ADDRTYPE);
	cr_assert_eq(fb.flags, FIB_F_DADDR | FIB_F_IIF);
	cr_assert_eq(fb.dreg, 4);
	cr_assert_eq(fb.family, NFPROTO_IPV4);
	dump_is_input();
}

Test(expr_fib, oif_present_parses_and_dumps)
{
	put_fib(NFT_REG32_02, NFT_FIB_RESULT_OIF,
		NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF | NFTA_FIB_F_PRESENT);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(fb.dreg, 6);
	dump_is_input();
}

Test(expr_fib, present_is_for_result_oif_only)
{
	/* 6.18.44 ("nft_fib: fix stale stack leak via the OIFNAME
	 * register"): `fib daddr oifname exists` is EINVAL */
	put_fib(NFT_REG32_02, NFT_FIB_RESULT_OIFNAME,
		NFTA_FIB_F_DADDR | NFTA_FIB_F_PRESENT);
	cr_assert_eq(parse(), -EINVAL);
	put_fib(NFT_REG32_02, NFT_FIB_RESULT_ADDRTYPE,
		NFTA_FIB_F_DADDR | NFTA_FIB_F_PRESENT);
	cr_assert_eq(parse(), -EINVAL);
	/* one byte: the last register takes it */
	put_fib(NFT_REG32_15, NFT_FIB_RESULT_OIF,
		NFTA_FIB_F_DADDR | NFTA_FIB_F_PRESENT);
	cr_assert_eq(parse(), 0);
}

Test(expr_fib, attributes_are_mandatory)
{
	begin();
	cr_assert_eq(parse(), -EINVAL);	/* select_ops: no result */
	begin();
	put32(NFTA_FIB_RESULT, NFT_FIB_RESULT_ADDRTYPE);
	put32(NFTA_FIB_FLAGS, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse(), -EINVAL);	/* no dreg */
	begin();
	put32(NFTA_FIB_DREG, NFT_REG_1);
	put32(NFTA_FIB_RESULT, NFT_FIB_RESULT_ADDRTYPE);
	cr_assert_eq(parse(), -EINVAL);	/* no flags */
}

Test(expr_fib, unknown_result_per_family)
{
	/* ip and ip6 select_ops: EOPNOTSUPP; inet and netdev: init's EINVAL */
	put_fib(NFT_REG_1, 4, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse_in(NFPROTO_IPV4), -EOPNOTSUPP);
	cr_assert_eq(parse_in(NFPROTO_IPV6), -EOPNOTSUPP);
	cr_assert_eq(parse_in(NFPROTO_INET), -EINVAL);
	cr_assert_eq(parse_in(NFPROTO_NETDEV), -EINVAL);
	put_fib(NFT_REG_1, 0, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse_in(NFPROTO_IPV4), -EOPNOTSUPP);
}

Test(expr_fib, no_fib_in_arp_and_bridge)
{
	put_fib(NFT_REG_1, NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse_in(NFPROTO_ARP), -ENOENT);
	cr_assert_eq(parse_in(NFPROTO_BRIDGE), -ENOENT);
	cr_assert_eq(parse_in(NFPROTO_INET), 0);
	cr_assert_eq(parse_in(NFPROTO_NETDEV), 0);
	cr_assert_eq(parse_in(NFPROTO_IPV6), 0);
}

Test(expr_fib, flag_rules)
{
	static const struct { uint32_t result, flags; int err; } c[] = {
		{ NFT_FIB_RESULT_ADDRTYPE, 0, -EINVAL },
		{ NFT_FIB_RESULT_ADDRTYPE, 0x40, -EINVAL },	/* mask */
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | 0x80, -EINVAL },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_SADDR | NFTA_FIB_F_DADDR, -EINVAL },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_IIF | NFTA_FIB_F_OIF, -EINVAL },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_MARK, -EINVAL },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_OIF, 0 },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_MARK, 0 },
		{ NFT_FIB_RESULT_OIF, NFTA_FIB_F_DADDR | NFTA_FIB_F_OIF, -EINVAL },
		{ NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_DADDR | NFTA_FIB_F_OIF, -EINVAL },
		{ NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		put_fib(NFT_REG_1, c[i].result, c[i].flags);
		cr_assert_eq(parse(), c[i].err, "case %zu", i);
	}
}

Test(expr_fib, register_length_per_result)
{
	/* oifname stores IFNAMSIZ bytes: 16 bytes from NFT_REG32_13 overflow */
	put_fib(NFT_REG32_13, NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse(), -ERANGE);
	put_fib(NFT_REG32_12, NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse(), 0);
	put_fib(NFT_REG32_15, NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse(), 0);
	put_fib(NFT_REG32_15, NFT_FIB_RESULT_OIF, NFTA_FIB_F_DADDR);
	cr_assert_eq(parse(), 0);
}

Test(expr_fib, hooks_per_result)
{
	static const struct { uint32_t result, flags; uint32_t hooks; } c[] = {
		{ NFT_FIB_RESULT_OIF, NFTA_FIB_F_DADDR,
		  1u << NF_INET_PRE_ROUTING | 1u << NF_INET_LOCAL_IN |
		  1u << NF_INET_FORWARD },
		{ NFT_FIB_RESULT_OIFNAME, NFTA_FIB_F_SADDR | NFTA_FIB_F_IIF,
		  1u << NF_INET_PRE_ROUTING | 1u << NF_INET_LOCAL_IN |
		  1u << NF_INET_FORWARD },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_IIF,
		  1u << NF_INET_PRE_ROUTING | 1u << NF_INET_LOCAL_IN |
		  1u << NF_INET_FORWARD },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR | NFTA_FIB_F_OIF,
		  1u << NF_INET_LOCAL_OUT | 1u << NF_INET_POST_ROUTING |
		  1u << NF_INET_FORWARD },
		{ NFT_FIB_RESULT_ADDRTYPE, NFTA_FIB_F_DADDR, 0x1f },
	};
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_FIB];
	size_t i;
	uint32_t h;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		put_fib(NFT_REG_1, c[i].result, c[i].flags);
		cr_assert_eq(parse(), 0);
		for (h = 0; h <= NF_INET_INGRESS; h++)
			cr_assert_eq(ops->validate(&fb, NFPROTO_IPV4, h),
				     (c[i].hooks >> h) & 1 ? 0 : -EOPNOTSUPP,
				     "case %zu hook %u", i, h);
	}
}

