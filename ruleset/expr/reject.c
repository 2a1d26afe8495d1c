// SPDX-License-Identifier: GPL-2.0-only
/* reject.c - model operations of the reject expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/reject.h"

const struct ruleset_expr_ops ruleset_expr_reject = {
	.name = "reject",
	.size = sizeof(struct expr_reject),
};
