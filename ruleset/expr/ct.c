// SPDX-License-Identifier: GPL-2.0-only
/* ct.c - model operations of the conntrack expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/ct.h"

const struct ruleset_expr_ops ruleset_expr_ct = {
	.name = "ct",
	.size = sizeof(struct expr_ct),
};
