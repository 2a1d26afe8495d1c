// SPDX-License-Identifier: GPL-2.0-only
/*
 * conntrack.c - the state match (xt_state.c state_mt) and the conntrack
 * match's state test (xt_conntrack.c conntrack_mt, revisions 1-3), on
 * skb->_nfct as the walker keeps it in pkt.nfct (see codegen/expr/ct.c).
 *
 * conntrack translates every test of conntrack_mt(): --ctstate (with
 * the STATE_ALIAS bit iptables sets for -m state), --ctdir, the four
 * tuple addresses with their masks (compared as the rule's family's
 * addresses, whatever the entry's l3num, as conntrack_addrcmp()),
 * --ctproto, the four tuple ports (revisions 1-2: one network order
 * port, revision 3: a host order range), --ctstatus and --ctexpire (in
 * seconds: nf_ct_expires() / HZ). Bits differ between state and
 * conntrack: untracked is 1 << 6 for state but 1 << 8 for conntrack,
 * whose 1 << 6 and 1 << 7 are SNAT and DNAT (from ct->status).
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
#define CTINFO_MASK		7	/* NFCT_INFOMASK */
#define CT_IS_REPLY		3	/* IP_CT_IS_REPLY */
#define NFPROTO_IPV4_		2
#define NFPROTO_IPV6_		10

/* match_flags / invert_flags (XT_CONNTRACK_*) */
#define CT_F_STATE		0x0001
#define CT_F_PROTO		0x0002
#define CT_F_ORIGSRC		0x0004	/* ORIGDST, REPLSRC, REPLDST follow */
#define CT_F_STATUS		0x0040
#define CT_F_EXPIRES		0x0080
#define CT_F_ORIGSRC_PORT	0x0100	/* then ORIGDST, REPLSRC, REPLDST */
#define CT_F_DIRECTION		0x1000
#define CT_F_STATE_ALIAS	0x2000

/* struct xt_conntrack_mtinfo{1,2,3} */
#define CT_OFF_ADDRS		0	/* 4 x (nf_inet_addr addr, mask) */
#define CT_OFF_EXPIRES		128	/* u32 expires_min, expires_max */
#define CT_OFF_L4PROTO		136	/* u16 */
#define CT_OFF_PORTS		138	/* 4 x u16 (be16 before rev 3) */
#define CT_OFF_FLAGS		146	/* match_flags, then invert_flags */
#define CT_OFF_STATE		150	/* state_mask: u8 in rev 1, u16 after */
#define CT_OFF_STATUS1		151	/* status_mask, rev 1: u8 */
#define CT_OFF_STATUS		152	/* status_mask, rev 2-3: u16 */
#define CT_OFF_PORTS_HIGH	154	/* rev 3: 4 x u16 */

/* the rule constants (conntrack_consts()) */
#define K_STATE			0	/* u16 state_mask */
#define K_STATUS		2	/* u16 status_mask */
#define K_PROTO			4	/* u16 l4proto */
#define K_EXP_MIN		8	/* u32 */
#define K_EXP_MAX		12	/* u32 */
#define K_PORTS			16	/* 4 x (u16 port, u16 port_high) */
#define K_ADDRS			32	/* each asked address: addr, mask */

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

static uint16_t ct_flags(const struct expr_xt *x)
{
	return u16_at(x, CT_OFF_FLAGS);
}

/* the inversion bits of the tests asked for */
static uint16_t ct_inv(const struct expr_xt *x)
{
	return u16_at(x, CT_OFF_FLAGS + 2) & ct_flags(x);
}

static uint16_t ct_state_mask(const struct expr_xt *x)
{
	return x->rev == 1 ? x->info[CT_OFF_STATE] : u16_at(x, CT_OFF_STATE);
}

static uint16_t ct_status_mask(const struct expr_xt *x)
{
	return x->rev == 1 ? x->info[CT_OFF_STATUS1] : u16_at(x, CT_OFF_STATUS);
}

/* bytes of one address of the rule's family (0: conntrack_addrcmp()
 * is false for any other family) */
static uint32_t ct_alen(const struct expr_xt *x)
{
	return x->family == NFPROTO_IPV4_ ? 4 : x->family == NFPROTO_IPV6_ ? 16 : 0;
}

static uint32_t ct_const_size(const struct expr_xt *x)
{
	uint16_t f = ct_flags(x);
	uint32_t n = 0, i;

	for (i = 0; i < 4; i++)
		if (f & (CT_F_ORIGSRC << i))
			n++;
	return K_ADDRS + n * 2 * ct_alen(x);
}

static void conntrack_consts(const struct expr_xt *x, uint8_t *dst)
{
	uint16_t f = ct_flags(x), v;
	uint32_t alen = ct_alen(x), off = K_ADDRS, i;

	memset(dst, 0, K_ADDRS);
	v = ct_state_mask(x);
	memcpy(dst + K_STATE, &v, 2);
	v = ct_status_mask(x);
	memcpy(dst + K_STATUS, &v, 2);
	memcpy(dst + K_PROTO, x->info + CT_OFF_L4PROTO, 2);
	memcpy(dst + K_EXP_MIN, x->info + CT_OFF_EXPIRES, 8);
	for (i = 0; i < 4; i++) {
		memcpy(dst + K_PORTS + 4 * i, x->info + CT_OFF_PORTS + 2 * i, 2);
		if (x->rev == 3)
			memcpy(dst + K_PORTS + 4 * i + 2,
			       x->info + CT_OFF_PORTS_HIGH + 2 * i, 2);
	}
	for (i = 0; i < 4; i++) {
		if (!(f & (CT_F_ORIGSRC << i)))
			continue;
		memcpy(dst + off, x->info + CT_OFF_ADDRS + 32 * i, alen);
		memcpy(dst + off + alen, x->info + CT_OFF_ADDRS + 32 * i + 16, alen);
		off += 2 * alen;
	}
}

/* what changes the code: the tests and their inversions, the family,
 * whether SNAT/DNAT are asked */
static void conntrack_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint16_t f = ct_flags(x), inv = ct_inv(x);
	uint8_t nat = (ct_state_mask(x) & (CONNTRACK_SNAT | CONNTRACK_DNAT)) != 0;

	codegen_key_put(k, &f, 2);
	codegen_key_put(k, &inv, 2);
	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &nat, 1);
}

static void emit_state_test(struct codegen_prog *p, const struct expr_xt *x,
			    const struct codegen_expr_ctx *ec)
{
	bool inv = ct_inv(x) & CT_F_STATE;
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
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, ec->cbase + K_STATE));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R3, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(inv ? BPF_JNE : BPF_JEQ, R3, 0, 0),
			 ec->l_break);
}

/* offset from the nf_conn of a tuple field of direction @dir, -1 if
 * this kernel's BTF lacks it (the program then fails: EOPNOTSUPP) */
static int16_t tup(const struct codegen_env *env, int dir, int16_t field)
{
	if (env->off.ct_tuple < 0 || env->off.ct_tuple_stride < 0 || field < 0)
		return -1;
	return env->off.ct_tuple + (dir ? env->off.ct_tuple_stride : 0) + field;
}

/* r1 = the @len byte member at r9 + @src (zero extended) */
static void emit_member(struct codegen_prog *p, int16_t src, uint32_t len)
{
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), len, R9, src);
	codegen_emit(p, INSN_LDX_MEM(len == 1 ? BPF_B : len == 2 ? BPF_H : BPF_W,
				     R1, R6, ST_OFF(scratch)));
}

/*
 * a test whose truth is (r1 == r2): false (break) when it is the
 * inversion (conntrack_mt's "test ^ !inverted" returns false)
 */
static void emit_eq_test(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			 bool inv)
{
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

/* conntrack_addrcmp() of the tuple address at r9 + @src against the
 * address and mask at the constants + @coff */
static void emit_addr_test(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec, int16_t src,
			   int16_t coff, bool inv)
{
	uint32_t alen = ct_alen(x), i;
	uint32_t l_ne = inv ? codegen_label_new(p) : ec->l_break;

	if (!alen) {
		/* never equal: false unless inverted */
		if (!inv)
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		return;
	}
	codegen_emit_probe_read(p, ST_OFF(scratch), alen, R9, src);
	for (i = 0; i < alen; i += 4) {
		/* if ((kaddr ^ uaddr) & umask) goto ne */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch) + i));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + coff + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + coff + alen + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_ne);
	}
	if (inv) {
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		codegen_label_bind(p, l_ne);
	}
}

/*
 * --ctexpire: expires = max((s32)(ct->timeout - (u32)jiffies), 0) / HZ
 * (nf_ct_expires()), in [expires_min, expires_max] ^ inverted
 */
static void emit_expires_test(struct codegen_prog *p,
			      const struct codegen_expr_ctx *ec, bool inv)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_pos = codegen_label_new(p);

	if (!env->jiffy_msecs || 1000 % env->jiffy_msecs) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	emit_member(p, env->off.ct_timeout, 4);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R0));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JSGE, R1, 0, 0), l_pos);
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_label_bind(p, l_pos);
	codegen_emit(p, INSN_ALU32_IMM(BPF_DIV, R1, 1000 / env->jiffy_msecs));
	{
		uint32_t l_in = inv ? ec->l_break : codegen_label_new(p);
		uint32_t l_out = inv ? codegen_label_new(p) : ec->l_break;

		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + K_EXP_MIN));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, ec->cbase + K_EXP_MAX));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_out);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R3, 0), l_out);
		codegen_emit_jmp(p, INSN_JA(0), l_in);
		codegen_label_bind(p, inv ? l_out : l_in);
	}
}

static void conntrack_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint16_t f = ct_flags(x), inv = ct_inv(x);
	uint32_t l_true = codegen_label_new(p), i;
	int16_t coff = K_ADDRS;

	if (f & CT_F_STATE)
		emit_state_test(p, x, ec);
	if (!(f & ~(CT_F_STATE | CT_F_STATE_ALIAS))) {
		/* no other test: true with or without a conntrack */
		codegen_label_bind(p, l_true);
		return;
	}
	/* r9 = ct; none: the state test decides (true if asked, else false) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~CTINFO_MASK));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0),
			 (f & CT_F_STATE) ? l_true : ec->l_break);
	if (f & CT_F_DIRECTION) {
		/* (CTINFO2DIR(ctinfo) == ORIGINAL) ^ !inverted: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(nfct)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, CTINFO_MASK));
		codegen_emit_jmp(p, INSN_JMP_IMM((inv & CT_F_DIRECTION) ? BPF_JLT : BPF_JGE,
						 R1, CT_IS_REPLY, 0), ec->l_break);
	}
	for (i = 0; i < 4; i++) {
		/* ORIGSRC, ORIGDST, REPLSRC, REPLDST */
		if (!(f & (CT_F_ORIGSRC << i)))
			continue;
		emit_addr_test(p, x, ec, tup(env, i >= 2, i & 1 ? env->off.tup_dst_u3 :
					    env->off.tup_src_u3), coff,
			       inv & (CT_F_ORIGSRC << i));
		coff += 2 * ct_alen(x);
	}
	if (f & CT_F_PROTO) {
		/* (nf_ct_protonum(ct) == l4proto) ^ !inverted: false */
		emit_member(p, tup(env, 0, env->off.tup_protonum), 1);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + K_PROTO));
		emit_eq_test(p, ec, inv & CT_F_PROTO);
	}
	for (i = 0; i < 4; i++) {
		/* tuple src.u.all / dst.u.all: a be16 port or an id */
		if (!(f & (CT_F_ORIGSRC_PORT << i)))
			continue;
		emit_member(p, tup(env, i >= 2, i & 1 ? env->off.tup_dst_u :
				   env->off.tup_src_u), 2);
		if (x->rev != 3) {
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7,
						     ec->cbase + K_PORTS + 4 * i));
			emit_eq_test(p, ec, inv & (CT_F_ORIGSRC_PORT << i));
			continue;
		}
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + K_PORTS + 4 * i,
					   inv & (CT_F_ORIGSRC_PORT << i));
	}
	if (f & CT_F_STATUS) {
		/* !!(status_mask & ct->status) ^ !inverted: false */
		emit_member(p, env->off.ct_status, 4);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + K_STATUS));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit_jmp(p, INSN_JMP_IMM((inv & CT_F_STATUS) ? BPF_JNE : BPF_JEQ,
						 R1, 0, 0), ec->l_break);
	}
	if (f & CT_F_EXPIRES)
		emit_expires_test(p, ec, inv & CT_F_EXPIRES);
	codegen_label_bind(p, l_true);
}

const struct codegen_xt_ops codegen_xt_conntrack1 = {
	.name = "conntrack", .rev = 1, .minlen = 152, .reads_ct = true,
	.const_size_of = ct_const_size,
	.consts = conntrack_consts, .shape = conntrack_shape,
	.emit = conntrack_emit,
};

const struct codegen_xt_ops codegen_xt_conntrack2 = {
	.name = "conntrack", .rev = 2, .minlen = 154, .reads_ct = true,
	.const_size_of = ct_const_size,
	.consts = conntrack_consts, .shape = conntrack_shape,
	.emit = conntrack_emit,
};

const struct codegen_xt_ops codegen_xt_conntrack3 = {
	.name = "conntrack", .rev = 3, .minlen = 162, .reads_ct = true,
	.const_size_of = ct_const_size,
	.consts = conntrack_consts, .shape = conntrack_shape,
	.emit = conntrack_emit,
};
