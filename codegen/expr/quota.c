// SPDX-License-Identifier: GPL-2.0-only
/*
 * quota.c - byte quota (nft_quota.c) on one u64 of the state map, shared
 * by all CPUs as the kernel's atomic64_t:
 *
 *	over = atomic_add_return(skb->len, consumed) > quota	(u64)
 *	if over ^ invert: NFT_BREAK
 *
 * A packet that brings consumed to exactly the quota is still under it
 * (nft_overquota since Linux 6.16, "match correctly when the quota just
 * depleted"; the dump calls it depleted from there, as the kernel's).
 * Every packet that reaches the expression counts, over or not, as in the
 * kernel (the dump caps what it shows at the quota).
 */
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/quota.h"

/* constants: u32 slot, u32 invert, u64 quota */
#define C_SLOT		0
#define C_INVERT	4
#define C_QUOTA		8

static int quota_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	(void)err;
	return 0;
}

static uint32_t quota_const_size(const struct expr *e)
{
	(void)e;
	return 16;
}

static void quota_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void quota_consts(const struct expr *e, uint8_t *dst,
			 const struct codegen_consts_ctx *cc)
{
	const struct expr_quota *q = expr_priv(e);
	uint32_t invert = q->invert;

	(void)cc;
	memcpy(dst + C_SLOT, &q->slot, 4);
	memcpy(dst + C_INVERT, &invert, 4);
	memcpy(dst + C_QUOTA, &q->quota, 8);
}

static void quota_emit(struct codegen_prog *p, const struct expr *e,
		       const struct codegen_expr_ctx *ec)
{
	(void)e;
	/* r0 = &consumed; if r0 == NULL goto break */
	codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
	/* r1 = atomic_fetch_add(r0, pkt.len) + pkt.len */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_MOV64_REG(R1, R2));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	/* r3 = r1 > consts.quota (u64) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, ec->cbase + C_QUOTA));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R1, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	/* if r3 ^ consts.invert goto break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_INVERT));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 0, 0), ec->l_break);
}

static uint32_t *quota_state_slot(struct expr *e)
{
	return &((struct expr_quota *)expr_priv(e))->slot;
}

/* nft_quota_do_init(): consumed starts at NFTA_QUOTA_CONSUMED */
static uint64_t quota_state_init(const struct expr *e, uint64_t now)
{
	(void)now;
	return ((const struct expr_quota *)expr_priv(e))->consumed;
}

const struct codegen_expr_ops codegen_expr_quota = {
	.name = "quota",
	.check = quota_check,
	.const_size = quota_const_size,
	.shape = quota_shape,
	.consts = quota_consts,
	.emit = quota_emit,
	.state_slot = quota_state_slot,
	.state_init = quota_state_init,
};
