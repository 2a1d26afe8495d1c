// SPDX-License-Identifier: GPL-2.0-only
/*
 * recent.c - the recent match (xt_recent.c recent_mt), revisions 0 and 1.
 *
 * struct xt_recent_mtinfo{,_v1} { u32 seconds @0, hit_count @4; u8
 * check_set @8, invert @9; char name[200] @10; u8 side @210; v1: union
 * nf_inet_addr mask @212 }. The table (codegen.h: struct
 * codegen_recent_head) is found by the hash of the name, a rule constant;
 * its mask is the table's (the first rule's), as the kernel applies
 * t->mask, not the rule's own. The whole match runs under the table's
 * bpf_spin_lock, like recent_mt() under recent_lock:
 *
 *	addr = saddr or daddr, masked; ttl = iph->ttl / hop_limit, + 1 when
 *	an output device is set and the skb has no socket of this netns
 *	e = the entry of (family, addr) and, with --rttl, ttl (0 matches any)
 *	none: --set inserts one (the LRU entry goes first when the table
 *	      holds ip_list_tot), ret = !invert; else ret = invert
 *	--set: ret = !invert, update
 *	--remove: delete e, ret = !invert
 *	--rcheck/--update: ret = !invert if hit_count (or, with 0, one)
 *	      stamps are not older than now - seconds * HZ (any age if
 *	      seconds is 0); --reap: the LRU head goes if its newest stamp is
 *	      older, unless it is e about to be updated; --update: update if
 *	      ret
 *	update: stamps[index & mask] = now, index++, nstamps = max, moves
 *	      to the LRU tail, e->ttl = ttl
 *
 * The packet path never loops unbounded: the table scans are bounded by
 * env->recent_n entries and RECENT_STAMPS stamps (bounded loops; the
 * entry index found is "laundered" through the table's scratch word so
 * that the verifier walks the code after a scan once, not per index).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV6_	10

#define RECENT_CHECK	0x01
#define RECENT_SET	0x02
#define RECENT_UPDATE	0x04
#define RECENT_REMOVE	0x08
#define RECENT_TTL	0x10
#define RECENT_REAP	0x20
#define RECENT_DEST	1

#define I_SECONDS	0
#define I_HITS		4
#define I_CHECK_SET	8
#define I_INVERT	9
#define I_NAME		10
#define I_SIDE		210
#define NAME_LEN	200

/* constants: u64 table key, u32 seconds, u32 hit_count */
#define C_KEY		0
#define C_SECONDS	8
#define C_HITS		12

/* the shape frame's packet buffer */
#define FP_ADDR		SHAPE_BUF_OFF		/* 16 bytes */
#define FP_NOW		(SHAPE_BUF_OFF + 16)
#define FP_TTL		(SHAPE_BUF_OFF + 24)
#define FP_TIME		(SHAPE_BUF_OFF + 32)
#define FP_RET		(SHAPE_BUF_OFF + 40)
#define FP_E		(SHAPE_BUF_OFF + 48)

#define H_SIZE		((int16_t)sizeof(struct codegen_recent_head))
#define H_ENTRIES	((int16_t)offsetof(struct codegen_recent_head, entries))
#define H_NMASK		((int16_t)offsetof(struct codegen_recent_head, nstamps_mask))
#define H_SCRATCH	((int16_t)offsetof(struct codegen_recent_head, scratch))
#define H_MASK		((int16_t)offsetof(struct codegen_recent_head, mask))
#define H_SEQ		((int16_t)offsetof(struct codegen_recent_head, seq))
#define E_SIZE		((int32_t)sizeof(struct codegen_recent_ent))
#define E_FAMILY	((int16_t)offsetof(struct codegen_recent_ent, family))
#define E_TTL		((int16_t)offsetof(struct codegen_recent_ent, ttl))
#define E_INDEX		((int16_t)offsetof(struct codegen_recent_ent, index))
#define E_NSTAMPS	((int16_t)offsetof(struct codegen_recent_ent, nstamps))
#define E_LRU		((int16_t)offsetof(struct codegen_recent_ent, lru))
#define E_STAMPS	((int16_t)offsetof(struct codegen_recent_ent, stamps))

uint64_t codegen_recent_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a 64 */
	size_t i;

	for (i = 0; i < NAME_LEN && name[i]; i++) {
		h ^= (uint8_t)name[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint8_t recent_flags(const struct expr_xt *x)
{
	return x->info[I_CHECK_SET];
}

static int recent_check(const struct expr_xt *x, struct dp_error *err)
{
	uint32_t hits;

	memcpy(&hits, x->info + I_HITS, 4);
	if (hits <= RECENT_STAMPS)
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'recent' with --hitcount above %u is not supported by the nfbpf dataplane",
		 RECENT_STAMPS);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static void recent_consts(const struct expr_xt *x, uint8_t *dst)
{
	char name[NAME_LEN + 1];
	uint64_t key;

	memcpy(name, x->info + I_NAME, NAME_LEN);
	name[NAME_LEN] = 0;
	key = codegen_recent_hash(name);
	memcpy(dst + C_KEY, &key, 8);
	memcpy(dst + C_SECONDS, x->info + I_SECONDS, 4);
	memcpy(dst + C_HITS, x->info + I_HITS, 4);
}

static void recent_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[4] = { x->family, recent_flags(x), x->info[I_INVERT] != 0,
			 x->info[I_SIDE] == RECENT_DEST };

	codegen_key_put(k, v, sizeof(v));
}

/* @dst = r9 + head + @idx * entry size: the entry at index register @idx */
static void emit_ent(struct codegen_prog *p, int dst, int idx)
{
	codegen_emit(p, INSN_MOV64_REG(dst, idx));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MUL, dst, E_SIZE));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, dst, H_SIZE));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, dst, R9));
}

/*
 * r4 = r@src as an unknown scalar (through the table's scratch word), then
 * bounded again: if r4 >= n goto @l_out
 */
static void emit_launder(struct codegen_prog *p, int src, uint32_t n,
			 uint32_t l_out)
{
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, src, H_SCRATCH));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R9, H_SCRATCH));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, n, 0), l_out);
}

/* r4 = the LRU head: the used entry with the smallest lru (table not
 * empty); clobbers r1-r3, r5 */
static void emit_lru_head(struct codegen_prog *p, uint32_t n, uint32_t l_out)
{
	uint32_t l_loop = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t l_done = codegen_label_new(p);

	/* r1 = best lru = ~0; r2 = best index = 0; r4 = i = 0 */
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_label_bind(p, l_loop);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, n, 0), l_done);
	emit_ent(p, R3, R4);
	/* if !e->family || e->lru >= best goto next; best = e->lru, i */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R5, R3, E_FAMILY));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R5, 0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R3, E_LRU));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R5, R1, 0), l_next);
	codegen_emit(p, INSN_MOV64_REG(R1, R5));
	codegen_emit(p, INSN_MOV64_REG(R2, R4));
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	codegen_label_bind(p, l_done);
	emit_launder(p, R2, n, l_out);
}

/* recent_entry_remove() of the entry at r3 */
static void emit_remove(struct codegen_prog *p)
{
	codegen_emit(p, INSN_ST_MEM(BPF_H, R3, E_FAMILY, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, H_ENTRIES));
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, H_ENTRIES));
}

/* r3->lru = ++table->seq */
static void emit_lru_tail(struct codegen_prog *p)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, H_SEQ));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, H_SEQ));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R3, R1, E_LRU));
}

/* ret (FP_RET) = @v */
static void emit_ret(struct codegen_prog *p, uint8_t v)
{
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_RET, v));
}

/* 0-1. FP_ADDR = the address, FP_TTL = the ttl as recent_mt() takes them */
static void emit_addr_ttl(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	bool v6 = x->family == NFPROTO_IPV6_;
	bool dst = x->info[I_SIDE] == RECENT_DEST;
	uint32_t l_inc = codegen_label_new(p), l_ttl = codegen_label_new(p);

	/* r0 = network header */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit_slice(p, env, v6 ? 40 : 20, ec->l_break);
	if (v6) {
		/* r1, r2 = saddr or daddr; r3 = hop_limit */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0, dst ? 24 : 8));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R0, dst ? 32 : 16));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 7));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_ADDR));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R2, FP_ADDR + 8));
	} else {
		/* r1 = saddr or daddr; r3 = ttl; the rest of the union 0 */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, dst ? 16 : 12));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 8));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_ADDR, 0));
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_ADDR + 8, 0));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP_ADDR));
	}
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R3, FP_TTL));
	/* "TTL as seen before forwarding": if xt_out(par) && (!skb->sk ||
	 * !net_eq(net, sock_net(skb->sk))) ttl++ (u8) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_HAS_OUT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_ttl);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_sk, l_inc);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, R9, env->off.sk_net);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(net_addr)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_ttl);
	codegen_label_bind(p, l_inc);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_TTL));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xff));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_TTL));
	codegen_label_bind(p, l_ttl);
}

/* 5. r4 = laundered index of the entry of the address; none: goto @l_nf */
static void emit_lookup(struct codegen_prog *p, const struct expr_xt *x,
			uint32_t n, uint32_t l_nf, uint32_t l_unlock)
{
	uint32_t l_loop = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t l_found = codegen_label_new(p);
	uint8_t fam = x->family;

	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_label_bind(p, l_loop);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, n, 0), l_nf);
	emit_ent(p, R3, R4);
	/* e->family == family && e->addr == addr */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R5, R3, E_FAMILY));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R5, fam, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R3, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R10, FP_ADDR));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R5, R0, 0), l_next);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R3, 8));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R10, FP_ADDR + 8));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R5, R0, 0), l_next);
	if (recent_flags(x) & RECENT_TTL) {
		/* ttl == e->ttl || ttl == 0 || e->ttl == 0 */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R10, FP_TTL));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_found);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, E_TTL));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R5, 0, 0), l_found);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R5, R0, 0), l_found);
		codegen_emit_jmp(p, INSN_JA(0), l_next);
	} else {
		codegen_emit_jmp(p, INSN_JA(0), l_found);
	}
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	codegen_label_bind(p, l_found);
	codegen_emit(p, INSN_MOV64_REG(R2, R4));
	emit_launder(p, R2, n, l_unlock);
}

/* recent_entry_init(): a new entry for the address, ret = !invert */
static void emit_insert(struct codegen_prog *p, const struct expr_xt *x,
			uint32_t n, uint32_t l_unlock)
{
	uint32_t l_free = codegen_label_new(p), l_loop = codegen_label_new(p);
	uint32_t l_got = codegen_label_new(p), l_next = codegen_label_new(p);

	/* if table->entries >= ip_list_tot: remove the LRU head */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, H_ENTRIES));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, n, 0), l_free);
	emit_lru_head(p, n, l_unlock);
	emit_ent(p, R3, R4);
	emit_remove(p);
	/* r4 = the first free entry */
	codegen_label_bind(p, l_free);
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_label_bind(p, l_loop);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, n, 0), l_unlock);
	emit_ent(p, R3, R4);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R5, R3, E_FAMILY));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R5, 0, 0), l_got);
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	codegen_label_bind(p, l_got);
	codegen_emit(p, INSN_MOV64_REG(R2, R4));
	emit_launder(p, R2, n, l_unlock);
	emit_ent(p, R3, R4);
	/* addr, family, ttl; stamps[0] = now; nstamps = index = 1 */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_ADDR));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R3, R1, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_ADDR + 8));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R3, R1, 8));
	codegen_emit(p, INSN_ST_MEM(BPF_H, R3, E_FAMILY, x->family));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_TTL));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R3, R1, E_TTL));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_NOW));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R3, R1, E_STAMPS));
	codegen_emit(p, INSN_ST_MEM(BPF_H, R3, E_NSTAMPS, 1));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R3, E_INDEX, 1));
	emit_lru_tail(p);
	/* table->entries++ */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, H_ENTRIES));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, H_ENTRIES));
	emit_ret(p, !x->info[I_INVERT]);
}

/*
 * --rcheck/--update: count the stamps of the entry at r3 not older than
 * FP_TIME; ret = !invert at hit_count of them (with 0: at the first)
 */
static void emit_count(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	uint32_t l_loop = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t l_count = codegen_label_new(p), l_hit = codegen_label_new(p);
	uint32_t l_done = codegen_label_new(p);

	/* r0 = hits = 0; r4 = i = 0 */
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_label_bind(p, l_loop);
	/* if i >= e->nstamps (|| i >= RECENT_STAMPS) goto done */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R5, R3, E_NSTAMPS));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R4, R5, 0), l_done);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, RECENT_STAMPS, 0), l_done);
	/* if seconds && time_after(time, e->stamps[i]) goto next */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_SECONDS));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_count);
	codegen_emit(p, INSN_MOV64_REG(R1, R4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R1, E_STAMPS));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_TIME));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 0, 0), l_next);
	/* if !hit_count || ++hits >= hit_count: hit */
	codegen_label_bind(p, l_count);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_HITS));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_hit);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, 1));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R0, R1, 0), l_hit);
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	codegen_label_bind(p, l_hit);
	emit_ret(p, !x->info[I_INVERT]);
	codegen_label_bind(p, l_done);
}

/* --reap: recent_entry_reap(t, time, e, update && ret) */
static void emit_reap(struct codegen_prog *p, const struct expr_xt *x,
		      uint32_t n, uint32_t l_unlock)
{
	uint32_t l_check = codegen_label_new(p), l_done = codegen_label_new(p);

	emit_lru_head(p, n, l_unlock);
	if (recent_flags(x) & RECENT_UPDATE) {
		/* the head is e and e is about to be updated: keep it */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_RET));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_check);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_E));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R4, R1, 0), l_done);
	}
	codegen_label_bind(p, l_check);
	/* if time_after(time, h->stamps[h->index - 1]): remove h */
	emit_ent(p, R3, R4);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R3, E_INDEX));
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, RECENT_STAMPS - 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R1, E_STAMPS));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_TIME));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSGE, R1, 0, 0), l_done);
	emit_remove(p);
	codegen_label_bind(p, l_done);
}

/* recent_entry_update() of the entry of index FP_E; e->ttl = ttl */
static void emit_update(struct codegen_prog *p, uint32_t n, uint32_t l_unlock)
{
	uint32_t l_keep = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R10, FP_E));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R4, n, 0), l_unlock);
	emit_ent(p, R3, R4);
	/* r1 = e->index & t->nstamps_max_mask; e->stamps[r1] = now */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R3, E_INDEX));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, H_NMASK));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, RECENT_STAMPS - 1));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R3));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R10, FP_NOW));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R2, R5, E_STAMPS));
	/* e->index = r1 + 1; if (e->index > e->nstamps) e->nstamps = it */
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 1));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R3, R1, E_INDEX));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R3, E_NSTAMPS));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R1, R2, 0), l_keep);
	codegen_emit(p, INSN_STX_MEM(BPF_H, R3, R1, E_NSTAMPS));
	codegen_label_bind(p, l_keep);
	emit_lru_tail(p);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_TTL));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R3, R1, E_TTL));
}

static void recent_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint8_t flags = recent_flags(x), inv = x->info[I_INVERT] != 0;
	uint32_t n = env->recent_n;
	uint32_t l_table = codegen_label_new(p);
	uint32_t l_nf = codegen_label_new(p), l_unlock = codegen_label_new(p);
	uint32_t l_upd = codegen_label_new(p);
	uint32_t hz;

	if (env->recent_fd < 0 || !n || n > RECENT_ENTRIES_MAX ||
	    !env->jiffy_msecs || 1000 % env->jiffy_msecs) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	hz = 1000 / env->jiffy_msecs;
	emit_addr_ttl(p, x, ec);
	/* 2. FP_NOW = jiffies */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R0, FP_NOW));
	/* 3. r9 = the table (none: hotdrop; the daemon creates it with the
	 * rule, so only a packet racing the table's removal sees this) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_KEY));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, env->recent_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_table);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_table);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* FP_TIME = now - (u32)(seconds * HZ) (unsigned int arithmetic) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_SECONDS));
	codegen_emit(p, INSN_ALU32_IMM(BPF_MUL, R2, hz));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_NOW));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_TIME));
	emit_ret(p, inv);
	/* 4. spin_lock(&t->lock); addr &= t->mask */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_spin_lock));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_ADDR));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R9, H_MASK));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_ADDR));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_ADDR + 8));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R9, H_MASK + 8));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP_ADDR + 8));
	/* 5. e */
	emit_lookup(p, x, n, l_nf, l_unlock);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R4, FP_E));
	emit_ent(p, R3, R4);
	if (flags & RECENT_SET) {
		emit_ret(p, !inv);
		codegen_emit_jmp(p, INSN_JA(0), l_upd);
	} else if (flags & RECENT_REMOVE) {
		emit_remove(p);
		emit_ret(p, !inv);
		codegen_emit_jmp(p, INSN_JA(0), l_unlock);
	} else if (flags & (RECENT_CHECK | RECENT_UPDATE)) {
		emit_count(p, x, ec);
		if (flags & RECENT_REAP)
			emit_reap(p, x, n, l_unlock);
		if (flags & RECENT_UPDATE) {
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_RET));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_upd);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_unlock);
	} else {
		codegen_emit_jmp(p, INSN_JA(0), l_unlock);
	}
	if (flags & (RECENT_SET | RECENT_UPDATE)) {
		codegen_label_bind(p, l_upd);
		emit_update(p, n, l_unlock);
		codegen_emit_jmp(p, INSN_JA(0), l_unlock);
	}
	/* 6. not found: --set inserts, anything else: ret = invert */
	codegen_label_bind(p, l_nf);
	if (flags & RECENT_SET)
		emit_insert(p, x, n, l_unlock);
	/* 7. spin_unlock; if !ret goto break */
	codegen_label_bind(p, l_unlock);
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_spin_unlock));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_RET));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
}

const struct codegen_xt_ops codegen_xt_recent0 = {
	.name = "recent", .rev = 0, .minlen = 212, .check = recent_check,
	.const_size = 16, .consts = recent_consts, .shape = recent_shape,
	.emit = recent_emit,
};

const struct codegen_xt_ops codegen_xt_recent1 = {
	.name = "recent", .rev = 1, .minlen = 228, .check = recent_check,
	.const_size = 16, .consts = recent_consts, .shape = recent_shape,
	.emit = recent_emit,
};
