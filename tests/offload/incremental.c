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
#include "ruleset_api.h"

TM_FIXTURE(incremental, 2 /* ip */, NF_ACCEPT, .timeout = 120);

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

/* ---- set elements ---- */

/*
 * A batch of element changes to an exact set (with or without rules) is
 * prepared from those elements alone: the entries written are the
 * batch's and the last batch's (settled), whatever the set's size; the
 * live generation sees none of it before the flip, and an aborted batch
 * leaves nothing behind.
 */
static struct set *bigset;

#define BIG 100000u

static void ip_key(uint8_t *k, uint32_t i)
{
	k[0] = 100;
	k[1] = 64 + (i >> 16);
	k[2] = (i >> 8) & 0xff;
	k[3] = i & 0xff;
}

/* an element of @s with key ip_key(@i), linked as the control plane does */
static struct set_elem *elem_new(struct set *s, uint32_t i)
{
	struct set_elem *e = calloc(1, sizeof(*e));

	cr_assert(e);
	e->genmask = genmask_cur(&net);
	e->key.len = 4;
	ip_key(e->key.v, i);
	cr_assert_eq(ruleset_set_elem_link(s, e), 0);
	return e;
}

/* tm_flip(), with the elements of the key index unlinked as they go */
static void flip_sets(void)
{
	struct set_elem *e, *en;

	list_for_each_entry_safe(e, en, &bigset->elems, list) {
		if (!active(e->genmask, genmask_next(&net))) {
			ruleset_set_elem_unlink(bigset, e);
			free(e);
		} else {
			e->genmask = 0;
		}
	}
	tm_flip(&net);
}

static void setup_set(void)
{
	struct dp_error err = { 0 };
	struct tm_rb rb = { 0 };
	uint32_t i;
	int ret;

	setup();
	bigset = tm_set(t, "s", TM_SET_TIMEOUT, 4);
	for (i = 0; i < BIG; i++)
		elem_new(bigset, i);
	/* ip daddr @s drop */
	tm_payload(&rb, PAYLOAD_NH, 16, 4, 8);
	tm_lookup(&rb, bigset, 8, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	ret = dataplane_prepare(&net, &err);
	cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
	dataplane_publish(&net);
	flip_sets();
}

TestSuite(incremental_set, .init = setup_set, .fini = teardown, .timeout = 120);

static int verdict_ip(uint32_t i)
{
	ip_key(pkt + 16, i);
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* a batch of element changes @e (NULL ends), prepared; 0 or -errno */
static int prepare_elems(struct set_elem **e)
{
	struct dp_delta_elem de[8];
	struct dp_delta d = { .elems = de };
	struct dp_error err = { 0 };
	int ret;

	for (; *e; e++) {
		de[d.nelems].set = bigset;
		de[d.nelems++].elem = *e;
	}
	ret = dataplane_prepare_delta(&net, &d, &err);
	cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
	return ret;
}

static void publish(void)
{
	dataplane_publish(&net);
	flip_sets();
}

Test(incremental_set, element_add_into_100k_set_writes_its_entry_only)
{
	struct dp_stats s0, s1, s2;
	struct set_elem *e[3] = { 0 };

	cr_assert_eq(verdict_ip(5), NF_DROP);
	cr_assert_eq(verdict_ip(BIG), NF_ACCEPT);
	/* the first element batch after a full prepare: settles it */
	e[0] = elem_new(bigset, BIG);
	prepare_elems(e);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	dataplane_stats(&net, &s0);

	/* one element: the entry of BIG settled, the new one written */
	e[0] = elem_new(bigset, BIG + 1);
	prepare_elems(e);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1,
		     "prepared from the element alone");
	cr_assert_eq(s1.set_entries_written - s0.set_entries_written, 2,
		     "2 entries written of %u", BIG + 2);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded, "no program loaded");
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT, "not live before the flip");
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	publish();
	cr_assert_eq(verdict_ip(BIG + 1), NF_DROP, "live after the flip");
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	cr_assert_eq(verdict_ip(BIG - 1), NF_DROP);
	cr_assert_eq(verdict_ip(BIG + 2), NF_ACCEPT);

	/* delete one, add one, one batch: the deleted one's entry already
	 * says "absent" in the generation being prepared (it is the one
	 * before its add): one entry written */
	tm_elem_del(e[0], bigset);
	e[1] = elem_new(bigset, BIG + 2);
	prepare_elems(e);
	cr_assert_eq(verdict_ip(BIG + 1), NF_DROP, "still live before the flip");
	cr_assert_eq(verdict_ip(BIG + 2), NF_ACCEPT);
	publish();
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT, "deleted after the flip");
	cr_assert_eq(verdict_ip(BIG + 2), NF_DROP);

	/* an empty batch settles the last one; the deleted entry goes */
	e[0] = NULL;
	prepare_elems(e);
	publish();
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.incremental_prepares, s0.incremental_prepares + 3);
	cr_assert_eq(s2.set_entries_written - s0.set_entries_written, 2 + 1 + 2,
		     "%lu", (unsigned long)(s2.set_entries_written - s0.set_entries_written));
	cr_assert_eq(s2.progs_loaded, s0.progs_loaded);
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
	cr_assert_eq(verdict_ip(BIG + 2), NF_DROP);
	cr_assert_eq(verdict_ip(0), NF_DROP);
	cr_assert_eq(verdict_ip(BIG - 1), NF_DROP);
}

Test(incremental_set, aborted_element_batch_changes_nothing)
{
	struct set_elem *e[3] = { 0 }, *gone, *x;
	struct dp_stats s0, s1;

	e[0] = elem_new(bigset, BIG);
	prepare_elems(e);
	publish();
	/* add BIG + 1, delete element 7; then abort */
	list_for_each_entry(x, &bigset->elems, list)
		if (x->key.v[3] == 7 && x->key.v[2] == 0 && x->key.v[1] == 64)
			break;
	gone = x;
	e[0] = elem_new(bigset, BIG + 1);
	e[1] = gone;
	tm_elem_del(gone, bigset);
	prepare_elems(e);
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
	cr_assert_eq(verdict_ip(7), NF_DROP);
	dataplane_abort(&net);
	/* the control plane's undo */
	ruleset_set_elem_unlink(bigset, e[0]);
	free(e[0]);
	gone->genmask = 0;
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
	cr_assert_eq(verdict_ip(7), NF_DROP);
	cr_assert_eq(verdict_ip(BIG), NF_DROP);

	/* the next batch publishes nothing of the aborted one */
	dataplane_stats(&net, &s0);
	e[0] = elem_new(bigset, BIG + 2);
	e[1] = NULL;
	prepare_elems(e);
	publish();
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_eq(verdict_ip(BIG + 2), NF_DROP);
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT, "aborted add not live");
	cr_assert_eq(verdict_ip(7), NF_DROP, "aborted delete not live");
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
}

/* a timeout update (expires moved) is a delta too; the old value stays live
 * until the flip */
Test(incremental_set, element_expiry_update_is_live_after_the_flip)
{
	struct set_elem *e[2] = { 0 };
	struct dp_stats s0, s1;
	uint64_t now;

	cr_assert_eq(dataplane_jiffies(&now), 0);
	e[0] = elem_new(bigset, BIG);
	e[0]->timeout = 100000;
	e[0]->expires = now + 100000;	/* minutes away */
	prepare_elems(e);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	dataplane_stats(&net, &s0);
	e[0]->expires = now > 1 ? now - 1 : 1;	/* expired */
	prepare_elems(e);
	cr_assert_eq(verdict_ip(BIG), NF_DROP, "not expired before the flip");
	publish();
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
	cr_assert_eq(verdict_ip(BIG), NF_ACCEPT, "expired after the flip");
	cr_assert_eq(verdict_ip(3), NF_DROP);
}

/*
 * set garbage collection frees expired elements outside any batch
 * (dataplane_elem_gc()): the next prepare drops their entries, unless a
 * live element has the key again
 */
Test(incremental_set, gc_drops_an_expired_entry_not_a_live_one)
{
	struct set_elem *e[3] = { 0 }, *old, *other;
	struct dp_stats s0, s1;
	uint64_t now;

	cr_assert_eq(dataplane_jiffies(&now), 0);
	/* BIG and BIG + 1, expired already: packets skip them */
	e[0] = old = elem_new(bigset, BIG);
	e[1] = other = elem_new(bigset, BIG + 1);
	old->timeout = other->timeout = 1;
	old->expires = other->expires = now > 1 ? now - 1 : 1;
	prepare_elems(e);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_ACCEPT, "expired");
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT, "expired");
	/* BIG added again (the control plane's lookups skip expired ones) */
	e[0] = elem_new(bigset, BIG);
	e[1] = NULL;
	prepare_elems(e);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	/* collected: the old BIG and BIG + 1 */
	dataplane_elem_gc(&net, bigset, old);
	dataplane_elem_gc(&net, bigset, other);
	ruleset_set_elem_unlink(bigset, old);
	ruleset_set_elem_unlink(bigset, other);
	free(old);
	free(other);
	e[0] = NULL;
	prepare_elems(e);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_DROP, "the live BIG stays");
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
	/* the one after: BIG + 1's entry is gone from both generations */
	dataplane_stats(&net, &s0);
	prepare_elems(e);
	publish();
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.set_entries_written - s0.set_entries_written, 1,
		     "BIG + 1 deleted");
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
	cr_assert_eq(verdict_ip(BIG), NF_DROP);
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
}

/* the i of ip_key(i) of @e, minus BIG */
static uint32_t elem_idx(const struct set_elem *e)
{
	return ((uint32_t)(e->key.v[1] - 64) << 16 | e->key.v[2] << 8 | e->key.v[3]) - BIG;
}

/*
 * random batches of element adds and deletes (a delete and an add of one
 * key in one batch too), one in four aborted: before each flip every key
 * answers as the live generation, after it as the model's new one
 */
Test(incremental_set, random_element_batches_match_the_model)
{
	struct set_elem *live[64] = { 0 }, *added[8], *dead[8];
	struct dp_delta_elem de[16];
	struct dp_stats s0, s1;
	uint32_t k, i, j, n, na, nd, aborts = 0;
	bool want[64];

	dataplane_stats(&net, &s0);
	for (k = 0; k < 60; k++) {
		struct dp_delta d = { .elems = de };
		struct dp_error err = { 0 };
		bool abort_it = rnd() % 4 == 0;
		int ret;

		n = rnd() % 9;
		na = nd = 0;
		for (i = 0; i < n; i++) {
			uint32_t key = rnd() % 64;
			bool again = false;

			for (j = 0; j < na; j++)
				again |= elem_idx(added[j]) == key;
			if (again)
				continue;	/* added in this batch already */
			if (live[key] && active(live[key]->genmask, genmask_next(&net))) {
				tm_elem_del(live[key], bigset);
				dead[nd++] = live[key];
				de[d.nelems].set = bigset;
				de[d.nelems++].elem = live[key];
			} else {
				added[na] = elem_new(bigset, BIG + key);
				de[d.nelems].set = bigset;
				de[d.nelems++].elem = added[na++];
			}
		}
		for (i = 0; i < 64; i++)
			want[i] = live[i] != NULL;
		ret = dataplane_prepare_delta(&net, &d, &err);
		cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
		for (i = 0; i < 64; i++)
			cr_assert_eq(verdict_ip(BIG + i), want[i] ? NF_DROP : NF_ACCEPT,
				     "round %u key %u before the flip", k, i);
		if (abort_it) {
			dataplane_abort(&net);
			for (i = 0; i < na; i++) {
				ruleset_set_elem_unlink(bigset, added[i]);
				free(added[i]);
			}
			for (i = 0; i < nd; i++)
				dead[i]->genmask = 0;
			aborts++;
		} else {
			for (i = 0; i < nd; i++)
				live[elem_idx(dead[i])] = NULL;
			for (i = 0; i < na; i++)
				live[elem_idx(added[i])] = added[i];
			publish();
		}
		for (i = 0; i < 64; i++)
			cr_assert_eq(verdict_ip(BIG + i), live[i] ? NF_DROP : NF_ACCEPT,
				     "round %u key %u after the %s", k, i,
				     abort_it ? "abort" : "flip");
	}
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_geq(s1.incremental_prepares - s0.incremental_prepares, 60 - 2 * aborts,
		      "%lu incremental, %u aborts",
		      (unsigned long)(s1.incremental_prepares - s0.incremental_prepares),
		      aborts);
	cr_assert_eq(verdict_ip(BIG - 1), NF_DROP);
}

/* ---- sets whose elements carry statements ---- */

/* an element of @s with port key @port, linked as the control plane does,
 * with a counter expression if @counted */
static struct set_elem *port_elem(struct set *s, uint16_t port, bool counted)
{
	struct set_elem *e = calloc(1, sizeof(*e));

	cr_assert(e);
	e->genmask = genmask_cur(&net);
	e->key.len = 2;
	e->key.v[0] = port >> 8;
	e->key.v[1] = port & 0xff;
	if (counted) {
		struct expr *x = calloc(1, EXPR_SIZE(sizeof(struct expr_counter)));

		cr_assert(x);
		x->type = EXPR_COUNTER;
		x->size = EXPR_SIZE(sizeof(struct expr_counter));
		e->exprs = x;
		e->exprs_len = x->size;
		e->nexprs = 1;
	}
	cr_assert_eq(ruleset_set_elem_link(s, e), 0);
	return e;
}

static struct expr_counter *elem_counter_of(struct set_elem *e)
{
	return expr_priv(e->exprs);
}

/*
 * udp dport @c drop with set c { counter; }, udp dport @p drop: a batch of
 * c's elements takes the full prepare (element counter slots are given
 * and taken back there), and the element it adds counts its own packets
 * while the others keep their slots and counts; a batch of p's elements
 * right after is incremental again.
 */
Test(incremental, element_batches_of_a_counted_set_are_full_prepares)
{
	struct set *c = tm_set(t, "c", 0, 2), *p = tm_set(t, "p", 0, 2);
	struct dp_delta_elem de[1];
	struct dp_delta d = { .elems = de, .nelems = 1 };
	struct dp_error err = { 0 };
	struct set_elem *e53, *e54, *e60;
	struct dp_stats s0, s1, s2;
	struct expr *x = calloc(1, EXPR_SIZE(sizeof(struct expr_counter)));
	struct tm_rb rb = { 0 };
	uint32_t slot53;
	uint64_t pk, by;

	cr_assert(x);
	x->type = EXPR_COUNTER;
	x->size = EXPR_SIZE(sizeof(struct expr_counter));
	c->exprs = x;
	c->exprs_len = x->size;
	c->nexprs = 1;
	e53 = port_elem(c, 53, true);
	port_elem(p, 70, false);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, c, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	memset(&rb, 0, sizeof(rb));
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, p, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	slot53 = elem_counter_of(e53)->slot;
	cr_assert_neq(slot53, 0);
	cr_assert_eq(verdict_for(53), NF_DROP);
	cr_assert_eq(verdict_for(54), NF_ACCEPT);
	cr_assert_eq(dataplane_counter_read(&net, slot53, &pk, &by), 0);
	cr_assert_eq(pk, 1);

	/* add 54 to c: a full prepare, 53 keeps its slot and count */
	dataplane_stats(&net, &s0);
	e54 = port_elem(c, 54, true);
	de[0].set = c;
	de[0].elem = e54;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares,
		     "element statements: a full prepare");
	cr_assert_eq(verdict_for(54), NF_ACCEPT, "not live before the flip");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(elem_counter_of(e53)->slot, slot53);
	cr_assert_neq(elem_counter_of(e54)->slot, 0);
	cr_assert_neq(elem_counter_of(e54)->slot, slot53);
	cr_assert_eq(verdict_for(54), NF_DROP);
	cr_assert_eq(verdict_for(54), NF_DROP);
	cr_assert_eq(dataplane_counter_read(&net, elem_counter_of(e54)->slot,
					    &pk, &by), 0);
	cr_assert_eq(pk, 2, "54 counts its own packets");
	cr_assert_eq(dataplane_counter_read(&net, slot53, &pk, &by), 0);
	cr_assert_eq(pk, 1, "53 kept its count");

	/* an element of p: incremental, c's counts untouched */
	e60 = port_elem(p, 60, false);
	de[0].set = p;
	de[0].elem = e60;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.incremental_prepares, s1.incremental_prepares + 1,
		     "a plain set's element batch: incremental");
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(verdict_for(60), NF_DROP);
	cr_assert_eq(verdict_for(53), NF_DROP);
	cr_assert_eq(dataplane_counter_read(&net, slot53, &pk, &by), 0);
	cr_assert_eq(pk, 2, "53 counted in its slot after the delta prepare");
}

/* ---- sets the packet path adds to (dynset) ---- */

static int count_one(void *arg, const uint8_t *key, uint64_t timeout,
		     uint64_t expires, const uint8_t *data)
{
	(void)key;
	(void)timeout;
	(void)expires;
	(void)data;
	++*(uint32_t *)arg;
	return 0;
}

static uint32_t read_count(struct set *s)
{
	uint32_t n = 0;

	cr_assert_eq(dataplane_set_read(&net, s, count_one, &n), 0);
	return n;
}

/*
 * add @d { udp dport } (size 4), udp dport @p drop: a batch of p's
 * elements is incremental and leaves the elements packets added to d as
 * they are; a batch of d's elements takes the full prepare, which keeps
 * them and d's count (the fourth element fills d, a fifth is not added)
 */
Test(incremental, dynset_entries_survive_element_batches)
{
	struct set *d = tm_set(t, "d", 0x20 /* dynamic */, 2);
	struct set *p = tm_set(t, "p", 0, 2);
	struct dp_delta_elem de[1];
	struct dp_delta dl = { .elems = de, .nelems = 1 };
	struct dp_error err = { 0 };
	struct dp_stats s0, s1, s2;
	struct tm_rb rb = { 0 };
	struct set_elem *e;

	d->size = 4;
	port_elem(p, 70, false);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_dynset(&rb, d, DYNSET_OP_ADD, 4, 0);
	tm_rule(base, &rb);
	memset(&rb, 0, sizeof(rb));
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, p, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(verdict_for(53), NF_ACCEPT);
	cr_assert_eq(verdict_for(54), NF_ACCEPT);
	cr_assert_eq(read_count(d), 2, "two added by packets");

	/* an empty batch (the one after a full prepare is never incremental),
	 * then an element of p: incremental; d's entries stay */
	dl.nelems = 0;
	cr_assert_eq(dataplane_prepare_delta(&net, &dl, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
	dl.nelems = 1;
	dataplane_stats(&net, &s0);
	e = port_elem(p, 60, false);
	de[0].set = p;
	de[0].elem = e;
	cr_assert_eq(dataplane_prepare_delta(&net, &dl, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
	cr_assert_eq(verdict_for(60), NF_DROP);
	cr_assert_eq(read_count(d), 3, "53, 54 and 60 (the dynset runs first)");

	/* an element of d: a full prepare; the packet path's stay */
	e = port_elem(d, 80, false);
	de[0].set = d;
	de[0].elem = e;
	cr_assert_eq(dataplane_prepare_delta(&net, &dl, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
	dataplane_stats(&net, &s2);
	cr_assert_eq(s2.incremental_prepares, s1.incremental_prepares,
		     "a dynamic set's element batch: a full prepare");
	cr_assert_eq(read_count(d), 4, "53, 54, 60 and 80");
	cr_assert_eq(verdict_for(55), NF_ACCEPT);
	cr_assert_eq(read_count(d), 4, "full: 55 not added");
}
