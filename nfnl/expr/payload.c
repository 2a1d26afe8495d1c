// SPDX-License-Identifier: GPL-2.0-only
/* payload.c - netlink side of the payload expression (nft_payload.c). */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/payload.h"

#define PAYLOAD_TUN_HEADER	4	/* NFT_PAYLOAD_TUN_HEADER (6.x) */

static const struct attr_policy payload_policy[NFTA_PAYLOAD_MAX + 1] = {
	[NFTA_PAYLOAD_SREG] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_DREG] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_BASE] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_OFFSET] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_LEN] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_CSUM_TYPE] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_CSUM_OFFSET] = { .kind = ATTR_U32 },
	[NFTA_PAYLOAD_CSUM_FLAGS] = { .kind = ATTR_U32 },
};

static int payload_parse(const struct nfnl_expr_ctx *ctx, void *p,
			 const struct nlattr **tb)
{
	struct expr_payload *priv = p;
	uint32_t base, v;
	int err;

	if (!tb[NFTA_PAYLOAD_BASE] || !tb[NFTA_PAYLOAD_OFFSET] ||
	    !tb[NFTA_PAYLOAD_LEN])
		return -EINVAL;
	base = nfnl_attr_be32(tb[NFTA_PAYLOAD_BASE]);
	switch (base) {
	case PAYLOAD_TUN_HEADER:
		if (ctx->family != NFPROTO_NETDEV)
			return -EOPNOTSUPP;
		return -EOPNOTSUPP;	/* tunnel header: not modelled yet */
	case NFT_PAYLOAD_LL_HEADER:
	case NFT_PAYLOAD_NETWORK_HEADER:
	case NFT_PAYLOAD_TRANSPORT_HEADER:
	case NFT_PAYLOAD_INNER_HEADER:
		break;
	default:
		return -EOPNOTSUPP;
	}
	priv->base = base;
	if (tb[NFTA_PAYLOAD_SREG]) {
		if (tb[NFTA_PAYLOAD_DREG])
			return -EINVAL;
		priv->is_set = true;
	} else if (!tb[NFTA_PAYLOAD_DREG]) {
		return -EINVAL;
	}
	err = nfnl_u32_check(tb[NFTA_PAYLOAD_OFFSET], 0xffff, &priv->offset);
	if (err)
		return err;
	err = nfnl_u32_check(tb[NFTA_PAYLOAD_LEN], 0xff, &priv->len);
	if (err)
		return err;
	if (!priv->is_set)
		return nfnl_reg_store(tb[NFTA_PAYLOAD_DREG], &priv->dreg, false,
				      priv->len);

	if (tb[NFTA_PAYLOAD_CSUM_TYPE])
		priv->csum_type = nfnl_attr_be32(tb[NFTA_PAYLOAD_CSUM_TYPE]);
	if (tb[NFTA_PAYLOAD_CSUM_OFFSET]) {
		err = nfnl_u32_check(tb[NFTA_PAYLOAD_CSUM_OFFSET], 0xff, &v);
		if (err)
			return err;
		priv->csum_offset = v;
	}
	if (tb[NFTA_PAYLOAD_CSUM_FLAGS]) {
		v = nfnl_attr_be32(tb[NFTA_PAYLOAD_CSUM_FLAGS]);
		if (v & ~NFT_PAYLOAD_L4CSUM_PSEUDOHDR)
			return -EINVAL;
		priv->csum_flags = v;
	}
	switch (priv->csum_type) {
	case NFT_PAYLOAD_CSUM_NONE:
	case NFT_PAYLOAD_CSUM_INET:
	case 2: /* NFT_PAYLOAD_CSUM_SCTP */
		break;
	default:
		return -EOPNOTSUPP;
	}
	return nfnl_reg_load(tb[NFTA_PAYLOAD_SREG], &priv->sreg, priv->len);
}

static void payload_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_payload *priv = p;

	if (priv->is_set)
		nfnl_reg_dump(b, NFTA_PAYLOAD_SREG, priv->sreg);
	else
		nfnl_reg_dump(b, NFTA_PAYLOAD_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_PAYLOAD_BASE, priv->base);
	nfnl_put_be32(b, NFTA_PAYLOAD_OFFSET, priv->offset);
	nfnl_put_be32(b, NFTA_PAYLOAD_LEN, priv->len);
	if (priv->is_set) {
		nfnl_put_be32(b, NFTA_PAYLOAD_CSUM_TYPE, priv->csum_type);
		nfnl_put_be32(b, NFTA_PAYLOAD_CSUM_OFFSET, priv->csum_offset);
		nfnl_put_be32(b, NFTA_PAYLOAD_CSUM_FLAGS, priv->csum_flags);
	}
}

const struct nfnl_expr_ops nfnl_expr_payload = {
	.type = EXPR_PAYLOAD,
	.name = "payload",
	.maxattr = NFTA_PAYLOAD_MAX,
	.policy = payload_policy,
	.parse = payload_parse,
	.dump = payload_dump,
};
