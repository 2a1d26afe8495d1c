// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic.c - a batch is seen by packets all at once (issue #3 item 4).
 *
 * input chain, policy accept, a persistent last rule P: udp dport 9
 * counter drop. Before P there is always exactly one rule "udp dport 9
 * accept": A or B. Each commit deletes the one and inserts the other, at
 * alternating positions (the new rule before or after the old one). A
 * packet that saw a mix of the two generations where neither accept rule
 * is live would reach P: P's counter must stay 0 and every datagram must
 * arrive, while a sender thread keeps datagrams flowing through hundreds
 * of commits. Both loops are bounded in count and time.
 *
 * Variants: 16 rules of A's shape before it (a folded run that A joins,
 * leaves, is inserted into: fold heads replaced or unfolded under
 * traffic), commits told the batch's two rules (incremental prepares,
 * dataplane_prepare_delta()), and those with full batches that change a
 * chain's policy in between (the incremental prepare right after a full
 * one).
 */
#include "tests/codegen/model.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#define COMMITS		300	/* at least, and on until ... */
#define PACKETS		20000	/* ... this many went through */
#define SEND_MAX	200000
#define SEND_SECONDS	20

static struct net net;
static struct table *t;
static struct chain *input;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	cr_assert_eq(system("ip link set lo up"), 0);
	t = tm_table(&net, "t", 1 /* inet */);
	input = tm_chain(t, "input", HOOK_IN, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(atomic, .init = setup, .fini = teardown, .timeout = 120);

struct flow {
	int tx, rx;
	volatile bool stop;
	volatile uint64_t sent, received;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* sender: datagrams to 127.0.0.1:9, never more than 256 ahead of the
 * receiver (so a full socket buffer never drops one) */
static void *sender(void *arg)
{
	struct flow *f = arg;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint64_t deadline = now_ms() + SEND_SECONDS * 1000;

	while (!f->stop && f->sent < SEND_MAX && now_ms() < deadline) {
		if (f->sent - f->received >= 256) {
			struct timespec ts = { 0, 50000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (sendto(f->tx, "x", 1, 0, (void *)&a, sizeof(a)) == 1)
			f->sent++;
	}
	return NULL;
}

static void *receiver(void *arg)
{
	struct flow *f = arg;
	char buf[16];

	for (;;) {
		struct pollfd p = { .fd = f->rx, .events = POLLIN };

		if (poll(&p, 1, 200) <= 0) {
			if (f->stop)
				return NULL;
			continue;
		}
		while (recv(f->rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			f->received++;
	}
}

static struct expr_counter *counter_of(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return expr_priv(e);
	return NULL;
}

/* udp dport 9 accept (r4: l4proto, r4: dport) */
static struct rule *accept9(void)
{
	uint8_t udp = 17, port[2] = { 0, 9 };
	struct tm_rb rb = { 0 };
	struct rule *r;

	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port, 2);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	r = tm_rule_new(input, &rb);
	return r;
}

/* udp dport @n accept (never sent to), of A's shape */
static struct rule *filler(uint16_t n)
{
	uint8_t udp = 17, port[2] = { n >> 8, n & 0xff };
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port, 2);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	return tm_rule_new(input, &rb);
}

/* commit a batch that inserts @ins and deletes @del (told to the
 * dataplane if @delta) */
static void commit(bool delta, struct rule *ins, struct rule *del)
{
	struct rule *rules[2] = { ins, del };
	struct dp_delta d = { .rules = rules, .nrules = 2 };
	struct dp_error err = { 0 };

	if (!delta) {
		tm_commit_ok(&net);
		return;
	}
	cr_assert_eq(dataplane_prepare_delta(&net, &d, &err), 0, "%s",
		     err.msg ? err.msg : "");
	dataplane_publish(&net);
	tm_flip(&net);
}

/*
 * @delta: commits told their two rules (incremental prepares); @policy:
 * a second base chain after input (priority 10) goes policy drop with a
 * rule R "udp dport 9 accept" in one full batch, back to policy accept
 * without R in the next, and the third batch is incremental (so its
 * generation's policy half of input2 was last written two generations
 * ago, when it was drop: a stale half drops the datagrams)
 */
static void swap_under_traffic(int nfill, bool delta, bool policy)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint8_t udp = 17, port[2] = { 0, 9 };
	struct flow f = { 0 };
	struct rule *p, *cur, *next, *r = NULL;
	struct chain *input2 = NULL;
	struct tm_rb rb = { 0 };
	pthread_t ts, tr;
	uint64_t pk = 0, by, wait_until;
	int i, big = 1 << 22;

	/* P: udp dport 9 counter drop; A before it */
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port, 2);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	p = tm_rule(input, &rb);
	for (i = 0; i < nfill; i++)
		list_add_tail(&filler(1000 + i)->list, &p->list);
	cur = accept9();
	list_add_tail(&cur->list, &p->list);
	if (policy)
		input2 = tm_chain(t, "input2", HOOK_IN, 10, NF_ACCEPT);
	tm_commit_ok(&net);

	f.rx = socket(AF_INET, SOCK_DGRAM, 0);
	f.tx = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert(f.rx >= 0 && f.tx >= 0);
	setsockopt(f.rx, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	cr_assert_eq(bind(f.rx, (void *)&a, sizeof(a)), 0);
	cr_assert_eq(pthread_create(&tr, NULL, receiver, &f), 0);
	cr_assert_eq(pthread_create(&ts, NULL, sender, &f), 0);

	/* one batch per step: delete the live accept rule, insert the other
	 * one right before (odd steps) or right after (even steps) it; with
	 * NFBPF_TEST_GAP set, the two go in separate batches (a negative
	 * control: then P must see packets and this test must fail) */
	wait_until = now_ms() + SEND_SECONDS * 1000;
	for (i = 0; (i < COMMITS || f.sent < PACKETS) && now_ms() < wait_until; i++) {
		next = accept9();
		if (getenv("NFBPF_TEST_GAP")) {
			tm_rule_del(cur);
			tm_commit_ok(&net);
			list_add_tail(&next->list, &p->list);
		} else if (i % 2) {
			list_add_tail(&next->list, &cur->list);
			tm_rule_del(cur);
		} else {
			list_add(&next->list, &cur->list);
			tm_rule_del(cur);
		}
		if (policy && i % 3 == 0) {
			r = accept9();
			r->chain = input2;
			list_add_tail(&r->list, &input2->rules);
			input2->base->policy = NF_DROP;
		} else if (policy && i % 3 == 1) {
			tm_rule_del(r);
			input2->base->policy = NF_ACCEPT;
		}
		commit(delta && (!policy || i % 3 == 2), next, cur);
		cur = next;
		if (delta) {
			/* an incremental commit takes microseconds: leave
			 * the sender some CPU */
			struct timespec slp = { 0, 20000 };

			nanosleep(&slp, NULL);
		}
	}
	f.stop = true;
	pthread_join(ts, NULL);
	/* let the last datagrams arrive (bounded) */
	wait_until = now_ms() + 2000;
	while (f.received < f.sent && now_ms() < wait_until) {
		struct timespec slp = { 0, 1000000 };

		nanosleep(&slp, NULL);
	}
	pthread_join(tr, NULL);

	cr_assert_eq(dataplane_counter_read(&net, counter_of(p)->slot, &pk, &by), 0);
	cr_log_info("%d commits, %lu datagrams sent, %lu received, P %lu",
		    i, (unsigned long)f.sent, (unsigned long)f.received,
		    (unsigned long)pk);
	cr_assert_geq(i, COMMITS);
	cr_assert_geq(f.sent, PACKETS, "traffic flowed: %lu datagrams in %d commits",
		      (unsigned long)f.sent, i);
	cr_assert_eq(pk, 0, "%lu packets saw neither accept rule", (unsigned long)pk);
	cr_assert_eq(f.received, f.sent, "sent %lu, received %lu",
		     (unsigned long)f.sent, (unsigned long)f.received);
	close(f.rx);
	close(f.tx);
	if (delta) {
		struct dp_stats st;

		dataplane_stats(&net, &st);
		cr_assert_geq(st.incremental_prepares,
			      policy ? (uint64_t)i / 3 : (uint64_t)i - 1);
	}
}

Test(atomic, swapping_rules_under_traffic_never_shows_a_mixed_generation)
{
	swap_under_traffic(0, false, false);
}

Test(atomic, swapping_inside_a_folded_run)
{
	struct dp_stats st;

	swap_under_traffic(16, false, false);
	dataplane_stats(&net, &st);
	cr_assert_geq(st.fold_heads, 1);
}

Test(atomic, swapping_with_incremental_prepares)
{
	swap_under_traffic(16, true, false);
}

Test(atomic, policy_changes_between_incremental_prepares)
{
	swap_under_traffic(16, true, true);
}
