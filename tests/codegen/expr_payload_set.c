// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_payload_set.c - payload set (mangling) in tc programs: a netdev
 * ingress chain on "lo" in a scratch namespace, run with
 * BPF_PROG_TEST_RUN on Ethernet frames whose output bytes are checked:
 * the written bytes, the IPv4 header checksum and the transport checksum
 * (csum type inet, pseudo header flag, UDP without a checksum,
 * CSUM_MANGLED_0), later expressions and rules seeing the new bytes, a
 * later fragment breaking; and what is refused at commit (netfilter
 * hook families, SCTP checksum, the VLAN tag's link layer bytes).
 */
#include "tests/codegen/model.h"

#include <net/if.h>

#define NETDEV		5
#define HOOK_INGRESS	0
#define TCX_NEXT	(-1)
#define TCX_DROP	2
#define CSUM_INET	1
#define PSEUDOHDR	1

static struct net net;
static struct table *t;
static struct chain *c;
static uint8_t frame[128], out[256];
static uint32_t flen, olen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", NETDEV);
	c = tm_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	c->base->devs = calloc(1, sizeof(char *));
	c->base->devs[0] = strdup("lo");
	c->base->ndevs = 1;
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_payload_set, .init = setup, .fini = teardown);

static uint32_t sum16(const uint8_t *b, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/* IPv4 header checksum right? transport checksum right (UDP 0: none)? */
static bool ip_ok(const uint8_t *f)
{
	return sum16(f + 14, 20, 0) == 0xffff;
}

static bool l4_ok(const uint8_t *f)
{
	uint32_t n = (f[16] << 8 | f[17]) - 20, s;
	uint8_t ph[12];

	memcpy(ph, f + 26, 8);
	ph[8] = 0;
	ph[9] = f[23];
	ph[10] = n >> 8;
	ph[11] = n & 0xff;
	s = sum16(ph, 12, 0);
	return sum16(f + 34, n, s) == 0xffff;
}

/* Ethernet + IPv4 (id @id) + UDP 1000 -> @dport with 8 bytes of data,
 * checksums right (@udp_csum false: UDP checksum 0) */
static void build(uint16_t dport, uint16_t id, uint16_t frag, bool udp_csum)
{
	uint8_t *ip = frame + 14, *u = ip + 20;
	uint32_t s;

	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00", 14);
	ip[0] = 0x45;
	ip[3] = 36;
	ip[4] = id >> 8;
	ip[5] = id & 0xff;
	ip[6] = frag >> 8;
	ip[7] = frag & 0xff;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	s = 0xffff - sum16(ip, 20, 0);
	ip[10] = s >> 8;
	ip[11] = s & 0xff;
	u[0] = 1000 >> 8;
	u[1] = 1000 & 0xff;
	u[2] = dport >> 8;
	u[3] = dport & 0xff;
	u[5] = 16;
	memcpy(u + 8, "nfbpf!!!", 8);
	if (udp_csum) {
		s = 0xffff - (sum16(frame + 34, 16, sum16(ip + 12, 8, 17 + 16)));
		u[6] = s >> 8;
		u[7] = s & 0xff;
		cr_assert(l4_ok(frame));
	}
	flen = 14 + 36;
	cr_assert(ip_ok(frame));
}

static int run(void)
{
	int fd = offload_dev_prog(&net, if_nametoindex("lo"), false), ret;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = flen, .data_out = out,
		    .data_size_out = sizeof(out));

	cr_assert_geq(fd, 0, "no tc program on lo");
	ret = bpf_prog_test_run_opts(fd, &o);
	cr_assert_eq(ret, 0, "test run: %s", strerror(errno));
	olen = o.data_size_out;
	return (int)o.retval;
}

/* payload set @base/@off/@len from r8 (loaded with @v), checksum fixes */
static void set(struct tm_rb *rb, uint8_t base, uint32_t off, const void *v,
		uint32_t len, uint32_t csum_type, uint32_t csum_off,
		uint32_t flags)
{
	struct expr_payload *p;

	tm_imm(rb, 8, v, len);
	p = tm_add(rb, EXPR_PAYLOAD, sizeof(*p));
	p->is_set = true;
	p->base = base;
	p->offset = off;
	p->len = len;
	p->sreg = 8;
	p->csum_type = csum_type;
	p->csum_offset = csum_off;
	p->csum_flags = flags;
}

/* payload @base/@off/@len == @v */
static void match(struct tm_rb *rb, uint8_t base, uint32_t off, const void *v,
		  uint32_t len)
{
	tm_payload(rb, base, off, len, 4);
	tm_cmp(rb, 4, CMP_EQ, v, len);
}

/* packets the counter of @r counted */
static uint64_t packets(struct rule *r)
{
	uint64_t p = 0, b = 0;
	struct expr *e;

	rule_for_each_expr(e, r)
		if (e->type == EXPR_COUNTER) {
			struct expr_counter *ctr = expr_priv(e);

			cr_assert_eq(dataplane_counter_read(&net, ctr->slot, &p, &b), 0);
			return p;
		}
	cr_assert_fail("no counter");
	return 0;
}

Test(expr_payload_set, ttl_with_ip_header_checksum)
{
	struct tm_rb rb = { 0 };

	/* ip ttl set 9: nft writes ttl and protocol (2 bytes at 8) */
	set(&rb, PAYLOAD_NH, 8, "\x09\x11", 2, CSUM_INET, 10, 0);
	tm_rule(c, &rb);
	tm_commit_ok(&net);
	build(53, 0x1234, 0, true);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_eq(olen, flen);
	cr_assert_eq(out[14 + 8], 9);
	cr_assert(ip_ok(out), "IPv4 header checksum not fixed");
	cr_assert(l4_ok(out));
	/* nothing else changed */
	out[14 + 8] = 64;
	memcpy(out + 24, frame + 24, 2);
	cr_assert_arr_eq(out, frame, flen);
}

Test(expr_payload_set, udp_port_with_inet_checksum)
{
	struct tm_rb rb = { 0 };

	set(&rb, PAYLOAD_TH, 2, "\x12\x34", 2, CSUM_INET, 6, 0);
	tm_rule(c, &rb);
	tm_commit_ok(&net);
	build(53, 1, 0, true);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_eq(out[36], 0x12);
	cr_assert_eq(out[37], 0x34);
	cr_assert(l4_ok(out), "UDP checksum not fixed");
	cr_assert(ip_ok(out));
}

Test(expr_payload_set, address_fixes_pseudo_header_checksum)
{
	struct tm_rb rb = { 0 };

	/* ip saddr set 10.9.8.7: csum inet at 10, pseudo header flag */
	set(&rb, PAYLOAD_NH, 12, "\x0a\x09\x08\x07", 4, CSUM_INET, 10, PSEUDOHDR);
	tm_rule(c, &rb);
	tm_commit_ok(&net);
	build(53, 2, 0, true);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_arr_eq(out + 26, "\x0a\x09\x08\x07", 4);
	cr_assert(ip_ok(out));
	cr_assert(l4_ok(out), "UDP checksum not fixed for the pseudo header");
	/* a UDP datagram without a checksum keeps none */
	build(53, 2, 0, false);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_arr_eq(out + 26, "\x0a\x09\x08\x07", 4);
	cr_assert(ip_ok(out));
	cr_assert_eq(out[40], 0);
	cr_assert_eq(out[41], 0);
}

Test(expr_payload_set, checksum_zero_becomes_mangled_0)
{
	struct tm_rb rb = { 0 };
	uint32_t id;

	set(&rb, PAYLOAD_NH, 8, "\x09\x11", 2, CSUM_INET, 10, 0);
	tm_rule(c, &rb);
	tm_commit_ok(&net);
	/* an id for which the right checksum after the write is 0x0000:
	 * nft_csum_replace() writes 0xffff (CSUM_MANGLED_0) instead */
	for (id = 0; id < 0x10000; id++) {
		build(53, id, 0, true);
		frame[14 + 8] = 9;
		frame[24] = frame[25] = 0;
		if (sum16(frame + 14, 20, 0) == 0xffff)
			break;
	}
	cr_assert_lt(id, 0x10000);
	build(53, id, 0, true);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_eq(out[14 + 8], 9);
	cr_assert_eq(out[24], 0xff);
	cr_assert_eq(out[25], 0xff);
}

Test(expr_payload_set, later_expressions_and_rules_see_the_new_bytes)
{
	struct tm_rb rb = { 0 }, rb2 = { 0 };
	struct rule *same, *later;

	/* udp dport set 54 udp dport 54 ether saddr set X ether saddr X counter */
	set(&rb, PAYLOAD_TH, 2, "\x00\x36", 2, CSUM_INET, 6, 0);
	match(&rb, PAYLOAD_TH, 2, "\x00\x36", 2);
	set(&rb, PAYLOAD_LL, 6, "\x02\x77\x77\x77\x77\x77", 6, 0, 0, 0);
	match(&rb, PAYLOAD_LL, 6, "\x02\x77\x77\x77\x77\x77", 6);
	tm_counter(&rb);
	same = tm_rule(c, &rb);
	/* next rule: udp dport 54 counter drop */
	match(&rb2, PAYLOAD_TH, 2, "\x00\x36", 2);
	tm_counter(&rb2);
	tm_verdict(&rb2, NF_DROP, NULL);
	later = tm_rule(c, &rb2);
	tm_commit_ok(&net);
	build(53, 3, 0, true);
	cr_assert_eq(run(), TCX_DROP);
	cr_assert_eq(packets(same), 1);
	cr_assert_eq(packets(later), 1);
}

Test(expr_payload_set, later_fragment_breaks)
{
	struct tm_rb rb = { 0 }, rb2 = { 0 };
	struct rule *after;

	set(&rb, PAYLOAD_TH, 2, "\x00\x36", 2, CSUM_INET, 6, 0);
	tm_counter(&rb);
	after = tm_rule(c, &rb);
	tm_verdict(&rb2, NF_DROP, NULL);
	tm_rule(c, &rb2);
	tm_commit_ok(&net);
	build(53, 4, 100, true);
	cr_assert_eq(run(), TCX_DROP);
	cr_assert_eq(packets(after), 0);
	cr_assert_arr_eq(out, frame, flen);
}

static const char *check(uint8_t family, int hook, uint8_t base, uint32_t off,
			 uint32_t len, uint32_t csum_type)
{
	static struct dp_error err;
	struct table *tb = family == NETDEV ? t : tm_table(&net, "x", family);
	struct chain *ch = family == NETDEV ? c : tm_chain(tb, "x", hook, 0, NF_ACCEPT);
	struct tm_rb rb = { 0 };
	struct rule *r;
	int ret;

	memset(&err, 0, sizeof(err));
	set(&rb, base, off, "\0\0\0\0", len, csum_type, 0, 0);
	r = tm_rule_new(ch, &rb);
	ret = dataplane_rule_check(ch, r, &err);
	free(r->exprs);
	free(r);
	return ret ? err.msg : NULL;
}

Test(expr_payload_set, refused_where_it_cannot_run)
{
	cr_assert_null(check(NETDEV, 0, PAYLOAD_NH, 8, 2, CSUM_INET));
	cr_assert_str_eq(check(2, HOOK_IN, PAYLOAD_NH, 8, 2, CSUM_INET),
			 "payload set (mangling) in the ip family: netfilter hook programs see packets read-only (nfbpf mangles in netdev, bridge, arp, inet ingress chains)");
}

Test(expr_payload_set, refused_in_ip6_and_inet_but_ingress)
{
	cr_assert_str_eq(check(10, HOOK_PRE, PAYLOAD_NH, 8, 2, 0),
			 "payload set (mangling) in the ip6 family: netfilter hook programs see packets read-only (nfbpf mangles in netdev, bridge, arp, inet ingress chains)");
	cr_assert_str_eq(check(1, HOOK_FWD, PAYLOAD_NH, 8, 2, 0),
			 "payload set (mangling) in an inet non-ingress chain: netfilter hook programs see packets read-only (nfbpf mangles in netdev, bridge, arp, inet ingress chains)");
}

Test(expr_payload_set, inet_ingress_runs_it)
{
	cr_assert_null(check(1, 5 /* NF_INET_INGRESS */, PAYLOAD_TH, 2, 2, CSUM_INET));
}

Test(expr_payload_set, refused_sctp_vlan_and_inner)
{
	cr_assert_str_eq(check(NETDEV, 0, PAYLOAD_TH, 8, 4, 2),
			 "payload set with the SCTP checksum (crc32c over the packet) is not supported by the nfbpf dataplane yet");
	cr_assert_str_eq(check(NETDEV, 0, PAYLOAD_LL, 12, 2, 0),
			 "payload set of link layer bytes 12-15 (the ethertype, or a VLAN tag the stack holds outside the frame) is not supported by the nfbpf dataplane yet");
	cr_assert_str_eq(check(NETDEV, 0, PAYLOAD_INNER, 0, 2, 0),
			 "payload set at base 3 is not supported by the nfbpf dataplane yet");
	/* the destination address and beyond the tag are fine */
	cr_assert_null(check(NETDEV, 0, PAYLOAD_LL, 0, 4, 0));
	cr_assert_null(check(NETDEV, 0, PAYLOAD_LL, 16, 2, 0));
}

Test(expr_payload_set, netfilter_walker_loads_beside_it)
{
	struct tm_rb rb = { 0 }, rb2 = { 0 };
	struct table *ip = tm_table(&net, "f", 2);
	struct chain *in = tm_chain(ip, "in", HOOK_IN, 0, NF_ACCEPT);

	/* the netfilter walker holds every shape: the set's code there
	 * (never run) must leave what follows it reachable */
	set(&rb, PAYLOAD_NH, 8, "\x09\x11", 2, CSUM_INET, 10, 0);
	tm_counter(&rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	tm_rule(c, &rb);
	tm_counter(&rb2);
	tm_rule(in, &rb2);
	tm_commit_ok(&net);
	build(53, 5, 0, true);
	cr_assert_eq(run(), TCX_NEXT);
	cr_assert_eq(out[14 + 8], 9);
}
