// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_lookup.c - sets and maps by BPF_PROG_TEST_RUN: exact sets (address,
 * port, concatenation), inverted lookups, interval sets, data and verdict
 * maps, the catchall element, element changes without program loads, and
 * what is refused.
 */
#include "tests/codegen/model.h"

TM_FIXTURE(expr_lookup, 2 /* ip */, NF_ACCEPT);

static int run(void)
{
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

static int run_dport(uint16_t port)
{
	pkt[22] = port >> 8;
	pkt[23] = port & 0xff;
	return run();
}

static int run_daddr(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	pkt[16] = a;
	pkt[17] = b;
	pkt[18] = c;
	pkt[19] = d;
	return run();
}

/* udp dport -> reg 4 (2 bytes) */
static void dport_to(struct tm_rb *rb, uint8_t reg)
{
	tm_payload(rb, PAYLOAD_TH, 2, 2, reg);
}

/* ip daddr -> reg (4 bytes) */
static void daddr_to(struct tm_rb *rb, uint8_t reg)
{
	tm_payload(rb, PAYLOAD_NH, 16, 4, reg);
}

static struct expr_counter *counter_of(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return expr_priv(e);
	return NULL;
}

static uint64_t packets(struct rule *r)
{
	uint64_t pk = 0, by;

	cr_assert_eq(dataplane_counter_read(&net, counter_of(r)->slot, &pk, &by), 0);
	return pk;
}

Test(expr_lookup, exact_ipv4_addr)
{
	uint8_t a1[4] = { 10, 0, 0, 2 }, a2[4] = { 10, 0, 0, 9 };
	struct set *s = tm_set(t, "addrs", 0, 4);
	struct tm_rb rb = { 0 };

	tm_elem(s, a1, 4, 0);
	tm_elem(s, a2, 4, 0);
	daddr_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_daddr(10, 0, 0, 2), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 9), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 3), NF_ACCEPT);
	cr_assert_eq(run_daddr(9, 0, 0, 2), NF_ACCEPT);
}

Test(expr_lookup, exact_inet_service)
{
	struct set *s = tm_set(t, "ports", TM_SET_ANON | TM_SET_CONST, 2);
	struct tm_rb rb = { 0 };

	tm_elem16(s, 53, 0);
	tm_elem16(s, 80, 0);
	dport_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_DROP);
	cr_assert_eq(run_dport(80), NF_DROP);
	cr_assert_eq(run_dport(54), NF_ACCEPT);
	cr_assert_eq(run_dport(80 << 8), NF_ACCEPT, "byte order");
}

Test(expr_lookup, exact_concatenation_addr_port)
{
	/* ip daddr . udp dport: 4 + round_up(2, 4) = 8 key bytes */
	uint8_t k1[8] = { 10, 0, 0, 2, 0, 53, 0, 0 };
	uint8_t k2[8] = { 10, 0, 0, 3, 0, 80, 0, 0 };
	struct set *s = tm_set(t, "pairs", TM_SET_CONCAT, 8);
	struct tm_rb rb = { 0 };

	s->nfields = 2;
	s->field_len[0] = 4;
	s->field_len[1] = 2;
	tm_elem(s, k1, 8, 0);
	tm_elem(s, k2, 8, 0);
	daddr_to(&rb, 4);
	dport_to(&rb, 5);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_daddr(10, 0, 0, 2), NF_DROP, "10.0.0.2 . 53");
	cr_assert_eq(run_dport(80), NF_ACCEPT, "10.0.0.2 . 80");
	cr_assert_eq(run_daddr(10, 0, 0, 3), NF_DROP, "10.0.0.3 . 80");
	cr_assert_eq(run_dport(53), NF_ACCEPT, "10.0.0.3 . 53");
}

Test(expr_lookup, inverted)
{
	struct set *s = tm_set(t, "ports", 0, 2);
	struct tm_rb rb = { 0 };

	tm_elem16(s, 53, 0);
	tm_elem16(s, 54, 0);
	dport_to(&rb, 4);
	tm_lookup(&rb, s, 4, true);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_ACCEPT);
	cr_assert_eq(run_dport(54), NF_ACCEPT);
	cr_assert_eq(run_dport(55), NF_DROP);
}

Test(expr_lookup, interval_ports_boundaries)
{
	struct set *s = tm_set(t, "ranges", TM_SET_INTERVAL, 2);
	struct tm_rb rb = { 0 };
	static const struct { uint16_t port; int v; } cases[] = {
		{ 0, NF_ACCEPT }, { 99, NF_ACCEPT }, { 100, NF_DROP },
		{ 150, NF_DROP }, { 200, NF_DROP }, { 201, NF_ACCEPT },
		{ 999, NF_ACCEPT }, { 1000, NF_DROP }, { 1999, NF_DROP },
		{ 2000, NF_ACCEPT }, { 4999, NF_ACCEPT }, { 5000, NF_DROP },
		{ 5001, NF_ACCEPT }, { 59999, NF_ACCEPT }, { 60000, NF_DROP },
		{ 65534, NF_DROP }, { 65535, NF_DROP },
	};
	unsigned int i;

	/* as a client sends them, unsorted: [1000, 2000) [100, 201)
	 * [5000, 5001) [60000, max] (no end element: to the top) */
	tm_elem16(s, 1000, 0);
	tm_elem16(s, 2000, TM_ELEM_END);
	tm_elem16(s, 60000, 0);
	tm_elem16(s, 100, 0);
	tm_elem16(s, 201, TM_ELEM_END);
	tm_elem16(s, 5001, TM_ELEM_END);
	tm_elem16(s, 5000, 0);
	dport_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_assert_eq(run_dport(cases[i].port), cases[i].v, "port %u",
			     cases[i].port);
}

Test(expr_lookup, interval_ipv4_ranges)
{
	uint8_t s1[4] = { 10, 0, 0, 2 }, e1[4] = { 10, 0, 0, 201 };
	uint8_t s2[4] = { 10, 1, 0, 0 }, e2[4] = { 10, 2, 0, 0 };
	struct set *s = tm_set(t, "nets", TM_SET_INTERVAL, 4);
	struct tm_rb rb = { 0 };

	/* 10.0.0.2-10.0.0.200, 10.1.0.0/16 */
	tm_elem(s, s2, 4, 0);
	tm_elem(s, e2, 4, TM_ELEM_END);
	tm_elem(s, s1, 4, 0);
	tm_elem(s, e1, 4, TM_ELEM_END);
	daddr_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_daddr(10, 0, 0, 1), NF_ACCEPT);
	cr_assert_eq(run_daddr(10, 0, 0, 2), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 127), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 128), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 200), NF_DROP);
	cr_assert_eq(run_daddr(10, 0, 0, 201), NF_ACCEPT);
	cr_assert_eq(run_daddr(10, 0, 255, 255), NF_ACCEPT);
	cr_assert_eq(run_daddr(10, 1, 0, 0), NF_DROP);
	cr_assert_eq(run_daddr(10, 1, 255, 255), NF_DROP);
	cr_assert_eq(run_daddr(10, 2, 0, 0), NF_ACCEPT);
}

Test(expr_lookup, data_map_into_register)
{
	uint8_t m1[4] = { 0x11, 0x22, 0x33, 0x44 }, m2[4] = { 0, 0, 0, 0x55 };
	struct set *m = tm_map(t, "marks", 0, 2, 0x13 /* mark */, 4);
	struct tm_rb rb = { 0 };

	tm_elem_data(tm_elem16(m, 53, 0), m1, 4);
	tm_elem_data(tm_elem16(m, 54, 0), m2, 4);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, 8);
	tm_cmp(&rb, 8, CMP_EQ, m1, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_DROP, "value 0x11223344 in reg 8");
	cr_assert_eq(run_dport(54), NF_ACCEPT, "other value");
	cr_assert_eq(run_dport(55), NF_ACCEPT, "no element: break");
}

Test(expr_lookup, interval_data_map_adjacent_ranges)
{
	uint8_t one[4] = { 0, 0, 0, 1 }, two[4] = { 0, 0, 0, 2 };
	struct set *m = tm_map(t, "m", TM_SET_INTERVAL, 2, 0x13, 4);
	struct tm_rb rb = { 0 };

	/* [100, 200) -> 1, [200, 300) -> 2: end and start share key 200 */
	tm_elem_data(tm_elem16(m, 100, 0), one, 4);
	tm_elem16(m, 200, TM_ELEM_END);
	tm_elem_data(tm_elem16(m, 200, 0), two, 4);
	tm_elem16(m, 300, TM_ELEM_END);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, 8);
	tm_cmp(&rb, 8, CMP_EQ, one, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	base->base->policy = NF_ACCEPT;
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(99), NF_ACCEPT);
	cr_assert_eq(run_dport(100), NF_DROP);
	cr_assert_eq(run_dport(199), NF_DROP);
	cr_assert_eq(run_dport(200), NF_ACCEPT, "value 2");
	cr_assert_eq(run_dport(299), NF_ACCEPT);
}

Test(expr_lookup, verdict_map_accept_drop_jump_goto)
{
	struct chain *c = tm_chain(t, "c", -1, 0, 0);
	struct set *m = tm_map(t, "vm", 0, 2, TM_VERDICT, 0);
	struct tm_rb rb = { 0 };
	struct rule *cnt;

	tm_elem_verdict(tm_elem16(m, 53, 0), NF_DROP, NULL);
	tm_elem_verdict(tm_elem16(m, 54, 0), NF_ACCEPT, NULL);
	tm_elem_verdict(tm_elem16(m, 55, 0), NFT_JUMP, c);
	tm_elem_verdict(tm_elem16(m, 56, 0), NFT_GOTO, c);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_counter(&rb);
	cnt = tm_rule(c, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_DROP);
	cr_assert_eq(run_dport(54), NF_ACCEPT);
	cr_assert_eq(packets(cnt), 0);
	cr_assert_eq(run_dport(55), NF_DROP, "jump c, return, next rule drops");
	cr_assert_eq(packets(cnt), 1);
	cr_assert_eq(run_dport(56), NF_ACCEPT, "goto c, end: base policy");
	cr_assert_eq(packets(cnt), 2);
	cr_assert_eq(run_dport(57), NF_DROP, "no element: break, next rule");
	cr_assert_eq(packets(cnt), 2);
}

Test(expr_lookup, catchall_element)
{
	struct set *m = tm_map(t, "vm", 0, 2, TM_VERDICT, 0);
	struct set *s = tm_set(t, "s", 0, 2);
	struct chain *b2 = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
	struct tm_rb rb = { 0 };
	uint8_t eth[160];
	uint32_t n;

	tm_elem_verdict(tm_elem16(m, 53, 0), NF_ACCEPT, NULL);
	tm_elem_verdict(tm_elem(m, NULL, 0, 0), NF_DROP, NULL);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(base, &rb);
	/* inverted lookup in a set with a catchall: always matches (the
	 * kernel falls back to the catchall after the inversion) */
	tm_elem16(s, 53, 0);
	tm_elem(s, NULL, 0, 0);
	dport_to(&rb, 4);
	tm_lookup(&rb, s, 4, true);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(b2, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_ACCEPT);
	cr_assert_eq(run_dport(54), NF_DROP, "catchall");
	memset(eth, 0, 14);
	eth[12] = 0x08;
	n = 14 + tm_ip4(eth + 14, 17, 1000, 53, 0);
	cr_assert_eq(tm_run(&net, b2, 2, HOOK_IN, eth, n), NF_DROP);
	eth[14 + 23] = 54;
	cr_assert_eq(tm_run(&net, b2, 2, HOOK_IN, eth, n), NF_DROP);
}

Test(expr_lookup, element_changes_load_no_program)
{
	struct set *s = tm_set(t, "ports", 0, 2);
	struct set *r = tm_set(t, "ranges", TM_SET_INTERVAL, 2);
	struct set *m = tm_map(t, "vm", 0, 2, TM_VERDICT, 0);
	struct set_elem *e53, *r1, *r2, *v;
	struct dp_error err = { 0 };
	struct dp_stats s0, s1;
	struct tm_rb rb = { 0 };

	e53 = tm_elem16(s, 53, 0);
	r1 = tm_elem16(r, 100, 0);
	r2 = tm_elem16(r, 200, TM_ELEM_END);
	v = tm_elem_verdict(tm_elem16(m, 70, 0), NF_DROP, NULL);
	dport_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	dport_to(&rb, 4);
	tm_lookup(&rb, r, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s0);
	cr_assert_eq(run_dport(53), NF_DROP);
	cr_assert_eq(run_dport(54), NF_ACCEPT);
	cr_assert_eq(run_dport(150), NF_DROP);
	cr_assert_eq(run_dport(70), NF_DROP);

	/* add 54, delete 53; move the range; 70: drop -> accept (delete and
	 * add the same key in one batch) */
	tm_elem16(s, 54, 0);
	tm_elem_del(e53, s);
	tm_elem_del(r1, r);
	tm_elem_del(r2, r);
	tm_elem16(r, 0, 0);	/* [0, 50) */
	tm_elem16(r, 50, TM_ELEM_END);
	tm_elem_del(v, m);
	tm_elem_verdict(tm_elem16(m, 70, 0), NF_ACCEPT, NULL);
	cr_assert_eq(dataplane_prepare(&net, &err), 0, "%s", err.msg ? err.msg : "");
	/* prepared, not published: the live generation is unchanged */
	cr_assert_eq(run_dport(53), NF_DROP);
	cr_assert_eq(run_dport(54), NF_ACCEPT);
	cr_assert_eq(run_dport(150), NF_DROP);
	cr_assert_eq(run_dport(10), NF_ACCEPT);
	cr_assert_eq(run_dport(70), NF_DROP);
	dataplane_publish(&net);
	tm_flip(&net);
	cr_assert_eq(run_dport(53), NF_ACCEPT);
	cr_assert_eq(run_dport(54), NF_DROP);
	cr_assert_eq(run_dport(150), NF_ACCEPT);
	cr_assert_eq(run_dport(10), NF_DROP);
	cr_assert_eq(run_dport(49), NF_DROP);
	cr_assert_eq(run_dport(50), NF_ACCEPT);
	cr_assert_eq(run_dport(70), NF_ACCEPT);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded, "element changes: no program");
	cr_assert_eq(s1.shapes, s0.shapes);

	/* the whole key space, then back to nothing: prefixes of both
	 * generations share the trie */
	{
		struct set_elem *e;

		list_for_each_entry(e, &r->elems, list)
			tm_elem_del(e, r);
		tm_elem16(r, 0, 0);
		tm_commit_ok(&net);
		cr_assert_eq(run_dport(150), NF_DROP);
		cr_assert_eq(run_dport(10), NF_DROP, "under a prefix of [0, 50)");
		cr_assert_eq(run_dport(65535), NF_DROP);
		list_for_each_entry(e, &r->elems, list)
			tm_elem_del(e, r);
		tm_elem16(r, 300, 0);
		tm_elem16(r, 301, TM_ELEM_END);
		tm_commit_ok(&net);
		cr_assert_eq(run_dport(150), NF_ACCEPT);
		cr_assert_eq(run_dport(300), NF_DROP);
		cr_assert_eq(run_dport(301), NF_ACCEPT);
	}

	/* a new anonymous set of a known shape: map entries only */
	{
		struct set *a = tm_set(t, "__set0", TM_SET_ANON | TM_SET_CONST, 2);

		tm_elem16(a, 9, 0);
		dport_to(&rb, 4);
		tm_lookup(&rb, a, 4, false);
		tm_verdict(&rb, NF_DROP, NULL);
		tm_rule(base, &rb);
		tm_commit_ok(&net);
		cr_assert_eq(run_dport(9), NF_DROP);
		cr_assert_eq(run_dport(10), NF_ACCEPT);
	}
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
}

/* ip daddr . udp dport in an interval concatenation (inclusive ends) */
static struct set_elem *range_elem(struct set *s, const uint8_t a0[4],
				   uint16_t p0, const uint8_t a1[4], uint16_t p1)
{
	uint8_t k[8] = { a0[0], a0[1], a0[2], a0[3], p0 >> 8, p0 & 0xff };
	uint8_t ke[8] = { a1[0], a1[1], a1[2], a1[3], p1 >> 8, p1 & 0xff };
	struct set_elem *e = tm_elem(s, k, 8, 0);

	e->key_end.len = 8;
	memcpy(e->key_end.v, ke, 8);
	return e;
}

static int run_pair(uint8_t d, uint16_t port)
{
	pkt[19] = d;
	return run_dport(port);
}

Test(expr_lookup, interval_concatenation)
{
	static const uint8_t n0[4] = { 10, 0, 0, 0 }, n255[4] = { 10, 0, 0, 255 };
	static const uint8_t h5[4] = { 10, 0, 0, 5 };
	struct set *s = tm_set(t, "acl", TM_SET_INTERVAL | TM_SET_CONCAT, 8);
	struct set *m = tm_map(t, "vacl", TM_SET_INTERVAL | TM_SET_CONCAT, 8,
			       TM_VERDICT, 0);
	struct chain *b2 = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
	struct set_elem *e2;
	struct dp_stats s0, s1;
	struct tm_rb rb = { 0 };
	uint8_t eth[160];
	uint32_t n;

	s->nfields = m->nfields = 2;
	s->field_len[0] = m->field_len[0] = 4;
	s->field_len[1] = m->field_len[1] = 2;
	/* 10.0.0.0-10.0.0.255 . 50-60, 10.0.0.5 . 70 */
	range_elem(s, n0, 50, n255, 60);
	e2 = range_elem(s, h5, 70, h5, 70);
	daddr_to(&rb, 4);
	dport_to(&rb, 5);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	/* vmap { 10.0.0.0-10.0.0.255 . 50-60 : accept, * : drop } */
	tm_elem_verdict(range_elem(m, n0, 50, n255, 60), NF_ACCEPT, NULL);
	tm_elem_verdict(tm_elem(m, NULL, 0, 0), NF_DROP, NULL);
	daddr_to(&rb, 4);
	dport_to(&rb, 5);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(b2, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_pair(2, 50), NF_DROP);
	cr_assert_eq(run_pair(2, 49), NF_ACCEPT);
	cr_assert_eq(run_pair(2, 60), NF_DROP);
	cr_assert_eq(run_pair(2, 61), NF_ACCEPT);
	cr_assert_eq(run_pair(0, 55), NF_DROP);
	cr_assert_eq(run_pair(255, 55), NF_DROP);
	cr_assert_eq(run_pair(5, 70), NF_DROP);
	cr_assert_eq(run_pair(5, 71), NF_ACCEPT);
	cr_assert_eq(run_pair(6, 70), NF_ACCEPT);
	pkt[18] = 1;
	cr_assert_eq(run_pair(2, 55), NF_ACCEPT, "10.0.1.2: outside");
	pkt[18] = 0;
	memset(eth, 0, 14);
	eth[12] = 0x08;
	n = 14 + tm_ip4(eth + 14, 17, 1000, 55, 0);
	cr_assert_eq(tm_run(&net, b2, 2, HOOK_IN, eth, n), NF_ACCEPT);
	eth[14 + 23] = 61;
	cr_assert_eq(tm_run(&net, b2, 2, HOOK_IN, eth, n), NF_DROP, "catchall");

	/* elements change: slots, no program */
	dataplane_stats(&net, &s0);
	tm_elem_del(e2, s);
	range_elem(s, h5, 80, h5, 90);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert_eq(run_pair(5, 70), NF_ACCEPT);
	cr_assert_eq(run_pair(5, 85), NF_DROP);
	cr_assert_eq(run_pair(5, 55), NF_DROP);
}

/*
 * timeouts: an element is gone from the moment the kernel's jiffies reach
 * its expiry (nft_set_elem_expired), in hash, interval and concatenation
 * sets alike; no element change or program load is needed for it
 */
Test(expr_lookup, elements_expire_by_the_kernels_jiffies)
{
	uint8_t a1[4] = { 10, 0, 0, 2 }, a2[4] = { 10, 0, 0, 9 };
	struct set *s = tm_set(t, "to", TM_SET_TIMEOUT, 4);
	struct set *iv = tm_set(t, "iv", TM_SET_TIMEOUT | TM_SET_INTERVAL, 2);
	struct set_elem *e1, *e2, *p1;
	struct tm_rb rb = { 0 };
	uint64_t now;

	cr_assert_eq(dataplane_jiffies(&now), 0);
	e1 = tm_elem(s, a1, 4, 0);
	e2 = tm_elem(s, a2, 4, 0);
	e1->expires = now + 100000;	/* minutes away */
	e2->expires = now;		/* expired already */
	p1 = tm_elem16(iv, 50, 0);
	tm_elem16(iv, 61, TM_ELEM_END);
	p1->expires = now > 1 ? now - 1 : 1;
	daddr_to(&rb, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	dport_to(&rb, 4);
	tm_lookup(&rb, iv, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_daddr(10, 0, 0, 2), NF_DROP, "live element");
	cr_assert_eq(run_daddr(10, 0, 0, 9), NF_ACCEPT, "expired element");
	pkt[16] = 9;
	cr_assert_eq(run_dport(55), NF_ACCEPT, "expired interval");
	/* the same interval, live: a map update, and it matches again */
	p1->expires = now + 100000;
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(55), NF_DROP, "live interval");
	cr_assert_eq(run_dport(61), NF_ACCEPT, "past its end");
}

Test(expr_lookup, refusals)
{
	struct set *ob = tm_set(t, "ob", 0x40 /* object */, 4);
	struct dp_error err = { 0 };
	struct tm_rb rb = { 0 };
	struct rule *r;

	tm_lookup(&rb, ob, 4, false);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "set 'ob': object maps are not supported by the nfbpf dataplane yet");
	free(r->exprs);
	free(r);
}

Test(expr_lookup, unsupported_verdict_element_fails_prepare)
{
	struct set *m = tm_map(t, "vm", 0, 2, TM_VERDICT, 0);
	struct dp_error err = { 0 };
	struct tm_rb rb = { 0 };

	tm_elem_verdict(tm_elem16(m, 53, 0), 3 /* NF_QUEUE */, NULL);
	dport_to(&rb, 4);
	tm_lookup_map(&rb, m, 4, REG_VERDICT);
	tm_rule(base, &rb);
	cr_assert_eq(tm_commit(&net, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "set 'vm': verdict 3 is not supported by the nfbpf dataplane yet");
}

Test(expr_lookup, shapes_outlive_their_sets)
{
	struct set *a = tm_set(t, "__set0", TM_SET_ANON | TM_SET_CONST, 2);
	struct tm_rb rb = { 0 };
	struct rule *r;

	tm_elem16(a, 53, 0);
	dport_to(&rb, 4);
	tm_lookup(&rb, a, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(53), NF_DROP);
	/* rule and anonymous set go; the control plane frees the set */
	tm_rule_del(r);
	a->genmask |= genmask_next(&net);
	tm_commit_ok(&net);
	list_del(&a->list);
	memset(a, 0xa5, sizeof(*a));
	free(a);
	/* a new shape rebuilds the walker with the old lookup shape in it */
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(run_dport(54), NF_DROP);
}
