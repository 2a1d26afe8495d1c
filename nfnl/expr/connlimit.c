// SPDX-License-Identifier: GPL-2.0-only
/*
 * connlimit.c - netlink side of the connlimit expression ("ct count",
 * nft_connlimit.c): nft_connlimit_do_init()'s checks in its order, with
 * its errors, and nft_connlimit_do_dump().
 */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/connlimit.h"

static const struct attr_policy connlimit_policy[NFTA_CONNLIMIT_MAX + 1] = {
	[NFTA_CONNLIMIT_COUNT] = { .kind = ATTR_U32 },
	[NFTA_CONNLIMIT_FLAGS] = { .kind = ATTR_U32 },
};

static int connlimit_parse(const struct nfnl_expr_ctx *ctx, void *p,
			   const struct nlattr **tb)
{
	struct expr_connlimit *priv = p;

	if (!tb[NFTA_CONNLIMIT_COUNT])
		return -EINVAL;
	priv->limit = nfnl_attr_be32(tb[NFTA_CONNLIMIT_COUNT]);
	if (tb[NFTA_CONNLIMIT_FLAGS]) {
		uint32_t flags = nfnl_attr_be32(tb[NFTA_CONNLIMIT_FLAGS]);

		if (flags & ~NFT_CONNLIMIT_F_INV)
			return -EOPNOTSUPP;
		priv->invert = flags & NFT_CONNLIMIT_F_INV;
	}
	/* nf_ct_netns_get(): conntrack for ip, ip6 and inet only */
	switch (ctx->family) {
	case NFPROTO_IPV4: case NFPROTO_IPV6: case NFPROTO_INET:
		return 0;
	}
	return -EPROTO;
}

/* the flags only when inverted, as the kernel dumps them */
static void connlimit_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_connlimit *priv = p;

	nfnl_put_be32(b, NFTA_CONNLIMIT_COUNT, priv->limit);
	if (priv->invert)
		nfnl_put_be32(b, NFTA_CONNLIMIT_FLAGS, NFT_CONNLIMIT_F_INV);
}

const struct nfnl_expr_ops nfnl_expr_connlimit = {
	.type = EXPR_CONNLIMIT,
	.name = "connlimit",
	.maxattr = NFTA_CONNLIMIT_MAX,
	.policy = connlimit_policy,
	.parse = connlimit_parse,
	.dump = connlimit_dump,
};
