// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - the xtables "target" expression (nft_compat.c
 * nft_target_eval_xt). Every xtables target changes the packet or state
 * (REJECT sends, MARK/DSCP/TCPMSS mangle, LOG/NFLOG log, CT/NOTRACK touch
 * conntrack, NFQUEUE queues): none is a plain verdict, and the kernel
 * refuses the standard target itself. So each is refused at commit,
 * naming the extension, until the dataplane can do what it does.
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "expr/xt.h"

static int target_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_xt *x = expr_priv(e);

	snprintf(err->buf, sizeof(err->buf),
		 "xt target '%s' is not supported by the nfbpf dataplane yet",
		 x->name);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static uint32_t target_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void target_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void target_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* never reached: target_check() refuses every rule holding one */
static void target_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	(void)e;
	(void)ec;
	p->err = p->err ? p->err : -EOPNOTSUPP;
}

const struct codegen_expr_ops codegen_expr_target = {
	.name = "target",
	.check = target_check,
	.const_size = target_const_size,
	.shape = target_shape,
	.consts = target_consts,
	.emit = target_emit,
};
