// SPDX-License-Identifier: GPL-2.0-only
/*
 * sockmh.c - cgroup revisions 0 and 2 by net_cls class id (xt_cgroup.c
 * cgroup_mt_v0/v2; the cgroup v2 path form is refused: matching it means
 * walking the socket's cgroup ancestors against one the kernel resolved
 * from the path at checkentry) and mh (ip6t_mh.c mh_mt6).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define TCP_TIME_WAIT_		6
#define TCP_NEW_SYN_RECV_	12
#define NFPROTO_IPV6_		10
#define IPPROTO_NONE_		59

/*
 * cgroup: the packet's own socket (skb->sk, no request socket mapping),
 * a full one (sk_fullsock()) of this netns, else false; then
 * (classid == sock_cgroup_classid()) ^ invert, an int (invert above 1:
 * always true). v0: struct xt_cgroup_info_v0 { u32 id @0; u32 invert @4 };
 * v2: { u8 has_path @0, has_classid @1, invert_path @2, invert_classid
 * @3; union { char path[512]; u32 classid; } @4; priv }
 */
static uint32_t cgroup_inv(const struct expr_xt *x)
{
	uint32_t inv;

	if (x->rev == 2)
		inv = x->info[3];
	else
		memcpy(&inv, x->info + 4, 4);
	return inv > 2 ? 2 : inv;
}

static int cgroup_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->rev != 2 || !x->info[0])
		return 0;
	err->msg = "xt match 'cgroup' with --path (the socket's cgroup ancestry) is not supported by the nfbpf dataplane yet";
	return -EOPNOTSUPP;
}

static void cgroup_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = (uint8_t)cgroup_inv(x);

	codegen_key_put(k, &inv, 1);
}

static void cgroup_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst, x->info + (x->rev == 2 ? 4 : 0), 4);
}

static void cgroup_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t inv = cgroup_inv(x);

	/* r9 = skb->sk; NULL: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_sk, ec->l_break);
	/* !sk_fullsock(sk): false */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R9, env->off.sk_state);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_TIME_WAIT_, 0), ec->l_break);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_NEW_SYN_RECV_, 0), ec->l_break);
	/* sock_net(sk) != the hook's net: false */
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, R9, env->off.sk_net);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(net_addr)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), ec->l_break);
	if (inv > 1)
		return;
	/* r1 = sock_cgroup_classid(); (r1 == classid) ^ invert */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, env->off.sk_classid);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_cgroup0 = {
	.name = "cgroup", .rev = 0, .minlen = 8, .check = cgroup_check,
	.const_size = 4, .consts = cgroup_consts, .shape = cgroup_shape,
	.emit = cgroup_emit,
};

const struct codegen_xt_ops codegen_xt_cgroup2 = {
	.name = "cgroup", .rev = 2, .minlen = 8, .check = cgroup_check,
	.const_size = 4, .consts = cgroup_consts, .shape = cgroup_shape,
	.emit = cgroup_emit,
};

/*
 * mh: struct ip6t_mh { u8 types[2] @0; u8 invflags @2 }: a non-first
 * fragment: false; the mobility header (struct ip6_mh, 6 bytes) at
 * par->thoff past the packet, or its payload proto not IPPROTO_NONE:
 * hotdrop; else (type in [types[0], types[1]]) ^ inverted
 */
#define MH_INV_TYPE		0x01

static void mh_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = (x->info[2] & MH_INV_TYPE) != 0;

	codegen_key_put(k, &inv, 1);
}

static void mh_emit(struct codegen_prog *p, const struct expr_xt *x,
		    const struct codegen_expr_ctx *ec)
{
	bool inv = x->info[2] & MH_INV_TYPE;
	uint32_t l_drop = codegen_label_new(p), l_in, l_out;

	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	codegen_xt_emit_th(p, ec, 6);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, IPPROTO_NONE_, 0), l_drop);
	/* r1 = type; r2, r3 = types[0], types[1] */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 1));
	l_in = inv ? ec->l_break : codegen_label_new(p);
	l_out = inv ? codegen_label_new(p) : ec->l_break;
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_out);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R3, 0), l_out);
	codegen_emit_jmp(p, INSN_JA(0), l_in);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, inv ? l_out : l_in);
}

const struct codegen_xt_ops codegen_xt_mh = {
	.name = "mh", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 3,
	.const_size = 2, .shape = mh_shape, .emit = mh_emit,
};
