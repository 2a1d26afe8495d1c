// SPDX-License-Identifier: GPL-2.0-only
/*
 * eui64.c - the ip6tables eui64 match (ip6t_eui64.c eui64_mt6()): true
 * when the interface identifier of the IPv6 source address (its last 8
 * bytes) is the modified EUI-64 of the Ethernet source address: the
 * MAC's first three bytes with the universal/local bit (0x02) flipped,
 * 0xff 0xfe, the MAC's last three bytes. Only for a frame whose
 * Ethernet type is ETH_P_IPV6 and an IPv6 header of version 6; no
 * options (the info is an unused int).
 *
 * Without a whole Ethernet header before skb->data (mac header unset,
 * or at the network header as on tun or ip6ip6 devices) the 6.18 kernel
 * hotdrops the packet when it is a non-first fragment and otherwise reads
 * 14 bytes at wherever the mac header points (out of the skb when unset);
 * the stable fix hotdrops every such packet, and so does this (no
 * defined bytes to compare with). The kernel allows the match in
 * PREROUTING, INPUT and FORWARD only (checked by the kernel itself).
 */
#include "codegen/xt/xt.h"

#define ETH_HLEN_	14

static void eui64_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

static void eui64_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	uint32_t l_bad = codegen_label_new(p), l_end = codegen_label_new(p);

	(void)x;
	/* mac header set and mac + ETH_HLEN <= skb->data, else hotdrop */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_bad);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 32));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R1, 32));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSGT, R1, -ETH_HLEN_, 0), l_bad);
	/* scratch[0..8) = the EUI-64 layout: h_source[0..3) at 0,
	 * h_source[3..6) at 5; scratch[8..10) = h_proto */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch) + 8, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 3, R9, 6);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch) + 5, 3, R9, 9);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch) + 8, 2, R9, 12);
	/* h_proto != htons(ETH_P_IPV6): false */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch) + 8));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0x86dd, 0), ec->l_break);
	/* eui64[3] = 0xff, eui64[4] = 0xfe, eui64[0] ^= 0x02 */
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, ST_OFF(scratch) + 3, 0xff));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, ST_OFF(scratch) + 4, 0xfe));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R1, 0x02));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, ST_OFF(scratch)));
	/* r0 = the IPv6 header's first 24 bytes (version, saddr) */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 24, ec->l_break);
	/* ipv6_hdr()->version != 6: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), ec->l_break);
	/* memcmp(saddr + 8, eui64, 8): different: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, 16));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), ec->l_break);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_eui64 = {
	.name = "eui64", .rev = 0, .family = 10 /* NFPROTO_IPV6 */, .minlen = 0,
	.const_size = 0, .shape = eui64_shape, .emit = eui64_emit,
};
