// SPDX-License-Identifier: GPL-2.0-only
/* limit.c - model operations of the limit expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/limit.h"

const struct ruleset_expr_ops ruleset_expr_limit = {
	.name = "limit",
	.size = sizeof(struct expr_limit),
};
