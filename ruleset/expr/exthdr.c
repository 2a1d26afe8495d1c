// SPDX-License-Identifier: GPL-2.0-only
/* exthdr.c - model operations of the exthdr expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/exthdr.h"

const struct ruleset_expr_ops ruleset_expr_exthdr = {
	.name = "exthdr",
	.size = sizeof(struct expr_exthdr),
};
