// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcpudp.c - the tcp, udp and udplite matches (net/netfilter/xt_tcpudp.c:
 * tcp_mt, udp_mt). Info (struct xt_tcp): u16 spts[2] @0, u16 dpts[2] @4,
 * u8 option @8, flg_mask @9, flg_cmp @10, invflags @11; struct xt_udp:
 * spts, dpts, u8 invflags @8.
 */
#include <errno.h>
#include <stdio.h>
#include "codegen/xt/xt.h"

#define TCP_INV_SRCPT	0x01
#define TCP_INV_DSTPT	0x02
#define TCP_INV_FLAGS	0x04
#define UDP_INV_SRCPT	0x01
#define UDP_INV_DSTPT	0x02

static int tcp_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[8]) {
		err->msg = "xt match 'tcp' with --tcp-option is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void tcp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[11], 1);
}

static void udp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[8], 1);
}

/* the fragment test of tcp_mt (@tcp) and udp_mt */
static void emit_frag(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		      bool tcp)
{
	uint32_t l_first = codegen_label_new(p);

	/* r1 = pkt.fragoff; if r1 == 0 goto first */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_first);
	if (tcp) {
		/* fragoff == 1: hotdrop ("evil TCP offset=1 frag") */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 1, 0), ec->l_break);
		codegen_xt_emit_hotdrop(p, ec);
	} else {
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	}
	codegen_label_bind(p, l_first);
}

/* ports at r0[0], r0[2] against spts/dpts; r0 is kept in r4 */
static void emit_ports(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		       bool sinv, bool dinv)
{
	/* r4 = hdr; r1 = ntohs(hdr->source); port_match(spts) */
	codegen_emit(p, INSN_MOV64_REG(R4, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 0));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_xt_emit_port_range(p, ec, ec->cbase, sinv);
	/* r1 = ntohs(hdr->dest); port_match(dpts) */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 2));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_xt_emit_port_range(p, ec, ec->cbase + 4, dinv);
}

static void tcp_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	uint8_t inv = x->info[11];

	emit_frag(p, ec, true);
	codegen_xt_emit_th(p, ec, 20);
	emit_ports(p, ec, inv & TCP_INV_SRCPT, inv & TCP_INV_DSTPT);
	/* r1 = th[13] & flg_mask; r2 = flg_cmp; (r1 == r2) ^ inv */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R4, 13));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 9));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 10));
	codegen_emit_jmp(p, INSN_JMP_REG((inv & TCP_INV_FLAGS) ? BPF_JEQ : BPF_JNE,
					 R1, R2, 0), ec->l_break);
}

static void udp_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	uint8_t inv = x->info[8];

	emit_frag(p, ec, false);
	codegen_xt_emit_th(p, ec, 8);
	emit_ports(p, ec, inv & UDP_INV_SRCPT, inv & UDP_INV_DSTPT);
}

const struct codegen_xt_ops codegen_xt_tcp = {
	.name = "tcp", .rev = 0, .minlen = 12,
	.check = tcp_check, .const_size = 12,
	.shape = tcp_shape, .emit = tcp_emit,
};

const struct codegen_xt_ops codegen_xt_udp = {
	.name = "udp", .rev = 0, .minlen = 10,
	.const_size = 10, .shape = udp_shape, .emit = udp_emit,
};

const struct codegen_xt_ops codegen_xt_udplite = {
	.name = "udplite", .rev = 0, .minlen = 10,
	.const_size = 10, .shape = udp_shape, .emit = udp_emit,
};

/*
 * icmp_match / icmp6_match: struct ipt_icmp / ip6t_icmp: u8 type @0,
 * code[2] @1, invflags @3 (bit 0 inverts); type 0xff is "any" for icmp
 */
static void icmp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = x->info[3] & 1;

	codegen_key_put(k, &inv, 1);
}

static void emit_icmp(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec, bool any_ff)
{
	bool inv = x->info[3] & 1;
	uint32_t l_in = codegen_label_new(p), l_out = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);

	emit_frag(p, ec, false);
	codegen_xt_emit_th(p, ec, 8);
	/* r1 = ic->type; r2 = ic->code; r3 = test type */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R0, 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase));
	if (any_ff)	/* if test type == 0xff goto in */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0xff, 0), l_in);
	/* if type != test || code < min || code > max goto out */
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 1));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R2, R3, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 2));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_out);
	/* in: match unless inverted; out: match if inverted */
	codegen_label_bind(p, l_in);
	codegen_emit_jmp(p, INSN_JA(0), inv ? ec->l_break : l_end);
	codegen_label_bind(p, l_out);
	codegen_emit_jmp(p, INSN_JA(0), inv ? l_end : ec->l_break);
	codegen_label_bind(p, l_end);
}

static void icmp_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	emit_icmp(p, x, ec, true);
}

static void icmp6_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	emit_icmp(p, x, ec, false);
}

const struct codegen_xt_ops codegen_xt_icmp = {
	.name = "icmp", .rev = 0, .family = 2 /* NFPROTO_IPV4 */, .minlen = 4,
	.const_size = 4, .shape = icmp_shape, .emit = icmp_emit,
};

const struct codegen_xt_ops codegen_xt_icmp6 = {
	.name = "icmp6", .rev = 0, .family = 10 /* NFPROTO_IPV6 */, .minlen = 4,
	.const_size = 4, .shape = icmp_shape, .emit = icmp6_emit,
};
