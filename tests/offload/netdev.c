// SPDX-License-Identifier: GPL-2.0-only
/*
 * netdev.c - tc walkers (netdev ingress/egress chains, inet ingress
 * chains) through BPF_PROG_TEST_RUN: the program behind the tcx link of
 * "lo" in a scratch namespace, on Ethernet frames (test runs hand tc
 * programs the frame with skb->data at the mac header and the network
 * header after it, as tc sees a packet).
 */
#include "tests/codegen/model.h"

#include <net/if.h>
#include <arpa/inet.h>

#define NETDEV		5
#define INET		1
#define HOOK_INGRESS	0
#define HOOK_EGRESS	1
#define INET_INGRESS	5
#define TCX_NEXT	(-1)
#define TCX_DROP	2

static struct net net;
static struct table *t;
static uint8_t frame[256];
static uint32_t flen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	t = tm_table(&net, "t", NETDEV);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(netdev, .init = setup, .fini = teardown);

/* a base chain on "lo" */
static struct chain *dev_chain(struct table *tb, const char *name, int hook,
			       int32_t prio, uint32_t policy)
{
	struct chain *c = tm_chain(tb, name, hook, prio, policy);

	c->base->devs = calloc(1, sizeof(char *));
	c->base->devs[0] = strdup("lo");
	c->base->ndevs = 1;
	return c;
}

/* Ethernet + the IPv4/UDP packet of tm_ip4(); @ethertype in host order */
static void build_frame(uint16_t ethertype, uint8_t proto, uint16_t dport)
{
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	frame[12] = ethertype >> 8;
	frame[13] = ethertype & 0xff;
	flen = 14 + tm_ip4(frame + 14, proto, 1000, dport, 0);
}

static int run_dev(bool egress)
{
	int fd = offload_dev_prog(&net, if_nametoindex("lo"), egress), ret;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = flen);

	cr_assert_geq(fd, 0, "no tc program on lo");
	ret = bpf_prog_test_run_opts(fd, &o);
	cr_assert_eq(ret, 0, "test run: %s", strerror(errno));
	return (int)o.retval;
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
	uint64_t p = 0, b = 0;

	cr_assert_eq(dataplane_counter_read(&net, counter_of(r)->slot, &p, &b), 0);
	return p;
}

/* ether type ip ip protocol udp udp dport @port counter @verdict */
static struct rule *udp_rule(struct chain *c, uint16_t port, int verdict)
{
	uint8_t et[2] = { 0x08, 0x00 }, udp = 17, p[2] = { port >> 8, port & 0xff };
	struct tm_rb rb = { 0 };

	tm_payload(&rb, PAYLOAD_LL, 12, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, et, 2);
	tm_payload(&rb, PAYLOAD_NH, 9, 1, 4);
	tm_cmp(&rb, 4, CMP_EQ, &udp, 1);
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, p, 2);
	tm_counter(&rb);
	tm_verdict(&rb, verdict, NULL);
	return tm_rule(c, &rb);
}

Test(netdev, ingress_payload_bases_and_verdicts)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	struct rule *r53 = udp_rule(c, 53, NF_DROP), *r54 = udp_rule(c, 54, NF_ACCEPT);

	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(false), TCX_DROP);
	build_frame(0x0800, 17, 54);
	cr_assert_eq(run_dev(false), TCX_NEXT);
	build_frame(0x0800, 17, 55);
	cr_assert_eq(run_dev(false), TCX_NEXT);
	cr_assert_eq(packets(r53), 1);
	cr_assert_eq(packets(r54), 1);
	/* no egress program for an ingress chain */
	cr_assert_eq(offload_dev_prog(&net, if_nametoindex("lo"), true), -ENOENT);
}

Test(netdev, egress_payload_bases_and_meta)
{
	struct chain *c = dev_chain(t, "eg", HOOK_EGRESS, 0, NF_ACCEPT);
	struct rule *r = udp_rule(c, 53, NF_DROP), *len;
	uint32_t want;
	struct tm_rb rb = { 0 };

	/* meta length == the whole frame at egress (skb->len from the mac
	 * header), oifname "lo" */
	build_frame(0x0800, 17, 99);
	want = flen;
	tm_meta(&rb, 0 /* len */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, &want, 4);
	tm_meta(&rb, 7 /* oifname */, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, "lo\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	tm_counter(&rb);
	len = tm_rule(c, &rb);
	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(true), TCX_DROP);
	cr_assert_eq(packets(r), 1);
	build_frame(0x0800, 17, 99);
	cr_assert_eq(run_dev(true), TCX_NEXT);
	cr_assert_eq(packets(len), 1, "meta length at egress counts the mac header");
}

Test(netdev, policy_drop_and_priority_order)
{
	struct chain *a = dev_chain(t, "a", HOOK_INGRESS, 10, NF_DROP);
	struct chain *b = dev_chain(t, "b", HOOK_INGRESS, -10, NF_ACCEPT);
	struct rule *ra, *rb_;
	struct tm_rb rb = { 0 };

	tm_counter(&rb);
	ra = tm_rule(a, &rb);
	memset(&rb, 0, sizeof(rb));
	tm_counter(&rb);
	rb_ = tm_rule(b, &rb);
	tm_commit_ok(&net);
	build_frame(0x0806, 17, 1);	/* not IP: netdev chains see it too */
	cr_assert_eq(run_dev(false), TCX_DROP);
	cr_assert_eq(packets(ra), 1);
	cr_assert_eq(packets(rb_), 1);
	/* b (priority -10) drops first: a never sees the packet */
	udp_rule(b, 53, NF_DROP);
	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(false), TCX_DROP);
	cr_assert_eq(packets(ra), 1);
}

Test(netdev, inet_ingress_sees_ip_only_and_drops_bad_headers)
{
	struct table *it = tm_table(&net, "i", INET);
	struct chain *c = dev_chain(it, "ing", INET_INGRESS, 0, NF_DROP);
	struct rule *r;
	struct tm_rb rb = { 0 };

	tm_meta(&rb, 15 /* nfproto */, 4, 1);
	tm_cmp(&rb, 4, CMP_EQ, "\x02", 1);
	tm_counter(&rb);
	tm_verdict(&rb, NF_ACCEPT, NULL);
	r = tm_rule(c, &rb);
	tm_commit_ok(&net);
	build_frame(0x0806, 17, 1);	/* ARP: not for inet */
	cr_assert_eq(run_dev(false), TCX_NEXT);
	build_frame(0x0800, 17, 1);
	cr_assert_eq(run_dev(false), TCX_NEXT);
	cr_assert_eq(packets(r), 1);
	frame[14] = 0x44;		/* ihl 4: invalid, dropped */
	cr_assert_eq(run_dev(false), TCX_DROP);
	cr_assert_eq(packets(r), 1);
}

Test(netdev, dormant_and_deleted_chains_detach)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_DROP);
	struct dp_error err;

	tm_commit_ok(&net);
	build_frame(0x0800, 17, 1);
	cr_assert_eq(run_dev(false), TCX_DROP);
	t->flags |= 1;	/* dormant */
	cr_assert_eq(tm_commit(&net, &err), 0);
	cr_assert_eq(offload_dev_prog(&net, if_nametoindex("lo"), false), -ENOENT);
	t->flags &= ~1;
	tm_commit_ok(&net);
	cr_assert_eq(run_dev(false), TCX_DROP);
	c->genmask |= genmask_next(&net);	/* deleted in the next generation */
	tm_commit_ok(&net);
	cr_assert_eq(offload_dev_prog(&net, if_nametoindex("lo"), false), -ENOENT);
}

Test(netdev, missing_device_attaches_nothing)
{
	struct chain *c = tm_chain(t, "ing", HOOK_INGRESS, 0, NF_DROP);

	c->base->devs = calloc(1, sizeof(char *));
	c->base->devs[0] = strdup("nosuchdev");
	c->base->ndevs = 1;
	tm_commit_ok(&net);
	cr_assert_eq(offload_dev_prog(&net, if_nametoindex("lo"), false), -ENOENT);
}

/* rules are data on tc walkers too: a rule of a known shape, in a chain
 * on a device, loads no program; a device added to the chain does */
Test(netdev, known_shape_loads_no_program)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	struct dp_stats before, after;
	struct tm_rb rb = { 0 };
	char **devs;

	udp_rule(c, 53, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &before);
	udp_rule(c, 54, NF_DROP);
	tm_commit_ok(&net);
	dataplane_stats(&net, &after);
	cr_assert_eq(after.progs_loaded, before.progs_loaded);
	build_frame(0x0800, 17, 54);
	cr_assert_eq(run_dev(false), TCX_DROP);
	/* a second device: a trampoline for it (the tc walker is shared) */
	cr_assert_eq(system("ip link add ndv0 type veth peer name ndv1"), 0);
	devs = realloc(c->base->devs, 2 * sizeof(char *));
	devs[1] = strdup("ndv0");
	c->base->devs = devs;
	c->base->ndevs = 2;
	tm_commit_ok(&net);
	dataplane_stats(&net, &before);
	cr_assert_eq(before.progs_loaded, after.progs_loaded + 1);
	cr_assert_geq(offload_dev_prog(&net, if_nametoindex("ndv0"), false), 0);
	cr_assert_eq(run_dev(false), TCX_DROP);
	/* a new shape: one walker shared by both devices (the same chains),
	 * one program loaded */
	memset(&rb, 0, sizeof(rb));
	tm_meta(&rb, 3 /* mark */, 4, 4);
	tm_cmp(&rb, 4, CMP_EQ, "\x07\x00\x00\x00", 4);
	tm_verdict(&rb, NF_DROP, NULL);
	tm_rule(c, &rb);
	tm_commit_ok(&net);
	dataplane_stats(&net, &after);
	cr_assert_eq(after.progs_loaded, before.progs_loaded + 1);
	cr_assert_eq(run_dev(false), TCX_DROP);
}

#include "expr/fwd.h"
#include "expr/dup.h"

/* regs[8] = ifindex of "lo" (as nft puts a device name in a register) */
static void dev_imm(struct tm_rb *rb)
{
	uint32_t lo = if_nametoindex("lo");

	tm_imm(rb, 8, &lo, 4);
}

Test(netdev, fwd_redirects_and_stops_dup_goes_on)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	struct rule *dup, *after, *fwd, *never;
	struct expr_dup *d;
	struct expr_fwd *f;
	struct tm_rb rb = { 0 };

	/* dup to "lo": the packet goes on to the next rule */
	dev_imm(&rb);
	d = tm_add(&rb, EXPR_DUP, sizeof(*d));
	d->sreg_dev = 8;
	tm_counter(&rb);
	dup = tm_rule(c, &rb);
	memset(&rb, 0, sizeof(rb));
	tm_counter(&rb);
	after = tm_rule(c, &rb);
	/* udp dport 53 counter fwd to "lo"; nothing after it sees the packet */
	memset(&rb, 0, sizeof(rb));
	tm_payload(&rb, PAYLOAD_TH, 2, 2, 4);
	tm_cmp(&rb, 4, CMP_EQ, "\x00\x35", 2);
	tm_counter(&rb);
	dev_imm(&rb);
	f = tm_add(&rb, EXPR_FWD, sizeof(*f));
	f->sreg_dev = 8;
	fwd = tm_rule(c, &rb);
	memset(&rb, 0, sizeof(rb));
	tm_counter(&rb);
	never = tm_rule(c, &rb);
	tm_commit_ok(&net);
	build_frame(0x0800, 17, 54);
	cr_assert_eq(run_dev(false), TCX_NEXT);
	cr_assert_eq(packets(dup), 1);
	cr_assert_eq(packets(after), 1);
	cr_assert_eq(packets(never), 1);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(false), 7 /* TCX_REDIRECT */);
	cr_assert_eq(packets(fwd), 1);
	cr_assert_eq(packets(never), 1, "fwd ends the chain (NF_STOLEN)");
}

/* a device named before it exists is attached when it appears (link
 * events), detached when it goes, with no commit in between */
Test(netdev, devices_that_appear_and_go_later)
{
	struct chain *c = tm_chain(t, "ing", HOOK_INGRESS, 0, NF_DROP);
	uint32_t gone;

	c->base->devs = calloc(1, sizeof(char *));
	c->base->devs[0] = strdup("ndv5");
	c->base->ndevs = 1;
	tm_commit_ok(&net);
	cr_assert_eq(dataplane_link_poll() >= 0, true);
	cr_assert_eq(system("ip link add ndv5 type veth peer name ndv6"), 0);
	cr_assert_geq(dataplane_link_poll(), 1);
	cr_assert_geq(offload_dev_prog(&net, if_nametoindex("ndv5"), false), 0);
	cr_assert_eq(offload_dev_prog(&net, if_nametoindex("ndv6"), false), -ENOENT);
	gone = if_nametoindex("ndv5");
	cr_assert_eq(system("ip link del ndv5"), 0);
	cr_assert_geq(dataplane_link_poll(), 1);
	cr_assert_eq(offload_dev_prog(&net, gone, false), -ENOENT);
	cr_assert_eq(system("ip link add ndv5 type veth peer name ndv6"), 0);
	cr_assert_geq(dataplane_link_poll(), 1);
	build_frame(0x0800, 17, 1);
	{
		int fd = offload_dev_prog(&net, if_nametoindex("ndv5"), false);
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
			    .data_size_in = flen);

		cr_assert_geq(fd, 0, "attached again to the new ndv5");
		cr_assert_eq(bpf_prog_test_run_opts(fd, &o), 0);
		cr_assert_eq((int)o.retval, TCX_DROP);
	}
}

/* ---- fwd ip/ip6 to an address, meta set pkttype ---- */

/* as run_dev(false), the frame after the program in @out */
static int run_dev_out(uint8_t *out)
{
	int fd = offload_dev_prog(&net, if_nametoindex("lo"), false), ret;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
		    .data_size_in = flen, .data_out = out,
		    .data_size_out = sizeof(frame));

	cr_assert_geq(fd, 0, "no tc program on lo");
	ret = bpf_prog_test_run_opts(fd, &o);
	cr_assert_eq(ret, 0, "test run: %s", strerror(errno));
	cr_assert_eq(o.data_size_out, flen);
	return (int)o.retval;
}

/* the ones' complement sum of @n bytes, folded */
static uint16_t csum16(const uint8_t *b, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* frame[14..34): a valid IPv4 header checksum, TTL @ttl */
static void ip4_ttl(uint8_t ttl)
{
	uint16_t c;

	frame[14 + 8] = ttl;
	frame[14 + 10] = frame[14 + 11] = 0;
	c = (uint16_t)~csum16(frame + 14, 20);
	frame[14 + 10] = c >> 8;
	frame[14 + 11] = c & 0xff;
}

/* Ethernet + IPv6/UDP, hop limit @hl */
static void build_frame6(uint8_t hl)
{
	uint8_t *h = frame + 14;

	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x86\xdd", 14);
	h[0] = 0x60;
	h[5] = 16;		/* payload length: UDP + 8 */
	h[6] = 17;
	h[7] = hl;
	h[8] = 0xfd; h[23] = 1;	/* fd00::1 -> fd00::2 */
	h[24] = 0xfd; h[39] = 2;
	h[40] = 0x03; h[41] = 0xe8; h[42] = 0x00; h[43] = 0x35; h[45] = 16;
	flen = 14 + 40 + 16;
}

/* counter fwd ip[6] to @addr device "lo" (regs 8: device, 12..: address) */
static struct rule *fwd_neigh_rule(struct chain *c, bool v6, const void *addr)
{
	struct tm_rb rb = { 0 };
	struct expr_fwd *f;

	tm_counter(&rb);
	dev_imm(&rb);
	tm_imm(&rb, 12, addr, v6 ? 16 : 4);
	f = tm_add(&rb, EXPR_FWD, sizeof(*f));
	f->sreg_dev = 8;
	f->neigh = true;
	f->sreg_addr = 12;
	f->nfproto = v6 ? 10 : 2;
	return tm_rule(c, &rb);
}

static struct rule *count_rule(struct chain *c)
{
	struct tm_rb rb = { 0 };

	tm_counter(&rb);
	return tm_rule(c, &rb);
}

/* what the kernel's ip_decrease_ttl() leaves in the check field (raw) */
static uint16_t rfc1141(const uint8_t *check)
{
	uint16_t raw;
	uint32_t c;

	memcpy(&raw, check, 2);
	c = raw + (uint32_t)htons(0x0100);
	c += c >= 0xffff;
	return (uint16_t)c;
}

Test(netdev, fwd_ip_to_address_decrements_ttl_and_redirects)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	uint8_t nh[4] = { 10, 0, 0, 9 }, out[sizeof(frame)];
	static const uint8_t ttls[] = { 64, 2, 255, 0x80 };
	struct rule *fwd = fwd_neigh_rule(c, false, nh), *after = count_rule(c);
	uint16_t want, got;
	unsigned int i;

	tm_commit_ok(&net);
	for (i = 0; i < sizeof(ttls); i++) {
		build_frame(0x0800, 17, 53);
		ip4_ttl(ttls[i]);
		want = rfc1141(frame + 14 + 10);
		cr_assert_eq(run_dev_out(out), 7 /* TCX_REDIRECT */);
		cr_assert_eq(out[14 + 8], (uint8_t)(ttls[i] - 1), "ttl %u", ttls[i]);
		memcpy(&got, out + 14 + 10, 2);
		cr_assert_eq(got, want, "ttl %u: check %04x, ip_decrease_ttl() %04x",
			     ttls[i], got, want);
		cr_assert_eq(csum16(out + 14, 20), 0xffff, "ttl %u: checksum", ttls[i]);
		cr_assert_eq(memcmp(out + 14 + 12, frame + 14 + 12, flen - 26), 0);
		cr_assert_eq(memcmp(out, frame, 14), 0, "unicast mac left as it is");
	}
	cr_assert_eq(packets(fwd), sizeof(ttls));
	cr_assert_eq(packets(after), 0, "fwd ends the chain (NF_STOLEN)");
	/* TTL 1 and 0: dropped, the header as it was (6.18 stable) */
	for (i = 0; i < 2; i++) {
		build_frame(0x0800, 17, 53);
		ip4_ttl((uint8_t)i);
		cr_assert_eq(run_dev_out(out), TCX_DROP, "ttl %u", i);
		cr_assert_eq(memcmp(out, frame, flen), 0);
	}
	/* a checksum field the RFC 1141 arithmetic carries out of:
	 * ip_decrease_ttl()'s value, not a recomputed one */
	build_frame(0x0800, 17, 53);
	ip4_ttl(64);
	memcpy(frame + 14 + 10, "\xfe\xff", 2);	/* raw + htons(0x100) >= 0xffff */
	want = rfc1141(frame + 14 + 10);
	cr_assert_eq(run_dev_out(out), 7);
	memcpy(&got, out + 14 + 10, 2);
	cr_assert_eq(got, want, "check %04x, ip_decrease_ttl() %04x", got, want);
	/* a multicast destination mac (bpf_redirect_neigh() drops those):
	 * the group bit cleared, the rest as the kernel */
	build_frame(0x0800, 17, 53);
	memcpy(frame, "\x01\x00\x5e\x00\x00\x05", 6);
	ip4_ttl(64);
	cr_assert_eq(run_dev_out(out), 7);
	cr_assert_eq(out[0], 0x00);
	cr_assert_eq(memcmp(out + 1, frame + 1, 13), 0);
	cr_assert_eq(out[14 + 8], 63);
	/* an IPv6 packet: skb->protocol is not the form's, the rule breaks */
	build_frame6(64);
	cr_assert_eq(run_dev_out(out), TCX_NEXT);
	cr_assert_eq(memcmp(out, frame, flen), 0);
	cr_assert_eq(packets(after), 1);
}

Test(netdev, fwd_ip6_to_address_decrements_hop_limit)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	uint8_t nh[16] = { 0xfd, [15] = 9 }, out[sizeof(frame)];
	static const uint8_t hls[] = { 64, 2, 255 };
	struct rule *after;
	unsigned int i;

	fwd_neigh_rule(c, true, nh);
	after = count_rule(c);
	tm_commit_ok(&net);
	for (i = 0; i < sizeof(hls); i++) {
		build_frame6(hls[i]);
		cr_assert_eq(run_dev_out(out), 7 /* TCX_REDIRECT */);
		cr_assert_eq(out[14 + 7], (uint8_t)(hls[i] - 1), "hop limit %u", hls[i]);
		frame[14 + 7] = out[14 + 7];
		cr_assert_eq(memcmp(out, frame, flen), 0, "nothing else changes");
	}
	/* hop limit 1 and 0: dropped, nothing written */
	for (i = 0; i < 2; i++) {
		build_frame6((uint8_t)i);
		cr_assert_eq(run_dev_out(out), TCX_DROP, "hop limit %u", i);
		cr_assert_eq(memcmp(out, frame, flen), 0);
	}
	/* IPv4: breaks */
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev_out(out), TCX_NEXT);
	cr_assert_eq(memcmp(out, frame, flen), 0);
	cr_assert_eq(packets(after), 1);
}

Test(netdev, fwd_ip_to_address_at_egress)
{
	struct chain *c = dev_chain(t, "eg", HOOK_EGRESS, 0, NF_ACCEPT);
	uint8_t nh[4] = { 10, 0, 0, 9 }, out[sizeof(frame)];
	struct rule *fwd = fwd_neigh_rule(c, false, nh);
	int fd;

	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	ip4_ttl(9);
	fd = offload_dev_prog(&net, if_nametoindex("lo"), true);
	{
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
			    .data_size_in = flen, .data_out = out,
			    .data_size_out = sizeof(out));

		cr_assert_geq(fd, 0, "no egress program on lo");
		cr_assert_eq(bpf_prog_test_run_opts(fd, &o), 0);
		cr_assert_eq((int)o.retval, 7 /* TCX_REDIRECT */);
	}
	cr_assert_eq(out[14 + 8], 8);
	cr_assert_eq(csum16(out + 14, 20), 0xffff);
	cr_assert_eq(packets(fwd), 1);
}

#include "expr/meta.h"
#define META_PKTTYPE	19

/* regs[8] = @v (one byte); meta pkttype set regs[8] */
static void pkttype_set(struct tm_rb *rb, uint8_t v)
{
	struct expr_meta *m;

	tm_imm(rb, 8, &v, 1);
	m = tm_add(rb, EXPR_META, sizeof(*m));
	m->key = META_PKTTYPE;
	m->is_set = true;
	m->sreg = 8;
	m->family = NETDEV;
	m->len = 1;
}

/* meta pkttype @v counter drop */
static struct rule *pkttype_drop(struct chain *c, uint8_t v)
{
	struct tm_rb rb = { 0 };

	tm_meta(&rb, META_PKTTYPE, 8, 1);
	tm_cmp(&rb, 8, CMP_EQ, &v, 1);
	tm_counter(&rb);
	tm_verdict(&rb, NF_DROP, NULL);
	return tm_rule(c, &rb);
}

Test(netdev, meta_set_pkttype_changes_what_later_rules_read)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	struct rule *host, *other, *bad;
	struct tm_rb rb = { 0 };

	/* the test run's frame is to 02:00:00:00:00:01, not lo's address:
	 * PACKET_OTHERHOST (3). meta pkttype set 7 (not a type
	 * skb_pkt_type_ok() allows: nothing), then set 0 (host) */
	pkttype_set(&rb, 7);
	tm_rule(c, &rb);
	memset(&rb, 0, sizeof(rb));
	bad = pkttype_drop(c, 7);
	memset(&rb, 0, sizeof(rb));
	pkttype_set(&rb, 0);
	tm_rule(c, &rb);
	other = pkttype_drop(c, 3);
	host = pkttype_drop(c, 0);
	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(false), TCX_DROP);
	cr_assert_eq(packets(bad), 0);
	cr_assert_eq(packets(other), 0);
	cr_assert_eq(packets(host), 1);
}

Test(netdev, meta_set_pkttype_keeps_otherhost_without_set)
{
	struct chain *c = dev_chain(t, "ing", HOOK_INGRESS, 0, NF_ACCEPT);
	struct rule *other = pkttype_drop(c, 3);

	tm_commit_ok(&net);
	build_frame(0x0800, 17, 53);
	cr_assert_eq(run_dev(false), TCX_DROP, "the frame is PACKET_OTHERHOST to begin with");
	cr_assert_eq(packets(other), 1);
}
