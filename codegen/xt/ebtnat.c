// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebtnat.c - the ebtables MAC NAT targets of the bridge family, as
 * ebtables-nft sends them through nft_compat: dnat (net/bridge/netfilter/
 * ebt_dnat.c ebt_dnat_tg) and snat (ebt_snat.c ebt_snat_tg). Bridge
 * chains run in tc programs (codegen/walker.c emit_bridge()), which write
 * the frame with bpf_skb_store_bytes() at the mac header (skb->data in
 * tc) and skb->pkt_type with bpf_skb_change_type(). The verdict is the
 * info's EBT_* one, as nft_target_eval_bridge() maps it.
 *
 * struct ebt_nat_info { u8 mac[6] @0; int target @8 }: the mac is a rule
 * constant, the target (a verdict, snat's NAT_ARP_BIT) is in the shape.
 */
#include <errno.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define NFPROTO_BRIDGE_		7
#define NAT_ARP_BIT_		0x10
#define EBT_ACCEPT_		(-1)
#define EBT_DROP_		(-2)
#define EBT_CONTINUE_		(-3)
#define EBT_RETURN_		(-4)
#define PACKET_HOST_		0
#define PACKET_BROADCAST_	1
#define PACKET_MULTICAST_	2
#define PACKET_OTHERHOST_	3
#define ETH_P_ARP_BE_		0x0608	/* htons(ETH_P_ARP) as a u16 load sees it */
#define NAT_SCR			ST_OFF(scratch)

static int32_t nat_target(const struct expr_xt *x)
{
	int32_t t;

	memcpy(&t, x->info + 8, 4);
	return t;
}

/* the EBT_* verdict @t, as ebt_*_tg_check() let through */
static int nat_check_verdict(int32_t t, struct dp_error *err)
{
	if (t < EBT_RETURN_ || t > EBT_ACCEPT_) {
		err->msg = "ebtables nat target: invalid verdict";
		return -EOPNOTSUPP;
	}
	return 0;
}

static int dnat_check(const struct expr_xt *x, struct dp_error *err)
{
	return nat_check_verdict(nat_target(x), err);
}

static int snat_check(const struct expr_xt *x, struct dp_error *err)
{
	return nat_check_verdict(nat_target(x) | ~0xf, err);
}

static void nat_shape(const struct expr_xt *x, struct codegen_key *k)
{
	int32_t t = nat_target(x);

	codegen_key_put(k, &t, 4);
}

/* nft_target_eval_bridge(): EBT_* -> the rule's verdict */
static void emit_verdict(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			 int32_t t)
{
	int32_t v;

	switch (t) {
	case EBT_ACCEPT_: v = VERDICT_ACCEPT; break;
	case EBT_DROP_: v = VERDICT_DROP; break;
	case EBT_RETURN_: v = VERDICT_RETURN; break;
	default: return;	/* EBT_CONTINUE: on with the rule */
	}
	/* (conditional: expressions a client put after the target stay
	 * reachable for the verifier's CFG check) */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), v));
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_done);
}

/*
 * r9 = the mac header's offset from skb->data; none (never at the
 * bridge's hooks) or a netfilter program (never runs bridge chains):
 * EBT_DROP
 */
static bool emit_mac_off(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	uint32_t l_drop = codegen_label_new(p), l_ok = codegen_label_new(p);

	if (ec->env->ctx == CODEGEN_CTX_NF) {
		/* a conditional jump: what follows stays reachable for the
		 * verifier's CFG check */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_done);
		return false;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, PKT_LL, 0), l_ok);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_ok);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R9, 32));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R9, 32));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R9, 0, 0), l_drop);
	return true;
}

/* bpf_skb_store_bytes(ctx, @off_reg + @add, @src + @soff, @len, 0); a
 * failure (skb_ensure_writable(), skb_store_bits()): EBT_DROP */
static void emit_store(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		       int off_reg, int32_t add, int src, int16_t soff,
		       uint32_t len)
{
	uint32_t l_ok = codegen_label_new(p);

	codegen_emit(p, INSN_MOV64_REG(R2, off_reg));
	if (add)
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, add));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_REG(R3, src));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, soff));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_store_bytes));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_ok);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_ok);
}

/*
 * dnat: h_dest = mac; skb->pkt_type: a multicast mac: BROADCAST (all
 * ones) or MULTICAST; else at prerouting HOST if it is the bridge
 * device's address, OTHERHOST if not; elsewhere (output) unchanged.
 * tc's own br_handle_frame() later agrees (it sets HOST for the bridge's
 * address, nothing else); at prerouting the ring's BRC_HOST follows, for
 * the bridge chains after this one (codegen/walker.c emit_head_br()).
 */
static void dnat_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_mc = codegen_label_new(p), l_set = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_other = codegen_label_new(p);
	uint32_t l_type = codegen_label_new(p), l_class = codegen_label_new(p);
	int16_t c = ec->cbase;

	if (!emit_mac_off(p, ec))
		return;
	emit_store(p, ec, R9, 0, R7, c, 6);
	codegen_emit_pkt_refresh(p, env);
	/* r9 = the ring (NULL: none) */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, env->ring_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7, c));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_mc);
	/* unicast: only at prerouting (the class emit_bridge() left) */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, offsetof(struct codegen_ring, br_class)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~BRC_HOST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, BRC_PRE, 0), l_end);
	/* the port's bridge device's address, at scratch[0..6) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R9, offsetof(struct codegen_ring, br_rx_br)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_end);
	codegen_emit_probe_deref(p, R4, env->off.dev_dev_addr, l_end);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, NAT_SCR, 0));
	codegen_emit_probe_read(p, NAT_SCR, 6, R4, 0);
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_OTHERHOST_));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, NAT_SCR));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, c));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_other);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, NAT_SCR + 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R7, c + 4));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_other);
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_HOST_));
	codegen_label_bind(p, l_other);
	codegen_emit_jmp(p, INSN_JA(0), l_set);
	/* multicast: BROADCAST if ff:ff:ff:ff:ff:ff */
	codegen_label_bind(p, l_mc);
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_MULTICAST_));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, c));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JNE, R1, -1, 0), l_set);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, c + 4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xffff, 0), l_set);
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_BROADCAST_));
	/* pkt.pkttype = r2 for the rest of the walk */
	codegen_label_bind(p, l_set);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, PKT_OFF(pkttype)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, PKT_PKTTYPE));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	/* at prerouting: ring->br_class = PRE (| HOST if r2 is) */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_type);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, offsetof(struct codegen_ring, br_class)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~BRC_HOST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, BRC_PRE, 0), l_type);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, PACKET_HOST_, 0), l_class);
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, BRC_HOST));
	codegen_label_bind(p, l_class);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R9, R1, offsetof(struct codegen_ring, br_class)));
	/* skb->pkt_type = r2 (bpf_skb_change_type()) */
	codegen_label_bind(p, l_type);
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_change_type));
	codegen_label_bind(p, l_end);
	emit_verdict(p, ec, nat_target(x));
}

/*
 * snat: h_source = mac; unless NAT_ARP_BIT (ebtables' --snat-arp clears
 * it), an ARP frame's sender hardware address too (the header at skb->
 * data, the network header at the bridge's hooks: 14 bytes needed, an
 * ar_hln other than 6 leaves it); a failure drops
 */
static void snat_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	uint32_t l_out = codegen_label_new(p), l_ok = codegen_label_new(p);
	int32_t t = nat_target(x);

	if (!emit_mac_off(p, ec))
		return;
	emit_store(p, ec, R9, 6, R7, ec->cbase, 6);
	if (!(t & NAT_ARP_BIT_)) {
		/* eth_hdr(skb)->h_proto == htons(ETH_P_ARP)? */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, NAT_SCR, 0));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, NAT_SCR + 8, 0));
		codegen_emit(p, INSN_MOV64_REG(R2, R9));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 12));
		codegen_emit(p, INSN_MOV64_REG(R1, R8));
		codegen_emit(p, INSN_MOV64_REG(R3, R6));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, NAT_SCR));
		codegen_emit(p, INSN_MOV64_IMM(R4, 2));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_load_bytes));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_out);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, NAT_SCR));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ETH_P_ARP_BE_, 0), l_out);
		/* r9 = the network header; 14 bytes of it (else drop) */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R9, R6, PKT_OFF(view_off)));
		codegen_emit(p, INSN_MOV64_REG(R2, R9));
		codegen_emit(p, INSN_MOV64_REG(R1, R8));
		codegen_emit(p, INSN_MOV64_REG(R3, R6));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, NAT_SCR));
		codegen_emit(p, INSN_MOV64_IMM(R4, 14));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_load_bytes));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_ok);
		codegen_xt_emit_hotdrop(p, ec);
		codegen_label_bind(p, l_ok);
		/* ar_hln != ETH_ALEN: out */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, NAT_SCR + 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), l_out);
		emit_store(p, ec, R9, 8, R7, ec->cbase, 6);
	}
	codegen_label_bind(p, l_out);
	codegen_emit_pkt_refresh(p, ec->env);
	emit_verdict(p, ec, t | ~0xf);
}

const struct codegen_xt_ops codegen_xt_ebt_dnat = {
	.name = "dnat", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 12,
	.check = dnat_check, .const_off = 0, .const_size = 8,
	.shape = nat_shape, .emit = dnat_emit,
};

const struct codegen_xt_ops codegen_xt_ebt_snat = {
	.name = "snat", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 12,
	.check = snat_check, .const_off = 0, .const_size = 8,
	.shape = nat_shape, .emit = snat_emit,
};

/*
 * redirect (net/bridge/netfilter/ebt_redirect.c ebt_redirect_tg()):
 * h_dest = the address of the bridge device of the input port (the
 * kernel allows the target at prerouting and brouting only; nftables'
 * bridge family has no brouting hook), skb->pkt_type = PACKET_HOST.
 * struct ebt_redirect_info { int target @0 }. The port's bridge device
 * is the ring's br_rx_br, recorded at prerouting; anywhere else (the
 * kernel's checkentry refuses those hooks; nfbpf's shape does not know
 * its hook) the frame is dropped rather than left as it was.
 */
static int32_t redirect_target(const struct expr_xt *x)
{
	int32_t t;

	memcpy(&t, x->info, 4);
	return t;
}

static int redirect_check(const struct expr_xt *x, struct dp_error *err)
{
	return nat_check_verdict(redirect_target(x), err);
}

static void redirect_shape(const struct expr_xt *x, struct codegen_key *k)
{
	int32_t t = redirect_target(x);

	codegen_key_put(k, &t, 4);
}

/* r0 = the ring (map lookup); r1-r5 clobbered */
static void emit_ring(struct codegen_prog *p, const struct codegen_env *env)
{
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, env->ring_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
}

static void redirect_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_drop = codegen_label_new(p), l_ok = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);

	if (!emit_mac_off(p, ec))
		return;
	/* the ring at prerouting, its port's bridge device's address at
	 * scratch[0..6) */
	emit_ring(p, env);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, offsetof(struct codegen_ring, br_class)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~BRC_HOST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, BRC_PRE, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R0, offsetof(struct codegen_ring, br_rx_br)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_drop);
	codegen_emit_probe_deref(p, R4, env->off.dev_dev_addr, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, NAT_SCR, 0));
	codegen_emit_probe_read(p, NAT_SCR, 6, R4, 0);
	codegen_emit_jmp(p, INSN_JA(0), l_ok);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_ok);
	emit_store(p, ec, R9, 0, R6, NAT_SCR, 6);
	codegen_emit_pkt_refresh(p, env);
	/* pkt.pkttype = PACKET_HOST for the rest of the walk */
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, PKT_OFF(pkttype), PACKET_HOST_));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, PKT_PKTTYPE));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	/* ring->br_class |= HOST, for the bridge chains after this one */
	emit_ring(p, env);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, offsetof(struct codegen_ring, br_class)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, BRC_HOST));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R0, R1, offsetof(struct codegen_ring, br_class)));
	codegen_label_bind(p, l_end);
	/* skb->pkt_type = PACKET_HOST (bpf_skb_change_type()) */
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_HOST_));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_change_type));
	emit_verdict(p, ec, redirect_target(x));
}

const struct codegen_xt_ops codegen_xt_ebt_redirect = {
	.name = "redirect", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 4,
	.check = redirect_check, .const_size = 0,
	.shape = redirect_shape, .emit = redirect_emit,
};
