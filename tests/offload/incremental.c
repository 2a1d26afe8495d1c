// SPDX-License-Identifier: GPL-2.0-only
/*
 * incremental.c - a batch that only adds and deletes rules is prepared
 * from those rules' records (dataplane_prepare_delta()): no program is
 * loaded for a known shape, the prepare is counted as incremental, and
 * verdicts stay those of walking the model's rules in order, across
 * inserts at any position, deletes, and batches of both.
 */
#include "tests/codegen/model.h"
#include "offload/offload.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[128];
static uint32_t plen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 2 /* ip */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(incremental, .init = setup, .fini = teardown, .timeout = 120);

/* udp dport @port counter @verdict, not linked into a chain yet */
static struct rule *dport_new(uint16_t port, int verdict)
{
	uint8_t p[2] = { port >> 8, port & 0xff }, udp = 17;
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, verdict, NULL);
	return tm_rule_new(base, &rb);
}

/* the control plane's commit of a batch that changes @rules only */
static void commit_delta(struct rule **rules, uint32_t n)
{
	struct dp_delta d = { .rules = rules, .nrules = n };
	struct dp_error err = { 0 };
	int ret = dataplane_prepare_delta(&net, &d, &err);

	cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
}

static int verdict_for(uint16_t port)
{
	pkt[22] = port >> 8;
	pkt[23] = port & 0xff;
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* first match in the model's order, as nf_tables walks it; policy accept */
static int expected_for(uint16_t port)
{
	struct rule *r;

	list_for_each_entry(r, &base->rules, list) {
		const struct expr *e;

		rule_for_each_expr(e, r) {
			const struct expr_cmp *c = expr_priv(e);
			const struct expr_immediate *im = expr_priv(e);

			if (e->type == EXPR_CMP && c->data.len == 2 &&
			    (c->data.v[0] << 8 | c->data.v[1]) != port)
				break;
			if (e->type == EXPR_IMMEDIATE)
				return im->verdict.code;
		}
	}
	return NF_ACCEPT;
}

Test(incremental, add_into_10k_chain_loads_no_program)
{
	struct dp_stats s0, s1, s2;
	struct rule *r[2];
	int i;

	for (i = 0; i < 10000; i++)
		list_add_tail(&dport_new(10000 + i, NF_DROP)->list, &base->rules);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.rule_entries, 10000);
	cr_assert_eq(s0.shapes, 1);

	/* the first rule-only batch after a full one still reads the model
	 * (it settles what the full one left); it loads no program either */
	r[0] = dport_new(53, NF_DROP);
	list_add_tail(&r[0]->list, &base->rules);
	commit_delta(r, 1);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded, "no program loaded");
	cr_assert_eq(s1.rule_entries, 10001);
	cr_assert_eq(verdict_for(53), NF_DROP);

	/* a rule of the known shape into the 10k chain: incremental, no load */
	r[1] = dport_new(54, NF_DROP);
	list_add_tail(&r[1]->list, &base->rules);
	commit_delta(&r[1], 1);
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.progs_loaded, s0.progs_loaded, "no program loaded");
	cr_assert_eq(s2.shapes, 1);
	cr_assert_eq(s2.incremental_prepares, s1.incremental_prepares + 1,
		     "prepared from the new rule's record alone");
	cr_assert_eq(s2.rule_entries, 10002);
	cr_assert_eq(verdict_for(54), NF_DROP);
	cr_assert_eq(verdict_for(55), NF_ACCEPT);
	cr_assert_eq(verdict_for(19999), NF_DROP, "the last of the 10k");
}

Test(incremental, insert_first_and_delete_keep_rule_order)
{
	struct dp_stats s0, s1;
	struct rule *r[4];

	r[0] = dport_new(53, NF_DROP);
	list_add_tail(&r[0]->list, &base->rules);
	tm_commit_ok(&net);
	r[1] = dport_new(99, NF_DROP);
	list_add_tail(&r[1]->list, &base->rules);
	commit_delta(&r[1], 1);
	dataplane_stats(&net, &s0);

	/* insert (at the head) an accept of 53: it wins over the drop */
	r[2] = dport_new(53, NF_ACCEPT);
	list_add(&r[2]->list, &base->rules);
	commit_delta(&r[2], 1);
	cr_assert_eq(verdict_for(53), NF_ACCEPT);
	/* delete it and add a drop of 54 behind the 53 drop, one batch */
	tm_rule_del(r[2]);
	r[3] = dport_new(54, NF_DROP);
	list_add(&r[3]->list, &r[0]->list);
	r[1] = r[3];
	r[0] = r[2];
	commit_delta(r, 2);
	cr_assert_eq(verdict_for(53), NF_DROP);
	cr_assert_eq(verdict_for(54), NF_DROP);
	cr_assert_eq(verdict_for(99), NF_DROP);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 2);
	cr_assert_eq(s1.rule_entries, 3);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
}

static uint32_t rnd(void)
{
	static uint32_t seed = 12345;

	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* udp dport 100..131, accept or drop, at random */
static struct rule *random_rule(void)
{
	uint16_t port = 100 + rnd() % 32;

	return dport_new(port, rnd() % 2 ? NF_DROP : NF_ACCEPT);
}

/*
 * random batches of inserts (anywhere) and deletes; after each commit the
 * verdict of every port equals the first match walking the model
 */
Test(incremental, random_batches_match_the_model)
{
	struct rule *batch[16], *r;
	uint32_t n, i, m, k, nrules = 0;
	struct dp_stats s0, s1;
	uint16_t port;

	for (i = 0; i < 64; i++) {
		list_add_tail(&random_rule()->list, &base->rules);
		nrules++;
	}
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	for (k = 0; k < 40; k++) {
		n = 1 + rnd() % 8;
		for (i = m = 0; i < n; i++) {
			uint32_t pos = rnd() % (nrules + 1), j = 0;
			struct list_head *at = &base->rules;

			/* delete a live rule or insert before position pos */
			if (nrules > 8 && rnd() % 3 == 0) {
				list_for_each_entry(r, &base->rules, list)
					if (active(r->genmask, genmask_next(&net)) &&
					    j++ == pos % nrules)
						break;
				if (&r->list == &base->rules ||
				    !active(r->genmask, genmask_cur(&net)))
					continue;
				tm_rule_del(r);
				nrules--;
			} else {
				list_for_each_entry(r, &base->rules, list)
					if (j++ == pos) {
						at = &r->list;
						break;
					}
				r = random_rule();
				list_add_tail(&r->list, at);
				nrules++;
			}
			batch[m++] = r;
		}
		commit_delta(batch, m);
		for (port = 100; port < 132; port++)
			cr_assert_eq(verdict_for(port), expected_for(port),
				     "batch %u, port %u", k, port);
	}
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_geq(s1.incremental_prepares, s0.incremental_prepares + 38);
	cr_assert_eq(s1.rule_entries, nrules);
}

/*
 * a chain loaded after a flush gets dense, ascending entries again (the
 * walker steps through memory in order), not the order in which the
 * flush freed them (the 10k-rule packet regression of the growing map)
 */
Test(incremental, entries_after_a_flush_are_dense_and_ascending)
{
	struct rule *r[3000];
	int64_t first = -1, prev = -1;
	int i;

	for (i = 0; i < 3000; i++) {
		r[i] = dport_new(1000 + i, NF_DROP);
		list_add_tail(&r[i]->list, &base->rules);
	}
	tm_commit_ok(&net);
	for (i = 0; i < 3000; i++)
		tm_rule_del(r[i]);
	tm_commit_ok(&net);
	tm_commit_ok(&net);	/* their entries are free after this publish */
	for (i = 0; i < 2000; i++) {
		r[i] = dport_new(5000 + i, NF_ACCEPT);
		list_add_tail(&r[i]->list, &base->rules);
	}
	tm_commit_ok(&net);
	for (i = 0; i < 2000; i++) {
		int64_t idx = offload_rule_index(&net, r[i]);

		cr_assert_gt(idx, prev, "rule %d: entry %lld after %lld", i,
			     (long long)idx, (long long)prev);
		if (first < 0)
			first = idx;
		prev = idx;
	}
	cr_assert_eq(prev - first, 1999, "dense: %lld..%lld", (long long)first,
		     (long long)prev);
}
