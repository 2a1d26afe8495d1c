// SPDX-License-Identifier: GPL-2.0-only
/* expr_payload.c - NH/TH/LL loads, fragments, IPv6 extension headers. */
#include "tests/codegen/model.h"

static struct net net;
static struct table *t;
static struct chain *base;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", 1 /* inet */);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_payload, .init = setup, .fini = teardown);

/* rule: payload base/off/len -> r4; cmp eq v; drop */
static void rule_match(uint8_t pbase, uint32_t off, const void *v, uint32_t len)
{
	struct tm_rb rb = { 0 };

	tm_payload(&rb, pbase, off, len, 4);
	tm_cmp(&rb, 4, CMP_EQ, v, len);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
}

Test(expr_payload, nh_saddr)
{
	uint8_t pkt[128], a[4] = { 10, 0, 0, 1 };
	uint32_t n = tm_ip4(pkt, 17, 1000, 53, 0);

	rule_match(PAYLOAD_NH, 12, a, 4);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_DROP);
	pkt[15] = 9;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
}

Test(expr_payload, th_dport_ipv4_uses_ihl)
{
	uint8_t pkt[128], p[2] = { 0, 53 };
	uint32_t n = tm_ip4(pkt, 17, 1000, 53, 0);

	rule_match(PAYLOAD_TH, 2, p, 2);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_DROP);
	/* 4 bytes of IP options: the transport header moves */
	memmove(pkt + 24, pkt + 20, n - 20);
	memset(pkt + 20, 1, 4);	/* NOPs */
	pkt[0] = 0x46;
	pkt[3] += 4;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n + 4), NF_DROP);
	pkt[27] = 54;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n + 4), NF_ACCEPT);
}

/*
 * a later fragment: the kernel's fast path (1, 2 or 4 aligned bytes,
 * nft_payload_fast_eval) has no fragment check and reads the fragment's
 * own bytes at thoff + offset; any other transport load breaks, as
 * nft_payload_eval does
 */
Test(expr_payload, th_on_a_later_fragment_as_the_kernel)
{
	uint8_t pkt[128], p[2] = { 0, 53 }, p3[3] = { 0, 53, 0 };
	uint32_t n = tm_ip4(pkt, 17, 1000, 53, 0x0001 /* offset 8 */);

	rule_match(PAYLOAD_TH, 2, p, 2);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_DROP,
		     "fast-path load reads the fragment data");
	pkt[23] = 54;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	pkt[23] = 53;
	tm_rule_del(list_first_entry(&base->rules, struct rule, list));
	/* 3 bytes: not the fast path, breaks on a later fragment */
	rule_match(PAYLOAD_TH, 2, p3, 3);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
	/* first fragment (MF set, offset 0): transport header is there */
	pkt[6] = 0x20;
	pkt[7] = 0;
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_DROP);
}

Test(expr_payload, th_beyond_packet_breaks)
{
	uint8_t pkt[128], p[4] = { 0 };
	uint32_t n = tm_ip4(pkt, 17, 1000, 53, 0);

	/* 4 bytes at TH+60: past the end, the rule must not match */
	rule_match(PAYLOAD_TH, 60, p, 4);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
}

static uint32_t ip6(uint8_t *b, uint8_t nexthdr, const uint8_t *ext,
		    uint32_t extlen, uint16_t dport)
{
	memset(b, 0, 40 + extlen + 8);
	b[0] = 0x60;
	b[4] = (uint8_t)((extlen + 8) >> 8);
	b[5] = (uint8_t)(extlen + 8);
	b[6] = nexthdr;
	b[7] = 64;
	b[23] = 1;
	b[39] = 2;
	memcpy(b + 40, ext, extlen);
	b[40 + extlen + 0] = 0x03;
	b[40 + extlen + 1] = 0xe8;
	b[40 + extlen + 2] = dport >> 8;
	b[40 + extlen + 3] = dport & 0xff;
	return 40 + extlen + 8;
}

Test(expr_payload, ipv6_extension_headers)
{
	uint8_t pkt[256], p[2] = { 0, 53 };
	/* hop-by-hop (8 bytes, next = dest opts), dest opts (16 bytes, next = UDP) */
	uint8_t ext[24] = { 60, 0, 1, 4, 0, 0, 0, 0, 17, 1, 1, 12 };
	uint32_t n;

	rule_match(PAYLOAD_TH, 2, p, 2);
	n = ip6(pkt, 17, NULL, 0, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP);
	n = ip6(pkt, 0, ext, 24, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP);
	n = ip6(pkt, 0, ext, 24, 54);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_ACCEPT);
}

Test(expr_payload, ipv6_fragments)
{
	uint8_t pkt[256], p[2] = { 0, 53 };
	uint8_t frag[8] = { 17, 0, 0, 0, 0, 0, 0, 1 };	/* offset 0, MF=0 */
	uint32_t n;

	rule_match(PAYLOAD_TH, 2, p, 2);
	n = ip6(pkt, 44, frag, 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP,
		     "first fragment: transport header after the fragment header");
	frag[2] = 0x01;	/* offset 32 bytes */
	n = ip6(pkt, 44, frag, 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_ACCEPT,
		     "non-first fragment: TH loads break");
}

Test(expr_payload, ll_absent_at_output_breaks)
{
	uint8_t pkt[128], z[2] = { 0, 0 };
	uint32_t n = tm_ip4(pkt, 17, 1000, 53, 0);
	struct tm_rb rb = { 0 };

	/* LL load at LOCAL_OUT: no mac header: the rule breaks */
	tm_payload(&rb, PAYLOAD_LL, 12, 2, 4);
	tm_cmp(&rb, 4, CMP_NEQ, z, 2);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_OUT, pkt, n), NF_ACCEPT);
}

Test(expr_payload, ll_ethertype_at_prerouting)
{
	uint8_t pkt[160], et[2] = { 0x08, 0x00 };
	struct tm_rb rb = { 0 };
	uint32_t n;

	/* prerouting test runs take an Ethernet frame; eth_type_trans sets
	 * the mac header and pulls it: LL offset 12 is the ethertype */
	memset(pkt, 0, 14);
	pkt[0] = 0xff; pkt[1] = 0xff; pkt[2] = 0xff; pkt[3] = 0xff; pkt[4] = 0xff; pkt[5] = 0xff;
	pkt[12] = 0x08;
	n = 14 + tm_ip4(pkt + 14, 17, 1000, 53, 0);
	tm_payload(&rb, PAYLOAD_LL, 12, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, et, 2);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(base, &rb);
	tm_commit_ok(&net);
	cr_assert_eq(tm_run(&net, base, 2, HOOK_PRE, pkt, n), NF_DROP);
}

Test(expr_payload, refuses_set_and_inner)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_payload *p = tm_add(&rb, EXPR_PAYLOAD, sizeof(*p));
	struct rule *r;

	p->is_set = true;
	p->len = 2;
	p->sreg = 4;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "payload set (mangling) in an inet non-ingress chain: netfilter hook programs see packets read-only (nfbpf mangles in netdev, bridge, arp, inet ingress chains)");
	free(r->exprs);
	free(r);
}

Test(expr_payload, ipv6_auth_routing_and_any_number_of_headers)
{
	uint8_t pkt[256], p[2] = { 0, 53 };
	/* AH: next = routing, hdrlen 1 -> (1 + 2) * 4 = 12 bytes; routing:
	 * next = UDP, hdrlen 0 -> 8 bytes */
	uint8_t ext[20] = { 43, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			    17, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t many[40 * 8], big[40 + 40 * 8 + 8];
	uint32_t n;
	int i;

	rule_match(PAYLOAD_TH, 2, p, 2);
	/* nf_tables stops at AH (ipv6_find_hdr() with IP6_FH_F_AUTH): the
	 * transport header is AH itself, whose bytes 2-3 are reserved */
	n = ip6(pkt, 51, ext, 20, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_ACCEPT);
	ext[3] = 53;
	n = ip6(pkt, 51, ext, 20, 99);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP);
	/* a routing header is skipped: the UDP header behind it */
	n = ip6(pkt, 43, ext + 12, 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, pkt, n), NF_DROP);
	/* any number of destination options headers (ipv6_find_hdr() has
	 * no count limit): the UDP header behind 12, 13 or 40 of them */
	memset(many, 0, sizeof(many));
	for (n = 12; n <= 40; n += n == 13 ? 27 : 1) {
		for (i = 0; i < (int)n; i++)
			many[8 * i] = i + 1 == (int)n ? 17 : 60;
		cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, big,
				    ip6(big, 60, many, n * 8, 53)), NF_DROP,
			     "%u headers, port 53", n);
		cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, big,
				    ip6(big, 60, many, n * 8, 54)), NF_ACCEPT,
			     "%u headers, port 54", n);
	}
	/* the chain cut inside its 40th header: no transport header, the
	 * payload load breaks */
	n = ip6(big, 60, many, 40 * 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, big, 40 + 39 * 8 + 1), NF_ACCEPT);
	/* behind 40 headers a non-first fragment: UDP without a transport
	 * header offset (fragoff set), the load breaks; a first fragment's
	 * UDP header is loaded */
	for (i = 0; i < 39; i++)
		many[8 * i] = i == 38 ? 44 : 60;
	memset(many + 39 * 8, 0, 8);
	many[39 * 8] = 17;
	many[39 * 8 + 3] = 0x10;	/* offset 2 (16 bytes) */
	n = ip6(big, 60, many, 40 * 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, big, n), NF_ACCEPT);
	many[39 * 8 + 3] = 0x01;	/* offset 0, more fragments */
	n = ip6(big, 60, many, 40 * 8, 53);
	cr_assert_eq(tm_run(&net, base, 10, HOOK_OUT, big, n), NF_DROP);
}
