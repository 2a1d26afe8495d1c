// SPDX-License-Identifier: GPL-2.0-only
/* payload.c - model operations of the payload expression: it holds no references. */
#include "ruleset_expr.h"
#include "expr/payload.h"

const struct ruleset_expr_ops ruleset_expr_payload = {
	.name = "payload",
	.size = sizeof(struct expr_payload),
};
