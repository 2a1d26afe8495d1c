// SPDX-License-Identifier: GPL-2.0-only
/*
 * hash.c - jhash of registers (nft_jhash_eval): the kernel's jhash() of
 * len bytes with the rule's seed, then reciprocal_scale() into [offset,
 * offset + modulus). len is part of the shape, so the hash is straight-line
 * code; seed, modulus and offset are rule constants. symhash hashes the
 * flow with the kernel's secret flow-dissector key: refused.
 */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/hash.h"

#define JHASH_INITVAL	0xdeadbeef

struct hash_consts {
	uint32_t seed;
	uint32_t modulus;
	uint32_t offset;
};

static int hash_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_hash *h = expr_priv(e);

	if (h->type != HASH_JENKINS) {
		err->msg = "symhash is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(h->sreg, h->len) || !codegen_reg_ok(h->dreg, 4)) {
		err->msg = "hash: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t hash_const_size(const struct expr *e)
{
	(void)e;
	return sizeof(struct hash_consts);
}

static void hash_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_hash *h = expr_priv(e);

	codegen_key_put(k, &h->type, 4);
	codegen_key_put(k, &h->sreg, 1);
	codegen_key_put(k, &h->dreg, 1);
	codegen_key_put(k, &h->len, 1);
}

static void hash_consts(const struct expr *e, uint8_t *dst,
			const struct codegen_consts_ctx *cc)
{
	const struct expr_hash *h = expr_priv(e);
	struct hash_consts c = { h->seed, h->modulus, h->offset };

	(void)cc;
	memcpy(dst, &c, sizeof(c));
}

/* x (32 bits) = rol32(x, k), r5 clobbered */
static void rol(struct codegen_prog *p, int x, int k)
{
	codegen_emit(p, INSN_MOV32_REG(R5, x));
	codegen_emit(p, INSN_ALU32_IMM(BPF_LSH, R5, k));
	codegen_emit(p, INSN_ALU32_IMM(BPF_RSH, x, 32 - k));
	codegen_emit(p, INSN_ALU32_REG(BPF_OR, x, R5));
}

/* x -= y; x ^= rol32(y, k); y += z  (one line of __jhash_mix) */
static void mix_step(struct codegen_prog *p, int x, int y, int z, int k)
{
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, x, y));
	codegen_emit(p, INSN_MOV32_REG(R4, y));
	rol(p, R4, k);
	codegen_emit(p, INSN_ALU32_REG(BPF_XOR, x, R4));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, y, z));
}

/* x ^= y; x -= rol32(y, k)  (one line of __jhash_final) */
static void final_step(struct codegen_prog *p, int x, int y, int k)
{
	codegen_emit(p, INSN_ALU32_REG(BPF_XOR, x, y));
	codegen_emit(p, INSN_MOV32_REG(R4, y));
	rol(p, R4, k);
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, x, R4));
}

static void hash_emit(struct codegen_prog *p, const struct expr *e,
		      const struct codegen_expr_ctx *ec)
{
	const struct expr_hash *h = expr_priv(e);
	int16_t k = REG_OFF(h->sreg);
	uint32_t len = h->len, i;
	const int abc[3] = { R1, R2, R3 };

	/* a = b = c = JHASH_INITVAL + length + seed (r1, r2, r3) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase +
				     offsetof(struct hash_consts, seed)));
	codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R1, (int32_t)(JHASH_INITVAL + len)));
	codegen_emit(p, INSN_MOV32_REG(R2, R1));
	codegen_emit(p, INSN_MOV32_REG(R3, R1));
	/* while (length > 12): three host-order words, then mix */
	for (; len > 12; len -= 12, k += 12) {
		for (i = 0; i < 3; i++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, k + 4 * i));
			codegen_emit(p, INSN_ALU32_REG(BPF_ADD, abc[i], R4));
		}
		mix_step(p, R1, R3, R2, 4);	/* a -= c; a ^= rol(c, 4); c += b */
		mix_step(p, R2, R1, R3, 6);
		mix_step(p, R3, R2, R1, 8);
		mix_step(p, R1, R3, R2, 16);
		mix_step(p, R2, R1, R3, 19);
		mix_step(p, R3, R2, R1, 4);
	}
	/* the last 1..12 bytes: k[i] << 8 * (i % 4) into a, b, c */
	for (i = 0; i < len; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R6, k + i));
		if (i % 4)
			codegen_emit(p, INSN_ALU32_IMM(BPF_LSH, R4, 8 * (i % 4)));
		codegen_emit(p, INSN_ALU32_REG(BPF_ADD, abc[i / 4], R4));
	}
	if (len) {
		final_step(p, R3, R2, 14);
		final_step(p, R1, R3, 11);
		final_step(p, R2, R1, 25);
		final_step(p, R3, R2, 16);
		final_step(p, R1, R3, 4);
		final_step(p, R2, R1, 14);
		final_step(p, R3, R2, 24);
	}
	/* r0 = c, reciprocal_scale + offset */
	codegen_emit(p, INSN_MOV32_REG(R0, R3));
	codegen_emit_scale(p, ec->cbase + offsetof(struct hash_consts, modulus),
			   ec->cbase + offsetof(struct hash_consts, offset), h->dreg);
}

const struct codegen_expr_ops codegen_expr_hash = {
	.name = "hash",
	.check = hash_check,
	.const_size = hash_const_size,
	.shape = hash_shape,
	.consts = hash_consts,
	.emit = hash_emit,
};
