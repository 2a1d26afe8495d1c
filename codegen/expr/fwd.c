// SPDX-License-Identifier: GPL-2.0-only
/*
 * fwd.c - forward the packet out of a device (nft_fwd_netdev.c): in a tc
 * program bpf_redirect(ifindex, 0), the walker stops with NF_STOLEN and
 * returns TCX_REDIRECT, so the packet leaves through that device's egress
 * (from ingress with its mac header, as nf_do_netdev_egress() pushes it
 * back). A device that does not exist drops the packet, as the kernel's
 * kfree_skb(). Netfilter walkers never run netdev chains: there the code
 * is a drop that no packet reaches.
 *
 * The neighbour form ("fwd ip to A device D", nft_fwd_neigh_eval()): a
 * packet whose skb->protocol is not the form's (IPv4 or IPv6) breaks the
 * rule; a packet the kernel cannot make writable, or whose TTL or hop
 * limit is 0 or 1, is dropped (the check is in 6.18 stable, upstream
 * 1dfd95bdf4d1: no ICMP error); otherwise the kernel decrements the TTL
 * (ip_decrease_ttl(), the checksum patched by RFC 1141 arithmetic) or the
 * hop limit and hands the packet to neigh_xmit() towards the next hop A:
 * NF_STOLEN. Here the same header change with bpf_skb_store_bytes(),
 * then bpf_redirect_neigh(D, A): the neighbour subsystem resolves A and
 * writes the mac header as neigh_xmit() does. bpf_redirect_neigh() drops
 * a frame whose destination mac is multicast, which neigh_xmit() never
 * looks at: that address is made unicast first (the header is replaced
 * anyway). All of it in the shape function, as the kernel does it at
 * the rule (nothing is left for the end of the program). Differences
 * left, where nfbpf drops and the kernel does not: a device that no
 * longer exists (the kernel goes on with the rule, TTL decremented), an
 * IPv4 packet that ends before the header checksum, a device without a
 * link layer header (bpf_redirect_neigh() wants one).
 */
#include <errno.h>
#include <stddef.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <sys/socket.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/fwd.h"

/* NH_PARAMS: { u32 family; next hop } */
_Static_assert(offsetof(struct bpf_redir_neigh, ipv4_nh) == 4 &&
	       sizeof(struct bpf_redir_neigh) == 20, "struct bpf_redir_neigh layout");

#define NFPROTO_IPV4_	2
#define NFPROTO_IPV6_	10

static uint32_t addr_len(const struct expr_fwd *f)
{
	return f->nfproto == NFPROTO_IPV6_ ? 16 : 4;
}

static int fwd_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_fwd *f = expr_priv(e);

	if (!codegen_reg_ok(f->sreg_dev, 4)) {
		err->msg = "fwd: register out of range";
		return -EOPNOTSUPP;
	}
	if (f->neigh && f->nfproto != NFPROTO_IPV4_ && f->nfproto != NFPROTO_IPV6_) {
		err->msg = "fwd: next hop family is neither ip nor ip6";
		return -EOPNOTSUPP;
	}
	if (f->neigh && !codegen_reg_ok(f->sreg_addr, addr_len(f))) {
		err->msg = "fwd: address register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t fwd_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void fwd_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_fwd *f = expr_priv(e);

	codegen_key_put(k, &f->sreg_dev, 1);
	codegen_key_put(k, &f->neigh, 1);
	codegen_key_put(k, &f->sreg_addr, 1);
	codegen_key_put(k, &f->nfproto, 1);
}

static void fwd_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

#define NH_BUF	SHAPE_BUF_OFF			/* header bytes */
#define NH_PARAMS ((int16_t)(SHAPE_BUF_OFF + 32))	/* struct bpf_redir_neigh */

/* r0 = bpf_skb_{load,store}_bytes(ctx, r2, fp + NH_BUF, @len[, 0]) */
static void emit_bytes(struct codegen_prog *p, uint32_t len, bool store)
{
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, NH_BUF));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	if (store) {
		codegen_emit(p, INSN_MOV64_IMM(R5, 0));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_store_bytes));
	} else {
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_load_bytes));
	}
}

/* r2 = the network header's byte @off, from skb->data (pkt.view_off) */
static void emit_nh_off(struct codegen_prog *p, int32_t off)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, off));
}

/* r2 = the mac header from skb->data: (u32)(pkt.ll_off + pkt.view_off) */
static void emit_ll_off(struct codegen_prog *p)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R2, R1));
}

/*
 * a mac header (pkt.flags & PKT_LL) whose destination is multicast: the
 * group bit cleared (bpf_redirect_neigh() would drop the frame; its mac
 * header is replaced); not readable: left as it is
 */
static void emit_unicast_dst(struct codegen_prog *p, uint32_t l_drop)
{
	uint32_t l_out = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_out);
	emit_ll_off(p);
	emit_bytes(p, 1, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, NH_BUF));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_out);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfe));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R10, R1, NH_BUF));
	emit_ll_off(p);
	emit_bytes(p, 1, true);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_drop);
	codegen_label_bind(p, l_out);
}

/*
 * TTL or hop limit 0 or 1: goto @l_drop. IPv4: ip_decrease_ttl(): ttl--;
 * u32 c = check + htons(0x0100); check = c + (c >= 0xffff), 16 bits kept
 * (the host's byte order: the kernel's arithmetic on the raw field);
 * IPv6: hop_limit--. Bytes not there or not writable: goto @l_drop
 */
static void emit_dec_ttl(struct codegen_prog *p, bool v6, uint32_t l_drop)
{
	int32_t off = v6 ? 7 : 8;	/* hop_limit; ttl, protocol, check */
	uint32_t len = v6 ? 1 : 4;

	emit_nh_off(p, off);
	emit_bytes(p, len, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, NH_BUF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1, 1, 0), l_drop);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R10, R1, NH_BUF));
	if (!v6) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R10, NH_BUF + 2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, htons(0x0100)));
		codegen_emit(p, INSN_JMP_IMM(BPF_JLT, R1, 0xffff, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
		codegen_emit(p, INSN_STX_MEM(BPF_H, R10, R1, NH_BUF + 2));
	}
	emit_nh_off(p, off);
	emit_bytes(p, len, true);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_drop);
}

/*
 * the neighbour form: skb->protocol not the form's: break; else the
 * header change, bpf_redirect_neigh(regs[sreg_dev], { family,
 * regs[sreg_addr..] }, 20, 0), st->verdict = NF_STOLEN
 */
static void emit_neigh(struct codegen_prog *p, const struct expr_fwd *f,
		       const struct codegen_expr_ctx *ec)
{
	bool v6 = f->nfproto == NFPROTO_IPV6_;
	uint32_t l_drop = codegen_label_new(p);
	uint32_t w;

	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1,
					 htons(v6 ? ETH_P_IPV6 : ETH_P_IP), 0),
			 ec->l_break);
	emit_dec_ttl(p, v6, l_drop);
	emit_unicast_dst(p, l_drop);
	/* struct bpf_redir_neigh at fp + NH_PARAMS */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, NH_PARAMS, v6 ? AF_INET6 : AF_INET));
	for (w = 0; w < 4; w++) {
		if (w < addr_len(f) / 4)
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6,
						     REG_OFF(f->sreg_addr + w)));
		else
			codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1,
					     NH_PARAMS + 4 + 4 * (int16_t)w));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(f->sreg_dev)));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, NH_PARAMS));
	codegen_emit(p, INSN_MOV64_IMM(R3, sizeof(struct bpf_redir_neigh)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_redirect_neigh));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_STOLEN));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	/* TTL/hop limit <= 1, or skb_try_make_writable() failed: NF_DROP */
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

static void fwd_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_fwd *f = expr_priv(e);

	if (ec->env->ctx == CODEGEN_CTX_NF) {
		/* unreachable: st->verdict = NF_DROP */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
		return;
	}
	if (f->neigh) {
		emit_neigh(p, f, ec);
		return;
	}
	/* bpf_redirect(regs[sreg_dev], 0); st->verdict = NF_STOLEN */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(f->sreg_dev)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_redirect));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_STOLEN));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

const struct codegen_expr_ops codegen_expr_fwd = {
	.name = "fwd",
	.check = fwd_check,
	.const_size = fwd_const_size,
	.shape = fwd_shape,
	.consts = fwd_consts,
	.emit = fwd_emit,
};
