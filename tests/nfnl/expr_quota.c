// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_quota.c - NFTA_QUOTA_* through the policy and nft_quota's init
 * checks with the kernel's errors, and its dump: consumed capped at the
 * quota, NFT_QUOTA_F_DEPLETED from there.
 */
#include <errno.h>
#include <linux/netfilter/nf_tables.h>

#include "tests/nfnl/attrs.h"
#include "expr/quota.h"

static int parse(struct expr_quota *q)
{
	return ta_parse(EXPR_QUOTA, q, sizeof(*q));
}

/* dump @q and compare with bytes, consumed, flags */
static void dump_is(const struct expr_quota *q, uint64_t bytes,
		    uint64_t consumed, uint32_t flags)
{
	ta_put64(NFTA_QUOTA_BYTES, bytes);
	ta_put64(NFTA_QUOTA_CONSUMED, consumed);
	ta_put32(NFTA_QUOTA_FLAGS, flags);
	ta_dump_is(EXPR_QUOTA, q);
}

Test(nfnl_quota, parse_bytes_consumed_and_over)
{
	struct expr_quota q;

	ta_put64(NFTA_QUOTA_BYTES, 1000);
	ta_put64(NFTA_QUOTA_CONSUMED, 1000);
	ta_put32(NFTA_QUOTA_FLAGS, NFT_QUOTA_F_INV);
	cr_assert_eq(parse(&q), 0);
	cr_assert_eq(q.quota, 1000);
	cr_assert_eq(q.consumed, 1000, "consumed may equal the quota");
	cr_assert(q.invert);
	ta_put64(NFTA_QUOTA_BYTES, INT64_MAX);
	cr_assert_eq(parse(&q), 0, "the largest quota");
	cr_assert_eq(q.consumed, 0);
	cr_assert_not(q.invert);
}

Test(nfnl_quota, errors_as_the_kernel)
{
	struct expr_quota q;

	cr_assert_eq(parse(&q), -EINVAL, "no bytes");
	ta_put64(NFTA_QUOTA_CONSUMED, 1);
	cr_assert_eq(parse(&q), -EINVAL, "consumed alone");
	ta_put64(NFTA_QUOTA_BYTES, (uint64_t)INT64_MAX + 1);
	cr_assert_eq(parse(&q), -EOVERFLOW);
	ta_put64(NFTA_QUOTA_BYTES, 10);
	ta_put64(NFTA_QUOTA_CONSUMED, 11);
	cr_assert_eq(parse(&q), -EINVAL, "consumed over the quota");
	ta_put64(NFTA_QUOTA_BYTES, 10);
	ta_put32(NFTA_QUOTA_FLAGS, NFT_QUOTA_F_DEPLETED);
	cr_assert_eq(parse(&q), -EINVAL, "depleted is not for userspace to set");
	ta_put64(NFTA_QUOTA_BYTES, 10);
	ta_put32(NFTA_QUOTA_FLAGS, 0x80);
	cr_assert_eq(parse(&q), -EINVAL);
}

Test(nfnl_quota, dump_caps_consumed_and_flags_depleted)
{
	struct expr_quota q = { .quota = 100, .consumed = 99 };

	dump_is(&q, 100, 99, 0);
	q.consumed = 100;
	dump_is(&q, 100, 100, NFT_QUOTA_F_DEPLETED);
	q.consumed = 5000;
	q.invert = true;
	dump_is(&q, 100, 100, NFT_QUOTA_F_INV | NFT_QUOTA_F_DEPLETED);
	q = (struct expr_quota){ 0 };
	dump_is(&q, 0, 0, NFT_QUOTA_F_DEPLETED);
}
