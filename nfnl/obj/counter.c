// SPDX-License-Identifier: GPL-2.0-only
/* counter.c - counter objects (nft_counter.c, nft_counter_obj_type). */
#include <errno.h>
#include "nfnl_obj.h"

static const struct attr_policy counter_policy[NFTA_COUNTER_MAX + 1] = {
	[NFTA_COUNTER_PACKETS] = { .kind = ATTR_U64 },
	[NFTA_COUNTER_BYTES] = { .kind = ATTR_U64 },
};

static int counter_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			 const struct nlattr **tb)
{
	(void)ctx;
	if (tb[NFTA_COUNTER_PACKETS])
		d->counter.packets = nfnl_attr_be64(tb[NFTA_COUNTER_PACKETS]);
	if (tb[NFTA_COUNTER_BYTES])
		d->counter.bytes = nfnl_attr_be64(tb[NFTA_COUNTER_BYTES]);
	return 0;
}

/* the packet path does not count into objects yet: these are the set values */
static void counter_dump(struct nfnl_buf *b, const union obj_data *d)
{
	nfnl_put_be64(b, NFTA_COUNTER_BYTES, d->counter.bytes);
	nfnl_put_be64(b, NFTA_COUNTER_PACKETS, d->counter.packets);
}

static void counter_reset(union obj_data *d)
{
	d->counter.packets = 0;
	d->counter.bytes = 0;
}

const struct nfnl_obj_ops nfnl_obj_counter = {
	.type = NFT_OBJECT_COUNTER,
	.name = "counter",
	.maxattr = NFTA_COUNTER_MAX,
	.policy = counter_policy,
	.parse = counter_parse,
	.dump = counter_dump,
	.reset = counter_reset,
};
