// SPDX-License-Identifier: GPL-2.0-only
/*
 * payload.c - load packet bytes into registers (nft_payload.c, load form).
 *
 * Offsets are relative to the packet view (struct codegen_pkt): skb->data,
 * which is the network header at every ip/ip6/inet netfilter hook, and
 * the network header in tc programs too. NH = 0, TH = pkt.thoff (breaks without a
 * transport header or on a non-first fragment, as nft_payload_eval),
 * LL = the mac header (breaks unless it was set and is non-empty),
 * INNER = past the transport header (emit_inner_offset()).
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/payload.h"

static int payload_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_payload *pl = expr_priv(e);

	if (pl->is_set) {
		err->msg = "payload set (mangling) is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (pl->base > PAYLOAD_INNER) {
		snprintf(err->buf, sizeof(err->buf),
			 "payload base %u is not supported by the nfbpf dataplane yet",
			 pl->base);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(pl->dreg, pl->len) || pl->offset > 0xffff) {
		err->msg = "payload: register or offset out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t payload_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void payload_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_payload *pl = expr_priv(e);

	codegen_key_put(k, &pl->base, 1);
	codegen_key_put(k, &pl->offset, 4);
	codegen_key_put(k, &pl->len, 4);
	codegen_key_put(k, &pl->dreg, 1);
}

static void payload_consts(const struct expr *e, uint8_t *dst,
			   const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/*
 * bytes inside the walker's packet byte cache (codegen_state.pktc):
 * if they were cached, regs[dreg..] = cache[offset, +len); goto @l_end.
 * Otherwise (packet shorter than the cache) on to the packet itself.
 */
static void emit_cached(struct codegen_prog *p, const struct expr_payload *pl,
			int16_t len_off, int16_t cache_off, uint32_t cache_len,
			uint32_t l_end)
{
	uint32_t l_miss = codegen_label_new(p);

	if (pl->offset + pl->len > cache_len)
		return;
	/* if cached bytes < offset + len goto miss */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, len_off));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, pl->offset + pl->len, 0),
			 l_miss);
	codegen_emit_copy_to_reg(p, pl->dreg, R6,
				 (int16_t)(cache_off + pl->offset), pl->len);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_miss);
}

/* the @len bytes at kernel address r3 into the shape buffer (a failed
 * read: @l_break); r0 = buf; goto @l_copy */
static void emit_probe_buf(struct codegen_prog *p, uint32_t len,
			   uint32_t l_break, uint32_t l_copy)
{
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R2, len));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_break);
	codegen_emit(p, INSN_MOV64_REG(R0, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, SHAPE_BUF_OFF));
	codegen_emit_jmp(p, INSN_JA(0), l_copy);
}

/*
 * @ll loads past the ethernet addresses of a frame whose VLAN tag the
 * stack moved to skb->vlan_all (nft_payload_eval(): skb_vlan_tag_present()
 * and offset + len > 12, nft_payload_copy_vlan()): the bytes of a rebuilt
 * 802.1Q frame, [0, 12) the mac header's addresses, [12, 14) vlan_proto,
 * [14, 16) the TCI (network order), [16, 18) skb->protocol, then the mac
 * header's bytes from 14 on (virtual offset v is real offset v - 4). The
 * bytes go to the shape buffer (len <= 64), r0 = it, goto @l_copy; no tag
 * (or not readable): on to @l_plain (the load as it is).
 */
#define LL_VLAN_ETH_HLEN	18
#define LL_NFPROTO_ARP		3
static void emit_ll_vlan(struct codegen_prog *p, const struct expr_payload *pl,
			 const struct codegen_expr_ctx *ec, uint32_t l_copy,
			 uint32_t l_plain)
{
	uint32_t off = pl->offset, end = pl->offset + pl->len, v, k;

	/* arp chains (tc): arp_rcv() and arp_xmit() see no tag (a tag with
	 * id 0 is gone by then, any other keeps the frame from them) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, LL_NFPROTO_ARP, 0), l_plain);
	/* key slot = skb->vlan_all (probe read); 0: plain */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, SHAPE_KEY_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(skb_addr)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, ec->env->off.skb_vlan_all));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_plain);
	/* the kernel copies the 14 bytes of the mac header first: if
	 * (s64)(ll_off + 14) > view length: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 32));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R2, 32));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 14));
	codegen_emit_view_len(p, ec->env, R4, R5);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSGT, R2, R4, 0), ec->l_break);
	/* [off, 12): buf = probe_read(ll_addr + off) */
	if (off < 12) {
		codegen_emit(p, INSN_MOV64_REG(R1, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_BUF_OFF));
		codegen_emit(p, INSN_MOV64_IMM(R2, (end < 12 ? end : 12) - off));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(ll_addr)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, off));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
	}
	/* [12, 18): vlan_proto (vlan_all's bytes 0, 1), the TCI in network
	 * order (bytes 3, 2), skb->protocol (as stored) */
	for (v = off > 12 ? off : 12; v < end && v < LL_VLAN_ETH_HLEN; v++) {
		static const int8_t from_key[6] = { 0, 1, 3, 2, -1, -1 };

		k = v - 12;
		if (from_key[k] >= 0)
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10,
						     SHAPE_KEY_OFF + from_key[k]));
		else
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6,
						     PKT_OFF(protocol) + k - 4));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R10, R1,
					     SHAPE_BUF_OFF + (int16_t)(v - off)));
	}
	/* [18, end): the packet at view offset ll_off + v - 4 */
	if (end > LL_VLAN_ETH_HLEN) {
		v = off > LL_VLAN_ETH_HLEN ? off : LL_VLAN_ETH_HLEN;
		codegen_emit_dynptr(p, ec->env, R8, SHAPE_DYNPTR_OFF);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(ll_off)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R4, 32));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R4, 32));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, v - 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R4, 0, 0), ec->l_break);
		codegen_emit(p, INSN_MOV64_REG(R1, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_BUF_OFF + (int16_t)(v - off)));
		codegen_emit(p, INSN_MOV64_IMM(R2, end - v));
		codegen_emit(p, INSN_MOV64_REG(R3, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
		codegen_emit(p, INSN_MOV64_IMM(R5, 0));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
	}
	codegen_emit(p, INSN_MOV64_REG(R0, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, SHAPE_BUF_OFF));
	codegen_emit_jmp(p, INSN_JA(0), l_copy);
}

/*
 * r2 = the inner header's view offset (nft_payload_inner_offset()), or
 * break: none without a transport header or on a non-first fragment;
 * UDP: thoff + 8; TCP: thoff + doff * 4 (its 20-byte header must be in
 * the packet); GRE version 0 without the routing flag: thoff + 4, + 4
 * for each of checksum (with reserved1), key and sequence number (its
 * 4-byte base header must be in the packet); IPIP: thoff; any other
 * protocol: none
 */
#define INNER_UDP	17
#define INNER_TCP	6
#define INNER_GRE	47
#define INNER_IPIP	4
static void emit_inner_offset(struct codegen_prog *p,
			      const struct codegen_expr_ctx *ec)
{
	uint32_t l_tcp = codegen_label_new(p), l_gre = codegen_label_new(p);
	uint32_t l_done = codegen_label_new(p);
	int i;

	/* if !(pkt.flags & L4PROTO) || pkt.fragoff goto break */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	/* r2 = thoff; r1 = l4proto */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, INNER_IPIP, 0), l_done);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, INNER_TCP, 0), l_tcp);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, INNER_GRE, 0), l_gre);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, INNER_UDP, 0), ec->l_break);
	/* udp: r2 = thoff + 8 */
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 8));
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	/* tcp: r0 = slice(thoff, 20); r2 = thoff + (r0[12] >> 4) * 4 */
	codegen_label_bind(p, l_tcp);
	codegen_emit_slice(p, ec->env, 20, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 12));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R1));
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	/* gre: r0 = slice(thoff, 4); r1 = flags byte 0, version (flags
	 * byte 1 & 7) != 0 or routing (0x40): break */
	codegen_label_bind(p, l_gre);
	codegen_emit_slice(p, ec->env, 4, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 0x07, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 0x40, 0), ec->l_break);
	/* r2 = thoff + 4, + 4 for each of csum (0x80), key (0x20), seq (0x10) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 4));
	for (i = 0; i < 3; i++) {
		static const int bit[3] = { 0x80, 0x20, 0x10 };
		uint32_t l_no = codegen_label_new(p);

		codegen_emit(p, INSN_MOV64_REG(R3, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, bit[i]));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_no);
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 4));
		codegen_label_bind(p, l_no);
	}
	codegen_label_bind(p, l_done);
}

static void payload_emit(struct codegen_prog *p, const struct expr *e,
			 const struct codegen_expr_ctx *ec)
{
	const struct expr_payload *pl = expr_priv(e);
	uint32_t l_copy = codegen_label_new(p);
	uint32_t l_slice = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_frag = UINT32_MAX;

	switch (pl->base) {
	case PAYLOAD_NH:
		emit_cached(p, pl, PKT_OFF(nhc_len), ST_NHC_OFF, PKT_NHC, l_end);
		/* r2 = offset */
		codegen_emit(p, INSN_MOV64_IMM(R2, pl->offset));
		break;
	case PAYLOAD_TH:
		/* if !(pkt.flags & L4PROTO) goto break */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
		/* if pkt.fragoff: a later fragment (see emit_fragment) */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
		if (payload_kernel_fast(pl)) {
			l_frag = codegen_label_new(p);
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_frag);
		} else {
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
		}
		emit_cached(p, pl, PKT_OFF(thc_len), ST_THC_OFF, PKT_THC, l_end);
		/* r2 = pkt.thoff + offset */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, pl->offset));
		break;
	case PAYLOAD_INNER:
		/* r2 = inner offset + offset */
		emit_inner_offset(p, ec);
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, pl->offset));
		break;
	case PAYLOAD_LL:
		/* if !(pkt.flags & LL) goto break */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
		if (pl->offset + pl->len > 12) {
			uint32_t l_plain = codegen_label_new(p);

			emit_ll_vlan(p, pl, ec, l_copy, l_plain);
			codegen_label_bind(p, l_plain);
		}
		/* r2 = (s32)pkt.ll_off + offset */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(ll_off)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 32));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R2, 32));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, pl->offset));
		/* if (s64)(r2 + len) > pkt.len goto break (skb_copy_bits) */
		codegen_emit(p, INSN_MOV64_REG(R3, R2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, pl->len));
		codegen_emit_view_len(p, ec->env, R4, R5);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSGT, R3, R4, 0), ec->l_break);
		/* if (s64)r2 >= 0 goto slice */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSGE, R2, 0, 0), l_slice);
		/* before skb->data: r0 = probe_read_kernel(buf, len, ll_addr + offset) */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(ll_addr)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, pl->offset));
		emit_probe_buf(p, pl->len, ec->l_break, l_copy);
		break;
	}
	if (l_frag != UINT32_MAX) {
		/*
		 * a later fragment through the kernel's nft_payload_fast_eval():
		 * it has no fragoff check and reads skb->data + thoff + offset
		 * (IPv4: fragment data; IPv6: thoff is 0) if that is in the
		 * linear area; else nft_payload_eval() breaks. skb->data is the
		 * network header (the view) at netfilter hooks and netdev
		 * ingress, the mac header at netdev egress: there IPv6's
		 * thoff 0 is view_off bytes before the view
		 */
		bool egress = ec->env->ctx == CODEGEN_CTX_TC_EGRESS;
		uint32_t l_v4 = codegen_label_new(p);

		codegen_emit_jmp(p, INSN_JA(0), l_slice);
		codegen_label_bind(p, l_frag);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
		if (egress) {
			/* if thoff == 0: r2 = -view_off */
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_v4);
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
			codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R1));
			codegen_label_bind(p, l_v4);
		}
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, pl->offset));
		codegen_emit(p, INSN_MOV64_REG(R3, R2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, pl->len));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(headlen)));
		codegen_emit_jmp(p, INSN_JMP_REG(egress ? BPF_JSGT : BPF_JGT,
						 R3, R4, 0), ec->l_break);
		if (egress) {
			/* if (s64)r2 >= 0 goto slice; else the bytes before
			 * the view: the mac header, at ll_addr - ll_off + r2 */
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSGE, R2, 0, 0), l_slice);
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
			codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(ll_off)));
			codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 32));
			codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R1, 32));
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(ll_addr)));
			codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R2));
			codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R1));
			emit_probe_buf(p, pl->len, ec->l_break, l_copy);
		}
	}
	codegen_label_bind(p, l_slice);
	/* r0 = slice(skb, r2, len); if !r0 goto break */
	codegen_emit_slice(p, ec->env, pl->len, ec->l_break);
	codegen_label_bind(p, l_copy);
	/* regs[dreg..] = r0[0..len) */
	codegen_emit_copy_to_reg(p, pl->dreg, R0, 0, pl->len);
	if (codegen_label_used(p, l_end))
		codegen_label_bind(p, l_end);
}

const struct codegen_expr_ops codegen_expr_payload = {
	.name = "payload",
	.check = payload_check,
	.const_size = payload_const_size,
	.shape = payload_shape,
	.consts = payload_consts,
	.emit = payload_emit,
};
