// SPDX-License-Identifier: GPL-2.0-only
/* cmp.c - compare a register with a constant (nft_cmp.c). */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/cmp.h"

static int cmp_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_cmp *c = expr_priv(e);

	if (!codegen_reg_ok(c->sreg, c->data.len) || c->op > CMP_GTE) {
		err->msg = "cmp: register or operator out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t cmp_const_size(const struct expr *e)
{
	const struct expr_cmp *c = expr_priv(e);

	return (c->data.len + 3) & ~3u;
}

static void cmp_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_cmp *c = expr_priv(e);

	codegen_key_put(k, &c->sreg, 1);
	codegen_key_put(k, &c->op, 1);
	codegen_key_put(k, &c->data.len, 4);
}

static void cmp_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	const struct expr_cmp *c = expr_priv(e);

	(void)cc;
	memcpy(dst, c->data.v, c->data.len);
}

static void cmp_emit_eq(struct codegen_prog *p, const struct expr_cmp *c,
			const struct codegen_expr_ctx *ec)
{
	uint32_t l_ne = c->op == CMP_EQ ? ec->l_break : codegen_label_new(p);
	uint32_t done = 0;

	while (done < c->data.len) {
		uint32_t rest = c->data.len - done;
		int size = rest >= 4 ? BPF_W : rest >= 2 ? BPF_H : BPF_B;

		/* r1 = reg chunk; r2 = const chunk; if r1 != r2 goto ne */
		codegen_emit(p, INSN_LDX_MEM(size, R1, R6, REG_OFF(c->sreg) + done));
		codegen_emit(p, INSN_LDX_MEM(size, R2, R7, ec->cbase + done));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_ne);
		done += rest >= 4 ? 4 : rest >= 2 ? 2 : 1;
	}
	if (c->op == CMP_NEQ) {
		/* all equal: goto break; ne: */
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		codegen_label_bind(p, l_ne);
	}
}

static void cmp_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_cmp *c = expr_priv(e);
	uint32_t l_lt, l_eq, l_gt, l_end;
	bool lt_ok, eq_ok, gt_ok;

	if (c->op == CMP_EQ || c->op == CMP_NEQ) {
		cmp_emit_eq(p, c, ec);
		return;
	}
	lt_ok = c->op == CMP_LT || c->op == CMP_LTE;
	gt_ok = c->op == CMP_GT || c->op == CMP_GTE;
	eq_ok = c->op == CMP_LTE || c->op == CMP_GTE;
	l_end = codegen_label_new(p);
	l_lt = lt_ok ? l_end : ec->l_break;
	l_gt = gt_ok ? l_end : ec->l_break;
	l_eq = eq_ok ? l_end : ec->l_break;
	/* memcmp(regs[sreg], data, len) decides, as nft_cmp_eval */
	codegen_emit_becmp(p, REG_OFF(c->sreg), ec->cbase, c->data.len,
			   l_lt, l_eq, l_gt);
	codegen_label_bind(p, l_end);
}

const struct codegen_expr_ops codegen_expr_cmp = {
	.name = "cmp",
	.check = cmp_check,
	.const_size = cmp_const_size,
	.shape = cmp_shape,
	.consts = cmp_consts,
	.emit = cmp_emit,
};
