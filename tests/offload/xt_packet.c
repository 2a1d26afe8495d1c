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
#include <sched.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/if_packet.h>
#include <linux/netfilter/xt_hashlimit.h>
#include <linux/netfilter/xt_connlimit.h>

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

	strcpy(x->name, "policy");
	x->rev = 0;
	x->len = 8;
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'policy' revision 0 is not supported by the nfbpf dataplane yet");
	ruleset_rule_free(r);

	memset(&rb, 0, sizeof(rb));
	x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + 8);
	strcpy(x->name, "NFQUEUE");
	x->len = 8;
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt target 'NFQUEUE' is not supported by the nfbpf dataplane yet");
	ruleset_rule_free(r);
}

/* send 5 bytes of UDP to loopback:53 with socket option @opt = @val */
static int udp_send_opt(int level, int opt, int val)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(53),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_DGRAM, 0), ret;

	cr_assert_eq(setsockopt(s, level, opt, &val, sizeof(val)), 0);
	ret = sendto(s, "hello", 5, 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
	close(s);
	return ret;
}

Test(xt_packet, ttl_modes)
{
	uint8_t info[2] = { 2 /* IPT_TTL_LT */, 5 };

	drop_rule("ttl", 0, info, sizeof(info));
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TTL, 4), -EPERM);
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TTL, 5), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = 1;	/* IPT_TTL_NE 5 */
	drop_rule("ttl", 0, info, sizeof(info));
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TTL, 5), 0);
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TTL, 64), -EPERM);
}

Test(xt_packet, dscp_and_tos)
{
	uint8_t dscp[2] = { 10, 0 };	/* --dscp 10: tos 0x28 */
	uint8_t tos[3] = { 0xfc, 0x10, 0 };	/* --tos 0x10/0xfc */

	drop_rule("dscp", 0, dscp, sizeof(dscp));
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TOS, 0x28), -EPERM);
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TOS, 0x10), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	drop_rule("tos", 1, tos, sizeof(tos));
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TOS, 0x10), -EPERM);
	cr_assert_eq(udp_send_opt(IPPROTO_IP, IP_TOS, 0x28), 0);
}

/* verdicts of crafted packets (BPF_PROG_TEST_RUN): rule <match> accept */
static void accept_rule(const char *name, uint32_t rev, const void *info,
			uint32_t len)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(len));

	snprintf(x->name, sizeof(x->name), "%s", name);
	x->rev = rev;
	x->family = 2;
	x->len = XT_ALIGN_(len);
	memcpy(x->info, info, len);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(out, &rb);
	tm_commit_ok(&net);
}

Test(xt_packet, tcp_hotdrops_offset_1_fragments_and_tinygrams)
{
	uint8_t pkt[128], info[12] = { 0 };
	uint32_t n;

	/* chain policy drop; -p tcp -m tcp --dport 80 -j ACCEPT */
	out->base->policy = NF_DROP;
	ports(info, 0, 0xffff, 80, 80);
	accept_rule("tcp", 0, info, sizeof(info));
	n = tm_ip4(pkt, 6, 1000, 80, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	/* a fragment at offset 16: no match (policy) */
	n = tm_ip4(pkt, 6, 1000, 80, 2);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	/* policy accept from now on: only a hotdrop drops */
	out->base->policy = NF_ACCEPT;
	tm_commit_ok(&net);
	n = tm_ip4(pkt, 6, 1000, 81, 2);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	n = tm_ip4(pkt, 6, 1000, 81, 1);	/* offset 8: "evil" */
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	/* a TCP header cut short: hotdrop */
	n = tm_ip4(pkt, 6, 1000, 81, 0);
	pkt[3] = 20 + 10;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, 30), NF_DROP);
	(void)n;
}

Test(xt_packet, icmp_any_type_and_inversion)
{
	uint8_t pkt[128], any[4] = { 0xff, 0, 0xff, 0 };
	uint8_t not34[4] = { 3, 4, 4, 1 };	/* ! --icmp-type 3/4 */
	uint32_t n = tm_ip4(pkt, 1, 0, 0, 0);

	out->base->policy = NF_DROP;
	accept_rule("icmp", 0, any, sizeof(any));
	pkt[20] = 13;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	accept_rule("icmp", 0, not34, sizeof(not34));
	pkt[20] = 3;
	pkt[21] = 4;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	pkt[21] = 3;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
}

Test(xt_packet, multiport_either_with_inversion)
{
	uint8_t pkt[128], info[48] = { 0 };
	uint16_t p[2] = { 22, 23 };
	uint32_t n;

	/* ! --ports 22,23: neither port may be 22 or 23 */
	out->base->policy = NF_DROP;
	info[0] = 2;	/* XT_MULTIPORT_EITHER */
	info[1] = 2;
	memcpy(info + 2, p, sizeof(p));
	info[47] = 1;
	accept_rule("multiport", 1, info, sizeof(info));
	n = tm_ip4(pkt, 17, 1000, 53, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	n = tm_ip4(pkt, 17, 22, 53, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	n = tm_ip4(pkt, 17, 1000, 23, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
}

/* IPv6: icmp6 and hl, crafted packets through an ip6 table */
static struct net net6;
static struct chain *out6;

static void setup6(void)
{
	struct table *t6;

	tm_net_init(&net6, tm_scratch_netns());
	t6 = tm_table(&net6, "t6", 10 /* ip6 */);
	out6 = tm_chain(t6, "out", HOOK_OUT, 0, NF_DROP);
}

static void teardown6(void)
{
	dataplane_net_free(&net6);
}

TestSuite(xt_packet6, .init = setup6, .fini = teardown6);

static void accept_rule6(const char *name, const void *info, uint32_t len)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(len));

	snprintf(x->name, sizeof(x->name), "%s", name);
	x->family = 10;
	x->len = XT_ALIGN_(len);
	memcpy(x->info, info, len);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(out6, &rb);
	tm_commit_ok(&net6);
}

/* ipv6 header + 8 bytes of ICMPv6 */
static uint32_t icmp6(uint8_t *b, uint8_t hl, uint8_t type, uint8_t code)
{
	memset(b, 0, 48);
	b[0] = 0x60;
	b[5] = 8;
	b[6] = 58;
	b[7] = hl;
	b[23] = 1;
	b[39] = 1;
	b[40] = type;
	b[41] = code;
	return 48;
}

Test(xt_packet6, icmp6_type_code_range)
{
	uint8_t pkt[64], info[4] = { 1, 0, 3, 0 };	/* type 1 codes 0-3 */

	accept_rule6("icmp6", info, sizeof(info));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 64, 1, 3)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 64, 1, 4)), NF_DROP);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 64, 128, 0)), NF_DROP);
	/* no "any" type for icmp6: 0xff is type 255 */
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	info[0] = 0xff;
	accept_rule6("icmp6", info, sizeof(info));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 64, 1, 0)), NF_DROP);
}

/* ipv6 header, @n destination options headers (8 bytes each), ICMPv6 */
static uint32_t dstopts6(uint8_t *b, uint32_t n, uint8_t type)
{
	uint32_t i, len = 40 + 8 * n + 8;

	memset(b, 0, len);
	b[0] = 0x60;
	b[4] = (uint8_t)((len - 40) >> 8);
	b[5] = (uint8_t)(len - 40);
	b[6] = n ? 60 : 58;
	b[7] = 64;
	b[23] = 1;
	b[39] = 1;
	for (i = 0; i < n; i++)
		b[40 + 8 * i] = i + 1 < n ? 60 : 58;
	b[40 + 8 * n] = type;
	return len;
}

/*
 * ipv6_find_hdr() walks any number of extension headers (6.18 has no
 * IP6_MAX_EXT_HDRS_CNT): the ICMPv6 header behind 13, 40 or 300 of them
 * is the transport header. A chain cut inside its last header has none
 * (-EBADMSG: packet info unset), which drops nothing by itself.
 */
Test(xt_packet6, any_number_of_extension_headers)
{
	static const uint32_t counts[] = { 0, 12, 13, 40, 300 };
	uint8_t pkt[40 + 8 * 300 + 8], info[4] = { 128, 0, 0xff, 0 };
	unsigned int i;

	accept_rule6("icmp6", info, sizeof(info));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    dstopts6(pkt, counts[i], 128)), NF_ACCEPT,
			     "%u headers, echo request", counts[i]);
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    dstopts6(pkt, counts[i], 129)), NF_DROP,
			     "%u headers, echo reply", counts[i]);
	}
	/* the 40th header cut to 1 byte: no transport header, so icmp6
	 * reads offset 0 (version 6: type 0x60), no match */
	dstopts6(pkt, 40, 128);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, 40 + 8 * 39 + 1), NF_DROP);
	/* a rule that needs no transport header sees every one of them */
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	accept_rule6("comment", (char[256]){ "all" }, 256);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    dstopts6(pkt, counts[i], 129)), NF_ACCEPT,
			     "%u headers", counts[i]);
	dstopts6(pkt, 40, 128);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, 40 + 8 * 39 + 1), NF_ACCEPT);
}

/* @n destination options headers, a fragment header (@frag_off, host
 * order, next = ICMPv6), 8 bytes of ICMPv6 echo request */
static uint32_t frag_behind6(uint8_t *b, uint32_t n, uint16_t frag_off)
{
	uint32_t len = dstopts6(b, n + 1, 128);

	if (n)
		b[40 + 8 * (n - 1)] = 44;
	else
		b[6] = 44;
	b[40 + 8 * n + 2] = frag_off >> 8;
	b[40 + 8 * n + 3] = frag_off & 0xff;
	return len;
}

/* the frag match finds the fragment header behind any number of
 * extension headers (ipv6_find_hdr(NEXTHDR_FRAGMENT)); -ENOENT is no
 * match, a chain cut short (-EBADMSG) a hotdrop */
Test(xt_packet6, frag_behind_any_number_of_headers)
{
	static const uint32_t counts[] = { 0, 12, 13, 40, 300 };
	uint8_t pkt[40 + 8 * 301 + 8], info[16] = { 0 };
	unsigned int i;

	memset(info + 4, 0xff, 4);	/* ids 0..0xffffffff */
	accept_rule6("frag", info, sizeof(info));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    frag_behind6(pkt, counts[i], 0)), NF_ACCEPT,
			     "first fragment behind %u headers", counts[i]);
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    frag_behind6(pkt, counts[i], 0x100)), NF_ACCEPT,
			     "later fragment behind %u headers", counts[i]);
	}
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, dstopts6(pkt, 40, 128)),
		     NF_DROP, "no fragment header");
	/* a rule after it: no match goes on to it, a hotdrop does not */
	accept_rule6("comment", (char[256]){ "all" }, 256);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, dstopts6(pkt, 40, 128)),
		     NF_ACCEPT, "-ENOENT");
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
			    frag_behind6(pkt, 40, 0) - 8 - 5), NF_DROP,
		     "frag_off cut: -EBADMSG");
	dstopts6(pkt, 41, 128);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, 40 + 8 * 40), NF_DROP,
		     "the 41st header past the end: -EBADMSG");
}

/*
 * ipv6header walks every extension header (no limit): destination
 * options behind 300 others are seen; a chain ending in NEXTHDR_NONE has
 * MASK_NONE and no MASK_PROTO; a header with fewer than 2 bytes left is
 * no match (--soft or not)
 */
Test(xt_packet6, ipv6header_any_number_of_headers)
{
	static const uint32_t counts[] = { 1, 13, 40, 300 };
	uint8_t pkt[40 + 8 * 301 + 8];
	uint8_t hard[3] = { 64 | 1, 0, 0 };	/* --header dst,prot */
	uint8_t soft[3] = { 1, 1, 1 };		/* --soft ! --header prot */
	unsigned int i;
	uint32_t len;

	accept_rule6("ipv6header", hard, sizeof(hard));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt,
				    dstopts6(pkt, counts[i], 128)), NF_ACCEPT,
			     "%u headers", counts[i]);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, dstopts6(pkt, 0, 128)),
		     NF_DROP, "no extension header: MASK_PROTO alone");
	/* the 300th header's next header NONE: dst,none, not dst,prot */
	len = dstopts6(pkt, 300, 128);
	pkt[40 + 8 * 299] = 59;
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, len), NF_DROP, "NONE");
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	hard[0] = 64 | 2;
	accept_rule6("ipv6header", hard, sizeof(hard));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, len), NF_ACCEPT, "dst,none");
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	accept_rule6("ipv6header", soft, sizeof(soft));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, len), NF_ACCEPT, "soft ! prot");
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, dstopts6(pkt, 300, 128)),
		     NF_DROP, "soft ! prot, with a transport header");
	/* the 40th header cut to 1 byte, or none after the 40th: false */
	soft[1] = 0;
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	accept_rule6("ipv6header", soft, sizeof(soft));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, dstopts6(pkt, 40, 128)),
		     NF_ACCEPT, "soft prot");
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, 40 + 8 * 39 + 1), NF_DROP,
		     "1 byte left");
	dstopts6(pkt, 41, 128);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, 40 + 8 * 40), NF_DROP,
		     "0 bytes left");
}

Test(xt_packet6, hop_limit_gt)
{
	uint8_t pkt[64], info[2] = { 3 /* IP6T_HL_GT */, 10 };

	accept_rule6("hl", info, sizeof(info));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 11, 128, 0)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, icmp6(pkt, 10, 128, 0)), NF_DROP);
}

/* struct xt_conntrack_mtinfo3 with --ctstate only */
static void ctstate_info(uint8_t *info, uint16_t mask, bool inv)
{
	uint16_t flags = 0x0001 | 0x2000;	/* STATE | STATE_ALIAS (-m state) */
	uint16_t invf = inv ? 0x0001 : 0;

	memset(info, 0, 168);
	memcpy(info + 146, &flags, 2);
	memcpy(info + 148, &invf, 2);
	memcpy(info + 150, &mask, 2);
}

Test(xt_packet, state_new_dropped)
{
	uint32_t info = 1 << 3;	/* XT_STATE_BIT(IP_CT_NEW) */

	drop_rule("state", 0, &info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM, "a new flow is dropped");
}

Test(xt_packet, conntrack_established_dropped_new_passes)
{
	int l9 = listener(SOCK_STREAM, 9);
	uint8_t info[168];

	/* -m conntrack --ctstate ESTABLISHED -j DROP: the SYN goes out, the
	 * SYN-ACK (reply direction, established) does not */
	ctstate_info(info, 1 << 1, false);
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), 0, "new: passes");
	cr_assert_not(tcp_connects(9), "the SYN-ACK is established: dropped");
	close(l9);
}

Test(xt_packet, conntrack_inverted_new)
{
	int l9 = listener(SOCK_STREAM, 9);
	uint8_t info[168];

	/* -m conntrack ! --ctstate NEW -j DROP */
	ctstate_info(info, 1 << 3, true);
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	cr_assert_not(tcp_connects(9));
	close(l9);
}

static void put16(uint8_t *info, uint32_t off, uint16_t v)
{
	memcpy(info + off, &v, 2);
}

Test(xt_packet, conntrack_rev1_proto_and_be16_port)
{
	uint8_t info[152] = { 0 };

	/* -m conntrack --ctproto udp --ctorigdstport 53 (revision 1) */
	put16(info, 146, 0x0002 | 0x0200);
	put16(info, 136, 17);
	put16(info, 140, htons(53));
	drop_rule("conntrack", 1, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	cr_assert_eq(udp_send(54, 5, 0), 0);
	cr_assert_eq(icmp_send(8), 0);
}

Test(xt_packet, conntrack_rev2_masked_address_and_inverted_status)
{
	uint8_t info[156] = { 0 };

	/* --ctorigdst 127.0.0.0/8 ! --ctstatus CONFIRMED (revision 2): the
	 * first packet's entry is not confirmed yet at LOCAL_OUT */
	put16(info, 146, 0x0008 | 0x0040);
	put16(info, 148, 0x0040);
	info[32] = 127;
	info[48] = 255;
	put16(info, 152, 1 << 3);	/* IPS_CONFIRMED */
	drop_rule("conntrack", 2, info, 154);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[32] = 10;	/* 10.0.0.0/8: not ours */
	drop_rule("conntrack", 2, info, 154);
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

Test(xt_packet, conntrack_rev3_port_range_and_direction)
{
	uint8_t info[168] = { 0 };

	/* --ctorigdstport 50:60 --ctdir ORIGINAL (revision 3: host order) */
	put16(info, 146, 0x0200 | 0x1000);
	put16(info, 140, 50);
	put16(info, 156, 60);
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	cr_assert_eq(udp_send(60, 5, 0), -EPERM);
	cr_assert_eq(udp_send(61, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	put16(info, 148, 0x1000);	/* --ctdir REPLY */
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

Test(xt_packet, conntrack_state_and_proto_together)
{
	uint8_t info[168] = { 0 };

	/* --ctstate NEW --ctproto tcp, then udp: both tests must hold */
	ctstate_info(info, 1 << 3, false);
	put16(info, 146, 0x0001 | 0x0002);
	put16(info, 136, 6);
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), 0, "new, but udp");
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	put16(info, 136, 17);
	drop_rule("conntrack", 3, info, 162);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM, "new udp");
}

Test(xt_packet, connmark_helper_connlabel_on_a_fresh_entry)
{
	uint32_t mark[3] = { 0, 0xffffffff, 0 };
	uint8_t helper[36] = { 0 };
	uint16_t label[2] = { 3, 0 };

	/* -m connmark --mark 0: the entry's mark is 0 */
	drop_rule("connmark", 1, mark, 9);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	mark[0] = 1;
	drop_rule("connmark", 1, mark, 9);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	/* -m helper --helper ftp: no master: invert (false); ! --helper: true */
	strcpy((char *)helper + 4, "ftp");
	drop_rule("helper", 0, helper, sizeof(helper));
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	helper[0] = 1;
	drop_rule("helper", 0, helper, sizeof(helper));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	/* -m connlabel --label 3: unset; ! --label 3: set */
	drop_rule("connlabel", 0, label, sizeof(label));
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	label[1] = 1;
	drop_rule("connlabel", 0, label, sizeof(label));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
}

Test(xt_packet, connlabel_set_is_refused)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 8);
	struct dp_error err = { 0 };
	uint16_t label[2] = { 3, 2 /* XT_CONNLABEL_OP_SET */ };
	struct rule *r;

	strcpy(x->name, "connlabel");
	x->family = 2;
	x->len = 8;
	memcpy(x->info, label, sizeof(label));
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'connlabel' with --set (it writes the conntrack entry) is not supported by the nfbpf dataplane");
	ruleset_rule_free(r);
}

Test(xt_packet, statistic_nth_every_third_and_random_bounds)
{
	uint32_t info[6] = { 1 /* mode nth, flags 0 */, 2 /* every - 1 */, 0, 1 };
	int i, want[6] = { 0, -EPERM, 0, 0, -EPERM, 0 };
	int l53 = listener(SOCK_DGRAM, 53);	/* no port unreachable errors */

	/* every 3, count starting at 1 (nth.count): the packet taking it
	 * from 2 to 0 matches: the 2nd, 5th, ... */
	drop_rule("statistic", 0, info, 24);
	for (i = 0; i < 6; i++)
		cr_assert_eq(udp_send(53, 5, 0), want[i], "packet %d", i + 1);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	/* --mode random --probability 1: every packet; ! --probability 1: none */
	info[0] = 0;
	info[1] = 0x80000000u;
	drop_rule("statistic", 0, info, 24);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = 1u << 16;	/* flags XT_STATISTIC_INVERT */
	drop_rule("statistic", 0, info, 24);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	close(l53);
}

Test(xt_packet, statistic_nth_count_above_every_is_refused)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 24);
	uint32_t info[4] = { 1, 2, 0, 3 };
	struct dp_error err = { 0 };
	struct rule *r;

	strcpy(x->name, "statistic");
	x->family = 2;
	x->len = 24;
	memcpy(x->info, info, sizeof(info));
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'statistic' mode 1 with a first count above --every is not supported by the nfbpf dataplane");
	ruleset_rule_free(r);
}

Test(xt_packet, quota_ends_with_the_packet_that_does_not_fit)
{
	uint64_t info[3] = { 0, 99, 0 };	/* --quota 99: three 33-byte packets */
	int i;

	drop_rule("quota", 0, info, 24);
	for (i = 0; i < 3; i++)
		cr_assert_eq(udp_send(53, 5, 0), -EPERM, "packet %d fits", i + 1);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

Test(xt_packet, cpu_of_the_sending_thread)
{
	uint32_t info[2] = { 0, 0 };	/* --cpu N */
	cpu_set_t old, one;
	int cpu;

	cr_assert_eq(sched_getaffinity(0, sizeof(old), &old), 0);
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &old); cpu++)
		;
	cr_assert_lt(cpu, CPU_SETSIZE);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	/* LOCAL_OUT runs on the sender's CPU */
	cr_assert_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	info[0] = cpu;
	drop_rule("cpu", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[1] = 1;	/* ! --cpu N */
	drop_rule("cpu", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = cpu + 1;	/* ! --cpu N + 1 */
	drop_rule("cpu", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	sched_setaffinity(0, sizeof(old), &old);
}

Test(xt_packet, time_date_range_and_all_days)
{
	/* struct xt_time_info: date_start, date_stop, daytime_start,
	 * daytime_stop, monthdays, weekdays (u8), flags (u8) */
	uint32_t info[6] = { 0, 1000000000u /* 2001-09-09 */, 0, 86399,
			     0xfffffffeu, 0xfe };

	drop_rule("time", 0, info, 22);
	cr_assert_eq(udp_send(53, 5, 0), 0, "after --datestop");
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = 1000000000u;	/* --datestart 2001-09-09 */
	info[1] = 0xffffffffu;
	drop_rule("time", 0, info, 22);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[5] = 0;	/* no weekday */
	drop_rule("time", 0, info, 22);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[5] = 0xfe;
	info[4] = 0;	/* no day of the month */
	drop_rule("time", 0, info, 22);
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

/* IPv4 TCP packet with @flags, tos @tos and @olen option bytes @opt */
static uint32_t tcp_pkt(uint8_t *b, uint8_t flags, uint8_t tos,
			const uint8_t *opt, uint32_t olen)
{
	uint32_t n = tm_ip4(b, 6, 1000, 80, 0) + olen;

	memmove(b + 40 + olen, b + 40, 8);
	if (olen)
		memcpy(b + 40, opt, olen);
	b[1] = tos;
	b[3] = n;
	b[32] = ((20 + olen) / 4) << 4;
	b[33] = flags;
	return n;
}

Test(xt_packet, ecn_tcp_flags_and_ip_ect)
{
	uint8_t pkt[128], info[4] = { 0x20 /* --ecn-tcp-cwr */, 0, 0, 0 };
	uint32_t n;

	out->base->policy = NF_DROP;
	accept_rule("ecn", 0, info, sizeof(info));
	n = tcp_pkt(pkt, 0x80, 0, NULL, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	n = tcp_pkt(pkt, 0x20 | 0x40, 0, NULL, 0);	/* URG, ECE */
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = 0x10 | 0x01;	/* ! --ecn-tcp-ece --ecn-ip-ect 2 */
	info[1] = 0x10;
	info[2] = 2;
	accept_rule("ecn", 0, info, sizeof(info));
	n = tcp_pkt(pkt, 0x80, 0xb8 | 2, NULL, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	n = tcp_pkt(pkt, 0x40, 2, NULL, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	n = tcp_pkt(pkt, 0, 1, NULL, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
}

Test(xt_packet, tcpmss_option_walk_and_hotdrops)
{
	static const uint8_t mss[8] = { 1, 1, 2, 4, 0x05, 0xb4, 0, 0 };
	static const uint8_t mss3[8] = { 2, 3, 0x05, 0xb4, 8, 4, 1, 1 };
	static const uint8_t late[12] = { 8, 2, 1, 0, 1, 2, 4, 0x05, 0xb4, 0, 0, 0 };
	uint16_t info[3] = { 1460, 1460, 0 };	/* --mss 1460 */
	uint8_t pkt[128];
	uint32_t n;

	out->base->policy = NF_DROP;
	accept_rule("tcpmss", 0, info, 5);
	n = tcp_pkt(pkt, 0x02, 0, mss, sizeof(mss));
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	/* kind 8 length 2, NOP, EOL(0) is one byte too: then MSS at 5 */
	n = tcp_pkt(pkt, 0x02, 0, late, sizeof(late));
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	/* MSS with length 3 is no MSS option: invert (false) */
	n = tcp_pkt(pkt, 0x02, 0, mss3, sizeof(mss3));
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	n = tcp_pkt(pkt, 0x02, 0, NULL, 0);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
	/* policy accept: only hotdrops drop; options past the end */
	out->base->policy = NF_ACCEPT;
	tm_commit_ok(&net);
	n = tcp_pkt(pkt, 0x02, 0, mss3, sizeof(mss3));
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	n = tcp_pkt(pkt, 0x02, 0, mss, sizeof(mss));
	pkt[3] = 20 + 20 + 4;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, 20 + 20 + 4), NF_DROP);
	n = tcp_pkt(pkt, 0x02, 0, NULL, 0);
	pkt[32] = 4 << 4;	/* doff 4 */
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, n), NF_DROP);
}

/* LOG target: the same record as the log expression's */
struct log_got {
	int n;
	struct codegen_log_rec rec;
	char prefix[64];
};

static void log_sink(void *arg, const struct codegen_log_rec *rec,
		     const char *prefix, bool allowed)
{
	struct log_got *g = arg;

	(void)allowed;
	if (g->n++)
		return;
	g->rec = *rec;
	snprintf(g->prefix, sizeof(g->prefix), "%s", prefix);
}

Test(xt_packet, log_target_then_drop)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + 32);
	struct log_got g = { 0 };
	struct dp_error err = { 0 };

	/* -j LOG --log-prefix "xt: " --log-level 6 --log-tcp-sequence */
	strcpy(x->name, "LOG");
	x->family = 2;
	x->len = 32;
	x->info[0] = 6;
	x->info[1] = 0x01;
	strcpy((char *)x->info + 2, "xt: ");
	tm_rule(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, list_last_entry(&out->rules,
					  struct rule, list), &err), 0,
		     "%s", err.msg ? err.msg : "");
	/* -j DROP */
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(out, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM, "XT_CONTINUE, then the drop");
	cr_assert_geq(offload_log_read(&net, log_sink, &g), 0);
	cr_assert_eq(g.n, 1);
	cr_assert_str_eq(g.prefix, "xt: ");
	cr_assert_eq(g.rec.level, 6);
	cr_assert_eq(g.rec.logflags, 0x01);
	cr_assert_eq(g.rec.hook, HOOK_OUT);
	cr_assert_eq(g.rec.pf, 2);
	cr_assert_eq(g.rec.len, 33);
}

/* REJECT target: the packet is dropped, nfbpfd's reply reaches the sender */
static void reject_rule(const char *match, uint16_t dport, uint32_t with)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *m = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 16);
	struct expr_xt *x;
	struct dp_error err = { 0 };

	strcpy(m->name, match);
	m->family = 2;
	m->len = 16;
	ports(m->info, 0, 0xffff, dport, dport);
	x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + 8);
	strcpy(x->name, "REJECT");
	x->family = 2;
	x->len = 8;
	memcpy(x->info, &with, sizeof(with));
	tm_rule(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, list_last_entry(&out->rules,
					  struct rule, list), &err), 0,
		     "%s", err.msg ? err.msg : "");
	tm_commit_ok(&net);
}

static void no_log(void *arg, const struct codegen_log_rec *rec,
		   const char *prefix, bool allowed)
{
	(void)arg;
	(void)rec;
	(void)prefix;
	(void)allowed;
}

/* wait (at most 2 s) for @events or an error on @s: the revents, 0 if none */
static short wait_event(int s, short events)
{
	struct pollfd pfd = { .fd = s, .events = events };

	return poll(&pfd, 1, 2000) == 1 ? pfd.revents : 0;
}

Test(xt_packet, reject_target_port_unreachable)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(53),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0), one = 1, err = 0;
	socklen_t len = sizeof(err);

	/* -p udp --dport 53 -j REJECT (IPT_ICMP_PORT_UNREACHABLE) */
	reject_rule("udp", 53, 3);
	cr_assert_eq(setsockopt(s, SOL_IP, IP_RECVERR, &one, sizeof(one)), 0);
	cr_assert_eq(connect(s, (void *)&a, sizeof(a)), 0);
	cr_assert_eq(send(s, "x", 1, 0), -1, "dropped at output");
	cr_assert_eq(errno, EPERM);
	cr_assert_geq(offload_log_read(&net, no_log, NULL), 1, "one record");
	cr_assert(wait_event(s, 0) & POLLERR, "the ICMP error arrived");
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	cr_assert_eq(err, ECONNREFUSED);
	close(s);
}

Test(xt_packet, reject_target_tcp_reset)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int l = listener(SOCK_STREAM, 9);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), err = 0;
	socklen_t len = sizeof(err);

	/* -p tcp --dport 9 -j REJECT --reject-with tcp-reset */
	reject_rule("tcp", 9, 7);	/* IPT_TCP_RESET (ipt_REJECT.h) */
	cr_assert_eq(connect(s, (void *)&a, sizeof(a)), -1);
	cr_assert_eq(errno, EINPROGRESS);
	cr_assert_geq(offload_log_read(&net, no_log, NULL), 1, "one record");
	cr_assert(wait_event(s, POLLOUT) & (POLLERR | POLLHUP), "the RST arrived");
	getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len);
	cr_assert_eq(err, ECONNREFUSED);
	close(s);
	close(l);
}

/* struct xt_u32 (1984 bytes): test @t's location @i and value @v */
static void u32_loc(uint8_t *info, int t, int i, uint32_t number, uint8_t op)
{
	memcpy(info + t * 180 + i * 8, &number, 4);
	info[t * 180 + i * 8 + 4] = op;
}

static void u32_val(uint8_t *info, int t, int v, uint32_t min, uint32_t max)
{
	memcpy(info + t * 180 + 88 + v * 8, &min, 4);
	memcpy(info + t * 180 + 88 + v * 8 + 4, &max, 4);
}

Test(xt_packet, u32_tests_at_shifts_and_ranges)
{
	static uint8_t info[1984];

	/* -m u32 --u32 "0>>28=4 && 0>>22&0x3C@0&0xFFFF=53:54,60" (ipv4, udp
	 * dport 53, 54 or 60 after the ihl jump) */
	memset(info, 0, sizeof(info));
	u32_loc(info, 0, 0, 0, 0);
	u32_loc(info, 0, 1, 28, 2 /* >> */);
	info[176] = 2;
	u32_val(info, 0, 0, 4, 4);
	info[177] = 1;
	u32_loc(info, 1, 0, 0, 0);
	u32_loc(info, 1, 1, 22, 2);
	u32_loc(info, 1, 2, 0x3c, 0 /* & */);
	u32_loc(info, 1, 3, 0, 3 /* @ */);
	u32_loc(info, 1, 4, 0xffff, 0);
	info[180 + 176] = 5;
	u32_val(info, 1, 0, 53, 54);
	u32_val(info, 1, 1, 60, 60);
	info[180 + 177] = 2;
	info[1980] = 2;
	drop_rule("u32", 0, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM, "dport 53 in 53:54");
	cr_assert_eq(udp_send(54, 5, 0), -EPERM, "dport 54 in 53:54");
	cr_assert_eq(udp_send(60, 5, 0), -EPERM, "dport 60");
	cr_assert_eq(udp_send(55, 5, 0), 0, "dport 55 in no range");
}

Test(xt_packet, u32_past_the_packet_is_false_and_inversion)
{
	static uint8_t info[1984];

	/* ! --u32 "0>>22&0x3C@8=0x61616161" reads 4 bytes of the payload at
	 * ihl + 8: a 2-byte datagram is too short (false, so the inverted
	 * match drops it), "aaaa" matches (kept), "bbbb" does not (dropped) */
	memset(info, 0, sizeof(info));
	u32_loc(info, 0, 0, 0, 0);
	u32_loc(info, 0, 1, 22, 2);
	u32_loc(info, 0, 2, 0x3c, 0);
	u32_loc(info, 0, 3, 8, 3);
	info[176] = 4;
	u32_val(info, 0, 0, 0x61616161, 0x61616161);
	info[177] = 1;
	info[1980] = 1;
	info[1981] = 1;
	drop_rule("u32", 0, info, sizeof(info));
	{
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(53),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		int s = socket(AF_INET, SOCK_DGRAM, 0);

		cr_assert_eq(sendto(s, "aaaa", 4, 0, (void *)&a, sizeof(a)), 4);
		cr_assert_eq(sendto(s, "bbbb", 4, 0, (void *)&a, sizeof(a)), -1);
		cr_assert_eq(errno, EPERM);
		cr_assert_eq(sendto(s, "aa", 2, 0, (void *)&a, sizeof(a)), -1,
			     "too short: false, inverted: dropped");
		close(s);
	}
}

/* an Ethernet frame from @src_mac on v1 to v0 (10.99.0.2 -> 10.99.0.1
 * udp 7000), in the test's netns: veth v0 10.99.0.1/24 <-> v1 */
static void mac_frame(int ps, int v1, const uint8_t *dst_mac, uint8_t last)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = v1,
				   .sll_halen = 6 };
	uint8_t f[14 + 20 + 8 + 4] = { 0 };
	uint32_t sum = 0;
	int i;

	memcpy(f, dst_mac, 6);
	memcpy(f + 6, (uint8_t[]){ 2, 0, 0, 0, 0, last }, 6);
	f[12] = 0x08;
	/* ipv4: 10.99.0.2 -> 10.99.0.1, udp, 32 bytes */
	memcpy(f + 14, (uint8_t[]){ 0x45, 0, 0, 32, 0, 1, 0, 0, 64, 17, 0, 0,
				     10, 99, 0, 2, 10, 99, 0, 1 }, 20);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)f[14 + i] << 8 | f[15 + i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	f[24] = (uint8_t)(~sum >> 8);
	f[25] = (uint8_t)~sum;
	/* udp 7001 -> 7000, 12 bytes, no checksum */
	memcpy(f + 34, (uint8_t[]){ 0x1b, 0x59, 0x1b, 0x58, 0, 12, 0, 0, 'm', 'a', 'c', '!' }, 12);
	memcpy(sll.sll_addr, dst_mac, 6);
	cr_assert_eq(sendto(ps, f, sizeof(f), 0, (void *)&sll, sizeof(sll)),
		     (ssize_t)sizeof(f));
}

/* did the datagram arrive at @rx within 300 ms? */
static bool arrived(int rx)
{
	struct pollfd pfd = { .fd = rx, .events = POLLIN };
	char buf[16];

	if (poll(&pfd, 1, 300) != 1)
		return false;
	return recv(rx, buf, sizeof(buf), 0) == 4;
}

/*
 * -A INPUT -m mac --mac-source 02:00:00:00:00:01 -j DROP on a veth (an
 * Ethernet device), and the inverted form; over loopback (not Ethernet)
 * the match is false either way
 */
Test(xt_packet, mac_source_on_an_ethernet_device)
{
	struct chain *in = tm_chain(t, "in", HOOK_IN, 0, NF_ACCEPT);
	uint8_t info[12] = { 2, 0, 0, 0, 0, 1 }, v0mac[6];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(7000) };
	struct tm_rb rb = { 0 };
	struct expr_xt *x;
	struct rule *r;
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_port = htons(7000),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int rx, ps, v1, inv, s;
	struct ifreq ifr;

	cr_assert_eq(system("ip link add v0 type veth peer name v1 && "
			    "ip addr add 10.99.0.1/24 dev v0 && "
			    "ip link set v0 up && ip link set v1 up"), 0);
	/* v0's address (sysfs shows the host's namespace, not ours) */
	ps = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "v0");
	cr_assert_eq(ioctl(ps, SIOCGIFHWADDR, &ifr), 0);
	memcpy(v0mac, ifr.ifr_hwaddr.sa_data, 6);
	close(ps);
	v1 = (int)if_nametoindex("v1");
	cr_assert_gt(v1, 0);
	rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	cr_assert_eq(bind(rx, (void *)&a, sizeof(a)), 0);
	ps = socket(AF_PACKET, SOCK_RAW, 0);
	cr_assert_geq(ps, 0);

	for (inv = 0; inv <= 1; inv++) {
		memset(&rb, 0, sizeof(rb));
		x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 12);
		strcpy(x->name, "mac");
		x->family = 2;
		x->len = 12;
		memcpy(x->info, info, 12);
		x->info[8] = (uint8_t)inv;
		tm_verdict(&rb, NF_DROP, NULL);
		r = tm_rule(in, &rb);
		tm_commit_ok(&net);
		mac_frame(ps, v1, v0mac, 1);
		cr_assert_eq(arrived(rx), inv, "from 02:..:01 (invert %d)", inv);
		mac_frame(ps, v1, v0mac, 2);
		cr_assert_eq(arrived(rx), !inv, "from 02:..:02 (invert %d)", inv);
		s = socket(AF_INET, SOCK_DGRAM, 0);
		cr_assert_eq(sendto(s, "mac!", 4, 0, (void *)&lo, sizeof(lo)), 4);
		close(s);
		cr_assert(arrived(rx), "loopback is not Ethernet: false (invert %d)", inv);
		tm_rule_del(r);
		tm_commit_ok(&net);
	}
	close(ps);
	close(rx);
}

/* struct xt_recent_mtinfo_v1 (228 bytes): a rule of it, then @verdict
 * (NF_DROP) or none (-1) */
static void recent_rule(uint8_t check_set, uint32_t seconds, uint32_t hits,
			const char *name, int verdict)
{
	uint8_t info[228] = { 0 };
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(228));
	struct dp_error err = { 0 };

	memcpy(info, &seconds, 4);
	memcpy(info + 4, &hits, 4);
	info[8] = check_set;
	snprintf((char *)info + 10, 200, "%s", name);
	memset(info + 212, 0xff, 4);	/* --mask 255.255.255.255 */
	strcpy(x->name, "recent");
	x->rev = 1;
	x->family = 2;
	x->len = XT_ALIGN_(228);
	memcpy(x->info, info, sizeof(info));
	if (verdict >= 0)
		tm_verdict(&rb, verdict, NULL);
	tm_rule(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, list_last_entry(&out->rules,
					  struct rule, list), &err), 0,
		     "%s", err.msg ? err.msg : "");
	tm_commit_ok(&net);
}

Test(xt_packet, recent_set_then_update_hitcount_drops_from_the_fourth)
{
	int i;

	/* -m recent --set --name ssh; -m recent --update --seconds 60
	 * --hitcount 4 --name ssh -j DROP: the 4th packet from 127.0.0.1
	 * sees 4 stamps (its own included) and is dropped, as every later
	 * one (each drop updates the entry again) */
	int s = listener(SOCK_DGRAM, 53);	/* no ICMP errors */

	recent_rule(0x02, 0, 0, "ssh", -1);
	recent_rule(0x04, 60, 4, "ssh", NF_DROP);
	for (i = 1; i <= 10; i++)
		cr_assert_eq(udp_send(53, 5, 0), i < 4 ? 0 : -EPERM, "packet %d", i);
	close(s);
}

Test(xt_packet, recent_rcheck_before_set_and_tables_by_name)
{
	int i;

	/* --rcheck --hitcount 2 --name a -j DROP; --set --name a; --set
	 * --name b: a's rule counts the stamps of the packets before */
	int s = listener(SOCK_DGRAM, 53);

	recent_rule(0x01, 0, 2, "a", NF_DROP);
	recent_rule(0x02, 0, 0, "a", -1);
	recent_rule(0x02, 0, 0, "b", -1);
	for (i = 1; i <= 4; i++)
		cr_assert_eq(udp_send(53, 5, 0), i < 3 ? 0 : -EPERM, "packet %d", i);
	close(s);
}

Test(xt_packet, recent_hitcount_beyond_the_stamps_kept_is_refused)
{
	uint8_t info[228] = { 0 };
	uint32_t hits = 200;
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(228));
	struct dp_error err = { 0 };
	struct rule *r;

	memcpy(info + 4, &hits, 4);
	info[8] = 0x01;
	strcpy((char *)info + 10, "x");
	strcpy(x->name, "recent");
	x->rev = 1;
	x->family = 2;
	x->len = XT_ALIGN_(228);
	memcpy(x->info, info, sizeof(info));
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'recent' with --hitcount above 128 is not supported by the nfbpf dataplane");
	ruleset_rule_free(r);
}

/* struct xt_hashlimit_mtinfo3: --hashlimit-above @per_hour/hour
 * --hashlimit-burst @burst, no mode (one bucket), @mode extra */
static void hashlimit_info(uint8_t *info, const char *name, uint64_t per_hour,
			   uint64_t burst, uint32_t mode)
{
	struct xt_hashlimit_mtinfo3 i;

	memset(&i, 0, sizeof(i));
	snprintf(i.name, sizeof(i.name), "%s", name);
	i.cfg.avg = XT_HASHLIMIT_SCALE_v2 * 3600 / per_hour;
	i.cfg.burst = burst;
	i.cfg.mode = XT_HASHLIMIT_INVERT | mode;
	i.cfg.gc_interval = 1000;
	i.cfg.expire = 3600000;
	memcpy(info, &i, offsetof(struct xt_hashlimit_mtinfo3, hinfo));
}

Test(xt_packet, hashlimit_above_drops_past_the_burst)
{
	uint8_t info[sizeof(struct xt_hashlimit_mtinfo3)] = { 0 };
	int s = listener(SOCK_DGRAM, 53), i;

	/* -m hashlimit --hashlimit-above 1/hour --hashlimit-burst 3
	 * --hashlimit-name t -j DROP: 3 packets within the burst, then
	 * every one over the rate */
	hashlimit_info(info, "t", 1, 3, 0);
	drop_rule("hashlimit", 3, info, sizeof(info));
	for (i = 1; i <= 6; i++)
		cr_assert_eq(udp_send(53, 5, 0), i <= 3 ? 0 : -EPERM, "packet %d", i);
	close(s);
}

Test(xt_packet, hashlimit_byte_mode_is_refused)
{
	uint8_t info[sizeof(struct xt_hashlimit_mtinfo3)] = { 0 };
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(sizeof(info)));
	struct dp_error err = { 0 };
	struct rule *r;

	hashlimit_info(info, "b", 1, 3, XT_HASHLIMIT_BYTES);
	strcpy(x->name, "hashlimit");
	x->rev = 3;
	x->family = 2;
	x->len = XT_ALIGN_(sizeof(info));
	memcpy(x->info, info, sizeof(info));
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'hashlimit' in byte mode is not supported by the nfbpf dataplane");
	ruleset_rule_free(r);
}

/* -p udp --dport @dport -m recent @check_set --rdest --name @name
 * [-j DROP if @drop] */
static void udp_recent_rule(uint16_t dport, uint8_t check_set, const char *name,
			    bool drop)
{
	uint8_t u[10] = { 0 }, info[228] = { 0 };
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH,
				   sizeof(struct expr_xt) + XT_ALIGN_(sizeof(u)));

	ports(u, 0, 0xffff, dport, dport);
	strcpy(x->name, "udp");
	x->family = 2;
	x->len = XT_ALIGN_(sizeof(u));
	memcpy(x->info, u, sizeof(u));
	x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + XT_ALIGN_(228));
	info[8] = check_set;
	snprintf((char *)info + 10, 200, "%s", name);
	info[210] = 1;			/* XT_RECENT_DEST */
	memset(info + 212, 0xff, 4);
	strcpy(x->name, "recent");
	x->rev = 1;
	x->family = 2;
	x->len = XT_ALIGN_(228);
	memcpy(x->info, info, sizeof(info));
	if (drop)
		tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(out, &rb);
	tm_commit_ok(&net);
}

/* one UDP datagram to 127.0.0.@host:@port: 0 or -errno */
static int udp_send_to(uint8_t host, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(0x7f000000u | host) };
	int s = socket(AF_INET, SOCK_DGRAM, 0), ret;

	cr_assert_geq(s, 0);
	ret = sendto(s, "x", 1, 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
	close(s);
	return ret;
}

Test(xt_packet, recent_full_table_evicts_the_least_recently_seen)
{
	int h;

	/* udp dport 9 & --rcheck --rdest: drop; udp dport 10 & --set
	 * --rdest. 101 destinations set into a table of ip_list_tot (100)
	 * entries: the first (least recently set) goes, the others stay */
	udp_recent_rule(9, 0x01, "lru", true);
	udp_recent_rule(10, 0x02, "lru", false);
	for (h = 1; h <= 101; h++)
		cr_assert_eq(udp_send_to(h, 10), 0, "host %d", h);
	cr_assert_eq(udp_send_to(1, 9), 0);
	cr_assert_eq(udp_send_to(2, 9), -EPERM);
	cr_assert_eq(udp_send_to(101, 9), -EPERM);
	/* setting 2 again moves it to the tail: 3 goes next */
	cr_assert_eq(udp_send_to(2, 10), 0);
	cr_assert_eq(udp_send_to(102, 10), 0);
	cr_assert_eq(udp_send_to(2, 9), -EPERM);
	cr_assert_eq(udp_send_to(3, 9), 0);
	cr_assert_eq(udp_send_to(4, 9), -EPERM);
}

/* send @len bytes of @data by UDP to loopback:@port: 0 or -errno */
static int udp_send_data(uint16_t port, const void *data, size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_DGRAM, 0), ret;

	ret = sendto(s, data, len, 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
	close(s);
	return ret;
}

/* struct xt_string_info: from, to, algo, pattern, patlen, flags */
static void string_info(uint8_t *info, uint16_t from, uint16_t to,
			const char *algo, const void *pat, uint8_t patlen,
			uint8_t flags)
{
	memset(info, 0, 160);
	memcpy(info, &from, 2);
	memcpy(info + 2, &to, 2);
	strcpy((char *)info + 4, algo);
	memcpy(info + 20, pat, patlen);
	info[148] = patlen;
	info[149] = flags;
}

Test(xt_packet, string_kmp_and_bm_with_from_to_and_icase)
{
	static const char *const algos[] = { "kmp", "bm" };
	uint8_t info[160];
	int a;

	for (a = 0; a < 2; a++) {
		/* -m string --algo A --string hello --icase --to 40 -j DROP:
		 * IPv4 20 + UDP 8 bytes, then the payload: "hello" must end
		 * by packet offset 40 (payload offset 12) */
		string_info(info, 0, 40, algos[a], "hello", 5, 0x02);
		drop_rule("string", 1, info, sizeof(info));
		cr_assert_eq(udp_send_data(53, "xxHeLLoxx", 9), -EPERM, "%s: found", algos[a]);
		cr_assert_eq(udp_send_data(53, "1234567hello", 12), -EPERM, "%s: ends at 40", algos[a]);
		cr_assert_eq(udp_send_data(53, "12345678hello", 13), 0, "%s: ends at 41", algos[a]);
		cr_assert_eq(udp_send_data(53, "hell", 4), 0, "%s: not there", algos[a]);
		tm_rule_del(list_last_entry(&out->rules, struct rule, list));
		tm_commit_ok(&net);
	}
	/* ! --string "\x00\x35" --from 22 --to 24 (dport 53 at offset 22) */
	string_info(info, 22, 24, "kmp", "\x00\x35", 2, 0x01);
	drop_rule("string", 1, info, sizeof(info));
	cr_assert_eq(udp_send_data(53, "x", 1), 0);
	cr_assert_eq(udp_send_data(54, "x", 1), -EPERM);
}

Test(xt_packet, string_what_the_dataplane_refuses)
{
	static const struct {
		const char *algo, *pat;
		uint8_t len, flags;
		const char *msg;
	} c[] = {
		{ "bm", "\xdf" "a", 2, 0x02, "xt match 'string' --algo bm --icase with bytes 0xbf, 0xdf or 0xff in the pattern is not supported by the nfbpf dataplane (the kernel's bad character table skips matches there)" },
		{ "kmp", "", 0, 0, "xt match 'string' with an empty pattern is not supported by the nfbpf dataplane" },
		{ "fsm", "ab", 2, 0, "xt match 'string' with --algo fsm is not supported by the nfbpf dataplane" },
	};
	uint8_t info[160];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct tm_rb rb = { 0 };
		struct expr_xt *x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 160);
		struct dp_error err = { 0 };
		struct rule *r;

		string_info(info, 0, 0xffff, c[i].algo, c[i].pat, c[i].len, c[i].flags);
		strcpy(x->name, "string");
		x->rev = 1;
		x->family = 2;
		x->len = 160;
		memcpy(x->info, info, 160);
		r = tm_rule_new(out, &rb);
		cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
		cr_assert_str_eq(err.msg, c[i].msg);
		ruleset_rule_free(r);
	}
	/* bm --icase with 0xdf only in the last byte: its bad character
	 * table does not hold the last byte, so it is exact (accepted) */
	string_info(info, 0, 0xffff, "bm", "a\xdf", 2, 0x02);
	drop_rule("string", 1, info, sizeof(info));
}

Test(xt_packet, tcp_option_kinds_of_a_syn)
{
	int l9 = listener(SOCK_STREAM, 9), l10 = listener(SOCK_STREAM, 10);
	uint8_t info[12] = { 0 };

	/* -p tcp --dport 9 --tcp-option 2 -j DROP (a SYN carries MSS) */
	ports(info, 0, 0xffff, 9, 9);
	info[8] = 2;
	drop_rule("tcp", 0, info, sizeof(info));
	/* -p tcp --dport 10 ! --tcp-option 2 -j DROP */
	ports(info, 0, 0xffff, 10, 10);
	info[11] = 0x08;
	drop_rule("tcp", 0, info, sizeof(info));
	cr_assert_not(tcp_connects(9), "tcp/9 SYN with MSS dropped");
	cr_assert(tcp_connects(10), "tcp/10 SYN with MSS accepted");
	close(l9);
	close(l10);
}

/* ipv6 header + @n bytes of a mobility header (next header 135) */
static uint32_t mh6(uint8_t *b, uint8_t proto, uint8_t type, uint32_t n)
{
	memset(b, 0, 40 + 8);
	b[0] = 0x60;
	b[5] = n;
	b[6] = 135;
	b[7] = 64;
	b[23] = 1;
	b[39] = 1;
	b[40] = proto;
	b[42] = type;
	return 40 + n;
}

Test(xt_packet6, mh_type_range_and_hotdrops)
{
	uint8_t pkt[64], info[3] = { 2, 5, 0 };	/* --mh-type 2:5 */

	accept_rule6("mh", info, sizeof(info));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 3, 8)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 6, 8)), NF_DROP);
	tm_rule_del(list_last_entry(&out6->rules, struct rule, list));
	info[2] = 1;	/* ! --mh-type 2:5 */
	accept_rule6("mh", info, sizeof(info));
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 6, 8)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 3, 8)), NF_DROP);
	/* hotdrops: payload proto not none, a header cut short; then a
	 * second rule accepting everything would be too late */
	accept_rule6("comment", (char[256]){ "all" }, 256);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 3, 8)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 6, 6, 8)), NF_DROP);
	cr_assert_eq(tm_run(&net6, out6, 10, HOOK_OUT, pkt, mh6(pkt, 59, 6, 4)), NF_DROP);
}

Test(xt_packet, cgroup_classid_of_the_sending_socket)
{
	uint8_t info[528] = { 0 };

	/* -m cgroup --cgroup 0 (revision 2): a socket outside any net_cls
	 * class has class id 0 */
	info[1] = 1;	/* has_classid */
	drop_rule("cgroup", 2, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[3] = 1;	/* ! --cgroup 0 */
	drop_rule("cgroup", 2, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[3] = 0;
	info[4] = 7;	/* --cgroup 7 */
	drop_rule("cgroup", 2, info, sizeof(info));
	cr_assert_eq(udp_send(53, 5, 0), 0);
}

Test(xt_packet, cgroup_path_is_refused)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_MATCH, sizeof(struct expr_xt) + 528);
	struct dp_error err = { 0 };
	struct rule *r;

	strcpy(x->name, "cgroup");
	x->rev = 2;
	x->family = 2;
	x->len = 528;
	x->info[0] = 1;
	strcpy((char *)x->info + 4, "/");
	r = tm_rule_new(out, &rb);
	cr_assert_eq(dataplane_rule_check(out, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt match 'cgroup' with --path (the socket's cgroup ancestry) is not supported by the nfbpf dataplane yet");
	ruleset_rule_free(r);
}

/* IPv4 + a 12-byte DCCP header (sport, dport, type) */
static uint32_t dccp_pkt(uint8_t *b, uint16_t sport, uint16_t dport,
			 uint8_t type, uint16_t frag_off)
{
	uint32_t n = tm_ip4(b, 33, sport, dport, frag_off) + 4;

	b[3] = n;
	b[28] = (type << 1) | 1;	/* x = 1, type */
	return n;
}

Test(xt_packet, dccp_ports_types_and_hotdrop)
{
	uint16_t info[8] = { 80, 80, 0, 0xffff, 0x02 | 0x04, 0, 1 << 0 };
	uint8_t pkt[128];

	/* -p dccp --dport 80 --dccp-types REQUEST */
	out->base->policy = NF_DROP;
	accept_rule("dccp", 0, info, 15);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 80, 0, 0)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 80, 1, 0)), NF_DROP);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 81, 0, 0)), NF_DROP);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 80, 0, 2)), NF_DROP);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[5] = 0x04;	/* ! --dccp-types REQUEST */
	accept_rule("dccp", 0, info, 15);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 80, 15, 0)), NF_ACCEPT);
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, dccp_pkt(pkt, 5, 80, 0, 0)), NF_DROP);
	/* policy accept: a header cut short hotdrops */
	out->base->policy = NF_ACCEPT;
	tm_commit_ok(&net);
	dccp_pkt(pkt, 5, 80, 15, 0);
	pkt[3] = 20 + 10;
	cr_assert_eq(tm_run(&net, out, 2, HOOK_OUT, pkt, 30), NF_DROP);
}

Test(xt_packet, realm_of_the_route)
{
	uint32_t info[3] = { 0, 0xffffffff, 0 };	/* --realm 0 */

	/* the loopback route has no realm: class id 0 */
	drop_rule("realm", 0, info, 9);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[0] = 5;	/* --realm 5 */
	drop_rule("realm", 0, info, 9);
	cr_assert_eq(udp_send(53, 5, 0), 0);
	tm_rule_del(list_last_entry(&out->rules, struct rule, list));
	info[2] = 1;	/* ! --realm 5 */
	drop_rule("realm", 0, info, 9);
	cr_assert_eq(udp_send(53, 5, 0), -EPERM);
}

/* -p udp ... -m connlimit (rev 1) --connlimit-above @limit
 * --connlimit-mask @plen [--connlimit-daddr] -j DROP */
static void connlimit_rule(uint32_t limit, uint32_t plen, bool daddr)
{
	struct xt_connlimit_info ci = { 0 };

	ci.v4_mask = plen ? htonl(~0u << (32 - plen)) : 0;
	ci.limit = limit;
	ci.flags = daddr ? XT_CONNLIMIT_DADDR : 0;
	drop_rule("connlimit", 1, &ci, sizeof(ci));
}

/* a UDP datagram from 127.0.0.@src on socket *@s (a new one when -1,
 * that is a new flow) to 127.0.0.@dst:9: 0 or -errno */
static int udp_flow(int *s, uint8_t src, uint8_t dst)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9),
				 .sin_addr.s_addr = htonl(0x7f000000u | dst) };
	struct sockaddr_in b = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(0x7f000000u | src) };

	if (*s < 0) {
		*s = socket(AF_INET, SOCK_DGRAM, 0);
		cr_assert_geq(*s, 0);
		cr_assert_eq(bind(*s, (void *)&b, sizeof(b)), 0);
	}
	return sendto(*s, "x", 1, 0, (void *)&a, sizeof(a)) < 0 ? -errno : 0;
}

/*
 * New UDP flows at LOCAL_OUT (unconfirmed conntracks: each counts), per
 * source address: the third from 127.0.0.1 is over 2; a flow sending
 * again is the same connection (confirmed, not assured: found, not
 * counted twice); 127.0.0.2 has its own list with a /32 mask. The same
 * sequence through the kernel's xt_connlimit gives the same results.
 */
Test(xt_packet, connlimit_above_per_source_address)
{
	int s1 = -1, s2 = -1, s3 = -1, s4 = -1;

	connlimit_rule(2, 32, false);
	cr_assert_eq(udp_flow(&s1, 1, 1), 0, "1 connection");
	cr_assert_eq(udp_flow(&s1, 1, 1), 0, "the same one");
	cr_assert_eq(udp_flow(&s2, 1, 1), 0, "2 connections");
	cr_assert_eq(udp_flow(&s3, 1, 1), -EPERM, "3 connections are over 2");
	cr_assert_eq(udp_flow(&s4, 2, 1), 0, "127.0.0.2: its first");
	/* s1 again: the scan ends at s1 (found: not added), the first
	 * entry, before the entry of s3's dropped conntrack: 3 counted
	 * (the kernel's iptables-nft does the same, measured) */
	cr_assert_eq(udp_flow(&s1, 1, 1), -EPERM, "s3's entry is still counted");
	close(s1);
	close(s2);
	close(s3);
	close(s4);
}

/* a /8 mask makes 127.0.0.1 and 127.0.0.2 one key; --connlimit-daddr
 * keys by the destination */
Test(xt_packet, connlimit_mask_and_daddr)
{
	int s[4] = { -1, -1, -1, -1 };
	int i;

	connlimit_rule(1, 8, false);
	connlimit_rule(2, 32, true);
	cr_assert_eq(udp_flow(&s[0], 1, 1), 0);
	cr_assert_eq(udp_flow(&s[1], 2, 3), -EPERM, "127.0.0.2 is in 127/8 too");
	for (i = 0; i < 4; i++)
		if (s[i] >= 0)
			close(s[i]);
}

Test(xt_packet, connlimit_daddr_keys_by_destination)
{
	int s[4] = { -1, -1, -1, -1 };
	int i;

	connlimit_rule(1, 32, true);
	cr_assert_eq(udp_flow(&s[0], 1, 5), 0, "to .5: 1");
	cr_assert_eq(udp_flow(&s[1], 1, 6), 0, "to .6: 1");
	cr_assert_eq(udp_flow(&s[2], 2, 5), -EPERM, "to .5: 2, over 1");
	cr_assert_eq(udp_flow(&s[3], 2, 7), 0, "to .7: 1");
	for (i = 0; i < 4; i++)
		close(s[i]);
}

/* an ebtables dnat/snat target (struct ebt_nat_info) in @c's rule */
static const char *ebt_nat_check(struct chain *c, const char *name, int32_t target)
{
	static struct dp_error err;
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + 16);
	struct rule *r;
	int ret;

	memset(&err, 0, sizeof(err));
	strcpy(x->name, name);
	x->family = 7;	/* NFPROTO_BRIDGE */
	x->len = 16;
	memcpy(x->info, "\x02\x00\x00\x00\x00\x09", 6);
	memcpy(x->info + 8, &target, 4);
	r = tm_rule_new(c, &rb);
	ret = dataplane_rule_check(c, r, &err);
	ruleset_rule_free(r);
	return ret ? err.msg : NULL;
}

Test(xt_packet, ebt_nat_targets_take_the_ebtables_verdicts)
{
	/* dnat: EBT_ACCEPT .. EBT_RETURN; snat: the same in its low 4 bits,
	 * NAT_ARP_BIT (0x10, cleared by --snat-arp) aside */
	cr_assert_null(ebt_nat_check(out, "dnat", -1));
	cr_assert_null(ebt_nat_check(out, "dnat", -4));
	cr_assert_str_eq(ebt_nat_check(out, "dnat", -5), "ebtables nat target: invalid verdict");
	cr_assert_str_eq(ebt_nat_check(out, "dnat", 0), "ebtables nat target: invalid verdict");
	cr_assert_null(ebt_nat_check(out, "snat", -1));
	cr_assert_null(ebt_nat_check(out, "snat", -1 ^ 0x10));
	cr_assert_null(ebt_nat_check(out, "snat", -3 ^ 0x10));
	cr_assert_str_eq(ebt_nat_check(out, "snat", 0x10), "ebtables nat target: invalid verdict");
}

/* ebtables' log and nflog watchers: what the translation cannot cover
 * is refused, naming it; well-formed ones pass the check */
static int ebt_target_check(const char *name, const uint8_t *info, uint32_t len,
			    struct dp_error *err)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + len);
	struct rule *r;
	int ret;

	strcpy(x->name, name);
	x->family = 7;
	x->len = len;
	memcpy(x->info, info, len);
	r = tm_rule_new(out, &rb);
	ret = dataplane_rule_check(out, r, err);
	ruleset_rule_free(r);
	return ret;
}

Test(xt_packet, ebt_log_and_nflog_checks)
{
	uint8_t log[36] = { 6 }, nflog[76] = { 0 };
	struct dp_error err = { 0 };

	memcpy(log + 1, "pre: ", 5);
	log[32] = 0x0b;		/* IP, ARP, IP6 */
	cr_assert_eq(ebt_target_check("log", log, sizeof(log), &err), 0);
	log[32] = 0x0f;		/* EBT_LOG_NFLOG: refused, as by the kernel */
	cr_assert_eq(ebt_target_check("log", log, sizeof(log), &err), -EOPNOTSUPP);
	log[32] = 0x0b;
	memset(log + 1, 'x', 30);	/* unterminated prefix */
	cr_assert_eq(ebt_target_check("log", log, sizeof(log), &err), -EOPNOTSUPP);
	cr_assert(strstr(err.msg, "xt target 'log'"));
	/* the watcher needs its whole info */
	cr_assert_eq(ebt_target_check("log", log, 32, &err), -EOPNOTSUPP);
	nflog[4] = 3;		/* group 3 */
	memcpy(nflog + 12, "eb6", 3);
	cr_assert_eq(ebt_target_check("nflog", nflog, sizeof(nflog), &err), 0);
	nflog[8] = 1;		/* a flag: the kernel has none */
	cr_assert_eq(ebt_target_check("nflog", nflog, sizeof(nflog), &err), -EOPNOTSUPP);
	cr_assert(strstr(err.msg, "xt target 'nflog'"));
}

/* arpt_mangle.c checkentry() / ebt_redirect's verdict check, at commit */
static int target_check_of(const char *name, uint8_t family, const void *info,
			   uint32_t len, struct dp_error *err)
{
	struct tm_rb rb = { 0 };
	struct expr_xt *x = tm_add(&rb, EXPR_TARGET, sizeof(struct expr_xt) + len);
	struct rule *r;
	int ret;

	strcpy(x->name, name);
	x->family = family;
	x->len = len;
	memcpy(x->info, info, len);
	r = tm_rule_new(out, &rb);
	ret = dataplane_rule_check(out, r, err);
	ruleset_rule_free(r);
	return ret;
}

Test(xt_packet, arpt_mangle_and_ebt_redirect_checks)
{
	uint8_t m[48] = { 0 };
	int32_t t = -1;	/* XT_CONTINUE */
	struct dp_error err = { 0 };

	m[40] = 0x04;	/* ARPT_MANGLE_SIP */
	memcpy(m + 44, &t, 4);
	cr_assert_eq(target_check_of("mangle", 3, m, 48, &err), 0);
	t = 1;		/* NF_ACCEPT */
	memcpy(m + 44, &t, 4);
	cr_assert_eq(target_check_of("mangle", 3, m, 48, &err), 0);
	t = 2;		/* NF_STOLEN: not a mangle verdict */
	memcpy(m + 44, &t, 4);
	cr_assert_eq(target_check_of("mangle", 3, m, 48, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "arptables mangle target: invalid verdict");
	t = 0;
	memcpy(m + 44, &t, 4);
	m[40] = 0;	/* no flag */
	cr_assert_eq(target_check_of("mangle", 3, m, 48, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "arptables mangle target: invalid flags");
	m[40] = 0x11;	/* a flag out of the mask */
	cr_assert_eq(target_check_of("mangle", 3, m, 48, &err), -EOPNOTSUPP);
	/* another family's "mangle": none */
	m[40] = 0x01;
	cr_assert_eq(target_check_of("mangle", 2, m, 48, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "xt target 'mangle' is not supported by the nfbpf dataplane yet");

	t = -4;		/* EBT_RETURN */
	cr_assert_eq(target_check_of("redirect", 7, &t, 4, &err), 0);
	t = -5;
	cr_assert_eq(target_check_of("redirect", 7, &t, 4, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "ebtables nat target: invalid verdict");
}
