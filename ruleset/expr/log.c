// SPDX-License-Identifier: GPL-2.0-only
/* log.c - model operations of the log expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/log.h"

const struct ruleset_expr_ops ruleset_expr_log = {
	.name = "log",
	.size = sizeof(struct expr_log),
};
