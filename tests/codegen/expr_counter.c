// SPDX-License-Identifier: GPL-2.0-only
/* expr_counter.c - per-CPU counters: slots, initial values, read back. */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_counter, 2, NF_ACCEPT);

static struct expr_counter *counter_of(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return expr_priv(e);
	return NULL;
}

Test(expr_counter, counts_matches_only_and_adds_initial)
{
	uint8_t udp = 17, tcp = 6;
	struct tm_rb rb = { 0 };
	struct expr_counter *c;
	struct rule *ru, *rt;
	uint64_t pk, by;
	int i;

	tm_meta(&rb, 16 /* l4proto */, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	c = tm_counter(&rb);
	c->packets = 100;
	c->bytes = 1000;
	ru = tm_rule(base, &rb);
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &tcp, 1);
	tm_counter(&rb);
	rt = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_neq(counter_of(ru)->slot, 0, "slot assigned at prepare");
	cr_assert_neq(counter_of(ru)->slot, counter_of(rt)->slot);
	for (i = 0; i < 3; i++)
		cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(ru)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 103);
	cr_assert_eq(by, 1000 + 3 * plen);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(rt)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 0);
	cr_assert_eq(by, 0);
	cr_assert_eq(dataplane_counter_read(&net, 60000, &pk, &by), -ENOENT);
}

Test(expr_counter, counter_after_verdict_not_reached)
{
	struct tm_rb rb = { 0 };
	struct rule *r;
	uint64_t pk, by;

	tm_counter(&rb);
	tm_verdict(&rb, NFT_CONTINUE, NULL);
	tm_counter(&rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_counter(&rb);	/* after accept: not evaluated */
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	{
		struct expr *e;
		int i = 0;
		uint64_t want[3] = { 1, 1, 0 };

		rule_for_each_expr(e, r) {
			if (e->type != EXPR_COUNTER)
				continue;
			cr_assert_eq(dataplane_counter_read(&net,
				((struct expr_counter *)expr_priv(e))->slot, &pk, &by), 0);
			cr_assert_eq(pk, want[i], "counter %d", i);
			i++;
		}
	}
}
