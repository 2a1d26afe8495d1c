// SPDX-License-Identifier: GPL-2.0-only
/*
 * mac.c - the mac match (xt_mac.c mac_mt): the source address of the
 * packet's Ethernet header. struct xt_mac_info { u8 srcaddr[6] @0; int
 * invert @8 }. False (whatever --invert says) unless skb->dev is an
 * Ethernet device and a whole Ethernet header lies before skb->data.
 */
#include <errno.h>
#include "codegen/xt/xt.h"

#define ARPHRD_ETHER_	1
#define ETH_HLEN_	14

static void mac_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = (x->info[8] | x->info[9] | x->info[10] | x->info[11]) != 0;

	codegen_key_put(k, &inv, 1);
}

static void mac_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	bool inv = (x->info[8] | x->info[9] | x->info[10] | x->info[11]) != 0;
	uint32_t l_eq = codegen_label_new(p), l_end = codegen_label_new(p);

	/* r9 = skb->dev; NULL: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_dev, ec->l_break);
	/* dev->type != ARPHRD_ETHER: false */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 2, R9, env->off.dev_type);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ARPHRD_ETHER_, 0), ec->l_break);
	/* mac header + ETH_HLEN > skb->data (or none set): false. pkt.ll_off
	 * is mac - (data - head) when set and not at the network header
	 * (there, with skb->data at the network header, too late as well) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 32));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R1, 32));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSGT, R1, -ETH_HLEN_, 0), ec->l_break);
	/* scratch = h_source (6 bytes at the mac header + 6) */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 6, R9, 6);
	/* ether_addr_equal(h_source, srcaddr) ^ invert, else break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), inv ? l_end : ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch) + 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + 4));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_eq);
	codegen_emit_jmp(p, INSN_JA(0), inv ? l_end : ec->l_break);
	codegen_label_bind(p, l_eq);
	if (inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_mac = {
	.name = "mac", .rev = 0, .minlen = 12,
	.const_off = 0, .const_size = 6, .shape = mac_shape, .emit = mac_emit,
};
