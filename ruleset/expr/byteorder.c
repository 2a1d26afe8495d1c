// SPDX-License-Identifier: GPL-2.0-only
/* byteorder.c - model operations of the byteorder expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/byteorder.h"

const struct ruleset_expr_ops ruleset_expr_byteorder = {
	.name = "byteorder",
	.size = sizeof(struct expr_byteorder),
};
