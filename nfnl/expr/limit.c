// SPDX-License-Identifier: GPL-2.0-only
/*
 * limit.c - netlink side of the limit expression (nft_limit.c): the
 * kernel's select_ops and init checks, in its order, with its errors.
 */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/limit.h"

#define NSEC_PER_SEC		1000000000ull
#define LIMIT_PKT_BURST_DEFAULT	5	/* NFT_LIMIT_PKT_BURST_DEFAULT, as iptables */

const struct attr_policy nfnl_limit_policy[NFTA_LIMIT_MAX + 1] = {
	[NFTA_LIMIT_RATE] = { .kind = ATTR_U64 },
	[NFTA_LIMIT_UNIT] = { .kind = ATTR_U64 },
	[NFTA_LIMIT_BURST] = { .kind = ATTR_U32 },
	[NFTA_LIMIT_TYPE] = { .kind = ATTR_U32 },
	[NFTA_LIMIT_FLAGS] = { .kind = ATTR_U32 },
};

int nfnl_limit_parse(const struct nlattr **tb, struct expr_limit *priv)
{
	uint64_t unit, rate_with_burst, tokens;

	/* 0. nft_limit_select_ops(): the type picks the ops first */
	if (tb[NFTA_LIMIT_TYPE]) {
		switch (nfnl_attr_be32(tb[NFTA_LIMIT_TYPE])) {
		case NFT_LIMIT_PKTS:
			break;
		case NFT_LIMIT_PKT_BYTES:
			priv->bytes = true;
			break;
		default:
			return -EOPNOTSUPP;
		}
	}
	/* 1. nft_limit_init() */
	if (!tb[NFTA_LIMIT_RATE] || !tb[NFTA_LIMIT_UNIT])
		return -EINVAL;
	priv->rate = nfnl_attr_be64(tb[NFTA_LIMIT_RATE]);
	if (priv->rate == 0)
		return -EINVAL;
	unit = nfnl_attr_be64(tb[NFTA_LIMIT_UNIT]);
	if (__builtin_mul_overflow(unit, NSEC_PER_SEC, &priv->nsecs))
		return -EOVERFLOW;
	if (tb[NFTA_LIMIT_BURST])
		priv->burst = nfnl_attr_be32(tb[NFTA_LIMIT_BURST]);
	if (!priv->bytes && priv->burst == 0)
		priv->burst = LIMIT_PKT_BURST_DEFAULT;
	if (__builtin_add_overflow(priv->rate, (uint64_t)priv->burst,
				   &rate_with_burst))
		return -EOVERFLOW;
	if (!priv->bytes) {
		if (__builtin_mul_overflow(priv->nsecs / priv->rate,
					   (uint64_t)priv->burst, &tokens))
			return -EOVERFLOW;
	} else {
		uint64_t tmp;

		/* bucket = unit * (rate + burst) / rate */
		if (__builtin_mul_overflow(priv->nsecs, rate_with_burst, &tmp))
			return -EOVERFLOW;
		tokens = tmp / priv->rate;
	}
	if (tb[NFTA_LIMIT_FLAGS]) {
		uint32_t flags = nfnl_attr_be32(tb[NFTA_LIMIT_FLAGS]);

		if (flags & ~NFT_LIMIT_F_INV)
			return -EOPNOTSUPP;
		priv->invert = flags & NFT_LIMIT_F_INV;
	}
	priv->tokens_max = tokens;
	/* 2. nft_limit_pkts_init(): the cost of one packet */
	if (!priv->bytes)
		priv->cost = priv->nsecs / priv->rate;
	return 0;
}

static int limit_parse(const struct nfnl_expr_ctx *ctx, void *p,
		       const struct nlattr **tb)
{
	(void)ctx;
	return nfnl_limit_parse(tb, p);
}

static void limit_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_limit *priv = p;

	nfnl_put_be64(b, NFTA_LIMIT_RATE, priv->rate);
	nfnl_put_be64(b, NFTA_LIMIT_UNIT, priv->nsecs / NSEC_PER_SEC);
	nfnl_put_be32(b, NFTA_LIMIT_BURST, priv->burst);
	nfnl_put_be32(b, NFTA_LIMIT_TYPE,
		      priv->bytes ? NFT_LIMIT_PKT_BYTES : NFT_LIMIT_PKTS);
	nfnl_put_be32(b, NFTA_LIMIT_FLAGS, priv->invert ? NFT_LIMIT_F_INV : 0);
}

const struct nfnl_expr_ops nfnl_expr_limit = {
	.type = EXPR_LIMIT,
	.name = "limit",
	.maxattr = NFTA_LIMIT_MAX,
	.policy = nfnl_limit_policy,
	.parse = limit_parse,
	.dump = limit_dump,
};
