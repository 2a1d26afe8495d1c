// SPDX-License-Identifier: GPL-2.0-only
/* byteorder.c - netlink side of the byteorder expression (nft_byteorder.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/byteorder.h"

static const struct attr_policy byteorder_policy[NFTA_BYTEORDER_MAX + 1] = {
	[NFTA_BYTEORDER_SREG] = { .kind = ATTR_U32 },
	[NFTA_BYTEORDER_DREG] = { .kind = ATTR_U32 },
	[NFTA_BYTEORDER_OP] = { .kind = ATTR_U32 },
	[NFTA_BYTEORDER_LEN] = { .kind = ATTR_U32 },
	[NFTA_BYTEORDER_SIZE] = { .kind = ATTR_U32 },
};

static int byteorder_parse(const struct nfnl_expr_ctx *ctx, void *p,
			   const struct nlattr **tb)
{
	struct expr_byteorder *priv = p;
	uint32_t op;
	int err;

	(void)ctx;
	if (!tb[NFTA_BYTEORDER_SREG] || !tb[NFTA_BYTEORDER_DREG] ||
	    !tb[NFTA_BYTEORDER_LEN] || !tb[NFTA_BYTEORDER_SIZE] ||
	    !tb[NFTA_BYTEORDER_OP])
		return -EINVAL;
	op = nfnl_attr_be32(tb[NFTA_BYTEORDER_OP]);
	if (op != NFT_BYTEORDER_NTOH && op != NFT_BYTEORDER_HTON)
		return -EINVAL;
	priv->op = op == NFT_BYTEORDER_NTOH ? BYTEORDER_NTOH : BYTEORDER_HTON;
	err = nfnl_u32_check(tb[NFTA_BYTEORDER_SIZE], 0xff, &priv->size);
	if (err)
		return err;
	if (priv->size != 2 && priv->size != 4 && priv->size != 8)
		return -EINVAL;
	err = nfnl_u32_check(tb[NFTA_BYTEORDER_LEN], 0xff, &priv->len);
	if (err)
		return err;
	/*
	 * No len % size check: nft emits hton(len 1, size 2) for 'meta
	 * l4proto' in concatenations and the kernel takes it (a no-op).
	 */
	err = nfnl_reg_load(tb[NFTA_BYTEORDER_SREG], &priv->sreg, priv->len);
	if (err)
		return err;
	return nfnl_reg_store(tb[NFTA_BYTEORDER_DREG], &priv->dreg, false, priv->len);
}

static void byteorder_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_byteorder *priv = p;

	nfnl_reg_dump(b, NFTA_BYTEORDER_SREG, priv->sreg);
	nfnl_reg_dump(b, NFTA_BYTEORDER_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_BYTEORDER_OP, priv->op == BYTEORDER_NTOH ?
					    NFT_BYTEORDER_NTOH : NFT_BYTEORDER_HTON);
	nfnl_put_be32(b, NFTA_BYTEORDER_LEN, priv->len);
	nfnl_put_be32(b, NFTA_BYTEORDER_SIZE, priv->size);
}

const struct nfnl_expr_ops nfnl_expr_byteorder = {
	.type = EXPR_BYTEORDER,
	.name = "byteorder",
	.maxattr = NFTA_BYTEORDER_MAX,
	.policy = byteorder_policy,
	.parse = byteorder_parse,
	.dump = byteorder_dump,
};
