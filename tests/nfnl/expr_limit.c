// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_limit.c - NFTA_LIMIT_* through the policy and nft_limit's
 * select_ops/init checks, with the kernel's errors (the overflow checks
 * of nft_limit_init are EOVERFLOW), and the dump byte for byte.
 */
#include <errno.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "expr/limit.h"

#define NSEC_PER_SEC	1000000000ull

static int parse(struct expr_limit *l)
{
	return ta_parse(EXPR_LIMIT, l, sizeof(*l));
}

static void rate_unit(uint64_t rate, uint64_t unit)
{
	ta_put64(NFTA_LIMIT_RATE, rate);
	ta_put64(NFTA_LIMIT_UNIT, unit);
}

Test(nfnl_limit, packets_default_burst_and_bucket)
{
	struct expr_limit l;

	rate_unit(10, 1);
	cr_assert_eq(parse(&l), 0);
	cr_assert_eq(l.burst, 5, "NFT_LIMIT_PKT_BURST_DEFAULT");
	cr_assert_not(l.bytes);
	cr_assert_not(l.invert);
	cr_assert_eq(l.cost, NSEC_PER_SEC / 10);
	cr_assert_eq(l.tokens_max, 5 * (NSEC_PER_SEC / 10));
}

Test(nfnl_limit, bytes_keep_burst_zero_and_bucket_is_rate_plus_burst)
{
	struct expr_limit l;

	rate_unit(1000, 60);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	ta_put32(NFTA_LIMIT_FLAGS, NFT_LIMIT_F_INV);
	cr_assert_eq(parse(&l), 0);
	cr_assert(l.bytes);
	cr_assert(l.invert);
	cr_assert_eq(l.burst, 0);
	cr_assert_eq(l.tokens_max, 60 * NSEC_PER_SEC);
	rate_unit(1000, 60);
	ta_put32(NFTA_LIMIT_BURST, 500);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), 0);
	cr_assert_eq(l.tokens_max, 60 * NSEC_PER_SEC * 1500 / 1000);
}

Test(nfnl_limit, missing_or_zero_is_einval)
{
	struct expr_limit l;

	cr_assert_eq(parse(&l), -EINVAL);
	ta_put64(NFTA_LIMIT_RATE, 1);
	cr_assert_eq(parse(&l), -EINVAL, "no unit");
	ta_put64(NFTA_LIMIT_UNIT, 1);
	cr_assert_eq(parse(&l), -EINVAL, "no rate");
	rate_unit(0, 1);
	cr_assert_eq(parse(&l), -EINVAL, "rate 0");
}

Test(nfnl_limit, unknown_type_is_eopnotsupp_before_anything_else)
{
	struct expr_limit l;

	ta_put32(NFTA_LIMIT_TYPE, 2);
	cr_assert_eq(parse(&l), -EOPNOTSUPP, "select_ops runs before init");
	rate_unit(1, 1);
	ta_put32(NFTA_LIMIT_FLAGS, 2);
	cr_assert_eq(parse(&l), -EOPNOTSUPP, "unknown flag");
}

Test(nfnl_limit, overflows_are_eoverflow)
{
	struct expr_limit l;

	/* unit * NSEC_PER_SEC */
	rate_unit(1, UINT64_MAX / NSEC_PER_SEC + 1);
	cr_assert_eq(parse(&l), -EOVERFLOW);
	rate_unit(1, UINT64_MAX / NSEC_PER_SEC);
	ta_put32(NFTA_LIMIT_BURST, 1);
	cr_assert_eq(parse(&l), 0, "the largest unit");
	/* rate + burst */
	rate_unit(UINT64_MAX, 1);
	cr_assert_eq(parse(&l), -EOVERFLOW, "with the default burst of 5");
	rate_unit(UINT64_MAX - 5, 1);
	cr_assert_eq(parse(&l), 0, "rate + 5 just fits");
	cr_assert_eq(l.tokens_max, 0, "less than a nanosecond per packet");
	/* packets: nsecs / rate * burst */
	rate_unit(1, 604800);
	ta_put32(NFTA_LIMIT_BURST, 100000000);
	cr_assert_eq(parse(&l), -EOVERFLOW, "1/week burst 100000000 packets");
	/* bytes: nsecs * (rate + burst) */
	rate_unit(1048576, 86400);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), -EOVERFLOW, "1 mbytes/day");
	rate_unit(1024, 86400);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), 0, "1 kbytes/day");
}

Test(nfnl_limit, wrong_attribute_size_is_refused_by_the_policy)
{
	struct expr_limit l;

	ta_put32(NFTA_LIMIT_RATE, 1);
	ta_put64(NFTA_LIMIT_UNIT, 1);
	cr_assert_lt(parse(&l), 0);
}

Test(nfnl_limit, dump_as_the_kernel)
{
	struct expr_limit l;

	rate_unit(5, 1);
	ta_put32(NFTA_LIMIT_BURST, 10);
	cr_assert_eq(parse(&l), 0);
	/* rate, unit in seconds, burst, type, flags */
	rate_unit(5, 1);
	ta_put32(NFTA_LIMIT_BURST, 10);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKTS);
	ta_put32(NFTA_LIMIT_FLAGS, 0);
	ta_dump_is(EXPR_LIMIT, &l);
	rate_unit(1, 60);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	ta_put32(NFTA_LIMIT_FLAGS, NFT_LIMIT_F_INV);
	cr_assert_eq(parse(&l), 0);
	rate_unit(1, 60);
	ta_put32(NFTA_LIMIT_BURST, 0);
	ta_put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	ta_put32(NFTA_LIMIT_FLAGS, NFT_LIMIT_F_INV);
	ta_dump_is(EXPR_LIMIT, &l);
}
