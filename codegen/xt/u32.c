// SPDX-License-Identifier: GPL-2.0-only
/*
 * u32.c - the u32 match (xt_u32.c u32_match_it), unrolled: every number
 * of the info goes into the code (the shape is the whole test list; a
 * rule's tests rarely repeat and up to 11 x 11 locations and values do not
 * fit the rule constants). struct xt_u32 { struct xt_u32_test tests[11]
 * @0 (180 bytes each: location[11] { u32 number; u8 nextop } @0, value[11]
 * { u32 min, max } @88, u8 nnums @176, nvalues @177); u8 ntests @1980,
 * invert @1981 }. The checkentry bounds (at most 10 tests, numbers and
 * values) are the kernel's to enforce; the code trusts none of it beyond
 * the array sizes.
 */
#include <errno.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define U32_TESTS	11
#define U32_TEST_SIZE	180
#define U32_LOC_OFF	0
#define U32_VAL_OFF	88
#define U32_NNUMS	176
#define U32_NVALUES	177
#define U32_NTESTS	1980
#define U32_INVERT	1981
#define U32_INFO_SIZE	1984

enum { U32_AND, U32_LEFTSH, U32_RIGHTSH, U32_AT };	/* XT_U32_* */

/* the walk's u32 state in st->scratch: at @0, val @4 */
#define ST_AT	ST_OFF(scratch)
#define ST_VAL	((int16_t)(ST_OFF(scratch) + 4))

static uint32_t u32_get(const struct expr_xt *x, uint32_t off)
{
	uint32_t v;

	memcpy(&v, x->info + off, 4);
	return v;
}

static uint8_t clamp(uint8_t n)
{
	return n > U32_TESTS ? U32_TESTS : n;
}

static void u32_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, x->info, U32_INFO_SIZE);
}

/* r1 = a u32 constant (zero-extended) */
static void emit_const(struct codegen_prog *p, int reg, uint32_t v)
{
	codegen_emit(p, INSN_MOV32_IMM(reg, (int32_t)v));
}

/*
 * val = ntohl(4 bytes at r2), r2 < skb->len - 3 checked by the caller
 * (skb_copy_bits() cannot fail there)
 */
static void emit_load(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		      uint32_t l_false)
{
	codegen_emit_slice(p, ec->env, 4, l_false);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_emit(p, INSN_TO_BE(R1, 32));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_VAL));
}

/* one test: goto @l_false unless its value is in one of its ranges */
static void emit_test(struct codegen_prog *p, const struct expr_xt *x,
		      uint32_t t, const struct codegen_expr_ctx *ec,
		      uint32_t l_false)
{
	const uint32_t base = t * U32_TEST_SIZE;
	uint8_t nnums = clamp(x->info[base + U32_NNUMS]);
	uint8_t nvals = clamp(x->info[base + U32_NVALUES]);
	uint32_t l_in = codegen_label_new(p);
	uint32_t i;

	/* at = 0; pos = location[0]: skb->len < 4 || pos > skb->len - 4: false */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_AT, 0));
	codegen_emit_view_len(p, ec->env, R3, R4);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R3, 4, 0), l_false);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R3, 4));
	emit_const(p, R2, u32_get(x, base + U32_LOC_OFF));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_false);
	emit_load(p, ec, l_false);
	for (i = 1; i < nnums; i++) {
		uint32_t number = u32_get(x, base + U32_LOC_OFF + 8 * i);

		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_VAL));
		switch (x->info[base + U32_LOC_OFF + 8 * i + 4]) {
		case U32_AND:
			codegen_emit(p, INSN_ALU32_IMM(BPF_AND, R1, (int32_t)number));
			break;
		case U32_LEFTSH:	/* a shift count register: x86 masks it */
			emit_const(p, R2, number);
			codegen_emit(p, INSN_ALU32_REG(BPF_LSH, R1, R2));
			break;
		case U32_RIGHTSH:
			emit_const(p, R2, number);
			codegen_emit(p, INSN_ALU32_REG(BPF_RSH, R1, R2));
			break;
		case U32_AT:
			/* at += val (a u32 overflow: false); pos = number;
			 * at + 4 overflows, skb->len < at + 4 or pos >
			 * skb->len - at - 4: false */
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_AT));
			codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
			codegen_emit(p, INSN_MOV64_REG(R2, R1));
			codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 32));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_false);
			codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_AT));
			codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 4));
			codegen_emit(p, INSN_MOV64_REG(R2, R1));
			codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 32));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_false);
			codegen_emit_view_len(p, ec->env, R3, R4);
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R3, R1, 0), l_false);
			codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R1));
			emit_const(p, R2, number);
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_false);
			/* val = ntohl(at + pos) */
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_AT));
			codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R1));
			emit_load(p, ec, l_false);
			continue;
		default:	/* no operation */
			continue;
		}
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_VAL));
	}
	/* the first value range holding val, else false */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_VAL));
	for (i = 0; i < nvals; i++) {
		uint32_t l_next = codegen_label_new(p);

		emit_const(p, R2, u32_get(x, base + U32_VAL_OFF + 8 * i));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_next);
		emit_const(p, R2, u32_get(x, base + U32_VAL_OFF + 8 * i + 4));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R1, R2, 0), l_in);
		codegen_label_bind(p, l_next);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_false);
	codegen_label_bind(p, l_in);
}

static void u32_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	uint8_t ntests = clamp(x->info[U32_NTESTS]);
	bool inv = x->info[U32_INVERT] != 0;
	uint32_t l_end = codegen_label_new(p);
	uint32_t l_false = inv ? l_end : ec->l_break;
	uint32_t t;

	for (t = 0; t < ntests; t++)
		emit_test(p, x, t, ec, l_false);
	/* every test holds: true ^ invert */
	if (inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_u32 = {
	.name = "u32", .rev = 0, .minlen = U32_INFO_SIZE,
	.const_size = 0, .shape = u32_shape, .emit = u32_emit,
};
