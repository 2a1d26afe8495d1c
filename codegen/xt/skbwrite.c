// SPDX-License-Identifier: GPL-2.0-only
/*
 * skbwrite.c - the xtables targets that set skb->mark (xt_MARK.c
 * mark_tg(), revision 2: struct xt_mark_tginfo2 { u32 mark @0, mask @4 }:
 * mark = (mark & ~mask) ^ mark) and skb->priority (xt_CLASSIFY.c
 * classify_tg(): struct xt_classify_target_info { u32 priority @0 }),
 * then XT_CONTINUE. They run where nfbpf's programs are tc programs,
 * which may write the sk_buff: tables of the arp family (arptables-nft's
 * -j MARK and -j CLASSIFY) and of the bridge family. pkt.mark and
 * pkt.priority are what later rules read; the walker writes them back to
 * the sk_buff when it is done (as for `meta set mark`). In ip, ip6 and
 * inet tables (BPF netfilter programs, read-only sk_buff) they are
 * refused with a message.
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/xt/xt.h"

#define NFPROTO_ARP_	3
#define NFPROTO_BRIDGE_	7

static int tc_only(const struct expr_xt *x, struct dp_error *err)
{
	if (x->family == NFPROTO_ARP_ || x->family == NFPROTO_BRIDGE_)
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt target '%.31s' in ip, ip6 and inet tables is not supported by the nfbpf dataplane (netfilter programs cannot write the sk_buff)",
		 x->name);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static void no_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

static void mark2_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* pkt.mark = (pkt.mark & ~mask) ^ mark */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(mark)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_ALU32_IMM(BPF_XOR, R2, -1));
	codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit(p, INSN_ALU32_REG(BPF_XOR, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(mark)));
}

const struct codegen_xt_ops codegen_xt_mark_tg2 = {
	.name = "MARK", .rev = 2, .minlen = 8, .check = tc_only,
	.const_size = 8, .shape = no_shape, .emit = mark2_emit,
};

static void classify_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	(void)x;
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(priority)));
}

const struct codegen_xt_ops codegen_xt_classify = {
	.name = "CLASSIFY", .rev = 0, .minlen = 4, .check = tc_only,
	.const_size = 4, .shape = no_shape, .emit = classify_emit,
};
