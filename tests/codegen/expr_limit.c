// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_limit.c - the token bucket by BPF_PROG_TEST_RUN: bursts in packets
 * and bytes, "over", a bucket that outlives unrelated commits, refill, and
 * one bucket shared by two CPUs hammering it at once.
 *
 * Rates are slow (per hour, per day) so that no refill happens within a
 * test's quick sequence of packets: verdicts do not depend on timing. The
 * one refill test only relies on a sleep being at least as long as asked.
 */
#include <inttypes.h>
#include "tests/codegen/model.h"
#include "expr/limit.h"

#define NSEC_PER_SEC	1000000000ull
#define HOUR		(3600 * NSEC_PER_SEC)
#define DAY		(86400 * NSEC_PER_SEC)

TM_FIXTURE(expr_limit, 2 /* ip */, NF_DROP);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* what nfnl/expr/limit.c makes of "limit rate [over] RATE/UNIT burst N packets" */
static struct expr_limit *limit_pkts(struct tm_rb *rb, uint64_t rate,
				     uint64_t nsecs, uint32_t burst, bool over)
{
	struct expr_limit *l = tm_add(rb, EXPR_LIMIT, sizeof(*l));

	l->rate = rate;
	l->nsecs = nsecs;
	l->burst = burst;
	l->cost = nsecs / rate;
	l->tokens_max = l->cost * burst;
	l->invert = over;
	return l;
}

/* ... "limit rate [over] RATE bytes/UNIT burst N bytes" */
static struct expr_limit *limit_bytes(struct tm_rb *rb, uint64_t rate,
				      uint64_t nsecs, uint32_t burst, bool over)
{
	struct expr_limit *l = tm_add(rb, EXPR_LIMIT, sizeof(*l));

	l->rate = rate;
	l->nsecs = nsecs;
	l->burst = burst;
	l->bytes = true;
	l->tokens_max = nsecs * (rate + burst) / rate;
	l->invert = over;
	return l;
}

/* limit ... accept, in a chain whose policy drops */
static struct rule *accept_rule(struct tm_rb *rb)
{
	tm_verdict(rb, NF_ACCEPT, NULL);
	return tm_rule(base, rb);
}

Test(expr_limit, burst_of_packets_then_over)
{
	struct tm_rb rb = { 0 };
	int i;

	limit_pkts(&rb, 1, HOUR, 5, false);
	accept_rule(&rb);
	tm_commit_ok(&net);
	for (i = 0; i < 5; i++)
		cr_assert_eq(run(), NF_ACCEPT, "packet %d is within the burst", i + 1);
	cr_assert_eq(run(), NF_DROP, "packet 6 is over the limit");
	cr_assert_eq(run(), NF_DROP, "and stays over");
}

Test(expr_limit, over_matches_past_the_burst)
{
	struct tm_rb rb = { 0 };

	base->base->policy = NF_ACCEPT;
	limit_pkts(&rb, 1, HOUR, 2, true);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_DROP, "the third packet is over 2 packets");
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_limit, bytes_bucket_is_rate_plus_burst)
{
	struct tm_rb rb = { 0 };
	uint32_t n = 1100 / plen, i;

	/* 1000 bytes/day burst 100 bytes: a bucket of 1100 bytes */
	limit_bytes(&rb, 1000, DAY, 100, false);
	accept_rule(&rb);
	tm_commit_ok(&net);
	for (i = 0; i < n; i++)
		cr_assert_eq(run(), NF_ACCEPT, "packet %u: %u bytes of 1100", i + 1,
			     (i + 1) * plen);
	cr_assert_eq(run(), NF_DROP, "packet %u would make %u bytes", n + 1,
		     (n + 1) * plen);
}

Test(expr_limit, bytes_packet_larger_than_bucket_never_passes)
{
	struct tm_rb rb = { 0 };
	int i;

	/* 10 bytes/day: a 10 byte bucket, the packet costs more */
	limit_bytes(&rb, 10, DAY, 0, false);
	accept_rule(&rb);
	tm_commit_ok(&net);
	for (i = 0; i < 3; i++)
		cr_assert_eq(run(), NF_DROP);
}

Test(expr_limit, bucket_outlives_unrelated_commits)
{
	struct tm_rb rb = { 0 };
	struct chain *other;
	struct rule *r, *again;
	uint32_t slot;

	limit_pkts(&rb, 1, HOUR, 1, false);
	r = accept_rule(&rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_DROP);
	slot = ((struct expr_limit *)expr_priv(r->exprs))->slot;
	cr_assert_neq(slot, 0, "a state slot is assigned at commit");

	/* another rule and another chain: the bucket is left alone */
	other = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
	limit_pkts(&rb, 1, HOUR, 1, false);
	tm_rule(other, &rb);
	tm_counter(&rb);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(((struct expr_limit *)expr_priv(r->exprs))->slot, slot);
	cr_assert_eq(run(), NF_DROP, "still empty after an unrelated commit");

	/* the same rule added again is a new expression: a full bucket */
	tm_rule_del(r);
	limit_pkts(&rb, 1, HOUR, 1, false);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	again = tm_rule_new(base, &rb);
	list_add(&again->list, &base->rules);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT, "a new rule starts with a full bucket");
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_limit, refills_with_time)
{
	struct tm_rb rb = { 0 };

	/* 100/second burst 1: one packet of credit every 10 ms */
	limit_pkts(&rb, 100, NSEC_PER_SEC, 1, false);
	accept_rule(&rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	usleep(20 * 1000);	/* at least two packets' worth */
	cr_assert_eq(run(), NF_ACCEPT, "refilled after 20 ms");
}

Test(expr_limit, shared_by_cpus_exactly_burst_passes)
{
	struct tm_rb rb = { 0 };
	struct expr_counter *c = NULL;
	struct rule *r;
	struct expr *e;
	uint64_t pk, by;

	/* limit rate 1/day burst 50000 packets counter accept */
	limit_pkts(&rb, 1, DAY, 50000, false);
	tm_counter(&rb);
	r = accept_rule(&rb);
	tm_commit_ok(&net);
	/* two CPUs run the same bucket at once: exactly the burst passes */
	tm_run_two_cpus(&net, base, 2, HOOK_OUT, pkt, plen, 100000);
	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			c = expr_priv(e);
	cr_assert_eq(dataplane_counter_read(&net, c->slot, &pk, &by), 0);
	cr_assert_eq(pk, 50000, "%" PRIu64 " of 200000 packets within a burst of 50000",
		     pk);
}
