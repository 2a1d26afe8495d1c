// SPDX-License-Identifier: GPL-2.0-only
/*
 * ip6opts.c - the ip6tables matches on IPv6 extension headers found with
 * ipv6_find_hdr() (codegen_emit_ipv6_find_hdr(): any number of headers):
 * rt (ip6t_rt.c rt_mt6) and hbh/dst (ip6t_hbh.c hbh_mt6, the hop-by-hop
 * and the destination options header). For each: -ENOENT is false, any
 * other error hotdrops; the header's first bytes past the packet hotdrop;
 * a packet shorter than the header's length field says is false.
 *
 * rt: struct ip6t_rt { u32 rt_type @0, segsleft[2] @4, hdrlen @12; u8
 * flags @16, invflags @17; in6_addr addrs[16] @20; u8 addrnr @276 }:
 * segments left in [segsleft[0], segsleft[1]] (inverted with 0x02),
 * with IP6T_RT_LEN the header length (0x04), IP6T_RT_TYP the type (0x01),
 * IP6T_RT_RES a zero reserved word; the address list (IP6T_RT_FST,
 * --rt-0-addrs) is refused.
 *
 * hbh/dst: struct ip6t_opts { u32 hdrlen @0; u8 flags @4, invflags @5;
 * u16 opts[16] @6; u8 optsnr @38 }: with IP6T_OPTS_LEN the header length
 * (inverted with 0x01); with IP6T_OPTS_OPTS the options in order, each
 * type (and, when given, length) as listed (strict mode: the kernel's
 * checkentry refuses IP6T_OPTS_NSTRICT, whose mode is not implemented).
 */
#include <errno.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define NH_HOP		0
#define NH_ROUTING	43
#define NH_DEST		60
#define NFPROTO_IPV6_	10

#define RT_TYP		0x01
#define RT_LEN		0x04
#define RT_RES		0x08
#define RT_FST		0x10
#define RT_INV_TYP	0x01
#define RT_INV_SGS	0x02
#define RT_INV_LEN	0x04

#define OPTS_LEN	0x01
#define OPTS_OPTS	0x02
#define OPTS_NSTRICT	0x04
#define OPTS_INV_LEN	0x01
#define OPTS_MAX	16

/* the header's bytes, copied to the frame past the walk's context */
#define HDR_BUF		(SHAPE_BUF_OFF + 40)

/*
 * ipv6_find_hdr(@target): -ENOENT: false, else hotdrop (@l_bad); r9 =
 * ptr; the first @len bytes at ptr to HDR_BUF (past the packet: hotdrop);
 * r1 = (ipv6_optlen() of them: (hdrlen + 1) * 8); if the view from ptr on
 * is shorter: false. Clobbers r0-r5.
 */
static void emit_find(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		      uint32_t target, uint32_t len, uint32_t l_bad)
{
	const struct codegen_env *env = ec->env;

	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	codegen_emit_ipv6_find_hdr(p, env, SHAPE_DYNPTR_OFF, target, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, IP6WALK_EBADMSG, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R10,
				     SHAPE_DYNPTR_OFF + IP6WALK_OFF(start)));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, HDR_BUF));
	codegen_emit(p, INSN_MOV64_IMM(R2, len));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_REG(R4, R9));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_bad);
	/* if view length - ptr < optlen: false (the view length is at most
	 * 65535 + headers: no wrap in 64 bits) */
	codegen_emit_view_len(p, env, R2, R3);
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R9));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, HDR_BUF + 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 3));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSLT, R2, R1, 0), ec->l_break);
}

/* if (r1 == r2) ^ @inv is false goto break */
static void emit_eq(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		    bool inv)
{
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

static int rt_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[16] & RT_FST) {
		err->msg = "xt match 'rt' with an address list (--rt-0-addrs) is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void rt_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[16] & (RT_TYP | RT_LEN | RT_RES),
			 x->info[17] & (RT_INV_TYP | RT_INV_SGS | RT_INV_LEN) };

	codegen_key_put(k, v, sizeof(v));
}

static void rt_emit(struct codegen_prog *p, const struct expr_xt *x,
		    const struct codegen_expr_ctx *ec)
{
	uint32_t l_bad = codegen_label_new(p), l_end = codegen_label_new(p);
	uint8_t flags = x->info[16], inv = x->info[17];

	/* struct rt0_hdr: nexthdr, hdrlen, type, segments_left, u32 reserved */
	emit_find(p, ec, NH_ROUTING, 8, l_bad);
	codegen_emit(p, INSN_MOV64_REG(R4, R1));
	/* segsleft_match() */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, HDR_BUF + 3));
	codegen_xt_emit_range(p, ec, ec->cbase + 4, 4, inv & RT_INV_SGS);
	if (flags & RT_LEN) {
		codegen_emit(p, INSN_MOV64_REG(R1, R4));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 12));
		emit_eq(p, ec, inv & RT_INV_LEN);
	}
	if (flags & RT_TYP) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, HDR_BUF + 2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
		emit_eq(p, ec, inv & RT_INV_TYP);
	}
	if (flags & RT_RES) {
		/* the header is 8 bytes at least: its reserved word was read */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, HDR_BUF + 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_rt6 = {
	.name = "rt", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 18,
	.check = rt_check, .const_size = 16, .shape = rt_shape, .emit = rt_emit,
};

/* the code: the flags, the inversion, how many options are listed */
static void opts_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[3] = { x->info[4] & (OPTS_LEN | OPTS_OPTS | OPTS_NSTRICT),
			 x->info[5] & OPTS_INV_LEN,
			 x->info[38] > OPTS_MAX ? OPTS_MAX : x->info[38] };

	codegen_key_put(k, v, sizeof(v));
}

/* r0 = the byte at offset r4 of the view, in the frame (fails: false) */
static void read_byte(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, HDR_BUF + 8));
	codegen_emit(p, INSN_MOV64_IMM(R2, 1));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R0, R10, HDR_BUF + 8));
}

/*
 * the strict option list: r9 = ptr, the frame's HDR_BUF + 16 slot =
 * hdrlen left (u32). Each listed option in turn: no byte left, or
 * unreadable: false; its type must be the listed one; a type other than
 * Pad1 needs its length byte (else false), equal to the listed length
 * unless that is 0xff; then, but after the last one, the option must fit
 * both the packet and the header, and ptr and hdrlen move past it.
 */
static void emit_opts(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t n = x->info[38] > OPTS_MAX ? OPTS_MAX : x->info[38], i;

	for (i = 0; i < n; i++) {
		uint32_t l_pad1 = codegen_label_new(p), l_step = codegen_label_new(p);
		uint32_t l_anylen = codegen_label_new(p);
		int16_t opt = (int16_t)(ec->cbase + 6 + 2 * i);

		/* hdrlen < 1: false; r0 = type at ptr; != listed: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, HDR_BUF + 16));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 1, 0), ec->l_break);
		codegen_emit(p, INSN_MOV64_REG(R4, R9));
		read_byte(p, ec);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, opt));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 8));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R0, R1, 0), ec->l_break);
		/* Pad1: optlen 1 */
		codegen_emit(p, INSN_MOV64_IMM(R1, 1));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_pad1);
		/* hdrlen < 2: false; r0 = the length byte; spec_len != 0xff
		 * && != it: false; optlen = it + 2 */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, HDR_BUF + 16));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 2, 0), ec->l_break);
		codegen_emit(p, INSN_MOV64_REG(R4, R9));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
		read_byte(p, ec);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, opt));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xff));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xff, 0), l_anylen);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R0, R1, 0), ec->l_break);
		codegen_label_bind(p, l_anylen);
		codegen_emit(p, INSN_MOV64_REG(R1, R0));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 2));
		codegen_label_bind(p, l_pad1);
		/* r1 = optlen; but after the last one: (optlen <= len && ptr >
		 * len - optlen) || hdrlen < optlen: false (the kernel's
		 * unsigned arithmetic) */
		if (i + 1 < n) {
			uint32_t l_nofit = codegen_label_new(p);

			codegen_emit(p, INSN_MOV64_REG(R5, R1));
			codegen_emit_view_len(p, env, R2, R3);
			codegen_emit(p, INSN_MOV64_REG(R1, R5));
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R2, 0), l_nofit);
			codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R1));
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R9, R2, 0), ec->l_break);
			codegen_label_bind(p, l_nofit);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, HDR_BUF + 16));
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSLT, R2, R1, 0), ec->l_break);
		}
		codegen_label_bind(p, l_step);
		/* ptr += optlen; hdrlen -= optlen */
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, HDR_BUF + 16));
		codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R2, R1));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R2, HDR_BUF + 16));
	}
}

static void opts_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec, uint32_t target)
{
	uint32_t l_bad = codegen_label_new(p), l_end = codegen_label_new(p);
	uint8_t flags = x->info[4];

	emit_find(p, ec, target, 2, l_bad);
	if (flags & OPTS_LEN) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
		emit_eq(p, ec, x->info[5] & OPTS_INV_LEN);
	}
	if ((flags & OPTS_OPTS) && (flags & OPTS_NSTRICT)) {
		/* "Not strict - not implemented": never matches (the
		 * kernel's checkentry refuses the flag anyway); a conditional
		 * jump, or the rest of the rule is unreachable code the
		 * verifier refuses */
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	} else {
		if (flags & OPTS_OPTS) {
			/* ptr += 2; hdrlen -= 2 (a signed slot: the kernel's
			 * unsigned hdrlen only ever shrinks from >= 8) */
			codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R9, 2));
			codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 2));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, HDR_BUF + 16));
			emit_opts(p, x, ec);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	}
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

static void hbh_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	opts_emit(p, x, ec, NH_HOP);
}

static void dst_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	opts_emit(p, x, ec, NH_DEST);
}

const struct codegen_xt_ops codegen_xt_hbh6 = {
	.name = "hbh", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 39,
	.const_size = 38, .shape = opts_shape, .emit = hbh_emit,
};

const struct codegen_xt_ops codegen_xt_dst6 = {
	.name = "dst", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 39,
	.const_size = 38, .shape = opts_shape, .emit = dst_emit,
};
