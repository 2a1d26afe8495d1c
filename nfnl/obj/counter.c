// SPDX-License-Identifier: GPL-2.0-only
/* counter.c - counter objects (nft_counter.c, nft_counter_obj_type). */
#include <errno.h>
#include "nfnl_obj.h"
#include "dataplane.h"

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

static void counter_dump(struct nfnl_buf *b, const union obj_data *d)
{
	nfnl_put_be64(b, NFTA_COUNTER_BYTES, d->counter.bytes);
	nfnl_put_be64(b, NFTA_COUNTER_PACKETS, d->counter.packets);
}

/* the live counts: the given ones plus what the dataplane counted */
static void counter_live(struct net *net, const struct object *obj,
			 union obj_data *d)
{
	uint64_t packets, bytes;

	if (obj->dp_slot[0] &&
	    !dataplane_counter_read(net, obj->dp_slot[0], &packets, &bytes)) {
		d->counter.packets = packets;
		d->counter.bytes = bytes;
	}
}

/* nft_counter_reset(): what was shown goes; packets since then stay */
static void counter_reset(struct net *net, struct object *obj,
			  const union obj_data *shown)
{
	if (obj->dp_slot[0])
		dataplane_counter_sub(net, obj->dp_slot[0], shown->counter.packets,
				      shown->counter.bytes);
	obj->data.counter.packets = 0;
	obj->data.counter.bytes = 0;
}

const struct nfnl_obj_ops nfnl_obj_counter = {
	.type = NFT_OBJECT_COUNTER,
	.name = "counter",
	.maxattr = NFTA_COUNTER_MAX,
	.policy = counter_policy,
	.parse = counter_parse,
	.dump = counter_dump,
	.live = counter_live,
	.reset = counter_reset,
};
