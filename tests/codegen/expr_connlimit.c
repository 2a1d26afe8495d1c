// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_connlimit.c - "ct count" by BPF_PROG_TEST_RUN, in a rule and on
 * the elements a dynset adds (one list per element: its checks, its
 * count, keys up to 64 bytes, the set's collection of an element whose
 * list empties).
 *
 * Test runs carry no conntrack: the list takes the tuple of the headers
 * (nf_ct_get_tuplepr()), so after the packet's own add the count is at
 * least 1 whatever the garbage collection did (it runs at most once a
 * jiffy): "over 0" always matches, "0" never does. A non-first fragment
 * has no tuple: the kernel's -ENOENT is NF_DROP, whatever the policy.
 * Counts of real connections are compared with the kernel's by
 * tests/dataplane (c13, c16).
 */
#include <errno.h>
#include <string.h>
#include "tests/codegen/model.h"
#include "expr/connlimit.h"
#include "expr/counter.h"
#include "expr/dynset.h"

TM_FIXTURE(expr_connlimit, 2 /* ip */, NF_DROP);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* "ct count [over] N accept" */
static void connlimit_rule(uint32_t limit, bool over)
{
	struct tm_rb rb = { 0 };
	struct expr_connlimit *c = tm_add(&rb, EXPR_CONNLIMIT, sizeof(*c));

	c->limit = limit;
	c->invert = over;
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
}

Test(expr_connlimit, over_0_matches_every_packet)
{
	int i;

	connlimit_rule(0, true);
	tm_commit_ok(&net);
	for (i = 0; i < 4; i++)
		cr_assert_eq(run(), NF_ACCEPT, "packet %d counts itself", i + 1);
}

Test(expr_connlimit, count_0_matches_no_packet)
{
	int i;

	connlimit_rule(0, false);
	tm_commit_ok(&net);
	for (i = 0; i < 3; i++)
		cr_assert_eq(run(), NF_DROP, "packet %d: a count of 1 is over 0", i + 1);
}

Test(expr_connlimit, large_limit_matches)
{
	connlimit_rule(1000, false);
	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT);
	cr_assert_eq(run(), NF_ACCEPT);
}

Test(expr_connlimit, non_first_fragment_is_dropped)
{
	base->base->policy = NF_ACCEPT;
	connlimit_rule(1000, false);
	tm_commit_ok(&net);
	plen = tm_ip4(pkt, 17, 1000, 53, 100);
	cr_assert_eq(run(), NF_DROP, "no tuple: NF_DROP, not the policy");
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
	cr_assert_eq(run(), NF_ACCEPT);
}

/* a record of @type with @priv bytes at @at */
static struct expr *rec(void *at, enum expr_type type, size_t priv)
{
	struct expr *x = at;

	memset(x, 0, EXPR_SIZE(priv));
	x->type = type;
	x->size = EXPR_SIZE(priv);
	return x;
}

/* a dynset record at @buf adding to @s with one ct count [over] @limit */
static struct expr *dynset_cl(uint64_t *buf, struct set *s, uint32_t limit,
			      bool over)
{
	struct expr *e = rec(buf, EXPR_DYNSET, sizeof(struct expr_dynset));
	struct expr_dynset *d = expr_priv(e);
	struct expr_connlimit *c;

	d->set = s;
	d->op = DYNSET_OP_ADD;
	d->sreg_key = REG_DATA_FIRST;
	c = expr_priv(rec(d->exprs, EXPR_CONNLIMIT, sizeof(*c)));
	c->limit = limit;
	c->invert = over;
	d->exprs_len = EXPR_SIZE(sizeof(*c));
	d->nexprs = 1;
	return e;
}

Test(expr_connlimit, dynset_element_connlimit_is_served_and_reads_ct)
{
	uint64_t buf[64];
	struct set s = { .klen = 4, .flags = 0x20 /* NFT_SET_EVAL */ };
	struct expr *e = dynset_cl(buf, &s, 20, true);
	struct expr_dynset *d = expr_priv(e);
	struct dp_error err = { 0 };

	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), 0, "%s",
		     err.msg ? err.msg : "");
	cr_assert(codegen_expr_reads_ct(e), "its list needs the packet's conntrack");
	rec(d->exprs, EXPR_COUNTER, sizeof(struct expr_counter));
	d->exprs_len = EXPR_SIZE(sizeof(struct expr_counter));
	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), 0);
	cr_assert_not(codegen_expr_reads_ct(e), "a counter alone does not");
}

#define WITH_OTHERS "set 'm': ct count with other statements on elements the packet path adds is"
#define INVERTED "set 'm': ct count on elements an inverted dynset adds is"

Test(expr_connlimit, dynset_connlimit_with_others_or_inverted_is_refused)
{
	uint64_t buf[64];
	struct set s = { .name = (char *)"m", .klen = 4, .flags = 0x20 };
	struct expr *e = dynset_cl(buf, &s, 2, false);
	struct expr_dynset *d = expr_priv(e);
	struct dp_error err = { 0 };

	/* ct count, counter */
	rec(d->exprs + d->exprs_len, EXPR_COUNTER, sizeof(struct expr_counter));
	d->exprs_len += EXPR_SIZE(sizeof(struct expr_counter));
	d->nexprs = 2;
	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), -EOPNOTSUPP);
	cr_assert(!strncmp(err.msg, WITH_OTHERS, strlen(WITH_OTHERS)), "%s", err.msg);
	cr_assert_lt(strlen(err.msg), 159, "fits an extended ack");
	/* an inverted dynset (the kernel turns the list's NF_DROP into a
	 * break there) */
	e = dynset_cl(buf, &s, 2, false);
	d = expr_priv(e);
	d->invert = true;
	memset(&err, 0, sizeof(err));
	cr_assert_eq(codegen_expr_ops[EXPR_DYNSET]->check(e, &err), -EOPNOTSUPP);
	cr_assert(!strncmp(err.msg, INVERTED, strlen(INVERTED)), "%s", err.msg);
}

struct elems {
	uint32_t n, flagged;
	uint8_t last[SET_KLEN_MAX];
};

static int elem_one(void *arg, const uint8_t *key, uint64_t timeout,
		    uint64_t expires, const uint8_t *data)
{
	struct elems *el = arg;
	uint32_t flags;

	(void)timeout;
	(void)expires;
	memcpy(&flags, data + SET_DATA_FLAGS, 4);
	el->n++;
	if (flags & (SET_STMTS_INLINE | SET_STMTS_CONNLIMIT))
		el->flagged++;
	memcpy(el->last, key, SET_KLEN_MAX);
	return 0;
}

static struct elems elems_of(struct set *s)
{
	struct elems el = { 0 };

	cr_assert_eq(dataplane_set_read(&net, s, elem_one, &el), 0);
	return el;
}

/*
 * "add @s { KEY ct count [over] N } accept" with a key of @klen bytes made
 * of immediates (the last byte @tag), policy drop
 */
static struct set *cl_rule(uint32_t klen, uint8_t tag, uint32_t limit, bool over)
{
	struct set *s = tm_set(t, "s", 0x20 /* dynamic */, klen);
	struct tm_rb rb = { 0 };
	struct expr_dynset *d;
	uint8_t key[SET_KLEN_MAX];

	s->size = 65535;
	memset(key, 0xab, sizeof(key));
	key[klen - 1] = tag;
	tm_imm(&rb, REG_DATA_FIRST, key, klen);
	d = tm_add(&rb, EXPR_DYNSET, sizeof(*d));
	memcpy(d, expr_priv(dynset_cl((uint64_t[64]){ 0 }, s, limit, over)),
	       sizeof(*d));
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	return s;
}

Test(expr_connlimit, dynset_element_counts_its_packet)
{
	struct set *s = cl_rule(4, 1, 0, true);
	struct elems el;

	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT, "a new element: its list holds the packet, over 0");
	cr_assert_eq(run(), NF_ACCEPT, "the element again: still at least 1");
	el = elems_of(s);
	cr_assert_eq(el.n, 1);
	cr_assert_eq(el.flagged, 1, "SET_STMTS_INLINE | SET_STMTS_CONNLIMIT");
}

Test(expr_connlimit, dynset_element_count_0_breaks)
{
	struct set *s = cl_rule(4, 1, 0, false);

	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_DROP, "count 1 is over 0: the rule breaks");
	cr_assert_eq(elems_of(s).n, 1, "the element stays added");
}

/*
 * the longest key (64 bytes, all 16 registers): the list key holds it
 * whole; the element is listed with its key, and once its entry (a tuple
 * with no conntrack: not found) is 2 jiffies old the set's collection
 * takes the element (nf_conncount_gc_list() empties the list)
 */
Test(expr_connlimit, dynset_longest_key_and_collection)
{
	struct set *s = cl_rule(SET_KLEN_MAX, 0x5a, 1, false);
	struct elems el;

	tm_commit_ok(&net);
	cr_assert_eq(run(), NF_ACCEPT, "count 1, not over 1");
	el = elems_of(s);
	cr_assert_eq(el.n, 1);
	cr_assert_eq(el.last[SET_KLEN_MAX - 1], 0x5a);
	cr_assert_eq(el.last[0], 0xab);
	usleep(100 * 1000);	/* > 2 jiffies at any HZ */
	cr_assert_eq(dataplane_set_cl_gc(&net, s), 0);
	cr_assert_eq(elems_of(s).n, 0, "its only connection is gone: collected");
	cr_assert_eq(run(), NF_ACCEPT, "a new element, a new list: count 1");
	cr_assert_eq(elems_of(s).n, 1);
}
