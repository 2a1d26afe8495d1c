// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_rt.c - the rt expression's netlink side against nft_rt.c:
 * nft_rt_get_init()'s errors (the key's policy range first), the register
 * length of each key, nft_rt_get_dump() and nft_rt_validate().
 */
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "ruleset.h"
#include "expr/rt.h"

static struct expr_rt rt;

/* key, dreg, in the order nft sends them */
static void put_rt(uint32_t key, uint32_t dreg)
{
	ta_put32(NFTA_RT_KEY, key);
	ta_put32(NFTA_RT_DREG, dreg);
}

static int parse(void)
{
	return ta_parse(EXPR_RT, &rt, sizeof(rt));
}

Test(expr_rt, every_key_parses_and_dumps)
{
	static const struct { uint32_t key; uint8_t len; } k[] = {
		{ NFT_RT_CLASSID, 4 }, { NFT_RT_NEXTHOP4, 4 },
		{ NFT_RT_NEXTHOP6, 16 }, { NFT_RT_TCPMSS, 2 }, { NFT_RT_XFRM, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		put_rt(k[i].key, NFT_REG_1);
		cr_assert_eq(parse(), 0, "key %u", k[i].key);
		cr_assert_eq(rt.len, k[i].len);
		cr_assert_eq(rt.dreg, 4);
		put_rt(k[i].key, NFT_REG_1);
		ta_dump_is(EXPR_RT, &rt);
	}
}

Test(expr_rt, errors_in_the_kernels_order)
{
	put_rt(5, NFT_REG_1);
	cr_assert_eq(parse(), -EOPNOTSUPP);	/* no such key */
	put_rt(256, NFT_REG_1);
	cr_assert_eq(parse(), -ERANGE);		/* NLA_POLICY_MAX(255) */
	ta_put32(NFTA_RT_KEY, 256);
	cr_assert_eq(parse(), -ERANGE, "the policy comes before the init");
	ta_put32(NFTA_RT_KEY, NFT_RT_CLASSID);
	cr_assert_eq(parse(), -EINVAL);
	ta_put32(NFTA_RT_DREG, NFT_REG_1);
	cr_assert_eq(parse(), -EINVAL);
	/* 16 bytes do not fit from the last 32-bit register */
	put_rt(NFT_RT_NEXTHOP6, NFT_REG32_15);
	cr_assert_eq(parse(), -ERANGE);
}

Test(expr_rt, validate_by_family_and_hook)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_RT];

	put_rt(NFT_RT_NEXTHOP4, NFT_REG_1);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(ops->validate(&rt, NFPROTO_INET, NF_INET_PRE_ROUTING), 0);
	cr_assert_eq(ops->validate(&rt, NFPROTO_ARP, 0), -EOPNOTSUPP);
	cr_assert_eq(ops->validate(&rt, NFPROTO_NETDEV, 0), -EOPNOTSUPP);
	put_rt(NFT_RT_TCPMSS, NFT_REG_1);
	cr_assert_eq(parse(), 0);
	cr_assert_eq(ops->validate(&rt, NFPROTO_IPV4, NF_INET_LOCAL_IN), -EOPNOTSUPP);
	cr_assert_eq(ops->validate(&rt, NFPROTO_IPV6, NF_INET_FORWARD), 0);
	cr_assert_eq(ops->validate(&rt, NFPROTO_IPV4, NF_INET_POST_ROUTING), 0);
}
