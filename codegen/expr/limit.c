// SPDX-License-Identifier: GPL-2.0-only
/*
 * limit.c - token bucket (nft_limit.c) on one u64 of the state map,
 * shared by all CPUs as the kernel's spin-locked struct nft_limit.
 *
 * The kernel keeps (tokens, last) under a lock:
 *	tokens = min(tokens + now - last, tokens_max); last = now;
 *	if (s64)(tokens - cost) >= 0: tokens -= cost, within the rate
 * One word holds the same state, base = last - tokens (mod 2^64), since
 * tokens + now - last == now - base; the update is then base' = now -
 * tokens', one compare-and-swap. The word is read before the clock, so a
 * swap that succeeds saw no later update than its own now (as under the
 * lock, now never goes back). A failed swap retries with a fresh word and
 * clock, up to LIMIT_RETRIES times (each failure is another CPU's
 * success); past that the packet counts as over the rate without
 * spending tokens: only a bucket under that much contention gets there,
 * and it is as good as empty.
 *
 *	within ^ invert == 0: NFT_BREAK
 *
 * Packets: cost = nsecs / rate (a constant). Bytes: cost = nsecs *
 * skb->len / rate, u64 arithmetic as the kernel's.
 */
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/limit.h"

/* constants: u32 slot, u32 invert, u64 tokens_max, then packets: u64
 * cost; bytes: u64 nsecs, u64 rate */
#define C_SLOT		0
#define C_INVERT	4
#define C_TOKENS_MAX	8
#define C_COST		16
#define C_NSECS		16
#define C_RATE		24

/* the shape frame's packet buffer as scratch */
#define FP_COST		SHAPE_BUF_OFF
#define FP_TRIES	(SHAPE_BUF_OFF + 8)
#define FP_BASE		(SHAPE_BUF_OFF + 16)

#define LIMIT_RETRIES	16

static int limit_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	(void)err;
	return 0;
}

static uint32_t limit_const_size(const struct expr *e)
{
	const struct expr_limit *l = expr_priv(e);

	return l->bytes ? 32 : 24;
}

static void limit_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_limit *l = expr_priv(e);
	uint8_t bytes = l->bytes;

	codegen_key_put(k, &bytes, 1);
}

void codegen_limit_fill_bucket(const struct expr_limit *l, uint8_t *dst)
{
	memcpy(dst, &l->tokens_max, 8);
	if (l->bytes) {
		memcpy(dst + C_NSECS - C_TOKENS_MAX, &l->nsecs, 8);
		memcpy(dst + C_RATE - C_TOKENS_MAX, &l->rate, 8);
	} else {
		memcpy(dst + C_COST - C_TOKENS_MAX, &l->cost, 8);
	}
}

void codegen_limit_fill(const struct expr_limit *l, uint8_t *dst)
{
	uint32_t invert = l->invert;

	memcpy(dst + C_SLOT, &l->slot, 4);
	memcpy(dst + C_INVERT, &invert, 4);
	codegen_limit_fill_bucket(l, dst + C_TOKENS_MAX);
}

static void limit_consts(const struct expr *e, uint8_t *dst,
			 const struct codegen_consts_ctx *cc)
{
	(void)cc;
	codegen_limit_fill(expr_priv(e), dst);
}

void codegen_emit_limit_bucket(struct codegen_prog *p, bool bytes,
			       int16_t word, int16_t c_invert, int16_t c_bucket,
			       uint32_t l_break)
{
	uint32_t l_retry = codegen_label_new(p);
	uint32_t l_done = codegen_label_new(p);
	int16_t cb = c_bucket - C_TOKENS_MAX;

	/* 1. cost; tries = 0 */
	if (bytes) {
		/* r1 = consts.nsecs * pkt.len / consts.rate */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, cb + C_NSECS));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(len)));
		codegen_emit(p, INSN_ALU64_REG(BPF_MUL, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, cb + C_RATE));
		codegen_emit(p, INSN_ALU64_REG(BPF_DIV, R1, R2));
	} else {
		/* r1 = consts.cost */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, cb + C_COST));
	}
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_COST));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_TRIES, 0));
	/* 2. retry: r1 = the word (base), saved; r0 = now */
	codegen_label_bind(p, l_retry);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, word));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_BASE));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_BASE));
	/* r2 = tokens = min(now - base, consts.tokens_max) */
	codegen_emit(p, INSN_MOV64_REG(R2, R0));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R1));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R7, cb + C_TOKENS_MAX));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R2, R3, 1));
	codegen_emit(p, INSN_MOV64_REG(R2, R3));
	/* r5 = delta = tokens - cost; r3 = within = (s64)delta >= 0 */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R10, FP_COST));
	codegen_emit(p, INSN_MOV64_REG(R5, R2));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R5, R4));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_IMM(BPF_JSLT, R5, 0, 2));
	/* within: tokens = delta */
	codegen_emit(p, INSN_MOV64_REG(R2, R5));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	/* 3. r4 = base' = now - tokens; r0 = cmpxchg(word, base, base') */
	codegen_emit(p, INSN_MOV64_REG(R4, R0));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R4, R2));
	codegen_emit(p, INSN_MOV64_REG(R0, R1));
	codegen_emit(p, INSN_ATOMIC_CMPXCHG(BPF_DW, R9, R4, word));
	/* if r0 == base goto done */
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R0, R1, 0), l_done);
	/* if ++tries < LIMIT_RETRIES goto retry */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_TRIES));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_TRIES));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, LIMIT_RETRIES, 0), l_retry);
	/* out of retries: over the rate */
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	/* 4. done: if within ^ consts.invert == 0 goto break */
	codegen_label_bind(p, l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, c_invert));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_break);
}

void codegen_emit_limit(struct codegen_prog *p,
			const struct codegen_expr_ctx *ec, bool bytes)
{
	/* r9 = &base (state map); if NULL goto break */
	codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit_limit_bucket(p, bytes, 0, ec->cbase + C_INVERT,
				  ec->cbase + C_TOKENS_MAX, ec->l_break);
}

static void limit_emit(struct codegen_prog *p, const struct expr *e,
		       const struct codegen_expr_ctx *ec)
{
	const struct expr_limit *l = expr_priv(e);

	codegen_emit_limit(p, ec, l->bytes);
}

static uint32_t *limit_state_slot(struct expr *e)
{
	return &((struct expr_limit *)expr_priv(e))->slot;
}

/* nft_limit_init(): a full bucket (tokens = tokens_max, last = now) */
static uint64_t limit_state_init(const struct expr *e, uint64_t now)
{
	return now - ((const struct expr_limit *)expr_priv(e))->tokens_max;
}

const struct codegen_expr_ops codegen_expr_limit = {
	.name = "limit",
	.check = limit_check,
	.const_size = limit_const_size,
	.shape = limit_shape,
	.consts = limit_consts,
	.emit = limit_emit,
	.state_slot = limit_state_slot,
	.state_init = limit_state_init,
};
