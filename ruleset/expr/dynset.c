// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynset.c - model operations of dynset: like lookup, it holds its set
 * (nf_tables_bind_set / nf_tables_deactivate_set).
 */
#include "ruleset.h"
#include "ruleset_expr.h"
#include "expr/dynset.h"

static void dynset_activate(struct expr *e)
{
	struct expr_dynset *priv = expr_priv(e);
	struct set *s = priv->set;

	s->use++;
	if (s->flags & NFT_SET_ANONYMOUS_)
		s->genmask &= ~genmask_next(s->table->net);
}

static void dynset_deactivate(struct expr *e)
{
	struct expr_dynset *priv = expr_priv(e);
	struct set *s = priv->set;

	s->use--;
	if ((s->flags & NFT_SET_ANONYMOUS_) && !s->use)
		s->genmask |= genmask_next(s->table->net);
}

const struct ruleset_expr_ops ruleset_expr_dynset = {
	.name = "dynset",
	.size = sizeof(struct expr_dynset),
	.activate = dynset_activate,
	.deactivate = dynset_deactivate,
};
