// SPDX-License-Identifier: GPL-2.0-only
/* range.c - from <= reg <= to, or outside (nft_range.c). */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/cmp.h"
#include "expr/range.h"

static int range_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_range *r = expr_priv(e);

	if (!codegen_reg_ok(r->sreg, r->from.len) || r->from.len != r->to.len ||
	    (r->op != CMP_EQ && r->op != CMP_NEQ)) {
		err->msg = "range: register, length or operator out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t range_const_size(const struct expr *e)
{
	const struct expr_range *r = expr_priv(e);

	return 2 * ((r->from.len + 3) & ~3u);
}

static void range_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_range *r = expr_priv(e);

	codegen_key_put(k, &r->sreg, 1);
	codegen_key_put(k, &r->op, 1);
	codegen_key_put(k, &r->from.len, 4);
}

static void range_consts(const struct expr *e, uint8_t *dst,
			 const struct codegen_consts_ctx *cc)
{
	const struct expr_range *r = expr_priv(e);

	(void)cc;
	memcpy(dst, r->from.v, r->from.len);
	memcpy(dst + ((r->from.len + 3) & ~3u), r->to.v, r->to.len);
}

static void range_emit(struct codegen_prog *p, const struct expr *e,
		       const struct codegen_expr_ctx *ec)
{
	const struct expr_range *r = expr_priv(e);
	int16_t to_off = ec->cbase + ((r->from.len + 3) & ~3u);
	uint32_t l_second = codegen_label_new(p);
	uint32_t l_outside, l_inside, l_end = codegen_label_new(p);

	/* EQ: break unless from <= reg <= to; NEQ: break if so */
	l_outside = r->op == CMP_EQ ? ec->l_break : l_end;
	l_inside = r->op == CMP_EQ ? l_end : ec->l_break;
	/* d1 = memcmp(reg, from): below -> outside */
	codegen_emit_becmp(p, REG_OFF(r->sreg), ec->cbase, r->from.len,
			   l_outside, l_second, l_second);
	codegen_label_bind(p, l_second);
	/* d2 = memcmp(reg, to): above -> outside */
	codegen_emit_becmp(p, REG_OFF(r->sreg), to_off, r->from.len,
			   l_inside, l_inside, l_outside);
	codegen_label_bind(p, l_end);
}

const struct codegen_expr_ops codegen_expr_range = {
	.name = "range",
	.check = range_check,
	.const_size = range_const_size,
	.shape = range_shape,
	.consts = range_consts,
	.emit = range_emit,
};
