// SPDX-License-Identifier: GPL-2.0-only
/*
 * lookup.c - netlink side of the lookup expression (nft_lookup.c).
 *
 * Sets are not modelled by nfbpfd yet (nfnl/set.c does not exist): every
 * lookup is refused with EOPNOTSUPP and a message, never accepted blindly.
 */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/lookup.h"

static const struct attr_policy lookup_policy[NFTA_LOOKUP_MAX + 1] = {
	[NFTA_LOOKUP_SET] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_LOOKUP_SET_ID] = { .kind = ATTR_U32 },
	[NFTA_LOOKUP_SREG] = { .kind = ATTR_U32 },
	[NFTA_LOOKUP_DREG] = { .kind = ATTR_U32 },
	[NFTA_LOOKUP_FLAGS] = { .kind = ATTR_U32 },
};

static int lookup_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	(void)p;
	if (!tb[NFTA_LOOKUP_SET] || !tb[NFTA_LOOKUP_SREG])
		return -EINVAL;
	extack_set(ctx->ext, "nfbpfd: sets are not supported yet", NULL);
	return -EOPNOTSUPP;
}

static void lookup_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_lookup *priv = p;

	nfnl_put_str(b, NFTA_LOOKUP_SET, priv->set->name);
	nfnl_reg_dump(b, NFTA_LOOKUP_SREG, priv->sreg);
	if (priv->has_dreg)
		nfnl_reg_dump(b, NFTA_LOOKUP_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_LOOKUP_FLAGS, priv->invert ? NFT_LOOKUP_F_INV : 0);
}

const struct nfnl_expr_ops nfnl_expr_lookup = {
	.type = EXPR_LOOKUP,
	.name = "lookup",
	.maxattr = NFTA_LOOKUP_MAX,
	.policy = lookup_policy,
	.parse = lookup_parse,
	.dump = lookup_dump,
};
