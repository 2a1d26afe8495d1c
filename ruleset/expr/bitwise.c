// SPDX-License-Identifier: GPL-2.0-only
/* bitwise.c - model operations of the bitwise expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/bitwise.h"

const struct ruleset_expr_ops ruleset_expr_bitwise = {
	.name = "bitwise",
	.size = sizeof(struct expr_bitwise),
};
