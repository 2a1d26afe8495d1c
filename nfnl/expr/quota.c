// SPDX-License-Identifier: GPL-2.0-only
/*
 * quota.c - netlink side of the quota expression (nft_quota.c): init's
 * checks in its order, and its dump of the live consumed bytes.
 */
#include <errno.h>
#include <stdint.h>
#include "nfnl_expr.h"
#include "dataplane.h"
#include "expr/quota.h"

const struct attr_policy nfnl_quota_policy[NFTA_QUOTA_MAX + 1] = {
	[NFTA_QUOTA_BYTES] = { .kind = ATTR_U64 },
	[NFTA_QUOTA_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_QUOTA_CONSUMED] = { .kind = ATTR_U64 },
};

int nfnl_quota_parse(const struct nlattr **tb, struct expr_quota *priv)
{
	if (!tb[NFTA_QUOTA_BYTES])
		return -EINVAL;
	priv->quota = nfnl_attr_be64(tb[NFTA_QUOTA_BYTES]);
	if (priv->quota > INT64_MAX)
		return -EOVERFLOW;
	if (tb[NFTA_QUOTA_CONSUMED]) {
		priv->consumed = nfnl_attr_be64(tb[NFTA_QUOTA_CONSUMED]);
		if (priv->consumed > priv->quota)
			return -EINVAL;
	}
	if (tb[NFTA_QUOTA_FLAGS]) {
		uint32_t flags = nfnl_attr_be32(tb[NFTA_QUOTA_FLAGS]);

		/* NFT_QUOTA_F_DEPLETED is refused here already: the
		 * kernel's later -EOPNOTSUPP for it is never reached */
		if (flags & ~NFT_QUOTA_F_INV)
			return -EINVAL;
		priv->invert = flags & NFT_QUOTA_F_INV;
	}
	return 0;
}

static int quota_parse(const struct nfnl_expr_ctx *ctx, void *p,
		       const struct nlattr **tb)
{
	(void)ctx;
	return nfnl_quota_parse(tb, p);
}

/* the live consumed bytes, as the kernel keeps them with the rule */
static void quota_live(struct net *net, void *p)
{
	struct expr_quota *priv = p;
	uint64_t v;

	if (priv->slot && !dataplane_state_read(net, priv->slot, &v))
		priv->consumed = v;
}

void nfnl_quota_dump(struct nfnl_buf *b, uint64_t quota, uint64_t consumed,
		     uint32_t flags)
{
	if (consumed >= quota) {
		consumed = quota;
		flags |= NFT_QUOTA_F_DEPLETED;
	}
	nfnl_put_be64(b, NFTA_QUOTA_BYTES, quota);
	nfnl_put_be64(b, NFTA_QUOTA_CONSUMED, consumed);
	nfnl_put_be32(b, NFTA_QUOTA_FLAGS, flags);
}

static void quota_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_quota *priv = p;

	nfnl_quota_dump(b, priv->quota, priv->consumed,
			priv->invert ? NFT_QUOTA_F_INV : 0);
}

const struct nfnl_expr_ops nfnl_expr_quota = {
	.type = EXPR_QUOTA,
	.name = "quota",
	.maxattr = NFTA_QUOTA_MAX,
	.policy = nfnl_quota_policy,
	.parse = quota_parse,
	.live = quota_live,
	.dump = quota_dump,
};
