// SPDX-License-Identifier: GPL-2.0-only
/* objref.c - netlink side of the objref expression (nft_objref.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "ruleset_api.h"
#include "expr/objref.h"

static const struct attr_policy objref_policy[NFTA_OBJREF_MAX + 1] = {
	[NFTA_OBJREF_IMM_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_OBJREF_IMM_TYPE] = { .kind = ATTR_U32 },
	[NFTA_OBJREF_SET_SREG] = { .kind = ATTR_U32 },
	[NFTA_OBJREF_SET_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_OBJREF_SET_ID] = { .kind = ATTR_U32 },
};

/* nft_objref_map_init() */
static int objref_map_parse(const struct nfnl_expr_ctx *ctx,
			    struct expr_objref *priv, const struct nlattr **tb)
{
	struct set *s;
	int err;

	s = nfnl_set_lookup_global(ctx, tb[NFTA_OBJREF_SET_NAME],
				   tb[NFTA_OBJREF_SET_ID]);
	if (!s)
		return -ENOENT;
	if (!(s->flags & NFT_SET_OBJECT))
		return -EINVAL;
	err = nfnl_reg_load(tb[NFTA_OBJREF_SET_SREG], &priv->sreg, s->klen);
	if (err)
		return err;
	/* nf_tables_bind_set(): an anonymous set binds to one rule only */
	if ((s->flags & NFT_SET_ANONYMOUS) && s->use)
		return -EBUSY;
	priv->set = s;
	return 0;
}

/* nft_objref_select_ops(), then nft_objref_init() or the map form */
static int objref_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	struct expr_objref *priv = p;
	char name[NAME_MAXLEN];

	if (tb[NFTA_OBJREF_SET_SREG] &&
	    (tb[NFTA_OBJREF_SET_NAME] || tb[NFTA_OBJREF_SET_ID]))
		return objref_map_parse(ctx, priv, tb);
	if (!tb[NFTA_OBJREF_IMM_NAME] || !tb[NFTA_OBJREF_IMM_TYPE])
		return -EOPNOTSUPP;
	nfnl_attr_strlcpy(name, tb[NFTA_OBJREF_IMM_NAME], sizeof(name));
	priv->obj = ruleset_obj_lookup(ctx->table, name,
				       nfnl_attr_be32(tb[NFTA_OBJREF_IMM_TYPE]),
				       genmask_next(ctx->net));
	return priv->obj ? 0 : -ENOENT;
}

static void objref_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_objref *priv = p;

	if (priv->set) {
		nfnl_reg_dump(b, NFTA_OBJREF_SET_SREG, priv->sreg);
		nfnl_put_str(b, NFTA_OBJREF_SET_NAME, priv->set->name);
		return;
	}
	nfnl_put_str(b, NFTA_OBJREF_IMM_NAME, priv->obj->name);
	nfnl_put_be32(b, NFTA_OBJREF_IMM_TYPE, priv->obj->type);
}

const struct nfnl_expr_ops nfnl_expr_objref = {
	.type = EXPR_OBJREF,
	.name = "objref",
	.maxattr = NFTA_OBJREF_MAX,
	.policy = objref_policy,
	.parse = objref_parse,
	.dump = objref_dump,
};
