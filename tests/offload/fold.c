// SPDX-License-Identifier: GPL-2.0-only
/*
 * fold.c - runs of same-shape rules folded into one fold map lookup give
 * what walking them in order gives: the verdict of the first match, the
 * counters of exactly the rules that matched (continue verdicts and jumps
 * included), duplicate keys (a run ends before a repeated key), and
 * incremental changes (append after a run keeps it folded, insert inside
 * or delete unfolds it, a full prepare folds again).
 */
#include "tests/codegen/model.h"

static struct net net;
static struct table *t;
static struct chain *base, *sub;
static uint8_t pkt[128];
static uint32_t plen;

#define NPORTS	48
#define PORT0	2000

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 2 /* ip */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	sub = tm_chain(t, "sub", -1, 0, 0);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(fold, .init = setup, .fini = teardown, .timeout = 120);

/* udp dport @port counter @verdict [@to]; not linked */
static struct rule *dport_new(struct chain *c, uint16_t port, int verdict,
			      struct chain *to)
{
	uint8_t p[2] = { port >> 8, port & 0xff }, udp = 17;
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 16, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, verdict, to);
	return tm_rule_new(c, &rb);
}

static struct rule *add(struct chain *c, uint16_t port, int verdict,
			struct chain *to)
{
	struct rule *r = dport_new(c, port, verdict, to);

	list_add_tail(&r->list, &c->rules);
	return r;
}

static int verdict_for(uint16_t port)
{
	pkt[22] = port >> 8;
	pkt[23] = port & 0xff;
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

static uint16_t port_of(const struct rule *r)
{
	const struct expr *e;

	rule_for_each_expr(e, r) {
		const struct expr_cmp *c = expr_priv(e);

		if (e->type == EXPR_CMP && c->data.len == 2)
			return c->data.v[0] << 8 | c->data.v[1];
	}
	return 0;
}

static const struct expr_immediate *verdict_of(const struct rule *r)
{
	const struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_IMMEDIATE)
			return expr_priv(e);
	return NULL;
}

static uint64_t packets_of(const struct rule *r)
{
	const struct expr *e;
	uint64_t pk = 0, by;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			cr_assert_eq(dataplane_counter_read(&net,
				((struct expr_counter *)expr_priv(e))->slot,
				&pk, &by), 0);
	return pk;
}

/*
 * nft_do_chain over the model for @port: the verdict, and each matching
 * rule's expected count bumped in @want (indexed like the rules of
 * base then sub, in list order)
 */
static int walk(struct chain *c, uint16_t port, uint64_t *want, int *depth)
{
	struct rule *r;
	int i = c == base ? 0 : 1000;

	list_for_each_entry(r, &c->rules, list) {
		const struct expr_immediate *im = verdict_of(r);

		if (port_of(r) == port) {
			want[i]++;
			if (im->verdict.code == NFT_JUMP) {
				int v = walk(im->verdict.chain, port, want, depth);

				if (v != NFT_CONTINUE)
					return v;
			} else if (im->verdict.code != NFT_CONTINUE) {
				return im->verdict.code;
			}
		}
		i++;
	}
	return NFT_CONTINUE;
}

/* every port's verdict and every rule's counter as walking in order */
static void check_all(const char *when)
{
	static uint64_t want[2000];
	uint16_t port;
	struct rule *r;
	int i, d = 0;

	memset(want, 0, sizeof(want));
	for (port = PORT0; port < PORT0 + NPORTS; port++) {
		int v = walk(base, port, want, &d);

		if (v == NFT_CONTINUE)
			v = NF_ACCEPT;	/* policy */
		cr_assert_eq(verdict_for(port), v, "%s: port %u", when, port);
	}
	i = 0;
	list_for_each_entry(r, &base->rules, list) {
		cr_assert_eq(packets_of(r), want[i], "%s: base rule %d (port %u)",
			     when, i, port_of(r));
		i++;
	}
	i = 1000;
	list_for_each_entry(r, &sub->rules, list) {
		cr_assert_eq(packets_of(r), want[i], "%s: sub rule %d", when, i);
		i++;
	}
}

/* counts of base's rules at the last check_delta(), by rule uid (a new
 * rule may get the memory of one freed before) */
static struct {
	uint64_t uid;
	uint64_t n;
} seen[256];
static int nseen;

static uint64_t *last_count(const struct rule *r)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].uid == r->uid)
			return &seen[i].n;
	cr_assert_lt(nseen, 256);
	seen[nseen].uid = r->uid;
	seen[nseen].n = 0;
	return &seen[nseen++].n;
}

/* verdicts as check_all(); counters: what each rule counted since the
 * last call equals what walking in order counts */
static void check_delta(const char *when)
{
	static uint64_t want[2000];
	uint16_t port;
	struct rule *r;
	int i, d = 0;

	memset(want, 0, sizeof(want));
	for (port = PORT0; port < PORT0 + NPORTS; port++) {
		int v = walk(base, port, want, &d);

		if (v == NFT_CONTINUE)
			v = NF_ACCEPT;
		cr_assert_eq(verdict_for(port), v, "%s: port %u", when, port);
	}
	i = 0;
	list_for_each_entry(r, &base->rules, list) {
		uint64_t now = packets_of(r), *last = last_count(r);

		cr_assert_eq(now - *last, want[i],
			     "%s: base rule %d (port %u): %lu now, %lu before, want +%lu",
			     when, i, port_of(r), (unsigned long)now,
			     (unsigned long)*last, (unsigned long)want[i]);
		*last = now;
		i++;
	}
}

Test(fold, first_match_counters_continue_and_jump)
{
	struct dp_stats st;
	int i;

	/* sub: counts, then returns to the rule after the jumping one */
	add(sub, PORT0 + 5, NFT_CONTINUE, NULL);
	/* run 1: 24 rules, some continue, one jumps */
	for (i = 0; i < 24; i++) {
		int v = i % 3 == 0 ? NFT_CONTINUE : i % 3 == 1 ? NF_DROP : NF_ACCEPT;

		if (i == 5)
			add(base, PORT0 + i, NFT_JUMP, sub);
		else
			add(base, PORT0 + i, v, NULL);
	}
	/* a repeated key ends run 1; run 2 starts with it */
	for (i = 0; i < 24; i++)
		add(base, PORT0 + (i + 3) % NPORTS, i % 2 ? NF_DROP : NF_ACCEPT,
		    NULL);
	tm_commit_ok(&net);
	dataplane_stats(&net, &st);
	cr_assert_geq(st.fold_heads, 2, "the runs are folded");
	check_all("folded");
}

Test(fold, incremental_append_insert_delete)
{
	struct dp_delta d = { 0 };
	struct dp_error err = { 0 };
	struct dp_stats s0, s1;
	struct rule *r[64], *n;
	int i;

	for (i = 0; i < 32; i++)
		r[i] = add(base, PORT0 + i, i % 4 == 0 ? NFT_CONTINUE : NF_DROP,
			   NULL);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.fold_heads, 1);
	check_delta("full");

	/* append after the run: stays folded, the new rule is reached */
	n = add(base, PORT0 + 40, NF_DROP, NULL);
	d.rules = &n;
	d.nrules = 1;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	n = add(base, PORT0 + 41, NF_DROP, NULL);
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 2,
		     "both, the first one after the full prepare too");
	cr_assert_eq(s1.fold_heads, 1, "appending keeps the run folded");
	check_delta("appended");

	/* insert inside the run (port 2010 again, after rule 3, accept):
	 * it wins over rule 10's drop only if it comes first: it does */
	n = dport_new(base, PORT0 + 10, NF_ACCEPT, NULL);
	list_add(&n->list, &r[3]->list);
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.fold_heads, 0, "inserting inside unfolds the run");
	check_delta("inserted");

	/* delete a rule; then a full prepare folds again */
	tm_rule_del(r[20]);
	d.rules = &r[20];
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	check_delta("deleted");
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_geq(s1.fold_heads, 1, "a full prepare folds again");
	check_delta("refolded");
}

/*
 * a full prepare keeps a run whose rules did not change (its head and
 * fold map keys: nothing written, nothing for the next prepare to free),
 * also right after the full prepare that made it; it folds again a run
 * that a rule was inserted into or deleted from
 */
Test(fold, full_prepares_keep_runs_that_did_not_change)
{
	struct dp_delta d = { 0 };
	struct dp_error err = { 0 };
	struct dp_stats s0, s1;
	struct rule *r[32], *n;
	int i;

	for (i = 0; i < 32; i++)
		r[i] = add(base, PORT0 + i, i % 4 == 0 ? NFT_CONTINUE : NF_DROP,
			   NULL);
	tm_commit_ok(&net);
	check_delta("folded");
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.fold_heads, 1);
	cr_assert_eq(s0.fold_keys_written, 32);
	/* two full prepares (the first one right after the one that made
	 * the run: its head is not active in both generations yet) */
	add(sub, PORT0 + 40, NF_DROP, NULL);
	tm_commit_ok(&net);
	check_delta("full 1");
	tm_commit_ok(&net);
	check_delta("full 2");
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.fold_heads, 1);
	cr_assert_eq(s1.fold_keys_written, s0.fold_keys_written,
		     "%lu keys written", (unsigned long)(s1.fold_keys_written - s0.fold_keys_written));
	/* a rule batch after them: incremental, nothing to free */
	n = add(base, PORT0 + 41, NF_DROP, NULL);
	d.rules = &n;
	d.nrules = 1;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	check_delta("appended");
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.incremental_prepares, s0.incremental_prepares + 1);
	cr_assert_eq(s1.fold_keys_written, s0.fold_keys_written);
	/* inserted inside, by a full prepare: folded again (the old keys go
	 * with the next prepare) */
	n = dport_new(base, PORT0 + 10, NF_ACCEPT, NULL);
	list_add(&n->list, &r[3]->list);
	tm_commit_ok(&net);
	check_delta("inserted");
	dataplane_stats(&net, &s0);
	cr_assert_geq(s0.fold_heads, 1);
	cr_assert_gt(s0.fold_keys_written, s1.fold_keys_written, "folded again");
	tm_commit_ok(&net);
	check_delta("inserted, full again");
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.fold_keys_written, s0.fold_keys_written + 32,
		     "the old run's 32 keys go, no new ones: %lu written",
		     (unsigned long)(s1.fold_keys_written - s0.fold_keys_written));
	/* a member deleted by a full prepare: folded again */
	tm_rule_del(r[20]);
	tm_commit_ok(&net);
	check_delta("deleted");
	tm_commit_ok(&net);
	check_delta("deleted, full again");
	dataplane_stats(&net, &s0);
	cr_assert_geq(s0.fold_heads, 1);
	cr_assert_gt(s0.fold_keys_written, s1.fold_keys_written);
}

Test(fold, delete_member_while_folded)
{
	struct dp_delta d = { 0 };
	struct dp_error err = { 0 };
	struct dp_stats s1;
	struct rule *r[32], *n;
	int i;

	for (i = 0; i < 32; i++)
		r[i] = add(base, PORT0 + i, NF_DROP, NULL);
	tm_commit_ok(&net);
	/* a rule-only batch (incremental, as the next ones) */
	n = add(base, PORT0 + 40, NF_ACCEPT, NULL);
	d.rules = &n;
	d.nrules = 1;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	check_delta("before");
	/* delete a member: inactive at once, unlinked (and the run unfolded)
	 * by the next prepare */
	tm_rule_del(r[7]);
	d.rules = &r[7];
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(verdict_for(PORT0 + 7), NF_ACCEPT);
	check_delta("deleted");
	n = add(base, PORT0 + 7, NF_DROP, NULL);
	d.rules = &n;
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
	dataplane_publish(&net);
	tm_flip(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.fold_heads, 0);
	/* (check_delta() first: the packet below counts on the new rule) */
	check_delta("after");
	cr_assert_eq(verdict_for(PORT0 + 7), NF_DROP, "the new last rule");
}

/*
 * the last rule of a folded run swapped for a copy at every commit
 * (before or after it, alternately), incremental prepares: the live
 * generation must accept after each prepare and after each publish (a
 * head settled after the member that unfolded it once stayed folded over
 * a freed member: packets fell through to the drop)
 */
static void swap_last_member(int nfill)
{
	struct rule *p, *cur, *next, *rules[2], *r, *rn;
	struct dp_delta d = { .rules = rules, .nrules = 2 };
	struct dp_error err = { 0 };
	struct dp_stats s0, st;
	int i;

	p = add(base, PORT0 + 9, NF_DROP, NULL);
	for (i = 0; i < nfill; i++)
		list_add_tail(&dport_new(base, PORT0 + 20 + i, NF_ACCEPT, NULL)->list,
			      &p->list);
	cur = dport_new(base, PORT0 + 9, NF_ACCEPT, NULL);
	list_add_tail(&cur->list, &p->list);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(s0.fold_heads, 1);
	cr_assert_eq(verdict_for(PORT0 + 9), NF_ACCEPT);
	for (i = 0; i < 20; i++) {
		next = dport_new(base, PORT0 + 9, NF_ACCEPT, NULL);
		if (i % 2)
			list_add_tail(&next->list, &cur->list);
		else
			list_add(&next->list, &cur->list);
		tm_rule_del(cur);
		rules[0] = next;
		rules[1] = cur;
		cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0);
		cr_assert_eq(verdict_for(PORT0 + 9), NF_ACCEPT,
			     "%d fillers, commit %d, prepared", nfill, i);
		dataplane_publish(&net);
		cr_assert_eq(verdict_for(PORT0 + 9), NF_ACCEPT,
			     "%d fillers, commit %d, published", nfill, i);
		tm_flip(&net);
		cur = next;
	}
	dataplane_stats(&net, &st);
	cr_assert_geq(st.incremental_prepares, s0.incremental_prepares + 19);
	cr_assert_eq(packets_of(p), 0);
	/* empty the chain for the next round */
	list_for_each_entry_safe(r, rn, &base->rules, list)
		tm_rule_del(r);
	tm_commit_ok(&net);
}

/*
 * the last rule of a folded run swapped for a copy at every commit
 * (before or after it, alternately), incremental prepares: the live
 * generation must accept after each prepare and after each publish (a
 * head settled after the member that unfolded it stayed folded over a
 * freed member: packets fell through to the drop). Run lengths vary the
 * order in which records are settled.
 */
Test(fold, swap_the_last_member_every_commit)
{
	int n;

	for (n = 8; n < 40; n += 3)
		swap_last_member(n);
}
