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
 * asked, for the source then (if that held) the destination. The IPv6
 * form (ip6tables-nft) is refused: IPv6 address types are not mirrored.
 */
#include <errno.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV4_		2
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
	if (x->family != NFPROTO_IPV4_) {
		err->msg = "xt match 'addrtype' is supported by the nfbpf dataplane for IPv4 only (IPv6 address types are not mirrored)";
		return -EOPNOTSUPP;
	}
	return 0;
}

/* the code: which addresses are tested, the flags; the masks are constants */
static void addrtype_shape(const struct expr_xt *x, struct codegen_key *k)
{
	struct addrtype_info i = info_of(x);
	uint8_t has[2] = { i.source != 0, i.dest != 0 };

	codegen_key_put(k, has, 2);
	codegen_key_put(k, &i.flags, 4);
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

	if (i.source)
		emit_one(p, ec, 12, dev, ec->cbase, i.flags & ADDRTYPE_INV_SRC);
	if (i.dest)
		emit_one(p, ec, 16, dev, ec->cbase + 2, i.flags & ADDRTYPE_INV_DST);
}

const struct codegen_xt_ops codegen_xt_addrtype = {
	.name = "addrtype", .rev = 1, .minlen = 8, .check = addrtype_check,
	.const_size = 4, .shape = addrtype_shape, .emit = addrtype_emit,
};
