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

			if (pl->is_set || pl->base > PAYLOAD_TH ||
			    !mark(loaded, pl->dreg, pl->len))
				break;
		} else if (e->type == EXPR_META) {
			const struct expr_meta *m = expr_priv(e);

			if (m->is_set || !mark(loaded, m->dreg, m->len))
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
	return ncmp ? n : 0;
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

void codegen_fold_emit(struct codegen_prog *p, const struct codegen_shape *s,
		       const struct codegen_env *env)
{
	struct codegen_expr_ctx ec = { .env = env, .cbase = ENTRY_CONSTS_OFF };
	struct fold_step st[FOLD_STEPS_MAX];
	uint32_t klen, n, i, off;

	n = fold_prefix(s->exprs, s->dlen, st, FOLD_STEPS_MAX, &klen);
	ec.l_break = codegen_label_new(p);
	ec.l_done = ec.l_break;
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
		uint32_t done = 0;

		if (e->type != EXPR_CMP) {
			/* the load itself, breaking to "no rule of the run" */
			codegen_expr_ops[e->type]->emit(p, e, &ec);
			continue;
		}
		/* key[koff, + len) = regs[sreg, + len) */
		while (done < c->data.len) {
			uint32_t rest = c->data.len - done;
			int size = rest >= 4 ? BPF_W : rest >= 2 ? BPF_H : BPF_B;

			codegen_emit(p, INSN_LDX_MEM(size, R1, R6,
						     REG_OFF(c->sreg) + done));
			codegen_emit(p, INSN_STX_MEM(size, R10, R1,
						     FOLD_KEY_FP + 4 + st[i].koff + done));
			done += rest >= 4 ? 4 : rest >= 2 ? 2 : 1;
		}
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
}
