// SPDX-License-Identifier: GPL-2.0-only
/* bitwise.c - netlink side of the bitwise expression (nft_bitwise.c). */
#include <errno.h>
#include <string.h>
#include "nfnl_expr.h"
#include "expr/bitwise.h"

static const struct attr_policy bitwise_policy[NFTA_BITWISE_MAX + 1] = {
	[NFTA_BITWISE_SREG] = { .kind = ATTR_U32 },
	[NFTA_BITWISE_DREG] = { .kind = ATTR_U32 },
	[NFTA_BITWISE_LEN] = { .kind = ATTR_U32 },
	[NFTA_BITWISE_MASK] = { .kind = ATTR_NESTED },
	[NFTA_BITWISE_XOR] = { .kind = ATTR_NESTED },
	[NFTA_BITWISE_OP] = { .kind = ATTR_U32 },
	[NFTA_BITWISE_DATA] = { .kind = ATTR_NESTED },
};

static int bitwise_parse(const struct nfnl_expr_ctx *ctx, void *p,
			 const struct nlattr **tb)
{
	struct expr_bitwise *priv = p;
	struct data_value shift;
	int err;

	(void)ctx;
	if (!tb[NFTA_BITWISE_SREG] || !tb[NFTA_BITWISE_DREG] ||
	    !tb[NFTA_BITWISE_LEN])
		return -EINVAL;
	err = nfnl_u32_check(tb[NFTA_BITWISE_LEN], 0xff, &priv->len);
	if (err)
		return err;
	err = nfnl_reg_load(tb[NFTA_BITWISE_SREG], &priv->sreg, priv->len);
	if (err)
		return err;
	err = nfnl_reg_store(tb[NFTA_BITWISE_DREG], &priv->dreg, false, priv->len);
	if (err)
		return err;
	priv->op = tb[NFTA_BITWISE_OP] ? nfnl_attr_be32(tb[NFTA_BITWISE_OP]) :
					 NFT_BITWISE_BOOL;
	switch (priv->op) {
	case NFT_BITWISE_BOOL:
		if (tb[NFTA_BITWISE_DATA])
			return -EINVAL;
		if (!tb[NFTA_BITWISE_MASK] || !tb[NFTA_BITWISE_XOR])
			return -EINVAL;
		err = nfnl_data_value_parse(tb[NFTA_BITWISE_MASK], &priv->mask,
					    16, priv->len);
		if (err)
			return err;
		return nfnl_data_value_parse(tb[NFTA_BITWISE_XOR], &priv->xor,
					     16, priv->len);
	case NFT_BITWISE_LSHIFT:
	case NFT_BITWISE_RSHIFT:
		if (tb[NFTA_BITWISE_MASK] || tb[NFTA_BITWISE_XOR])
			return -EINVAL;
		if (!tb[NFTA_BITWISE_DATA])
			return -EINVAL;
		err = nfnl_data_value_parse(tb[NFTA_BITWISE_DATA], &shift, 16, 4);
		if (err)
			return err;
		memcpy(&priv->shift, shift.v, 4);	/* host order, as the kernel */
		if (priv->shift >= 32)
			return -EINVAL;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static void bitwise_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_bitwise *priv = p;

	nfnl_reg_dump(b, NFTA_BITWISE_SREG, priv->sreg);
	nfnl_reg_dump(b, NFTA_BITWISE_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_BITWISE_LEN, priv->len);
	nfnl_put_be32(b, NFTA_BITWISE_OP, priv->op);
	if (priv->op == NFT_BITWISE_BOOL) {
		nfnl_data_value_dump(b, NFTA_BITWISE_MASK, &priv->mask);
		nfnl_data_value_dump(b, NFTA_BITWISE_XOR, &priv->xor);
	} else {
		struct data_value shift = { .len = 4 };

		memcpy(shift.v, &priv->shift, 4);
		nfnl_data_value_dump(b, NFTA_BITWISE_DATA, &shift);
	}
}

const struct nfnl_expr_ops nfnl_expr_bitwise = {
	.type = EXPR_BITWISE,
	.name = "bitwise",
	.maxattr = NFTA_BITWISE_MAX,
	.policy = bitwise_policy,
	.parse = bitwise_parse,
	.dump = bitwise_dump,
};
