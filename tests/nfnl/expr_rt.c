// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_rt.c - the rt expression's netlink side against nft_rt.c:
 * nft_rt_get_init()'s errors (the key's policy range first), the register
 * length of each key, nft_rt_get_dump() and nft_rt_validate().
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
#include "expr/rt.h"

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
static struct expr_rt rt;

static void begin(void)
{
	memset(msg, 0, sizeof(msg));
	memset(&rt, 0, sizeof(rt));
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

/* key, dreg, in the order nft sends them */
static void put_rt(uint32_t key, uint32_t dreg)
{
	begin();
	put32(NFTA_RT_KEY, key);
	put32(NFTA_RT_DREG, dreg);
}

static int parse(void)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_RT];
	const struct nlattr *tb[NFTA_RT_MAX + 1];
	struct chain c = { 0 };
	struct nfnl_expr_ctx ctx = { .family = NFPROTO_IPV4, .chain = &c };
	int err;

	cr_assert_str_eq(ops->name, "rt");
	err = nfnl_attr_parse_nested(nest, ops->maxattr, ops->policy, tb, NULL);
	if (err)
		return err;
	return ops->parse(&ctx, &rt, tb);
}

static void dump_is_input(void)
{
	struct nfnl_buf b;
	size_t n = nest->nla_len - NLA_HDRLEN;

	nfnl_buf_init(&b);
	nfnl_expr_ops[EXPR_RT]->dump(&b, &rt);
	cr_assert_eq(b.len, n, "dump length %zu, want %zu", b.len, n);
	cr_assert_arr_eq(b.data, msg + NLA_HDRLEN, n);
	nfnl_buf_fini(&b);
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
		dump_is_input();
	}
}

Test(expr_rt, errors_in_the_kernels_order)
{
	put_rt(5, NFT_REG_1);
	cr_assert_eq(parse(), -EOPNOTSUPP);	/* no such key */
	put_rt(256, NFT_REG_1);
	cr_assert_eq(parse(), -ERANGE);		/* NLA_POLICY_MAX(255) */
	begin();
	put32(NFTA_RT_KEY, 256);
	cr_assert_eq(parse(), -ERANGE, "the policy comes before the init");
	begin();
	put32(NFTA_RT_KEY, NFT_RT_CLASSID);
	cr_assert_eq(parse(), -EINVAL);
	begin();
	put32(NFTA_RT_DREG, NFT_REG_1);
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
