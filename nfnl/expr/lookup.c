// SPDX-License-Identifier: GPL-2.0-only
/* lookup.c - netlink side of the lookup expression (nft_lookup.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "ruleset_api.h"
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
	struct expr_lookup *priv = p;
	struct set *s;
	uint32_t flags;
	int err;

	if (!tb[NFTA_LOOKUP_SET] || !tb[NFTA_LOOKUP_SREG])
		return -EINVAL;
	s = nfnl_set_lookup_global(ctx, tb[NFTA_LOOKUP_SET], tb[NFTA_LOOKUP_SET_ID]);
	if (!s)
		return -ENOENT;
	err = nfnl_reg_load(tb[NFTA_LOOKUP_SREG], &priv->sreg, s->klen);
	if (err)
		return err;
	if (tb[NFTA_LOOKUP_FLAGS]) {
		flags = nfnl_attr_be32(tb[NFTA_LOOKUP_FLAGS]);
		if (flags & ~NFT_LOOKUP_F_INV)
			return -EINVAL;
		priv->invert = flags & NFT_LOOKUP_F_INV;
	}
	if (tb[NFTA_LOOKUP_DREG]) {
		if (priv->invert)
			return -EINVAL;
		if (!(s->flags & NFT_SET_MAP))
			return -EINVAL;
		err = nfnl_reg_store(tb[NFTA_LOOKUP_DREG], &priv->dreg,
				     s->dtype == NFT_DATA_VERDICT, s->dlen);
		if (err)
			return err;
		priv->has_dreg = true;
	} else if ((s->flags & NFT_SET_MAP) && (s->flags & NFT_SET_ANONYMOUS)) {
		return -EINVAL;
	}
	/* nf_tables_bind_set(): an anonymous set binds to one rule only */
	if ((s->flags & NFT_SET_ANONYMOUS) && s->use)
		return -EBUSY;
	priv->set = s;
	return 0;
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
