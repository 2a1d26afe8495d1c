// SPDX-License-Identifier: GPL-2.0-only
/* numgen.c - netlink side of the numgen expression (nft_numgen.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/numgen.h"

static const struct attr_policy numgen_policy[NFTA_NG_MAX + 1] = {
	[NFTA_NG_DREG] = { .kind = ATTR_U32 },
	[NFTA_NG_MODULUS] = { .kind = ATTR_U32 },
	[NFTA_NG_TYPE] = { .kind = ATTR_U32 },
	[NFTA_NG_OFFSET] = { .kind = ATTR_U32 },
};

static int numgen_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	struct expr_numgen *priv = p;

	(void)ctx;
	/* nft_ng_select_ops */
	if (!tb[NFTA_NG_DREG] || !tb[NFTA_NG_MODULUS] || !tb[NFTA_NG_TYPE])
		return -EINVAL;
	priv->type = nfnl_attr_be32(tb[NFTA_NG_TYPE]);
	if (priv->type != NUMGEN_INC && priv->type != NUMGEN_RANDOM)
		return -EINVAL;
	/* nft_ng_inc_init / nft_ng_random_init */
	if (tb[NFTA_NG_OFFSET])
		priv->offset = nfnl_attr_be32(tb[NFTA_NG_OFFSET]);
	priv->modulus = nfnl_attr_be32(tb[NFTA_NG_MODULUS]);
	if (priv->modulus == 0)
		return -ERANGE;
	if (priv->offset + priv->modulus - 1 < priv->offset)
		return -EOVERFLOW;
	return nfnl_reg_store(tb[NFTA_NG_DREG], &priv->dreg, false, 4);
}

static void numgen_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_numgen *priv = p;

	nfnl_reg_dump(b, NFTA_NG_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_NG_MODULUS, priv->modulus);
	nfnl_put_be32(b, NFTA_NG_TYPE, priv->type);
	nfnl_put_be32(b, NFTA_NG_OFFSET, priv->offset);
}

const struct nfnl_expr_ops nfnl_expr_numgen = {
	.type = EXPR_NUMGEN,
	.name = "numgen",
	.maxattr = NFTA_NG_MAX,
	.policy = numgen_policy,
	.parse = numgen_parse,
	.dump = numgen_dump,
};
