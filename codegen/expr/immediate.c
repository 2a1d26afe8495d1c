// SPDX-License-Identifier: GPL-2.0-only
/* immediate.c - load a constant or a verdict (nft_immediate.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/immediate.h"

static int immediate_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_immediate *im = expr_priv(e);

	if (im->dreg != REG_VERDICT) {
		if (codegen_reg_ok(im->dreg, im->data.len))
			return 0;
		err->msg = "immediate: data register out of range";
		return -EOPNOTSUPP;
	}
	switch (im->verdict.code) {
	case VERDICT_ACCEPT:
	case VERDICT_DROP:
	case VERDICT_CONTINUE:
	case VERDICT_BREAK:
	case VERDICT_RETURN:
		return 0;
	case VERDICT_JUMP:
	case VERDICT_GOTO:
		if (im->verdict.chain)
			return 0;
		err->msg = "immediate: jump/goto without a chain";
		return -EOPNOTSUPP;
	}
	snprintf(err->buf, sizeof(err->buf),
		 "verdict %d is not supported by the nfbpf dataplane yet",
		 im->verdict.code);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static uint32_t immediate_const_size(const struct expr *e)
{
	const struct expr_immediate *im = expr_priv(e);

	if (im->dreg == REG_VERDICT)
		return 8;	/* s32 code, u32 target head */
	return (im->data.len + 3) & ~3u;
}

static void immediate_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_immediate *im = expr_priv(e);

	codegen_key_put(k, &im->dreg, sizeof(im->dreg));
	if (im->dreg != REG_VERDICT)
		codegen_key_put(k, &im->data.len, sizeof(im->data.len));
}

static void immediate_consts(const struct expr *e, uint8_t *dst,
			     const struct codegen_consts_ctx *cc)
{
	const struct expr_immediate *im = expr_priv(e);
	uint32_t target = 0;

	if (im->dreg != REG_VERDICT) {
		memcpy(dst, im->data.v, im->data.len);
		return;
	}
	if (im->verdict.code == VERDICT_JUMP || im->verdict.code == VERDICT_GOTO)
		target = cc->chain_head(cc->priv, im->verdict.chain);
	memcpy(dst, &im->verdict.code, 4);
	memcpy(dst + 4, &target, 4);
}

static void immediate_emit(struct codegen_prog *p, const struct expr *e,
			   const struct codegen_expr_ctx *ec)
{
	const struct expr_immediate *im = expr_priv(e);

	if (im->dreg != REG_VERDICT) {
		/* regs[dreg..] = consts */
		codegen_emit_copy_to_reg(p, im->dreg, R7, ec->cbase, im->data.len);
		return;
	}
	/* st->verdict = consts.code; st->target = consts.target */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(verdict)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFF(target)));
	/* if (s32)code != NFT_CONTINUE goto done (nft_do_chain stops the rule) */
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JNE, R1, VERDICT_CONTINUE, 0),
			 ec->l_done);
}

const struct codegen_expr_ops codegen_expr_immediate = {
	.name = "immediate",
	.check = immediate_check,
	.const_size = immediate_const_size,
	.shape = immediate_shape,
	.consts = immediate_consts,
	.emit = immediate_emit,
};
