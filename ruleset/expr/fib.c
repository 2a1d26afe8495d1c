// SPDX-License-Identifier: GPL-2.0-only
/* fib.c - model operations of the fib expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/fib.h"

const struct ruleset_expr_ops ruleset_expr_fib = {
	.name = "fib",
	.size = sizeof(struct expr_fib),
};
