// SPDX-License-Identifier: GPL-2.0-only
/* limit.c - limit objects (nft_limit.c, nft_limit_obj_type). */
#include <errno.h>
#include "nfnl_obj.h"

#define NSEC_PER_SEC		1000000000ull
#define LIMIT_PKT_BURST_DEFAULT	5	/* NFT_LIMIT_PKT_BURST_DEFAULT */

static const struct attr_policy limit_policy[NFTA_LIMIT_MAX + 1] = {
	[NFTA_LIMIT_RATE] = { .kind = ATTR_U64 },
	[NFTA_LIMIT_UNIT] = { .kind = ATTR_U64 },
	[NFTA_LIMIT_BURST] = { .kind = ATTR_U32 },
	[NFTA_LIMIT_TYPE] = { .kind = ATTR_U32 },
	[NFTA_LIMIT_FLAGS] = { .kind = ATTR_U32 },
};

/* nft_limit_obj_select_ops() then nft_limit_init(), overflow checks included */
static int limit_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
		       const struct nlattr **tb)
{
	struct obj_limit *l = &d->limit;
	uint64_t nsecs, rate_burst, tokens;

	(void)ctx;
	l->type = NFT_LIMIT_PKTS;
	if (tb[NFTA_LIMIT_TYPE]) {
		l->type = nfnl_attr_be32(tb[NFTA_LIMIT_TYPE]);
		if (l->type != NFT_LIMIT_PKTS && l->type != NFT_LIMIT_PKT_BYTES)
			return -EOPNOTSUPP;
	}
	if (!tb[NFTA_LIMIT_RATE] || !tb[NFTA_LIMIT_UNIT])
		return -EINVAL;
	l->rate = nfnl_attr_be64(tb[NFTA_LIMIT_RATE]);
	if (l->rate == 0)
		return -EINVAL;
	l->unit = nfnl_attr_be64(tb[NFTA_LIMIT_UNIT]);
	if (__builtin_mul_overflow(l->unit, NSEC_PER_SEC, &nsecs))
		return -EOVERFLOW;
	if (tb[NFTA_LIMIT_BURST])
		l->burst = nfnl_attr_be32(tb[NFTA_LIMIT_BURST]);
	if (l->type == NFT_LIMIT_PKTS && l->burst == 0)
		l->burst = LIMIT_PKT_BURST_DEFAULT;
	if (__builtin_add_overflow(l->rate, (uint64_t)l->burst, &rate_burst))
		return -EOVERFLOW;
	if (l->type == NFT_LIMIT_PKTS) {
		if (__builtin_mul_overflow(nsecs / l->rate, (uint64_t)l->burst, &tokens))
			return -EOVERFLOW;
	} else if (__builtin_mul_overflow(nsecs, rate_burst, &tokens)) {
		return -EOVERFLOW;
	}
	if (tb[NFTA_LIMIT_FLAGS]) {
		l->flags = nfnl_attr_be32(tb[NFTA_LIMIT_FLAGS]);
		if (l->flags & ~NFT_LIMIT_F_INV)
			return -EOPNOTSUPP;
	}
	return 0;
}

static void limit_dump(struct nfnl_buf *b, const union obj_data *d)
{
	const struct obj_limit *l = &d->limit;

	nfnl_put_be64(b, NFTA_LIMIT_RATE, l->rate);
	nfnl_put_be64(b, NFTA_LIMIT_UNIT, l->unit);
	nfnl_put_be32(b, NFTA_LIMIT_BURST, l->burst);
	nfnl_put_be32(b, NFTA_LIMIT_TYPE, l->type);
	nfnl_put_be32(b, NFTA_LIMIT_FLAGS, l->flags);
}

const struct nfnl_obj_ops nfnl_obj_limit = {
	.type = NFT_OBJECT_LIMIT,
	.name = "limit",
	.maxattr = NFTA_LIMIT_MAX,
	.policy = limit_policy,
	.parse = limit_parse,
	.dump = limit_dump,
};
