// SPDX-License-Identifier: GPL-2.0-only
/*
 * walker.c - the walker program of one context (netfilter, tc ingress, tc
 * egress), shared by every hook point of that context, and the trampoline
 * behind each hook point's link.
 *
 * Walker = main function (packet info, the hook point's base chains from
 * the heads map, a bpf_loop per chain) + loop callback (one rule map entry
 * per iteration, jump stack as nf_tables' nft_do_chain) + BTF global
 * functions holding the shapes. Trampoline = (ctx, slot) into the per-CPU
 * ring, then a tail call (see "Hook points" in codegen.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"

/*
 * main frame: [fp - ST_SIZE - 8, fp - 8) struct codegen_state,
 * [fp - 8] ctx (the loop callback passes it to the shape functions),
 * [fp - ST_SIZE - 24, fp - ST_SIZE - 8) the prologue's skb dynptr
 */
#define ST_FP(off)	((int16_t)(-ST_SIZE - 8 + (off)))	/* fp-relative in main */
#define CTX_FROM_ST	ST_SIZE				/* ctx slot, from st */
#define DYNPTR_FP	((int16_t)(-ST_SIZE - 24))

#define PACKET_LOOPBACK		5
#define PACKET_BROADCAST	1
#define PACKET_MULTICAST	2
#define NFPROTO_IPV4		2
#define NFPROTO_IPV6		10

/* r0 = map_lookup_elem(@fd, &st->key) with st->key = @src (main: r6 = st) */
static void emit_lookup(struct codegen_prog *p, int fd, int src)
{
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, src, ST_OFF(key)));
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(key)));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
}

/* r0 = bpf_dynptr_slice(&dynptr, @off_reg, st->pktc, @len) (main) */
static void emit_slice(struct codegen_prog *p, const struct codegen_env *env,
		       int off_reg, uint32_t len)
{
	if (off_reg != R2)
		codegen_emit(p, INSN_MOV64_REG(R2, off_reg));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, DYNPTR_FP));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, ST_OFF(pktc)));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_slice));
}

/* pkt.flags |= @flag (r1 clobbered) */
static void emit_set_flag(struct codegen_prog *p, uint8_t flag)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, flag));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
}

/* device @dev_reg (maybe NULL): ifindex, name, type into pkt */
static void emit_dev(struct codegen_prog *p, const struct codegen_env *env,
		     int dev_reg, uint8_t flag, int16_t ifindex, int16_t name,
		     int16_t type, int16_t addr)
{
	uint32_t l_none = codegen_label_new(p);

	/* the device's address, for keys read later (0: none) */
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, dev_reg, addr));
	/* if dev == NULL: iif = 0, name = "" (already zero), no type */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, dev_reg, 0, 0), l_none);
	emit_set_flag(p, flag);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, dev_reg, env->off.dev_ifindex));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ifindex));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, dev_reg, env->off.dev_type));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, type));
	/* name: probe_read_kernel(pkt.name, 16, dev->name) */
	codegen_emit(p, INSN_MOV64_REG(R3, dev_reg));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, env->off.dev_name));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, name));
	codegen_emit(p, INSN_MOV64_IMM(R2, 16));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_label_bind(p, l_none);
}

/*
 * nft_set_pktinfo_ipv4(): trusts the header the stack already checked;
 * in tc programs nft_set_pktinfo_ipv4_validate(): a header that fails
 * goes to @l_bad
 */
static void emit_ipv4(struct codegen_prog *p, const struct codegen_env *env,
		      uint32_t l_bad)
{
	/* r0 = slice(0, 20); if !r0 goto bad */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	emit_slice(p, env, R2, 20);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_bad);
	if (env->ctx != CODEGEN_CTX_NF) {
		/* if version != 4 || ihl < 5 goto bad */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 4, 0), l_bad);
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xf));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 5, 0), l_bad);
		/* if tot_len < ihl * 4 || view length < tot_len goto bad */
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R0, 2));
		codegen_emit(p, INSN_TO_BE(R2, 16));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R2, R1, 0), l_bad);
		codegen_emit_view_len(p, env, R3, R4);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R3, R2, 0), l_bad);
	}
	/* pkt.thoff = (iph->ihl) * 4 */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xf));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(thoff)));
	/* pkt.l4proto = iph->protocol */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 9));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(l4proto)));
	/* pkt.fragoff = ntohs(iph->frag_off) & IP_OFFSET */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 6));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0x1fff));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, PKT_OFF(fragoff)));
	/* r9 = first byte of daddr (for pkttype on loopback) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R9, R0, 16));
	emit_set_flag(p, PKT_L4PROTO);
}

/*
 * __nft_set_pktinfo_ipv6(): ipv6_find_hdr(target -1, IP6_FH_F_AUTH) over
 * any number of extension headers (codegen_emit_ipv6_find_hdr(), its
 * walk at the packet view's dynptr, overlaying st->regs). No transport
 * header (-ENOENT, -EBADMSG) or one past U16_MAX: goto @l_bad, packet
 * info unset (nft_set_pktinfo_unspec()). In tc programs
 * nft_set_pktinfo_ipv6_validate() first checks the header itself.
 */
static void emit_ipv6(struct codegen_prog *p, const struct codegen_env *env,
		      uint32_t l_bad)
{
	uint32_t l_zero = codegen_label_new(p);
	int16_t off;

	if (env->ctx != CODEGEN_CTX_NF) {
		/* r0 = slice(0, 40); if version != 6 goto bad */
		codegen_emit(p, INSN_MOV64_IMM(R2, 0));
		emit_slice(p, env, R2, 40);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_bad);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), l_bad);
		/* if payload_len + 40 > view length goto bad */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R0, 4));
		codegen_emit(p, INSN_TO_BE(R2, 16));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 40));
		codegen_emit_view_len(p, env, R3, R4);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_bad);
	}
	/* r0 = ipv6_find_hdr(); not found: st->regs zeroed again, bad */
	codegen_emit_ipv6_find_hdr(p, env, DYNPTR_FP, IP6WALK_ANY, true);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), l_zero);
	/* if thoff > U16_MAX goto bad (zeroed) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, DYNPTR_FP + IP6WALK_OFF(start)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R2, 0xffff, 0), l_zero);
	/* pkt.l4proto = nexthdr; pkt.thoff = start; pkt.fragoff = fragoff */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, DYNPTR_FP + IP6WALK_OFF(nexthdr)));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(l4proto)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, PKT_OFF(thoff)));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R10, DYNPTR_FP + IP6WALK_OFF(fragoff)));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, PKT_OFF(fragoff)));
	emit_set_flag(p, PKT_L4PROTO);
	codegen_emit(p, INSN_MOV64_IMM(R0, IP6WALK_FOUND));
	/* st->regs the walk used = 0 (nft_do_chain()'s zeroed registers) */
	codegen_label_bind(p, l_zero);
	for (off = IP6WALK_OFF(nexthdr); off < (int16_t)sizeof(struct codegen_ip6walk);
	     off += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, DYNPTR_FP + off, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), l_bad);
}

/*
 * st->pktc[@dst, +r7) = packet[@off_reg, +r7) with bpf_dynptr_read; on
 * success pkt.@len_off = r7 (r7 = bytes, already bounded by the caller)
 */
static void emit_cache_read(struct codegen_prog *p, int16_t dst, int off_reg,
			    int16_t len_off, uint32_t l_skip)
{
	/* r0 = bpf_dynptr_read(st + dst, r7, &dynptr, off, 0) */
	if (off_reg != R4)
		codegen_emit(p, INSN_MOV64_REG(R4, off_reg));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, dst));
	codegen_emit(p, INSN_MOV64_REG(R2, R7));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, DYNPTR_FP));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	/* if r0 != 0 goto skip; pkt.len_off = r7 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_skip);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R7, len_off));
}

/*
 * the packet byte cache: first min(len, PKT_NHC) bytes of the network
 * header; with a transport header (first fragment), its first
 * min(len - thoff, PKT_THC) bytes. A payload load inside what was cached
 * reads it; one beyond goes to the packet (short packets included), so
 * the cache changes no result. r7 is free after the prologue.
 */
static void emit_cache(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_nh = codegen_label_new(p), l_th = codegen_label_new(p);
	uint32_t l_thlen = codegen_label_new(p), l_end = codegen_label_new(p);

	/* r7 = min(view length, PKT_NHC); nhc = packet[0, r7) */
	codegen_emit_view_len(p, env, R7, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R7, PKT_NHC, 0), l_nh);
	codegen_emit(p, INSN_MOV64_IMM(R7, PKT_NHC));
	codegen_label_bind(p, l_nh);
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	emit_cache_read(p, ST_NHC_OFF, R4, PKT_OFF(nhc_len), l_th);
	codegen_label_bind(p, l_th);
	/* no transport header, or a later fragment: no th cache */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_end);
	/* r8 = thoff; if len <= thoff goto end; r7 = min(len - thoff, PKT_THC) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R8, R6, PKT_OFF(thoff)));
	codegen_emit_view_len(p, env, R7, R1);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R7, R8, 0), l_end);
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R7, R8));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R7, PKT_THC, 0), l_thlen);
	codegen_emit(p, INSN_MOV64_IMM(R7, PKT_THC));
	codegen_label_bind(p, l_thlen);
	/* thc = packet[thoff, thoff + r7) */
	emit_cache_read(p, ST_THC_OFF, R8, PKT_OFF(thc_len), l_end);
	codegen_label_bind(p, l_end);
}

/* pkt.view_off (tc) from @dst: @dst -= view_off (r6 = st; @tmp clobbered) */
static void emit_sub_view(struct codegen_prog *p, int dst, int tmp)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_H, tmp, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, dst, tmp));
}

#define ETH_P_IP_BE	0x0008	/* htons(ETH_P_IP) as a u16 load sees it */
#define ETH_P_IPV6_BE	0xdd86	/* htons(ETH_P_IPV6) */
#define NF_NETDEV_PF	5	/* NFPROTO_NETDEV */
#define NF_ARP_PF	3	/* NFPROTO_ARP */
#define NF_BRIDGE_PF	7	/* NFPROTO_BRIDGE */
#define BR_SCR(off)	((int16_t)(ST_OFF(pktc) + (off)))
#define RING_OFF(f)	((int16_t)offsetof(struct codegen_ring, f))

/*
 * tc: pkttype of a PACKET_LOOPBACK packet as nft_meta_get_eval() with
 * NFPROTO_NETDEV: by skb->protocol, IPv4 multicast or broadcast by the
 * daddr (the cache holds it if the header is there), IPv6 multicast,
 * anything else not readable (no PKT_PKTTYPE). After the cache.
 */
static void emit_pkttype_tc(struct codegen_prog *p)
{
	uint32_t l_set = codegen_label_new(p), l_none = codegen_label_new(p);
	uint32_t l_store = codegen_label_new(p), l_v4 = codegen_label_new(p);

	/* if pkttype != LOOPBACK goto set */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(pkttype)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, PACKET_LOOPBACK, 0), l_set);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_MULTICAST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ETH_P_IPV6_BE, 0), l_store);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ETH_P_IP_BE, 0), l_v4);
	codegen_emit_jmp(p, INSN_JA(0), l_none);
	/* ipv4: no 20 header bytes: unreadable; multicast iff daddr in 224/4 */
	codegen_label_bind(p, l_v4);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 20, 0), l_none);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_NHC_OFF + 16));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xf0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xe0, 0), l_store);
	codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_BROADCAST));
	codegen_label_bind(p, l_store);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, PKT_OFF(pkttype)));
	codegen_label_bind(p, l_set);
	emit_set_flag(p, PKT_PKTTYPE);
	codegen_label_bind(p, l_none);
}

/*
 * (loop callback) tc: the head's HEAD_PF_* is in r1: netdev chains see
 * every packet as NFPROTO_NETDEV; inet ingress chains IPv4/IPv6 only
 * (else @l_next), and drop a packet whose header is invalid; arp chains
 * the frames of PKT_ARP only (else @l_next), as NFPROTO_ARP. At egress
 * an arp chain runs where NF_ARP_OUT does, before dev_queue_xmit() set
 * the mac header (nft_payload's @ll loads break there): no PKT_LL for it,
 * which the netdev chains after it have again.
 */
/*
 * (loop callback) pkt's input device = r9, a kernel address read by probe
 * reads (0: none: iif 0, name ""); r1-r5 clobbered. meta iiftype stays
 * skb->dev's type (nft_meta reads skb->dev for it: measured, a bridge
 * output chain has no input device and matches iiftype ether).
 */
static void emit_in_dev(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_none = codegen_label_new(p);

	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R9, PKT_OFF(in_dev)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, PKT_OFF(iif), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, PKT_OFF(iifname), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, PKT_OFF(iifname) + 8, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_none);
	codegen_emit_probe_read(p, PKT_OFF(iif), 4, R9, env->off.dev_ifindex);
	codegen_emit_probe_read(p, PKT_OFF(iifname), 16, R9, env->off.dev_name);
	codegen_label_bind(p, l_none);
}

/*
 * (loop callback) r0 = the ring: ring->br_hook = the NF_BR_* hook of the
 * bridge chain whose head this is (st->target = its HEAD_PF_BR_*), for
 * the log expression's NFLOG header; r4, r5 clobbered (r1-r3 are kept)
 */
static void emit_br_hook(struct codegen_prog *p)
{
	static const struct { uint8_t pf, hook; } map[] = {
		{ HEAD_PF_BR_PRE, 0 }, { HEAD_PF_BR_IN_PORT, 1 },
		{ HEAD_PF_BR_IN_BR, 1 }, { HEAD_PF_BR_FWD, 2 },
		{ HEAD_PF_BR_OUT, 3 },
	};
	uint32_t l_hook = codegen_label_new(p);
	unsigned int i;

	/* r5 = st->target; r4 = its hook (postrouting: 4) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R6, ST_OFF(target)));
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		codegen_emit(p, INSN_MOV64_IMM(R4, map[i].hook));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R5, map[i].pf, 0), l_hook);
	}
	codegen_emit(p, INSN_MOV64_IMM(R4, 4));
	codegen_label_bind(p, l_hook);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R0, R4, RING_OFF(br_hook)));
}

/*
 * (loop callback) a bridge chain's head (HEAD_PF_BR_*, r1; st->target
 * holds it too): the chain sees the packet only at its hook (the class
 * emit_bridge() left in the ring), else @l_next; as NFPROTO_BRIDGE, with
 * the hook's devices: prerouting and the link-local input hook at the
 * port's ingress: the port (tc's); input at the bridge device's ingress:
 * the port; forward at the output port's egress: the input port;
 * output, postrouting: none. At egress @len counts from the network
 * header as at the bridge's hooks (skb->data there), not from the mac
 * header as at tc egress. The tc view comes back for the chains after
 * (emit_head_tc_view()).
 */
static void emit_head_br(struct codegen_prog *p, const struct codegen_env *env,
			 uint32_t l_next)
{
	bool egress = env->ctx == CODEGEN_CTX_TC_EGRESS;
	uint32_t l_match = codegen_label_new(p), l_dev = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_view = codegen_label_new(p);

	/* r0 = ring; r2 = class; r3 = r2 & ~HOST */
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	emit_lookup(p, env->ring_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R0, RING_OFF(br_class)));
	codegen_emit(p, INSN_MOV64_REG(R3, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, (uint8_t)~BRC_HOST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(target)));
	/* postrouting: FWD or OUT; the others: class == pf - BASE */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, HEAD_PF_BR_POST, 0), l_match);
	codegen_emit(p, INSN_MOV64_IMM(R1, HEAD_PF_BR_OUT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, BRC_OUT, 0), l_match);
	codegen_emit(p, INSN_MOV64_IMM(R1, HEAD_PF_BR_FWD));
	codegen_label_bind(p, l_match);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, HEAD_PF_BR_BASE));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_next);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, PKT_OFF(nfproto), NF_BRIDGE_PF));
	emit_br_hook(p);
	/* r9 = the hook's input device */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R0, RING_OFF(br_in_dev)));
	if (!egress) {
		/* PACKET_HOST for the bridge's address (br_handle_frame()) */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, BRC_IN_BR, 0), l_dev);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, PKT_BRVIEW));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
		emit_in_dev(p, env);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_dev);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R2, BRC_HOST, 0), l_view);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_view);
		codegen_emit(p, INSN_ST_MEM(BPF_B, R6, PKT_OFF(pkttype), 0 /* PACKET_HOST */));
		emit_set_flag(p, PKT_PKTTYPE);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	} else {
		/* FWD: the input port; OUT, POST: none */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(target)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, HEAD_PF_BR_FWD, 0), l_dev);
		codegen_emit(p, INSN_MOV64_IMM(R9, 0));
		codegen_label_bind(p, l_dev);
		/* first bridge chain here: len -= view_off; PKT_BRVIEW */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, PKT_BRVIEW, 0), l_view);
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, PKT_BRVIEW));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
		emit_sub_view(p, R1, R2);
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(len)));
		codegen_label_bind(p, l_view);
		emit_in_dev(p, env);
	}
	codegen_label_bind(p, l_end);
}

/*
 * (loop callback) a chain of the tc hook itself after bridge chains that
 * changed the view (PKT_BRVIEW): ingress: the input device is skb->dev
 * again (ring->br_dev); egress: none, @len from the mac header. r1-r5, r9
 * clobbered.
 */
static void emit_head_tc_view(struct codegen_prog *p,
			      const struct codegen_env *env)
{
	bool egress = env->ctx == CODEGEN_CTX_TC_EGRESS;
	uint32_t l_end = codegen_label_new(p), l_nodev = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_end);
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, PKT_BRVIEW));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_end);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~PKT_BRVIEW));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	if (!egress) {
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		emit_lookup(p, env->ring_fd, R1);
		codegen_emit(p, INSN_MOV64_IMM(R9, 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_nodev);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R0, RING_OFF(br_dev)));
		codegen_label_bind(p, l_nodev);
		emit_in_dev(p, env);
	} else {
		codegen_emit(p, INSN_MOV64_IMM(R9, 0));
		emit_in_dev(p, env);
		/* len += view_off */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(len)));
	}
	codegen_label_bind(p, l_end);
}

static void emit_head_pf(struct codegen_prog *p, const struct codegen_env *env,
			 uint32_t l_next)
{
	uint32_t l_inet = codegen_label_new(p), l_pf = codegen_label_new(p);
	uint32_t l_ok = codegen_label_new(p), l_done = codegen_label_new(p);
	uint32_t l_arp = codegen_label_new(p), l_br = codegen_label_new(p);
	bool egress = env->ctx == CODEGEN_CTX_TC_EGRESS;

	/* st->target = pf (free between chains); a bridge chain: br; else
	 * the tc hook's own view back */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(target)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1, HEAD_PF_BR_BASE, 0), l_br);
	emit_head_tc_view(p, env);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(target)));

	/* if pf == HEAD_PF_ARP goto arp; if pf != HEAD_PF_INET: pkt.nfproto
	 * = NETDEV (egress: PKT_LL again if the mac header is set); done */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, HEAD_PF_ARP, 0), l_arp);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, HEAD_PF_INET, 0), l_inet);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, PKT_OFF(nfproto), NF_NETDEV_PF));
	if (egress) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(ll_addr)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
		emit_set_flag(p, PKT_LL);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	/* arp: not an ARP frame of the hook: next chain; pkt.nfproto = ARP */
	codegen_label_bind(p, l_arp);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, PKT_ARP));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_next);
	if (egress) {
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~PKT_LL));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	}
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, PKT_OFF(nfproto), NF_ARP_PF));
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	codegen_label_bind(p, l_inet);
	/* r2 = NFPROTO_IPV4/IPV6 by skb->protocol; anything else: next chain */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit(p, INSN_MOV64_IMM(R2, NFPROTO_IPV4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ETH_P_IP_BE, 0), l_pf);
	codegen_emit(p, INSN_MOV64_IMM(R2, NFPROTO_IPV6));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ETH_P_IPV6_BE, 0), l_pf);
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_pf);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, PKT_OFF(nfproto)));
	/* if pkt.flags & L3BAD: the packet is dropped (final = NF_DROP; stop) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L3BAD));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_ok);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(final), VERDICT_DROP));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
	codegen_label_bind(p, l_br);
	emit_head_br(p, env, l_next);
	codegen_label_bind(p, l_ok);
	codegen_label_bind(p, l_done);
}

/*
 * tc, part 1 of PKT_ARP (r7 = the kernel sk_buff; r1-r5 clobbered): is
 * this a frame the kernel's arp hooks run for?
 * - ingress, arp_rcv() (the ETH_P_ARP packet_type handler, after tc and
 *   netdev ingress): skb->protocol ARP; not PACKET_OTHERHOST or
 *   PACKET_LOOPBACK; not on an IFF_NOARP device; no VLAN tag with a VLAN
 *   id (__netif_receive_skb_core() hands those to the VLAN device, whose
 *   own tc ingress sees them untagged, or marks them PACKET_OTHERHOST);
 *   no rx_handler on the device (bridge ports, bond/team slaves, macvlan/
 *   ipvlan lowers: the handler takes the frame to the upper device, whose
 *   tc ingress sees it; see README "arp family" for what differs).
 *   arp_hdr_len(dev) (8 + 2 * (addr_len + 4), IEEE1394: 8 + addr_len + 8)
 *   and addr_len go to st->scratch for part 2 (emit_arp_hdr()).
 * - egress, arp_xmit() (NF_ARP_OUT, before dev_queue_xmit()): skb->protocol
 *   ARP, built by the kernel: no socket (packet sockets own what they
 *   send: skb->sk), not received on a device before (skb_iif 0: bridged or
 *   redirected frames), no VLAN tag (an upper VLAN device's frame), on a
 *   device that does ARP.
 */
#define ETH_P_ARP_BE	0x0608	/* htons(ETH_P_ARP) */
#define PACKET_OTHERHOST_	3
#define IFF_NOARP_	0x80
#define ARPHRD_IEEE1394_	24
#define ARP_SCR_ADDRLEN	ST_OFF(scratch)
#define ARP_SCR_HDRLEN	((int16_t)(ST_OFF(scratch) + 2))
static void emit_arp(struct codegen_prog *p, const struct codegen_env *env)
{
	bool egress = env->ctx == CODEGEN_CTX_TC_EGRESS;
	uint32_t l_no = codegen_label_new(p), l_len = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ETH_P_ARP_BE, 0), l_no);
	/* r1 = skb->vlan_all: egress: any tag; ingress: a tag with an id */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, env->off.skb_vlan_all));
	if (!egress) {
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 16));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfff));
	}
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_no);
	if (egress) {
		/* r2 = ctx; if ctx->sk != NULL || ctx->ingress_ifindex: no */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, ST_FP(CTX_FROM_ST)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R2,
					     offsetof(struct __sk_buff, sk)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_no);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, ST_FP(CTX_FROM_ST)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2,
					     offsetof(struct __sk_buff, ingress_ifindex)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_no);
	} else {
		/* PACKET_OTHERHOST, PACKET_LOOPBACK: no */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(pkttype)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, PACKET_OTHERHOST_, 0), l_no);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, PACKET_LOOPBACK, 0), l_no);
	}
	/* r2 = skb->dev; none or IFF_NOARP: no */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, env->off.skb_dev));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, env->off.dev_flags));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IFF_NOARP_));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_no);
	if (!egress) {
		/* an rx_handler takes the frame elsewhere: no */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R2, env->off.dev_rx_handler));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_no);
		/* scratch: addr_len (u8), arp_hdr_len(dev) (u16) */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R2, env->off.dev_addr_len));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R3, ARP_SCR_ADDRLEN));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R2, env->off.dev_type));
		/* r4 = 8 + addr_len + 8; not IEEE1394: r4 += addr_len */
		codegen_emit(p, INSN_MOV64_REG(R4, R3));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 16));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ARPHRD_IEEE1394_, 0), l_len);
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R4, R3));
		codegen_label_bind(p, l_len);
		codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R4, ARP_SCR_HDRLEN));
	}
	emit_set_flag(p, PKT_ARP);
	codegen_label_bind(p, l_no);
}

/*
 * tc ingress, part 2 of PKT_ARP (after the cache; r1-r3 clobbered):
 * arp_rcv()'s header checks: pskb_may_pull(arp_hdr_len(dev)) (the view
 * holds that many bytes), ar_hln == dev->addr_len, ar_pln == 4
 */
static void emit_arp_hdr(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_end = codegen_label_new(p), l_no = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_ARP));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_end);
	/* the cache holds min(view, PKT_NHC) >= 8 bytes if the view does */
	codegen_emit_view_len(p, env, R3, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ARP_SCR_HDRLEN));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R3, R1, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 8, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_NHC_OFF + 4));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, ARP_SCR_ADDRLEN));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_NHC_OFF + 5));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 4, 0), l_end);
	codegen_label_bind(p, l_no);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~PKT_ARP));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	codegen_label_bind(p, l_end);
}

/*
 * tc: the bridge family. Which bridge hook is this packet at, if any
 * (codegen_ring.br_class, BRC_*), with what the later programs on its way
 * need in the per-CPU ring (see struct codegen_ring). Before the dynptr:
 * st->pktc is scratch here; r7 = the kernel sk_buff; r1-r5, r8, r9
 * clobbered.
 * - ingress of a bridge port (IFF_BRIDGE_PORT), as br_handle_frame():
 *   not PACKET_LOOPBACK, a valid source address; a link-local destination
 *   01:80:c2:00:00:0X goes on to prerouting only if forwarded (00: STP
 *   off or in the port's group_fwd_mask | the bridge's _required; 01:
 *   never; 0E and the rest: also the bridge's group_fwd_mask), else 00,
 *   01, 0E see no hook, the rest the input hook with the port as input
 *   (BRC_IN_PORT); prerouting (BRC_PRE) if MST is on or the port is
 *   learning or forwarding, PACKET_HOST if the destination is the
 *   bridge's address (BRC_HOST). The port, its bridge device and ifindex
 *   go to the ring.
 * - ingress of a bridge device (IFF_EBRIDGE): br_pass_frame_up() ran the
 *   input hook (BRC_IN_BR) with the port the ring holds for this bridge
 *   (0 if it holds another bridge's), unless PACKET_LOOPBACK (a copy of
 *   the host's own broadcast or multicast, dev_loopback_xmit()).
 * - egress of a bridge port: forwarded (BRC_FWD) if received on the port
 *   the ring holds (skb_iif) of this port's bridge; sent by the bridge
 *   device (BRC_OUT) if skb->head is that of the bridge device's last
 *   frame; else a frame sent on the port itself (packet socket, the
 *   port's own stack), which no bridge hook sees. Neither is arp_xmit()'s.
 * - egress of a bridge device: its skb->head goes to the ring.
 */
#define IFF_EBRIDGE_		0x2
#define IFF_BRIDGE_PORT_	0x200
#define BR_STATE_LEARNING_	2
#define BR_STATE_FORWARDING_	3
#define BROPT_MST_ENABLED_	16
/* @reg = *(u64 *)(@reg + @off) by a probe read (through scr[24], not
 * st->scratch, which holds emit_arp()'s lengths); 0 goes to @l_null */
static void emit_br_deref(struct codegen_prog *p, int reg, int16_t off,
			  uint32_t l_null)
{
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(24), 0));
	codegen_emit_probe_read(p, BR_SCR(24), 8, reg, off);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, reg, R6, BR_SCR(24)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, reg, 0, 0), l_null);
}

static void emit_bridge(struct codegen_prog *p, const struct codegen_env *env)
{
	bool egress = env->ctx == CODEGEN_CTX_TC_EGRESS;
	uint32_t l_done = codegen_label_new(p), l_master = codegen_label_new(p);
	uint32_t l_set = codegen_label_new(p), l_fwd = codegen_label_new(p);
	uint32_t l_pre = codegen_label_new(p), l_host = codegen_label_new(p);
	uint32_t l_none = codegen_label_new(p);
	uint32_t l_ll = codegen_label_new(p);

	if (env->off.br_dev < 0)
		return;
	/* r8 = ring; ring->br_class = NONE; ring->br_dev = r9 = skb->dev */
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	emit_lookup(p, env->ring_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_done);
	codegen_emit(p, INSN_MOV64_REG(R8, R0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R8, RING_OFF(br_class), BRC_NONE));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R7, env->off.skb_dev));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R9, RING_OFF(br_dev)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_done);
	/* scr[0] = dev->priv_flags */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(0), 0));
	codegen_emit_probe_read(p, BR_SCR(0), 4, R9, env->off.dev_priv_flags);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, BR_SCR(0)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, IFF_EBRIDGE_, 0), l_master);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IFF_BRIDGE_PORT_));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
	/* a port: r9 = dev->rx_handler_data (struct net_bridge_port) */
	emit_br_deref(p, R9, env->off.dev_rx_handler_data, l_done);
	/* scr[32] = port->state, scr[34] = port->group_fwd_mask */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(32), 0));
	codegen_emit_probe_read(p, BR_SCR(32), 1, R9, env->off.nbp_state);
	codegen_emit_probe_read(p, BR_SCR(34), 2, R9, env->off.nbp_gfm);
	/* r9 = port->br; scr[40] = br->dev, scr[48] = br->options, scr[36]
	 * = group_fwd_mask, scr[38] = group_fwd_mask_required, scr[56] =
	 * stp_enabled */
	emit_br_deref(p, R9, env->off.nbp_br, l_done);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(40), 0));
	codegen_emit_probe_read(p, BR_SCR(40), 8, R9, env->off.br_dev);
	if (egress) {
		uint32_t l_notfwd = codegen_label_new(p);

		/* r1 = br->dev; r2 = ctx->ingress_ifindex */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, BR_SCR(40)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, ST_FP(CTX_FROM_ST)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R2,
					     offsetof(struct __sk_buff, ingress_ifindex)));
		/* forwarded: skb_iif is the ring's port, of this bridge */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_notfwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R8, RING_OFF(br_rx_ifindex)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R2, R3, 0), l_notfwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, RING_OFF(br_rx_br)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_notfwd);
		/* ring->br_in_dev = ring->br_rx_dev; class FWD */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, RING_OFF(br_rx_dev)));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R3, RING_OFF(br_in_dev)));
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_FWD));
		codegen_emit_jmp(p, INSN_JA(0), l_set);
		/* sent by the bridge device: its last frame's head */
		codegen_label_bind(p, l_notfwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, RING_OFF(br_tx_br)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_done);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, env->off.skb_head));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, RING_OFF(br_tx_head)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R2, R3, 0), l_done);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R8, RING_OFF(br_in_dev), 0));
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_OUT));
		codegen_emit_jmp(p, INSN_JA(0), l_set);
	} else {
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(48), 0));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(56), 0));
		codegen_emit_probe_read(p, BR_SCR(48), 8, R9, env->off.br_options);
		codegen_emit_probe_read(p, BR_SCR(56), 4, R9, env->off.br_stp_enabled);
		codegen_emit_probe_read(p, BR_SCR(36), 2, R9, env->off.br_gfm);
		codegen_emit_probe_read(p, BR_SCR(38), 2, R9, env->off.br_gfm_req);
		/* scr[16..22) = br->dev->dev_addr[0..6) (zero if none) */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(16), 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, BR_SCR(40)));
		emit_br_deref(p, R9, env->off.dev_dev_addr, l_ll);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(16), 0));
		codegen_emit_probe_read(p, BR_SCR(16), 6, R9, 0);
		codegen_label_bind(p, l_ll);
		/* PACKET_LOOPBACK: RX_HANDLER_PASS, no hook */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(pkttype)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, PACKET_LOOPBACK, 0), l_done);
		/* scr[0..12) = ethernet destination, source (no mac header:
		 * no hook) */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(ll_addr)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_done);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(0), 0));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, BR_SCR(8), 0));
		codegen_emit_probe_read(p, BR_SCR(0), 12, R9, 0);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_done);
		/* source multicast or zero: dropped before any hook */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, BR_SCR(6)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_done);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, BR_SCR(6)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, BR_SCR(8)));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, BR_SCR(10)));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
		/* link-local 01:80:c2:00:00:0X? r3 = X */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, BR_SCR(0)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0x00c28001, 0), l_fwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, BR_SCR(4)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_fwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, BR_SCR(5)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R3, 0xf, 0), l_fwd);
		/* r4 = br group_fwd_mask_required | port group_fwd_mask */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R4, R6, BR_SCR(38)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, BR_SCR(34)));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R4, R1));
		{
			uint32_t l_not0 = codegen_label_new(p);

			/* 00: forwarded if STP is off or the mask says so */
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 0, 0), l_not0);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, BR_SCR(56)));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_fwd);
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R4, 1, 0), l_fwd);
			codegen_emit_jmp(p, INSN_JA(0), l_done);
			codegen_label_bind(p, l_not0);
		}
		/* 01: dropped; the others: | br group_fwd_mask */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 1, 0), l_done);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, BR_SCR(36)));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R4, R1));
		/* if r4 & (1 << X) goto fwd */
		codegen_emit(p, INSN_ALU64_REG(BPF_RSH, R4, R3));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R4, 1, 0), l_fwd);
		/* 0E: the stack's (no hook); else the input hook */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0xe, 0), l_done);
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_IN_PORT));
		codegen_emit_jmp(p, INSN_JA(0), l_set);
		/* forward: MST on, or learning/forwarding: prerouting */
		codegen_label_bind(p, l_fwd);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, BR_SCR(48)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, BROPT_MST_ENABLED_));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_pre);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, BR_SCR(32)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, BR_STATE_FORWARDING_, 0), l_pre);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, BR_STATE_LEARNING_, 0), l_pre);
		codegen_emit_jmp(p, INSN_JA(0), l_done);
		codegen_label_bind(p, l_pre);
		/* r4 = PRE (| HOST if destination == the bridge's address) */
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_PRE));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, BR_SCR(0)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, BR_SCR(16)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_host);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, BR_SCR(4)));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, BR_SCR(20)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_host);
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_PRE | BRC_HOST));
		codegen_label_bind(p, l_host);
		/* ring: this port, its bridge device, its ifindex */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, env->off.skb_dev));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R1, RING_OFF(br_rx_dev)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, env->off.dev_ifindex));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R8, R2, RING_OFF(br_rx_ifindex)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, BR_SCR(40)));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R2, RING_OFF(br_rx_br)));
		codegen_emit_jmp(p, INSN_JA(0), l_set);
	}
	/* a bridge device */
	codegen_label_bind(p, l_master);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, env->off.skb_dev));
	if (egress) {
		/* ring: this bridge device and its frame's head */
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R1, RING_OFF(br_tx_br)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, env->off.skb_head));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R2, RING_OFF(br_tx_head)));
		codegen_emit_jmp(p, INSN_JA(0), l_done);
	} else {
		/* a looped back frame (dev_loopback_xmit()) did not come up
		 * through the bridge: no hook */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(pkttype)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, PACKET_LOOPBACK, 0), l_done);
		/* in = the ring's port if it is of this bridge, else none */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, RING_OFF(br_rx_br)));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, RING_OFF(br_rx_dev)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_none);
		codegen_emit(p, INSN_MOV64_IMM(R3, 0));
		codegen_label_bind(p, l_none);
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R8, R3, RING_OFF(br_in_dev)));
		codegen_emit(p, INSN_MOV64_IMM(R4, BRC_IN_BR));
	}
	/* ring->br_class = r4; egress: not arp_xmit()'s frame */
	codegen_label_bind(p, l_set);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R8, R4, RING_OFF(br_class)));
	if (egress) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~PKT_ARP));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	}
	codegen_label_bind(p, l_done);
}

/*
 * st->slot = this program's hook point's heads map slot, from the newest
 * ring entry with this ctx; none (overwritten) goes to @l_lost
 */
static void emit_find_slot(struct codegen_prog *p, const struct codegen_env *env,
			   uint32_t l_lost)
{
	uint32_t l_found = codegen_label_new(p), j;

	/* r0 = ring; r2 = ring->next; r3 = ctx */
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	emit_lookup(p, env->ring_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_lost);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R0, offsetof(struct codegen_ring, next)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R10, ST_FP(CTX_FROM_ST)));
	/* newest first: r4 = &ent[(next - j) % RING_N]; if r4->ctx == ctx
	 * goto found */
	for (j = 1; j <= RING_N; j++) {
		codegen_emit(p, INSN_MOV64_REG(R4, R2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R4, j));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R4, RING_N - 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R4, 4));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R4, R0));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R4,
					     offsetof(struct codegen_ring, ent)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R5, R3, 0), l_found);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_lost);
	codegen_label_bind(p, l_found);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R4,
				     offsetof(struct codegen_ring, ent) + 8));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, ST_OFF(slot)));
}

/* r8 = gen & 1 (the generation word; 0 if it cannot be read); r1 clobbered */
static void emit_gen(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_gen = codegen_label_new(p);

	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	emit_lookup(p, env->gen_fd, R1);
	codegen_emit(p, INSN_MOV64_IMM(R8, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_gen);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R8, R0, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R8, 1));
	codegen_label_bind(p, l_gen);
}

/* r0 = &this CPU's in-flight counter of generation parity @g_reg; none:
 * @l_none */
static void emit_inflight(struct codegen_prog *p, const struct codegen_env *env,
			  int g_reg, uint32_t l_none)
{
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	emit_lookup(p, env->inflight_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_none);
	codegen_emit(p, INSN_MOV64_REG(R1, g_reg));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R0, R1));
}

/*
 * r8 = the packet's generation parity, counted in flight: read the word,
 * count the packet in that parity's per-CPU counter (an atomic with fetch:
 * a full barrier), read the word again; if it flipped in between, uncount
 * and start over (a few times, then fail closed at @l_drop). nfbpfd flips
 * the word, then waits for the other parity's counters to reach zero
 * before the next prepare writes what that generation reads (the SRCU
 * scheme): a packet it did not see counted has seen the new word.
 * emit_leave() uncounts. Uses r7 (r9, the ctx, is kept).
 */
#define ENTER_TRIES	4
static void emit_enter(struct codegen_prog *p, const struct codegen_env *env,
		       uint32_t l_drop)
{
	uint32_t l_in = codegen_label_new(p), i;

	for (i = 0; i < ENTER_TRIES; i++) {
		emit_gen(p, env);
		/* r7 = &inflight[r8]; atomic r7 += 1 */
		emit_inflight(p, env, R8, l_drop);
		codegen_emit(p, INSN_MOV64_REG(R7, R0));
		codegen_emit(p, INSN_MOV64_IMM(R1, 1));
		codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R7, R1, 0));
		/* if gen & 1 == r8 goto in (st->genbit: scratch here) */
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R8, ST_OFF(genbit)));
		emit_gen(p, env);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R8, R1, 0), l_in);
		/* flipped: atomic r7 -= 1, again */
		codegen_emit(p, INSN_MOV64_IMM(R1, -1));
		codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R7, R1, 0));
	}
	codegen_emit_jmp(p, INSN_JA(0), l_drop);
	codegen_label_bind(p, l_in);
}

/* return r9, the packet uncounted (emit_enter(); r6 = st) */
static void emit_leave(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_out = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_W, R7, R6, ST_OFF(genbit)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R7, 1));
	emit_inflight(p, env, R7, l_out);
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_label_bind(p, l_out);
	codegen_emit(p, INSN_MOV64_REG(R0, R9));
	codegen_emit(p, INSN_EXIT());
}

#define RCT(f)	((int16_t)offsetof(struct codegen_reject_ct, f))

static void emit_reject_ct_take(struct codegen_prog *p,
				const struct codegen_env *env);

/* r0 = the reject_ct map's value (key 0 at st->scratch + 8); none: @l_skip */
static void emit_reject_ct_lookup(struct codegen_prog *p,
				  const struct codegen_env *env, uint32_t l_skip)
{
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(scratch) + 8, 0));
	codegen_emit_ld_map(p, R1, env->reject_ct_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(scratch) + 8));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_skip);
}

/*
 * nfbpfd's own reply (skb->sk has the cookie of one of its reply sockets)
 * while it sends one with a conntrack: pkt.nfct = the copy of the
 * rejected packet's nf_conn | IP_CT_RELATED(_REPLY), as nf_ct_attach()
 * gives the kernel's (struct codegen_reject_ct). r7 = skb; r0-r5 and
 * st->scratch clobbered.
 */
static void emit_reject_ct(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_skip = codegen_label_new(p), l_hit = codegen_label_new(p);
	int i;

	/* r1 = skb->sk; if !r1 goto skip; scratch = sk->skc_cookie */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, env->off.skb_sk));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R1, env->off.sk_cookie));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, ST_OFF(scratch)));
	/* r0 = lookup(reject_ct, &0); if !r0 || !r0->active goto skip */
	emit_reject_ct_lookup(p, env, l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, RCT(active)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_skip);
	/* if the cookie is one of r0->cookie[] goto hit */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
	for (i = 0; i < 4; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R0, RCT(cookie) + 8 * i));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_hit);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_skip);
	codegen_label_bind(p, l_hit);
	emit_reject_ct_take(p, env);
	codegen_label_bind(p, l_skip);
}

/*
 * r0 = the struct codegen_reject_ct of a packet found to be nfbpfd's
 * reply: pkt.nfct = &r0->conn | r0->ctinfo (r1, r2 clobbered)
 */
static void emit_reject_ct_take(struct codegen_prog *p,
				const struct codegen_env *env)
{
	uint32_t l_noext = codegen_label_new(p);

	/* r0->conn.ext = r0->has_ext ? &r0->ext : 0 */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R0, RCT(conn) + env->off.ct_ext, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, RCT(has_ext)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_noext);
	codegen_emit(p, INSN_MOV64_REG(R2, R0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, RCT(ext)));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R2, RCT(conn) + env->off.ct_ext));
	codegen_label_bind(p, l_noext);
	/* r0->nfct = &r0->conn; pkt.nfct = r0->nfct | r0->ctinfo */
	codegen_emit(p, INSN_MOV64_REG(R2, R0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, RCT(conn)));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R2, RCT(nfct)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R0, RCT(nfct)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, RCT(ctinfo)));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R2, R1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R2, PKT_OFF(nfct)));
}

#define LOOPBACK_IFINDEX_	1

/*
 * nfbpfd's reply to the host itself, back in over lo (prerouting, input):
 * iif lo, r0->lo_pf, the destination and the transport bytes as nfbpfd
 * last sent them (struct codegen_reject_ct, from the packet byte cache).
 * After emit_cache(); r0-r5 clobbered.
 */
static void emit_reject_ct_lo(struct codegen_prog *p,
			      const struct codegen_env *env)
{
	uint32_t l_skip = codegen_label_new(p), l_v6 = codegen_label_new(p);
	uint32_t l_l4 = codegen_label_new(p);
	int i;

	/* if pkt.iif != lo || pkt.thc_len < 16 goto skip */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(iif)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, LOOPBACK_IFINDEX_, 0), l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(thc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 16, 0), l_skip);
	/* r0 = lookup(reject_ct, &0); if !r0 goto skip */
	emit_reject_ct_lookup(p, env, l_skip);
	/* if r0->lo_pf != pkt.nfproto goto skip */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, RCT(lo_pf)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 10, 0), l_v6);
	/* IPv4: daddr at 16 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R3, 20, 0), l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_NHC_OFF + 16));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0, RCT(lo_dst)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_skip);
	codegen_emit_jmp(p, INSN_JA(0), l_l4);
	/* IPv6: daddr at 24 */
	codegen_label_bind(p, l_v6);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R3, 40, 0), l_skip);
	for (i = 0; i < 4; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_NHC_OFF + 24 + 4 * i));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0, RCT(lo_dst) + 4 * i));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_skip);
	}
	/* transport bytes 0-1 and 4-15 */
	codegen_label_bind(p, l_l4);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_THC_OFF));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R0, RCT(lo_l4)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_skip);
	for (i = 1; i < 4; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_THC_OFF + 4 * i));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0, RCT(lo_l4) + 4 * i));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_skip);
	}
	emit_reject_ct_take(p, env);
	codegen_label_bind(p, l_skip);
}

/* main function: state, generation, packet info, bpf_loop, verdict */
static void emit_main(struct codegen_prog *p, const struct codegen_env *env,
		      uint32_t l_cb)
{
	bool tc = env->ctx != CODEGEN_CTX_NF;
	uint32_t l_out = codegen_label_new(p), l_v6 = codegen_label_new(p);
	uint32_t l_pkttype = codegen_label_new(p), l_bad = codegen_label_new(p);
	uint32_t l_gen = codegen_label_new(p), l_lost = codegen_label_new(p);
	uint32_t l_ret = codegen_label_new(p);
	uint32_t l_noll = codegen_label_new(p), l_lo = codegen_label_new(p);
	int off;

	codegen_func_begin(p, codegen_label_new(p));
	/* r9 = ctx, saved after st; r6 = st; zero st */
	codegen_emit(p, INSN_MOV64_REG(R9, R1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, ST_FP(CTX_FROM_ST)));
	codegen_emit(p, INSN_MOV64_REG(R6, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R6, ST_FP(0)));
	for (off = 0; off < ST_SIZE; off += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, ST_FP(off), 0));

	/* 0. generation: r8 = gen & 1, counted in flight (see emit_enter());
	 * st->genbit = 1 << r8 */
	emit_enter(p, env, l_gen);
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ALU64_REG(BPF_LSH, R1, R8));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(genbit)));
	/* 2. packet info: r7 = skb (netfilter: ctx->skb, r8 = ctx->state;
	 * tc: bpf_cast_to_kern_ctx(ctx)), BTF loads */
	if (tc) {
		codegen_emit(p, INSN_MOV64_REG(R1, R9));
		codegen_emit(p, INSN_CALL_KFUNC(env->kf_cast_to_kern_ctx));
		codegen_emit(p, INSN_MOV64_REG(R7, R0));
		/* view_off = network_header - (data - head): the view starts
		 * at the network header, as skb->data at netfilter hooks */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, env->off.skb_network_header));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, env->off.skb_head));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R7, env->off.skb_data));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R3));
		codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, PKT_OFF(view_off)));
	} else {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R7, R9, env->off.ctx_skb));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R8, R9, env->off.ctx_state));
	}
	/* read-only copies (bpf_rdonly_cast(), inlined to a move): loads
	 * through them are checked without the verifier's search for
	 * trusted field types, which scans all of vmlinux BTF per pointer
	 * field loaded; nothing writes through r7/r8 or passes them on */
	if (env->kf_rdonly_cast) {
		codegen_emit(p, INSN_MOV64_REG(R1, R7));
		codegen_emit(p, INSN_MOV64_IMM(R2, env->btf_skb));
		codegen_emit(p, INSN_CALL_KFUNC(env->kf_rdonly_cast));
		codegen_emit(p, INSN_MOV64_REG(R7, R0));
		if (!tc) {
			codegen_emit(p, INSN_MOV64_REG(R1, R8));
			codegen_emit(p, INSN_MOV64_IMM(R2, env->btf_hook_state));
			codegen_emit(p, INSN_CALL_KFUNC(env->kf_rdonly_cast));
			codegen_emit(p, INSN_MOV64_REG(R8, R0));
		}
	}
	/* pkt.len = skb->len; tc ingress: from the network header (tc
	 * pushed the mac header back, netfilter's ingress hook sees it pulled) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, env->off.skb_len));
	if (env->ctx == CODEGEN_CTX_TC_INGRESS)
		emit_sub_view(p, R1, R2);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(len)));
	/* pkt.headlen = skb->len - skb->data_len (skb_headlen), in the view */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, env->off.skb_len));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, env->off.skb_data_len));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R2));
	if (tc)
		emit_sub_view(p, R1, R2);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(headlen)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, env->off.skb_mark));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(mark)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, env->off.skb_priority));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(priority)));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, env->off.skb_protocol));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, PKT_OFF(protocol)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, env->off.skb_nfct));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, PKT_OFF(nfct)));
	if (!tc && env->reject_ct_fd >= 0 && env->off.skb_sk >= 0 &&
	    env->off.sk_cookie >= 0 && env->off.ct_size > 0)
		emit_reject_ct(p, env);
	/* addresses for the probe-read keys: skb, the netns (netfilter:
	 * state->net; tc: dev_net(skb->dev)) */
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R7, PKT_OFF(skb_addr)));
	if (tc) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, env->off.skb_dev));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R1, env->off.dev_net));
	} else {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R8, env->off.st_net));
	}
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, PKT_OFF(net_addr)));
	/* nfproto: the hook state's; tc: per chain (emit_head_pf) */
	if (!tc) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R8, env->off.st_pf));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(nfproto)));
	}
	/* pkt_type (bitfield) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7, env->off.skb_pkt_type));
	if (env->off.pkt_type_shift)
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, env->off.pkt_type_shift));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, env->off.pkt_type_mask));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(pkttype)));
	/* mac header: set (!= 0xffff) and non-empty (!= network header) */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, env->off.skb_mac_header));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0xffff, 0), l_noll);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, env->off.skb_network_header));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_noll);
	/* ll_addr = head + mac; ll_off = mac - (data - head) (- view_off) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, env->off.skb_head));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R7, env->off.skb_data));
	codegen_emit(p, INSN_MOV64_REG(R4, R2));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R4, R1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R4, PKT_OFF(ll_addr)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R2));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R3));
	if (tc)
		emit_sub_view(p, R1, R2);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, PKT_OFF(ll_off)));
	emit_set_flag(p, PKT_LL);
	codegen_label_bind(p, l_noll);
	/* devices: the hook state's; tc ingress: in = skb->dev, egress:
	 * out = skb->dev (nf_hook_ingress(), nf_hook_egress()) */
	if (tc && env->ctx == CODEGEN_CTX_TC_INGRESS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R7, env->off.skb_dev));
		emit_dev(p, env, R9, PKT_HAS_IN, PKT_OFF(iif), PKT_OFF(iifname),
			 PKT_OFF(iiftype), PKT_OFF(in_dev));
	} else if (tc) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R7, env->off.skb_dev));
		emit_dev(p, env, R9, PKT_HAS_OUT, PKT_OFF(oif), PKT_OFF(oifname),
			 PKT_OFF(oiftype), PKT_OFF(out_dev));
	} else {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R8, env->off.st_in));
		emit_dev(p, env, R9, PKT_HAS_IN, PKT_OFF(iif), PKT_OFF(iifname),
			 PKT_OFF(iiftype), PKT_OFF(in_dev));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R8, env->off.st_out));
		emit_dev(p, env, R9, PKT_HAS_OUT, PKT_OFF(oif), PKT_OFF(oifname),
			 PKT_OFF(oiftype), PKT_OFF(out_dev));
	}
	if (tc) {
		emit_arp(p, env);
		emit_bridge(p, env);
	}
	/* meta iiftype (key 8) is skb->dev's type since 5.16 (nft_meta
	 * NFT_META_IFTYPE), not the input device's: at output and
	 * postrouting the device the packet leaves by; NULL (netfilter
	 * hooks only): break */
	{
		uint32_t l_nodev = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R7, env->off.skb_dev));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_nodev);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R9, env->off.dev_type));
		codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, PKT_OFF(iiftype)));
		if (!tc)
			emit_set_flag(p, PKT_HAS_DEV);
		codegen_label_bind(p, l_nodev);
	}
	/* the packet view as a dynptr (ctx from its slot) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, ST_FP(CTX_FROM_ST)));
	codegen_emit_dynptr(p, env, R2, DYNPTR_FP);

	/* 3. network/transport header by family (tc: by skb->protocol, with
	 * validation); r9 = v4 daddr byte 0 */
	codegen_emit(p, INSN_MOV64_IMM(R9, 0));
	if (tc) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, ETH_P_IPV6_BE, 0), l_v6);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ETH_P_IP_BE, 0), l_out);
		emit_ipv4(p, env, l_bad);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_v6);
		emit_ipv6(p, env, l_bad);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_bad);
		emit_set_flag(p, PKT_L3BAD);
		codegen_label_bind(p, l_out);
	} else {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NFPROTO_IPV6, 0), l_v6);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, NFPROTO_IPV4, 0), l_out);
		emit_ipv4(p, env, l_out);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_v6);
		emit_ipv6(p, env, l_out);
		codegen_label_bind(p, l_out);

		/* 4. pkttype: PACKET_LOOPBACK -> multicast/broadcast as nft_meta */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(pkttype)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, PACKET_LOOPBACK, 0), l_pkttype);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
		codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_MULTICAST));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NFPROTO_IPV6, 0), l_lo);
		/* ipv4: multicast iff daddr in 224/4 */
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, 0xf0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0xe0, 0), l_lo);
		codegen_emit(p, INSN_MOV64_IMM(R2, PACKET_BROADCAST));
		codegen_label_bind(p, l_lo);
		codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, PKT_OFF(pkttype)));
		codegen_label_bind(p, l_pkttype);
		emit_set_flag(p, PKT_PKTTYPE);
	}

	/* 5. packet byte cache (the prologue's slices are done with pktc) */
	emit_cache(p, env);
	if (!tc && env->reject_ct_fd >= 0 && env->off.ct_size > 0)
		emit_reject_ct_lo(p, env);
	if (tc)
		emit_pkttype_tc(p);
	if (env->ctx == CODEGEN_CTX_TC_INGRESS)
		emit_arp_hdr(p, env);

	/* 6. the base chains at this hook point, one after the other in one
	 * bpf_loop (the callback moves on to the next when one accepts):
	 * start as if a chain before the first had accepted */
	emit_find_slot(p, env, l_lost);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, ST_OFF(hk), 0xff));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(cur), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(depth), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, ST_OFF(policy), VERDICT_ACCEPT));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(final), VERDICT_DROP));
	/* bpf_loop(WALK_MAX_STEPS, cb, st, 0) (runs out: st->final NF_DROP) */
	codegen_emit(p, INSN_MOV64_IMM(R1, WALK_MAX_STEPS));
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* tc: skb->mark, skb->priority = pkt's (meta set writes those) */
	if (tc) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, ST_FP(CTX_FROM_ST)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(mark)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2, offsetof(struct __sk_buff, mark)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(priority)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2,
					     offsetof(struct __sk_buff, priority)));
	}
	/* return NF_DROP if (st->final & 1) == NF_DROP, else NF_ACCEPT (tc:
	 * TCX_DROP, TCX_NEXT, and TCX_REDIRECT for NF_STOLEN: fwd) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(final)));
	if (tc) {
		codegen_emit(p, INSN_MOV64_IMM(R9, TCX_REDIRECT_));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, VERDICT_STOLEN, 0),
				 l_ret);
	}
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, VERDICT_DROP, 0), l_lost);
	codegen_emit(p, INSN_MOV64_IMM(R9, tc ? TCX_NEXT_ : VERDICT_ACCEPT));
	codegen_emit_jmp(p, INSN_JA(0), l_ret);
	/* dropped, or no ring entry (overwritten): fail closed */
	codegen_label_bind(p, l_lost);
	codegen_emit(p, INSN_MOV64_IMM(R9, tc ? TCX_DROP_ : VERDICT_DROP));
	codegen_label_bind(p, l_ret);
	emit_leave(p, env);
	/* not counted in flight (no generation): fail closed */
	codegen_label_bind(p, l_gen);
	codegen_emit(p, INSN_MOV64_IMM(R0, tc ? TCX_DROP_ : VERDICT_DROP));
	codegen_emit(p, INSN_EXIT());
}

/*
 * Shapes live in BPF functions of up to SHAPES_PER_FUNC shapes each (the
 * kernel allows 256 functions per program): func(st, entry) dispatches
 * on entry->shape inside.
 */
#define SHAPES_PER_FUNC	32

/*
 * go to the label of the shape whose id is in r1, among shapes[lo, hi)
 * (sorted by id): a binary search of compares, linear below 4
 */
static void emit_dispatch(struct codegen_prog *p,
			  struct codegen_shape *const *shapes,
			  const uint32_t *l_body, uint32_t lo, uint32_t hi,
			  uint32_t l_unknown)
{
	uint32_t i, mid, l_right;

	if (hi - lo <= 4) {
		/* if shape == id goto body */
		for (i = lo; i < hi; i++)
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, shapes[i]->id, 0),
					 l_body[i]);
		codegen_emit_jmp(p, INSN_JA(0), l_unknown);
		return;
	}
	mid = lo + (hi - lo) / 2;
	l_right = codegen_label_new(p);
	/* if shape >= shapes[mid] goto right half */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R1, shapes[mid]->id, 0), l_right);
	emit_dispatch(p, shapes, l_body, lo, mid, l_unknown);
	codegen_label_bind(p, l_right);
	emit_dispatch(p, shapes, l_body, mid, hi, l_unknown);
}

/* one shape function: shapes[lo, hi) */
static void emit_shape_func(struct codegen_prog *p, const struct codegen_env *env,
			    struct codegen_shape *const *shapes, uint32_t lo,
			    uint32_t hi, uint32_t l_func)
{
	uint32_t l_body[SHAPES_PER_FUNC], l_unknown = codegen_label_new(p), i;

	uint32_t l_null = codegen_label_new(p);

	for (i = lo; i < hi; i++)
		l_body[i - lo] = codegen_label_new(p);
	codegen_func_begin_global(p, l_func);
	/* r8 = ctx; r6 = st; r7 = entry (global: may be NULL) */
	codegen_emit(p, INSN_MOV64_REG(R8, R1));
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_MOV64_REG(R7, R3));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R6, 0, 0), l_null);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, 0, 0), l_null);
	/* r1 = entry->shape */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
				     offsetof(struct codegen_entry, shape)));
	emit_dispatch(p, shapes + lo, l_body, 0, hi - lo, l_unknown);
	/* unknown: st->verdict = NF_DROP (never skip a rule silently) */
	codegen_label_bind(p, l_unknown);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	/* NULL arguments (never, but the verifier asks): return 0 */
	codegen_label_bind(p, l_null);
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	for (i = lo; i < hi; i++) {
		codegen_label_bind(p, l_body[i - lo]);
		codegen_shape_emit(p, shapes[i], env);
	}
}

/* does function k (shapes[lo, hi)) hold a foldable shape? */
static bool group_folds(struct codegen_shape *const *shapes, uint32_t lo,
			uint32_t hi)
{
	uint32_t i;

	for (i = lo; i < hi; i++)
		if (codegen_shape_foldable(shapes[i]))
			return true;
	return false;
}

/*
 * one fold function: the foldable shapes among shapes[lo, hi); f(ctx, st,
 * head) returns the entry of the run that can match, 0 if none, -1 if
 * the shape does not fold (then the run is walked rule by rule)
 */
static void emit_fold_func(struct codegen_prog *p, const struct codegen_env *env,
			   struct codegen_shape *const *shapes, uint32_t lo,
			   uint32_t hi, uint32_t l_func)
{
	struct codegen_shape *fs[SHAPES_PER_FUNC];
	uint32_t l_body[SHAPES_PER_FUNC], l_other = codegen_label_new(p);
	uint32_t l_null = codegen_label_new(p), i, n = 0;

	for (i = lo; i < hi; i++)
		if (codegen_shape_foldable(shapes[i])) {
			fs[n] = shapes[i];
			l_body[n++] = codegen_label_new(p);
		}
	codegen_func_begin_global(p, l_func);
	/* r8 = ctx; r6 = st; r7 = head (global: may be NULL) */
	codegen_emit(p, INSN_MOV64_REG(R8, R1));
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_MOV64_REG(R7, R3));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R6, 0, 0), l_null);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, 0, 0), l_null);
	/* r1 = head->shape */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
				     offsetof(struct codegen_entry, shape)));
	emit_dispatch(p, fs, l_body, 0, n, l_other);
	/* not a foldable shape (or NULL arguments): -1, rule by rule */
	codegen_label_bind(p, l_other);
	codegen_label_bind(p, l_null);
	codegen_emit(p, INSN_MOV64_IMM(R0, -1));
	codegen_emit(p, INSN_EXIT());
	for (i = 0; i < n; i++) {
		codegen_label_bind(p, l_body[i]);
		codegen_fold_emit(p, fs[i], env);
	}
}

/*
 * @dst = successor of the entry r7 the callback evaluates: entry->next,
 * but past its run if a fold head sent the walker to it (st->fold_member);
 * @tmp clobbered
 */
static void emit_succ(struct codegen_prog *p, int dst, int tmp)
{
	uint32_t l_plain = codegen_label_new(p);

	/* dst = entry->next; if st->fold_member != st->cur goto plain */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, dst, R7,
				     offsetof(struct codegen_entry, next)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, tmp, R6, ST_OFF(fold_member)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, tmp, 0, 0), l_plain);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R0, R6, ST_OFF(cur)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, tmp, R0, 0), l_plain);
	/* dst = st->fold_exit */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, dst, R6, ST_OFF(fold_exit)));
	codegen_label_bind(p, l_plain);
}

/*
 * fold head r7: r0 = fold_k(ctx, st, head) for its shape; -1: next entry
 * (rule by rule); 0: past the run; else that rule, then past the run
 */
static void emit_fold_head(struct codegen_prog *p, uint32_t nfuncs,
			   const uint32_t *l_fold, uint32_t l_next)
{
	uint32_t l_call = codegen_label_new(p), l_miss = codegen_label_new(p);
	uint32_t k, nfold = 0;

	for (k = 0; k < nfuncs; k++)
		nfold += l_fold[k] != 0;
	if (!nfold) {
		/* no foldable shape: rule by rule (the verifier refuses
		 * unreachable code) */
		codegen_emit_jmp(p, INSN_JA(0), l_next);
		return;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
				     offsetof(struct codegen_entry, shape)));
	for (k = 0; k < nfuncs; k++) {
		uint32_t l_skip = codegen_label_new(p);

		if (!l_fold[k])
			continue;
		/* if shape > last id of function k goto skip */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1,
						 (k + 1) * SHAPES_PER_FUNC, 0), l_skip);
		/* if shape <= last id of function k - 1: not foldable */
		if (k)
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1,
							 k * SHAPES_PER_FUNC, 0), l_next);
		/* r0 = fold_k(ctx, st, head); goto call */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, CTX_FROM_ST));
		codegen_emit(p, INSN_MOV64_REG(R2, R6));
		codegen_emit(p, INSN_MOV64_REG(R3, R7));
		codegen_emit_call(p, l_fold[k]);
		codegen_emit_jmp(p, INSN_JA(0), l_call);
		codegen_label_bind(p, l_skip);
	}
	/* no fold function for this shape: rule by rule */
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_call);
	/* if r0 == -1 goto next (rule by rule); r1 = head->exit */
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R0, -1, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
				     ENTRY_CONSTS_OFF + FOLD_CONST_EXIT));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R0, 0, 0), l_miss);
	/* st->fold_member = r0; st->fold_exit = exit; st->cur = r0 */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, ST_OFF(fold_member)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(fold_exit)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, ST_OFF(cur)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* miss: st->cur = exit */
	codegen_label_bind(p, l_miss);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(cur)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
}

/*
 * (loop callback) netfilter: the head's HEAD_NF_* is in r1. A nat chain
 * sees a packet only where the kernel's nat core (nf_nat_inet_fn()) runs
 * the chains: the packet has a conntrack entry in state new, related or
 * related reply that is not confirmed yet (the kernel asks whether the
 * connection has its nat binding for this manip type: every connection
 * gets one, a null binding if no rule sets one, before it is confirmed),
 * and it is not an ICMP/ICMPv6 error related to a connection
 * (nf_nat_ipv4_fn()/nf_nat_ipv6_fn() translate those and return before
 * the chains). Else the chain is passed over (goto @l_skip). Clobbers
 * r0-r5.
 */
static void emit_nat_gate(struct codegen_prog *p, const struct codegen_env *env,
			  uint32_t l_skip)
{
	uint32_t l_run = codegen_label_new(p), l_new = codegen_label_new(p);
	uint32_t l_rel = codegen_label_new(p), l_v6 = codegen_label_new(p);

	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, HEAD_NF_NAT, 0), l_run);
	/* r2 = ct; r3 = ctinfo; no ct (none or untracked): pass over */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_MOV64_REG(R3, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, 7));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, ~7));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_skip);
	/* IP_CT_NEW: 2; IP_CT_RELATED: 1; IP_CT_RELATED_REPLY: 4 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 2, 0), l_new);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 1, 0), l_rel);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 4, 0), l_skip);
	/* related: an ICMP error (IPv4) or ICMPv6 error is passed over */
	codegen_label_bind(p, l_rel);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, PKT_OFF(l4proto)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R4, 2 /* NFPROTO_IPV4 */, 0), l_v6);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 1 /* IPPROTO_ICMP */, 0), l_skip);
	codegen_emit_jmp(p, INSN_JA(0), l_new);
	codegen_label_bind(p, l_v6);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 58 /* IPPROTO_ICMPV6 */, 0), l_skip);
	/* confirmed (IPS_CONFIRMED): its bindings exist, pass over */
	codegen_label_bind(p, l_new);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R2, env->off.ct_status);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1 << 3 /* IPS_CONFIRMED */, 0), l_skip);
	codegen_label_bind(p, l_run);
}

/*
 * (loop callback) the base chain st->hk accepted: set up the next one of
 * the hook point (st->slot) in this generation and go on (return 0); none
 * left: st->final = NF_ACCEPT, stop. A chain not live in this generation
 * (no head entry) or that does not see this packet (tc: an inet chain and
 * a non-IP packet) is passed over: it ends at once with policy accept.
 */
static void emit_next_head(struct codegen_prog *p, const struct codegen_env *env,
			   uint32_t l_drop)
{
	bool tc = env->ctx != CODEGEN_CTX_NF;
	uint32_t l_skip = codegen_label_new(p), l_all = codegen_label_new(p);

	/* r8 = k = (st->hk + 1) & 0xff (the first: 0xff + 1) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R8, R6, ST_OFF(hk)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R8, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R8, 0xff));
	/* r7 = &heads[st->slot].gen[genbit >> 1]; none: drop */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(slot)));
	emit_lookup(p, env->heads_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_MOV64_REG(R7, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MUL, R1, sizeof(struct codegen_heads_gen)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R7, R1));
	/* if k >= n || k >= HOOK_CHAINS_MAX goto all (accepted by all) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, offsetof(struct codegen_heads_gen, n)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R8, R1, 0), l_all);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R8, HOOK_CHAINS_MAX, 0), l_all);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R8, ST_OFF(hk)));
	/* r1 = pf[k] */
	codegen_emit(p, INSN_MOV64_REG(R1, R7));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R8));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R1,
				     offsetof(struct codegen_heads_gen, pf)));
	if (tc)
		emit_head_pf(p, env, l_skip);
	else
		emit_nat_gate(p, env, l_skip);
	/* st->cur = head[k]; st->depth = 0; st->final = NF_DROP (if the loop
	 * runs out) */
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R7));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R1,
				     offsetof(struct codegen_heads_gen, head)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(cur)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(depth), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(final), VERDICT_DROP));
	/* r0 = rules[head]; none: not live, pass over */
	emit_lookup(p, env->rules_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_skip);
	/* st->policy = head->policy[genbit >> 1] & 1 */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R0, R1));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0,
				     offsetof(struct codegen_entry, policy)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, ST_OFF(policy)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* pass over: cur = 0, policy accept: the next step ends the chain */
	codegen_label_bind(p, l_skip);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(cur), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(depth), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, ST_OFF(policy), VERDICT_ACCEPT));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* every chain accepted */
	codegen_label_bind(p, l_all);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(final), VERDICT_ACCEPT));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
}

/* the bpf_loop callback: evaluate entry st->cur */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    uint32_t l_cb, uint32_t nfuncs, const uint32_t *l_func,
		    const uint32_t *l_fold)
{
	uint32_t l_end = codegen_label_new(p), l_drop = codegen_label_new(p);
	uint32_t l_next = codegen_label_new(p), l_after = codegen_label_new(p);
	uint32_t l_final = codegen_label_new(p), l_jump = codegen_label_new(p);
	uint32_t l_goto = codegen_label_new(p), l_policy = codegen_label_new(p);
	uint32_t l_fhead = codegen_label_new(p), l_member = codegen_label_new(p);
	uint32_t l_chain_done = codegen_label_new(p);
	uint32_t k;

	codegen_func_begin(p, l_cb);
	/* r6 = st; r1 = st->cur */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(cur)));
	/* a fold head's choice holds for the step right after it only:
	 * if st->fold_member != cur: st->fold_member = 0 */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFF(fold_member)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R2, R1, 0), l_member);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(fold_member), 0));
	codegen_label_bind(p, l_member);
	/* if !r1 goto end of chain */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_end);
	/* r7 = rules[cur]; if !r7 goto drop */
	emit_lookup(p, env->rules_fd, R1);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_MOV64_REG(R7, R0));
	/* if (r7->genmask & st->genbit) goto next: inactive here */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7,
				     offsetof(struct codegen_entry, genmask)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFF(genbit)));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_next);
	/* if r7->flags & ENTRY_F_FOLD goto fold head */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7,
				     offsetof(struct codegen_entry, flags)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, ENTRY_F_FOLD, 0), l_fhead);
	/* st->verdict = NFT_CONTINUE; dispatch on r7->shape */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_CONTINUE));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
				     offsetof(struct codegen_entry, shape)));
	/* shape 0 (chain head, empty rule): no code */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_after);
	/* call the function holding the shape: ids 1 + k * SHAPES_PER_FUNC
	 * onward are in function k; beyond the last: unknown */
	for (k = 0; k < nfuncs; k++) {
		uint32_t l_skip = codegen_label_new(p);

		/* if shape > last id of function k goto skip */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1,
						 (k + 1) * SHAPES_PER_FUNC, 0), l_skip);
		/* func_k(ctx, st, entry); goto after */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, CTX_FROM_ST));
		codegen_emit(p, INSN_MOV64_REG(R2, R6));
		codegen_emit(p, INSN_MOV64_REG(R3, R7));
		codegen_emit_call(p, l_func[k]);
		codegen_emit_jmp(p, INSN_JA(0), l_after);
		codegen_label_bind(p, l_skip);
	}
	/* unknown: st->verdict = NF_DROP (fail closed) */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_label_bind(p, l_after);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(verdict)));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_CONTINUE, 0), l_next);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_BREAK, 0), l_next);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_ACCEPT, 0), l_chain_done);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_DROP, 0), l_final);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_STOLEN, 0), l_final);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_JUMP, 0), l_jump);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_GOTO, 0), l_goto);
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_RETURN, 0), l_end);
	codegen_emit_jmp(p, INSN_JA(0), l_drop);
	/* final: st->final = verdict; stop */
	codegen_label_bind(p, l_final);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(final)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
	/* jump: if depth >= 16 goto drop; stack[depth++] = successor */
	codegen_label_bind(p, l_jump);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFF(depth)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R2, JUMP_STACK_SIZE, 0), l_drop);
	codegen_emit(p, INSN_MOV64_REG(R3, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R6));
	emit_succ(p, R4, R5);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R3, R4, ST_OFF(stack)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFF(depth)));
	/* goto: st->cur = st->target */
	codegen_label_bind(p, l_goto);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(target)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(cur)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* next: st->cur = successor */
	codegen_label_bind(p, l_next);
	emit_succ(p, R1, R2);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(cur)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* fold head */
	codegen_label_bind(p, l_fhead);
	emit_fold_head(p, nfuncs, l_fold, l_next);
	/* end of chain / return: pop, or the base chain policy */
	codegen_label_bind(p, l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFF(depth)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_policy);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R2, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R2, JUMP_STACK_SIZE, 0), l_drop);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFF(depth)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 2));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, ST_OFF(stack)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(cur)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* policy: accept: on to the next base chain; drop: st->final =
	 * NF_DROP; stop */
	codegen_label_bind(p, l_policy);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(policy)));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, VERDICT_ACCEPT, 0), l_chain_done);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(final)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
	/* a base chain accepted: the next one of the hook point */
	codegen_label_bind(p, l_chain_done);
	emit_next_head(p, env, l_drop);
	/* drop: st->final = NF_DROP; stop */
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(final), VERDICT_DROP));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
}

int codegen_walker_emit(struct codegen_prog *p, const struct codegen_env *env,
			struct codegen_shape *const *shapes, uint32_t nshapes)
{
	uint32_t nfuncs = (nshapes + SHAPES_PER_FUNC - 1) / SHAPES_PER_FUNC;
	uint32_t l_cb = codegen_label_new(p);
	uint32_t *l_func = NULL, *l_fold = NULL;
	uint32_t i;

	/* shape ids must be 1..nshapes in order: function k holds ids
	 * k * SHAPES_PER_FUNC + 1 .. (k + 1) * SHAPES_PER_FUNC */
	for (i = 0; i < nshapes; i++)
		if (shapes[i]->id != i + 1)
			return -EINVAL;
	if (nfuncs) {
		l_func = calloc(nfuncs, sizeof(*l_func));
		l_fold = calloc(nfuncs, sizeof(*l_fold));
		if (!l_func || !l_fold) {
			free(l_func);
			free(l_fold);
			return -ENOMEM;
		}
	}
	for (i = 0; i < nfuncs; i++) {
		uint32_t hi = (i + 1) * SHAPES_PER_FUNC;

		l_func[i] = codegen_label_new(p);
		/* 0: no fold function (no foldable shape in the group) */
		if (group_folds(shapes, i * SHAPES_PER_FUNC,
				hi < nshapes ? hi : nshapes))
			l_fold[i] = codegen_label_new(p);
	}
	emit_main(p, env, l_cb);
	emit_cb(p, env, l_cb, nfuncs, l_func, l_fold);
	for (i = 0; i < nfuncs; i++) {
		uint32_t hi = (i + 1) * SHAPES_PER_FUNC;

		emit_shape_func(p, env, shapes, i * SHAPES_PER_FUNC,
				hi < nshapes ? hi : nshapes, l_func[i]);
		if (l_fold[i])
			emit_fold_func(p, env, shapes, i * SHAPES_PER_FUNC,
				       hi < nshapes ? hi : nshapes, l_fold[i]);
	}
	/* static functions the shapes call (bpf_loop callbacks) */
	codegen_emit_deferred(p, env);
	free(l_func);
	free(l_fold);
	return codegen_prog_finish(p);
}

int codegen_tramp_emit(struct codegen_prog *p, const struct codegen_env *env,
		       uint32_t slot)
{
	bool tc = env->ctx != CODEGEN_CTX_NF;
	uint32_t l_fail = codegen_label_new(p);

	codegen_func_begin(p, codegen_label_new(p));
	/* r6 = ctx; r0 = ring */
	codegen_emit(p, INSN_MOV64_REG(R6, R1));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, -4, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, -4));
	codegen_emit_ld_map(p, R1, env->ring_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_fail);
	/* r1 = &ent[atomic ring->next++ % RING_N]: {ctx, slot} */
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1,
					      offsetof(struct codegen_ring, next)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, RING_N - 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 4));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R1, R6, offsetof(struct codegen_ring, ent)));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R1, offsetof(struct codegen_ring, ent) + 8,
				    slot));
	/* bpf_tail_call(ctx, progs, walker of this context) */
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit_ld_map(p, R2, tc ? env->progs_tc_fd : env->progs_fd);
	codegen_emit(p, INSN_MOV64_IMM(R3, !tc ? WALKER_NF :
				       env->ctx == CODEGEN_CTX_TC_EGRESS ?
				       WALKER_TC_EGRESS : WALKER_TC_INGRESS));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_tail_call));
	/* no walker: nothing runs in the live generation: NF_ACCEPT (tc:
	 * TCX_NEXT) */
	codegen_emit(p, INSN_MOV64_IMM(R0, tc ? TCX_NEXT_ : VERDICT_ACCEPT));
	codegen_emit(p, INSN_EXIT());
	codegen_label_bind(p, l_fail);
	codegen_emit(p, INSN_MOV64_IMM(R0, tc ? TCX_DROP_ : VERDICT_DROP));
	codegen_emit(p, INSN_EXIT());
	return codegen_prog_finish(p);
}
