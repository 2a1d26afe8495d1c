// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_numgen.c - numgen random by test run: values stay in [offset,
 * offset + modulus) and all of them occur; numgen inc counts round robin.
 */
#include "tests/codegen/model.h"
#include "expr/numgen.h"

TM_FIXTURE(expr_numgen, 1 /* inet */, NF_ACCEPT);

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

Test(expr_numgen, inc_counts_round_robin_from_offset)
{
	/* numgen inc mod 3 offset 7 vmap { 7 : drop, 8 : accept, 9 : accept }:
	 * the kernel's counter starts at modulus - 1, so the first packet gets
	 * 7 (dropped), then 8, 9, 7, ... */
	struct set *m = tm_map(t, "vm", 0, 4, TM_VERDICT, 0);
	uint32_t k[3] = { 7, 8, 9 };
	struct tm_rb rb = { 0 };
	int i;

	tm_elem_verdict(tm_elem(m, &k[0], 4, 0), NF_DROP, NULL);
	tm_elem_verdict(tm_elem(m, &k[1], 4, 0), NF_ACCEPT, NULL);
	tm_elem_verdict(tm_elem(m, &k[2], 4, 0), NF_ACCEPT, NULL);
	numgen(&rb, NUMGEN_INC, 3, 7);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < 12; i++)
		cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen),
			     i % 3 ? NF_ACCEPT : NF_DROP, "packet %d", i);
	/* an unrelated commit keeps the counter where it is */
	numgen(&rb, NUMGEN_RANDOM, 1, 0);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP, "13th");
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT, "14th");
}
