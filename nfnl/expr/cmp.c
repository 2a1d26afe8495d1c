// SPDX-License-Identifier: GPL-2.0-only
/* cmp.c - netlink side of the cmp expression (nft_cmp.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/cmp.h"

static const struct attr_policy cmp_policy[NFTA_CMP_MAX + 1] = {
	[NFTA_CMP_SREG] = { .kind = ATTR_U32 },
	[NFTA_CMP_OP] = { .kind = ATTR_U32 },
	[NFTA_CMP_DATA] = { .kind = ATTR_NESTED },
};

static int cmp_parse(const struct nfnl_expr_ctx *ctx, void *p,
		     const struct nlattr **tb)
{
	struct expr_cmp *priv = p;
	uint32_t op;
	int err;

	(void)ctx;
	if (!tb[NFTA_CMP_SREG] || !tb[NFTA_CMP_OP] || !tb[NFTA_CMP_DATA])
		return -EINVAL;
	op = nfnl_attr_be32(tb[NFTA_CMP_OP]);
	if (op > NFT_CMP_GTE)
		return -EINVAL;
	err = nfnl_data_value_parse(tb[NFTA_CMP_DATA], &priv->data, 16, 0);
	if (err)
		return err;
	priv->op = op;	/* enum cmp_op follows the kernel's numbering */
	return nfnl_reg_load(tb[NFTA_CMP_SREG], &priv->sreg, priv->data.len);
}

static void cmp_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_cmp *priv = p;

	nfnl_reg_dump(b, NFTA_CMP_SREG, priv->sreg);
	nfnl_put_be32(b, NFTA_CMP_OP, priv->op);
	nfnl_data_value_dump(b, NFTA_CMP_DATA, &priv->data);
}

const struct nfnl_expr_ops nfnl_expr_cmp = {
	.type = EXPR_CMP,
	.name = "cmp",
	.maxattr = NFTA_CMP_MAX,
	.policy = cmp_policy,
	.parse = cmp_parse,
	.dump = cmp_dump,
};
