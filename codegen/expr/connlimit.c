// SPDX-License-Identifier: GPL-2.0-only
/*
 * connlimit.c - "ct count" (nft_connlimit.c with nf_conncount.c) in a rule:
 * one list per rule, a value of env->cl_fd (codegen.h: struct
 * codegen_cl_list) keyed by the id in the rule's state word. The same
 * code counts on the lists of xt connlimit keys (codegen/xt/connlimit.c)
 * and of the elements a dynset adds (codegen/expr/dynset.c, CL_ELEM_SLOT).
 *
 * What 6.18.44 does, measured with real connections (tests/dataplane
 * c13, c16 --kernel-only, and by hand), and what the code below does in
 * the same order: nf_conncount_add_skb() takes the packet's nf_conn (not
 * a template) or, without one, the tuple of its headers
 * (nf_ct_get_tuplepr(), failing: -ENOENT, the rule drops) and the
 * conntrack found for it. A confirmed and ASSURED conntrack: -EEXIST, the
 * list is only collected (nf_conncount_gc_list(): not within the jiffy
 * of the last collection). A confirmed one not yet assured (a loopback
 * connection at input, a one-way or young UDP flow): the list is scanned
 * (a duplicate tuple ends the scan, nothing added). Else the scan runs
 * unless within the jiffy of the last one and fewer than 64 entries were
 * added since; it drops entries whose conntrack is gone (only when this
 * CPU added them or they are 2 jiffies old) or in TCP CLOSE/TIME_WAIT;
 * then the tuple is appended. The count is compared after that:
 *
 *	(count > limit) ^ invert: NFT_BREAK
 *
 * "Gone" is nf_conntrack_find_get() failing; here an entry keeps its
 * nf_conn pointer and the object is read with bpf_probe_read_kernel()
 * (nf_conn memory stays an nf_conn, SLAB_TYPESAFE_BY_RCU): found while it
 * still has the stored original tuple, is confirmed, not dying,
 * referenced and not expired. Not seen: another live conntrack with a
 * stored tuple. A packet without a conntrack is looked up among the
 * conntracks of the list only (original or reply tuple). The list is
 * locked with a compare-and-swap word (a bpf_spin_lock cannot be held
 * across helper calls); CL_ENTS entries at most (a full list drops, as a
 * failed allocation does).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/connlimit.h"

#define CTINFO_MASK	7	/* NFCT_INFOMASK */
#define IPS_ASSURED	(1u << 2)
#define IPS_CONFIRMED	(1u << 3)
#define IPS_DYING	(1u << 9)
#define IPS_TEMPLATE	(1u << 11)
#define TCP_TIME_WAIT	7	/* TCP_CONNTRACK_TIME_WAIT */
#define TCP_CLOSE	8	/* TCP_CONNTRACK_CLOSE */
#define GC_MAX_COLLECT	64	/* CONNCOUNT_GC_MAX_COLLECT */
#define LOCK_TRIES	256	/* then the packet is dropped, as a failed add */

/* constants: u32 state slot (the instance id), u32 limit, u32 invert */
#define C_SLOT		0
#define C_LIMIT		4
#define C_INVERT	8

/* the shape frame: spilled list pointer, packet's nf_conn, loop index */
#define FP_LIST		SHAPE_BUF_OFF
#define FP_CT		(SHAPE_BUF_OFF + 8)
#define FP_I		(SHAPE_BUF_OFF + 16)
#define FP_ZKEY		(SHAPE_BUF_OFF + 24)

#define S(f)		((int16_t)offsetof(struct codegen_cl_scratch, f))
#define L(f)		((int16_t)offsetof(struct codegen_cl_list, f))
#define L_ENT		L(ent)
#define E(f)		((int16_t)offsetof(struct codegen_cl_ent, f))
#define E_SIZE		((int32_t)sizeof(struct codegen_cl_ent))

enum { MODE_ADD, MODE_GC };

static bool served(const struct codegen_env *env)
{
	return env->off.ct_status >= 0 && env->off.ct_tuple >= 0 &&
	       env->off.tup_protonum >= 0 && env->off.ct_zone_id >= 0 &&
	       env->off.ct_timeout >= 0 && env->off.ct_use >= 0 &&
	       env->off.ct_tcp_state >= 0 && env->cl_fd >= 0;
}

static int connlimit_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	(void)err;
	return 0;
}

static uint32_t connlimit_const_size(const struct expr *e)
{
	(void)e;
	return 12;
}

static void connlimit_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void connlimit_consts(const struct expr *e, uint8_t *dst,
			     const struct codegen_consts_ctx *cc)
{
	const struct expr_connlimit *c = expr_priv(e);
	uint32_t invert = c->invert;

	(void)cc;
	memcpy(dst + C_SLOT, &c->slot, 4);
	memcpy(dst + C_LIMIT, &c->limit, 4);
	memcpy(dst + C_INVERT, &invert, 4);
}

/* probe_read_kernel(r9 + @dst, @len, r@base + @src) */
static void emit_read(struct codegen_prog *p, int16_t dst, uint32_t len,
		      int base, int16_t src)
{
	codegen_emit(p, INSN_MOV64_REG(R3, base));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, src));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, dst));
	codegen_emit(p, INSN_MOV64_IMM(R2, len));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
}

/* r@dst = &list->ent[i] (i from FP_I, < CL_ENTS), r1 = the list */
static void emit_ent(struct codegen_prog *p, int dst)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, dst, R10, FP_I));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MUL, dst, E_SIZE));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, dst, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, dst, L_ENT));
}

/* if the 40 bytes at r@a + @ao differ from those at r@b + @bo goto @l (r4, r5) */
static void emit_tuple_ne(struct codegen_prog *p, int a, int16_t ao, int b,
			  int16_t bo, uint32_t l)
{
	int16_t k;

	for (k = 0; k < CL_TUPLE_LEN; k += 8) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, a, ao + k));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, b, bo + k));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R4, R5, 0), l);
	}
}

/* r@dst = &list->ent[r@idx] (r@idx < CL_ENTS checked by the caller) */
static void emit_ent_at(struct codegen_prog *p, int dst, int idx)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, dst, R10, FP_LIST));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MUL, idx, E_SIZE));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, dst, idx));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, dst, L_ENT));
}

/*
 * list->ent[w] = list->ent[i] unless w == i; w++ (scratch.w; r0-r5)
 */
static void emit_keep(struct codegen_prog *p)
{
	uint32_t l_same = codegen_label_new(p);
	int16_t k;

	/* r3 = w; if w >= CL_ENTS goto same (never: w <= i) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(w)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R3, CL_ENTS, 0), l_same);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R10, FP_I));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R3, R4, 0), l_same);
	/* r2 = &ent[i]; r0 = &ent[w]; copy */
	emit_ent(p, R2);
	emit_ent_at(p, R0, R3);
	for (k = 0; k < E_SIZE; k += 8) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R2, k));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R5, k));
	}
	codegen_label_bind(p, l_same);
	/* w++ */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(w)));
	codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R3, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R3, S(w)));
}

/* i++ (FP_I) */
static void emit_inc_i(struct codegen_prog *p)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_I));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R2, FP_I));
}

/* if i >= n or i >= CL_ENTS goto @l */
static void emit_loop_head(struct codegen_prog *p, uint32_t l)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_I));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(n)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R2, R3, 0), l);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R2, CL_ENTS, 0), l);
}

/* r3 = ent[i].ct */
static void emit_ent_ct(struct codegen_prog *p)
{
	emit_ent(p, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R2, E(ct)));
}

/*
 * The scan of the list (the loop of __nf_conncount_add(), mode ADD, and
 * of __nf_conncount_gc_list(), mode GC) with find_or_evict(): an entry's
 * conntrack is found when its nf_conn still has the stored original
 * tuple, is confirmed, not dying, referenced and not expired. Kept
 * entries move down over evicted ones (list order is kept); at most
 * CL_ENTS entries, so fewer than GC_MAX_COLLECT are ever collected.
 * Ends at @l_dedup (i at the duplicate) or falls through at the end.
 */
static void emit_scan(struct codegen_prog *p, const struct codegen_env *env,
		      uint32_t l_dedup)
{
	uint32_t l_loop = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);
	uint32_t l_nf = codegen_label_new(p);
	uint32_t l_closed = codegen_label_new(p);
	uint32_t l_evict = codegen_label_new(p);
	uint32_t l_keep = codegen_label_new(p);
	uint32_t l_next = codegen_label_new(p);

	/* i = 0; w = 0; n = list->count */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_I, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(w), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(count)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R2, S(n)));
	codegen_label_bind(p, l_loop);
	emit_loop_head(p, l_end);
	/* 1. found? r3 = ent.ct; if 0 goto notfound */
	emit_ent_ct(p);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_nf);
	/* the nf_conn's original tuple is the stored one */
	emit_read(p, S(btuple), CL_TUPLE_LEN, R3, env->off.ct_tuple);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_nf);
	emit_ent(p, R2);
	emit_tuple_ne(p, R9, S(btuple), R2, E(tuple), l_nf);
	/* confirmed, not dying */
	emit_ent_ct(p);
	emit_read(p, S(bstatus), 8, R3, env->off.ct_status);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_nf);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, S(bstatus)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IPS_CONFIRMED | IPS_DYING));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, IPS_CONFIRMED, 0), l_nf);
	/* referenced */
	emit_ent_ct(p);
	emit_read(p, S(buse), 4, R3, env->off.ct_use);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_nf);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(buse)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_nf);
	/* not expired: (s32)(ct->timeout - jiffies) > 0 */
	emit_ent_ct(p);
	emit_read(p, S(btimeout), 4, R3, env->off.ct_timeout);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_nf);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(btimeout)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, S(now)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R2));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JSLE, R1, 0, 0), l_nf);
	/* 2. found: the packet's own connection (mode ADD): a duplicate */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(mode)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, MODE_ADD, 0), l_closed);
	emit_ent(p, R2);
	emit_tuple_ne(p, R9, S(ptuple), R2, E(tuple), l_closed);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R9, S(pzone)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R2, E(zone)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R4, R5, 0), l_dedup);
	/* already_closed(): TCP in TIME_WAIT or CLOSE */
	codegen_label_bind(p, l_closed);
	emit_ent(p, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R2, E(tuple) + env->off.tup_protonum));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), l_keep);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(btcp), 0));
	emit_ent_ct(p);
	emit_read(p, S(btcp), 1, R3, env->off.ct_tcp_state);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, S(btcp)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_TIME_WAIT, 0), l_evict);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_CLOSE, 0), l_evict);
	codegen_emit_jmp(p, INSN_JA(0), l_keep);
	/* 3. not found: evicted if this CPU added it or it is 2 jiffies old */
	codegen_label_bind(p, l_nf);
	emit_ent(p, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, E(cpu)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(cpu)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R3, 0), l_evict);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(now)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R2, E(jiffies)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R3));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JGE, R1, 2, 0), l_evict);
	/* -EAGAIN: maybe about to be confirmed; the packet's own: a duplicate */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(mode)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, MODE_ADD, 0), l_keep);
	emit_tuple_ne(p, R9, S(ptuple), R2, E(tuple), l_keep);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R9, S(pzone)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R2, E(zone)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R4, R5, 0), l_dedup);
	/* 4. keep / evict, next */
	codegen_label_bind(p, l_keep);
	emit_keep(p);
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_evict);
	codegen_label_bind(p, l_next);
	emit_inc_i(p);
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	codegen_label_bind(p, l_end);
}

/* copy @len bytes (a multiple of 2, at most 16) from st + @src to r9 + @dst */
static void emit_copy_st(struct codegen_prog *p, int16_t dst, int16_t src,
			 uint32_t len)
{
	uint32_t k = 0;

	for (; k + 8 <= len; k += 8) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, src + k));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, dst + k));
	}
	for (; k + 4 <= len; k += 4) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, src + k));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, dst + k));
	}
	for (; k + 2 <= len; k += 2) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, src + k));
		codegen_emit(p, INSN_STX_MEM(BPF_H, R9, R1, dst + k));
	}
}

/*
 * The tuple of the packet's headers into scratch.ptuple
 * (nf_ct_get_tuplepr() with nf_ct_get_tuple()): addresses, protocol and
 * the ports (TCP, UDP, UDP-Lite, SCTP, DCCP) or ICMP/ICMPv6 type, code and
 * id; other protocols and GRE version 0 have none. Where the kernel fails
 * (no transport header, IPv6 no next header, a non-first fragment, a short
 * transport header)
 * the rule drops (nft_connlimit: -ENOENT is NF_DROP); so does GRE version
 * 1 (PPTP), whose key the kernel finds in its keymap.
 */
static void emit_pkt_tuple(struct codegen_prog *p, const struct codegen_env *env,
			   uint32_t l_drop)
{
	const int16_t tu = S(ptuple);
	uint32_t l_v6 = codegen_label_new(p);
	uint32_t l_l4 = codegen_label_new(p);
	uint32_t l_icmp = codegen_label_new(p);
	uint32_t l_gre = codegen_label_new(p);
	uint32_t l_ports = codegen_label_new(p);
	uint32_t l_out = codegen_label_new(p);
	int16_t k;

	for (k = 0; k < CL_TUPLE_LEN; k += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, tu + k, 0));
	/* no transport header, or a non-first fragment: drop */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_drop);
	/* src.l3num = nfproto (AF_INET/AF_INET6); the addresses */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R9, R1, tu + env->off.tup_l3num));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 2, 0), l_v6);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 20, 0), l_drop);
	emit_copy_st(p, tu + env->off.tup_src_u3, ST_OFF(pktc) + 12, 4);
	emit_copy_st(p, tu + env->off.tup_dst_u3, ST_OFF(pktc) + 16, 4);
	codegen_emit_jmp(p, INSN_JA(0), l_l4);
	codegen_label_bind(p, l_v6);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 40, 0), l_drop);
	emit_copy_st(p, tu + env->off.tup_src_u3, ST_OFF(pktc) + 8, 16);
	emit_copy_st(p, tu + env->off.tup_dst_u3, ST_OFF(pktc) + 24, 16);
	/* ipv6_skip_exthdr() fails at NEXTHDR_NONE */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 59, 0), l_drop);
	/* dst.protonum; per protocol */
	codegen_label_bind(p, l_l4);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R9, R1, tu + env->off.tup_protonum));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(thc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 1, 0), l_icmp);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 58, 0), l_icmp);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 47, 0), l_gre);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 6, 0), l_ports);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 17, 0), l_ports);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 136, 0), l_ports);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 132, 0), l_ports);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 33, 0), l_ports);
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	/* ports: src.u.all, dst.u.all */
	codegen_label_bind(p, l_ports);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, 4, 0), l_drop);
	emit_copy_st(p, tu + env->off.tup_src_u, ST_THC_OFF, 2);
	emit_copy_st(p, tu + env->off.tup_dst_u, ST_THC_OFF + 2, 2);
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	/* icmp: dst.u.icmp.type, code; src.u.icmp.id */
	codegen_label_bind(p, l_icmp);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, 8, 0), l_drop);
	emit_copy_st(p, tu + env->off.tup_dst_u, ST_THC_OFF, 2);
	emit_copy_st(p, tu + env->off.tup_src_u, ST_THC_OFF + 4, 2);
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	/* gre: version 0 has no key; version 1 (pptp) is not served */
	codegen_label_bind(p, l_gre);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, 2, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_THC_OFF + 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 7));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 1, 0), l_drop);
	codegen_label_bind(p, l_out);
}

/*
 * Without a conntrack on the packet, the kernel looks its tuple up in
 * the conntrack table (nf_conntrack_find_get()); a BPF program can look
 * in the conntracks this list holds: an entry whose live nf_conn has the
 * tuple as its original or reply tuple. Found: FP_CT and bstatus are
 * that one's. (Another conntrack with that tuple is not seen.)
 */
static void emit_lookup(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_loop = codegen_label_new(p);
	uint32_t l_next = codegen_label_new(p);
	uint32_t l_reply = codegen_label_new(p);
	uint32_t l_live = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);
	uint32_t l_none = codegen_label_new(p);

	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_I, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(count)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R2, S(n)));
	codegen_label_bind(p, l_loop);
	emit_loop_head(p, l_none);
	emit_ent_ct(p);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_next);
	/* the original tuple, else the reply tuple, is the packet's */
	emit_read(p, S(btuple), CL_TUPLE_LEN, R3, env->off.ct_tuple);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_next);
	emit_tuple_ne(p, R9, S(btuple), R9, S(ptuple), l_reply);
	codegen_emit_jmp(p, INSN_JA(0), l_live);
	codegen_label_bind(p, l_reply);
	emit_ent_ct(p);
	emit_read(p, S(btuple), CL_TUPLE_LEN, R3,
		  env->off.ct_tuple + env->off.ct_tuple_stride);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_next);
	/* the reply tuple's dst.dir is IP_CT_DIR_REPLY: compare without it */
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, S(btuple) + CL_TUPLE_LEN - 1, 0));
	emit_tuple_ne(p, R9, S(btuple), R9, S(ptuple), l_next);
	/* in the table: confirmed, not dying, referenced, not expired */
	codegen_label_bind(p, l_live);
	emit_ent_ct(p);
	emit_read(p, S(bstatus), 8, R3, env->off.ct_status);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, S(bstatus)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IPS_CONFIRMED | IPS_DYING));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, IPS_CONFIRMED, 0), l_next);
	emit_ent_ct(p);
	emit_read(p, S(buse), 4, R3, env->off.ct_use);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(buse)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_next);
	emit_ent_ct(p);
	emit_read(p, S(btimeout), 4, R3, env->off.ct_timeout);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(btimeout)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, S(now)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R2));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JSLE, R1, 0, 0), l_next);
	/* and of the packet's zone */
	emit_ent(p, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R9, S(pzone)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R2, E(zone)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R4, R5, 0), l_next);
	/* found: the packet's conntrack */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R2, E(ct)));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R3, FP_CT));
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_next);
	emit_inc_i(p);
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	/* not found: no conntrack (not confirmed) */
	codegen_label_bind(p, l_none);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, S(bstatus), 0));
	codegen_label_bind(p, l_end);
}

/*
 * the xt_connlimit key: the masked source (or, XT_CONNLIMIT_DADDR,
 * destination) address and the conntrack's zone id (the template's too;
 * 0 without one), as connlimit_mt() builds key[]
 */
static void emit_xt_key(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			const struct codegen_cl_xt *xt, uint32_t l_drop)
{
	uint32_t l_src = codegen_label_new(p);
	uint32_t l_addr = codegen_label_new(p);
	uint32_t l_nozone = codegen_label_new(p);
	int16_t k, n = xt->v6 ? 16 : 4;

	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, xt->v6 ? 40 : 20, 0), l_drop);
	/* r2 = st + the address */
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + xt->c_flags));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 2 /* XT_CONNLIMIT_DADDR */));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_src);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(pktc) + (xt->v6 ? 24 : 16)));
	codegen_emit_jmp(p, INSN_JA(0), l_addr);
	codegen_label_bind(p, l_src);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(pktc) + (xt->v6 ? 8 : 12)));
	codegen_label_bind(p, l_addr);
	for (k = 0; k < n; k += 4) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, k));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, ec->cbase + xt->c_mask + k));
		codegen_emit(p, INSN_ALU32_REG(BPF_AND, R1, R3));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, S(key.addr) + k));
	}
	/* zone id: a conntrack's (template too), else 0 */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, ~CTINFO_MASK));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_nozone);
	emit_read(p, S(key.zone), 2, R1, ec->env->off.ct_zone_id);
	codegen_label_bind(p, l_nozone);
}

/* list->lock = 0 (r@list; r0, r3) */
static void emit_unlock(struct codegen_prog *p, int list)
{
	/* r0 = 1; cmpxchg(list->lock, 1, 0): the release */
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_ATOMIC_CMPXCHG(BPF_W, list, R3, L(lock)));
}

void codegen_emit_conncount(struct codegen_prog *p,
			    const struct codegen_expr_ctx *ec, int16_t c_slot,
			    const struct codegen_cl_xt *xt)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_drop = codegen_label_new(p);
	uint32_t l_have = codegen_label_new(p);
	uint32_t l_add = codegen_label_new(p);
	uint32_t l_check = codegen_label_new(p);
	uint32_t l_gc = codegen_label_new(p);
	uint32_t l_scan = codegen_label_new(p);
	uint32_t l_dedup = codegen_label_new(p);
	uint32_t l_tail = codegen_label_new(p);
	uint32_t l_tail_end = codegen_label_new(p);
	uint32_t l_append = codegen_label_new(p);
	uint32_t l_count = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);
	uint32_t l_try = codegen_label_new(p);
	uint32_t l_locked = codegen_label_new(p);
	uint32_t l_drop_locked = codegen_label_new(p);
	uint32_t l_pkt = codegen_label_new(p);
	uint32_t l_tmpl = codegen_label_new(p);
	uint32_t l_got = codegen_label_new(p);
	uint32_t l_found = codegen_label_new(p);
	static const uint8_t dflt[4] = { 0, 0, 0, 3 };	/* nf_ct_zone_dflt */
	int32_t zone_dflt;
	uint32_t l_new = codegen_label_new(p);
	uint32_t l_old = codegen_label_new(p);
	uint32_t l_elem_old = codegen_label_new(p);
	int16_t k;

	memcpy(&zone_dflt, dflt, 4);

	if (!served(env)) {
		/* a kernel without the nf_conn members read here */
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* 0. r9 = the per-CPU scratch */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_ZKEY, 0));
	codegen_emit_ld_map(p, R1, env->cl_scratch_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FP_ZKEY));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* 2. now = (u32)jiffies; cpu */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R0, S(now)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R0, S(cpu)));
	/* 3. the packet's conntrack and its tuple and zone; none or a
	 * template: the tuple of the headers, the template's zone or the
	 * default one (id 0, both directions) */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, S(bstatus), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(mode), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(pzone), zone_dflt));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, ~CTINFO_MASK));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_CT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_pkt);
	emit_read(p, S(bstatus), 8, R1, env->off.ct_status);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_CT));
	emit_read(p, S(pzone), 4, R2, env->off.ct_zone_id);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, S(bstatus)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IPS_TEMPLATE));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_tmpl);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_CT));
	emit_read(p, S(ptuple), CL_TUPLE_LEN, R2, env->off.ct_tuple);
	codegen_emit_jmp(p, INSN_JA(0), l_got);
	codegen_label_bind(p, l_tmpl);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_CT, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, S(bstatus), 0));
	codegen_label_bind(p, l_pkt);
	emit_pkt_tuple(p, env, l_drop);
	/* scratch.mode = 1: look the tuple up once the list is locked */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(mode), 1));
	codegen_label_bind(p, l_got);
	/* 4. the list: key = the instance id in the state word (xt: and
	 * the masked address, the zone id); none yet: an empty one, made now
	 * (xt: a new key counts its first connection, as insert_tree()) */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(fresh), 0));
	if (c_slot != CL_ELEM_SLOT) {
		codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(elem_new), 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + c_slot));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
		codegen_emit_ld_map(p, R1, env->state_fd);
		codegen_emit(p, INSN_MOV64_REG(R2, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, 0));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, S(key.id)));
		for (k = 0; k < (int16_t)sizeof(((struct codegen_cl_key *)0)->addr); k += 8)
			codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, S(key.addr) + k, 0));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, S(key.zone), 0));
	}
	if (xt)
		emit_xt_key(p, ec, xt, l_drop);
	codegen_emit_ld_map(p, R1, env->cl_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, S(key)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_have);
	codegen_emit_ld_map(p, R1, env->cl_zero_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FP_ZKEY));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_MOV64_REG(R3, R0));
	codegen_emit_ld_map(p, R1, env->cl_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, S(key)));
	codegen_emit(p, INSN_MOV64_IMM(R4, BPF_NOEXIST));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_update_elem));
	/* made here (not by another CPU in between): a new key */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_old);
	if (xt)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(fresh), 1));
	codegen_label_bind(p, l_old);
	codegen_emit_ld_map(p, R1, env->cl_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, S(key)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_label_bind(p, l_have);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R0, FP_LIST));
	/* lock the list: if cmpxchg(list->lock, 0, 1) != 0, retry */
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_label_bind(p, l_try);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_MOV64_IMM(R2, 1));
	codegen_emit(p, INSN_ATOMIC_CMPXCHG(BPF_W, R1, R2, L(lock)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_locked);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R4, LOCK_TRIES, 0), l_try);
	codegen_emit_jmp(p, INSN_JA(0), l_drop);
	codegen_label_bind(p, l_locked);
	/* a new element (dynset): its list starts empty, last_gc = now
	 * (nf_conncount_list_init() of the element's clone); an old list
	 * left under the key by an element gone since is reset here */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(elem_new)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_elem_old);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R1, L(count), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R1, L(last_gc_count), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R3, L(last_gc)));
	codegen_label_bind(p, l_elem_old);
	/* a new xt key: its first connection, added as it is */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(fresh)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_new);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(mode)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_found);
	emit_lookup(p, env);
	codegen_label_bind(p, l_found);
	/* confirmed and assured: only collect; confirmed: scan; else add */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, S(bstatus)));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, IPS_CONFIRMED));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_add);
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, IPS_ASSURED));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_gc);
	codegen_emit_jmp(p, INSN_JA(0), l_check);
	/* 4. add: no collection within the jiffy of the last one unless 64
	 * entries came since */
	codegen_label_bind(p, l_add);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(last_gc)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R2, R3, 0), l_check);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(count)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R1, L(last_gc_count)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R2, R3));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JLT, R2, GC_MAX_COLLECT, 0), l_append);
	codegen_label_bind(p, l_check);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(mode), MODE_ADD));
	codegen_emit_jmp(p, INSN_JA(0), l_scan);
	/* 5. only collect (nf_conncount_gc_list()): not within the jiffy */
	codegen_label_bind(p, l_gc);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(last_gc)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R2, R3, 0), l_count);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, S(mode), MODE_GC));
	/* 6. the scan; count = w, last_gc = now, last_gc_count = count */
	codegen_label_bind(p, l_scan);
	emit_scan(p, env, l_dedup);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, S(w)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2, L(count)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2, L(last_gc_count)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R3, L(last_gc)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, S(mode)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, MODE_GC, 0), l_count);
	codegen_emit_jmp(p, INSN_JA(0), l_append);
	/* 7. a duplicate: the rest of the list moves down as it is; nothing added */
	codegen_label_bind(p, l_dedup);
	codegen_label_bind(p, l_tail);
	emit_loop_head(p, l_tail_end);
	emit_keep(p);
	emit_inc_i(p);
	codegen_emit_jmp(p, INSN_JA(0), l_tail);
	codegen_label_bind(p, l_tail_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, S(w)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2, L(count)));
	codegen_emit_jmp(p, INSN_JA(0), l_count);
	/* a new xt key: last_gc = now (nf_conncount_list_init()) */
	codegen_label_bind(p, l_new);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R3, L(last_gc)));
	/* 8. append: a full list drops (the kernel's allocation failing) */
	codegen_label_bind(p, l_append);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R1, L(count)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R2, CL_ENTS, 0), l_drop_locked);
	codegen_emit(p, INSN_MOV64_REG(R4, R2));
	emit_ent_at(p, R0, R4);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R10, FP_CT));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R3, E(ct)));
	for (k = 0; k < CL_TUPLE_LEN; k += 8) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R9, S(ptuple) + k));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R0, R3, E(tuple) + k));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(pzone)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R0, R3, E(zone)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(now)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R0, R3, E(jiffies)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, S(cpu)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R0, R3, E(cpu)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_LIST));
	codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R2, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R1, R2, L(count)));
	/* 9. r1 = count; unlock */
	codegen_label_bind(p, l_count);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, L(count)));
	emit_unlock(p, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_LIST));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, L(count)));
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	/* a full list: unlock, NF_DROP */
	codegen_label_bind(p, l_drop_locked);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_LIST));
	emit_unlock(p, R2);
	/* no list, no conntrack served: NF_DROP */
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	codegen_label_bind(p, l_end);
}

static void connlimit_emit(struct codegen_prog *p, const struct expr *e,
			   const struct codegen_expr_ctx *ec)
{
	(void)e;
	codegen_emit_conncount(p, ec, C_SLOT, NULL);
	/* (count > limit) ^ invert: NFT_BREAK */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_LIMIT));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R1, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_INVERT));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 0, 0), ec->l_break);
}

static bool connlimit_reads_ct(const struct expr *e)
{
	(void)e;
	return true;
}

static uint32_t *connlimit_state_slot(struct expr *e)
{
	return &((struct expr_connlimit *)expr_priv(e))->slot;
}

/*
 * the instance id of a new rule's list: unique for the daemon's life and
 * past it (CLOCK_MONOTONIC), so a new rule never finds an old list; the
 * tag tells nfbpfd which state words name a list when a rule goes
 */
static uint64_t connlimit_state_init(const struct expr *e, uint64_t now)
{
	(void)e;
	return codegen_connlimit_id(now);
}

uint64_t codegen_connlimit_id(uint64_t now)
{
	static uint64_t last;

	now |= CL_ID_TAG;
	if (now <= last)
		now = last + 1;
	last = now;
	return now;
}

const struct codegen_expr_ops codegen_expr_connlimit = {
	.name = "connlimit",
	.check = connlimit_check,
	.const_size = connlimit_const_size,
	.shape = connlimit_shape,
	.consts = connlimit_consts,
	.emit = connlimit_emit,
	.reads_ct = connlimit_reads_ct,
	.state_slot = connlimit_state_slot,
	.state_init = connlimit_state_init,
};
