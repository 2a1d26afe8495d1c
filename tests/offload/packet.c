// SPDX-License-Identifier: GPL-2.0-only
/*
 * packet.c - real packets through a real netfilter link, in a scratch
 * network namespace: table inet t { chain input { type filter hook input
 * priority 0; meta l4proto tcp tcp dport 9 counter drop; meta l4proto udp
 * counter } }, and tcp dport { 22, 80 } drop (an anonymous set).
 */
#include "tests/codegen/model.h"
#include "expr/limit.h"
#include "expr/quota.h"
#include "expr/connlimit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>

static struct net net;
static struct table *t;
static struct chain *input;
static struct rule *tcp9, *udp;

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

TestSuite(packet, .init = setup, .fini = teardown);

static struct expr_counter *counter_of(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER)
			return expr_priv(e);
	return NULL;
}

static void build(void)
{
	uint8_t tcp = 6, u = 17, port9[2] = { 0, 9 };
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port9, 2);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tcp9 = tm_rule(input, &rb);
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &u, 1);
	tm_counter(&rb);
	udp = tm_rule(input, &rb);
	tm_commit_ok(&net);
}

static int listener(int family, int type, uint16_t port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(family, type | SOCK_NONBLOCK, 0), one = 1;

	cr_assert_geq(s, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	cr_assert_eq(family == AF_INET6 ? bind(s, (void *)&a6, sizeof(a6)) :
					  bind(s, (void *)&a4, sizeof(a4)), 0);
	if (type == SOCK_STREAM)
		cr_assert_eq(listen(s, 8), 0);
	return s;
}

/* does a TCP connect to loopback:port complete within 300 ms? */
static bool tcp_connects(int family, uint16_t port)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				   .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0), err = 0;
	struct pollfd pfd = { .fd = s, .events = POLLOUT };
	socklen_t len = sizeof(err);

	cr_assert_geq(s, 0);
	if (family == AF_INET6)
		connect(s, (void *)&a6, sizeof(a6));
	else
		connect(s, (void *)&a4, sizeof(a4));
	if (poll(&pfd, 1, 300) != 1) {
		close(s);
		return false;
	}
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	close(s);
	return err == 0;
}

static bool udp_delivered(int rx, uint16_t port, const char *msg)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct pollfd pfd = { .fd = rx, .events = POLLIN };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	char buf[64];

	sendto(s, msg, strlen(msg), 0, (void *)&a4, sizeof(a4));
	close(s);
	if (poll(&pfd, 1, 300) != 1)
		return false;
	return recv(rx, buf, sizeof(buf), 0) == (ssize_t)strlen(msg);
}

Test(packet, tcp9_dropped_others_accepted_counters_exact)
{
	int l9 = listener(AF_INET, SOCK_STREAM, 9);
	int l10 = listener(AF_INET, SOCK_STREAM, 10);
	int l9v6 = listener(AF_INET6, SOCK_STREAM, 9);
	int u9 = listener(AF_INET, SOCK_DGRAM, 9);
	uint64_t pk, by;

	cr_assert(tcp_connects(AF_INET, 9), "no rules yet: tcp/9 connects");
	build();
	cr_assert_not(tcp_connects(AF_INET, 9), "tcp/9 SYN dropped");
	cr_assert_not(tcp_connects(AF_INET6, 9), "inet: IPv6 tcp/9 dropped too");
	cr_assert(tcp_connects(AF_INET, 10), "tcp/10 accepted");
	cr_assert(udp_delivered(u9, 9, "hello"), "udp/9 accepted");

	/* one SYN each for v4 and v6 within 300 ms (retransmits come at 1 s):
	 * 20 (IPv4) or 40 (IPv6) + 40 (TCP with SYN options) bytes */
	cr_assert_eq(dataplane_counter_read(&net, counter_of(tcp9)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 2);
	cr_assert_eq(by, 60 + 80);
	/* one datagram: 20 + 8 + 5 */
	cr_assert_eq(dataplane_counter_read(&net, counter_of(udp)->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(by, 33);

	/* delete the drop rule: a map update, and tcp/9 connects again */
	tm_rule_del(tcp9);
	tm_commit_ok(&net);
	cr_assert(tcp_connects(AF_INET, 9), "tcp/9 after the rule is gone");
	close(l9);
	close(l10);
	close(l9v6);
	close(u9);
}

Test(packet, anonymous_set_drops_listed_ports)
{
	int l22 = listener(AF_INET, SOCK_STREAM, 22);
	int l80 = listener(AF_INET, SOCK_STREAM, 80);
	int l81 = listener(AF_INET, SOCK_STREAM, 81);
	int l80v6 = listener(AF_INET6, SOCK_STREAM, 80);
	struct set *s = tm_set(t, "__set0", TM_SET_ANON | TM_SET_CONST, 2);
	struct tm_rb rb = { 0 };
	struct dp_stats s0, s1;
	uint8_t tcp = 6;

	/* tcp dport { 22, 80 } drop */
	tm_elem16(s, 22, 0);
	tm_elem16(s, 80, 0);
	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(input, &rb);
	tm_commit_ok(&net);
	cr_assert_not(tcp_connects(AF_INET, 22), "tcp/22 dropped");
	cr_assert_not(tcp_connects(AF_INET, 80), "tcp/80 dropped");
	cr_assert_not(tcp_connects(AF_INET6, 80), "inet: IPv6 tcp/80 dropped");
	cr_assert(tcp_connects(AF_INET, 81), "tcp/81 accepted");

	/* the set's elements change: map updates, no program */
	dataplane_stats(&net, &s0);
	tm_elem_del(list_first_entry(&s->elems, struct set_elem, list), s);
	tm_elem16(s, 81, 0);
	tm_commit_ok(&net);
	dataplane_stats(&net, &s1);
	cr_assert_eq(s1.progs_loaded, s0.progs_loaded);
	cr_assert(tcp_connects(AF_INET, 22), "tcp/22 accepted again");
	cr_assert_not(tcp_connects(AF_INET, 81), "tcp/81 dropped now");
	cr_assert_not(tcp_connects(AF_INET, 80), "tcp/80 still dropped");
	close(l22);
	close(l80);
	close(l81);
	close(l80v6);
}

/*
 * ct state through the kernel's conntrack: a stateful input chain, policy
 * drop: ct state established,related accept; tcp dport 10 ct state new
 * accept. Loopback carries both directions through input, so tcp/10
 * connects only if the SYN-ACK reads "established"; tcp/11 never does.
 */
Test(packet, ct_state_through_the_kernels_conntrack)
{
	int l10 = listener(AF_INET, SOCK_STREAM, 10);
	int l11 = listener(AF_INET, SOCK_STREAM, 11);
	int l10v6 = listener(AF_INET6, SOCK_STREAM, 10);
	struct chain *in = tm_chain(t, "stateful", HOOK_IN, 10, NF_DROP);
	uint32_t est_rel = 2 | 4, zero = 0, new = 8;
	uint8_t tcp = 6, port10[2] = { 0, 10 };
	struct expr_counter *c_est, *c_new;
	struct tm_rb rb = { 0 };
	uint64_t pk, by;

	/* ct state & (established|related) != 0 counter accept */
	tm_ct(&rb, CT_STATE, CT_DIR_NONE, 4, 4);
	tm_bitwise(&rb, 4, 4, 4, &est_rel, &zero);
	tm_cmp(&rb, 4, CMP_NEQ, &zero, 4);
	c_est = tm_counter(&rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(in, &rb);
	/* meta l4proto tcp tcp dport 10 ct state & new != 0 counter accept */
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port10, 2);
	tm_ct(&rb, CT_STATE, CT_DIR_NONE, 4, 4);
	tm_bitwise(&rb, 4, 4, 4, &new, &zero);
	tm_cmp(&rb, 4, CMP_NEQ, &zero, 4);
	c_new = tm_counter(&rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(in, &rb);
	tm_commit_ok(&net);
	/* find the counters the commit gave slots to */
	c_est = counter_of(list_first_entry(&in->rules, struct rule, list));
	c_new = counter_of(list_last_entry(&in->rules, struct rule, list));

	cr_assert(system("nft list table ip nfbpf_conntrack >/dev/null 2>&1") == 0 &&
		  system("nft list table ip6 nfbpf_conntrack >/dev/null 2>&1") == 0,
		  "an inet table's ct rules: both families' conntrack held by nfbpfd's dormant tables");
	cr_assert(tcp_connects(AF_INET, 10), "tcp/10: SYN new, SYN-ACK established");
	cr_assert(tcp_connects(AF_INET6, 10), "inet: the same over IPv6");
	cr_assert_not(tcp_connects(AF_INET, 11), "tcp/11: SYN new, not accepted");
	cr_assert_eq(dataplane_counter_read(&net, c_new->slot, &pk, &by), 0);
	cr_assert_eq(pk, 2, "one SYN per family is new: %lu", (unsigned long)pk);
	cr_assert_eq(dataplane_counter_read(&net, c_est->slot, &pk, &by), 0);
	cr_assert_geq(pk, 4, "SYN-ACK and ACK per family are established: %lu",
		      (unsigned long)pk);

	/* the last ct rules go: the kernel's conntrack is let go too */
	tm_rule_del(list_first_entry(&in->rules, struct rule, list));
	tm_rule_del(list_last_entry(&in->rules, struct rule, list));
	tm_commit_ok(&net);
	cr_assert(system("nft list table ip nfbpf_conntrack >/dev/null 2>&1") != 0 &&
		  system("nft list table ip6 nfbpf_conntrack >/dev/null 2>&1") != 0,
		  "no ct user left: the holder tables are gone");
	close(l10);
	close(l11);
	close(l10v6);
}

/* send "msg" to 127.0.0.1:@port from a child running as @uid */
static void udp_send_as(uid_t uid, uint16_t port, const char *msg)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct sockaddr_in a4 = { .sin_family = AF_INET,
					  .sin_port = htons(port),
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		int s;

		if (setgid(uid) || setuid(uid))
			_exit(2);
		s = socket(AF_INET, SOCK_DGRAM, 0);
		_exit(sendto(s, msg, strlen(msg), 0, (void *)&a4, sizeof(a4)) < 0);
	}
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
}

/*
 * meta skuid/skgid read the sending socket's file credentials through
 * skb->sk: output chain, meta skuid 1000 meta skgid 1000 counter drop.
 */
Test(packet, skuid_skgid_of_the_sending_socket)
{
	struct chain *out = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	int rx = listener(AF_INET, SOCK_DGRAM, 7777);
	uint32_t uid = 1000;
	struct pollfd pfd = { .fd = rx, .events = POLLIN };
	struct tm_rb rb = { 0 };
	uint64_t pk, by;
	char buf[16];

	tm_meta(&rb, 10 /* skuid */, 4, 4);
	tm_cmp(&rb, 4, CMP_EQ, &uid, 4);
	tm_meta(&rb, 11 /* skgid */, 4, 4);
	tm_cmp(&rb, 4, CMP_EQ, &uid, 4);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(out, &rb);
	tm_commit_ok(&net);

	udp_send_as(1000, 7777, "uid1000");
	cr_assert_eq(poll(&pfd, 1, 200), 0, "uid 1000's datagram is dropped");
	udp_send_as(0, 7777, "uid0");
	cr_assert_eq(poll(&pfd, 1, 300), 1, "root's datagram passes");
	cr_assert_eq(recv(rx, buf, sizeof(buf), 0), 4);
	cr_assert_eq(dataplane_counter_read(&net,
		counter_of(list_first_entry(&out->rules, struct rule, list))->slot,
		&pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(by, 20 + 8 + 7);
	close(rx);
}

/*
 * limit and quota on real datagrams: input chain, udp dport 9 limit rate
 * over 1/hour burst 3 packets drop; udp dport 10 quota over 66 bytes drop
 * (a datagram of "hello" is 20 + 8 + 5 = 33 bytes of skb->len at input;
 * the second brings the quota to exactly 66 bytes, which is not over).
 */
Test(packet, limit_burst_and_quota_bytes_on_real_datagrams)
{
	struct expr_limit *l;
	struct expr_quota *q;
	uint8_t u = 17, port9[2] = { 0, 9 }, port10[2] = { 0, 10 };
	int u9 = listener(AF_INET, SOCK_DGRAM, 9);
	int u10 = listener(AF_INET, SOCK_DGRAM, 10);
	struct tm_rb rb = { 0 };
	struct rule *rq;
	struct expr *e;
	uint64_t used;
	int i;

	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &u, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port9, 2);
	l = tm_add(&rb, EXPR_LIMIT, sizeof(*l));
	l->rate = 1;
	l->nsecs = 3600 * 1000000000ull;
	l->burst = 3;
	l->cost = l->nsecs;
	l->tokens_max = 3 * l->cost;
	l->invert = true;
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(input, &rb);
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &u, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, port10, 2);
	q = tm_add(&rb, EXPR_QUOTA, sizeof(*q));
	q->quota = 66;
	q->invert = true;
	tm_verdict(&rb, NF_DROP, NULL);
	rq = tm_rule(input, &rb);
	tm_commit_ok(&net);

	for (i = 0; i < 3; i++)
		cr_assert(udp_delivered(u9, 9, "hello"), "datagram %d within the burst", i + 1);
	cr_assert_not(udp_delivered(u9, 9, "hello"), "the 4th is over the limit");
	cr_assert(udp_delivered(u10, 10, "hello"), "33 of 66 bytes");
	cr_assert(udp_delivered(u10, 10, "hello"), "66 of 66 bytes: not over");
	cr_assert_not(udp_delivered(u10, 10, "hello"), "99 of 66 bytes: over");
	rule_for_each_expr(e, rq)
		if (e->type == EXPR_QUOTA)
			q = expr_priv(e);
	cr_assert_eq(dataplane_state_read(&net, q->slot, &used), 0);
	cr_assert_eq(used, 99, "every datagram counts, the dropped one too");
	close(u9);
	close(u10);
}

/* one counter expression record in @buf (a set's or an element's) */
static struct expr_counter *exprs_counter(struct expr **buf, uint32_t *len,
					  uint32_t *n)
{
	struct expr *e = calloc(1, EXPR_SIZE(sizeof(struct expr_counter)));

	e->type = EXPR_COUNTER;
	e->size = EXPR_SIZE(sizeof(struct expr_counter));
	*buf = e;
	*len = e->size;
	*n = 1;
	return expr_priv(e);
}

static struct expr_counter *elem_counter(struct set_elem *e)
{
	return exprs_counter(&e->exprs, &e->exprs_len, &e->nexprs);
}

/*
 * set s { type inet_service; counter; }, tcp dport @s drop: the element a
 * lookup matches counts the packet (nft_set_elem_update_expr); others and
 * an inverted lookup's misses count nothing; a re-added element starts
 * from its own initial values
 */
Test(packet, set_element_counters_count_their_own_packets)
{
	int l22 = listener(AF_INET, SOCK_STREAM, 22);
	int l80 = listener(AF_INET, SOCK_STREAM, 80);
	int l81 = listener(AF_INET, SOCK_STREAM, 81);
	struct set *s = tm_set(t, "s", 0, 2);
	struct set_elem *e22, *e80, *e81;
	struct expr_counter *c22, *c80;
	struct tm_rb rb = { 0 };
	uint8_t tcp = 6;
	uint64_t pk, by;

	exprs_counter(&s->exprs, &s->exprs_len, &s->nexprs);
	e22 = tm_elem16(s, 22, 0);
	e80 = tm_elem16(s, 80, 0);
	c22 = elem_counter(e22);
	c80 = elem_counter(e80);
	c80->packets = 5;	/* counter packets 5 bytes 7 */
	c80->bytes = 7;
	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(input, &rb);
	tm_commit_ok(&net);
	cr_assert_neq(c22->slot, 0);
	cr_assert_neq(c80->slot, 0);
	cr_assert_neq(c22->slot, c80->slot);
	cr_assert_not(tcp_connects(AF_INET, 22), "tcp/22 dropped");
	cr_assert_not(tcp_connects(AF_INET, 80), "tcp/80 dropped");
	cr_assert_not(tcp_connects(AF_INET, 80), "tcp/80 dropped again");
	cr_assert(tcp_connects(AF_INET, 81), "tcp/81 accepted");
	/* one 60-byte SYN per attempt within 300 ms */
	cr_assert_eq(dataplane_counter_read(&net, c22->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(by, 60);
	cr_assert_eq(dataplane_counter_read(&net, c80->slot, &pk, &by), 0);
	cr_assert_eq(pk, 5 + 2);
	cr_assert_eq(by, 7 + 120);

	/* 80 goes, a new 80 and 81 come: the new ones start from zero */
	tm_elem_del(e80, s);
	tm_commit_ok(&net);
	e80 = tm_elem16(s, 80, 0);
	e81 = tm_elem16(s, 81, 0);
	c80 = elem_counter(e80);
	elem_counter(e81);
	tm_commit_ok(&net);
	cr_assert_eq(dataplane_counter_read(&net, c80->slot, &pk, &by), 0);
	cr_assert_eq(pk, 0);
	cr_assert_eq(by, 0);
	/* 22 kept its slot and count across both commits */
	cr_assert_eq(dataplane_counter_read(&net, c22->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(by, 60);
	cr_assert_not(tcp_connects(AF_INET, 80), "new tcp/80 dropped");
	cr_assert_eq(dataplane_counter_read(&net, c80->slot, &pk, &by), 0);
	cr_assert_eq(pk, 1);
	cr_assert_eq(by, 60);
	close(l22);
	close(l80);
	close(l81);
}

struct seen {
	uint16_t port[8];
	uint64_t expires[8];
	uint32_t n;
};

static int seen_one(void *arg, const uint8_t *key, uint64_t timeout,
		    uint64_t expires, const uint8_t *data)
{
	struct seen *s = arg;

	(void)timeout;
	(void)data;
	if (s->n < 8) {
		s->port[s->n] = (uint16_t)(key[0] << 8 | key[1]);
		s->expires[s->n++] = expires;
	}
	return 0;
}

static bool seen_has(const struct seen *s, uint16_t port)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		if (s->port[i] == port)
			return true;
	return false;
}

/*
 * set s { type inet_service; size 2; flags dynamic; }:
 * meta l4proto tcp add @s { tcp dport }; tcp dport @s drop. The SYNs of
 * the first two ports are added and dropped; the set is full then, so a
 * third port is neither added (the dynset breaks the rule) nor dropped;
 * the control plane reads the packet path's elements back; a delete
 * @s rule takes tcp/80 out again
 */
Test(packet, dynset_adds_until_the_set_is_full)
{
	int l22 = listener(AF_INET, SOCK_STREAM, 22);
	int l80 = listener(AF_INET, SOCK_STREAM, 80);
	int l81 = listener(AF_INET, SOCK_STREAM, 81);
	struct set *s = tm_set(t, "s", 0x20 /* dynamic */, 2);
	struct tm_rb rb = { 0 };
	struct seen seen = { 0 };
	struct rule *add, *del, *drop;
	uint8_t tcp = 6, port81[2] = { 0, 81 };

	s->size = 2;
	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_dynset(&rb, s, DYNSET_OP_ADD, 4, 0);
	add = tm_rule(input, &rb);
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	drop = tm_rule(input, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(dataplane_set_read(&net, s, seen_one, &seen), 0);
	cr_assert_eq(seen.n, 0);

	cr_assert_not(tcp_connects(AF_INET, 22), "tcp/22 added, dropped");
	cr_assert_not(tcp_connects(AF_INET, 80), "tcp/80 added, dropped");
	cr_assert(tcp_connects(AF_INET, 81), "tcp/81: the set is full");
	cr_assert_eq(dataplane_set_read(&net, s, seen_one, &seen), 0);
	cr_assert_eq(seen.n, 2, "elements read back: %u", seen.n);
	cr_assert(seen_has(&seen, 22) && seen_has(&seen, 80));
	cr_assert_eq(seen.expires[0], 0, "no timeout: no expiry");

	/* delete @s { tcp dport } but for tcp/81, before the lookup */
	tm_rule_del(add);
	tm_rule_del(drop);
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_imm(&rb, 8, port81, 2);
	tm_cmp(&rb, 4, CMP_NEQ, port81, 2);
	tm_dynset(&rb, s, DYNSET_OP_DELETE, 4, 0);
	del = tm_rule(input, &rb);
	tm_meta(&rb, 16, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_lookup(&rb, s, 4, false);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(input, &rb);
	tm_commit_ok(&net);
	cr_assert(tcp_connects(AF_INET, 80), "tcp/80 deleted by the packet, then looked up: gone");
	memset(&seen, 0, sizeof(seen));
	cr_assert_eq(dataplane_set_read(&net, s, seen_one, &seen), 0);
	cr_assert_eq(seen.n, 1, "after the delete: %u (%u %u)", seen.n,
		     seen.port[0], seen.port[1]);
	cr_assert(seen_has(&seen, 22));
	(void)del;
	close(l22);
	close(l80);
	close(l81);
}

/* a rule of @in: ct @key (@dir, @klen bytes) -> r8, then @tail, counter */
static struct rule *ct_rule(struct chain *in, uint32_t key, uint8_t dir,
			    uint32_t klen, uint8_t op, const void *v, uint32_t vlen)
{
	struct tm_rb rb = { 0 };

	tm_ct(&rb, key, dir, 8, klen);
	tm_cmp(&rb, 8, op, v, vlen);
	tm_counter(&rb);
	return tm_rule(in, &rb);
}

static uint64_t packets_of(struct rule *r)
{
	uint64_t pk, by;

	cr_assert_eq(dataplane_counter_read(&net, counter_of(r)->slot, &pk, &by), 0);
	return pk;
}

/*
 * ct zone, packets, bytes, avgpkt, labels, helper, expiration, secmark of
 * a tracked UDP flow over loopback: three 4-byte datagrams (32 bytes each
 * on the wire) from one socket; at input each one's entry is confirmed and
 * counted (accounting is turned on, as nft_ct_get_init() does), so the
 * n-th datagram reads packets n, bytes 32n, avgpkt 32, zone 0, no labels
 * (16 zero bytes), no helper (break: no master), an unreplied UDP timeout
 * of 30 s (within 25-30 s), secmark 0.
 */
Test(packet, ct_keys_of_a_tracked_flow)
{
	int rx = listener(AF_INET, SOCK_DGRAM, 12);
	struct chain *in = tm_chain(t, "ctkeys", HOOK_IN, 10, NF_ACCEPT);
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(12),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	uint64_t two = 2, b64 = 64, avg32 = 32;
	uint8_t zeros[16] = { 0 }, from[4] = { 0, 0, 0x61, 0xa8 }, to[4] = { 0, 0, 0x75, 0x30 };
	struct rule *r_pk, *r_by, *r_avg, *r_zone, *r_zone_rep, *r_lab, *r_help,
		    *r_exp, *r_sec;
	struct tm_rb rb = { 0 };
	char buf[16];
	int s, i;
	FILE *f;

	r_pk = ct_rule(in, CT_PKTS, 0, 8, CMP_EQ, &two, 8);
	r_by = ct_rule(in, CT_BYTES, CT_DIR_NONE, 8, CMP_EQ, &b64, 8);
	r_avg = ct_rule(in, CT_AVGPKT, CT_DIR_NONE, 8, CMP_EQ, &avg32, 8);
	r_zone = ct_rule(in, CT_ZONE, CT_DIR_NONE, 2, CMP_EQ, zeros, 2);
	r_zone_rep = ct_rule(in, CT_ZONE, 1, 2, CMP_EQ, zeros, 2);
	r_lab = ct_rule(in, CT_LABELS, CT_DIR_NONE, 16, CMP_EQ, zeros, 16);
	r_help = ct_rule(in, CT_HELPER, CT_DIR_NONE, 16, CMP_NEQ, zeros, 16);
	r_sec = ct_rule(in, CT_SECMARK, CT_DIR_NONE, 4, CMP_EQ, zeros, 4);
	/* ct expiration 25000-30000 (ms): hton, then a range */
	tm_ct(&rb, CT_EXPIRATION, CT_DIR_NONE, 8, 4);
	tm_byteorder(&rb, 8, 8, BYTEORDER_HTON, 4, 4);
	tm_range(&rb, 8, 0, from, to, 4);
	tm_counter(&rb);
	r_exp = tm_rule(in, &rb);
	tm_commit_ok(&net);

	f = fopen("/proc/sys/net/netfilter/nf_conntrack_acct", "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_assert_str_eq(buf, "1\n", "ct packets turned accounting on");

	s = socket(AF_INET, SOCK_DGRAM, 0);
	for (i = 0; i < 3; i++) {
		struct pollfd pfd = { .fd = rx, .events = POLLIN };

		cr_assert_eq(sendto(s, "abcd", 4, 0, (void *)&a4, sizeof(a4)), 4);
		cr_assert_eq(poll(&pfd, 1, 1000), 1);
		cr_assert_eq(recv(rx, buf, sizeof(buf), 0), 4);
	}
	close(s);
	cr_assert_eq(packets_of(r_pk), 1, "original packets 2: the second");
	cr_assert_eq(packets_of(r_by), 1, "bytes 64: the second");
	cr_assert_eq(packets_of(r_avg), 3, "avgpkt 32: all");
	cr_assert_eq(packets_of(r_zone), 3, "zone 0");
	cr_assert_eq(packets_of(r_zone_rep), 3, "reply zone 0");
	cr_assert_eq(packets_of(r_lab), 3, "no labels: zeros");
	cr_assert_eq(packets_of(r_help), 0, "no master: helper breaks");
	cr_assert_eq(packets_of(r_sec), 3, "secmark 0");
	cr_assert_eq(packets_of(r_exp), 3, "expiration 25-30 s");
	close(rx);
}

/* a TCP connection to 127.0.0.1:@port kept open: its fd, -1 if refused
 * or dropped (no answer in 300 ms) */
static int tcp_open(uint16_t port)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), err = 0;
	struct pollfd pfd = { .fd = s, .events = POLLOUT };
	socklen_t len = sizeof(err);

	cr_assert_geq(s, 0);
	connect(s, (void *)&a4, sizeof(a4));
	if (poll(&pfd, 1, 300) != 1 ||
	    getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		close(s);
		return -1;
	}
	return s;
}

/* accept what @l has queued and close it */
static void accept_close(int l)
{
	struct pollfd pfd = { .fd = l, .events = POLLIN };
	int c;

	while (poll(&pfd, 1, 50) == 1 && (c = accept(l, NULL, NULL)) >= 0)
		close(c);
}

struct cl_seen {
	uint32_t n, flagged;
	uint16_t port[8];
};

static int cl_seen_one(void *arg, const uint8_t *key, uint64_t timeout,
		       uint64_t expires, const uint8_t *data)
{
	struct cl_seen *s = arg;
	uint32_t flags;

	(void)timeout;
	(void)expires;
	memcpy(&flags, data + SET_DATA_FLAGS, 4);
	if (flags & SET_STMTS_CONNLIMIT)
		s->flagged++;
	if (s->n < 8)
		s->port[s->n++] = (uint16_t)(key[0] << 8 | key[1]);
	return 0;
}

static struct cl_seen cl_read(struct set *s)
{
	struct cl_seen seen = { 0 };

	cr_assert_eq(dataplane_set_read(&net, s, cl_seen_one, &seen), 0);
	return seen;
}

/*
 * set s { type inet_service; flags dynamic; }:
 * tcp dport < 1024 add @s { tcp dport ct count over 1 } drop, over real
 * connections kept open: each port's element has its own list, so a
 * second connection to port 22 is dropped while the first to port 80 is
 * not; the elements carry SET_STMTS_CONNLIMIT; once the connections close
 * (TIME_WAIT: the list's collection drops them) the set's collection
 * removes 80's element (22's keeps the live SYN_SENT conntrack of its
 * dropped SYN), and a new connection makes a new element whose list
 * starts empty
 */
Test(packet, dynset_ct_count_one_list_per_element_collected_when_closed)
{
	int l22 = listener(AF_INET, SOCK_STREAM, 22);
	int l80 = listener(AF_INET, SOCK_STREAM, 80);
	struct set *s = tm_set(t, "s", 0x20 /* dynamic */, 2);
	struct tm_rb rb = { 0 };
	struct expr_dynset *d;
	struct expr *x;
	struct expr_connlimit *cl;
	struct cl_seen seen;
	struct dp_stats st;
	struct rule *r;
	uint8_t tcp = 6, below[2] = { 4, 0 };
	int c22, c22b, c80, c80b, i;

	s->size = 65535;	/* nft_dynset_init(): 0 is 0xffff */
	tm_meta(&rb, 16 /* l4proto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &tcp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_LT, below, 2);
	d = tm_add(&rb, EXPR_DYNSET, sizeof(*d));
	d->set = s;
	d->op = DYNSET_OP_ADD;
	d->sreg_key = 4;
	x = (struct expr *)d->exprs;
	x->type = EXPR_CONNLIMIT;
	x->size = EXPR_SIZE(sizeof(*cl));
	cl = expr_priv(x);
	cl->limit = 1;
	cl->invert = true;	/* "over" */
	d->exprs_len = x->size;
	d->nexprs = 1;
	tm_verdict(&rb, NF_DROP, NULL);
	r = tm_rule(input, &rb);
	tm_commit_ok(&net);

	c22 = tcp_open(22);
	cr_assert_geq(c22, 0, "the first connection to 22: a new element, count 1");
	c80 = tcp_open(80);
	cr_assert_geq(c80, 0, "80 has a list of its own: count 1");
	c22b = tcp_open(22);
	cr_assert_lt(c22b, 0, "a second connection to 22: count 2, over 1, dropped");
	seen = cl_read(s);
	cr_assert_eq(seen.n, 2, "elements: %u", seen.n);
	cr_assert_eq(seen.flagged, 2, "both carry a ct count");
	/* open connections: the collection keeps both */
	cr_assert_eq(dataplane_set_cl_gc(&net, s), 0);
	cr_assert_eq(cl_read(s).n, 2);

	close(c22);
	close(c80);
	/* the server ends close too: TIME_WAIT once the FINs are through */
	accept_close(l22);
	accept_close(l80);
	for (i = 0; i < 20; i++) {
		usleep(100000);
		cr_assert_eq(dataplane_set_cl_gc(&net, s), 0);
		if (cl_read(s).n < 2)
			break;
	}
	/* 22 keeps the conntrack of its dropped SYN (confirmed at output
	 * over loopback, SYN_SENT for 2 minutes): the kernel keeps it too */
	seen = cl_read(s);
	cr_assert_eq(seen.n, 1, "closed: 80's element collected (%u left)", seen.n);
	cr_assert_eq(seen.port[0], 22, "the one left: %u", seen.port[0]);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.cl_lists_freed, 1, "80's list went with its element");
	c80 = tcp_open(80);
	c80b = tcp_open(80);
	cr_assert_geq(c80, 0, "a new element for 80: its list starts empty");
	cr_assert_lt(c80b, 0, "and counts its own connections");
	cr_assert_eq(cl_read(s).n, 2);
	dataplane_xt_gc(&net);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.cl_lists_freed, 1, "live elements keep their lists");
	/* the rule and the set go: their elements' lists with them */
	tm_rule_del(r);
	tm_commit_ok(&net);
	list_del(&s->list);
	dataplane_xt_gc(&net);
	dataplane_stats(&net, &st);
	cr_assert_eq(st.cl_lists_freed, 3, "22's and 80's lists swept: %llu",
		     (unsigned long long)st.cl_lists_freed);
	close(c80);
	close(l22);
	close(l80);
}
