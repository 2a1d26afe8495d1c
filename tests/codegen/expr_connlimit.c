// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_connlimit.c - "ct count" is refused by the dataplane with its reason,
 * in a rule and on the elements a dynset adds, while the same dynset with a
 * counter instead passes the check (so the refusal is the connlimit's).
 */
#include <errno.h>
#include <string.h>
#include <criterion/criterion.h>

#include "codegen/codegen.h"
#include "ruleset.h"
#include "expr/connlimit.h"
#include "expr/counter.h"
#include "expr/dynset.h"

#define REFUSAL "ct count (connlimit) is not supported by the nfbpf dataplane yet"

/* a record of @type with @priv bytes at @at */
static struct expr *rec(void *at, enum expr_type type, size_t priv)
{
	struct expr *x = at;

	memset(x, 0, EXPR_SIZE(priv));
	x->type = type;
	x->size = EXPR_SIZE(priv);
	return x;
}

Test(codegen_connlimit, rule_is_refused_with_its_reason)
{
	uint64_t buf[8];
	struct expr *e = rec(buf, EXPR_CONNLIMIT, sizeof(struct expr_connlimit));
	struct expr_connlimit *c = expr_priv(e);
	struct dp_error err = { 0 };

	c->limit = 5;
	c->invert = true;
	cr_assert_eq(codegen_expr_ops[EXPR_CONNLIMIT]->check(e, &err), -EOPNOTSUPP);
	cr_assert_not_null(err.msg);
	cr_assert(!strncmp(err.msg, REFUSAL, strlen(REFUSAL)), "%s", err.msg);
	cr_assert_lt(strlen(err.msg), 159, "fits an extended ack");
}

Test(codegen_connlimit, dynset_element_connlimit_is_refused_counter_is_not)
{
	uint64_t buf[64];
	struct expr *e = rec(buf, EXPR_DYNSET, sizeof(struct expr_dynset));
	struct expr_dynset *d = expr_priv(e);
	struct set s = { .klen = 4, .flags = 0x20 /* NFT_SET_EVAL */ };
	struct dp_error err = { 0 };

	d->set = &s;
	d->op = DYNSET_OP_ADD;
	d->sreg_key = REG_DATA_FIRST;
	rec(d->exprs, EXPR_COUNTER, sizeof(struct expr_counter));
	d->exprs_len = EXPR_SIZE(sizeof(struct expr_counter));
	d->nexprs = 1;
	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), 0, "%s",
		     err.msg ? err.msg : "");
	((struct expr_connlimit *)expr_priv(rec(d->exprs, EXPR_CONNLIMIT,
		sizeof(struct expr_connlimit))))->limit = 20;
	d->exprs_len = EXPR_SIZE(sizeof(struct expr_connlimit));
	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), -EOPNOTSUPP);
	cr_assert(!strncmp(err.msg, REFUSAL, strlen(REFUSAL)), "%s", err.msg);
}
