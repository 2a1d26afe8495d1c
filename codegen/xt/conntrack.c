// SPDX-License-Identifier: GPL-2.0-only
/*
 * conntrack.c - the state match (xt_state.c state_mt) and the conntrack
 * match's state test (xt_conntrack.c conntrack_mt, revisions 1-3), on
 * skb->_nfct as the walker keeps it in pkt.nfct (see codegen/expr/ct.c).
 *
 * conntrack translates only --ctstate (match_flags STATE, and the
 * STATE_ALIAS bit iptables sets for -m state): the tuple, status,
 * expiry and direction tests are refused. Bits differ between the two:
 * untracked is 1 << 6 for state but 1 << 8 for conntrack, whose 1 << 6
 * and 1 << 7 are SNAT and DNAT (from ct->status).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define STATE_UNTRACKED		64	/* XT_STATE_UNTRACKED */
#define CONNTRACK_SNAT		64	/* XT_CONNTRACK_STATE_SNAT */
#define CONNTRACK_DNAT		128	/* XT_CONNTRACK_STATE_DNAT */
#define CONNTRACK_UNTRACKED	256	/* XT_CONNTRACK_STATE_UNTRACKED */
#define IPS_SRC_NAT		0x10
#define IPS_DST_NAT		0x20
#define CT_F_STATE		0x0001	/* XT_CONNTRACK_STATE */
#define CT_F_STATE_ALIAS	0x2000	/* XT_CONNTRACK_STATE_ALIAS */
#define CT_OFF_FLAGS		146	/* match_flags, then invert_flags */
#define CT_OFF_STATE		150	/* state_mask: u8 in rev 1, u16 after */

/* state: struct xt_state_info { unsigned int statemask @0 } */
static void state_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

static void state_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* if !(statemask & statebit) goto break */
	codegen_emit_ct_state(p, STATE_UNTRACKED);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R3, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), ec->l_break);
}

const struct codegen_xt_ops codegen_xt_state = {
	.name = "state", .rev = 0, .minlen = 4, .reads_ct = true,
	.const_size = 4, .shape = state_shape, .emit = state_emit,
};

/* conntrack rev 1-3 */
static uint16_t u16_at(const struct expr_xt *x, uint32_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

static uint16_t ct_state_mask(const struct expr_xt *x)
{
	return x->rev == 1 ? x->info[CT_OFF_STATE] : u16_at(x, CT_OFF_STATE);
}

static int conntrack_check(const struct expr_xt *x, struct dp_error *err)
{
	uint16_t flags = u16_at(x, CT_OFF_FLAGS);

	if ((flags & CT_F_STATE) && !(flags & ~(CT_F_STATE | CT_F_STATE_ALIAS)))
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'conntrack' beyond --ctstate (flags 0x%x) is not supported by the nfbpf dataplane yet",
		 flags);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

/* what changes the code: inversion, and whether SNAT/DNAT are asked */
static void conntrack_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = (u16_at(x, CT_OFF_FLAGS + 2) & CT_F_STATE) != 0;
	uint8_t nat = (ct_state_mask(x) & (CONNTRACK_SNAT | CONNTRACK_DNAT)) != 0;

	codegen_key_put(k, &inv, 1);
	codegen_key_put(k, &nat, 1);
}

static void conntrack_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	bool inv = u16_at(x, CT_OFF_FLAGS + 2) & CT_F_STATE;
	bool nat = ct_state_mask(x) & (CONNTRACK_SNAT | CONNTRACK_DNAT);
	uint32_t l_nonat = codegen_label_new(p);

	codegen_emit_ct_state(p, CONNTRACK_UNTRACKED);
	if (nat) {
		uint32_t l_snat = codegen_label_new(p);

		/* with a conntrack: statebit |= SNAT/DNAT from ct->status */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_nonat);
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R3, ST_OFF(scratch) + 8));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
		codegen_emit_probe_read(p, ST_OFF(scratch), 4, R4,
					ec->env->off.ct_status);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, ST_OFF(scratch) + 8));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, IPS_SRC_NAT));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_snat);
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R3, CONNTRACK_SNAT));
		codegen_label_bind(p, l_snat);
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IPS_DST_NAT));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_nonat);
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R3, CONNTRACK_DNAT));
	}
	codegen_label_bind(p, l_nonat);
	/* r1 = state_mask; !!(mask & statebit) ^ !inverted: false */
	if (x->rev == 1)
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7, ec->cbase));
	else
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, ec->cbase));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R3, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(inv ? BPF_JNE : BPF_JEQ, R3, 0, 0),
			 ec->l_break);
	/* no other test: true with or without a conntrack */
}

const struct codegen_xt_ops codegen_xt_conntrack1 = {
	.name = "conntrack", .rev = 1, .minlen = 152, .reads_ct = true,
	.check = conntrack_check, .const_off = CT_OFF_STATE, .const_size = 2,
	.shape = conntrack_shape, .emit = conntrack_emit,
};

const struct codegen_xt_ops codegen_xt_conntrack2 = {
	.name = "conntrack", .rev = 2, .minlen = 154, .reads_ct = true,
	.check = conntrack_check, .const_off = CT_OFF_STATE, .const_size = 2,
	.shape = conntrack_shape, .emit = conntrack_emit,
};

const struct codegen_xt_ops codegen_xt_conntrack3 = {
	.name = "conntrack", .rev = 3, .minlen = 162, .reads_ct = true,
	.check = conntrack_check, .const_off = CT_OFF_STATE, .const_size = 2,
	.shape = conntrack_shape, .emit = conntrack_emit,
};
