// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - model operations of the xtables target expression: it holds no
 * references; its private data is variable-sized (struct expr_xt).
 */
#include "ruleset_expr.h"
#include "expr/xt.h"

const struct ruleset_expr_ops ruleset_expr_target = {
	.name = "target",
	.size = sizeof(struct expr_xt),
};
