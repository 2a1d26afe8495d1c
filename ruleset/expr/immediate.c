// SPDX-License-Identifier: GPL-2.0-only
/* immediate.c - model operations of immediate: a jump/goto holds its chain. */
#include "ruleset.h"
#include "ruleset_expr.h"
#include "expr/immediate.h"

static void immediate_activate(struct expr *e)
{
	struct expr_immediate *priv = expr_priv(e);

	if (priv->dreg == REG_VERDICT && priv->verdict.chain)
		priv->verdict.chain->use++;
}

static void immediate_deactivate(struct expr *e)
{
	struct expr_immediate *priv = expr_priv(e);

	if (priv->dreg == REG_VERDICT && priv->verdict.chain)
		priv->verdict.chain->use--;
}

const struct ruleset_expr_ops ruleset_expr_immediate = {
	.name = "immediate",
	.size = sizeof(struct expr_immediate),
	.activate = immediate_activate,
	.deactivate = immediate_deactivate,
};
