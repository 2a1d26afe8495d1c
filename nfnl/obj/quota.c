// SPDX-License-Identifier: GPL-2.0-only
/* quota.c - quota objects (nft_quota.c, nft_quota_obj_type). */
#include <errno.h>
#include <stdint.h>
#include "nfnl_obj.h"
#include "dataplane.h"

static const struct attr_policy quota_policy[NFTA_QUOTA_MAX + 1] = {
	[NFTA_QUOTA_BYTES] = { .kind = ATTR_U64 },
	[NFTA_QUOTA_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_QUOTA_CONSUMED] = { .kind = ATTR_U64 },
};

static int quota_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
		       const struct nlattr **tb)
{
	struct obj_quota *q = &d->quota;

	(void)ctx;
	if (!tb[NFTA_QUOTA_BYTES])
		return -EINVAL;
	q->quota = nfnl_attr_be64(tb[NFTA_QUOTA_BYTES]);
	if (q->quota > INT64_MAX)
		return -EOVERFLOW;
	if (tb[NFTA_QUOTA_CONSUMED]) {
		q->consumed = nfnl_attr_be64(tb[NFTA_QUOTA_CONSUMED]);
		if (q->consumed > q->quota)
			return -EINVAL;
	}
	if (tb[NFTA_QUOTA_FLAGS]) {
		q->flags = nfnl_attr_be32(tb[NFTA_QUOTA_FLAGS]);
		if (q->flags & ~NFT_QUOTA_F_INV)
			return -EINVAL;
	}
	return 0;
}

/* nft_quota_do_dump(): consumed is capped at the quota, which depletes it */
static void quota_dump(struct nfnl_buf *b, const union obj_data *d)
{
	const struct obj_quota *q = &d->quota;
	uint64_t consumed = q->consumed;
	uint32_t flags = q->flags;

	if (consumed >= q->quota) {
		consumed = q->quota;
		flags |= NFT_QUOTA_F_DEPLETED;
	}
	nfnl_put_be64(b, NFTA_QUOTA_BYTES, q->quota);
	nfnl_put_be64(b, NFTA_QUOTA_CONSUMED, consumed);
	nfnl_put_be32(b, NFTA_QUOTA_FLAGS, flags);
}

/* the live consumed bytes, as the dataplane counts them */
static void quota_live(struct net *net, const struct object *obj,
		       union obj_data *d)
{
	uint64_t v;

	if (obj->dp_slot[0] && !dataplane_state_read(net, obj->dp_slot[0], &v))
		d->quota.consumed = v;
}

/* nft_quota_do_dump() with reset: atomic64_sub() of the consumed bytes
 * shown (uncapped); bytes consumed since then stay */
static void quota_reset(struct net *net, struct object *obj,
			const union obj_data *shown)
{
	if (obj->dp_slot[0])
		dataplane_state_sub(net, obj->dp_slot[0], shown->quota.consumed);
	obj->data.quota.consumed = 0;
}

/* nft_quota_obj_update(): the quota and its flags, not what was consumed */
static void quota_update(union obj_data *d, const union obj_data *nd)
{
	d->quota.quota = nd->quota.quota;
	d->quota.flags = nd->quota.flags;
}

const struct nfnl_obj_ops nfnl_obj_quota = {
	.type = NFT_OBJECT_QUOTA,
	.name = "quota",
	.maxattr = NFTA_QUOTA_MAX,
	.policy = quota_policy,
	.parse = quota_parse,
	.dump = quota_dump,
	.live = quota_live,
	.reset = quota_reset,
	.update = quota_update,
};
