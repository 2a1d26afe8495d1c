// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_connlimit.c - NFTA_CONNLIMIT_* through the policy and
 * nft_connlimit_do_init()'s checks in its order, with the kernel's errors
 * (measured on 6.18 with nft: netdev, bridge and arp tables answer EPROTO
 * from nf_ct_netns_get()), and the dump byte for byte (the flags only when
 * inverted, as nft_connlimit_do_dump()).
 */
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "expr/connlimit.h"

static int parse(struct expr_connlimit *c, uint8_t family)
{
	return ta_parse_family(EXPR_CONNLIMIT, c, sizeof(*c), family);
}

Test(nfnl_connlimit, count_and_inverted_flag)
{
	struct expr_connlimit c;

	ta_put32(NFTA_CONNLIMIT_COUNT, 5);
	cr_assert_eq(parse(&c, NFPROTO_IPV4), 0);
	cr_assert_eq(c.limit, 5);
	cr_assert_not(c.invert);
	ta_put32(NFTA_CONNLIMIT_COUNT, 20);
	ta_put32(NFTA_CONNLIMIT_FLAGS, NFT_CONNLIMIT_F_INV);
	cr_assert_eq(parse(&c, NFPROTO_INET), 0);
	cr_assert_eq(c.limit, 20);
	cr_assert(c.invert, "ct count over 20");
	ta_put32(NFTA_CONNLIMIT_COUNT, 0);
	ta_put32(NFTA_CONNLIMIT_FLAGS, 0);
	cr_assert_eq(parse(&c, NFPROTO_IPV6), 0);
	cr_assert_eq(c.limit, 0);
	cr_assert_not(c.invert, "flags 0 is not inverted");
}

Test(nfnl_connlimit, missing_count_is_einval_before_flags)
{
	struct expr_connlimit c;

	cr_assert_eq(parse(&c, NFPROTO_IPV4), -EINVAL);
	ta_put32(NFTA_CONNLIMIT_FLAGS, 2);
	cr_assert_eq(parse(&c, NFPROTO_IPV4), -EINVAL, "count checked first");
}

Test(nfnl_connlimit, unknown_flags_are_eopnotsupp_before_the_family)
{
	struct expr_connlimit c;

	ta_put32(NFTA_CONNLIMIT_COUNT, 1);
	ta_put32(NFTA_CONNLIMIT_FLAGS, NFT_CONNLIMIT_F_INV | 2);
	cr_assert_eq(parse(&c, NFPROTO_IPV4), -EOPNOTSUPP);
	ta_put32(NFTA_CONNLIMIT_COUNT, 1);
	ta_put32(NFTA_CONNLIMIT_FLAGS, 2);
	cr_assert_eq(parse(&c, NFPROTO_NETDEV), -EOPNOTSUPP,
		     "flags before nf_ct_netns_get()");
}

Test(nfnl_connlimit, no_conntrack_outside_ip_ip6_inet_is_eproto)
{
	static const uint8_t fams[] = { NFPROTO_NETDEV, NFPROTO_BRIDGE,
					NFPROTO_ARP };
	struct expr_connlimit c;
	size_t i;

	for (i = 0; i < sizeof(fams); i++) {
		ta_put32(NFTA_CONNLIMIT_COUNT, 1);
		cr_assert_eq(parse(&c, fams[i]), -EPROTO, "family %u", fams[i]);
	}
}

/* NLA_U32 is checked for its minimum length only (liberal validation) */
Test(nfnl_connlimit, short_attribute_is_refused_by_the_policy)
{
	struct expr_connlimit c;

	ta_put16(NFTA_CONNLIMIT_COUNT, 1);
	cr_assert_lt(parse(&c, NFPROTO_IPV4), 0);
	ta_put64(NFTA_CONNLIMIT_COUNT, 1);
	cr_assert_eq(parse(&c, NFPROTO_IPV4), 0, "longer: its first 4 bytes");
	cr_assert_eq(c.limit, 0);
	ta_put32(NFTA_CONNLIMIT_COUNT, 1);
	ta_put16(NFTA_CONNLIMIT_FLAGS, 1);
	cr_assert_lt(parse(&c, NFPROTO_IPV4), 0);
}

Test(nfnl_connlimit, dump_as_the_kernel)
{
	struct expr_connlimit c;

	ta_put32(NFTA_CONNLIMIT_COUNT, 4);
	ta_put32(NFTA_CONNLIMIT_FLAGS, 0);
	cr_assert_eq(parse(&c, NFPROTO_IPV4), 0);
	/* no flags attribute when not inverted */
	ta_put32(NFTA_CONNLIMIT_COUNT, 4);
	ta_dump_is(EXPR_CONNLIMIT, &c);
	ta_put32(NFTA_CONNLIMIT_COUNT, 0xfffffffe);
	ta_put32(NFTA_CONNLIMIT_FLAGS, NFT_CONNLIMIT_F_INV);
	cr_assert_eq(parse(&c, NFPROTO_INET), 0);
	ta_put32(NFTA_CONNLIMIT_COUNT, 0xfffffffe);
	ta_put32(NFTA_CONNLIMIT_FLAGS, NFT_CONNLIMIT_F_INV);
	ta_dump_is(EXPR_CONNLIMIT, &c);
}
