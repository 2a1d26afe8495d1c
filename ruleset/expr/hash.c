// SPDX-License-Identifier: GPL-2.0-only
/* hash.c - model operations of the hash expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/hash.h"

const struct ruleset_expr_ops ruleset_expr_hash = {
	.name = "hash",
	.size = sizeof(struct expr_hash),
};
