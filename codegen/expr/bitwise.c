// SPDX-License-Identifier: GPL-2.0-only
/* bitwise.c - dreg = (sreg & mask) ^ xor, or a shift (nft_bitwise.c). */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/bitwise.h"

static uint32_t words(uint32_t len)
{
	return (len + 3) / 4;
}

static int bitwise_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_bitwise *b = expr_priv(e);

	if (!codegen_reg_ok(b->sreg, b->len) || !codegen_reg_ok(b->dreg, b->len)) {
		err->msg = "bitwise: register out of range";
		return -EOPNOTSUPP;
	}
	switch (b->op) {
	case BITWISE_BOOL:
		if (b->mask.len > b->len || b->xor.len > b->len)
			break;
		return 0;
	case BITWISE_LSHIFT:
	case BITWISE_RSHIFT:
		if (b->shift >= 32)
			break;
		return 0;
	}
	err->msg = "bitwise: operation is not supported by the nfbpf dataplane yet";
	return -EOPNOTSUPP;
}

static uint32_t bitwise_const_size(const struct expr *e)
{
	const struct expr_bitwise *b = expr_priv(e);

	return b->op == BITWISE_BOOL ? 8 * words(b->len) : 0;
}

static void bitwise_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_bitwise *b = expr_priv(e);

	codegen_key_put(k, &b->op, 4);
	codegen_key_put(k, &b->sreg, 1);
	codegen_key_put(k, &b->dreg, 1);
	codegen_key_put(k, &b->len, 4);
	if (b->op != BITWISE_BOOL)
		codegen_key_put(k, &b->shift, 4);
}

static void bitwise_consts(const struct expr *e, uint8_t *dst,
			   const struct codegen_consts_ctx *cc)
{
	const struct expr_bitwise *b = expr_priv(e);

	(void)cc;
	if (b->op != BITWISE_BOOL)
		return;
	memcpy(dst, b->mask.v, b->mask.len);
	memcpy(dst + 4 * words(b->len), b->xor.v, b->xor.len);
}

static void bitwise_emit(struct codegen_prog *p, const struct expr *e,
			 const struct codegen_expr_ctx *ec)
{
	const struct expr_bitwise *b = expr_priv(e);
	uint32_t n = words(b->len), i;

	switch (b->op) {
	case BITWISE_BOOL:
		for (i = 0; i < n; i++) {
			/* dst[i] = (src[i] & mask[i]) ^ xor[i] */
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(b->sreg + i)));
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4 * i));
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, ec->cbase + 4 * (n + i)));
			codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
			codegen_emit(p, INSN_ALU32_REG(BPF_XOR, R1, R3));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(b->dreg + i)));
		}
		break;
	case BITWISE_LSHIFT:
		/* carry = 0; from the last word down:
		 * dst[i] = (src[i] << s) | carry; carry = src[i] >> (32 - s) */
		codegen_emit(p, INSN_MOV64_IMM(R3, 0));
		for (i = n; i > 0; i--) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(b->sreg + i - 1)));
			codegen_emit(p, INSN_MOV32_REG(R2, R1));
			if (b->shift)
				codegen_emit(p, INSN_ALU32_IMM(BPF_LSH, R2, b->shift));
			codegen_emit(p, INSN_ALU32_REG(BPF_OR, R2, R3));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, REG_OFF(b->dreg + i - 1)));
			if (b->shift) {
				codegen_emit(p, INSN_MOV32_REG(R3, R1));
				codegen_emit(p, INSN_ALU32_IMM(BPF_RSH, R3, 32 - b->shift));
			}
		}
		break;
	case BITWISE_RSHIFT:
		/* carry = 0; from the first word up:
		 * dst[i] = carry | (src[i] >> s); carry = src[i] << (32 - s) */
		codegen_emit(p, INSN_MOV64_IMM(R3, 0));
		for (i = 0; i < n; i++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(b->sreg + i)));
			codegen_emit(p, INSN_MOV32_REG(R2, R1));
			if (b->shift)
				codegen_emit(p, INSN_ALU32_IMM(BPF_RSH, R2, b->shift));
			codegen_emit(p, INSN_ALU32_REG(BPF_OR, R2, R3));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, REG_OFF(b->dreg + i)));
			if (b->shift) {
				codegen_emit(p, INSN_MOV32_REG(R3, R1));
				codegen_emit(p, INSN_ALU32_IMM(BPF_LSH, R3, 32 - b->shift));
			}
		}
		break;
	}
}

const struct codegen_expr_ops codegen_expr_bitwise = {
	.name = "bitwise",
	.check = bitwise_check,
	.const_size = bitwise_const_size,
	.shape = bitwise_shape,
	.consts = bitwise_consts,
	.emit = bitwise_emit,
};
