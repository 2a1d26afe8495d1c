// SPDX-License-Identifier: GPL-2.0-only
/* limit.c - limit objects (nft_limit.c, nft_limit_obj_type). */
#include <errno.h>
#include "nfnl_obj.h"
#include "nfnl_expr.h"
#include "expr/limit.h"

#define NSEC_PER_SEC		1000000000ull

/* nft_limit_obj_select_ops() then nft_limit_init(): the expression's */
static int limit_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
		       const struct nlattr **tb)
{
	struct obj_limit *o = &d->limit;
	struct expr_limit l = { 0 };
	int ret;

	(void)ctx;
	ret = nfnl_limit_parse(tb, &l);
	if (ret)
		return ret;
	o->rate = l.rate;
	o->unit = l.nsecs / NSEC_PER_SEC;
	o->burst = l.burst;
	o->type = l.bytes ? NFT_LIMIT_PKT_BYTES : NFT_LIMIT_PKTS;
	o->flags = l.invert ? NFT_LIMIT_F_INV : 0;
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
	.policy = nfnl_limit_policy,
	.parse = limit_parse,
	.dump = limit_dump,
};
