// SPDX-License-Identifier: GPL-2.0-only
/*
 * byteorder.c - swap elements of 2, 4 or 8 bytes (nft_byteorder.c). On a
 * little endian host ntoh and hton are the same swap.
 */
#include <errno.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/byteorder.h"

static int byteorder_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_byteorder *b = expr_priv(e);

	if ((b->size != 2 && b->size != 4 && b->size != 8) ||
	    !codegen_reg_ok(b->sreg, b->len) || !codegen_reg_ok(b->dreg, b->len)) {
		err->msg = "byteorder: size or register is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t byteorder_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void byteorder_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_byteorder *b = expr_priv(e);

	codegen_key_put(k, &b->sreg, 1);
	codegen_key_put(k, &b->dreg, 1);
	codegen_key_put(k, &b->op, 1);
	codegen_key_put(k, &b->len, 4);
	codegen_key_put(k, &b->size, 4);
}

static void byteorder_consts(const struct expr *e, uint8_t *dst,
			     const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

static void byteorder_emit(struct codegen_prog *p, const struct expr *e,
			   const struct codegen_expr_ctx *ec)
{
	const struct expr_byteorder *b = expr_priv(e);
	int16_t s = REG_OFF(b->sreg), d = REG_OFF(b->dreg);
	uint32_t i;

	(void)ec;
	switch (b->size) {
	case 8:
		for (i = 0; i < b->len / 8; i++) {
			/* lo, hi = src64[i]; dst64[i] = bswap64 = (bswap(hi), bswap(lo)) */
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, s + 8 * i));
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, s + 8 * i + 4));
			codegen_emit(p, INSN_TO_BE(R1, 32));
			codegen_emit(p, INSN_TO_BE(R2, 32));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, d + 8 * i));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, d + 8 * i + 4));
		}
		break;
	case 4:
		for (i = 0; i < b->len / 4; i++) {
			/* dst32[i] = bswap32(src32[i]) */
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, s + 4 * i));
			codegen_emit(p, INSN_TO_BE(R1, 32));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, d + 4 * i));
		}
		break;
	case 2:
		for (i = 0; i < b->len / 2; i++) {
			/* dst16[i] = bswap16(src16[i]) */
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, s + 2 * i));
			codegen_emit(p, INSN_TO_BE(R1, 16));
			codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, d + 2 * i));
		}
		break;
	}
}

const struct codegen_expr_ops codegen_expr_byteorder = {
	.name = "byteorder",
	.check = byteorder_check,
	.const_size = byteorder_const_size,
	.shape = byteorder_shape,
	.consts = byteorder_consts,
	.emit = byteorder_emit,
};
