// SPDX-License-Identifier: GPL-2.0-only
/* quota.c - model operations of the quota expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/quota.h"

const struct ruleset_expr_ops ruleset_expr_quota = {
	.name = "quota",
	.size = sizeof(struct expr_quota),
};
