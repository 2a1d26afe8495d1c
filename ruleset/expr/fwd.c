// SPDX-License-Identifier: GPL-2.0-only
/* fwd.c - model operations of the fwd expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/fwd.h"

const struct ruleset_expr_ops ruleset_expr_fwd = {
	.name = "fwd",
	.size = sizeof(struct expr_fwd),
};
