// SPDX-License-Identifier: GPL-2.0-only
/* connlimit.c - model operations of the connlimit expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/connlimit.h"

const struct ruleset_expr_ops ruleset_expr_connlimit = {
	.name = "connlimit",
	.size = sizeof(struct expr_connlimit),
};
