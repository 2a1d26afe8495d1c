// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_limit.c - NFTA_LIMIT_* through the policy and nft_limit's
 * select_ops/init checks, with the kernel's errors (the overflow checks
 * of nft_limit_init are EOVERFLOW), and the dump byte for byte.
 */
#include <errno.h>
#include <endian.h>
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>
#include <linux/netfilter/nf_tables.h>

#include "nfnl_expr.h"
#include "expr/limit.h"

#define NSEC_PER_SEC	1000000000ull

/* the daemon's multicast hooks: no listeners here */
void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude,
		    const void *data, size_t len)
{
	(void)net; (void)group; (void)exclude; (void)data; (void)len;
}

bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	(void)net; (void)group;
	return false;
}

static uint8_t buf[256] __attribute__((aligned(4)));
static size_t len;

static void put(uint16_t type, const void *v, uint16_t n)
{
	struct nlattr *a = (struct nlattr *)(buf + len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + n;
	memcpy(a + 1, v, n);
	len += NLA_ALIGN(a->nla_len);
}

static void put64(uint16_t type, uint64_t v)
{
	v = htobe64(v);
	put(type, &v, 8);
}

static void put32(uint16_t type, uint32_t v)
{
	v = htobe32(v);
	put(type, &v, 4);
}

static int parse(struct expr_limit *l)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_LIMIT];
	const struct nlattr *tb[NFTA_LIMIT_MAX + 1];
	struct nfnl_expr_ctx ctx = { 0 };
	int err;

	cr_assert_eq(ops->maxattr, NFTA_LIMIT_MAX);
	err = nfnl_attr_parse(buf, len, ops->maxattr, ops->policy, tb, NULL);
	len = 0;
	if (err)
		return err;
	memset(l, 0, sizeof(*l));
	return ops->parse(&ctx, l, tb);
}

static void rate_unit(uint64_t rate, uint64_t unit)
{
	put64(NFTA_LIMIT_RATE, rate);
	put64(NFTA_LIMIT_UNIT, unit);
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
	put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	put32(NFTA_LIMIT_FLAGS, NFT_LIMIT_F_INV);
	cr_assert_eq(parse(&l), 0);
	cr_assert(l.bytes);
	cr_assert(l.invert);
	cr_assert_eq(l.burst, 0);
	cr_assert_eq(l.tokens_max, 60 * NSEC_PER_SEC);
	rate_unit(1000, 60);
	put32(NFTA_LIMIT_BURST, 500);
	put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), 0);
	cr_assert_eq(l.tokens_max, 60 * NSEC_PER_SEC * 1500 / 1000);
}

Test(nfnl_limit, missing_or_zero_is_einval)
{
	struct expr_limit l;

	cr_assert_eq(parse(&l), -EINVAL);
	put64(NFTA_LIMIT_RATE, 1);
	cr_assert_eq(parse(&l), -EINVAL, "no unit");
	put64(NFTA_LIMIT_UNIT, 1);
	cr_assert_eq(parse(&l), -EINVAL, "no rate");
	rate_unit(0, 1);
	cr_assert_eq(parse(&l), -EINVAL, "rate 0");
}

Test(nfnl_limit, unknown_type_is_eopnotsupp_before_anything_else)
{
	struct expr_limit l;

	put32(NFTA_LIMIT_TYPE, 2);
	cr_assert_eq(parse(&l), -EOPNOTSUPP, "select_ops runs before init");
	rate_unit(1, 1);
	put32(NFTA_LIMIT_FLAGS, 2);
	cr_assert_eq(parse(&l), -EOPNOTSUPP, "unknown flag");
}

Test(nfnl_limit, overflows_are_eoverflow)
{
	struct expr_limit l;

	/* unit * NSEC_PER_SEC */
	rate_unit(1, UINT64_MAX / NSEC_PER_SEC + 1);
	cr_assert_eq(parse(&l), -EOVERFLOW);
	rate_unit(1, UINT64_MAX / NSEC_PER_SEC);
	put32(NFTA_LIMIT_BURST, 1);
	cr_assert_eq(parse(&l), 0, "the largest unit");
	/* rate + burst */
	rate_unit(UINT64_MAX, 1);
	cr_assert_eq(parse(&l), -EOVERFLOW, "with the default burst of 5");
	rate_unit(UINT64_MAX - 5, 1);
	cr_assert_eq(parse(&l), 0, "rate + 5 just fits");
	cr_assert_eq(l.tokens_max, 0, "less than a nanosecond per packet");
	/* packets: nsecs / rate * burst */
	rate_unit(1, 604800);
	put32(NFTA_LIMIT_BURST, 100000000);
	cr_assert_eq(parse(&l), -EOVERFLOW, "1/week burst 100000000 packets");
	/* bytes: nsecs * (rate + burst) */
	rate_unit(1048576, 86400);
	put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), -EOVERFLOW, "1 mbytes/day");
	rate_unit(1024, 86400);
	put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKT_BYTES);
	cr_assert_eq(parse(&l), 0, "1 kbytes/day");
}

Test(nfnl_limit, wrong_attribute_size_is_refused_by_the_policy)
{
	struct expr_limit l;

	put32(NFTA_LIMIT_RATE, 1);
	put64(NFTA_LIMIT_UNIT, 1);
	cr_assert_lt(parse(&l), 0);
}

Test(nfnl_limit, dump_as_the_kernel)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_LIMIT];
	struct expr_limit l;
	struct nfnl_buf b;

	rate_unit(5, 1);
	put32(NFTA_LIMIT_BURST, 10);
	cr_assert_eq(parse(&l), 0);
	nfnl_buf_init(&b);
	ops->dump(&b, &l);
	/* rate, unit in seconds, burst, type, flags */
	rate_unit(5, 1);
	put32(NFTA_LIMIT_BURST, 10);
	put32(NFTA_LIMIT_TYPE, NFT_LIMIT_PKTS);
	put32(NFTA_LIMIT_FLAGS, 0);
	cr_assert_eq(b.err, 0);
	cr_assert_eq(b.len, len);
	cr_assert_arr_eq(b.data, buf, len);
	nfnl_buf_fini(&b);
	len = 0;
}
