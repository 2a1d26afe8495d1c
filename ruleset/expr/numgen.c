// SPDX-License-Identifier: GPL-2.0-only
/* numgen.c - model operations of the numgen expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/numgen.h"

const struct ruleset_expr_ops ruleset_expr_numgen = {
	.name = "numgen",
	.size = sizeof(struct expr_numgen),
};
