// SPDX-License-Identifier: GPL-2.0-only
/* meta.c - model operations of the meta expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/meta.h"

const struct ruleset_expr_ops ruleset_expr_meta = {
	.name = "meta",
	.size = sizeof(struct expr_meta),
};
