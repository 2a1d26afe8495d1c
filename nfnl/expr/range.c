// SPDX-License-Identifier: GPL-2.0-only
/* range.c - netlink side of the range expression (nft_range.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/range.h"

static const struct attr_policy range_policy[NFTA_RANGE_MAX + 1] = {
	[NFTA_RANGE_SREG] = { .kind = ATTR_U32 },
	[NFTA_RANGE_OP] = { .kind = ATTR_U32 },
	[NFTA_RANGE_FROM_DATA] = { .kind = ATTR_NESTED },
	[NFTA_RANGE_TO_DATA] = { .kind = ATTR_NESTED },
};

static int range_parse(const struct nfnl_expr_ctx *ctx, void *p,
		       const struct nlattr **tb)
{
	struct expr_range *priv = p;
	uint32_t op;
	int err;

	(void)ctx;
	if (!tb[NFTA_RANGE_SREG] || !tb[NFTA_RANGE_OP] ||
	    !tb[NFTA_RANGE_FROM_DATA] || !tb[NFTA_RANGE_TO_DATA])
		return -EINVAL;
	err = nfnl_data_value_parse(tb[NFTA_RANGE_FROM_DATA], &priv->from, 16, 0);
	if (err)
		return err;
	err = nfnl_data_value_parse(tb[NFTA_RANGE_TO_DATA], &priv->to, 16, 0);
	if (err)
		return err;
	if (priv->from.len != priv->to.len)
		return -EINVAL;
	err = nfnl_reg_load(tb[NFTA_RANGE_SREG], &priv->sreg, priv->from.len);
	if (err)
		return err;
	err = nfnl_u32_check(tb[NFTA_RANGE_OP], 0xff, &op);
	if (err)
		return err;
	if (op != NFT_RANGE_EQ && op != NFT_RANGE_NEQ)
		return -EINVAL;
	priv->op = op == NFT_RANGE_EQ ? CMP_EQ : CMP_NEQ;
	return 0;
}

static void range_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_range *priv = p;

	nfnl_reg_dump(b, NFTA_RANGE_SREG, priv->sreg);
	nfnl_put_be32(b, NFTA_RANGE_OP, priv->op == CMP_EQ ? NFT_RANGE_EQ :
							     NFT_RANGE_NEQ);
	nfnl_data_value_dump(b, NFTA_RANGE_FROM_DATA, &priv->from);
	nfnl_data_value_dump(b, NFTA_RANGE_TO_DATA, &priv->to);
}

const struct nfnl_expr_ops nfnl_expr_range = {
	.type = EXPR_RANGE,
	.name = "range",
	.maxattr = NFTA_RANGE_MAX,
	.policy = range_policy,
	.parse = range_parse,
	.dump = range_dump,
};
