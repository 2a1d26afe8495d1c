// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale.c - many rules of one shape are map entries (one walker load);
 * many shapes still verify (each shape function once). Prints timings.
 */
#include "tests/codegen/model.h"

#include <time.h>
#include <bpf/libbpf.h>

static struct net net;
static struct table *t;
static struct chain *base;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 2);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

TestSuite(scale, .init = setup, .fini = teardown, .timeout = 120);

Test(scale, ten_thousand_rules_one_shape)
{
	uint8_t pkt[128];
	uint32_t plen = tm_ip4(pkt, 17, 1000, 53, 0);
	struct dp_stats st;
	double t0, t1, t2;
	int i;

	for (i = 0; i < 10000; i++) {
		struct tm_rb rb = { 0 };
		uint8_t a[4] = { 192, 168, i >> 8, i & 0xff };

		tm_payload(&rb, PAYLOAD_NH, 16, 4, 4);
		tm_cmp(&rb, 4, CMP_EQ, a, 4);
		tm_counter(&rb);
		tm_verdict(&rb, NF_DROP, NULL);
		tm_rule(base, &rb);
	}
	t0 = now();
	tm_commit_ok(&net);
	t1 = now();
	dataplane_stats(&net, &st);
	cr_assert_eq(st.shapes, 1);
	cr_assert_eq(st.progs_loaded, 2);
	cr_assert_eq(st.rule_entries, 10000);
	/* 10.0.0.2 walks all 10000 rules to the policy */
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	pkt[16] = 192; pkt[17] = 168; pkt[18] = 9999 >> 8; pkt[19] = 9999 & 0xff;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	/* one more rule: map entries only */
	{
		struct tm_rb rb = { 0 };
		uint8_t a[4] = { 10, 0, 0, 2 };

		tm_payload(&rb, PAYLOAD_NH, 16, 4, 4);
		tm_cmp(&rb, 4, CMP_EQ, a, 4);
		tm_counter(&rb);
		tm_verdict(&rb, NF_DROP, NULL);
		tm_rule(base, &rb);
	}
	tm_commit_ok(&net);
	t2 = now();
	dataplane_stats(&net, &st);
	cr_assert_eq(st.progs_loaded, 2);
	pkt[16] = 10; pkt[17] = 0; pkt[18] = 0; pkt[19] = 2;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	{
		/* a packet that walks all 10001 rules, 100 times */
		uint8_t ctx[48] = { HOOK_OUT, 2 };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
			    .data_size_in = plen, .ctx_in = ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = 100);

		pkt[19] = 3;
		cr_assert_eq(bpf_prog_test_run_opts(offload_chain_prog(&net, base, 2), &o), 0);
		cr_assert_eq(o.retval, NF_ACCEPT);
		fprintf(stderr, "scale: walk of 10001 rules: %u ns per packet (%.1f ns per rule)\n",
			o.duration, o.duration / 10001.0);
	}
	fprintf(stderr, "scale: 10000 rules: first commit %.3f s, +1 rule commit %.3f s\n",
		t1 - t0, t2 - t1);
}

Test(scale, many_shapes_verify)
{
	uint8_t pkt[128];
	uint32_t plen = tm_ip4(pkt, 17, 1000, 53, 0);
	struct dp_stats st;
	double t0, t1;
	int i;

	/* 320 shapes (more than the kernel's 256 functions per program):
	 * payload NH at 64 offsets x 5 lengths */
	for (i = 0; i < 320; i++) {
		struct tm_rb rb = { 0 };
		uint8_t v = 0xee;

		tm_payload(&rb, PAYLOAD_NH, i % 64, 1 + i / 64, 4);
		tm_cmp(&rb, 4, CMP_EQ, &v, 1);
		tm_counter(&rb);
		tm_verdict(&rb, NF_DROP, NULL);
		tm_rule(base, &rb);
	}
	t0 = now();
	tm_commit_ok(&net);
	t1 = now();
	dataplane_stats(&net, &st);
	cr_assert_eq(st.shapes, 320);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	/* every shape is dispatched: the rule at offset i matches */
	for (i = 0; i < (int)plen; i++) {
		uint8_t saved = pkt[i];

		pkt[i] = 0xee;
		cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP,
			     "offset %d", i);
		pkt[i] = saved;
	}
	fprintf(stderr, "scale: 320 shapes: commit %.3f s\n", t1 - t0);
}

/* ip saddr 10.x.y.z tcp dport (1000 + i % 60000) counter drop */
static struct rule *saddr_dport_rule(struct chain *c, uint32_t i)
{
	uint8_t a[4] = { 10, i >> 16, i >> 8, i }, tcp = 6;
	uint16_t port = 1000 + i % 60000;
	uint8_t p[2] = { port >> 8, port & 0xff };
	struct tm_rb rb = { 0 };

	tm_payload(&rb, PAYLOAD_NH, 12, 4, 4);
	tm_cmp(&rb, 4, CMP_EQ, a, 4);
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	return tm_rule(c, &rb);
}

static uint32_t counter_slot(const struct rule *r)
{
	const struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return ((const struct expr_counter *)expr_priv(e))->slot;
	return 0;
}

/* a packet from 10.x.y.z to dport of rule @i */
static uint32_t pkt_of(uint8_t *pkt, uint32_t i)
{
	uint32_t plen = tm_ip4(pkt, 6, 1000, 1000 + i % 60000, 0);

	pkt[12] = 10; pkt[13] = i >> 16; pkt[14] = i >> 8; pkt[15] = i;
	return plen;
}

static void report_mem(const char *when)
{
	uint32_t rc, cc;
	int ncpus = libbpf_num_possible_cpus();

	offload_map_caps(&net, &rc, &cc);
	fprintf(stderr, "scale: maps at %s: rule map %u entries, counter map %u x %d cpus: %.1f MiB\n",
		when, rc, cc, ncpus,
		(rc * (double)sizeof(struct codegen_entry) +
		 cc * (double)sizeof(struct codegen_counter) * ncpus) / (1 << 20));
}

Test(scale, hundred_thousand_rules_grow_the_maps, .timeout = 300)
{
	struct dp_error err = { 0 };
	uint8_t pkt[128];
	uint32_t plen, rc, cc;
	struct dp_stats s0, s1;
	struct rule *r5, *extra;
	uint64_t pk, by;
	double t0, t1, t2;
	int i;

	tm_commit_ok(&net);
	report_mem("0 rules");
	for (i = 0; i < 1000; i++)
		saddr_dport_rule(base, i);
	r5 = list_entry(base->rules.next->next->next->next->next->next,
			struct rule, list);	/* rule 5 */
	tm_commit_ok(&net);
	report_mem("1000 rules");
	dataplane_stats(&net, &s0);
	plen = pkt_of(pkt, 5);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(dataplane_counter_read(&net, counter_slot(r5), &pk, &by), 0);
	cr_assert_eq(pk, 2);

	/* 99000 more: the maps grow (new walker), counters carry over */
	for (; i < 100000; i++)
		saddr_dport_rule(base, i);
	t0 = now();
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ?: "");
	/* before publish, the live walker still counts in the old maps */
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	dataplane_publish(&net);
	tm_flip(&net);
	t1 = now();
	report_mem("100000 rules");
	offload_map_caps(&net, &rc, &cc);
	cr_assert_geq(rc, 100002);
	cr_assert_geq(cc, 100001);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.rule_entries, 100000);
	cr_assert_eq(s1.shapes, s0.shapes);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded + 1, "one walker for the grown maps");
	cr_assert_eq(dataplane_counter_read(&net, counter_slot(r5), &pk, &by), 0);
	cr_assert_eq(pk, 3, "counts of the old counter map kept");
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	plen = pkt_of(pkt, 99999);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	plen = pkt_of(pkt, 100000);	/* no rule: walks all, policy */
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	{
		/* "list": every rule's counter */
		struct rule *r;
		double l0 = now();

		list_for_each_entry(r, &base->rules, list)
			cr_assert_eq(dataplane_counter_read(&net, counter_slot(r),
							    &pk, &by), 0);
		fprintf(stderr, "scale: 100000 rules: counters of all read in %.3f s\n",
			now() - l0);
	}

	/* one more rule into the 100000-rule chain: map entries only */
	extra = saddr_dport_rule(base, 100000);
	t2 = now();
	tm_commit_ok(&net);
	t2 = now() - t2;
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.progs_loaded, s1.progs_loaded, "no program load");
	cr_assert_eq(s0.rule_entries, 100001);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	tm_rule_del(extra);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.progs_loaded, s1.progs_loaded, "no program load");
	cr_assert_eq(s0.rule_entries, 100000);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	fprintf(stderr, "scale: 100000 rules (from 1000): prepare+publish %.3f s, +1 rule commit %.3f s\n",
		t1 - t0, t2);
}

Test(scale, abort_of_a_growth_keeps_the_old_maps)
{
	struct dp_error err = { 0 };
	uint8_t pkt[128];
	uint32_t plen, rc0, cc0, rc, cc;
	struct dp_stats s0, s1;
	struct rule *r, *rn;
	int i;

	for (i = 0; i < 1000; i++)
		saddr_dport_rule(base, i);
	tm_commit_ok(&net);
	offload_map_caps(&net, &rc0, &cc0);
	dataplane_stats(&net, &s0);
	for (; i < 20000; i++)
		saddr_dport_rule(base, i);
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ?: "");
	offload_map_caps(&net, &rc, &cc);
	cr_assert_gt(rc, rc0);
	dataplane_abort(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded + 1, "the walker for the grown maps");
	s0 = s1;
	offload_map_caps(&net, &rc, &cc);
	cr_assert_eq(rc, rc0);
	cr_assert_eq(cc, cc0);
	/* the model drops the batch */
	i = 0;
	list_for_each_entry_safe(r, rn, &base->rules, list)
		if (i++ >= 1000)
			tm_rule_free(r);
	plen = pkt_of(pkt, 999);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	plen = pkt_of(pkt, 1000);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
	/* a rule that fits: no program load; then the growth again */
	saddr_dport_rule(base, 1000);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_eq(s1.rule_entries, 1001);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	for (i = 1001; i < 20000; i++)
		saddr_dport_rule(base, i);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.rule_entries, 20000);
	plen = pkt_of(pkt, 19999);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	plen = pkt_of(pkt, 20000);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
}
