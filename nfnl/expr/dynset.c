// SPDX-License-Identifier: GPL-2.0-only
/* dynset.c - netlink side of the dynset expression (nft_dynset.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nfnl_expr.h"
#include "ruleset_api.h"
#include "expr/dynset.h"

static const struct attr_policy dynset_policy[NFTA_DYNSET_MAX + 1] = {
	[NFTA_DYNSET_SET_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_DYNSET_SET_ID] = { .kind = ATTR_U32 },
	[NFTA_DYNSET_OP] = { .kind = ATTR_U32 },
	[NFTA_DYNSET_SREG_KEY] = { .kind = ATTR_U32 },
	[NFTA_DYNSET_SREG_DATA] = { .kind = ATTR_U32 },
	[NFTA_DYNSET_TIMEOUT] = { .kind = ATTR_U64 },
	[NFTA_DYNSET_EXPR] = { .kind = ATTR_NESTED },
	[NFTA_DYNSET_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_DYNSET_EXPRESSIONS] = { .kind = ATTR_NESTED },
};

/* the set's expression at @pos, NULL if none */
static const struct expr *set_expr_at(const struct set *s, uint32_t pos)
{
	const struct expr *e;
	uint32_t i = 0;

	expr_for_each_in(e, s->exprs, s->exprs_len)
		if (i++ == pos)
			return e;
	return NULL;
}

/*
 * nft_dynset_expr_alloc(): one stateful expression into @buf; at @pos the
 * set's expression (if any) must be of the same type
 */
static int dynset_expr_parse(const struct nfnl_expr_ctx *ctx, const struct set *s,
			     const struct nlattr *a, uint32_t pos,
			     struct expr **buf, uint32_t *len)
{
	const struct expr *se = set_expr_at(s, pos);
	uint16_t type;
	int err;

	err = nfnl_expr_stateful_parse(ctx, a, s->flags, buf, len, &type);
	if (err)
		return err;
	if (se && se->type != type)
		return -EOPNOTSUPP;
	return 0;
}

static int dynset_exprs(const struct nfnl_expr_ctx *ctx, struct expr_dynset *priv,
			const struct set *s, const struct nlattr **tb, bool fexpr)
{
	struct expr *buf = NULL;
	const struct nlattr *a;
	uint32_t len = 0, n = 0;
	size_t left;
	int err = 0;

	if (tb[NFTA_DYNSET_EXPR]) {
		err = dynset_expr_parse(ctx, s, tb[NFTA_DYNSET_EXPR], 0, &buf, &len);
		if (!err) {
			n = 1;
			if (s->nexprs > 1)
				err = -EOPNOTSUPP;
		}
	} else if (tb[NFTA_DYNSET_EXPRESSIONS]) {
		if (!fexpr)
			return -EINVAL;
		nfnl_attr_for_each_nested(a, tb[NFTA_DYNSET_EXPRESSIONS], left) {
			if (n == SET_EXPRS_MAX) {
				err = -E2BIG;
				break;
			}
			if ((a->nla_type & NLA_TYPE_MASK) != NFTA_LIST_ELEM) {
				err = -EINVAL;
				break;
			}
			err = dynset_expr_parse(ctx, s, a, n, &buf, &len);
			if (err)
				break;
			n++;
		}
		if (!err && s->nexprs && s->nexprs != n)
			err = -EOPNOTSUPP;
	} else if (s->nexprs) {
		/* nft_set_elem_expr_clone(): the set's */
		buf = malloc(s->exprs_len);
		if (!buf)
			return -ENOMEM;
		memcpy(buf, s->exprs, s->exprs_len);
		len = s->exprs_len;
		n = s->nexprs;
	}
	if (!err && len > sizeof(priv->exprs))
		err = -EOPNOTSUPP;
	if (!err && len) {
		memcpy(priv->exprs, buf, len);
		priv->exprs_len = len;
		priv->nexprs = n;
	}
	free(buf);
	return err;
}

static int dynset_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	struct expr_dynset *priv = p;
	bool fexpr = false;
	uint32_t op;
	struct set *s;
	int err;

	if (!tb[NFTA_DYNSET_SET_NAME] || !tb[NFTA_DYNSET_OP] ||
	    !tb[NFTA_DYNSET_SREG_KEY])
		return -EINVAL;
	if (tb[NFTA_DYNSET_FLAGS]) {
		uint32_t flags = nfnl_attr_be32(tb[NFTA_DYNSET_FLAGS]);

		if (flags & ~(NFT_DYNSET_F_INV | NFT_DYNSET_F_EXPR))
			return -EOPNOTSUPP;
		priv->invert = flags & NFT_DYNSET_F_INV;
		fexpr = flags & NFT_DYNSET_F_EXPR;
	}
	s = nfnl_set_lookup_global(ctx, tb[NFTA_DYNSET_SET_NAME], tb[NFTA_DYNSET_SET_ID]);
	if (!s)
		return -ENOENT;
	/*
	 * set->ops->update: only the kernel's rhash backend has it; interval
	 * sets are rbtree/pipapo, and a set of keys of 2 bytes or less that
	 * is not dynamic gets the bitmap
	 */
	if ((s->flags & NFT_SET_INTERVAL) ||
	    (!(s->flags & NFT_SET_EVAL) && s->klen <= 2))
		return -EOPNOTSUPP;
	if (s->flags & NFT_SET_CONSTANT)
		return -EBUSY;
	/* update needs no timeout flag since 5.15 (7b1394892de8): on a set
	 * without timeouts it is add */
	op = nfnl_attr_be32(tb[NFTA_DYNSET_OP]);
	if (op > NFT_DYNSET_OP_DELETE)
		return -EOPNOTSUPP;
	priv->op = op;
	if (tb[NFTA_DYNSET_TIMEOUT]) {
		if (!(s->flags & NFT_SET_TIMEOUT))
			return -EOPNOTSUPP;
		err = ruleset_msecs_to_jiffies(nfnl_attr_be64(tb[NFTA_DYNSET_TIMEOUT]),
					       &priv->timeout);
		if (err)
			return err;
	}
	err = nfnl_reg_load(tb[NFTA_DYNSET_SREG_KEY], &priv->sreg_key, s->klen);
	if (err)
		return err;
	if (tb[NFTA_DYNSET_SREG_DATA]) {
		if (!(s->flags & NFT_SET_MAP) || s->dtype == NFT_DATA_VERDICT)
			return -EOPNOTSUPP;
		err = nfnl_reg_load(tb[NFTA_DYNSET_SREG_DATA], &priv->sreg_data,
				    s->dlen);
		if (err)
			return err;
		priv->has_data = true;
	} else if (s->flags & NFT_SET_MAP) {
		return -EINVAL;
	}
	if ((tb[NFTA_DYNSET_EXPR] || tb[NFTA_DYNSET_EXPRESSIONS]) &&
	    !(s->flags & NFT_SET_EVAL))
		return -EINVAL;
	err = dynset_exprs(ctx, priv, s, tb, fexpr);
	if (err)
		return err;
	/* nf_tables_bind_set(): an anonymous set binds to one rule only */
	if ((s->flags & NFT_SET_ANONYMOUS) && s->use)
		return -EBUSY;
	/* the kernel sizes a set a dynset binds (never undone) */
	if (!s->size)
		s->size = 0xffff;
	priv->set = s;
	return 0;
}

static void dynset_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_dynset *priv = p;
	const struct expr *e = (const struct expr *)priv->exprs;

	nfnl_reg_dump(b, NFTA_DYNSET_SREG_KEY, priv->sreg_key);
	if (priv->set->flags & NFT_SET_MAP)
		nfnl_reg_dump(b, NFTA_DYNSET_SREG_DATA, priv->sreg_data);
	nfnl_put_be32(b, NFTA_DYNSET_OP, priv->op);
	nfnl_put_str(b, NFTA_DYNSET_SET_NAME, priv->set->name);
	nfnl_put_be64(b, NFTA_DYNSET_TIMEOUT, ruleset_jiffies_to_msecs(priv->timeout));
	/* the expressions only where they are not the set's */
	if (!priv->set->nexprs && priv->nexprs == 1) {
		nfnl_expr_fill(b, NULL, NFTA_DYNSET_EXPR, e);
	} else if (!priv->set->nexprs && priv->nexprs > 1) {
		size_t nest = nfnl_nest_start(b, NFTA_DYNSET_EXPRESSIONS);

		expr_for_each_in(e, (const struct expr *)priv->exprs, priv->exprs_len)
			nfnl_expr_fill(b, NULL, NFTA_LIST_ELEM, e);
		nfnl_nest_end(b, nest);
	}
	nfnl_put_be32(b, NFTA_DYNSET_FLAGS, priv->invert ? NFT_DYNSET_F_INV : 0);
}

const struct nfnl_expr_ops nfnl_expr_dynset = {
	.type = EXPR_DYNSET,
	.name = "dynset",
	.maxattr = NFTA_DYNSET_MAX,
	.policy = dynset_policy,
	.parse = dynset_parse,
	.dump = dynset_dump,
};
