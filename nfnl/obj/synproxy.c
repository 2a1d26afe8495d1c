// SPDX-License-Identifier: GPL-2.0-only
/* synproxy.c - synproxy objects (nft_synproxy.c, nft_synproxy_obj_type). */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <linux/netfilter/nf_synproxy.h>
#include "nfnl_obj.h"

static const struct attr_policy synproxy_policy[NFTA_SYNPROXY_MAX + 1] = {
	[NFTA_SYNPROXY_MSS] = { .kind = ATTR_U16 },
	[NFTA_SYNPROXY_WSCALE] = { .kind = ATTR_U8 },
	[NFTA_SYNPROXY_FLAGS] = { .kind = ATTR_U32 },
};

static int synproxy_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			  const struct nlattr **tb)
{
	struct obj_synproxy *sp = &d->synproxy;
	uint16_t mss;

	if (tb[NFTA_SYNPROXY_MSS]) {
		memcpy(&mss, (const char *)tb[NFTA_SYNPROXY_MSS] + NLA_HDRLEN, 2);
		sp->mss = be16toh(mss);
	}
	if (tb[NFTA_SYNPROXY_WSCALE])
		sp->wscale = nfnl_attr_u8(tb[NFTA_SYNPROXY_WSCALE]);
	if (tb[NFTA_SYNPROXY_FLAGS]) {
		sp->flags = nfnl_attr_be32(tb[NFTA_SYNPROXY_FLAGS]);
		if (sp->flags & ~NF_SYNPROXY_OPT_MASK)
			return -EOPNOTSUPP;
	}
	return nfnl_obj_ct_netns_get(ctx->family);
}

static void synproxy_dump(struct nfnl_buf *b, const union obj_data *d)
{
	uint16_t mss = htobe16(d->synproxy.mss);

	nfnl_put(b, NFTA_SYNPROXY_MSS, &mss, sizeof(mss));
	nfnl_put_u8(b, NFTA_SYNPROXY_WSCALE, d->synproxy.wscale);
	nfnl_put_be32(b, NFTA_SYNPROXY_FLAGS, d->synproxy.flags);
}

/* nft_synproxy_obj_update(): the whole option set is replaced */
static void synproxy_update(union obj_data *d, const union obj_data *nd)
{
	d->synproxy = nd->synproxy;
}

const struct nfnl_obj_ops nfnl_obj_synproxy = {
	.type = NFT_OBJECT_SYNPROXY,
	.name = "synproxy",
	.maxattr = NFTA_SYNPROXY_MAX,
	.policy = synproxy_policy,
	.parse = synproxy_parse,
	.dump = synproxy_dump,
	.update = synproxy_update,
};
