// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale.c - many rules of one shape are map entries (one walker load);
 * many shapes still verify (each shape function once). Prints timings.
 */
#include "tests/codegen/model.h"

#include <time.h>

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
