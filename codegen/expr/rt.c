// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt.c - facts of the packet's route (nft_rt_get_eval()), read from the
 * dst_entry skb_dst() names with bpf_probe_read_kernel():
 *
 *	no dst (prerouting, before the route lookup): NFT_BREAK
 *	classid		dst->tclassid (the route's realm)
 *	ipsec		dst->xfrm != NULL (u8)
 *	ip nexthop	rt_nexthop(): the IPv4 gateway if the route has one
 *			(rt_gw_family == AF_INET), else the packet's daddr;
 *			NFT_BREAK for a packet that is not IPv4
 *	ip6 nexthop	rt6_nexthop(): rt6i_gateway if RTF_GATEWAY, else
 *			rt6i_dst.addr if RTF_CACHE, else the packet's daddr;
 *			NFT_BREAK for a packet that is not IPv6
 *
 * The TCP MSS key (`rt mtu`) is refused: get_tcpmss() takes the smaller
 * of dst_mtu() (dst->ops->mtu(): the route's PMTU with its expiry, the
 * MTU metric, the device's MTU, lwtunnel headroom) and that of a fresh
 * route lookup back to the source, which no BPF program can make.
 */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/rt.h"

#define AF_INET_	2
#define NFPROTO_IPV4_	2
#define NFPROTO_IPV6_	10
#define RTF_GATEWAY_	0x0002
#define RTF_CACHE_	0x01000000
#define SKB_DST_NOREF_	1

static int rt_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_rt *r = expr_priv(e);

	if (r->key == RT_TCPMSS) {
		err->msg = "rt mtu (the path's TCP MSS) is not supported by the nfbpf dataplane: it needs a route lookup back to the source";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(r->dreg, r->len)) {
		err->msg = "rt: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t rt_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void rt_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_rt *r = expr_priv(e);

	codegen_key_put(k, &r->key, 1);
	codegen_key_put(k, &r->dreg, 1);
}

static void rt_consts(const struct expr *e, uint8_t *dst,
		      const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* regs[dreg, +len) = the packet's daddr (network header cache at @off) */
static void emit_daddr(struct codegen_prog *p, const struct expr_rt *r,
		       const struct codegen_expr_ctx *ec, int16_t off)
{
	uint32_t w;

	/* if pkt.nhc_len < off + len goto break (no full header) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, off + r->len, 0), ec->l_break);
	for (w = 0; w < r->len / 4; w++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6,
					     (int16_t)(ST_NHC_OFF + off + 4 * w)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(r->dreg + w)));
	}
}

/*
 * break unless the packet is of @pf; r1 = the @size-byte member at r9 +
 * @off (read through st->scratch, zero-extended)
 */
static void emit_pf_member(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			   uint8_t pf, int16_t off, uint32_t size)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, pf, 0), ec->l_break);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), size, R9, off);
	codegen_emit(p, INSN_LDX_MEM(size == 1 ? BPF_B : BPF_W, R1, R6, ST_OFF(scratch)));
}

static void rt_emit(struct codegen_prog *p, const struct expr *e,
		    const struct codegen_expr_ctx *ec)
{
	const struct expr_rt *r = expr_priv(e);
	const struct codegen_env *env = ec->env;
	int16_t d = REG_OFF(r->dreg);
	uint32_t l_daddr, l_out;

	/* r9 = skb_dst(skb): _skb_refdst & ~SKB_DST_NOREF; none: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_refdst, ec->l_break);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~SKB_DST_NOREF_));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
	switch (r->key) {
	case RT_CLASSID:
		codegen_emit_probe_read(p, d, 4, R9, env->off.dst_tclassid);
		break;
	case RT_XFRM:
		/* regs[dreg] = dst->xfrm != NULL (nft_reg_store8) */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
		codegen_emit_probe_read(p, ST_OFF(scratch), 8, R9, env->off.dst_xfrm);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
		codegen_emit(p, INSN_MOV64_IMM(R2, 0));
		codegen_emit(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 1));
		codegen_emit(p, INSN_MOV64_IMM(R2, 1));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, d));
		break;
	case RT_NEXTHOP4:
		l_daddr = codegen_label_new(p);
		l_out = codegen_label_new(p);
		/* r1 = rt->rt_gw_family; AF_INET: the gateway */
		emit_pf_member(p, ec, NFPROTO_IPV4_, env->off.rt_gw_family, 1);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, AF_INET_, 0), l_daddr);
		codegen_emit_probe_read(p, d, 4, R9, env->off.rt_gw4);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_daddr);
		emit_daddr(p, r, ec, 16);	/* iphdr.daddr */
		codegen_label_bind(p, l_out);
		break;
	case RT_NEXTHOP6: {
		uint32_t l_cache = codegen_label_new(p);

		l_daddr = codegen_label_new(p);
		l_out = codegen_label_new(p);
		/* r1 = rt->rt6i_flags */
		emit_pf_member(p, ec, NFPROTO_IPV6_, env->off.rt6_flags, 4);
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, RTF_GATEWAY_));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_cache);
		codegen_emit_probe_read(p, d, 16, R9, env->off.rt6_gateway);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_cache);
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, RTF_CACHE_));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_daddr);
		codegen_emit_probe_read(p, d, 16, R9, env->off.rt6_dst);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_daddr);
		emit_daddr(p, r, ec, 24);	/* ipv6hdr.daddr */
		codegen_label_bind(p, l_out);
		break;
	}
	}
}

const struct codegen_expr_ops codegen_expr_rt = {
	.name = "rt",
	.check = rt_check,
	.const_size = rt_const_size,
	.shape = rt_shape,
	.consts = rt_consts,
	.emit = rt_emit,
};
