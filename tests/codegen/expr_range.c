// SPDX-License-Identifier: GPL-2.0-only
/* expr_range.c - inclusive ranges in network order, EQ and NEQ. */
#include "tests/codegen/model.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[128];
static uint32_t plen;

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

TestSuite(expr_range, .init = setup, .fini = teardown);

/* udp dport [from, to] (op) drop; verdict for dport */
static int dport_verdict(uint8_t op, uint16_t from, uint16_t to, uint16_t dport)
{
	uint8_t f[2] = { from >> 8, from & 0xff }, tt[2] = { to >> 8, to & 0xff };
	struct tm_rb rb = { 0 };
	struct rule *r;
	int v;

	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_range(&rb, 4, op, f, tt, 2);
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(base, &rb);
	tm_commit_ok(&net);
	plen = tm_ip4(pkt, 17, 1000, dport, 0);
	v = tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
	tm_rule_del(r);
	tm_commit_ok(&net);
	return v;
}

Test(expr_range, eq_inclusive_big_endian)
{
	cr_assert_eq(dport_verdict(CMP_EQ, 255, 1024, 255), NF_DROP);
	cr_assert_eq(dport_verdict(CMP_EQ, 255, 1024, 1024), NF_DROP);
	cr_assert_eq(dport_verdict(CMP_EQ, 255, 1024, 256), NF_DROP);
	cr_assert_eq(dport_verdict(CMP_EQ, 255, 1024, 254), NF_ACCEPT);
	cr_assert_eq(dport_verdict(CMP_EQ, 255, 1024, 1025), NF_ACCEPT);
}

Test(expr_range, neq_outside)
{
	cr_assert_eq(dport_verdict(CMP_NEQ, 255, 1024, 300), NF_ACCEPT);
	cr_assert_eq(dport_verdict(CMP_NEQ, 255, 1024, 254), NF_DROP);
	cr_assert_eq(dport_verdict(CMP_NEQ, 255, 1024, 1025), NF_DROP);
}
