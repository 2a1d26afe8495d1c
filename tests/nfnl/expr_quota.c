// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr_quota.c - NFTA_QUOTA_* through the policy and nft_quota's init
 * checks with the kernel's errors, and its dump: consumed capped at the
 * quota, NFT_QUOTA_F_DEPLETED from there.
 */
#include <errno.h>
#include <endian.h>
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>
#include <linux/netfilter/nf_tables.h>

#include "nfnl_expr.h"
#include "expr/quota.h"

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

static int parse(struct expr_quota *q)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[EXPR_QUOTA];
	const struct nlattr *tb[NFTA_QUOTA_MAX + 1];
	struct nfnl_expr_ctx ctx = { 0 };
	int err;

	cr_assert_eq(ops->maxattr, NFTA_QUOTA_MAX);
	err = nfnl_attr_parse(buf, len, ops->maxattr, ops->policy, tb, NULL);
	len = 0;
	if (err)
		return err;
	memset(q, 0, sizeof(*q));
	return ops->parse(&ctx, q, tb);
}

/* dump @q and compare with bytes, consumed, flags */
static void dump_is(const struct expr_quota *q, uint64_t bytes,
		    uint64_t consumed, uint32_t flags)
{
	struct nfnl_buf b;

	nfnl_buf_init(&b);
	nfnl_expr_ops[EXPR_QUOTA]->dump(&b, q);
	len = 0;
	put64(NFTA_QUOTA_BYTES, bytes);
	put64(NFTA_QUOTA_CONSUMED, consumed);
	put32(NFTA_QUOTA_FLAGS, flags);
	cr_assert_eq(b.err, 0);
	cr_assert_eq(b.len, len);
	cr_assert_arr_eq(b.data, buf, len);
	nfnl_buf_fini(&b);
	len = 0;
}

Test(nfnl_quota, parse_bytes_consumed_and_over)
{
	struct expr_quota q;

	put64(NFTA_QUOTA_BYTES, 1000);
	put64(NFTA_QUOTA_CONSUMED, 1000);
	put32(NFTA_QUOTA_FLAGS, NFT_QUOTA_F_INV);
	cr_assert_eq(parse(&q), 0);
	cr_assert_eq(q.quota, 1000);
	cr_assert_eq(q.consumed, 1000, "consumed may equal the quota");
	cr_assert(q.invert);
	put64(NFTA_QUOTA_BYTES, INT64_MAX);
	cr_assert_eq(parse(&q), 0, "the largest quota");
	cr_assert_eq(q.consumed, 0);
	cr_assert_not(q.invert);
}

Test(nfnl_quota, errors_as_the_kernel)
{
	struct expr_quota q;

	cr_assert_eq(parse(&q), -EINVAL, "no bytes");
	put64(NFTA_QUOTA_CONSUMED, 1);
	cr_assert_eq(parse(&q), -EINVAL, "consumed alone");
	put64(NFTA_QUOTA_BYTES, (uint64_t)INT64_MAX + 1);
	cr_assert_eq(parse(&q), -EOVERFLOW);
	put64(NFTA_QUOTA_BYTES, 10);
	put64(NFTA_QUOTA_CONSUMED, 11);
	cr_assert_eq(parse(&q), -EINVAL, "consumed over the quota");
	put64(NFTA_QUOTA_BYTES, 10);
	put32(NFTA_QUOTA_FLAGS, NFT_QUOTA_F_DEPLETED);
	cr_assert_eq(parse(&q), -EINVAL, "depleted is not for userspace to set");
	put64(NFTA_QUOTA_BYTES, 10);
	put32(NFTA_QUOTA_FLAGS, 0x80);
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
