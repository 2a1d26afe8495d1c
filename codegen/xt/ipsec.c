// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipsec.c - the IPsec header matches: esp (xt_esp.c esp_mt), ipcomp
 * (xt_ipcomp.c comp_mt), ah for IPv4 (ipt_ah.c ah_mt) and for IPv6
 * (ip6t_ah.c ah_mt6). Each compares an SPI (the CPI for IPComp) with a
 * range, spi_match(): (min <= spi <= max) ^ invert.
 *
 * esp, ipcomp and IPv4 ah read their header at par->thoff: a non-first
 * fragment is false, a header past the packet hotdrops. IPv6 ah finds
 * the AH header with ipv6_find_hdr(NEXTHDR_AUTH) (-ENOENT: false, any
 * other error: hotdrop), reads its 12 bytes (past the packet: hotdrop)
 * and also compares its length (ipv6_authlen(), when asked) and, with
 * --ahres, wants its reserved field 0.
 *
 * struct xt_esp, struct xt_ipcomp, struct ipt_ah { u32 spis[2] @0; u8
 * invflags @8 } (invert the SPI: 0x01); struct ip6t_ah { u32 spis[2] @0;
 * u32 hdrlen @8; u8 hdrres @12, invflags @13 } (0x01 SPI, 0x02 length).
 */
#include <string.h>

#include "codegen/xt/xt.h"

#define INV_SPI		0x01
#define INV_LEN		0x02
#define NH_AUTH		51	/* NEXTHDR_AUTH */
#define NFPROTO_IPV4_	2

/* the SPI's inversion, at @off of the info */
static void spi_shape(const struct expr_xt *x, uint32_t off,
		      struct codegen_key *k)
{
	uint8_t inv = (x->info[off] & INV_SPI) != 0;

	codegen_key_put(k, &inv, 1);
}

static void esp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	spi_shape(x, 8, k);
}

/*
 * a non-first fragment: false; r0 = @len bytes at par->thoff (past the
 * packet: hotdrop); r1 = the @size-byte SPI at @spi_off of them, host
 * order; spi_match() with the bounds of the constants
 */
static void emit_th_spi(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			uint32_t len, int16_t spi_off, int size, bool inv)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	codegen_xt_emit_th(p, ec, len);
	codegen_emit(p, INSN_LDX_MEM(size == 4 ? BPF_W : BPF_H, R1, R0, spi_off));
	codegen_emit(p, INSN_TO_BE(R1, size * 8));
	codegen_xt_emit_range(p, ec, ec->cbase, 4, inv);
}

/* esp: struct ip_esp_hdr { be32 spi; be32 seq_no } */
static void esp_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	emit_th_spi(p, ec, 8, 0, 4, x->info[8] & INV_SPI);
}

const struct codegen_xt_ops codegen_xt_esp = {
	.name = "esp", .rev = 0, .minlen = 9,
	.const_size = 8, .shape = esp_shape, .emit = esp_emit,
};

/* ipcomp: struct ip_comp_hdr { u8 nexthdr, flags; be16 cpi } */
static void ipcomp_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	emit_th_spi(p, ec, 4, 2, 2, x->info[8] & INV_SPI);
}

const struct codegen_xt_ops codegen_xt_ipcomp = {
	.name = "ipcomp", .rev = 0, .minlen = 9,
	.const_size = 8, .shape = esp_shape, .emit = ipcomp_emit,
};

/* IPv4 ah: struct ip_auth_hdr { u8 nexthdr, hdrlen; be16 reserved; be32
 * spi; be32 seq_no } */
static void ah4_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	emit_th_spi(p, ec, 12, 4, 4, x->info[8] & INV_SPI);
}

const struct codegen_xt_ops codegen_xt_ah4 = {
	.name = "ah", .rev = 0, .family = NFPROTO_IPV4_, .minlen = 9,
	.const_size = 8, .shape = esp_shape, .emit = ah4_emit,
};

/* the code: the inversions, whether a length and --ahres are asked */
static void ah6_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint32_t hdrlen;
	uint8_t v[3];

	memcpy(&hdrlen, &x->info[8], 4);
	v[0] = x->info[13] & (INV_SPI | INV_LEN);
	v[1] = hdrlen != 0;
	v[2] = x->info[12] != 0;
	codegen_key_put(k, v, sizeof(v));
}

static void ah6_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_bad = codegen_label_new(p), l_end = codegen_label_new(p);
	uint8_t inv = x->info[13];
	uint32_t hdrlen;

	memcpy(&hdrlen, &x->info[8], 4);
	/* ptr = ipv6_find_hdr(NEXTHDR_AUTH): -ENOENT: false, else hotdrop */
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	codegen_emit_ipv6_find_hdr(p, env, SHAPE_DYNPTR_OFF, NH_AUTH, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, IP6WALK_EBADMSG, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), ec->l_break);
	/* r9 = the 12 bytes at ptr, copied to the frame (past the packet:
	 * hotdrop): bpf_dynptr_read(buf, 12, view, ptr, 0) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R10,
				     SHAPE_DYNPTR_OFF + IP6WALK_OFF(start)));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_BUF_OFF + 32));
	codegen_emit(p, INSN_MOV64_IMM(R2, 12));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_bad);
	codegen_emit(p, INSN_MOV64_REG(R9, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R9, SHAPE_BUF_OFF + 32));
	/* spi_match() */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, 4));
	codegen_emit(p, INSN_TO_BE(R1, 32));
	codegen_xt_emit_range(p, ec, ec->cbase, 4, inv & INV_SPI);
	if (hdrlen) {
		/* (hdrlen == (ah->hdrlen + 2) << 2) ^ invert */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 8));
		codegen_emit_jmp(p, INSN_JMP_REG((inv & INV_LEN) ? BPF_JEQ : BPF_JNE,
						 R1, R2, 0), ec->l_break);
	}
	if (x->info[12]) {
		/* --ahres: the reserved field must be 0 */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R9, 2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_ah6 = {
	.name = "ah", .rev = 0, .family = 10 /* NFPROTO_IPV6 */, .minlen = 14,
	.const_size = 12, .shape = ah6_shape, .emit = ah6_emit,
};
