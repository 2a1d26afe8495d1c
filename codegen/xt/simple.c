// SPDX-License-Identifier: GPL-2.0-only
/*
 * simple.c - matches on packet metadata or one header field: comment
 * (xt_comment.c), mark rev 1 (xt_mark.c mark_mt), length (xt_length.c),
 * pkttype (xt_pkttype.c), iprange rev 1 (xt_iprange.c), ttl and hl
 * (xt_hl.c), dscp and tos rev 1 (xt_dscp.c), realm (xt_realm.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV6_	10

/* comment: always true, no code */
static void comment_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

static void comment_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	(void)p;
	(void)x;
	(void)ec;
}

const struct codegen_xt_ops codegen_xt_comment = {
	.name = "comment", .rev = 0, .minlen = 256,
	.const_size = 0, .shape = comment_shape, .emit = comment_emit,
};

/* mark rev 1: struct xt_mark_mtinfo1 { u32 mark @0, mask @4; u8 invert @8 } */
static void mark_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = x->info[8] != 0;

	codegen_key_put(k, &inv, 1);
}

static void mark_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	/* r1 = skb->mark & mask; r2 = mark; ((r1 == r2) ^ invert) or break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(mark)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(x->info[8] ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_mark = {
	.name = "mark", .rev = 1, .minlen = 9,
	.const_size = 8, .shape = mark_shape, .emit = mark_emit,
};

/*
 * length: struct xt_length_info { u16 min @0, max @2; u8 invert @4 };
 * pktlen = ntohs(iph->tot_len), or (u16)(ntohs(ip6h->payload_len) + 40)
 */
static void length_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = x->info[4] != 0;

	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &inv, 1);
}

static void length_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	bool v6 = x->family == NFPROTO_IPV6_;

	/* r0 = network header (always there at these hooks) */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 8, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, v6 ? 4 : 2));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	if (v6) {
		/* r1 = (u16)(r1 + sizeof(struct ipv6hdr)) */
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 40));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xffff));
	}
	codegen_xt_emit_port_range(p, ec, ec->cbase, x->info[4] != 0);
}

const struct codegen_xt_ops codegen_xt_length = {
	.name = "length", .rev = 0, .minlen = 5,
	.const_size = 4, .shape = length_shape, .emit = length_emit,
};

/*
 * pkttype: struct xt_pkttype_info { int pkttype @0; int invert @4 }:
 * (type == pkttype) ^ invert. pkt.pkttype already maps PACKET_LOOPBACK
 * as pkttype_mt does (the walker does it for meta pkttype).
 */
static int check_invert(const struct expr_xt *x, uint32_t off, uint32_t size,
			struct dp_error *err);

static uint8_t pkttype_inv(const struct expr_xt *x)
{
	return x->info[4] != 0;
}

static int pkttype_check(const struct expr_xt *x, struct dp_error *err)
{
	return check_invert(x, 4, 4, err);
}

static void pkttype_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = pkttype_inv(x);

	codegen_key_put(k, &inv, 1);
}

static void pkttype_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	uint8_t inv = pkttype_inv(x);

	/* r1 = pkt.pkttype; r2 = info->pkttype; (r1 == r2) ^ invert */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(pkttype)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_pkttype = {
	.name = "pkttype", .rev = 0, .minlen = 8, .check = pkttype_check,
	.const_size = 4, .shape = pkttype_shape, .emit = pkttype_emit,
};

/*
 * iprange rev 1: struct xt_iprange_mtinfo { nf_inet_addr src_min @0,
 * src_max @16, dst_min @32, dst_max @48; u8 flags @64 }: each selected
 * address must lie in [min, max] (big-endian order), or outside if
 * inverted (iprange_mt4, iprange_mt6)
 */
#define IPRANGE_SRC	0x01
#define IPRANGE_DST	0x02
#define IPRANGE_SRC_INV	0x10
#define IPRANGE_DST_INV	0x20

static void iprange_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &x->info[64], 1);
}

/* r9 = header; address at r9 + @aoff against [min, max] at @coff */
static void emit_addr_range(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			    int16_t aoff, int16_t coff, uint32_t len, bool inv)
{
	uint32_t l_in = inv ? ec->l_break : codegen_label_new(p);
	uint32_t l_out = inv ? codegen_label_new(p) : ec->l_break;
	uint32_t l_ge = codegen_label_new(p);

	/* if addr < min goto out; if addr > max goto out; goto in */
	codegen_emit_becmp_at(p, R9, aoff, R7, coff, R1, R2, len, l_out, l_ge, l_ge);
	codegen_label_bind(p, l_ge);
	codegen_emit_becmp_at(p, R9, aoff, R7, coff + 16, R1, R2, len, l_in, l_in, l_out);
	codegen_label_bind(p, inv ? l_out : l_in);
}

static void iprange_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	bool v6 = x->family == NFPROTO_IPV6_;
	uint8_t flags = x->info[64];
	uint32_t len = v6 ? 16 : 4;

	if (!(flags & (IPRANGE_SRC | IPRANGE_DST)))
		return;
	/* r9 = network header */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, v6 ? 40 : 20, ec->l_break);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	if (flags & IPRANGE_SRC)
		emit_addr_range(p, ec, v6 ? 8 : 12, ec->cbase, len,
				flags & IPRANGE_SRC_INV);
	if (flags & IPRANGE_DST)
		emit_addr_range(p, ec, v6 ? 24 : 16, ec->cbase + 32, len,
				flags & IPRANGE_DST_INV);
}

const struct codegen_xt_ops codegen_xt_iprange = {
	.name = "iprange", .rev = 1, .minlen = 65,
	.const_size = 64, .shape = iprange_shape, .emit = iprange_emit,
};

/* r1 = the network header byte at @off (ip_hdr()/ipv6_hdr() fields) */
static void emit_nh_byte(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			 int16_t off)
{
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, off + 1, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, off));
}

/* r1 = ipv4_get_dsfield() (tos) or ipv6_get_dsfield() */
static void emit_dsfield(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			 bool v6)
{
	if (!v6) {
		emit_nh_byte(p, ec, 1);
		return;
	}
	/* r1 = (ntohs(*(u16 *)ip6h) >> 4) & 0xff */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 8, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 0));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xff));
}

/*
 * ttl (ipt_ttl_info) and hl (ip6t_hl_info): u8 mode @0 (EQ, NE, LT, GT;
 * any other never matches), u8 value @1, against iph->ttl / hop_limit
 */
static void ttl_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[0], 1);
}

static void emit_ttl(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec, int16_t off)
{
	static const int jfalse[] = { BPF_JNE, BPF_JEQ, BPF_JGE, BPF_JLE };
	uint8_t mode = x->info[0];

	if (mode > 3) {
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		return;
	}
	/* r1 = ttl; r2 = value; if !(r1 <mode> r2) goto break */
	emit_nh_byte(p, ec, off);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 1));
	codegen_emit_jmp(p, INSN_JMP_REG(jfalse[mode], R1, R2, 0), ec->l_break);
}

static void ttl_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	emit_ttl(p, x, ec, 8);
}

static void hl_emit(struct codegen_prog *p, const struct expr_xt *x,
		    const struct codegen_expr_ctx *ec)
{
	emit_ttl(p, x, ec, 7);
}

const struct codegen_xt_ops codegen_xt_ttl = {
	.name = "ttl", .rev = 0, .family = 2, .minlen = 2,
	.const_size = 2, .shape = ttl_shape, .emit = ttl_emit,
};

const struct codegen_xt_ops codegen_xt_hl = {
	.name = "hl", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 2,
	.const_size = 2, .shape = ttl_shape, .emit = hl_emit,
};

/*
 * An inversion flag above 1 is read as a bool by some kernels and as an
 * integer xor by others: refused, never guessed.
 */
static int check_invert(const struct expr_xt *x, uint32_t off, uint32_t size,
			struct dp_error *err)
{
	uint32_t inv = 0;

	memcpy(&inv, x->info + off, size);
	if (inv <= 1)
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match '%s' with invert %u is not supported by the nfbpf dataplane",
		 x->name, inv);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

/* dscp: struct xt_dscp_info { u8 dscp @0; u8 invert @1 }: dsfield >> 2 */
static int dscp_check(const struct expr_xt *x, struct dp_error *err)
{
	return check_invert(x, 1, 1, err);
}

static void dscp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &x->info[1], 1);
}

static void dscp_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	/* r1 = dsfield >> XT_DSCP_SHIFT; (r1 == dscp) ^ invert */
	emit_dsfield(p, ec, x->family == NFPROTO_IPV6_);
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(x->info[1] ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_dscp = {
	.name = "dscp", .rev = 0, .minlen = 2, .check = dscp_check,
	.const_size = 2, .shape = dscp_shape, .emit = dscp_emit,
};

/*
 * tos rev 1: struct xt_tos_match_info { u8 tos_mask @0, tos_value @1,
 * invert @2 }: ((dsfield & mask) == value) ^ !!invert
 */
static void tos_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = x->info[2] != 0;

	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &inv, 1);
}

static void tos_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	emit_dsfield(p, ec, x->family == NFPROTO_IPV6_);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 1));
	codegen_emit_jmp(p, INSN_JMP_REG(x->info[2] ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_tos = {
	.name = "tos", .rev = 1, .minlen = 3,
	.const_size = 3, .shape = tos_shape, .emit = tos_emit,
};

/*
 * realm: struct xt_realm_info { u32 id @0, mask @4; u8 invert @8 }:
 * (id == (skb_dst(skb)->tclassid & mask)) ^ invert, as an int (invert
 * above 1: always true). The kernel registers it for hooks that always
 * have a route; without one (which it would dereference) false.
 */
static uint8_t realm_inv(const struct expr_xt *x)
{
	return x->info[8] > 2 ? 2 : x->info[8];
}

static void realm_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = realm_inv(x);

	codegen_key_put(k, &inv, 1);
}

static void realm_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	uint8_t inv = realm_inv(x);

	/* r9 = skb_dst(skb): _skb_refdst & ~SKB_DST_NOREF; none: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, ec->env->off.skb_refdst, ec->l_break);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
	if (inv > 1)
		return;
	/* r1 = tclassid & mask; (r1 == id) ^ invert */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, ec->env->off.dst_tclassid);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_realm = {
	.name = "realm", .rev = 0, .family = 2, .minlen = 9,
	.const_size = 8, .shape = realm_shape, .emit = realm_emit,
};
