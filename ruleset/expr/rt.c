// SPDX-License-Identifier: GPL-2.0-only
/* rt.c - model operations of the rt expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/rt.h"

const struct ruleset_expr_ops ruleset_expr_rt = {
	.name = "rt",
	.size = sizeof(struct expr_rt),
};
