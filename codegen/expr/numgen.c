// SPDX-License-Identifier: GPL-2.0-only
/*
 * numgen.c - numbers in [offset, offset + modulus) (nft_numgen.c).
 *
 * random (nft_ng_random_eval): reciprocal_scale() of a random u32.
 * inc (nft_ng_inc_eval): the kernel's counter starts at modulus - 1 and
 * each packet cmpxchg-advances it to (c + 1) % modulus, so packets get 0,
 * 1, ..., modulus - 1, 0, ... Here one u64 of the state map, shared by
 * all CPUs and kept with the rule, counts packets from 0 with an atomic
 * fetch-add, and the value is old % modulus: the same sequence, each value
 * once per round under concurrency too. Modulus and offset are rule
 * constants, after the state slot.
 */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/numgen.h"

struct numgen_consts {
	uint32_t slot;		/* first: codegen_emit_slot_lookup() */
	uint32_t modulus;
	uint32_t offset;
};

static int numgen_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_numgen *n = expr_priv(e);

	if (!codegen_reg_ok(n->dreg, 4)) {
		err->msg = "numgen: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t numgen_const_size(const struct expr *e)
{
	(void)e;
	return sizeof(struct numgen_consts);
}

static void numgen_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_numgen *n = expr_priv(e);

	codegen_key_put(k, &n->type, 4);
	codegen_key_put(k, &n->dreg, 1);
}

static void numgen_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_numgen *n = expr_priv(e);
	struct numgen_consts c = { n->slot, n->modulus, n->offset };

	(void)cc;
	memcpy(dst, &c, sizeof(c));
}

static void numgen_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_numgen *n = expr_priv(e);

	if (n->type == NUMGEN_INC) {
		/* r0 = &counter; r1 = atomic_fetch_add(r0, 1) */
		codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
		codegen_emit(p, INSN_MOV64_IMM(R1, 1));
		codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
		/* regs[dreg] = (u32)(r1 % modulus) + offset */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase +
					     offsetof(struct numgen_consts, modulus)));
		codegen_emit(p, INSN_ALU64_REG(BPF_MOD, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase +
					     offsetof(struct numgen_consts, offset)));
		codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R2));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(n->dreg)));
		return;
	}

	/* r0 = bpf_get_prandom_u32() (zero-extended) */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_prandom_u32));
	codegen_emit(p, INSN_MOV32_REG(R0, R0));
	codegen_emit_scale(p, ec->cbase + offsetof(struct numgen_consts, modulus),
			   ec->cbase + offsetof(struct numgen_consts, offset), n->dreg);
}

static uint32_t *numgen_state_slot(struct expr *e)
{
	return &((struct expr_numgen *)expr_priv(e))->slot;
}

/* packets counted so far: none */
static uint64_t numgen_state_init(const struct expr *e, uint64_t now)
{
	(void)e;
	(void)now;
	return 0;
}

const struct codegen_expr_ops codegen_expr_numgen = {
	.name = "numgen",
	.check = numgen_check,
	.const_size = numgen_const_size,
	.shape = numgen_shape,
	.consts = numgen_consts,
	.emit = numgen_emit,
	.state_slot = numgen_state_slot,
	.state_init = numgen_state_init,
};
