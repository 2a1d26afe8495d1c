// SPDX-License-Identifier: GPL-2.0-only
/*
 * xt_packet.c - real packets over loopback, in a scratch network
 * namespace, through xtables match expressions the dataplane translates:
 * table ip t { chain out { type filter hook output priority 0; <match>
 * drop } }, one extension per test. A drop at LOCAL_OUT fails the send
 * with EPERM; TCP connects time out.
 */
#include "tests/codegen/model.h"
#include "expr/xt.h"
#include "ruleset_api.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

static struct net net;
static struct table *t;
static struct chain *out;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	cr_assert_eq(system("ip link set lo up"), 0);
	t = tm_table(&net, "t", 2 /* ip */);
	out = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(xt_packet, .init = setup, .fini = teardown);

/* rule: match name/rev with @info; drop */
static void drop_rule(const char *name, uint32_t rev, const void *info,
		      uint32_t len)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(len));
	struct dp_error err = { 0 };

	snprintf(x->name, sizeof(x->name), "%s", name);
	x->rev = rev;
	x->family = 2;
	x->len = XT_ALIGN_(len);
	memcpy(x->info, info, len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, list_last_entry(&out->rules,
					  struct rule, list), &err), 0,
		     "%s", err.msg ? err.msg : "");
	tm_commit_ok(&net);
}

static int listener(int type, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, type | SOCK_NONBLOCK, 0), one = 1;

	cr_assert_geq(s, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	cr_assert_eq(bind(s, (void *)&a, sizeof(a)), 0);
	if (type == SOCK_STREAM)
		cr_assert_eq(listen(s, 8), 0);
	return s;
}

static bool tcp_connects(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), err = 0;
	struct pollfd pfd = { .fd = s, .events = POLLOUT };
	socklen_t len = sizeof(err);

	connect(s, (void *)&a, sizeof(a));
	if (poll(&pfd, 1, 300) != 1) {
		close(s);
		return false;
	}
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	close(s);
	return err == 0;
}

/* send @len bytes of UDP to loopback:@port with skb mark @mark: 0 or -errno */
static int udp_send(uint16_t port, size_t len, uint32_t mark)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_DGRAM, 0), ret;
	char msg[512] = { 0 };

	if (mark)
		cr_assert_eq(setsockopt(s, SOL_SOCKET, SO_MARK, &mark, sizeof(mark)), 0);
	ret = sendto(s, msg, len, 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
	close(s);
	return ret;
}

/* send an ICMP message of @type on a raw socket: 0 or -errno */
static int icmp_send(uint8_t type)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), ret;
	uint8_t msg[8] = { type };

	cr_assert_geq(s, 0);
	ret = sendto(s, msg, sizeof(msg), 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
	close(s);
	return ret;
}

/* struct xt_tcp / xt_udp with both port ranges */
static void ports(uint8_t *i, uint16_t smin, uint16_t smax, uint16_t dmin,
		  uint16_t dmax)
{
	uint16_t p[4] = { smin, smax, dmin, dmax };

	memcpy(i, p, sizeof(p));
}

Test(xt_packet, tcp_dport_and_syn_flag)
{
	int l9 = listener(SOCK_STREAM, 9), l10 = listener(SOCK_STREAM, 10);
	uint8_t info[12] = { 0 };

	/* -p tcp --dport 9 --tcp-flags SYN,ACK SYN */
	ports(info, 0, 0xffff, 9, 9);
	info[9] = 0x12;
	info[10] = 0x02;
	drop_rule("tcp", 0, info, sizeof(info));
	cr_assert_not(tcp_connects(9), "tcp/9 SYN dropped");
	cr_assert(tcp_connects(10), "tcp/10 accepted");
	close(l9);
	close(l10);
}

Test(xt_packet, tcp_inverted_dport)
{
	int l9 = listener(SOCK_STREAM, 9), l10 = listener(SOCK_STREAM, 10);
	uint8_t info[12] = { 0 };

	/* -p tcp ! --dport 9: every SYN except to 9 (and the SYN-ACKs from
	 * sport 9, whose dport is the client's) is dropped */
	ports(info, 9, 9, 9, 9);
	info[11] = 0x01 | 0x02;	/* ! --sport 9 ! --dport 9 */
	drop_rule("tcp", 0, info, sizeof(info));
	cr_assert(tcp_connects(9), "tcp/9 accepted");
	cr_assert_not(tcp_connects(10), "tcp/10 dropped");
	close(l9);
	close(l10);
}

Test(xt_packet, udp_dport_range)
{
	uint8_t info[10] = { 0 };

	ports(info, 0, 0xffff, 1000, 2000);
	drop_rule("udp", 0, info, sizeof(info));
	cr_assert_eq(udp_send(1000, 5, 0), -EPERM);
	cr_assert_eq(udp_send(2000, 5, 0), -EPERM);
	cr_assert_eq(udp_send(2001, 5, 0), 0);
	cr_assert_eq(udp_send(999, 5, 0), 0);
}

Test(xt_packet, multiport_ports_and_ranges)
{
	uint8_t info[48] = { 0 };
	uint16_t p[3] = { 53, 7000, 7010 };

	/* -m multiport --dports 53,7000:7010 */
	info[0] = 1;	/* XT_MULTIPORT_DESTINATION */
	info[1] = 3;
	memcpy(info + 2, p, sizeof(p));
	info[32 + 1] = 1;	/* pflags[1]: 7000:7010 */
	drop_rule("multiport", 1, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	cr_assert_eq(udp_send(7000, 5, 0), -EPERM);
	cr_assert_eq(udp_send(7005, 5, 0), -EPERM);
	cr_assert_eq(udp_send(7010, 5, 0), -EPERM);
	cr_assert_eq(udp_send(7011, 5, 0), 0);
	cr_assert_eq(udp_send(54, 5, 0), 0);
}

Test(xt_packet, icmp_type)
{
	uint8_t info[4] = { 8, 0, 0xff, 0 };	/* --icmp-type echo-request */

	drop_rule("icmp", 0, info, sizeof(info));
	cr_assert_eq(icmp_send(8), -EPERM);
	cr_assert_eq(icmp_send(13), 0);
}

Test(xt_packet, mark_with_mask)
{
	uint32_t info[3] = { 0x1, 0xff, 0 };	/* --mark 0x1/0xff */

	drop_rule("mark", 1, info, 9);
	cr_assert_eq(udp_send(53, 5, 0x101), -EPERM);
	cr_assert_eq(udp_send(53, 5, 0x2), 0);
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

Test(xt_packet, iprange_source)
{
	uint8_t info[65] = { 0 };

	/* --src-range 127.0.0.1-127.0.0.1 */
	info[0] = 127; info[3] = 1;
	info[16] = 127; info[19] = 1;
	info[64] = 0x01;
	drop_rule("iprange", 1, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
}

Test(xt_packet, iprange_inverted_outside)
{
	uint8_t info[65] = { 0 };

	/* ! --dst-range 127.0.0.2-127.0.0.9: 127.0.0.1 is outside: dropped */
	info[32] = 127; info[35] = 2;
	info[48] = 127; info[51] = 9;
	info[64] = 0x02 | 0x20;
	drop_rule("iprange", 1, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
}

Test(xt_packet, length_range)
{
	uint16_t info[3] = { 0, 100, 0 };	/* --length 0:100 */

	drop_rule("length", 0, info, 5);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);	/* 33 bytes */
	cr_assert_eq(udp_send(53, 72, 0), -EPERM);	/* 100 */
	cr_assert_eq(udp_send(53, 73, 0), 0);	/* 101 */
}

Test(xt_packet, pkttype_host_and_inverted)
{
	int32_t info[2] = { 1 /* PACKET_BROADCAST */, 0 };

	/* at LOCAL_OUT a loopback packet is PACKET_HOST */
	drop_rule("pkttype", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[1] = 1;	/* ! --pkt-type broadcast */
	drop_rule("pkttype", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
}

Test(xt_packet, comment_always_matches)
{
	char info[256] = "a comment";

	drop_rule("comment", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	cr_assert_eq(icmp_send(8), -EPERM);
}

Test(xt_packet, untranslated_match_and_targets_are_refused)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 8);
	struct dp_error err = { 0 };
	struct rule *r;

	strcpy(x->name, "conntrack");
	x->rev = 3;
	x->len = 8;
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'conntrack' is not supported by the nfbpf dataplane yet (it needs conntrack in the dataplane)");
	ruleset_rule_free(r);

	memset(&rb, 0, sizeof(rb));
	x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + 8);
	strcpy(x->name, "REJECT");
	x->len = 8;
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt target 'REJECT' is not supported by the nfbpf dataplane yet");
	ruleset_rule_free(r);
}
