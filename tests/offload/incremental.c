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
#include "expr/objref.h"

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

	/* the first rule-only batch after a full one: incremental too (it
	 * settles what the full one left); it loads no program */
	r[0] = dport_new(53, NF_DROP);
	list_add_tail(&r[0]->list, &base->rules);
	commit_delta(r, 1);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
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

/* the set came with its rule (a new id): the full prepare wrote its entries
 * for both generations, the first element batch after it has nothing to
 * settle (it used to write all BIG entries again) */
Test(incremental_set, first_element_add_after_the_load_writes_its_entry_only)
{
	struct dp_stats s0, s1;
	struct set_elem *e[2] = { 0 };

	dataplane_stats(&net, &s0);
	e[0] = elem_new(bigset, BIG);
	prepare_elems(e);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
	cr_assert_eq(s1.set_entries_written - s0.set_entries_written, 1,
		     "%lu entries written of %u",
		     (unsigned long)(s1.set_entries_written - s0.set_entries_written),
		     BIG + 1);
	cr_assert_eq(verdict_ip(BIG), NF_ACCEPT, "not live before the flip");
	cr_assert_eq(verdict_ip(BIG - 1), NF_DROP);
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_DROP, "live after the flip");
	cr_assert_eq(verdict_ip(0), NF_DROP);
	cr_assert_eq(verdict_ip(BIG + 1), NF_ACCEPT);
	/* a delete of a loaded element: gone after the flip only */
	tm_elem_del(e[0], bigset);
	prepare_elems(e);
	cr_assert_eq(verdict_ip(BIG), NF_DROP, "still live before the flip");
	publish();
	cr_assert_eq(verdict_ip(BIG), NF_ACCEPT, "deleted after the flip");
	cr_assert_eq(verdict_ip(BIG - 1), NF_DROP);
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

	/* an empty batch, then an element of p: incremental; d's entries
	 * stay */
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

/* ---- the first batch after a full prepare ---- */

/*
 * A full prepare writes the next generation's half of a chain's policy
 * (the other half is two generations old) and both halves of set entries;
 * the rule or element batch right after it is incremental all the same
 * and settles what the full one left: every generation has its own
 * policy, elements and rules.
 */

/* rule-only batches @r (n of them), prepared; the live generation is the
 * old one until the flip */
static void prepare_rules(struct rule **r, uint32_t n)
{
	struct dp_delta d = { .rules = r, .nrules = n };
	struct dp_error err = { 0 };
	int ret = dataplane_prepare_delta(&net, &d, &err);

	cr_assert_eq(ret, 0, "prepare: %d %s", ret, err.msg ? err.msg : "");
}

static uint64_t incrementals(void)
{
	struct dp_stats st;

	dataplane_stats(&net, &st);
	return st.incremental_prepares;
}

Test(incremental, policy_changes_hold_in_the_rule_batches_after_them)
{
	struct rule *r;
	uint64_t n0;
	int k, j, pol, other;

	list_add_tail(&dport_new(53, NF_DROP)->list, &base->rules);
	tm_commit_ok(&net);
	cr_assert_eq(verdict_for(55), NF_ACCEPT);
	for (k = 0; k < 4; k++) {
		pol = k % 2 ? NF_ACCEPT : NF_DROP;
		other = pol == NF_DROP ? NF_ACCEPT : NF_DROP;
		/* nft chain ... { policy ...; } (the model holds the new
		 * policy while the batch prepares, as after swap_updates()) */
		base->base->policy = pol;
		tm_commit_ok(&net);
		cr_assert_eq(verdict_for(55), pol, "round %d: the new policy", k);
		n0 = incrementals();
		/* three rule-only batches: the policy holds in each generation
		 * (the first one's half was written two generations ago) */
		for (j = 0; j < 3; j++) {
			uint16_t port = 60 + 10 * k + j;

			r = dport_new(port, other);
			list_add_tail(&r->list, &base->rules);
			prepare_rules(&r, 1);
			cr_assert_eq(verdict_for(port), pol, "round %d batch %d: not live before the flip", k, j);
			cr_assert_eq(verdict_for(55), pol);
			dataplane_publish(&net);
			tm_flip(&net);
			cr_assert_eq(verdict_for(55), pol, "round %d batch %d: the policy", k, j);
			cr_assert_eq(verdict_for(port), other, "round %d batch %d: the new rule", k, j);
			cr_assert_eq(verdict_for(53), NF_DROP);
		}
		cr_assert_eq(incrementals(), n0 + 3,
			     "round %d: the first rule batch after the full one is incremental too", k);
	}
}

/* chain out2 at the output hook, priority 10, policy drop, accepts udp
 * dport 53; user chain u, jumped to by udp dport 90 in base: added in one
 * (full) batch; then rules go into both, incrementally */
Test(incremental, new_chains_take_rules_in_the_next_batch)
{
	struct chain *out2 = tm_chain(t, "out2", HOOK_OUT, 10, NF_DROP);
	struct chain *u = tm_chain(t, "u", -1, 0, 0);
	uint8_t udp = 17, p90[2] = { 0, 90 };
	struct tm_rb rb = { 0 };
	struct rule *r[2];
	uint64_t n0;
	int j;

	r[0] = dport_new(53, NF_ACCEPT);
	r[0]->chain = out2;
	list_add_tail(&r[0]->list, &out2->rules);
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p90, 2);
	tm_verdict(&rb, NFT_JUMP, u);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, out2, 2, HOOK_OUT, pkt, plen), NF_ACCEPT, "53");
	n0 = incrementals();
	for (j = 0; j < 3; j++) {
		uint16_t port = 60 + j;

		r[0] = dport_new(port, NF_ACCEPT);
		r[0]->chain = out2;
		list_add_tail(&r[0]->list, &out2->rules);
		r[1] = dport_new(90, j % 2 ? NF_ACCEPT : NF_DROP);
		r[1]->chain = u;
		list_add(&r[1]->list, &u->rules);
		prepare_rules(r, 2);
		dataplane_publish(&net);
		tm_flip(&net);
		pkt[22] = 0;
		pkt[23] = 55;
		cr_assert_eq(tm_run(&net, out2, 2, HOOK_OUT, pkt, plen), NF_DROP,
			     "batch %d: out2's policy", j);
		pkt[23] = port;
		cr_assert_eq(tm_run(&net, out2, 2, HOOK_OUT, pkt, plen), NF_ACCEPT,
			     "batch %d: out2's new rule", j);
		pkt[23] = 53;
		cr_assert_eq(tm_run(&net, out2, 2, HOOK_OUT, pkt, plen), NF_ACCEPT);
		cr_assert_eq(verdict_for(90), j % 2 ? NF_ACCEPT : NF_DROP,
			     "batch %d: u's first rule", j);
		cr_assert_eq(verdict_for(55), NF_ACCEPT, "base's policy");
	}
	cr_assert_eq(incrementals(), n0 + 3);
}

/*
 * a binding chain goes with the rule that jumps to it (its rules have no
 * genmask of their own): after the full batch that deletes them, the
 * entries of its rules are not counted, and the next rule batch frees them
 */
Test(incremental, a_deleted_chains_rules_go_with_it)
{
	struct chain *u = tm_chain(t, "u", -1, 0, 0);
	uint8_t udp = 17, p90[2] = { 0, 90 };
	struct rule *j, *r, *rn;
	struct tm_rb rb = { 0 };
	struct dp_stats st;
	uint64_t n0;
	int i;

	for (i = 0; i < 3; i++) {
		r = dport_new(90, NF_DROP);
		r->chain = u;
		list_add_tail(&r->list, &u->rules);
	}
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p90, 2);
	tm_verdict(&rb, NFT_JUMP, u);
	j = tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.rule_entries, 4);
	cr_assert_eq(verdict_for(90), NF_DROP);
	/* delete the jump and its binding chain (nfnl_rule_delete()) */
	tm_rule_del(j);
	u->genmask |= genmask_next(&net);
	tm_commit_ok(&net);	/* prepare, publish, flip; u still listed */
	list_del(&u->list);	/* free_deleted(): u and its rules */
	list_for_each_entry_safe(r, rn, &u->rules, list)
		tm_rule_free(r);
	free(u->name);
	free(u);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.rule_entries, 0, "u's rules: %lu entries",
		     (unsigned long)st.rule_entries);
	cr_assert_eq(verdict_for(90), NF_ACCEPT);
	n0 = incrementals();
	r = dport_new(91, NF_DROP);
	list_add_tail(&r->list, &base->rules);
	commit_delta(&r, 1);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.incremental_prepares, n0 + 1);
	cr_assert_eq(st.rule_entries, 1);
	cr_assert_eq(verdict_for(90), NF_ACCEPT);
	cr_assert_eq(verdict_for(91), NF_DROP);
}

/* tm_flip(), with the elements @s loses unlinked from its key index */
static void flip_set(struct set *s)
{
	struct set_elem *e, *en;

	list_for_each_entry_safe(e, en, &s->elems, list) {
		if (!active(e->genmask, genmask_next(&net))) {
			ruleset_set_elem_unlink(s, e);
			free(e->exprs);
			free(e);
		}
	}
	tm_flip(&net);
}

static struct set_elem *elem_of(struct set *s, uint16_t port)
{
	struct set_elem *e;

	list_for_each_entry(e, &s->elems, list)
		if (e->key.v[0] == port >> 8 && e->key.v[1] == (port & 0xff) &&
		    active(e->genmask, genmask_next(&net)))
			return e;
	return NULL;
}

/* udp dport @s drop, first in base */
static struct set *port_set(void)
{
	struct set *s = tm_set(t, "s", 0, 2);
	struct tm_rb rb = { 0 };
	struct rule *r;

	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule_new(base, &rb);
	list_add(&r->list, &base->rules);
	return s;
}

/* a full batch adds and deletes elements; the rule and element batches
 * after it see the set as it committed */
Test(incremental, set_changes_hold_in_the_batches_after_them)
{
	struct set *s = port_set();
	struct set_elem *e[2] = { 0 };
	struct dp_delta_elem de[1];
	struct dp_delta d = { .elems = de, .nelems = 1 };
	struct dp_error err = { 0 };
	struct rule *r;
	uint64_t n0;

	port_elem(s, 70, false);
	port_elem(s, 71, false);
	tm_commit_ok(&net);
	n0 = incrementals();
	r = dport_new(80, NF_DROP);
	list_add_tail(&r->list, &base->rules);
	commit_delta(&r, 1);
	cr_assert_eq(incrementals(), n0 + 1, "a rule batch after a new set");
	cr_assert_eq(verdict_for(70), NF_DROP);
	cr_assert_eq(verdict_for(71), NF_DROP);
	cr_assert_eq(verdict_for(72), NF_ACCEPT);
	cr_assert_eq(verdict_for(80), NF_DROP);

	/* one full batch: 70 goes, 72 comes */
	tm_elem_del(elem_of(s, 70), s);
	port_elem(s, 72, false);
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	dataplane_publish(&net);
	flip_set(s);
	cr_assert_eq(verdict_for(70), NF_ACCEPT);
	cr_assert_eq(verdict_for(72), NF_DROP);

	/* a rule batch: the generation it prepares had 70 and no 72 two
	 * commits ago */
	n0 = incrementals();
	r = dport_new(81, NF_DROP);
	list_add_tail(&r->list, &base->rules);
	prepare_rules(&r, 1);
	dataplane_publish(&net);
	flip_set(s);
	cr_assert_eq(incrementals(), n0 + 1);
	cr_assert_eq(verdict_for(70), NF_ACCEPT, "deleted in the full batch");
	cr_assert_eq(verdict_for(71), NF_DROP);
	cr_assert_eq(verdict_for(72), NF_DROP, "added in the full batch");
	cr_assert_eq(verdict_for(81), NF_DROP);

	/* another full batch (71 goes), then an element batch (73) */
	tm_elem_del(elem_of(s, 71), s);
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	dataplane_publish(&net);
	flip_set(s);
	e[0] = port_elem(s, 73, false);
	de[0].set = s;
	de[0].elem = e[0];
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0, "%s",
		     err.msg ? err.msg : "");
	cr_assert_eq(verdict_for(73), NF_ACCEPT, "not live before the flip");
	dataplane_publish(&net);
	flip_set(s);
	cr_assert_eq(incrementals(), n0 + 2, "an element batch after a full one");
	cr_assert_eq(verdict_for(71), NF_ACCEPT, "deleted in the full batch");
	cr_assert_eq(verdict_for(70), NF_ACCEPT);
	cr_assert_eq(verdict_for(72), NF_DROP);
	cr_assert_eq(verdict_for(73), NF_DROP);
	/* and one more rule batch: everything settled */
	r = dport_new(82, NF_DROP);
	list_add_tail(&r->list, &base->rules);
	commit_delta(&r, 1);
	cr_assert_eq(incrementals(), n0 + 3);
	cr_assert_eq(verdict_for(71), NF_ACCEPT);
	cr_assert_eq(verdict_for(73), NF_DROP);
	cr_assert_eq(verdict_for(82), NF_DROP);
}

/* a named counter added by a full batch: the rule batch right after
 * names it incrementally and counts in its slot */
Test(incremental, new_objects_are_named_by_the_next_rule_batch)
{
	struct object *o = tm_obj(t, "c", OBJ_TYPE_COUNTER);
	uint8_t udp = 17, p[2] = { 0, 53 };
	struct expr_objref *ref;
	struct tm_rb rb = { 0 };
	uint64_t n0, pk = 0, by = 0;
	struct rule *r;

	list_add_tail(&dport_new(99, NF_DROP)->list, &base->rules);
	tm_commit_ok(&net);
	n0 = incrementals();
	cr_assert_neq(o->dp_slot[0], 0);
	/* udp dport 53 counter name c drop */
	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	ref = tm_add(&rb, EXPR_OBJREF, sizeof(*ref));
	ref->obj = o;
	o->use++;
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	commit_delta(&r, 1);
	cr_assert_eq(incrementals(), n0 + 1);
	cr_assert_eq(verdict_for(53), NF_DROP);
	cr_assert_eq(verdict_for(53), NF_DROP);
	cr_assert_eq(verdict_for(54), NF_ACCEPT);
	cr_assert_eq(dataplane_counter_read(&net, o->dp_slot[0], &pk, &by), 0);
	cr_assert_eq(pk, 2);
}

/* the verdict walking the model (rules in order, the lookup rule by @s's
 * elements, then base's policy) */
static int expected_with(struct set *s, uint16_t port)
{
	struct rule *r;

	list_for_each_entry(r, &base->rules, list) {
		const struct expr *e;

		rule_for_each_expr(e, r) {
			const struct expr_cmp *c = expr_priv(e);
			const struct expr_immediate *im = expr_priv(e);

			if (e->type == EXPR_LOOKUP && !elem_of(s, port))
				break;
			if (e->type == EXPR_CMP && c->data.len == 2 &&
			    (c->data.v[0] << 8 | c->data.v[1]) != port)
				break;
			if (e->type == EXPR_IMMEDIATE)
				return im->verdict.code;
		}
	}
	return base->base->policy;
}

#define NPORTS 48	/* 100..131: rules; 132..147: the set's */

/*
 * random batches: policy changes and element changes in full batches,
 * rule inserts and deletes and element adds and deletes in incremental
 * ones, some aborted; before each flip every port answers as the live
 * generation did, after it as the model's new one
 */
Test(incremental, random_full_and_incremental_batches_match_the_model)
{
	struct set *s = port_set();
	struct dp_delta_elem de[8];
	struct rule *batch[8], *r;
	uint32_t k, i, nrules = 0, fulls = 0, aborts = 0;
	int want[NPORTS];
	uint64_t n0;
	uint16_t port;

	for (i = 0; i < 32; i++) {
		list_add_tail(&random_rule()->list, &base->rules);
		nrules++;
	}
	for (i = 0; i < 8; i++)
		port_elem(s, 132 + 2 * i, false);
	tm_commit_ok(&net);
	n0 = incrementals();
	for (k = 0; k < 80; k++) {
		struct dp_delta d = { .rules = batch, .elems = de };
		struct dp_error err = { 0 };
		uint32_t kind = rnd() % 4, n = 1 + rnd() % 4;
		bool abort_it = rnd() % 8 == 0;
		int ret;

		for (i = 0; i < NPORTS; i++)
			want[i] = expected_with(s, 100 + i);
		if (kind == 0)	/* a policy change (and rules, full) */
			base->base->policy = base->base->policy == NF_DROP ?
					     NF_ACCEPT : NF_DROP;
		for (i = 0; i < n && kind != 2 && kind != 3; i++) {
			uint32_t pos = rnd() % (nrules + 1), j = 0;
			struct list_head *at = &base->rules;

			if (nrules > 8 && rnd() % 3 == 0) {
				list_for_each_entry(r, &base->rules, list)
					if (r->list.prev != &base->rules &&
					    active(r->genmask, genmask_next(&net)) &&
					    j++ == pos % nrules)
						break;
				if (&r->list == &base->rules ||
				    !active(r->genmask, genmask_cur(&net)) ||
				    !active(r->genmask, genmask_next(&net)))
					continue;
				tm_rule_del(r);
				nrules--;
			} else {
				/* never before the set's rule, which stays first */
				list_for_each_entry(r, &base->rules, list)
					if (j++ == pos + 1) {
						at = &r->list;
						break;
					}
				r = random_rule();
				list_add_tail(&r->list, at);
				nrules++;
			}
			batch[d.nrules++] = r;
		}
		for (i = 0; i < n && (kind == 2 || kind == 3); i++) {
			uint16_t p = 132 + rnd() % 16;
			struct set_elem *e = elem_of(s, p);
			bool again = false;
			uint32_t j;

			for (j = 0; j < d.nelems; j++)
				again |= de[j].elem->key.v[1] == (p & 0xff);
			if (again)
				continue;
			if (e && active(e->genmask, genmask_cur(&net)))
				tm_elem_del(e, s);
			else if (!e)
				e = port_elem(s, p, false);
			else
				continue;
			de[d.nelems].set = s;
			de[d.nelems++].elem = e;
		}
		if (kind == 0 || kind == 3) {
			ret = dataplane_prepare(&net, &err);
			fulls++;
		} else {
			ret = dataplane_prepare_delta(&net, &d, &err);
		}
		cr_assert_eq(ret, 0, "round %u: prepare: %d %s", k, ret,
			     err.msg ? err.msg : "");
		for (port = 100; port < 100 + NPORTS; port++)
			cr_assert_eq(verdict_for(port), want[port - 100],
				     "round %u (kind %u) port %u before the flip",
				     k, kind, port);
		if (abort_it) {
			/* the control plane's undo */
			dataplane_abort(&net);
			aborts++;
			if (kind == 0)
				base->base->policy = base->base->policy == NF_DROP ?
						     NF_ACCEPT : NF_DROP;
			for (i = 0; i < d.nrules; i++) {
				r = batch[i];
				if (!active(r->genmask, genmask_cur(&net))) {
					tm_rule_free(r);
					nrules--;
				} else {
					r->genmask = 0;
					nrules++;
				}
			}
			for (i = 0; i < d.nelems; i++) {
				struct set_elem *e = de[i].elem;

				if (!active(e->genmask, genmask_cur(&net))) {
					ruleset_set_elem_unlink(s, e);
					free(e);
				} else {
					e->genmask = 0;
				}
			}
			for (port = 100; port < 100 + NPORTS; port++)
				cr_assert_eq(verdict_for(port), want[port - 100],
					     "round %u port %u after the abort", k, port);
			continue;
		}
		dataplane_publish(&net);
		flip_set(s);
		for (port = 100; port < 100 + NPORTS; port++)
			cr_assert_eq(verdict_for(port), expected_with(s, port),
				     "round %u (kind %u) port %u after the flip",
				     k, kind, port);
	}
	cr_assert_geq(incrementals() - n0, 80 - fulls - 2 * aborts,
		      "%lu incremental of 80, %u full, %u aborted",
		      (unsigned long)(incrementals() - n0), fulls, aborts);
}

/*
 * add @d { udp dport counter } (statements on the elements the packet
 * path adds), then udp dport @d drop in a rule batch: refused as the full
 * prepare refuses it (lookups of such elements), not prepared from the
 * rule alone; and the other way round
 */
Test(incremental, lookups_and_dynset_statements_of_one_set_are_refused_in_rule_batches)
{
	struct set *d = tm_set(t, "d", 0x20 /* dynamic */, 2);
	struct dp_error err = { 0 };
	struct expr_dynset *ds;
	struct tm_rb rb = { 0 };
	struct expr *x;
	struct rule *r;
	int ret, k;

	d->size = 4;
	for (k = 0; k < 2; k++) {
		/* k = 0: the dynset rule first, k = 1: the lookup rule first */
		tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
		if (k == 0) {
			ds = tm_add(&rb, EXPR_DYNSET, sizeof(*ds));
			ds->set = d;
			ds->op = DYNSET_OP_ADD;
			ds->sreg_key = 4;
			x = (struct expr *)ds->exprs;
			x->type = EXPR_COUNTER;
			x->size = EXPR_SIZE(sizeof(struct expr_counter));
			ds->nexprs = 1;
			ds->exprs_len = x->size;
		} else {
			tm_lookup(&rb, d, 4, false);
			tm_verdict(&rb, NF_DROP, NULL);
		}
		tm_rule(base, &rb);
		tm_commit_ok(&net);
		/* a rule batch (incremental, as the next one would be) */
		r = dport_new(99, NF_DROP);
		list_add_tail(&r->list, &base->rules);
		commit_delta(&r, 1);
		tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
		if (k == 0) {
			tm_lookup(&rb, d, 4, false);
			tm_verdict(&rb, NF_DROP, NULL);
		} else {
			ds = tm_add(&rb, EXPR_DYNSET, sizeof(*ds));
			ds->set = d;
			ds->op = DYNSET_OP_ADD;
			ds->sreg_key = 4;
			x = (struct expr *)ds->exprs;
			x->type = EXPR_COUNTER;
			x->size = EXPR_SIZE(sizeof(struct expr_counter));
			ds->nexprs = 1;
			ds->exprs_len = x->size;
		}
		r = tm_rule(base, &rb);
		{
			struct dp_delta dl = { .rules = &r, .nrules = 1 };

			ret = dataplane_prepare_delta(&net, &dl, &err);
		}
		cr_assert_eq(ret, -EOPNOTSUPP, "k %d: %d %s", k, ret,
			     err.msg ? err.msg : "");
		cr_assert(err.msg && strstr(err.msg, "lookups of elements"),
			  "k %d: %s", k, err.msg ? err.msg : "");
		dataplane_abort(&net);
		tm_rule_free(r);
		/* empty the chain for the other order */
		{
			struct rule *q;

			list_for_each_entry(q, &base->rules, list)
				tm_rule_del(q);
		}
		tm_commit_ok(&net);
	}
}
