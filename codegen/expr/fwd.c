// SPDX-License-Identifier: GPL-2.0-only
/*
 * fwd.c - forward the packet out of a device (nft_fwd_netdev.c): in a tc
 * program bpf_redirect(ifindex, 0), the walker stops with NF_STOLEN and
 * returns TCX_REDIRECT, so the packet leaves through that device's egress
 * (from ingress with its mac header, as nf_do_netdev_egress() pushes it
 * back). A device that does not exist drops the packet, as the kernel's
 * kfree_skb(). Netfilter walkers never run netdev chains: there the code
 * is a drop that no packet reaches.
 */
#include <errno.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/fwd.h"

static int fwd_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_fwd *f = expr_priv(e);

	if (f->neigh) {
		err->msg = "fwd to an address (neighbour output) is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(f->sreg_dev, 4)) {
		err->msg = "fwd: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t fwd_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void fwd_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_fwd *f = expr_priv(e);

	codegen_key_put(k, &f->sreg_dev, 1);
}

static void fwd_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

static void fwd_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_fwd *f = expr_priv(e);

	if (ec->env->ctx == CODEGEN_CTX_NF) {
		/* unreachable: st->verdict = NF_DROP */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
		return;
	}
	/* bpf_redirect(regs[sreg_dev], 0); st->verdict = NF_STOLEN */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(f->sreg_dev)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_redirect));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_STOLEN));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

const struct codegen_expr_ops codegen_expr_fwd = {
	.name = "fwd",
	.check = fwd_check,
	.const_size = fwd_const_size,
	.shape = fwd_shape,
	.consts = fwd_consts,
	.emit = fwd_emit,
};
