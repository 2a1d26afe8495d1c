// SPDX-License-Identifier: GPL-2.0-only
/*
 * objref.c - model operations of objref: it holds its object (obj->use),
 * or binds its object map as lookup binds its set (nft_objref_map_activate).
 */
#include "ruleset.h"
#include "object.h"
#include "ruleset_expr.h"
#include "expr/objref.h"

static void objref_activate(struct expr *e)
{
	struct expr_objref *priv = expr_priv(e);
	struct set *s = priv->set;

	if (!s) {
		priv->obj->use++;
		return;
	}
	s->use++;
	if (s->flags & NFT_SET_ANONYMOUS_)
		s->genmask &= ~genmask_next(s->table->net);
}

static void objref_deactivate(struct expr *e)
{
	struct expr_objref *priv = expr_priv(e);
	struct set *s = priv->set;

	if (!s) {
		priv->obj->use--;
		return;
	}
	s->use--;
	if ((s->flags & NFT_SET_ANONYMOUS_) && !s->use)
		s->genmask |= genmask_next(s->table->net);
}

static struct set *objref_bound_set(const struct expr *e)
{
	const struct expr_objref *priv = expr_priv(e);

	return priv->set;
}

const struct ruleset_expr_ops ruleset_expr_objref = {
	.name = "objref",
	.size = sizeof(struct expr_objref),
	.activate = objref_activate,
	.deactivate = objref_deactivate,
	.bound_set = objref_bound_set,
};
