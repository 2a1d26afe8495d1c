// SPDX-License-Identifier: GPL-2.0-only
/*
 * generations.c - rules are data: known shapes load no program, prepared
 * generations stay invisible until publish, abort leaves no trace, base
 * chains attach and detach, refusals carry messages.
 */
#include "tests/codegen/model.h"

TM_FIXTURE(generations, 1, NF_ACCEPT);

static struct expr_counter *counter_of(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return expr_priv(e);
	return NULL;
}

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* udp dport @port @verdict */
static struct rule *dport_rule(uint16_t port, int verdict)
{
	uint8_t p[2] = { port >> 8, port & 0xff }, udp = 17;
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, verdict, NULL);
	return tm_rule(base, &rb);
}

Test(generations, known_shape_is_map_entries_only)
{
	struct dp_stats s0, s1;
	struct rule *r[100];
	int i;

	r[0] = dport_rule(1, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.shapes, 1);
	cr_assert_eq(s0.rule_entries, 1);
	cr_assert_eq(s0.progs_loaded, 3,
		     "inet: a trampoline for pf 2 and for pf 10, one netfilter walker");

	for (i = 1; i < 100; i++)
		r[i] = dport_rule(1000 + i, i % 2 ? NF_DROP : NF_ACCEPT);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded, "no program loaded");
	cr_assert_eq(s1.shapes, 1);
	cr_assert_eq(s1.rule_entries, 100);
	pkt[23] = (1000 + 53) & 0xff;	/* dport 1053: i = 53, odd: drop */
	pkt[22] = (1000 + 53) >> 8;
	cr_assert_eq(run(), NF_DROP);
	pkt[23] = (1000 + 54) & 0xff;	/* i = 54: accept */
	cr_assert_eq(run(), NF_ACCEPT);

	/* delete rule 53: map entries again */
	tm_rule_del(r[53]);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_eq(s1.rule_entries, 99);
	pkt[23] = (1000 + 53) & 0xff;
	cr_assert_eq(run(), NF_ACCEPT);
	/* every packet counted itself out of its generation: no prepare
	 * waited in vain */
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.inflight_timeouts, 0);
}

Test(generations, new_shape_rebuilds_walker)
{
	struct dp_stats s0, s1;
	struct tm_rb rb = { 0 };

	dport_rule(53, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	tm_counter(&rb);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.shapes, 2);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded + 1,
		     "the one netfilter walker reloaded, no trampoline");
	cr_assert_eq(run(), NF_DROP);
}

/* the first walker of a namespace replaces none: its publish waits for no
 * grace period (8-25 ms); a walker that replaces one does */
Test(generations, first_walker_waits_for_no_grace_period)
{
	struct dp_stats s0, s1;
	struct tm_rb rb = { 0 };

	dport_rule(53, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.walker_graces, 0, "%llu", (unsigned long long)s0.walker_graces);
	cr_assert_eq(run(), NF_DROP);
	tm_counter(&rb);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded + 1, "a new walker");
	cr_assert_eq(s1.walker_graces, 1, "it replaced the first one");
	cr_assert_eq(run(), NF_DROP);
}

/*
 * one walker serves every hook point: 20 inet base chains (40 netfilter
 * hook points) cost a trampoline each, and a new shape loads one program;
 * each hook point still runs its own chain (here: its policy)
 */
Test(generations, hook_points_share_one_walker)
{
	struct chain *cs[20];
	struct dp_stats s0, s1;
	struct tm_rb rb = { 0 };
	char name[16];
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		cs[i] = tm_chain(t, name, HOOK_OUT, 10 + i,
				 i % 2 ? NF_DROP : NF_ACCEPT);
	}
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.progs_loaded, 2 * 21 + 1,
		     "a trampoline per hook point, one walker: %llu",
		     (unsigned long long)s0.progs_loaded);
	for (i = 0; i < 20; i++)
		cr_assert_eq(tm_run(&net, cs[i], 2, HOOK_OUT, pkt, plen),
			     i % 2 ? NF_DROP : NF_ACCEPT, "chain c%d", i);
	/* a new shape in one chain: one program */
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(cs[0], &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded + 1);
	cr_assert_eq(tm_run(&net, cs[0], 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(tm_run(&net, cs[2], 10, HOOK_OUT, pkt, plen), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	/* a chain goes: its hook point's trampoline with it, nothing loaded */
	cs[1]->genmask |= genmask_next(&net);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.progs_loaded, s1.progs_loaded);
	cr_assert_eq(offload_chain_prog(&net, cs[1], 2), -ENOENT);
	cr_assert_eq(tm_run(&net, cs[3], 2, HOOK_OUT, pkt, plen), NF_DROP);
}

Test(generations, prepared_is_invisible_until_publish)
{
	struct dp_error err = { 0 };

	dport_rule(53, NF_DROP);
	cr_assert_eq(dataplane_prepare(&net, &err), 0);
	cr_assert_eq(run(), NF_ACCEPT, "chain not live before publish");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(run(), NF_DROP);

	/* second batch: policy accept -> drop, packet no longer matches */
	base->base->policy = NF_DROP;
	pkt[23] = 54;
	cr_assert_eq(dataplane_prepare(&net, &err), 0);
	cr_assert_eq(run(), NF_ACCEPT, "old policy until publish");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(run(), NF_DROP, "new policy after publish");
}

Test(generations, abort_leaves_no_trace)
{
	struct dp_error err = { 0 };
	struct dp_stats s0, s1;
	struct rule *r;

	dport_rule(53, NF_ACCEPT);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	r = dport_rule(53, NF_DROP);
	list_del(&r->list);
	list_add(&r->list, &base->rules);	/* first */
	cr_assert_eq(dataplane_prepare(&net, &err), 0);
	dataplane_abort(&net);
	tm_rule_free(r);
	cr_assert_eq(run(), NF_ACCEPT);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.rule_entries, s0.rule_entries);
	cr_assert_eq(run(), NF_ACCEPT);
}

Test(generations, base_chain_detach)
{
	struct chain *c2;
	int fd;

	tm_commit_ok(&net);
	cr_assert_geq(offload_chain_prog(&net, base, 2), 0);
	/* delete the chain in the next generation */
	base->genmask |= genmask_next(&net);
	tm_commit_ok(&net);
	cr_assert_eq(offload_chain_prog(&net, base, 2), -ENOENT);
	/* a new chain at the same hook and priority can attach again */
	c2 = tm_chain(t, "out2", HOOK_OUT, 0, NF_DROP);
	list_del(&base->list);
	tm_commit_ok(&net);
	fd = offload_chain_prog(&net, c2, 2);
	cr_assert_geq(fd, 0);
	cr_assert_eq(tm_run(&net, c2, 2, HOOK_OUT, pkt, plen), NF_DROP);
}

/* a walker no hook point runs stays: the same shapes at a new base chain
 * load its trampolines only (no verification of the walker again) */
Test(generations, walker_kept_while_no_hook_point_runs_it)
{
	uint8_t p[2] = { 0, 53 }, udp = 17;
	struct dp_stats s0, s1, s2;
	struct tm_rb rb = { 0 };
	struct chain *c2;

	dport_rule(53, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(run(), NF_DROP);
	/* the base chain goes: no hook point left */
	base->genmask |= genmask_next(&net);
	tm_commit_ok(&net);
	cr_assert_eq(offload_chain_prog(&net, base, 2), -ENOENT);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	/* the same rule in a new base chain at the same hook */
	c2 = tm_chain(t, "out2", HOOK_OUT, 0, NF_ACCEPT);
	list_del(&base->list);
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(c2, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.progs_loaded, s1.progs_loaded + 2,
		     "%llu programs loaded: the trampolines for pf 2 and 10, no walker",
		     (unsigned long long)(s2.progs_loaded - s1.progs_loaded));
	cr_assert_eq(tm_run(&net, c2, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(s2.walker_graces, s0.walker_graces);
}

Test(generations, chains_sharing_a_hook_point_run_in_order)
{
	struct table *t2 = tm_table(&net, "t2", 2 /* ip */);
	struct chain *b2 = tm_chain(t2, "out", HOOK_OUT, 0, NF_ACCEPT);
	struct tm_rb rb = { 0 };
	struct rule *r, *r1;
	uint64_t pk, by;

	/* inet t out (prio 0) registered first, ip t2 out (prio 0) second:
	 * one link for pf 2, and as nf_hook_entries_grow() inserts a new hook
	 * before those of equal priority, t2 runs first */
	tm_counter(&rb);
	r = tm_rule(b2, &rb);
	tm_counter(&rb);
	r1 = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(offload_chain_prog(&net, base, 2),
		     offload_chain_prog(&net, b2, 2));
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(r)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(r1)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1, "the older chain ran after the newer one accepted");

	/* the newer chain drops: the older one is not consulted */
	b2->base->policy = NF_DROP;
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(r)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 2);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(r1)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1, "the older chain did not run");

	/* the older chain drops, the newer accepts: dropped, both ran */
	b2->base->policy = NF_ACCEPT;
	base->base->policy = NF_DROP;
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(dataplane_counter_read(&net, counter_of(r1)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 2);
	/* IPv6 only sees the inet chain */
	{
		uint8_t p6[48] = { 0x60, 0, 0, 0, 0, 8, 17, 64 };

		base->base->policy = NF_ACCEPT;
		tm_commit_ok(&net);
		cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, p6, 48), NF_ACCEPT);
	}
}

Test(generations, chain_check_refusals)
{
	struct dp_error err = { 0 };
	struct table nt = { .family = 12 /* decnet */ };
	struct table nb = { .family = 7 /* bridge */ };
	struct chain *c = tm_chain(t, "nat", HOOK_PRE, 0, NF_ACCEPT);

	list_del(&c->list);
	strcpy(c->base->type, "nat");
	cr_assert_eq(dataplane_chain_check(t, c, &err), 0, "nat chains run");
	strcpy(c->base->type, "xyz");
	cr_assert_eq(dataplane_chain_check(t, c, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "chain type 'xyz' is not supported by the nfbpf dataplane yet");
	strcpy(c->base->type, "route");
	cr_assert_eq(dataplane_chain_check(t, c, &err), -EOPNOTSUPP);
	c->base->hooknum = HOOK_OUT;
	cr_assert_eq(dataplane_chain_check(t, c, &err), 0, "route on output");
	strcpy(c->base->type, "filter");
	c->base->priority = INT32_MIN;
	cr_assert_eq(dataplane_chain_check(t, c, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "priority NF_IP_PRI_FIRST/LAST is refused by kernel netfilter links");
	c->base->priority = 0;
	cr_assert_eq(dataplane_chain_check(&nt, c, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "family '?' is not supported by the nfbpf dataplane yet");
	cr_assert_eq(dataplane_chain_check(t, c, &err), 0);
	/* bridge: filter chains on its five hooks (a tc walker) */
	cr_assert_eq(dataplane_chain_check(&nb, c, &err), 0, "bridge prerouting");
	c->base->hooknum = 5;
	err.msg = NULL;
	cr_assert_eq(dataplane_chain_check(&nb, c, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "bridge hook 5 is not supported by the nfbpf dataplane");
}

/* a nat chain runs inside the nat core's hook (output: priority -100),
 * and only for a connection's first packet: a packet without conntrack
 * passes it untouched, even with policy drop */
Test(generations, nat_chain_needs_a_new_connection)
{
	struct chain *n = tm_chain(t, "n", HOOK_OUT, 10, NF_DROP);
	struct chain *f = tm_chain(t, "f", HOOK_OUT, -100, NF_ACCEPT);

	base->base->policy = NF_ACCEPT;
	strcpy(n->base->type, "nat");
	tm_commit_ok(&net);
	cr_assert_geq(offload_chain_prog(&net, n, 2), 0);
	cr_assert_eq(offload_chain_prog(&net, n, 2), offload_chain_prog(&net, f, 2),
		     "priority 10 on output: the nat core's hook point (-100)");
	cr_assert_eq(tm_run(&net, n, 2, HOOK_OUT, pkt, plen), NF_ACCEPT,
		     "no conntrack entry: the nat chain does not run");
	strcpy(n->base->type, "filter");
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, n, 2, HOOK_OUT, pkt, plen), NF_DROP,
		     "the same chain as a filter chain drops");
}

Test(generations, stats_zero_without_dataplane)
{
	struct net n2;
	struct dp_stats s;

	tm_net_init(&n2, -1);
	memset(&s, 0xff, sizeof(s));
	dataplane_stats(&n2, &s);
	cr_assert_eq(s.progs_loaded + s.shapes + s.rule_entries, 0);
}

Test(generations, shape_from_aborted_batch_is_built_later)
{
	struct dp_error err = { 0 };
	struct tm_rb rb = { 0 };
	struct rule *r;

	tm_commit_ok(&net);
	r = dport_rule(53, NF_DROP);	/* a new shape, then abort */
	cr_assert_eq(dataplane_prepare(&net, &err), 0);
	dataplane_abort(&net);
	tm_rule_free(r);
	/* an unrelated commit, then the same shape again */
	tm_counter(&rb);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dport_rule(53, NF_DROP);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
}

Test(generations, rules_of_other_families_refused)
{
	struct table br = { .family = 12 /* decnet */ };
	struct table bri = { .family = 7 /* bridge */ };
	struct chain c = { .table = &br }, cb = { .table = &bri };
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct rule r;

	tm_verdict(&rb, NF_ACCEPT, NULL);
	r = (struct rule){ .dlen = rb.len, .nexprs = 1, .exprs = (void *)rb.buf };
	cr_assert_eq(dataplane_rule_check(&c, &r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "family '?' is not supported by the nfbpf dataplane yet");
	cr_assert_eq(dataplane_rule_check(base, &r, &err), 0);
	cr_assert_eq(dataplane_rule_check(&cb, &r, &err), 0, "bridge rules run");
}

/* a batch that fails for capacity gives back everything it took: the next
 * (small) batch loads, and the map is as full as before */
Test(generations, capacity_failure_then_abort_gives_back_slots, .timeout = 120)
{
	struct dp_error err = { 0 };
	struct dp_stats s0, s1, s2;
	struct rule *r, *rn;
	struct chain *c2;
	int i, ret;

	/* the rule map grows up to 65536 entries (the old fixed size) */
	setenv("NFBPF_RULE_MAP_MAX", "65536", 1);
	dport_rule(53, NF_ACCEPT);
	tm_commit_ok(&net);
	unsetenv("NFBPF_RULE_MAP_MAX");
	dataplane_stats(&net, &s0);
	/* more rules than the rule map's limit, in a new chain (head entry
	 * and a new shape too) */
	c2 = tm_chain(t, "big", -1, 0, NF_ACCEPT);
	for (i = 0; i < 70000; i++) {
		struct tm_rb rb = { 0 };
		uint8_t a[4] = { 10, i >> 16, i >> 8, i };

		tm_payload(&rb, PAYLOAD_NH, 12, 4, 4);
		tm_cmp(&rb, 4, CMP_EQ, a, 4);
		tm_counter(&rb);
		tm_verdict(&rb, NF_ACCEPT, NULL);
		tm_rule(c2, &rb);
	}
	ret = dataplane_prepare(&net, &err);
	cr_assert_eq(ret, -ENOSPC, "prepare: %d %s", ret, err.msg ? err.msg : "");
	cr_assert_str_eq(err.msg, "nfbpf rule map is full: at most 65535 rules and chains per namespace");
	dataplane_abort(&net);
	list_for_each_entry_safe(r, rn, &c2->rules, list)
		tm_rule_free(r);
	list_del(&c2->list);
	free(c2->name);
	free(c2);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.shapes, s0.shapes, "the aborted batch's shape is gone");
	cr_assert_eq(s1.rule_entries, s0.rule_entries);
	cr_assert_eq(run(), NF_ACCEPT);

	/* a one-rule batch loads, twice (the slots are not just cooling) */
	pkt[22] = 0; pkt[23] = 54;
	r = dport_rule(54, NF_DROP);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP);
	tm_rule_del(r);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.rule_entries, s0.rule_entries);
	cr_assert_eq(s2.progs_loaded, s1.progs_loaded, "known shape: no program");

	/* and as many rules as fit before the failure fit again */
	for (i = 0; i < 60000; i++)
		dport_rule(i, NF_ACCEPT);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.rule_entries, s0.rule_entries + 60000);
}
