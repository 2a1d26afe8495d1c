// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebt.c - ebtables matches of the bridge family, as ebtables-nft sends
 * them through nft_compat: ip (net/bridge/netfilter/ebt_ip.c ebt_ip_mt),
 * vlan (ebt_vlan.c ebt_vlan_mt), arp (ebt_arp.c ebt_arp_mt), mark_m
 * (ebt_mark_m.c), ip6 (ebt_ip6.c), stp (ebt_stp.c) and 802_3
 * (ebt_802_3.c, from the mac header); and the mark
 * target (ebt_mark.c). They
 * read the packet from skb->data, the network header at the bridge's
 * hooks (the view's start here).
 */
#include <errno.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define NFPROTO_BRIDGE_	7

/*
 * ip: struct ebt_ip_info { be32 saddr @0, daddr @4, smsk @8, dmsk @12;
 * u8 tos @16, protocol @17, bitmask @18, invflags @19; u16 sport[2] @20
 * (or u8 icmp_type[2], igmp_type[2]); u16 dport[2] @24 (or u8
 * icmp_code[2]) }, ports in host order
 */
#define EBT_IP_SOURCE	0x01
#define EBT_IP_DEST	0x02
#define EBT_IP_TOS	0x04
#define EBT_IP_PROTO	0x08
#define EBT_IP_SPORT	0x10
#define EBT_IP_DPORT	0x20
#define EBT_IP_ICMP	0x40
#define EBT_IP_IGMP	0x80

static void ebt_ip_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[18], 2);
}

/* NF_INVF(inv, @jmp_mismatch on r1 vs r2): false if mismatch ^ inv */
static void invf(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		 uint8_t op_mismatch, bool inv)
{
	uint32_t l_ok = codegen_label_new(p);

	if (!inv) {
		codegen_emit_jmp(p, INSN_JMP_REG(op_mismatch, R1, R2, 0), ec->l_break);
		return;
	}
	codegen_emit_jmp(p, INSN_JMP_REG(op_mismatch, R1, R2, 0), l_ok);
	codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_ok);
}

/* u8 at r9 + @poff within [u8 @cmin, u8 @cmax] of the consts, else goto
 * @l_out (r1, r2 clobbered) */
static void u8_range(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		     int16_t poff, int16_t cmin, int16_t cmax, uint32_t l_out)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, poff));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + cmin));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + cmax));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R2, 0), l_out);
}

static void ebt_ip_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	uint8_t bits = x->info[18], inv = x->info[19];
	int16_t scr = ST_OFF(scratch);
	uint32_t l_end = codegen_label_new(p);

	/* r9 = skb_header_pointer(skb, 0, 20): none: false */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 20, ec->l_break);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	if (bits & EBT_IP_TOS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, 1));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 16));
		invf(p, ec, BPF_JNE, inv & EBT_IP_TOS);
	}
	if (bits & EBT_IP_SOURCE) {
		/* (saddr & smsk) != info saddr (network order both) */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, 12));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 8));
		codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
		invf(p, ec, BPF_JNE, inv & EBT_IP_SOURCE);
	}
	if (bits & EBT_IP_DEST) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, 16));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 12));
		codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
		invf(p, ec, BPF_JNE, inv & EBT_IP_DEST);
	}
	if (!(bits & EBT_IP_PROTO))
		return;
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, 9));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 17));
	invf(p, ec, BPF_JNE, inv & EBT_IP_PROTO);
	if (!(bits & (EBT_IP_DPORT | EBT_IP_SPORT | EBT_IP_ICMP | EBT_IP_IGMP)))
		return;
	/* a later fragment: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R9, 6));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0x1fff));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	/* scratch[0..4) = the 4 bytes at ihl * 4: none: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R9, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 0xf));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 2));
	codegen_emit_slice(p, ec->env, 4, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, scr));
	if (bits & EBT_IP_DPORT) {
		/* ntohs(dst) in [dport[0], dport[1]] ^ inv */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 2));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 24, inv & EBT_IP_DPORT);
	}
	if (bits & EBT_IP_SPORT) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 20, inv & EBT_IP_SPORT);
	}
	if (bits & EBT_IP_ICMP) {
		uint32_t l_out = codegen_label_new(p), l_in = codegen_label_new(p);
		uint32_t l_next = codegen_label_new(p);

		/* type in [icmp_type[0], [1]] and code in [icmp_code[0], [1]] */
		u8_range(p, ec, scr, 20, 21, l_out);
		u8_range(p, ec, scr + 1, 24, 25, l_out);
		codegen_emit_jmp(p, INSN_JA(0), l_in);
		codegen_label_bind(p, l_out);
		if (!(inv & EBT_IP_ICMP))
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		else
			codegen_emit_jmp(p, INSN_JA(0), l_next);
		codegen_label_bind(p, l_in);
		if (inv & EBT_IP_ICMP)
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		codegen_label_bind(p, l_next);
	}
	if (bits & EBT_IP_IGMP) {
		uint32_t l_out = codegen_label_new(p), l_in = codegen_label_new(p);

		u8_range(p, ec, scr, 20, 21, l_out);
		codegen_emit_jmp(p, INSN_JA(0), l_in);
		codegen_label_bind(p, l_out);
		codegen_emit_jmp(p, INSN_JA(0), (inv & EBT_IP_IGMP) ? l_end : ec->l_break);
		codegen_label_bind(p, l_in);
		if (inv & EBT_IP_IGMP)
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	}
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_ebt_ip = {
	.name = "ip", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 28,
	.const_off = 0, .const_size = 28, .shape = ebt_ip_shape, .emit = ebt_ip_emit,
};

/*
 * vlan: struct ebt_vlan_info { u16 id @0; u8 prio @2; be16 encap @4; u8
 * bitmask @6, invflags @7 }: the skb's VLAN tag if it has one (encap =
 * skb->protocol), else a VLAN header at skb->data
 */
#define EBT_VLAN_ID	0x01
#define EBT_VLAN_PRIO	0x02
#define EBT_VLAN_ENCAP	0x04

static void ebt_vlan_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[6], 2);
}

static void ebt_vlan_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	uint8_t bits = x->info[6], inv = x->info[7];
	int16_t scr = ST_OFF(scratch);
	uint32_t l_hdr = codegen_label_new(p), l_got = codegen_label_new(p);

	/* scratch[0..4) = skb->vlan_all (proto, tci) */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, scr, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, scr, 4, R9, ec->env->off.skb_vlan_all);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, scr));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_hdr);
	/* tagged: scratch[4] = tci, scratch[6] = skb->protocol */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 2));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, scr + 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, scr + 6));
	codegen_emit_jmp(p, INSN_JA(0), l_got);
	/* else the 4 bytes at skb->data (none: false) */
	codegen_label_bind(p, l_hdr);
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 4, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 0));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, scr + 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 2));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, scr + 6));
	codegen_label_bind(p, l_got);
	if (bits & EBT_VLAN_ID) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfff));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase));
		invf(p, ec, BPF_JNE, inv & EBT_VLAN_ID);
	}
	if (bits & EBT_VLAN_PRIO) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 13));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 7));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 2));
		invf(p, ec, BPF_JNE, inv & EBT_VLAN_PRIO);
	}
	if (bits & EBT_VLAN_ENCAP) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 6));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + 4));
		invf(p, ec, BPF_JNE, inv & EBT_VLAN_ENCAP);
	}
}

const struct codegen_xt_ops codegen_xt_ebt_vlan = {
	.name = "vlan", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 8,
	.const_off = 0, .const_size = 8, .shape = ebt_vlan_shape, .emit = ebt_vlan_emit,
};

/*
 * arp: struct ebt_arp_info { be16 htype @0, ptype @2, opcode @4; be32
 * saddr @8, smsk @12, daddr @16, dmsk @20; u8 smaddr[6] @24, smmsk[6] @30,
 * dmaddr[6] @36, dmmsk[6] @42; u8 bitmask @48, invflags @49 }
 * (ebt_arp_mt): the ARP header at skb->data; addresses only for IPv4
 * (ar_pln 4) and Ethernet (ar_hln 6, ar_hrd 1) where asked for
 */
#define EBT_ARP_OPCODE	0x01
#define EBT_ARP_HTYPE	0x02
#define EBT_ARP_PTYPE	0x04
#define EBT_ARP_SRC_IP	0x08
#define EBT_ARP_DST_IP	0x10
#define EBT_ARP_SRC_MAC	0x20
#define EBT_ARP_DST_MAC	0x40
#define EBT_ARP_GRAT	0x80

static void ebt_arp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[48], 2);
}

/* u16 at scratch + @soff vs the consts' u16 at @coff: NF_INVF */
static void arp_u16(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		    int16_t soff, int16_t coff, bool inv)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch) + soff));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + coff));
	invf(p, ec, BPF_JNE, inv);
}

/* ((addr at scratch + @soff) & mask @mcoff) != addr @acoff: NF_INVF */
static void arp_ip(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		   int16_t soff, int16_t acoff, int16_t mcoff, bool inv)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch) + soff));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + mcoff));
	codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + acoff));
	invf(p, ec, BPF_JNE, inv);
}

/* the 6 bytes at @r2 (offset) against addr @acoff under mask @mcoff:
 * ether_addr_equal_masked(), NF_INVF; none: false */
static void arp_mac(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		    int16_t acoff, int16_t mcoff, bool inv)
{
	int i;

	codegen_emit_slice(p, ec->env, 6, ec->l_break);
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	for (i = 0; i < 6; i++) {
		/* r3 |= (mp[i] ^ addr[i]) & mask[i] */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, i));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + acoff + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + mcoff + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R3, R1));
	}
	codegen_emit(p, INSN_MOV64_REG(R1, R3));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	invf(p, ec, BPF_JNE, inv);
}

static void ebt_arp_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	uint8_t bits = x->info[48], inv = x->info[49];
	int16_t scr = ST_OFF(scratch);

	/* scratch[0..8) = struct arphdr at skb->data (none: false) */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 8, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, scr));
	if (bits & EBT_ARP_OPCODE)
		arp_u16(p, ec, 6, 4, inv & EBT_ARP_OPCODE);
	if (bits & EBT_ARP_HTYPE)
		arp_u16(p, ec, 0, 0, inv & EBT_ARP_HTYPE);
	if (bits & EBT_ARP_PTYPE)
		arp_u16(p, ec, 2, 2, inv & EBT_ARP_PTYPE);
	if (bits & (EBT_ARP_SRC_IP | EBT_ARP_DST_IP | EBT_ARP_GRAT)) {
		/* ar_pln != 4 || ar_pro != ETH_P_IP: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 5));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 4, 0), ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0x0008, 0), ec->l_break);
		/* scratch[8] = saddr at 8 + hln, scratch[12] = daddr at
		 * 8 + 2 * hln + 4 */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, scr + 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 8));
		codegen_emit_slice(p, ec->env, 4, ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, scr + 8));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, scr + 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 12));
		codegen_emit_slice(p, ec->env, 4, ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, scr + 12));
		if (bits & EBT_ARP_SRC_IP)
			arp_ip(p, ec, 8, 8, 12, inv & EBT_ARP_SRC_IP);
		if (bits & EBT_ARP_DST_IP)
			arp_ip(p, ec, 12, 16, 20, inv & EBT_ARP_DST_IP);
		if (bits & EBT_ARP_GRAT) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, scr + 12));
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, scr + 8));
			invf(p, ec, BPF_JNE, inv & EBT_ARP_GRAT);
		}
	}
	if (bits & (EBT_ARP_SRC_MAC | EBT_ARP_DST_MAC)) {
		/* ar_hln != 6 || ar_hrd != ARPHRD_ETHER: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0x0100, 0), ec->l_break);
		if (bits & EBT_ARP_SRC_MAC) {
			codegen_emit(p, INSN_MOV64_IMM(R2, 8));
			arp_mac(p, ec, 24, 30, inv & EBT_ARP_SRC_MAC);
		}
		if (bits & EBT_ARP_DST_MAC) {
			/* at 8 + hln + pln */
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, scr + 4));
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 5));
			codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R1));
			codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 8));
			arp_mac(p, ec, 36, 42, inv & EBT_ARP_DST_MAC);
		}
	}
}

const struct codegen_xt_ops codegen_xt_ebt_arp = {
	.name = "arp", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 52,
	.const_off = 0, .const_size = 52, .shape = ebt_arp_shape, .emit = ebt_arp_emit,
};

/*
 * mark_m: struct ebt_mark_m_info { unsigned long mark @0, mask @8; u8
 * invert @16, bitmask @17 } (ebt_mark_m.c ebt_mark_mt): with EBT_MARK_OR
 * (--mark /MASK) whether skb->mark & mask is not 0, else whether it is
 * mark (64 bits: a mark above 32 bits never matches); ^ invert
 */
#define EBT_MARK_OR	0x02

static void ebt_mark_m_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[16] ? 1 : 0, x->info[17] & EBT_MARK_OR };

	codegen_key_put(k, v, sizeof(v));
}

static void ebt_mark_m_emit(struct codegen_prog *p, const struct expr_xt *x,
			    const struct codegen_expr_ctx *ec)
{
	/* r1 = pkt.mark & mask */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(mark)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, ec->cbase + 8));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	if (x->info[17] & EBT_MARK_OR)
		codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	else
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, ec->cbase));
	/* OR: false if r1 == 0; AND: false if r1 != mark; NF_INVF-like */
	invf(p, ec, (x->info[17] & EBT_MARK_OR) ? BPF_JEQ : BPF_JNE,
	     x->info[16] != 0);
}

const struct codegen_xt_ops codegen_xt_ebt_mark_m = {
	.name = "mark_m", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 18,
	.const_off = 0, .const_size = 16, .shape = ebt_mark_m_shape,
	.emit = ebt_mark_m_emit,
};

/*
 * the mark target: struct ebt_mark_t_info { unsigned long mark @0; int
 * target @8 } (ebt_mark.c ebt_mark_tg): the action in target's high 28
 * bits sets, ors, ands or xors skb->mark with the mark's low 32 bits (the
 * walker writes pkt.mark back to the sk_buff when it is done); the
 * verdict is target | 0xfffffff0, EBT_ACCEPT..EBT_RETURN, as
 * nft_target_eval_bridge() maps it
 */
#define MARK_SET_VALUE	0xfffffff0u
#define MARK_OR_VALUE	0xffffffe0u
#define MARK_AND_VALUE	0xffffffd0u

static int32_t ebt_mark_verdict(const struct expr_xt *x)
{
	int32_t t;

	memcpy(&t, &x->info[8], 4);
	switch ((int32_t)((uint32_t)t | 0xfffffff0u)) {
	case -1:
		return VERDICT_ACCEPT;
	case -2:
		return VERDICT_DROP;
	case -4:
		return VERDICT_RETURN;
	default:	/* -3 EBT_CONTINUE; the kernel's checkentry refuses others */
		return VERDICT_CONTINUE;
	}
}

static uint32_t ebt_mark_action(const struct expr_xt *x)
{
	uint32_t t;

	memcpy(&t, &x->info[8], 4);
	return t & 0xfffffff0u;
}

static void ebt_mark_shape(const struct expr_xt *x, struct codegen_key *k)
{
	int32_t v[2] = { (int32_t)ebt_mark_action(x), ebt_mark_verdict(x) };

	codegen_key_put(k, v, sizeof(v));
}

static void ebt_mark_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	uint32_t action = ebt_mark_action(x);
	int32_t verdict = ebt_mark_verdict(x);

	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	if (action == MARK_SET_VALUE) {
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, PKT_OFF(mark)));
	} else {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(mark)));
		codegen_emit(p, INSN_ALU32_REG(action == MARK_OR_VALUE ? BPF_OR :
					       action == MARK_AND_VALUE ? BPF_AND :
					       BPF_XOR, R1, R2));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(mark)));
	}
	if (verdict == VERDICT_CONTINUE)
		return;
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), verdict));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

const struct codegen_xt_ops codegen_xt_ebt_mark = {
	.name = "mark", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 12,
	.const_off = 0, .const_size = 8, .shape = ebt_mark_shape,
	.emit = ebt_mark_emit,
};

/*
 * ip6: struct ebt_ip6_info { in6_addr saddr @0, daddr @16, smsk @32,
 * dmsk @48; u8 tclass @64, protocol @65, bitmask @66, invflags @67; u16
 * sport[2] @68 (or u8 icmpv6_type[2]); u16 dport[2] @72 (or u8
 * icmpv6_code[2]) }, ports in host order (ebt_ip6.c ebt_ip6_mt): the
 * IPv6 header at skb->data (none: false); the traffic class; the
 * addresses by ipv6_masked_addr_cmp() ((addr ^ info addr) & mask); with
 * --ip6-proto the header after ipv6_skip_exthdr() (-1: false), then its
 * first 4 bytes for ports or ICMPv6 type/code (none: false).
 *
 * ipv6_skip_exthdr() is a bpf_loop, one header a step, with no limit on
 * their number: while the header is hop-by-hop, routing, fragment, AH,
 * none or destination options: none: -1; its first 2 bytes (past the
 * packet: -1); a fragment header: its frag_off (past the packet: -1),
 * not the first fragment: stop here (next header 44), else 8 bytes; AH:
 * (hdrlen + 2) * 4; others: (hdrlen + 1) * 8.
 */
#define EBT_IP6_SOURCE	0x01
#define EBT_IP6_DEST	0x02
#define EBT_IP6_TCLASS	0x04
#define EBT_IP6_PROTO	0x08
#define EBT_IP6_SPORT	0x10
#define EBT_IP6_DPORT	0x20
#define EBT_IP6_ICMP6	0x40

/* the walk's context, the shape frame's [fp-88, fp): the packet view,
 * then u32 nexthdr, u32 start, u32 result, a 4-byte buffer */
#define SK_CTX		SHAPE_DYNPTR_OFF
#define SK_NH		16
#define SK_START	20
#define SK_RES		24
#define SK_BUF		28
#define SK_FP(c)	((int16_t)(SK_CTX + (c)))
#define SK_RES_RUN	0	/* the loop ran out (cannot: 8 bytes a step) */
#define SK_RES_DONE	1	/* start, nexthdr: the answer */
#define SK_RES_FAIL	2	/* -1 */
#define SK_LOOP_MAX	(1u << 20)

enum { NH6_HOP = 0, NH6_ROUTING = 43, NH6_FRAGMENT = 44, NH6_AUTH = 51,
       NH6_NONE = 59, NH6_DEST = 60 };

static void sk_ret(struct codegen_prog *p, int v)
{
	codegen_emit(p, INSN_MOV64_IMM(R0, v));
	codegen_emit(p, INSN_EXIT());
}

/* bpf_loop callback cb(index, ctx): one step of ipv6_skip_exthdr() */
static void emit_skip_cb(struct codegen_prog *p, const struct codegen_env *env,
			 const void *arg)
{
	static const int ext[] = { NH6_HOP, NH6_ROUTING, NH6_FRAGMENT,
				   NH6_AUTH, NH6_DEST };
	uint32_t l_ext = codegen_label_new(p), l_fail = codegen_label_new(p);
	uint32_t l_read = codegen_label_new(p), l_notfrag = codegen_label_new(p);
	uint32_t l_auth = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t j;

	(void)env;
	(void)arg;
	/* r6 = ctx; r7 = nexthdr; an extension header? else done */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R7, R6, SK_NH));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH6_NONE, 0), l_fail);
	for (j = 0; j < sizeof(ext) / sizeof(ext[0]); j++)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, ext[j], 0), l_ext);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, SK_RES, SK_RES_DONE));
	sk_ret(p, 1);
	/* bpf_dynptr_read(buf, fragment ? 4 : 2, view, start, 0): fails
	 * where skb_header_pointer() of the header or of frag_off does */
	codegen_label_bind(p, l_ext);
	codegen_emit(p, INSN_MOV64_IMM(R2, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH6_FRAGMENT, 0), l_read);
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_label_bind(p, l_read);
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SK_BUF));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, SK_START));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_fail);
	/* fragment: ntohs(frag_off) & ~7: stop here (nexthdr 44); else r3 = 8 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH6_FRAGMENT, 0), l_notfrag);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, SK_BUF + 2));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfff8));
	codegen_emit(p, INSN_MOV64_IMM(R3, 8));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_next);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, SK_RES, SK_RES_DONE));
	sk_ret(p, 1);
	/* r3 = AH: (hdrlen + 2) << 2, others: (hdrlen + 1) << 3 */
	codegen_label_bind(p, l_notfrag);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, SK_BUF + 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH6_AUTH, 0), l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 3));
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
	/* nexthdr = hp->nexthdr; start += r3; next step */
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, SK_BUF));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, SK_NH));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, SK_START));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, SK_START));
	sk_ret(p, 0);
	codegen_label_bind(p, l_fail);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, SK_RES, SK_RES_FAIL));
	sk_ret(p, 1);
}

static uint32_t skip_cb_label(struct codegen_prog *p)
{
	uint32_t i, l;

	for (i = 0; i < p->ndeferred; i++)
		if (p->deferred[i].emit == emit_skip_cb)
			return p->deferred[i].label;
	l = codegen_label_new(p);
	codegen_defer_func(p, l, emit_skip_cb, NULL);
	return l;
}

static void ebt_ip6_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[66], 2);
}

/* ((16 bytes at r0 + @poff) ^ consts @aoff) & consts @moff != 0: NF_INVF */
static void ip6_masked(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		       int16_t poff, int16_t aoff, int16_t moff, bool inv)
{
	int i;

	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	for (i = 0; i < 16; i += 4) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, poff + i));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + aoff + i));
		codegen_emit(p, INSN_ALU32_REG(BPF_XOR, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + moff + i));
		codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R3, R1));
	}
	codegen_emit(p, INSN_MOV64_REG(R1, R3));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	invf(p, ec, BPF_JNE, inv);
}

static void ebt_ip6_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint8_t bits = x->info[66], inv = x->info[67];
	int16_t scr = ST_OFF(scratch);

	/* r0 = skb_header_pointer(skb, 0, 40): none: false */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, env, 40, ec->l_break);
	if (bits & EBT_IP6_TCLASS) {
		/* ipv6_get_dsfield(): ntohs(first 16 bits) >> 4 & 0xff */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 0));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xff));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 64));
		invf(p, ec, BPF_JNE, inv & EBT_IP6_TCLASS);
	}
	if (bits & EBT_IP6_SOURCE)
		ip6_masked(p, ec, 8, 0, 32, inv & EBT_IP6_SOURCE);
	if (bits & EBT_IP6_DEST)
		ip6_masked(p, ec, 24, 16, 48, inv & EBT_IP6_DEST);
	if (!(bits & EBT_IP6_PROTO))
		return;
	/* nexthdr = ih6->nexthdr, start 40; the packet view for the walk;
	 * bpf_loop(SK_LOOP_MAX, cb, fp-88, 0) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R9, R0, 6));
	codegen_emit_dynptr(p, env, R8, SK_FP(0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R9, SK_FP(SK_NH)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SK_FP(SK_START), 40));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, SK_FP(SK_RES), SK_RES_RUN));
	codegen_emit(p, INSN_MOV32_IMM(R1, SK_LOOP_MAX));
	codegen_emit_ld_func(p, R2, skip_cb_label(p));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SK_FP(0)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* -1 (or ran out): false; info->protocol != nexthdr: NF_INVF */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SK_FP(SK_RES)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, SK_RES_DONE, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SK_FP(SK_NH)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 65));
	invf(p, ec, BPF_JNE, inv & EBT_IP6_PROTO);
	if (!(bits & (EBT_IP6_DPORT | EBT_IP6_SPORT | EBT_IP6_ICMP6)))
		return;
	/* scratch[0..4) = the 4 bytes at start: none: false */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, SK_FP(SK_START)));
	codegen_emit_slice(p, env, 4, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, scr));
	if (bits & EBT_IP6_DPORT) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr + 2));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 72, inv & EBT_IP6_DPORT);
	}
	if (bits & EBT_IP6_SPORT) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 68, inv & EBT_IP6_SPORT);
	}
	if (bits & EBT_IP6_ICMP6) {
		uint32_t l_out = codegen_label_new(p), l_end = codegen_label_new(p);

		/* type in [icmpv6_type[0], [1]] and code in [icmpv6_code[0],
		 * [1]], NF_INVF */
		u8_range(p, ec, scr, 68, 69, l_out);
		u8_range(p, ec, scr + 1, 72, 73, l_out);
		if (inv & EBT_IP6_ICMP6)
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		else
			codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_out);
		if (!(inv & EBT_IP6_ICMP6))
			codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		codegen_label_bind(p, l_end);
	}
}

const struct codegen_xt_ops codegen_xt_ebt_ip6 = {
	.name = "ip6", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 76,
	.const_off = 0, .const_size = 76, .shape = ebt_ip6_shape,
	.emit = ebt_ip6_emit,
};

/*
 * stp: struct ebt_stp_info { u8 type @0; struct ebt_stp_config_info
 * { u8 flags @4; u16 root_priol @6, root_priou @8; u8 root_addr[6] @10,
 * root_addrmsk[6] @16; u32 root_costl @24, root_costu @28; u16
 * sender_priol @32, sender_priou @34; u8 sender_addr[6] @36,
 * sender_addrmsk[6] @42; u16 portl @48, portu @50, msg_agel @52, msg_ageu
 * @54, max_agel @56, max_ageu @58, hello_timel @60, hello_timeu @62,
 * forward_delayl @64, forward_delayu @66 }; u16 bitmask @68, invflags
 * @70 }, host order (ebt_stp.c ebt_stp_mt): the 6 bytes at skb->data
 * must be 42 42 03 00 00 00 (the kernel compares the type byte too: only
 * configuration BPDUs get past), then --stp-type; with any config option
 * the 31 bytes of the configuration BPDU after them (none: false), each
 * field (big endian) in its range or equal under its mask, NF_INVF.
 */
#define EBT_STP_TYPE		0x0001
#define EBT_STP_FLAGS		0x0002
#define EBT_STP_ROOTPRIO	0x0004
#define EBT_STP_ROOTADDR	0x0008
#define EBT_STP_ROOTCOST	0x0010
#define EBT_STP_SENDERPRIO	0x0020
#define EBT_STP_SENDERADDR	0x0040
#define EBT_STP_PORT		0x0080
#define EBT_STP_MSGAGE		0x0100
#define EBT_STP_MAXAGE		0x0200
#define EBT_STP_HELLOTIME	0x0400
#define EBT_STP_FWDD		0x0800
#define EBT_STP_CONFIG_MASK	0x0ffe

static uint16_t stp_u16(const struct expr_xt *x, size_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

static void ebt_stp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[68], 4);
}

/* the 6 bytes at r0 + @poff against addr @acoff under mask @mcoff
 * (ether_addr_equal_masked()), NF_INVF; r1-r3 clobbered */
static void stp_mac(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		    int16_t poff, int16_t acoff, int16_t mcoff, bool inv)
{
	int i;

	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	for (i = 0; i < 6; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, poff + i));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + acoff + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + mcoff + i));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R3, R1));
	}
	codegen_emit(p, INSN_MOV64_REG(R1, R3));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	invf(p, ec, BPF_JNE, inv);
}

/* the big endian u16 at r0 + @poff in [u16 @coff, u16 @coff + 2] ^ inv */
static void stp_u16_range(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			  int16_t poff, int16_t coff, bool inv)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, poff));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_xt_emit_port_range(p, ec, ec->cbase + coff, inv);
}

static void ebt_stp_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	static const struct { uint16_t bit; int16_t poff, coff; } r16[] = {
		{ EBT_STP_ROOTPRIO, 1, 6 }, { EBT_STP_SENDERPRIO, 13, 32 },
		{ EBT_STP_PORT, 21, 48 }, { EBT_STP_MSGAGE, 23, 52 },
		{ EBT_STP_MAXAGE, 25, 56 }, { EBT_STP_HELLOTIME, 27, 60 },
		{ EBT_STP_FWDD, 29, 64 },
	};
	uint16_t bits = stp_u16(x, 68), inv = stp_u16(x, 70);
	size_t i;

	/* r0 = skb_header_pointer(skb, 0, 6): none: false; the header
	 * 42 42 03 00 00 00, else false */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, ec->env, 6, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0x00034242, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	if (bits & EBT_STP_TYPE) {
		/* info->type != sp->type (0 here) */
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
		invf(p, ec, BPF_JNE, inv & EBT_STP_TYPE);
	}
	if (!(bits & EBT_STP_CONFIG_MASK))
		return;
	/* r0 = the configuration BPDU, 31 bytes at 6: none: false */
	codegen_emit(p, INSN_MOV64_IMM(R2, 6));
	codegen_emit_slice(p, ec->env, 31, ec->l_break);
	if (bits & EBT_STP_FLAGS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 4));
		invf(p, ec, BPF_JNE, inv & EBT_STP_FLAGS);
	}
	if (bits & EBT_STP_ROOTPRIO)
		stp_u16_range(p, ec, 1, 6, inv & EBT_STP_ROOTPRIO);
	if (bits & EBT_STP_ROOTADDR)
		stp_mac(p, ec, 3, 10, 16, inv & EBT_STP_ROOTADDR);
	if (bits & EBT_STP_ROOTCOST) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 9));
		codegen_emit(p, INSN_TO_BE(R1, 32));
		codegen_xt_emit_range(p, ec, ec->cbase + 24, 4, inv & EBT_STP_ROOTCOST);
	}
	if (bits & EBT_STP_SENDERPRIO)
		stp_u16_range(p, ec, 13, 32, inv & EBT_STP_SENDERPRIO);
	if (bits & EBT_STP_SENDERADDR)
		stp_mac(p, ec, 15, 36, 42, inv & EBT_STP_SENDERADDR);
	for (i = 2; i < sizeof(r16) / sizeof(r16[0]); i++)
		if (bits & r16[i].bit)
			stp_u16_range(p, ec, r16[i].poff, r16[i].coff,
				      inv & r16[i].bit);
}

const struct codegen_xt_ops codegen_xt_ebt_stp = {
	.name = "stp", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 72,
	.const_off = 0, .const_size = 68, .shape = ebt_stp_shape,
	.emit = ebt_stp_emit,
};

/*
 * 802_3: struct ebt_802_3_info { u8 sap @0; be16 type @2; u8 bitmask @4,
 * invflags @5 } (ebt_802_3.c ebt_filter_802_3): the LLC header after the
 * 802.3 header at the mac header (dsap @14, ssap @15, ctrl @16; the SNAP
 * type at @20 when ctrl & 3 (unnumbered), else at @22), read as the kernel
 * does, without a bounds check (probe reads of the same bytes). --802_3-sap:
 * dsap and ssap both the sap (inverted: neither is); --802_3-type: dsap
 * and ssap both 0xaa, then the type, NF_INVF. The frame's ethertype is
 * not looked at (ebtables -p Length does that).
 */
#define EBT_802_3_SAP	0x01
#define EBT_802_3_TYPE	0x02

static void ebt_802_3_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[4] & 3, x->info[5] & 3 };

	codegen_key_put(k, v, sizeof(v));
}

static void ebt_802_3_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	uint8_t bits = x->info[4], inv = x->info[5];
	int16_t scr = ST_OFF(scratch);
	uint32_t l_ni = codegen_label_new(p);

	/* no mac header (none at the bridge's hooks): false */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
	/* scratch = the 10 bytes at the mac header + 14 */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, scr, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, scr + 8, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
	codegen_emit_probe_read(p, scr, 10, R9, 14);
	if (bits & EBT_802_3_SAP) {
		/* FWINV(sap != ssap), then FWINV(sap != dsap) */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 1));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
		invf(p, ec, BPF_JNE, inv & EBT_802_3_SAP);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr));
		invf(p, ec, BPF_JNE, inv & EBT_802_3_SAP);
	}
	if (!(bits & EBT_802_3_TYPE))
		return;
	/* dsap and ssap 0xaa (CHECK_TYPE), else false */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, scr));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0xaaaa, 0), ec->l_break);
	/* r1 = ntohs(ctrl & IS_UI ? ui.type (@6) : ni.type (@8: struct
	 * hdr_ni aligns it after its 2-byte ctrl and 3-byte orig)) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, scr + 2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 6));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, scr + 7));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R3, 0x03, 0), l_ni);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, scr + 8));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, scr + 9));
	codegen_label_bind(p, l_ni);
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 8));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R2));
	/* r2 = ntohs(info->type) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 8));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R2, R3));
	invf(p, ec, BPF_JNE, inv & EBT_802_3_TYPE);
}

const struct codegen_xt_ops codegen_xt_ebt_802_3 = {
	.name = "802_3", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 6,
	.const_off = 0, .const_size = 4, .shape = ebt_802_3_shape,
	.emit = ebt_802_3_emit,
};
