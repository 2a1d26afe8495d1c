// SPDX-License-Identifier: GPL-2.0-only
/* counter.c - netlink side of the counter expression (nft_counter.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "dataplane.h"
#include "expr/counter.h"

static const struct attr_policy counter_policy[NFTA_COUNTER_MAX + 1] = {
	[NFTA_COUNTER_PACKETS] = { .kind = ATTR_U64 },
	[NFTA_COUNTER_BYTES] = { .kind = ATTR_U64 },
};

static int counter_parse(const struct nfnl_expr_ctx *ctx, void *p,
			 const struct nlattr **tb)
{
	struct expr_counter *priv = p;

	(void)ctx;
	if (tb[NFTA_COUNTER_PACKETS])
		priv->packets = nfnl_attr_be64(tb[NFTA_COUNTER_PACKETS]);
	if (tb[NFTA_COUNTER_BYTES])
		priv->bytes = nfnl_attr_be64(tb[NFTA_COUNTER_BYTES]);
	return 0;
}

/* the live counts: the initial ones plus what the dataplane counted */
static void counter_live(struct net *net, void *p)
{
	struct expr_counter *priv = p;
	uint64_t packets, bytes;

	if (priv->slot &&
	    !dataplane_counter_read(net, priv->slot, &packets, &bytes)) {
		priv->packets = packets;
		priv->bytes = bytes;
	}
}

static void counter_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_counter *priv = p;

	nfnl_put_be64(b, NFTA_COUNTER_BYTES, priv->bytes);
	nfnl_put_be64(b, NFTA_COUNTER_PACKETS, priv->packets);
}

const struct nfnl_expr_ops nfnl_expr_counter = {
	.type = EXPR_COUNTER,
	.name = "counter",
	.maxattr = NFTA_COUNTER_MAX,
	.policy = counter_policy,
	.parse = counter_parse,
	.live = counter_live,
	.dump = counter_dump,
};
