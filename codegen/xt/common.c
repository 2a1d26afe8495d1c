// SPDX-License-Identifier: GPL-2.0-only
/* common.c - helpers shared by the xtables match emitters. */
#include <string.h>
#include "codegen/xt/xt.h"

const struct codegen_xt_ops *codegen_xt_find(const struct codegen_xt_ops *const *ops,
					    size_t n, const struct expr_xt *x)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct codegen_xt_ops *o = ops[i];

		if (!strcmp(o->name, x->name) && o->rev == x->rev &&
		    (!o->family || o->family == x->family) && x->len >= o->minlen)
			return o;
	}
	return NULL;
}

void codegen_xt_shape(const struct codegen_xt_ops *o, const struct expr_xt *x,
		      struct codegen_key *k)
{
	codegen_key_put(k, x->name, strlen(x->name) + 1);
	codegen_key_put(k, &x->rev, sizeof(x->rev));
	o->shape(x, k);
}

uint32_t codegen_xt_const_size(const struct codegen_xt_ops *o,
			       const struct expr_xt *x)
{
	return o->const_size_of ? o->const_size_of(x) : o->const_size;
}

void codegen_xt_consts(const struct codegen_xt_ops *o, const struct expr_xt *x,
		       uint8_t *dst)
{
	if (o->consts)
		o->consts(x, dst);
	else
		memcpy(dst, x->info + o->const_off, o->const_size);
}

void codegen_xt_emit_th(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			uint32_t len)
{
	uint32_t l_drop = codegen_label_new(p), l_ok = codegen_label_new(p);

	/* r2 = pkt.thoff; r0 = slice(r2, len); if !r0 hotdrop */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit_slice(p, ec->env, len, l_drop);
	codegen_emit_jmp(p, INSN_JA(0), l_ok);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_ok);
}

void codegen_xt_emit_port_range(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec,
				int16_t coff, bool inv)
{
	codegen_xt_emit_range(p, ec, coff, 2, inv);
}

void codegen_xt_emit_range(struct codegen_prog *p,
			   const struct codegen_expr_ctx *ec,
			   int16_t coff, uint32_t size, bool inv)
{
	uint32_t l_in = inv ? ec->l_break : codegen_label_new(p);
	uint32_t l_out = inv ? codegen_label_new(p) : ec->l_break;
	uint8_t sz = size == 4 ? BPF_W : BPF_H;

	/* r2 = min; r3 = max; if r1 < r2 || r1 > r3 goto out; goto in */
	codegen_emit(p, INSN_LDX_MEM(sz, R2, R7, coff));
	codegen_emit(p, INSN_LDX_MEM(sz, R3, R7, coff + (int16_t)size));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_out);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R3, 0), l_out);
	codegen_emit_jmp(p, INSN_JA(0), l_in);
	codegen_label_bind(p, inv ? l_out : l_in);
}
