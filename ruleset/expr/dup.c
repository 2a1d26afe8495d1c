// SPDX-License-Identifier: GPL-2.0-only
/* dup.c - model operations of the dup expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/dup.h"

const struct ruleset_expr_ops ruleset_expr_dup = {
	.name = "dup",
	.size = sizeof(struct expr_dup),
};
