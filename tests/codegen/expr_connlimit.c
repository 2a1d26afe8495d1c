// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_connlimit.c - "ct count" by BPF_PROG_TEST_RUN, and its refusal on
 * the elements a dynset adds (a counter there passes the same check).
 *
 * Test runs carry no conntrack: the list takes the tuple of the headers
 * (nf_ct_get_tuplepr()), so after the packet's own add the count is at
 * least 1 whatever the garbage collection did (it runs at most once a
 * jiffy): "over 0" always matches, "0" never does. A non-first fragment
 * has no tuple: the kernel's -ENOENT is NF_DROP, whatever the policy.
 * Counts of real connections are compared with the kernel's by
 * tests/dataplane (c13, c16).
 */
#include <errno.h>
#include <string.h>
#include "tests/codegen/model.h"
#include "expr/connlimit.h"
#include "expr/counter.h"
#include "expr/dynset.h"

TM_FIXTURE(expr_connlimit, 2 /* ip */, NF_DROP);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* "ct count [over] N accept" */
static void connlimit_rule(uint32_t limit, bool over)
{
	struct tm_rb rb = { 0 };
	struct expr_connlimit *c = tm_add(&rb, EXPR_CONNLIMIT, sizeof(*c));

	c->limit = limit;
	c->invert = over;
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
}

Test(expr_connlimit, over_0_matches_every_packet)
{
	int i;

	connlimit_rule(0, true);
	tm_commit_ok(&net);
	for (i = 0; i < 4; i++)
		cr_assert_eq(run(), NF_ACCEPT, "packet %d counts itself", i + 1);
}

Test(expr_connlimit, count_0_matches_no_packet)
{
	int i;

	connlimit_rule(0, false);
	tm_commit_ok(&net);
	for (i = 0; i < 3; i++)
		cr_assert_eq(run(), NF_DROP, "packet %d: a count of 1 is over 0", i + 1);
}

Test(expr_connlimit, large_limit_matches)
{
	connlimit_rule(1000, false);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
}

Test(expr_connlimit, non_first_fragment_is_dropped)
{
	base->base->policy = NF_ACCEPT;
	connlimit_rule(1000, false);
	tm_commit_ok(&net);
	plen = tm_ip4(pkt, 17, 1000, 53, 100);
	cr_assert_eq(run(), NF_DROP, "no tuple: NF_DROP, not the policy");
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
	cr_assert_eq(run(), NF_ACCEPT);
}

#define REFUSAL "ct count on elements the packet path adds"

/* a record of @type with @priv bytes at @at */
static struct expr *rec(void *at, enum expr_type type, size_t priv)
{
	struct expr *x = at;

	memset(x, 0, EXPR_SIZE(priv));
	x->type = type;
	x->size = EXPR_SIZE(priv);
	return x;
}

Test(expr_connlimit, dynset_element_connlimit_is_refused_counter_is_not)
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
	cr_assert_lt(strlen(err.msg), 159, "fits an extended ack");
}
