// SPDX-License-Identifier: GPL-2.0-only
/* counter.c - model operations of the counter expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/counter.h"

const struct ruleset_expr_ops ruleset_expr_counter = {
	.name = "counter",
	.size = sizeof(struct expr_counter),
};
