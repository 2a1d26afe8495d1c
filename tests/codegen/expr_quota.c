// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_quota.c - byte quotas by BPF_PROG_TEST_RUN: the packet that reaches
 * the quota exactly is still under it, the next byte is over, "over" inverts, the consumed bytes start at
 * NFTA_QUOTA_CONSUMED, keep counting past the quota, read back live, and
 * survive unrelated commits and the growth of the state map; two CPUs
 * add to one count without losing a packet.
 */
#include "tests/codegen/model.h"
#include "expr/quota.h"

TM_FIXTURE(expr_quota, 2 /* ip */, NF_DROP);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

static struct expr_quota *quota(struct tm_rb *rb, uint64_t bytes,
				uint64_t used, bool over)
{
	struct expr_quota *q = tm_add(rb, EXPR_QUOTA, sizeof(*q));

	q->quota = bytes;
	q->consumed = used;
	q->invert = over;
	return q;
}

static uint64_t consumed(struct rule *r)
{
	const struct expr_quota *q = expr_priv(r->exprs);
	uint64_t v = UINT64_MAX;

	cr_assert_eq(dataplane_state_read(&net, q->slot, &v), 0);
	return v;
}

Test(expr_quota, reaching_the_quota_exactly_is_still_under)
{
	struct tm_rb rb = { 0 };
	struct rule *r;

	/* quota 3 packets' bytes accept; policy drop */
	quota(&rb, 3 * plen, 0, false);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(consumed(r), 2 * plen);
	cr_assert_eq(run(), NF_ACCEPT, "consumed == quota: not over (Linux 6.16)");
	cr_assert_eq(run(), NF_DROP, "past the quota");
	cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(consumed(r), 5 * plen, "every packet counts, over or not");
}

Test(expr_quota, one_byte_past_is_over)
{
	struct tm_rb rb = { 0 };

	quota(&rb, 2 * plen - 1, 0, false);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_DROP, "%u of %u bytes", 2 * plen, 2 * plen - 1);
}

Test(expr_quota, over_matches_once_used_up)
{
	struct tm_rb rb = { 0 };

	/* quota over 2 packets' bytes drop; policy accept */
	base->base->policy = NF_ACCEPT;
	quota(&rb, 2 * plen, 0, true);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT, "reached, not over");
	cr_assert_eq(run(), NF_DROP, "over");
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_quota, starts_from_used_bytes)
{
	struct tm_rb rb = { 0 };
	struct rule *r;

	/* quota 1000 bytes used (1000 - plen) bytes: the first packet uses
	 * it up, the second is over */
	quota(&rb, 1000, 1000 - plen, false);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(consumed(r), 1000 - plen);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(consumed(r), 1000);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_quota, zero_quota_is_over_from_the_start)
{
	struct tm_rb rb = { 0 };

	quota(&rb, 0, 0, false);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_quota, consumed_outlives_unrelated_commits)
{
	struct tm_rb rb = { 0 };
	struct rule *r, *r2;
	uint64_t v;

	quota(&rb, 100 * plen, 0, false);
	r = tm_rule(base, &rb);
	quota(&rb, 100 * plen, 0, false);
	r2 = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_neq(((struct expr_quota *)expr_priv(r->exprs))->slot,
		      ((struct expr_quota *)expr_priv(r2->exprs))->slot,
		      "one slot per expression");
	run();
	run();
	cr_assert_eq(consumed(r), 2 * plen);
	cr_assert_eq(consumed(r2), 2 * plen);
	/* add a rule, delete another: the survivor keeps its count */
	tm_rule_del(r2);
	quota(&rb, 5, 0, false);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(consumed(r), 2 * plen);
	run();
	cr_assert_eq(consumed(r), 3 * plen);
	cr_assert_eq(dataplane_state_read(&net, 0, &v), -ENOENT);
	cr_assert_eq(dataplane_state_read(&net, 60000, &v), -ENOENT);
}

Test(expr_quota, state_map_growth_keeps_the_counts, .timeout = 120)
{
	struct chain *user = tm_chain(t, "user", -1, 0, 0);
	struct tm_rb rb = { 0 };
	struct rule *r, *last = NULL;
	struct dp_error err;
	uint32_t i;

	quota(&rb, 1000000, 0, false);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	run();
	/* 5000 more quota rules: more slots than the state map starts with */
	for (i = 0; i < 5000; i++) {
		quota(&rb, 1000000, 7, false);
		last = tm_rule(user, &rb);
	}
	/* a packet between prepare (the copy) and publish counts in the old
	 * map; publish carries it over */
	memset(&err, 0, sizeof(err));
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	run();
	cr_assert_eq(consumed(r), 3 * plen, "read from the map packets use");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_gt(((struct expr_quota *)expr_priv(last->exprs))->slot, 4096,
		     "a slot past the first state map");
	cr_assert_eq(consumed(r), 3 * plen, "carried into the grown map");
	cr_assert_eq(consumed(last), 7, "a new slot starts from its used bytes");
	run();
	cr_assert_eq(consumed(r), 4 * plen, "packets count in the grown map");
}

Test(expr_quota, shared_by_cpus_no_byte_lost)
{
	struct tm_rb rb = { 0 };
	struct rule *r;

	quota(&rb, INT64_MAX, 0, false);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	tm_run_two_cpus(&net, base, 2, HOOK_OUT, pkt, plen, 100000);
	cr_assert_eq(consumed(r), 200000ull * plen);
}
