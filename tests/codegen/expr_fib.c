// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_fib.c - fib ... type in the BPF dataplane (BPF_PROG_TEST_RUN at
 * LOCAL_OUT in a scratch netns): the address types inet_dev_addr_type()
 * gives for the netns's routes (local, broadcast, multicast, unicast, the
 * zero net and the limited broadcast), the oif restriction, the merged
 * local+main tables, route changes after
 * the commit reaching the mirror through its events, the refusal of
 * fib ... type in ip6 tables and of route lookups where policy rules
 * exist (route lookups themselves: tests/e2e/expr_fib_route.sh,
 * expr_fib6_route.sh).
 */
#include <poll.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "tests/codegen/model.h"
#include "codegen/codegen.h"
#include "expr/fib.h"
#include "ruleset_api.h"

static struct net net;
static struct table *t;
static struct chain *base;
static uint8_t pkt[128];
static uint32_t plen;

static void setup(void)
{
	tm_net_init(&net, tm_scratch_netns());
	cr_assert_eq(system("ip link set lo up && ip addr add 10.0.0.1/8 dev lo && "
			    "ip link add v0 type veth peer name v1 && ip link set v0 up && "
			    "ip addr add 192.168.5.1/24 dev v0"), 0);
	t = tm_table(&net, "t", 2);
	base = tm_chain(t, "out", HOOK_OUT, 0, NF_ACCEPT);
	plen = tm_ip4(pkt, 17, 1000, 53, 0);
}

static void teardown(void)
{
	dataplane_net_free(&net);
}

TestSuite(expr_fib, .init = setup, .fini = teardown);

/* fib daddr [. oif] type @type drop */
static struct rule *rule_type(uint32_t flags, uint32_t type)
{
	struct tm_rb rb = { 0 };
	struct expr_fib *f = tm_add(&rb, EXPR_FIB, sizeof(*f));

	f->result = FIB_RESULT_ADDRTYPE;
	f->flags = flags;
	f->dreg = 4;
	f->family = 2;
	tm_cmp(&rb, 4, CMP_EQ, &type, 4);
	tm_verdict(&rb, NF_DROP, NULL);
	return tm_rule(base, &rb);
}

static int run_to(const char *daddr)
{
	cr_assert_eq(inet_pton(AF_INET, daddr, pkt + 16), 1);
	return tm_run(&net, base, 2, HOOK_OUT, pkt, plen);
}

/* the type the dataplane gives @daddr: which of the rules drops it */
static uint32_t type_of(uint32_t flags, const char *daddr)
{
	static const uint32_t types[] = { RTN_UNICAST, RTN_LOCAL,
					  RTN_BROADCAST, RTN_ANYCAST,
					  RTN_MULTICAST };
	uint32_t found = 0;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct rule *r = rule_type(flags, types[i]);

		tm_commit_ok(&net);
		if (run_to(daddr) == NF_DROP) {
			cr_assert_eq(found, 0, "%s: two types", daddr);
			found = types[i];
		}
		tm_rule_del(r);
		tm_commit_ok(&net);	/* frees r */
	}
	return found;
}

/* wait (bounded) for the route events of what was just changed, and let
 * the mirror follow them */
static void mirror_follow(void)
{
	struct pollfd pfd = { .fd = dataplane_routes_fd(), .events = POLLIN };

	cr_assert_eq(poll(&pfd, 1, 5000), 1, "no route event");
	cr_assert_geq(dataplane_routes_poll(), 1);
}

Test(expr_fib, address_types)
{
	static const struct { const char *a; uint32_t type; } c[] = {
		{ "10.0.0.1", RTN_LOCAL },
		{ "10.255.255.255", RTN_BROADCAST },
		{ "192.168.5.1", RTN_LOCAL },
		{ "192.168.5.255", RTN_BROADCAST },
		{ "192.168.5.7", RTN_UNICAST },
		{ "127.0.0.1", RTN_LOCAL },
		{ "127.3.2.1", RTN_LOCAL },	/* local 127.0.0.0/8 */
		{ "224.0.0.1", RTN_MULTICAST },
		{ "239.1.2.3", RTN_MULTICAST },
		{ "0.0.0.0", RTN_BROADCAST },
		{ "0.1.2.3", RTN_BROADCAST },	/* zero net */
		{ "255.255.255.255", RTN_BROADCAST },
		{ "198.51.100.1", RTN_UNICAST },	/* no route at all */
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		cr_assert_eq(type_of(FIB_F_DADDR, c[i].a), c[i].type,
			     "%s: type %u, want %u", c[i].a,
			     type_of(FIB_F_DADDR, c[i].a), c[i].type);
}

Test(expr_fib, saddr_is_the_source)
{
	/* from 192.168.5.1 (local) to 192.168.5.7 (unicast) */
	cr_assert_eq(inet_pton(AF_INET, "192.168.5.1", pkt + 12), 1);
	cr_assert_eq(type_of(FIB_F_SADDR, "192.168.5.7"), RTN_LOCAL);
	cr_assert_eq(type_of(FIB_F_DADDR, "192.168.5.7"), RTN_UNICAST);
	/* lo's prefix routes are local: 10.0.0.2 is local too */
	cr_assert_eq(type_of(FIB_F_DADDR, "10.0.0.2"), RTN_LOCAL);
}

Test(expr_fib, oif_restricts_to_the_route_device)
{
	/* the test run's output device is lo: routes via v0 count unicast */
	cr_assert_eq(type_of(FIB_F_DADDR | FIB_F_OIF, "10.0.0.1"), RTN_LOCAL);
	cr_assert_eq(type_of(FIB_F_DADDR | FIB_F_OIF, "192.168.5.1"), RTN_UNICAST);
	cr_assert_eq(type_of(FIB_F_DADDR | FIB_F_OIF, "192.168.5.255"), RTN_UNICAST);
	cr_assert_eq(type_of(FIB_F_DADDR | FIB_F_OIF, "224.0.0.1"), RTN_MULTICAST);
}

Test(expr_fib, follows_route_changes_after_the_commit)
{
	struct rule *r = rule_type(FIB_F_DADDR, RTN_LOCAL);

	tm_commit_ok(&net);
	cr_assert_eq(run_to("198.51.100.7"), NF_ACCEPT);
	cr_assert_eq(system("ip addr add 198.51.100.7/32 dev lo"), 0);
	mirror_follow();
	cr_assert_eq(run_to("198.51.100.7"), NF_DROP);
	cr_assert_eq(system("ip addr del 198.51.100.7/32 dev lo"), 0);
	mirror_follow();
	cr_assert_eq(run_to("198.51.100.7"), NF_ACCEPT);
	tm_rule_del(r);
	rule_type(FIB_F_DADDR, RTN_BROADCAST);
	tm_commit_ok(&net);
	/* a device going down loses its broadcast routes (its local ones
	 * stay), flushed with no route event of their own */
	cr_assert_eq(run_to("192.168.5.255"), NF_DROP);
	cr_assert_eq(system("ip link set v0 down"), 0);
	mirror_follow();
	cr_assert_eq(run_to("192.168.5.255"), NF_ACCEPT);
}

Test(expr_fib, merged_tables)
{
	/* main's 127.0.0.9/32 is longer than local's 127.0.0.0/8 while the
	 * tables are merged (no policy rule yet). After a policy rule the
	 * program reads the local table alone; a test run's hook state has
	 * no netns to read fib_has_custom_rules from, so that half is in
	 * tests/e2e/expr_fib.sh, with real packets. */
	tm_commit_ok(&net);	/* the dataplane, and its mirror, exist */
	cr_assert_eq(system("ip route add 127.0.0.9/32 dev lo"), 0);
	mirror_follow();
	cr_assert_eq(type_of(FIB_F_DADDR, "127.0.0.9"), RTN_UNICAST);
	cr_assert_eq(type_of(FIB_F_DADDR, "127.0.0.8"), RTN_LOCAL);
}

Test(expr_fib, ip6_type_is_served_netdev_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_fib *f;
	struct rule *r;

	/* a route lookup in ip tables is served */
	f = tm_add(&rb, EXPR_FIB, sizeof(*f));
	f->result = FIB_RESULT_OIF;
	f->flags = FIB_F_SADDR | FIB_F_IIF;
	f->dreg = 4;
	f->family = 2;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), 0);
	ruleset_rule_free(r);

	f = tm_add(&rb, EXPR_FIB, sizeof(*f));
	f->result = FIB_RESULT_ADDRTYPE;
	f->flags = FIB_F_DADDR;
	f->dreg = 4;
	f->family = 10;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), 0);
	ruleset_rule_free(r);

	/* netdev tables: refused (nft_fib_netdev is not served) */
	f = tm_add(&rb, EXPR_FIB, sizeof(*f));
	f->result = FIB_RESULT_ADDRTYPE;
	f->flags = FIB_F_DADDR;
	f->dreg = 4;
	f->family = 5;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "fib is supported by the nfbpf dataplane in ip, ip6 and inet tables only");
	ruleset_rule_free(r);
}

Test(expr_fib, route_lookups_with_policy_rules_are_refused)
{
	struct tm_rb rb = { 0 };
	struct dp_error err = { 0 };
	struct expr_fib *f;
	struct rule *r;

	f = tm_add(&rb, EXPR_FIB, sizeof(*f));
	f->result = FIB_RESULT_OIF;
	f->flags = FIB_F_SADDR | FIB_F_IIF | FIB_F_PRESENT;
	f->dreg = 4;
	f->family = 2;
	r = tm_rule_new(base, &rb);
	cr_assert_eq(dataplane_rule_check(base, r, &err), 0);
	/* an IPv6 rule does not matter to an ip table */
	cr_assert_eq(system("ip -6 rule add from fd00::/8 table 100"), 0);
	cr_assert_eq(dataplane_rule_check(base, r, &err), 0);
	cr_assert_eq(system("ip rule add fwmark 7 table 100"), 0);
	cr_assert_eq(dataplane_rule_check(base, r, &err), -EOPNOTSUPP);
	cr_assert_str_eq(err.msg, "fib route lookups: this namespace has IPv4 policy routing rules other than the default ones, which the nfbpf route mirror does not model");
	cr_assert_eq(system("ip rule del fwmark 7 table 100"), 0);
	cr_assert_eq(dataplane_rule_check(base, r, &err), 0);
	ruleset_rule_free(r);
}
