// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_objref.c - named counters, quotas and limits by BPF_PROG_TEST_RUN:
 * one object's state is shared by every rule and map element naming it,
 * outlives unrelated commits and the rules naming it, a deleted and
 * re-created object starts from its given values, a reset takes off what
 * it showed, a quota update applies at publish; object maps pick the
 * object by key (the catchall too, both limit kinds in one map); objects
 * that change the connection are refused, saying why.
 */
#include "tests/codegen/model.h"
#include "expr/objref.h"

TM_FIXTURE(expr_objref, 2 /* ip */, NF_ACCEPT);

static int run_port(uint16_t dport)
{
	plen = tm_ip4(pkt, 17, 1000, dport, 0);
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

static int run(void)
{
	return run_port(53);
}

static void named(struct tm_rb *rb, struct object *o)
{
	struct expr_objref *r = tm_add(rb, EXPR_OBJREF, sizeof(*r));

	r->obj = o;
	o->use++;
}

/* objref with the object map @m, keyed by the destination port */
static void by_port(struct tm_rb *rb, struct set *m)
{
	struct expr_objref *r;

	tm_payload(rb, PAYLOAD_TH, 2, 2, 4);
	r = tm_add(rb, EXPR_OBJREF, sizeof(*r));
	r->set = m;
	r->sreg = 4;
}

static struct set *objmap(const char *name, uint32_t type)
{
	struct set *m = tm_set(t, name, NFT_SET_F_OBJECT, 2);

	m->objtype = type;
	return m;
}

static struct set_elem *elem_obj(struct set *m, uint16_t port, struct object *o)
{
	struct set_elem *e = port ? tm_elem16(m, port, 0) : tm_elem(m, NULL, 0, 0);

	e->obj = o;
	o->use++;
	return e;
}

static void counts(struct object *o, uint64_t packets, uint64_t bytes)
{
	uint64_t p = ~0ull, b = ~0ull;

	cr_assert_eq(dataplane_counter_read(&net, o->dp_slot[0], &p, &b), 0);
	cr_assert_eq(p, packets, "packets %lu, want %lu", p, packets);
	cr_assert_eq(b, bytes, "bytes %lu, want %lu", b, bytes);
}

static uint64_t consumed(struct object *o)
{
	uint64_t v = ~0ull;

	cr_assert_eq(dataplane_state_read(&net, o->dp_slot[0], &v), 0);
	return v;
}

static struct object *counter_obj(const char *name, uint64_t packets,
				  uint64_t bytes)
{
	struct object *o = tm_obj(t, name, OBJ_TYPE_COUNTER);

	o->data.counter.packets = packets;
	o->data.counter.bytes = bytes;
	return o;
}

static struct object *quota_obj(const char *name, uint64_t quota,
				uint64_t used, bool over)
{
	struct object *o = tm_obj(t, name, OBJ_TYPE_QUOTA);

	o->data.quota.quota = quota;
	o->data.quota.consumed = used;
	o->data.quota.flags = over ? OBJ_QUOTA_F_INV : 0;
	return o;
}

/* rate per hour: no refill while the test runs */
static struct object *limit_obj(const char *name, uint64_t rate, uint32_t burst,
				bool bytes, bool over)
{
	struct object *o = tm_obj(t, name, OBJ_TYPE_LIMIT);

	o->data.limit.rate = rate;
	o->data.limit.unit = 3600;
	o->data.limit.burst = burst;
	o->data.limit.type = bytes ? OBJ_LIMIT_PKT_BYTES : 0;
	o->data.limit.flags = over ? OBJ_LIMIT_F_INV : 0;
	return o;
}

Test(expr_objref, named_counter_is_shared_by_its_rules)
{
	struct object *c = counter_obj("c", 5, 50);
	struct tm_rb rb = { 0 };

	named(&rb, c);
	tm_rule(base, &rb);
	named(&rb, c);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_neq(c->dp_slot[0], 0);
	counts(c, 5, 50);
	cr_assert_eq(run(), NF_ACCEPT);
	counts(c, 7, 50 + 2 * plen);
	cr_assert_eq(run(), NF_ACCEPT);
	counts(c, 9, 50 + 4 * plen);
}

Test(expr_objref, counts_outlive_commits_and_the_rules_naming_it)
{
	struct object *c = counter_obj("c", 0, 0);
	struct object *other = counter_obj("other", 0, 0);
	struct tm_rb rb = { 0 };
	struct rule *r;

	named(&rb, c);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	run();
	counts(c, 2, 2 * plen);
	/* an unrelated object and rule */
	counter_obj("c2", 1, 1);
	named(&rb, other);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	counts(c, 2, 2 * plen);
	/* the only rule naming it goes: the object keeps its count */
	tm_rule_del(r);
	c->use--;
	tm_commit_ok(&net);
	run();
	counts(c, 2, 2 * plen);
	counts(other, 1, plen);
	/* a new rule names it again: it counts on */
	named(&rb, c);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	counts(c, 3, 3 * plen);
}

Test(expr_objref, recreated_object_starts_from_its_given_values)
{
	struct object *c = counter_obj("c", 0, 0), *c2;
	struct tm_rb rb = { 0 };
	struct rule *r;
	uint64_t p, b;
	uint32_t old;

	named(&rb, c);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	counts(c, 1, plen);
	old = c->dp_slot[0];
	tm_rule_del(r);
	tm_obj_del(c);
	tm_commit_ok(&net);
	c2 = counter_obj("c", 3, 30);
	named(&rb, c2);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	counts(c2, 3, 30);
	run();
	counts(c2, 4, 30 + plen);
	/* the old slot went back to the pool at the commit after */
	cr_assert_eq(dataplane_counter_read(&net, old, &p, &b),
		     old == c2->dp_slot[0] ? 0 : -ENOENT);
}

Test(expr_objref, reset_takes_off_what_it_showed)
{
	struct object *c = counter_obj("c", 10, 100);
	struct tm_rb rb = { 0 };

	named(&rb, c);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	/* shown: 11 packets; one more arrives before the reset */
	run();
	cr_assert_eq(dataplane_counter_sub(&net, c->dp_slot[0], 11, 100 + plen), 0);
	counts(c, 1, plen);
	cr_assert_eq(dataplane_counter_sub(&net, 0, 1, 1), -ENOENT);
}

Test(expr_objref, quota_object_over_shared_and_reset)
{
	struct object *q = quota_obj("q", 3 * plen, 0, false);
	struct tm_rb rb = { 0 };

	/* quota name "q" drop; quota name "q" accept: the first rule uses
	 * the quota, the second sees it used */
	base->base->policy = NF_DROP;
	named(&rb, q);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT, "consumed == quota: not over");
	cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(consumed(q), 4 * plen);
	/* a reset: atomic64_sub() of what it showed */
	cr_assert_eq(dataplane_state_sub(&net, q->dp_slot[0], 4 * plen), 0);
	cr_assert_eq(consumed(q), 0);
	cr_assert_eq(run(), NF_ACCEPT);
}

Test(expr_objref, quota_update_applies_at_publish)
{
	struct object *q = quota_obj("q", plen, 0, false);
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };

	base->base->policy = NF_DROP;
	named(&rb, q);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_DROP);
	/* nft_quota_obj_update(): the quota and its flags, not the bytes
	 * used; the control plane puts the new data in place before
	 * prepare (swap_updates) */
	q->data.quota.quota = 10 * plen;
	q->data.quota.flags = OBJ_QUOTA_F_INV;
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	cr_assert_eq(run(), NF_DROP, "the live generation keeps the old quota");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(consumed(q), 3 * plen);
	cr_assert_eq(run(), NF_DROP, "over 10: 4 used, not over yet");
	cr_assert_eq(consumed(q), 4 * plen);
	while (consumed(q) < 10 * plen)
		cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(run(), NF_ACCEPT, "over 10: 11 used");
}

Test(expr_objref, limit_object_one_bucket_for_all_rules)
{
	struct object *l = limit_obj("l", 1, 3, false, false);
	struct tm_rb rb = { 0 };

	/* limit name "l" accept, twice; policy drop: 3 packets of burst */
	base->base->policy = NF_DROP;
	named(&rb, l);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	named(&rb, l);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	/* each packet takes a token at the first rule; past the burst it
	 * fails both (the second rule's attempt finds the bucket empty) */
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_DROP);
	cr_assert_eq(run(), NF_DROP);
}

Test(expr_objref, counter_map_picks_the_object_by_key)
{
	struct object *c53 = counter_obj("c53", 0, 0);
	struct object *c80 = counter_obj("c80", 1, 1);
	struct object *cany = counter_obj("cany", 0, 0);
	struct set *m = objmap("m", OBJ_TYPE_COUNTER);
	struct tm_rb rb = { 0 };

	elem_obj(m, 53, c53);
	elem_obj(m, 80, c80);
	by_port(&rb, m);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_port(53), NF_DROP);
	cr_assert_eq(run_port(80), NF_DROP);
	cr_assert_eq(run_port(80), NF_DROP);
	cr_assert_eq(run_port(99), NF_ACCEPT, "no element: the rule breaks");
	counts(c53, 1, plen);
	counts(c80, 3, 1 + 2 * plen);
	/* a catchall element takes the other keys */
	elem_obj(m, 0, cany);
	tm_commit_ok(&net);
	cr_assert_eq(run_port(99), NF_DROP);
	counts(cany, 1, plen);
	counts(c53, 1, plen);
}

Test(expr_objref, quota_map_and_named_share_one_object)
{
	struct object *q = quota_obj("q", 4 * plen, 0, true);
	struct set *m = objmap("m", OBJ_TYPE_QUOTA);
	struct tm_rb rb = { 0 };

	/* quota name "q"; quota name udp dport map @m drop: one object,
	 * "over 4 packets", two uses per packet */
	elem_obj(m, 53, q);
	named(&rb, q);
	tm_rule(base, &rb);
	by_port(&rb, m);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(consumed(q), 2 * plen);
	cr_assert_eq(run(), NF_ACCEPT, "4 packets' bytes: not over");
	cr_assert_eq(run(), NF_DROP, "6: over");
	cr_assert_eq(consumed(q), 6 * plen);
}

Test(expr_objref, limit_map_holds_both_kinds)
{
	struct object *lp = limit_obj("lp", 1, 2, false, false);
	/* bytes: rate 1 byte/hour, burst 2 packets' bytes: the bucket
	 * holds nsecs * (rate + burst) / rate, 2 packets' worth and more */
	struct object *lb = limit_obj("lb", 1, 2 * plen, true, false);
	struct set *m = objmap("m", OBJ_TYPE_LIMIT);
	struct tm_rb rb = { 0 };
	int i, n53 = 0, n80 = 0;

	base->base->policy = NF_DROP;
	elem_obj(m, 53, lp);
	elem_obj(m, 80, lb);
	by_port(&rb, m);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < 5; i++) {
		n53 += run_port(53) == NF_ACCEPT;
		n80 += run_port(80) == NF_ACCEPT;
	}
	cr_assert_eq(n53, 2, "packet limit: its burst");
	cr_assert_eq(n80, 2, "byte limit: (rate + burst) bytes, 2 packets");
}

Test(expr_objref, aborted_object_gives_its_slot_back)
{
	struct object *c = counter_obj("c", 0, 0);
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	uint64_t p, b;

	named(&rb, c);
	tm_rule(base, &rb);
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	cr_assert_neq(c->dp_slot[0], 0);
	dataplane_abort(&net);
	cr_assert_eq(dataplane_counter_read(&net, c->dp_slot[0], &p, &b), -ENOENT);
}

static void refused(struct tm_rb *rb, const char *why)
{
	struct dp_error err = { 0 };
	struct rule *r = tm_rule_new(base, rb);

	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_not_null(err.msg);
	cr_assert(strstr(err.msg, "'objref'"), "got \"%s\"", err.msg);
	cr_assert(strstr(err.msg, why), "got \"%s\"", err.msg);
	cr_assert(strstr(err.msg, "netfilter BPF program cannot"), "got \"%s\"",
		  err.msg);
	cr_assert_lt(strlen(err.msg), 160, "fits an extended ack: \"%s\"", err.msg);
	free(r->exprs);
	free(r);
}

Test(expr_objref, ct_helper_object_refused_saying_why)
{
	struct object obj = { .name = "h", .type = OBJ_TYPE_CT_HELPER };
	struct tm_rb rb = { 0 };
	struct expr_objref *o;

	o = tm_add(&rb, EXPR_OBJREF, sizeof(*o));
	o->obj = &obj;
	refused(&rb, "connection's helper");
}

Test(expr_objref, ct_timeout_map_refused_saying_why)
{
	struct set *m = objmap("m", OBJ_TYPE_CT_TIMEOUT);
	struct tm_rb rb = { 0 };

	by_port(&rb, m);
	refused(&rb, "timeout policy");
}

Test(expr_objref, ct_expectation_and_synproxy_refused_saying_why)
{
	struct object ex = { .name = "e", .type = OBJ_TYPE_CT_EXPECT };
	struct object sp = { .name = "s", .type = OBJ_TYPE_SYNPROXY };
	struct tm_rb rb = { 0 }, rb2 = { 0 };
	struct expr_objref *o;

	o = tm_add(&rb, EXPR_OBJREF, sizeof(*o));
	o->obj = &ex;
	refused(&rb, "expectations");
	o = tm_add(&rb2, EXPR_OBJREF, sizeof(*o));
	o->obj = &sp;
	refused(&rb2, "synproxy");
}

/* the control plane's commit of a batch that adds @r only */
static void commit_rule(struct rule *r)
{
	struct dp_delta d = { .rules = &r, .nrules = 1 };
	struct dp_error err = { 0 };
	int ret = dataplane_prepare_delta(&net, &d, &err);

	cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
}

Test(expr_objref, rule_only_batches_name_existing_objects)
{
	struct object *c = counter_obj("c", 0, 0);
	struct object *q = quota_obj("q", 1000 * plen, 0, false);
	struct set *m = objmap("m", OBJ_TYPE_COUNTER);
	struct tm_rb rb = { 0 };
	struct dp_stats s0, s1;

	elem_obj(m, 53, c);
	named(&rb, q);
	tm_rule(base, &rb);
	by_port(&rb, m);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	run();
	counts(c, 1, plen);
	/* rule-only batches are prepared from their rules alone: the
	 * objects and the map have their slots and id */
	named(&rb, q);
	commit_rule(tm_rule(base, &rb));
	dataplane_stats(&net, &s0);
	named(&rb, c);
	commit_rule(tm_rule(base, &rb));
	by_port(&rb, m);
	commit_rule(tm_rule(base, &rb));
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 2);
	run();
	counts(c, 4, 4 * plen);
	cr_assert_eq(consumed(q), 3 * plen);
}
