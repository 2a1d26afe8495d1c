// SPDX-License-Identifier: GPL-2.0-only
/*
 * addrtype.c - the addrtype match rev 1 for IPv4 (xt_addrtype.c
 * addrtype_mt_v1: iptables-nft's -m addrtype, as ufw uses it), from the
 * route mirror the fib expression reads (codegen_emit_addr_type()).
 *
 * struct xt_addrtype_info_v1 { u16 source @0; u16 dest @2; u32 flags @4 }:
 * source/dest are masks of 1 << RTN_*; flags: invert source (1), invert
 * dest (2), limit to the input (4) or output (8) device. The match is
 * (mask & 1 << inet_dev_addr_type(net, dev, addr)) != 0, inverted as
 * asked, for the source then (if that held) the destination.
 *
 * IPv6 (ip6tables-nft, addrtype_mt6()): match_type6(): with MULTICAST,
 * UNICAST or UNSPEC in the mask the address must be of that kind; with
 * LOCAL, ANYCAST or UNREACHABLE the mask must meet match_lookup_rt6():
 * UNREACHABLE if the output route lookup (through the limiting device's
 * routes when there is one) fails or hits a reject route, else LOCAL (the
 * device's own address when limited, a local route when not) | ANYCAST
 * (ipv6_anycast_destination()); from the IPv6 route mirror, as fib does
 * (codegen_emit_fib6_route()). The masks are part of the code there.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>

#include "codegen/xt/xt.h"

#define NFPROTO_IPV4_		2
#define NFPROTO_IPV6_		10
#define T_UNSPEC		(1 << 0)
#define T_UNICAST		(1 << 1)
#define T_LOCAL			(1 << 2)
#define T_ANYCAST		(1 << 4)
#define T_MULTICAST		(1 << 5)
#define T_UNREACHABLE		(1 << 7)
#define IPV6_SADDR_OFF		8
#define IPV6_DADDR_OFF		24
#define ADDRTYPE_INV_SRC	0x1
#define ADDRTYPE_INV_DST	0x2
#define ADDRTYPE_LIMIT_IN	0x4
#define ADDRTYPE_LIMIT_OUT	0x8

struct addrtype_info {
	uint16_t source;
	uint16_t dest;
	uint32_t flags;
};

static struct addrtype_info info_of(const struct expr_xt *x)
{
	struct addrtype_info i;

	memcpy(&i, x->info, sizeof(i));
	return i;
}

static int addrtype_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->family != NFPROTO_IPV4_ && x->family != NFPROTO_IPV6_) {
		err->msg = "xt match 'addrtype' is supported by the nfbpf dataplane for IPv4 and IPv6 only";
		return -EOPNOTSUPP;
	}
	return 0;
}

/* the code: which addresses are tested, the flags; the masks are
 * constants for IPv4, code for IPv6 */
static void addrtype_shape(const struct expr_xt *x, struct codegen_key *k)
{
	struct addrtype_info i = info_of(x);
	uint8_t has[2] = { i.source != 0, i.dest != 0 };

	codegen_key_put(k, has, 2);
	codegen_key_put(k, &i.flags, 4);
	codegen_key_put(k, &x->family, 1);
	if (x->family == NFPROTO_IPV6_) {
		codegen_key_put(k, &i.source, 2);
		codegen_key_put(k, &i.dest, 2);
	}
}

/*
 * match_type6() of the IPv6 address at network offset @noff under
 * @mask, ^ @inv: false goes to break. @dev: the limiting device's ifindex
 * slot (0: none). The lookup's answer is kept at the frame's key slot.
 */
static void emit_one6(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		      int16_t noff, int16_t dev, uint16_t mask, bool inv)
{
	int16_t addr = (int16_t)(ST_NHC_OFF + noff);
	uint32_t l_false = codegen_label_new(p), l_true = codegen_label_new(p);
	uint32_t l_drop = codegen_label_new(p), l_unreach = codegen_label_new(p);
	uint32_t l_any = codegen_label_new(p), l_bits = codegen_label_new(p);
	uint32_t l_nolocal = codegen_label_new(p), l_end = codegen_label_new(p);
	uint32_t l_mc = codegen_label_new(p);

	/* the address's kind: MULTICAST (ff00::/8), UNICAST (neither that,
	 * ::, nor ::ffff:0:0/96), UNSPEC (::) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, addr));
	if (mask & T_MULTICAST)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xff, 0), l_false);
	if (mask & T_UNICAST) {
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xff, 0), l_false);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, addr));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_mc);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, (int16_t)(addr + 8)));
		codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, (int32_t)htonl(0xffff), 0), l_false);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, (int16_t)(addr + 8)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_false);
		codegen_label_bind(p, l_mc);
	}
	if (mask & T_UNSPEC) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, addr));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_false);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, (int16_t)(addr + 8)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_false);
	}
	if (!(mask & (T_LOCAL | T_ANYCAST | T_UNREACHABLE))) {
		codegen_emit_jmp(p, INSN_JA(0), l_true);
	} else {
		/* match_lookup_rt6(): ret = LOCAL if the device has it */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, SHAPE_KEY_OFF, 0));
		if (dev && (mask & T_LOCAL)) {
			codegen_emit_fib6_has_addr(p, ec, addr, dev, l_nolocal);
			codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, T_LOCAL));
			codegen_label_bind(p, l_nolocal);
		}
		codegen_emit_fib6_route(p, ec, addr, dev,
					dev ? CODEGEN_FIB6_DEV : CODEGEN_FIB6_NODEV,
					l_drop, l_unreach);
		/* a reject route: the route error */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, FIB4_F_ERROR));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_unreach);
		if (!dev) {
			/* a local route: ret |= LOCAL */
			uint32_t l_nl = codegen_label_new(p);

			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, offsetof(struct codegen_fib4_val, type)));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, RTN_LOCAL, 0), l_nl);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
			codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, T_LOCAL));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
			codegen_label_bind(p, l_nl);
		}
		codegen_emit_fib6_anycast(p, addr, l_any);
		codegen_emit_jmp(p, INSN_JA(0), l_bits);
		codegen_label_bind(p, l_any);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, T_ANYCAST));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
		codegen_emit_jmp(p, INSN_JA(0), l_bits);
		codegen_label_bind(p, l_unreach);
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, T_UNREACHABLE));
		/* !!(mask & ret) */
		codegen_label_bind(p, l_bits);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, mask));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_true);
		codegen_emit_jmp(p, INSN_JA(0), l_false);
		/* fail closed: regs->verdict.code = NF_DROP; stop the rule */
		codegen_label_bind(p, l_drop);
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	}
	/* the result ^ @inv */
	codegen_label_bind(p, l_true);
	if (inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	else
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_false);
	if (!inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

static void addrtype6_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	struct addrtype_info i = info_of(x);
	int16_t dev = i.flags & ADDRTYPE_LIMIT_IN ? PKT_OFF(iif) :
		      i.flags & ADDRTYPE_LIMIT_OUT ? PKT_OFF(oif) : 0;

	/* no IPv6 header: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 40, 0), ec->l_break);
	if (i.source)
		emit_one6(p, ec, IPV6_SADDR_OFF, dev, i.source,
			  i.flags & ADDRTYPE_INV_SRC);
	if (i.dest)
		emit_one6(p, ec, IPV6_DADDR_OFF, dev, i.dest,
			  i.flags & ADDRTYPE_INV_DST);
}

/* if ((mask at r7 + @cmask) & 1 << type) == 0) ^ @inv goto break */
static void emit_one(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		     int16_t addr, int dev, int16_t cmask, bool inv)
{
	codegen_emit_addr_type(p, ec, addr, dev);
	/* r1 = 1 << type; r3 = mask; r1 &= r3 */
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ALU64_REG(BPF_LSH, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R7, cmask));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R3));
	codegen_emit_jmp(p, INSN_JMP_IMM(inv ? BPF_JNE : BPF_JEQ, R1, 0, 0),
			 ec->l_break);
}

static void addrtype_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	struct addrtype_info i = info_of(x);
	int dev = i.flags & ADDRTYPE_LIMIT_IN ? CODEGEN_ADDR_TYPE_IIF :
		  i.flags & ADDRTYPE_LIMIT_OUT ? CODEGEN_ADDR_TYPE_OIF : 0;

	if (x->family == NFPROTO_IPV6_) {
		addrtype6_emit(p, x, ec);
		return;
	}

	if (i.source)
		emit_one(p, ec, 12, dev, ec->cbase, i.flags & ADDRTYPE_INV_SRC);
	if (i.dest)
		emit_one(p, ec, 16, dev, ec->cbase + 2, i.flags & ADDRTYPE_INV_DST);
}

const struct codegen_xt_ops codegen_xt_addrtype = {
	.name = "addrtype", .rev = 1, .minlen = 8, .check = addrtype_check,
	.const_size = 4, .shape = addrtype_shape, .emit = addrtype_emit,
};
