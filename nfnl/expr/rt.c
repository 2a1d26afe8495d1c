// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt.c - netlink side of the rt expression (nft_rt.c): nft_rt_get_init()'s
 * checks in its order (the reference kernel has CONFIG_IP_ROUTE_CLASSID
 * and CONFIG_XFRM: every key exists), its dump, and nft_rt_validate().
 */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/rt.h"

static const struct attr_policy rt_policy[NFTA_RT_MAX + 1] = {
	[NFTA_RT_DREG] = { .kind = ATTR_U32 },
	[NFTA_RT_KEY] = { .kind = ATTR_U32 },
};

static int rt_parse(const struct nfnl_expr_ctx *ctx, void *p,
		    const struct nlattr **tb)
{
	struct expr_rt *priv = p;
	uint32_t key;
	int err;

	(void)ctx;
	/* NLA_POLICY_MAX(NLA_BE32, 255): checked with the policy, first */
	if (tb[NFTA_RT_KEY]) {
		err = nfnl_u32_check(tb[NFTA_RT_KEY], 255, &key);
		if (err)
			return err;
	}
	if (!tb[NFTA_RT_KEY] || !tb[NFTA_RT_DREG])
		return -EINVAL;
	switch (key) {
	case RT_CLASSID:
	case RT_NEXTHOP4:
		priv->len = 4;
		break;
	case RT_NEXTHOP6:
		priv->len = 16;
		break;
	case RT_TCPMSS:
		priv->len = 2;
		break;
	case RT_XFRM:
		priv->len = 1;
		break;
	default:
		return -EOPNOTSUPP;
	}
	priv->key = (uint8_t)key;
	return nfnl_reg_store(tb[NFTA_RT_DREG], &priv->dreg, false, priv->len);
}

static void rt_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_rt *priv = p;

	nfnl_put_be32(b, NFTA_RT_KEY, priv->key);
	nfnl_reg_dump(b, NFTA_RT_DREG, priv->dreg);
}

/* nft_rt_validate(): ip, ip6 and inet only; the path MSS where there is
 * a route to the destination (forward, output, postrouting) */
static int rt_validate(const void *p, uint8_t family, uint32_t hooknum)
{
	const struct expr_rt *priv = p;

	if (family != NFPROTO_IPV4 && family != NFPROTO_IPV6 &&
	    family != NFPROTO_INET)
		return -EOPNOTSUPP;
	if (priv->key != RT_TCPMSS)
		return 0;
	return hooknum == NF_INET_FORWARD || hooknum == NF_INET_LOCAL_OUT ||
	       hooknum == NF_INET_POST_ROUTING ? 0 : -EOPNOTSUPP;
}

const struct nfnl_expr_ops nfnl_expr_rt = {
	.type = EXPR_RT,
	.name = "rt",
	.maxattr = NFTA_RT_MAX,
	.policy = rt_policy,
	.parse = rt_parse,
	.dump = rt_dump,
	.validate = rt_validate,
};
