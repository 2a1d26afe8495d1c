// SPDX-License-Identifier: GPL-2.0-only
/*
 * fold.c - runs of same-shape rules as one hash lookup (tuple-space
 * search, DESIGN.md "later tiers").
 *
 * A foldable shape's prefix is pure loads and equality compares of what
 * they loaded. Within a run of rules of that shape whose keys (the compared
 * constants) differ, at most one rule's prefix passes for a given packet,
 * and a failing prefix has no side effect. So the walker may build the
 * packet's key once, ask the fold map which rule has it, evaluate that
 * rule alone (fully, through its shape function) and go on past the run:
 * the same verdict, counters and register state as walking every rule in
 * order. Which rules form runs is offload's business; this file only
 * decides foldability and emits the key builder.
 */
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/cmp.h"
#include "expr/meta.h"
#include "expr/payload.h"

#define REG_BYTES_ALL	(REG_DATA_END * 4)

/**
 * struct fold_step - one expression of a foldable prefix
 * @e: the expression
 * @koff: cmp: offset of its data in the key
 */
struct fold_step {
	const struct expr *e;
	uint32_t koff;
};

/* mark [slot * 4, + len) loaded; false if out of the registers */
static bool mark(uint8_t *loaded, uint8_t slot, uint32_t len)
{
	if ((uint32_t)slot * 4 + len > REG_BYTES_ALL)
		return false;
	memset(loaded + slot * 4, 1, len);
	return true;
}

static bool all_loaded(const uint8_t *loaded, uint8_t slot, uint32_t len)
{
	uint32_t i;

	if ((uint32_t)slot * 4 + len > REG_BYTES_ALL)
		return false;
	for (i = 0; i < len; i++)
		if (!loaded[slot * 4 + i])
			return false;
	return true;
}

/*
 * the foldable prefix of the expressions [@exprs, + @dlen): steps into
 * @st (up to @max), key bytes into *@klen. Depends on the shape only.
 * Return: number of steps, 0 if the shape does not fold.
 */
/*
 * a meta key the walker computed once per packet (struct codegen_pkt): the
 * same value for every rule, no side effect (not prandom, not a clock)
 */
static bool meta_plain(uint32_t key)
{
	/* NFT_META_ (uapi): LEN, PROTOCOL, PRIORITY, MARK, IIF, OIF, IIFNAME,
	 * OIFNAME, IIFTYPE, OIFTYPE (0-9), NFPROTO (15), L4PROTO (16),
	 * PKTTYPE (19) */
	static const uint32_t plain = 0x3ffu | 1u << 15 | 1u << 16 | 1u << 19;

	return key < 32 && (plain & (1u << key));
}

/* a payload load the fold function reads from the packet byte cache */
static bool payload_cached(const struct expr_payload *pl)
{
	if (pl->is_set)
		return false;
	if (pl->base == PAYLOAD_NH)
		return pl->offset + pl->len <= PKT_NHC;
	if (pl->base == PAYLOAD_TH)
		return pl->offset + pl->len <= PKT_THC;
	return false;
}

/*
 * may a rule after the prefix do this? Nothing that changes the packet,
 * its metadata or a set (a member that matched could change what later
 * members of its run would see: folding skips them)
 */
static bool rest_ok(const struct expr *e)
{
	const struct expr_payload *pl = expr_priv(e);
	const struct expr_meta *m = expr_priv(e);

	switch (e->type) {
	case EXPR_CMP: case EXPR_COUNTER: case EXPR_IMMEDIATE:
	case EXPR_BITWISE: case EXPR_BYTEORDER: case EXPR_RANGE:
	case EXPR_LOOKUP:
		return true;
	case EXPR_PAYLOAD:
		return !pl->is_set;
	case EXPR_META:
		return !m->is_set;
	}
	return false;
}

static uint32_t fold_prefix(const struct expr *exprs, uint32_t dlen,
			    struct fold_step *st, uint32_t max, uint32_t *klen)
{
	uint8_t loaded[REG_BYTES_ALL] = { 0 };
	const struct expr *e;
	uint32_t n = 0, ncmp = 0, k = 0;

	for (e = exprs; (const char *)e < (const char *)exprs + dlen && n < max;
	     e = expr_next(e)) {
		if (e->type == EXPR_PAYLOAD) {
			const struct expr_payload *pl = expr_priv(e);

			if (!payload_cached(pl) || !mark(loaded, pl->dreg, pl->len))
				break;
		} else if (e->type == EXPR_META) {
			const struct expr_meta *m = expr_priv(e);

			if (m->is_set || !meta_plain(m->key) ||
			    !mark(loaded, m->dreg, m->len))
				break;
		} else if (e->type == EXPR_CMP) {
			const struct expr_cmp *c = expr_priv(e);
			uint32_t w = (c->data.len + 3) & ~3u;

			if (c->op != CMP_EQ || !c->data.len ||
			    !all_loaded(loaded, c->sreg, c->data.len) ||
			    k + w > FOLD_KEY_MAX)
				break;
			st[n].koff = k;
			k += w;
			ncmp++;
		} else {
			break;
		}
		st[n++].e = e;
	}
	/* loads after the last compare are not part of the prefix */
	while (n && st[n - 1].e->type != EXPR_CMP)
		n--;
	*klen = k;
	if (!ncmp)
		return 0;
	/* what follows the prefix must leave the packet alone */
	for (e = exprs; (const char *)e < (const char *)exprs + dlen;
	     e = expr_next(e))
		if (!rest_ok(e))
			return 0;
	return n;
}

#define FOLD_STEPS_MAX	32

bool codegen_shape_foldable(const struct codegen_shape *s)
{
	struct fold_step st[FOLD_STEPS_MAX];
	uint32_t klen;

	return fold_prefix(s->exprs, s->dlen, st, FOLD_STEPS_MAX, &klen) > 0;
}

bool codegen_rule_fold_key(const struct rule *rule, uint8_t key[FOLD_KEY_MAX])
{
	struct fold_step st[FOLD_STEPS_MAX];
	uint32_t klen, n, i;

	memset(key, 0, FOLD_KEY_MAX);
	n = fold_prefix(rule->exprs, rule->dlen, st, FOLD_STEPS_MAX, &klen);
	for (i = 0; i < n; i++) {
		const struct expr_cmp *c = expr_priv(st[i].e);

		if (st[i].e->type == EXPR_CMP)
			memcpy(key + st[i].koff, c->data.v, c->data.len);
	}
	return n > 0;
}

/*
 * regs[dreg, + len) = the payload bytes, from the packet byte cache (as
 * payload.c: no transport header or a later fragment: @l_none; bytes the
 * cache does not hold (a short packet): @l_walk)
 */
static void emit_cached_load(struct codegen_prog *p,
			     const struct expr_payload *pl, uint32_t l_none,
			     uint32_t l_walk)
{
	int16_t len_off = PKT_OFF(nhc_len), cache = ST_NHC_OFF;

	if (pl->base == PAYLOAD_TH) {
		/* if !(pkt.flags & L4PROTO) || pkt.fragoff goto none */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_none);
		/* a later fragment: none match, unless the kernel's fast
		 * path would read the load anyway (payload.c): then walk */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0),
				 payload_kernel_fast(pl) ? l_walk : l_none);
		len_off = PKT_OFF(thc_len);
		cache = ST_THC_OFF;
	}
	/* if cached bytes < offset + len goto walk */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, len_off));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, pl->offset + pl->len, 0),
			 l_walk);
	/* regs[dreg..] = cache[offset, + len) */
	codegen_emit_copy_to_reg(p, pl->dreg, R6, (int16_t)(cache + pl->offset),
				 pl->len);
}

void codegen_fold_emit(struct codegen_prog *p, const struct codegen_shape *s,
		       const struct codegen_env *env)
{
	struct codegen_expr_ctx ec = { .env = env, .cbase = ENTRY_CONSTS_OFF };
	struct fold_step st[FOLD_STEPS_MAX];
	uint32_t klen, n, i, off, l_walk;

	n = fold_prefix(s->exprs, s->dlen, st, FOLD_STEPS_MAX, &klen);
	ec.l_break = codegen_label_new(p);
	ec.l_done = ec.l_break;
	l_walk = codegen_label_new(p);
	if (!n) {
		/* not foldable (never asked): -1 = walk the run rule by rule */
		codegen_emit(p, INSN_MOV64_IMM(R0, -1));
		codegen_emit(p, INSN_EXIT());
		return;
	}
	/* key = 0 */
	for (off = 0; off < sizeof(struct codegen_fold_key); off += 4)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FOLD_KEY_FP + off, 0));
	for (i = 0; i < n; i++) {
		const struct expr *e = st[i].e;
		const struct expr_cmp *c = expr_priv(e);

		if (e->type == EXPR_PAYLOAD) {
			emit_cached_load(p, expr_priv(e), ec.l_break, l_walk);
			continue;
		}
		if (e->type != EXPR_CMP) {
			/* a plain meta key, breaking to "no rule of the run" */
			codegen_expr_ops[e->type]->emit(p, e, &ec);
			continue;
		}
		/* key[koff, + len) = regs[sreg, + len) */
		codegen_emit_copy(p, R10, FOLD_KEY_FP + 4 + st[i].koff, R6,
				  REG_OFF(c->sreg), c->data.len, R1);
	}
	/* key.run = head->consts[RUN]; r0 = fold_map[key] */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ENTRY_CONSTS_OFF + FOLD_CONST_RUN));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FOLD_KEY_FP));
	codegen_emit_ld_map(p, R1, env->fold_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FOLD_KEY_FP));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	/* if !r0 goto none; return *(u32 *)r0 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), ec.l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R0, R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* none: return 0 */
	codegen_label_bind(p, ec.l_break);
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* bytes beyond a short packet's cache: return -1, rule by rule */
	if (!codegen_label_used(p, l_walk))
		return;
	codegen_label_bind(p, l_walk);
	codegen_emit(p, INSN_MOV64_IMM(R0, -1));
	codegen_emit(p, INSN_EXIT());
}
