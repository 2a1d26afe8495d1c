// SPDX-License-Identifier: GPL-2.0-only
/* fwd.c - netlink side of the fwd expression (nft_fwd_netdev.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/fwd.h"

#define NFPROTO_IPV4_	2
#define NFPROTO_IPV6_	10
#define NFPROTO_NETDEV_	5

static const struct attr_policy fwd_policy[NFTA_FWD_MAX + 1] = {
	[NFTA_FWD_SREG_DEV] = { .kind = ATTR_U32 },
	[NFTA_FWD_SREG_ADDR] = { .kind = ATTR_U32 },
	[NFTA_FWD_NFPROTO] = { .kind = ATTR_U32 },
};

static int fwd_parse(const struct nfnl_expr_ctx *ctx, void *p,
		     const struct nlattr **tb)
{
	struct expr_fwd *priv = p;
	uint32_t addr_len;
	int err;

	/* an expression type of the netdev family only (nft_fwd_netdev_type):
	 * nft_expr_type_get() finds none in another family */
	if (ctx->family != NFPROTO_NETDEV_)
		return -ENOENT;
	/* nft_fwd_select_ops() */
	if (!tb[NFTA_FWD_SREG_ADDR]) {
		if (!tb[NFTA_FWD_SREG_DEV])
			return -EOPNOTSUPP;
		/* nft_fwd_netdev_init() */
		return nfnl_reg_load(tb[NFTA_FWD_SREG_DEV], &priv->sreg_dev, 4);
	}
	/* nft_fwd_neigh_init() */
	if (!tb[NFTA_FWD_SREG_DEV] || !tb[NFTA_FWD_NFPROTO])
		return -EINVAL;
	priv->neigh = true;
	if (nfnl_attr_be32(tb[NFTA_FWD_NFPROTO]) > 255)
		return -ERANGE;	/* NLA_POLICY_MAX(NLA_BE32, 255) */
	priv->nfproto = nfnl_attr_be32(tb[NFTA_FWD_NFPROTO]);
	switch (priv->nfproto) {
	case NFPROTO_IPV4_:
		addr_len = 4;
		break;
	case NFPROTO_IPV6_:
		addr_len = 16;
		break;
	default:
		return -EOPNOTSUPP;
	}
	err = nfnl_reg_load(tb[NFTA_FWD_SREG_DEV], &priv->sreg_dev, 4);
	if (err)
		return err;
	return nfnl_reg_load(tb[NFTA_FWD_SREG_ADDR], &priv->sreg_addr, addr_len);
}

static void fwd_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_fwd *priv = p;

	nfnl_reg_dump(b, NFTA_FWD_SREG_DEV, priv->sreg_dev);
	if (!priv->neigh)
		return;
	nfnl_reg_dump(b, NFTA_FWD_SREG_ADDR, priv->sreg_addr);
	nfnl_put_be32(b, NFTA_FWD_NFPROTO, priv->nfproto);
}

const struct nfnl_expr_ops nfnl_expr_fwd = {
	.type = EXPR_FWD,
	.name = "fwd",
	.maxattr = NFTA_FWD_MAX,
	.policy = fwd_policy,
	.parse = fwd_parse,
	.dump = fwd_dump,
};
