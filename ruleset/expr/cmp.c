// SPDX-License-Identifier: GPL-2.0-only
/* cmp.c - model operations of the cmp expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/cmp.h"

const struct ruleset_expr_ops ruleset_expr_cmp = {
	.name = "cmp",
	.size = sizeof(struct expr_cmp),
};
