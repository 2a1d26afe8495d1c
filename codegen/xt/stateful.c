// SPDX-License-Identifier: GPL-2.0-only
/*
 * stateful.c - matches with one word of state per rule, shared by every
 * CPU as the kernel's per-rule master: statistic (xt_statistic.c) and
 * quota (xt_quota.c). The word is a u64 of the state map in the slot the
 * rule owns (codegen_xt_ops.state_init; the slot is x->dp_aux and the
 * first u32 of the constants, as the quota expression's).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

/*
 * statistic: struct xt_statistic_info { u16 mode @0, flags @2; union {
 * u32 probability @4 | u32 every @4, packet @8, count @12 }; master }:
 *
 *	random: (get_random_u32() & 0x7fffffff) < probability
 *	nth: count steps 0, 1, ..., every, 0, ... from its first value
 *	     (info->u.nth.count), atomically; the packet that brings it to
 *	     0 matches
 *	either ^ (flags & XT_STATISTIC_INVERT)
 *
 * nth keeps the packets seen plus the first count (one atomic add), the
 * step a packet takes being (word + 1) % (every + 1): the same sequence
 * while the first count is at most every (iptables checks it; above it,
 * the kernel's counter runs up through the u32 wrap first: refused).
 * BPF's bpf_get_prandom_u32() is the same kind of per-CPU PRNG as
 * get_random_u32(), not the same numbers.
 */
#define STAT_MODE_RANDOM	0
#define STAT_MODE_NTH		1
#define STAT_INVERT		1
/* constants: u32 slot, u32 probability, u64 every + 1 */
#define C_SLOT			0
#define C_PROB			4
#define C_MOD			8

static uint16_t u16_at(const struct expr_xt *x, uint32_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

static uint32_t u32_at(const struct expr_xt *x, uint32_t off)
{
	uint32_t v;

	memcpy(&v, x->info + off, 4);
	return v;
}

static int statistic_check(const struct expr_xt *x, struct dp_error *err)
{
	uint16_t mode = u16_at(x, 0);

	if (mode == STAT_MODE_RANDOM ||
	    (mode == STAT_MODE_NTH && u32_at(x, 12) <= u32_at(x, 4)))
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'statistic' mode %u%s is not supported by the nfbpf dataplane",
		 mode, mode == STAT_MODE_NTH ? " with a first count above --every" : "");
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static void statistic_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { (uint8_t)u16_at(x, 0), (u16_at(x, 2) & STAT_INVERT) != 0 };

	codegen_key_put(k, v, 2);
}

static void statistic_consts(const struct expr_xt *x, uint8_t *dst)
{
	uint64_t mod = (uint64_t)u32_at(x, 4) + 1;

	memcpy(dst + C_SLOT, &x->dp_aux, 4);
	memcpy(dst + C_PROB, x->info + 4, 4);
	memcpy(dst + C_MOD, &mod, 8);
}

static void statistic_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	bool inv = u16_at(x, 2) & STAT_INVERT;

	if (u16_at(x, 0) == STAT_MODE_RANDOM) {
		/* r0 = prandom & 0x7fffffff; r1 = probability; hit: r0 < r1 */
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_prandom_u32));
		codegen_emit(p, INSN_ALU32_IMM(BPF_AND, R0, 0x7fffffff));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_PROB));
		codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JLT : BPF_JGE, R0, R1, 0),
				 ec->l_break);
		return;
	}
	/* r0 = &word; r1 = atomic_fetch_add(r0, 1) + 1; r1 %= every + 1 */
	codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, ec->cbase + C_MOD));
	codegen_emit(p, INSN_ALU64_REG(BPF_MOD, R1, R2));
	/* hit: the new count is 0 */
	codegen_emit_jmp(p, INSN_JMP_IMM(inv ? BPF_JEQ : BPF_JNE, R1, 0, 0),
			 ec->l_break);
}

/* the word's first value: info->u.nth.count (checkentry's atomic_set) */
static uint64_t statistic_state_init(const struct expr_xt *x, uint64_t now)
{
	(void)now;
	return u16_at(x, 0) == STAT_MODE_NTH ? u32_at(x, 12) : 0;
}

const struct codegen_xt_ops codegen_xt_statistic = {
	.name = "statistic", .rev = 0, .minlen = 16, .check = statistic_check,
	.const_size = 16, .consts = statistic_consts, .shape = statistic_shape,
	.emit = statistic_emit, .state_init = statistic_state_init,
};

/*
 * quota: struct xt_quota_info { u32 flags @0; u32 pad; u64 quota @8;
 * master }: the master's remaining bytes start at quota; a packet that
 * fits takes its skb->len from them and matches, one that does not
 * empties them and does not (nor does any after it); ^ XT_QUOTA_INVERT.
 * As bytes consumed (one atomic add of every packet's length): a packet
 * matches iff consumed + len <= quota; once one did not, consumed stays
 * above quota.
 */
#define QUOTA_INVERT	1
/* constants: u32 slot, u32 pad, u64 quota */
#define C_QUOTA		8

static void quota_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = (u32_at(x, 0) & QUOTA_INVERT) != 0;

	codegen_key_put(k, &inv, 1);
}

static void quota_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst + C_SLOT, &x->dp_aux, 4);
	memset(dst + 4, 0, 4);
	memcpy(dst + C_QUOTA, x->info + 8, 8);
}

static void quota_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	bool inv = u32_at(x, 0) & QUOTA_INVERT;

	/* r0 = &consumed; r1 = atomic_fetch_add(r0, len) + len */
	codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_MOV64_REG(R1, R2));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	/* hit: r1 <= quota */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R7, ec->cbase + C_QUOTA));
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JLE : BPF_JGT, R1, R3, 0),
			 ec->l_break);
}

static uint64_t quota_state_init(const struct expr_xt *x, uint64_t now)
{
	(void)now;
	(void)x;
	return 0;
}

const struct codegen_xt_ops codegen_xt_quota = {
	.name = "quota", .rev = 0, .minlen = 16, .const_size = 16,
	.consts = quota_consts, .shape = quota_shape, .emit = quota_emit,
	.state_init = quota_state_init,
};
