// SPDX-License-Identifier: GPL-2.0-only
/*
 * lookup.c - model operations of lookup: it holds its set. An anonymous
 * set lives and dies with the one rule bound to it (nf_tables_deactivate_set):
 * it leaves the next generation with the rule and is freed at commit.
 */
#include "ruleset.h"
#include "ruleset_expr.h"
#include "expr/lookup.h"

static void lookup_activate(struct expr *e)
{
	struct expr_lookup *priv = expr_priv(e);
	struct set *s = priv->set;

	s->use++;
	if (s->flags & NFT_SET_ANONYMOUS_)
		s->genmask &= ~genmask_next(s->table->net);
}

static void lookup_deactivate(struct expr *e)
{
	struct expr_lookup *priv = expr_priv(e);
	struct set *s = priv->set;

	s->use--;
	if ((s->flags & NFT_SET_ANONYMOUS_) && !s->use)
		s->genmask |= genmask_next(s->table->net);
}

static struct set *lookup_bound_set(const struct expr *e)
{
	const struct expr_lookup *priv = expr_priv(e);

	return priv->set;
}

const struct ruleset_expr_ops ruleset_expr_lookup = {
	.name = "lookup",
	.size = sizeof(struct expr_lookup),
	.activate = lookup_activate,
	.deactivate = lookup_deactivate,
	.bound_set = lookup_bound_set,
};
