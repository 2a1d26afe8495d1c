// SPDX-License-Identifier: GPL-2.0-only
/*
 * saddr6.c - offload_saddr6_select(), the kernel's IPv6 source address
 * choice for ICMPv6 errors about forwarded packets. The addresses are
 * the dataplane suite's fw (tests/dataplane/dpcheck.py): a0 (ifindex 2)
 * has fd01::1/64 and fd01::3/64 (dumped newest first, as the kernel
 * lists them), a1 (3) fd01:1::1/64, lo (1) ::1/128; each with its
 * link-local address. Expected answers are what the 6.18 kernel put in
 * its errors for the same topology (kernel side of the dataplane suite,
 * rulesets r08).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <criterion/criterion.h>

#include "offload/offload.h"

static struct saddr6_cand cands[8];
static size_t ncands;

static void cand(const char *a, uint32_t ifindex, uint8_t plen, uint32_t flags)
{
	cr_assert(ncands < 8);
	cr_assert_eq(inet_pton(AF_INET6, a, cands[ncands].addr), 1);
	cands[ncands].ifindex = ifindex;
	cands[ncands].plen = plen;
	cands[ncands].flags = flags;
	ncands++;
}

static void fw(void)
{
	ncands = 0;
	cand("::1", 1, 128, IFA_F_PERMANENT);
	cand("fd01::3", 2, 64, IFA_F_PERMANENT | IFA_F_NODAD);
	cand("fd01::1", 2, 64, IFA_F_PERMANENT | IFA_F_NODAD);
	cand("fe80::2", 2, 64, IFA_F_PERMANENT);
	cand("fd01:1::1", 3, 64, IFA_F_PERMANENT | IFA_F_NODAD);
	cand("fe80::3", 3, 64, IFA_F_PERMANENT);
}

static const char *pick(const char *daddr, uint32_t dev)
{
	static char buf[INET6_ADDRSTRLEN];
	uint8_t d[16], out[16];

	cr_assert_eq(inet_pton(AF_INET6, daddr, d), 1);
	if (offload_saddr6_select(cands, ncands, NULL, 0, d, dev, out))
		return "none";
	return inet_ntop(AF_INET6, out, buf, sizeof(buf));
}

TestSuite(saddr6, .init = fw);

/* the input device's address wins over a longer match elsewhere */
Test(saddr6, input_device_first)
{
	cr_assert_str_eq(pick("fd08::c8:9", 3), "fd01:1::1");
	cr_assert_str_eq(pick("fd01::2", 3), "fd01:1::1");
}

/* on the device, ties go to the first listed; longest prefix decides */
Test(saddr6, longest_prefix_then_order)
{
	cr_assert_str_eq(pick("fd08::3:4", 2), "fd01::3");
	cr_assert_str_eq(pick("fd01:1::7", 2), "fd01::3");
	cr_assert_str_eq(pick("fd01:1::7", 0), "fd01:1::1");
	cr_assert_str_eq(pick("fd01::2", 0), "fd01::3");
}

/* link-local destinations: only the device's own, of link scope */
Test(saddr6, link_scope)
{
	cr_assert_str_eq(pick("fe80::99", 3), "fe80::3");
	cr_assert_str_eq(pick("fe80::99", 2), "fe80::2");
}

/* deprecated and tentative addresses lose or are no candidates */
Test(saddr6, deprecated_tentative)
{
	cands[5].flags = IFA_F_TENTATIVE;	/* fe80::3 */
	cands[4].flags = IFA_F_DEPRECATED;	/* fd01:1::1 */
	cr_assert_str_eq(pick("fd08::1", 3), "fd01::3");
	/* a global address of the device rather than none */
	cr_assert_str_eq(pick("fe80::99", 3), "fd01:1::1");
	cands[4].flags = IFA_F_TENTATIVE;
	cr_assert_str_eq(pick("fe80::99", 3), "none");
}

/* the label table: rule 6, after the device (rule 5), before prefixes */
Test(saddr6, labels)
{
	struct saddr6_label lb[3] = {
		{ .plen = 128, .label = 9 },
		{ .plen = 128, .label = 9 },
		{ .plen = 0, .label = 1 },
	};
	uint8_t d[16], out[16];
	char buf[INET6_ADDRSTRLEN];

	inet_pton(AF_INET6, "fd01:1::77", lb[0].prefix);
	inet_pton(AF_INET6, "fd01::3", lb[1].prefix);
	inet_pton(AF_INET6, "fd01:1::77", d);
	/* no device: the label beats the longer prefix */
	cr_assert_eq(offload_saddr6_select(cands, ncands, lb, 3, d, 0, out), 0);
	cr_assert_str_eq(inet_ntop(AF_INET6, out, buf, sizeof(buf)), "fd01::3");
	/* without the table, the prefix decides */
	cr_assert_eq(offload_saddr6_select(cands, ncands, NULL, 0, d, 0, out), 0);
	cr_assert_str_eq(inet_ntop(AF_INET6, out, buf, sizeof(buf)), "fd01:1::1");
	/* the device beats the label */
	cr_assert_eq(offload_saddr6_select(cands, ncands, lb, 3, d, 3, out), 0);
	cr_assert_str_eq(inet_ntop(AF_INET6, out, buf, sizeof(buf)), "fd01:1::1");
	cr_assert_eq(offload_saddr6_select(cands, ncands, lb, 3, d, 2, out), 0);
	cr_assert_str_eq(inet_ntop(AF_INET6, out, buf, sizeof(buf)), "fd01::3");
}

Test(saddr6, no_candidates)
{
	uint8_t d[16] = { 0 }, out[16];

	cr_assert_eq(offload_saddr6_select(cands, 0, NULL, 0, d, 0, out), -EADDRNOTAVAIL);
	inet_pton(AF_INET6, "fd08::1", d);
	cr_assert_eq(offload_saddr6_select(cands, 0, NULL, 0, d, 0, out), -EADDRNOTAVAIL);
}
