// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcpudp.c - the tcp, udp and udplite matches (net/netfilter/xt_tcpudp.c:
 * tcp_mt with tcp_find_option, udp_mt). Info (struct xt_tcp): u16 spts[2] @0, u16 dpts[2] @4,
 * u8 option @8, flg_mask @9, flg_cmp @10, invflags @11; struct xt_udp:
 * spts, dpts, u8 invflags @8.
 */
#include <errno.h>
#include <stdio.h>
#include "codegen/xt/xt.h"

#define TCP_INV_SRCPT	0x01
#define TCP_INV_DSTPT	0x02
#define TCP_INV_FLAGS	0x04
#define TCP_INV_OPTION	0x08
#define TCP_OPT_STEPS	40	/* at most 40 option bytes, >= 1 a step */
#define OPT_BUF		SHAPE_BUF_OFF	/* the options, zero padded */
#define UDP_INV_SRCPT	0x01
#define UDP_INV_DSTPT	0x02

static void tcp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t opt = x->info[8] != 0;

	codegen_key_put(k, &x->info[11], 1);
	codegen_key_put(k, &opt, 1);
}

/*
 * --tcp-option (tcp_mt(), tcp_find_option()), r4 = the TCP header: a
 * data offset below 5 words hotdrops; optlen = doff * 4 - 20 bytes of
 * options read with skb_header_pointer() (past the packet: hotdrop);
 * none: invert; else walk them (kind < 2: one byte, else its length
 * byte, 0 counting as 1) until one has the kind asked for: !invert, or
 * the end: invert. The walk is unrolled (each step moves at least one
 * byte of at most 40) and branch-free but for its exits.
 */
static void emit_option(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			bool inv)
{
	uint32_t l_drop = codegen_label_new(p), l_none = codegen_label_new(p);
	uint32_t l_found = codegen_label_new(p), l_end = codegen_label_new(p);
	int16_t off;
	uint32_t i;

	/* r9 = th->doff * 4; < 20: hotdrop; r9 -= 20; none: invert */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R9, R4, 12));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R9, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R9, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R9, 20, 0), l_drop);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R9, 20));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_none);
	/* the buffer zeroed; bpf_dynptr_read(buf, optlen, view, thoff +
	 * 20, 0) (the view from codegen_xt_emit_th()); fails: hotdrop */
	for (off = OPT_BUF; off < OPT_BUF + 48; off += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, off, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 20));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, OPT_BUF));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_drop);
	/* r1 = i = 0; r3 = the kind asked for */
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 8));
	for (i = 0; i < TCP_OPT_STEPS; i++) {
		/* if i >= optlen goto none; r2 = op[i]; == kind: found */
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R1, R9, 0), l_none);
		codegen_emit(p, INSN_MOV64_REG(R5, R10));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R5, R1));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R5, OPT_BUF));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R2, R3, 0), l_found);
		/* r0 = op[i + 1] if op[i] >= 2 (r2 = (op[i] + 254) >> 8),
		 * else 0; i += r0 ?: 1 */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R0, R5, OPT_BUF + 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 254));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 8));
		codegen_emit(p, INSN_ALU64_REG(BPF_MUL, R0, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R0));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, 255));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R0, 8));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R0));
	}
	/* none: invert; found: !invert */
	codegen_label_bind(p, l_none);
	codegen_emit_jmp(p, INSN_JA(0), inv ? l_end : ec->l_break);
	codegen_label_bind(p, l_found);
	codegen_emit_jmp(p, INSN_JA(0), inv ? ec->l_break : l_end);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
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
	if (x->info[8])
		emit_option(p, ec, inv & TCP_INV_OPTION);
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
	.const_size = 12,
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
