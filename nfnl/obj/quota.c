// SPDX-License-Identifier: GPL-2.0-only
/* quota.c - quota objects (nft_quota.c, nft_quota_obj_type). */
#include <errno.h>
#include <stdint.h>
#include "nfnl_obj.h"
#include "nfnl_expr.h"
#include "expr/quota.h"
#include "dataplane.h"

/* nft_quota_obj_init(): the expression's nft_quota_do_init() */
static int quota_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
		       const struct nlattr **tb)
{
	struct expr_quota q = { 0 };
	int ret;

	(void)ctx;
	ret = nfnl_quota_parse(tb, &q);
	if (ret)
		return ret;
	d->quota.quota = q.quota;
	d->quota.consumed = q.consumed;
	d->quota.flags = q.invert ? NFT_QUOTA_F_INV : 0;
	return 0;
}

static void quota_dump(struct nfnl_buf *b, const union obj_data *d)
{
	nfnl_quota_dump(b, d->quota.quota, d->quota.consumed, d->quota.flags);
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
	.policy = nfnl_quota_policy,
	.parse = quota_parse,
	.dump = quota_dump,
	.live = quota_live,
	.reset = quota_reset,
	.update = quota_update,
};
