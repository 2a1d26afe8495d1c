/* SPDX-License-Identifier: GPL-2.0-only */
/* ruleset_expr.h - per-expression model operations (ruleset/expr/X.c). */
#ifndef NFBPF_RULESET_EXPR_H
#define NFBPF_RULESET_EXPR_H

#include "expr.h"

/**
 * struct ruleset_expr_ops - what the model layer does per expression type
 * @name: wire name ("cmp")
 * @size: size of the private data (the fixed part, for types whose
 *	  nfnl_expr_ops.priv_size sizes each record)
 * @activate: take references on chains/sets (rule becomes live in the
 *	      next generation); NULL if the type holds none
 * @deactivate: drop them
 */
struct ruleset_expr_ops {
	const char *name;
	size_t size;
	void (*activate)(struct expr *e);
	void (*deactivate)(struct expr *e);
	/* the set the expression is bound to (lookup, object map), or NULL */
	struct set *(*bound_set)(const struct expr *e);
};

extern const struct ruleset_expr_ops *const ruleset_expr_ops[__EXPR_MAX];

#endif
