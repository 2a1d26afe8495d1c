// SPDX-License-Identifier: GPL-2.0-only
/*
 * shape.c - a rule's shape (its expressions with the constants lifted out)
 * and its constants. Each expression contributes through its own ops; no
 * code here knows any expression type.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/lookup.h"
#include "expr/objref.h"
#include "expr/dynset.h"

#define CONST_ALIGN(x)	(((x) + 7u) & ~7u)

void codegen_key_put(struct codegen_key *k, const void *v, size_t len)
{
	if (k->err)
		return;
	if (k->len + len > k->cap) {
		size_t ncap = k->cap ? k->cap * 2 : 64;
		uint8_t *n;

		while (ncap < k->len + len)
			ncap *= 2;
		n = realloc(k->b, ncap);
		if (!n) {
			k->err = -ENOMEM;
			return;
		}
		k->b = n;
		k->cap = ncap;
	}
	memcpy(k->b + k->len, v, len);
	k->len += len;
}

static const struct codegen_expr_ops *ops_of(const struct expr *e)
{
	return e->type < __EXPR_MAX ? codegen_expr_ops[e->type] : NULL;
}

bool codegen_expr_reads_ct(const struct expr *e)
{
	const struct codegen_expr_ops *ops = ops_of(e);

	return ops && ops->reads_ct && ops->reads_ct(e);
}

bool codegen_expr_reads_acct(const struct expr *e)
{
	const struct codegen_expr_ops *ops = ops_of(e);

	return ops && ops->reads_acct && ops->reads_acct(e);
}

int codegen_rule_check(const struct rule *rule, struct dp_error *err)
{
	const struct codegen_expr_ops *ops;
	const struct expr *e;
	uint32_t consts = 0;
	int ret;

	rule_for_each_expr(e, rule) {
		ops = ops_of(e);
		if (!ops) {
			err->msg = "unknown expression type";
			return -EOPNOTSUPP;
		}
		ret = ops->check(e, err);
		if (ret)
			return ret;
		consts += CONST_ALIGN(ops->const_size(e));
	}
	if (consts > ENTRY_CONSTS) {
		snprintf(err->buf, sizeof(err->buf),
			 "rule constants need %u bytes, the nfbpf dataplane holds %u per rule",
			 consts, ENTRY_CONSTS);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

int codegen_rule_key(const struct rule *rule, struct codegen_key *k)
{
	const struct expr *e;

	rule_for_each_expr(e, rule) {
		codegen_key_put(k, &e->type, sizeof(e->type));
		ops_of(e)->shape(e, k);
	}
	return k->err;
}

void codegen_rule_consts(const struct rule *rule, struct codegen_entry *ent,
			 const struct codegen_consts_ctx *cc)
{
	const struct expr *e;
	uint32_t off = 0;

	memset(ent->consts, 0, sizeof(ent->consts));
	rule_for_each_expr(e, rule) {
		const struct codegen_expr_ops *ops = ops_of(e);

		ops->consts(e, ent->consts + off, cc);
		off += CONST_ALIGN(ops->const_size(e));
	}
}

void codegen_shape_emit(struct codegen_prog *p, const struct codegen_shape *s,
			const struct codegen_env *env)
{
	struct codegen_expr_ctx ec = { .env = env };
	const struct expr *e;
	uint32_t off = 0;

	ec.l_break = codegen_label_new(p);
	ec.l_done = codegen_label_new(p);

	for (e = s->exprs; (char *)e < (char *)s->exprs + s->dlen; e = expr_next(e)) {
		const struct codegen_expr_ops *ops = ops_of(e);

		ec.cbase = (int16_t)(ENTRY_CONSTS_OFF + off);
		ops->emit(p, e, &ec);
		off += CONST_ALIGN(ops->const_size(e));
	}
	/* done: return 0 */
	codegen_label_bind(p, ec.l_done);
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
	/* break: st->verdict = NFT_BREAK; return 0 (the verifier refuses
	 * unreachable code: only if some expression can break) */
	if (!codegen_label_used(p, ec.l_break))
		return;
	codegen_label_bind(p, ec.l_break);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_BREAK));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
}

/* expressions that point to a set or an object: lookup, objref, dynset */
static void release_one(struct expr *e)
{
	if (e->type == EXPR_LOOKUP)
		codegen_lookup_release(e);
	else if (e->type == EXPR_OBJREF)
		codegen_objref_release(e);
	else if (e->type == EXPR_DYNSET)
		codegen_dynset_release(e);
}

/* detach @e from the model; 0 or -ENOMEM */
static int detach_one(struct expr *e)
{
	if (e->type == EXPR_LOOKUP)
		return codegen_lookup_detach(e);
	if (e->type == EXPR_OBJREF)
		return codegen_objref_detach(e);
	if (e->type == EXPR_DYNSET)
		return codegen_dynset_detach(e);
	return 0;
}

/* @e points to nothing (its detach was not done) */
static void forget_one(struct expr *e)
{
	if (e->type == EXPR_LOOKUP) {
		((struct expr_lookup *)expr_priv(e))->set = NULL;
	} else if (e->type == EXPR_OBJREF) {
		((struct expr_objref *)expr_priv(e))->set = NULL;
		((struct expr_objref *)expr_priv(e))->obj = NULL;
	} else if (e->type == EXPR_DYNSET) {
		((struct expr_dynset *)expr_priv(e))->set = NULL;
	}
}

void codegen_shape_release(struct codegen_shape *s)
{
	struct expr *e;

	for (e = s->exprs; (char *)e < (char *)s->exprs + s->dlen; e = expr_next(e))
		release_one(e);
}

int codegen_shape_detach(struct codegen_shape *s)
{
	struct expr *e, *u;

	for (e = s->exprs; (char *)e < (char *)s->exprs + s->dlen; e = expr_next(e)) {
		if (!detach_one(e))
			continue;
		/* undo the ones done so far; the rest point to nothing */
		for (u = s->exprs; u != e; u = expr_next(u))
			release_one(u);
		for (u = e; (char *)u < (char *)s->exprs + s->dlen;
		     u = expr_next(u))
			forget_one(u);
		return -ENOMEM;
	}
	return 0;
}
