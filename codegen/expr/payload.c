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
 *
 * The set form (nft_payload_set_eval(), mangling) runs in tc programs
 * only (netdev, bridge and arp tables, inet ingress chains): the packet
 * of a BPF_PROG_TYPE_NETFILTER program is read-only, so rules that would
 * run there are refused at commit (offload/dataplane.c). It writes with
 * bpf_skb_store_bytes() at offsets from skb->data, fixes the checksums
 * as the kernel does (see emit_set()), then brings what the walker keeps
 * of the packet up to date for the expressions and rules after it
 * (codegen_emit_pkt_refresh()).
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/payload.h"

#define CSUM_INET		1	/* NFT_PAYLOAD_CSUM_INET */
#define CSUM_SCTP		2	/* NFT_PAYLOAD_CSUM_SCTP */
#define SET_CSUM_MAX		32	/* bytes of a write with checksum fixes */

/* the kernel keeps the set form's offset in a u8 (struct nft_payload_set) */
static uint32_t set_off(const struct expr_payload *pl)
{
	return pl->offset & 0xff;
}

/* link layer bytes 12-15 the kernel writes into skb->vlan_proto/vlan_tci
 * when the stack holds the frame's VLAN tag (nft_payload_set_vlan()) */
static bool set_vlan_fields(const struct expr_payload *pl)
{
	uint32_t off = set_off(pl);

	return pl->base == PAYLOAD_LL &&
	       ((off == 12 && (pl->len == 2 || pl->len == 4)) ||
		(off == 14 && pl->len == 2));
}

static bool set_csum(const struct expr_payload *pl)
{
	return pl->csum_type == CSUM_INET || pl->csum_flags;
}

static int set_check(const struct expr_payload *pl, struct dp_error *err)
{
	if (pl->base > PAYLOAD_TH) {
		snprintf(err->buf, sizeof(err->buf),
			 "payload set at base %u is not supported by the nfbpf dataplane yet",
			 pl->base);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (pl->csum_type == CSUM_SCTP) {
		err->msg = "payload set with the SCTP checksum (crc32c over the packet) is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (set_csum(pl) && pl->len > SET_CSUM_MAX) {
		snprintf(err->buf, sizeof(err->buf),
			 "payload set: a write with checksum fixes of %u bytes (over %u) is not supported by the nfbpf dataplane",
			 pl->len, SET_CSUM_MAX);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (set_vlan_fields(pl)) {
		err->msg = "payload set of link layer bytes 12-15 (the ethertype, or a VLAN tag the stack holds outside the frame) is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(pl->sreg, pl->len)) {
		err->msg = "payload: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static int payload_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_payload *pl = expr_priv(e);

	if (pl->is_set)
		return set_check(pl, err);
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
	codegen_key_put(k, &pl->is_set, 1);
	if (pl->is_set) {
		codegen_key_put(k, &pl->sreg, 1);
		codegen_key_put(k, &pl->csum_type, 4);
		codegen_key_put(k, &pl->csum_offset, 4);
		codegen_key_put(k, &pl->csum_flags, 4);
	}
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

/* ---- the set form ---- */

#define CHECKSUM_COMPLETE_	2
#define CHECKSUM_PARTIAL_	3
#define IPPROTO_TCP_		6
#define IPPROTO_UDP_		17
#define IPPROTO_ICMPV6_		58
#define IPPROTO_UDPLITE_	136
#define NFPROTO_ARP_		3
#define SET_OLD_OFF		SHAPE_BUF_OFF			/* old bytes */
#define SET_NEW_OFF		(SHAPE_BUF_OFF + SET_CSUM_MAX)	/* new bytes */
#define SET_DIFF_OFF		SHAPE_KEY_OFF	/* u64: tsum - fsum */
#define SET_SUM_OFF		ST_OFF(scratch)	/* u16: a checksum field */
#define SET_L4OFF_OFF		((int16_t)(ST_OFF(scratch) + 4))	/* u32 */
#define SET_SUMMED_OFF		((int16_t)(ST_OFF(scratch) + 8))	/* u8 */

/* @r = the 16-bit ones' complement fold of @r (< 2^33; @tmp clobbered) */
static void emit_fold16(struct codegen_prog *p, int r, int tmp)
{
	int i;

	for (i = 0; i < 3; i++) {
		codegen_emit(p, INSN_MOV64_REG(tmp, r));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, tmp, 16));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, r, 0xffff));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, r, tmp));
	}
}

/*
 * r1 = the checksum field r1 (u16, as loaded) with the bytes' change
 * (SET_DIFF_OFF) applied: nft_csum_replace() (a result of 0 becomes
 * CSUM_MANGLED_0) or, @partial, the pseudo header sum a CHECKSUM_PARTIAL
 * packet's field holds (~csum_fold() of the sum). Both depend only on
 * the sums modulo 0xffff. r2 clobbered.
 */
static void emit_csum_apply(struct codegen_prog *p, bool partial)
{
	uint32_t l_ok = codegen_label_new(p);

	if (!partial) {
		/* r1 = ~r1 & 0xffff */
		codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R1, 0xffff));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, SET_DIFF_OFF));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	emit_fold16(p, R1, R2);
	if (partial)
		return;
	/* r1 = ~r1 & 0xffff; 0: 0xffff */
	codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R1, 0xffff));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_ok);
	codegen_emit(p, INSN_MOV64_IMM(R1, 0xffff));
	codegen_label_bind(p, l_ok);
}

/* r0 = bpf_skb_load_bytes(ctx, @off_reg + @add, @dst_reg + @doff, @len) */
static void emit_skb_load(struct codegen_prog *p, int off_reg, int32_t add,
			  int dst_reg, int16_t doff, uint32_t len)
{
	codegen_emit(p, INSN_MOV64_REG(R2, off_reg));
	if (add)
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, add));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_REG(R3, dst_reg));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, doff));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_load_bytes));
}

/* bpf_skb_store_bytes(ctx, @off_reg + @add, @src_reg + @soff, @len, 0);
 * a failure: goto @l_fail */
static void emit_skb_store(struct codegen_prog *p, int off_reg, int32_t add,
			   int src_reg, int16_t soff, uint32_t len,
			   uint32_t l_fail)
{
	codegen_emit(p, INSN_MOV64_REG(R2, off_reg));
	if (add)
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, add));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_REG(R3, src_reg));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, soff));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_store_bytes));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_fail);
}

/*
 * nft_payload_l4csum_update(): the transport checksum of the packet
 * (TCP, UDP unless its checksum is 0, UDP-Lite, ICMPv6; none for a later
 * fragment) takes the pseudo header's change; a checksum that cannot be
 * read or written breaks. r9 = base offset (kept).
 */
static void emit_l4csum(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	uint32_t l_skip = codegen_label_new(p), l_at = codegen_label_new(p);
	uint32_t l_udp = codegen_label_new(p), l_partial = codegen_label_new(p);
	uint32_t l_field = codegen_label_new(p), l_write = codegen_label_new(p);

	/* no transport protocol, or a later fragment: nothing to fix */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, PKT_L4PROTO, 0), l_at);
	codegen_emit_jmp(p, INSN_JA(0), l_skip);
	codegen_label_bind(p, l_at);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_skip);
	/* r3 = offset of the checksum in the transport header */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit(p, INSN_MOV64_IMM(R3, 16));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, IPPROTO_TCP_, 0), l_field);
	codegen_emit(p, INSN_MOV64_IMM(R3, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, IPPROTO_ICMPV6_, 0), l_field);
	codegen_emit(p, INSN_MOV64_IMM(R3, 6));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, IPPROTO_UDPLITE_, 0), l_field);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, IPPROTO_UDP_, 0), l_udp);
	codegen_emit_jmp(p, INSN_JA(0), l_skip);
	/* UDP: a zero checksum (none) or one that cannot be read stays */
	codegen_label_bind(p, l_udp);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R4, R1));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, SET_SUM_OFF, 0));
	emit_skb_load(p, R4, 6, R6, SET_SUM_OFF, 2);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, SET_SUM_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_skip);
	codegen_emit(p, INSN_MOV64_IMM(R3, 6));
	/* the checksum's offset from skb->data: view_off + thoff + r3 */
	codegen_label_bind(p, l_field);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R4));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R4, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R4));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R3, SET_L4OFF_OFF));
	/* r1 = the field; unreadable: break */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, SET_L4OFF_OFF));
	emit_skb_load(p, R4, 0, R6, SET_SUM_OFF, 2);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, SET_SUM_OFF));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, SET_SUMMED_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, CHECKSUM_PARTIAL_, 0), l_partial);
	emit_csum_apply(p, false);
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, SET_SUM_OFF));
	/* CHECKSUM_COMPLETE: skb->csum takes fsum - tsum, as the kernel's
	 * (bpf_csum_update() does nothing for the other kinds) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, SET_DIFF_OFF));
	codegen_emit(p, INSN_ALU32_IMM(BPF_XOR, R2, -1));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_csum_update));
	codegen_emit_jmp(p, INSN_JA(0), l_write);
	/* CHECKSUM_PARTIAL: the field holds the pseudo header's sum */
	codegen_label_bind(p, l_partial);
	emit_csum_apply(p, true);
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, SET_SUM_OFF));
	codegen_label_bind(p, l_write);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, SET_L4OFF_OFF));
	emit_skb_store(p, R4, 0, R6, SET_SUM_OFF, 2, ec->l_break);
	codegen_label_bind(p, l_skip);
}

/*
 * LL writes past the ethernet addresses while the stack holds the
 * frame's VLAN tag (skb->vlan_all, nft_payload_set_vlan()): at offset 16
 * and on the kernel writes 4 bytes earlier (the frame has no tag); the
 * ones across bytes 12-15 break (12/2, 12/4, 14/2, the tag's own fields,
 * are refused at commit). arp chains see no tag (see emit_ll_vlan()).
 * r9 -= 4 or goto break.
 */
static void emit_set_vlan(struct codegen_prog *p, const struct expr_payload *pl,
			  const struct codegen_expr_ctx *ec)
{
	uint32_t l_plain = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NFPROTO_ARP_, 0), l_plain);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R4, ec->env->off.skb_vlan_all);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_plain);
	if (set_off(pl) < 16)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	else
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R9, 4));
	codegen_label_bind(p, l_plain);
}

/*
 * nft_payload_set_eval() in a tc program: r9 = the base's offset from
 * skb->data (LL: the mac header, NH: the network header, TH: the
 * transport header of a first fragment, else break). With a checksum to
 * fix (csum type inet at csum_offset from the base, and/or the transport
 * checksum for a pseudo header field) unless a transport header write of
 * a CHECKSUM_PARTIAL packet: fsum, tsum of the old and new bytes
 * (bpf_csum_diff() of both, zero padded alike), the fields take the
 * difference; then the bytes. Anything unreadable or unwritable breaks,
 * as there. r9 kept across helper calls.
 */
static void emit_set(struct codegen_prog *p, const struct expr_payload *pl,
		     const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t off = set_off(pl), len = pl->len, n4 = (len + 3) & ~3u;
	uint32_t l_nocsum = codegen_label_new(p);
	int i;

	if (env->ctx == CODEGEN_CTX_NF ||
	    (set_csum(pl) && env->off.skb_ip_summed < 0)) {
		/* netfilter programs never run it (refused at commit); no
		 * ip_summed in this kernel's BTF: fail closed (a conditional
		 * jump: what follows stays reachable for the verifier's CFG
		 * check) */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_done);
		return;
	}
	switch (pl->base) {
	case PAYLOAD_LL:
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
		/* r9 = (s32)ll_off + view_off */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(ll_off)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R9, 32));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ARSH, R9, 32));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
		if (off + len > 12)
			emit_set_vlan(p, pl, ec);
		break;
	case PAYLOAD_NH:
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R9, R6, PKT_OFF(view_off)));
		break;
	default:
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R6, PKT_OFF(thoff)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(view_off)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
		break;
	}
	/* bytes before skb->data: not writable from tc (never: tc has the
	 * mac header at skb->data; with a VLAN tag r9 is -4, off >= 16) */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, off));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 0, 0), ec->l_break);

	if (set_csum(pl)) {
		/* scratch[8] = skb->ip_summed */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, SET_SUMMED_OFF, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
		codegen_emit_probe_read(p, SET_SUMMED_OFF, 1, R4, env->off.skb_ip_summed);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, SET_SUMMED_OFF));
		if (env->off.ip_summed_shift)
			codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, env->off.ip_summed_shift));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 3));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, SET_SUMMED_OFF));
		if (pl->base == PAYLOAD_TH)
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, CHECKSUM_PARTIAL_, 0),
					 l_nocsum);
		/* old bytes (unreadable: break), new bytes, zero padded */
		for (i = 0; i < 2 * SET_CSUM_MAX; i += 8)
			codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, SET_OLD_OFF + i, 0));
		emit_skb_load(p, R9, off, R10, SET_OLD_OFF, len);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
		codegen_emit_copy(p, R10, SET_NEW_OFF, R6, REG_OFF(pl->sreg), len, R1);
		/* diff = bpf_csum_diff(old, n4, new, n4, 0): tsum - fsum */
		codegen_emit(p, INSN_MOV64_REG(R1, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SET_OLD_OFF));
		codegen_emit(p, INSN_MOV64_IMM(R2, n4));
		codegen_emit(p, INSN_MOV64_REG(R3, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SET_NEW_OFF));
		codegen_emit(p, INSN_MOV64_IMM(R4, n4));
		codegen_emit(p, INSN_MOV64_IMM(R5, 0));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_csum_diff));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R0, 0, 0), ec->l_break);
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R0, SET_DIFF_OFF));
		if (pl->csum_type == CSUM_INET) {
			/* nft_payload_csum_inet(): the field at csum_offset */
			codegen_emit(p, INSN_ST_MEM(BPF_W, R6, SET_SUM_OFF, 0));
			emit_skb_load(p, R9, pl->csum_offset, R6, SET_SUM_OFF, 2);
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, SET_SUM_OFF));
			emit_csum_apply(p, false);
			codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, SET_SUM_OFF));
			emit_skb_store(p, R9, pl->csum_offset, R6, SET_SUM_OFF, 2,
				       ec->l_break);
		}
		if (pl->csum_flags)
			emit_l4csum(p, ec);
	}
	codegen_label_bind(p, l_nocsum);
	/* the bytes: bpf_skb_store_bytes(ctx, r9 + off, regs[sreg], len, 0) */
	emit_skb_store(p, R9, off, R6, REG_OFF(pl->sreg), len, ec->l_break);
	codegen_emit_pkt_refresh(p, env);
}

void codegen_emit_pkt_refresh(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_ll = codegen_label_new(p), l_th = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);

	if (env->ctx == CODEGEN_CTX_NF)
		return;
	/* ll_addr = skb->head + skb->mac_header (if the walker had one) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(ll_addr)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_ll);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch) + 8, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, R4, env->off.skb_head);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch) + 8, 2, R4, env->off.skb_mac_header);
	if (env->ctx == CODEGEN_CTX_TC_EGRESS) {
		/* buf[0..8) = the old head (ll_addr - mac_header: a head
		 * copied by skb_ensure_writable() keeps the offsets) */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(ll_addr)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, ST_OFF(scratch) + 8));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, SHAPE_BUF_OFF));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, ST_OFF(scratch) + 8));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, PKT_OFF(ll_addr)));
	if (env->ctx == CODEGEN_CTX_TC_EGRESS) {
		/*
		 * a bridge device's frame whose head moved: the ring's
		 * br_tx_head (codegen/walker.c emit_bridge()), by which the
		 * ports' egress tells the frames the bridge device sent,
		 * follows it (only here, where it was recorded: skb->dev is
		 * the ring's bridge device)
		 */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, SHAPE_BUF_OFF));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, ST_OFF(scratch)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_ll);
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, 0));
		codegen_emit(p, INSN_MOV64_REG(R2, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
		codegen_emit_ld_map(p, R1, env->ring_fd);
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_ll);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, offsetof(struct codegen_ring, br_tx_br)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(out_dev)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_ll);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, offsetof(struct codegen_ring, br_tx_head)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, SHAPE_BUF_OFF));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_ll);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R1, offsetof(struct codegen_ring, br_tx_head)));
	}
	codegen_label_bind(p, l_ll);
	/* headlen = skb->len - skb->data_len - view_off (frags pulled) */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R4, env->off.skb_len);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_read(p, ST_OFF(scratch) + 4, 4, R4, env->off.skb_data_len);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFF(scratch) + 4));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(headlen)));
	/* the packet byte cache: the same bytes again */
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_th);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R2, PKT_NHC, 0), l_th);
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, ST_NHC_OFF));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_label_bind(p, l_th);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(thc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_end);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R2, PKT_THC, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, ST_THC_OFF));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_label_bind(p, l_end);
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
	uint32_t l_copy, l_slice, l_end, l_frag = UINT32_MAX;

	if (pl->is_set) {
		emit_set(p, pl, ec);
		return;
	}
	l_copy = codegen_label_new(p);
	l_slice = codegen_label_new(p);
	l_end = codegen_label_new(p);

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
