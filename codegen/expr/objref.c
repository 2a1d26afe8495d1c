// SPDX-License-Identifier: GPL-2.0-only
/*
 * objref.c - the packet path cannot run stateful objects yet: every rule
 * with an objref is refused when it is added, so none reaches emit.
 */
#include <errno.h>

#include "codegen/codegen.h"
#include "expr/objref.h"

static int objref_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	err->msg = "expression 'objref' (named counter, quota, limit, ct helper, "
		   "ct timeout, ct expectation, synproxy) is not supported by the "
		   "nfbpf dataplane yet";
	return -EOPNOTSUPP;
}

static uint32_t objref_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void objref_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void objref_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* unreachable while objref_check() refuses: make that loud, not silent */
static void objref_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	(void)e;
	(void)ec;
	if (!p->err)
		p->err = -EOPNOTSUPP;
}

const struct codegen_expr_ops codegen_expr_objref = {
	.name = "objref",
	.check = objref_check,
	.const_size = objref_const_size,
	.shape = objref_shape,
	.consts = objref_consts,
	.emit = objref_emit,
};
