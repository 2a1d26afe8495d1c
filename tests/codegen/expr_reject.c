// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_reject.c - the reject expression in the BPF dataplane
 * (BPF_PROG_TEST_RUN at LOCAL_OUT in a scratch netns whose lo holds
 * 10.0.0.0/8): the verdict is NF_DROP, the record carries the packet, and
 * once the ring is drained the ICMP error reaches a raw socket of the
 * netns, quoting the packet; bridge and netdev tables are refused.
 */
#include <poll.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "tests/codegen/model.h"
#include "codegen/codegen.h"
#include "expr/reject.h"
#include "ruleset_api.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[1024];
static uint32_t plen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	cr_assert_eq(system("ip link set lo up && ip addr add 10.0.0.1/8 dev lo"), 0);
	t = tm_table(&net, "t", 2);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
	pkt[24] = 0;
	pkt[25] = 16;	/* udp length, checksum 0 (none) */
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_reject, .init = setup, .fini = teardown);

/* meta l4proto @proto reject ... (the reply must not be rejected too) */
static void tm_reject(struct tm_rb *rb, uint8_t family, uint8_t type,
		      uint8_t code)
{
	struct expr_reject *r;
	uint8_t proto = pkt[9];

	tm_meta(rb, 16 /* l4proto */, 8, 1);
	tm_cmp(rb, 8, CMP_EQ, &proto, 1);
	r = tm_add(rb, EXPR_REJECT, sizeof(*r));

	r->family = family;
	r->type = type;
	r->icmp_code = code;
}

static void no_log(void *arg, const struct codegen_log_rec *rec,
		   const char *prefix, bool allowed)
{
	(void)arg; (void)rec; (void)prefix; (void)allowed;
}

/* records drained (the log ring's count is 0 here) */
static int drain(void)
{
	int n = offload_log_read(&net, no_log, NULL);

	cr_assert_geq(n, 0);
	return n;
}

Test(expr_reject, drops_and_answers_with_the_code)
{
	struct tm_rb rb = { 0 };
	uint64_t sent = 0, lost = 0;
	uint8_t buf[256];
	int s = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMP);
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	ssize_t n;

	cr_assert_geq(s, 0);
	tm_reject(&rb, 1 /* inet */, REJECT_ICMPX_UNREACH,
		  REJECT_ICMPX_ADMIN_PROHIBITED);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	n = drain();
	cr_assert_eq(n, 1, "drained %zd", n);
	cr_assert_eq(offload_reject_stats(&net, &sent, &lost), 0);
	cr_assert_eq(sent, 1);
	cr_assert_eq(lost, 0);
	/* the error, from lo: type 3 code 13, quoting our 36 bytes */
	cr_assert_eq(poll(&pfd, 1, 2000), 1);
	n = recv(s, buf, sizeof(buf), 0);
	cr_assert_eq(n, 20 + 8 + (ssize_t)plen);
	cr_assert_eq(buf[9], 1);
	cr_assert_eq(buf[1], 0xc0, "TOS: internet control");
	cr_assert_arr_eq(buf + 16, pkt + 12, 4, "to the sender");
	cr_assert_eq(buf[20], 3);
	cr_assert_eq(buf[21], 13);
	cr_assert_arr_eq(buf + 28, pkt, plen);
	close(s);
}

Test(expr_reject, rules_after_it_never_run)
{
	struct tm_rb rb = { 0 };
	uint64_t sent = 0, lost = 0;

	tm_reject(&rb, 2, REJECT_ICMP_UNREACH, 3);
	tm_rule(base, &rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(drain(), 2);
	cr_assert_eq(offload_reject_stats(&net, &sent, &lost), 0);
	cr_assert_eq(sent + lost, 2);
}

/* a test-run skb is CHECKSUM_NONE: a TCP segment whose checksum is wrong
 * gets no reset (nf_reject_ip_tcphdr_get()), but is dropped all the same */
Test(expr_reject, bad_tcp_checksum_no_reset_still_dropped)
{
	struct tm_rb rb = { 0 };
	uint64_t sent = 1, lost = 1;

	plen = tm_ip4(pkt, 6, 1000, 22, 0);
	pkt[37] = 0x02;	/* SYN, checksum left 0 */
	tm_reject(&rb, 2, REJECT_TCP_RST, 0);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP);
	cr_assert_eq(drain(), 1);
	cr_assert_eq(offload_reject_stats(&net, &sent, &lost), 0);
	cr_assert_eq(sent, 0);
	cr_assert_eq(lost, 0);
}

Test(expr_reject, netdev_tables_are_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct rule *r;

	tm_reject(&rb, 5 /* netdev */, REJECT_ICMP_UNREACH, 3);
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "reject in a netdev table is not supported by the nfbpf dataplane yet");
	ruleset_rule_free(r);
}

/* the verdict never depends on the daemon: with nobody draining the ring
 * (about 200 records), every packet is still dropped */
Test(expr_reject, full_ring_still_drops)
{
	struct tm_rb rb = { 0 };
	int i, n;

	tm_reject(&rb, 2, REJECT_ICMP_UNREACH, 3);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	for (i = 0; i < 400; i++)
		cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, plen), NF_DROP,
			     "packet %d", i);
	n = drain();
	cr_assert_gt(n, 100);
	cr_assert_lt(n, 400, "the ring is bounded: %d records", n);
}
