// SPDX-License-Identifier: GPL-2.0-only
/*
 * dup.c - netlink side of the dup expression of the netdev family
 * (nft_dup_netdev.c). The ip and ip6 families' dup (nft_dup_ipv4.c, to an
 * address) is another kernel expression type of the same name: refused.
 */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/dup.h"

#define NFPROTO_IPV4_	2
#define NFPROTO_NETDEV_	5
#define NFPROTO_IPV6_	10

static const struct attr_policy dup_policy[NFTA_DUP_MAX + 1] = {
	[NFTA_DUP_SREG_ADDR] = { .kind = ATTR_U32 },
	[NFTA_DUP_SREG_DEV] = { .kind = ATTR_U32 },
};

static int dup_parse(const struct nfnl_expr_ctx *ctx, void *p,
		     const struct nlattr **tb)
{
	struct expr_dup *priv = p;

	/* nft_dup_ipv4/ipv6 exist for ip and ip6 only: no dup elsewhere */
	if (ctx->family != NFPROTO_NETDEV_ && ctx->family != NFPROTO_IPV4_ &&
	    ctx->family != NFPROTO_IPV6_)
		return -ENOENT;
	if (ctx->family != NFPROTO_NETDEV_) {
		extack_copy(ctx->ext, "nfbpfd: expression 'dup' is not supported yet",
			    NULL);
		return -EOPNOTSUPP;
	}
	/* nft_dup_netdev_init() */
	if (!tb[NFTA_DUP_SREG_DEV])
		return -EINVAL;
	return nfnl_reg_load(tb[NFTA_DUP_SREG_DEV], &priv->sreg_dev, 4);
}

static void dup_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_dup *priv = p;

	nfnl_reg_dump(b, NFTA_DUP_SREG_DEV, priv->sreg_dev);
}

const struct nfnl_expr_ops nfnl_expr_dup = {
	.type = EXPR_DUP,
	.name = "dup",
	.maxattr = NFTA_DUP_MAX,
	.policy = dup_policy,
	.parse = dup_parse,
	.dump = dup_dump,
};
