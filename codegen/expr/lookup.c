// SPDX-License-Identifier: GPL-2.0-only
/* lookup.c - set lookups: refused until sets become BPF maps. */
#include <errno.h>

#include "codegen/codegen.h"
#include "expr/lookup.h"

static int lookup_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	err->msg = "expression 'lookup' is not supported by the nfbpf dataplane yet";
	return -EOPNOTSUPP;
}

static uint32_t lookup_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void lookup_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void lookup_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

static void lookup_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	(void)e;
	(void)ec;
	/* lookup_check() refuses every lookup: never reached */
	if (!p->err)
		p->err = -EOPNOTSUPP;
}

const struct codegen_expr_ops codegen_expr_lookup = {
	.name = "lookup",
	.check = lookup_check,
	.const_size = lookup_const_size,
	.shape = lookup_shape,
	.consts = lookup_consts,
	.emit = lookup_emit,
};
