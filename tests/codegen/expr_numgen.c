// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_numgen.c - numgen random by test run: values stay in [offset,
 * offset + modulus) and all of them occur; numgen inc is refused.
 */
#include "tests/codegen/model.h"
#include "expr/numgen.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[128];
static uint32_t plen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 1 /* inet */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_numgen, .init = setup, .fini = teardown);

static struct expr_numgen *numgen(struct tm_rb *rb, uint32_t type, uint32_t mod,
				  uint32_t off)
{
	struct expr_numgen *n = tm_add(rb, EXPR_NUMGEN, sizeof(*n));

	n->type = type;
	n->dreg = 4;
	n->modulus = mod;
	n->offset = off;
	return n;
}

/* drops among 200 packets of: numgen random mod 4 offset 10 == v drop */
static int drops_at(uint32_t v)
{
	struct tm_rb rb = { 0 };
	struct rule *r;
	int i, n = 0;

	numgen(&rb, NUMGEN_RANDOM, 4, 10);
	tm_cmp(&rb, 4, CMP_EQ, &v, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < 200; i++)
		n += tm_run(&net, base, 2, HOOK_OUT, pkt, plen) == NF_DROP;
	tm_rule_del(r);
	tm_commit_ok(&net);
	return n;
}

Test(expr_numgen, random_covers_its_range_and_nothing_else)
{
	uint32_t v;

	/* each value has p = 1/4: never drawn in 200 tries is p < 1e-24 */
	for (v = 10; v < 14; v++)
		cr_assert_gt(drops_at(v), 0, "value %u never came up", v);
	cr_assert_eq(drops_at(9), 0);
	cr_assert_eq(drops_at(14), 0);
}

Test(expr_numgen, inc_is_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct rule *r;

	numgen(&rb, NUMGEN_INC, 2, 0);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "numgen inc is not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}
