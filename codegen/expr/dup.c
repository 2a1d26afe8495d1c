// SPDX-License-Identifier: GPL-2.0-only
/*
 * dup.c - a copy of the packet out of a device (nft_dup_netdev.c): in a
 * tc program bpf_clone_redirect(skb, ifindex, 0) sends a clone through
 * that device's egress (with the mac header from ingress, as
 * nf_do_netdev_egress() pushes it back); the packet itself goes on. A
 * device that does not exist sends nothing. Netfilter walkers never run
 * netdev chains: there the code does nothing.
 */
#include <errno.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/dup.h"

static int dup_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_dup *d = expr_priv(e);

	if (!codegen_reg_ok(d->sreg_dev, 4)) {
		err->msg = "dup: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t dup_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void dup_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_dup *d = expr_priv(e);

	codegen_key_put(k, &d->sreg_dev, 1);
}

static void dup_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

static void dup_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_dup *d = expr_priv(e);

	if (ec->env->ctx == CODEGEN_CTX_NF)
		return;
	/* bpf_clone_redirect(ctx, regs[sreg_dev], 0) (r8 = ctx) */
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, REG_OFF(d->sreg_dev)));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_clone_redirect));
}

const struct codegen_expr_ops codegen_expr_dup = {
	.name = "dup",
	.check = dup_check,
	.const_size = dup_const_size,
	.shape = dup_shape,
	.consts = dup_consts,
	.emit = dup_emit,
};
