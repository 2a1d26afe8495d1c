// SPDX-License-Identifier: GPL-2.0-only
/* range.c - model operations of the range expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/range.h"

const struct ruleset_expr_ops ruleset_expr_range = {
	.name = "range",
	.size = sizeof(struct expr_range),
};
