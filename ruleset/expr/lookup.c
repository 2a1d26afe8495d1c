// SPDX-License-Identifier: GPL-2.0-only
/* lookup.c - model operations of lookup: it holds its set. */
#include "ruleset.h"
#include "ruleset_expr.h"
#include "expr/lookup.h"

static void lookup_activate(struct expr *e)
{
	struct expr_lookup *priv = expr_priv(e);

	priv->set->use++;
}

static void lookup_deactivate(struct expr *e)
{
	struct expr_lookup *priv = expr_priv(e);

	priv->set->use--;
}

const struct ruleset_expr_ops ruleset_expr_lookup = {
	.name = "lookup",
	.size = sizeof(struct expr_lookup),
	.activate = lookup_activate,
	.deactivate = lookup_deactivate,
};
