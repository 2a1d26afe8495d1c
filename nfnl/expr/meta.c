// SPDX-License-Identifier: GPL-2.0-only
/* meta.c - netlink side of the meta expression (nft_meta.c). */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/meta.h"

#define IFNAMSIZ_	16

static const struct attr_policy meta_policy[NFTA_META_MAX + 1] = {
	[NFTA_META_DREG] = { .kind = ATTR_U32 },
	[NFTA_META_KEY] = { .kind = ATTR_U32 },
	[NFTA_META_SREG] = { .kind = ATTR_U32 },
};

/* get_len - register bytes of a readable key, 0 if the kernel refuses it */
static uint32_t get_len(uint32_t key)
{
	switch (key) {
	case NFT_META_PROTOCOL:
	case NFT_META_IIFTYPE:
	case NFT_META_OIFTYPE:
		return 2;
	case NFT_META_NFPROTO:
	case NFT_META_L4PROTO:
	case NFT_META_LEN:
	case NFT_META_PRIORITY:
	case NFT_META_MARK:
	case NFT_META_IIF:
	case NFT_META_OIF:
	case 33: /* NFT_META_SDIF */
	case NFT_META_SKUID:
	case NFT_META_SKGID:
	case NFT_META_RTCLASSID:
	case NFT_META_SECMARK:
	case NFT_META_PKTTYPE:
	case NFT_META_CPU:
	case NFT_META_IIFGROUP:
	case NFT_META_OIFGROUP:
	case NFT_META_CGROUP:
	case NFT_META_PRANDOM:
	case NFT_META_TIME_HOUR:
		return 4;
	case NFT_META_IIFNAME:
	case NFT_META_OIFNAME:
	case NFT_META_IIFKIND:
	case NFT_META_OIFKIND:
	case 34: /* NFT_META_SDIFNAME */
		return IFNAMSIZ_;
	case NFT_META_SECPATH:
	case NFT_META_TIME_DAY:
		return 1;
	case NFT_META_TIME_NS:
		return 8;
	/* NFT_META_BRI_*: nft_meta_bridge.c's keys; the reference kernel
	 * has no NFT_BRIDGE_META, so nft_meta_get_init() refuses them */
	default:
		return 0;
	}
}

static uint32_t set_len(uint32_t key)
{
	switch (key) {
	case NFT_META_MARK:
	case NFT_META_PRIORITY:
	case NFT_META_SECMARK:
		return 4;
	case NFT_META_NFTRACE:
	case NFT_META_PKTTYPE:
		return 1;
	default:
		return 0;
	}
}

static int meta_parse(const struct nfnl_expr_ctx *ctx, void *p,
		      const struct nlattr **tb)
{
	struct expr_meta *priv = p;

	priv->family = ctx->family;
	if (!tb[NFTA_META_KEY])
		return -EINVAL;
	if (tb[NFTA_META_DREG] && tb[NFTA_META_SREG])
		return -EINVAL;
	priv->key = nfnl_attr_be32(tb[NFTA_META_KEY]);
	if (tb[NFTA_META_DREG]) {
		priv->len = get_len(priv->key);
		if (!priv->len)
			return -EOPNOTSUPP;
		return nfnl_reg_store(tb[NFTA_META_DREG], &priv->dreg, false,
				      priv->len);
	}
	if (!tb[NFTA_META_SREG])
		return -EINVAL;
	priv->is_set = true;
	priv->len = set_len(priv->key);
	if (!priv->len)
		return -EOPNOTSUPP;
	return nfnl_reg_load(tb[NFTA_META_SREG], &priv->sreg, priv->len);
}

static void meta_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_meta *priv = p;

	nfnl_put_be32(b, NFTA_META_KEY, priv->key);
	if (priv->is_set)
		nfnl_reg_dump(b, NFTA_META_SREG, priv->sreg);
	else
		nfnl_reg_dump(b, NFTA_META_DREG, priv->dreg);
}

/*
 * nft_meta_set_validate(): pkttype only at the hook where the packet came
 * in: bridge prerouting, netdev ingress, ip/ip6/inet prerouting (all hook
 * number 0); other families: EOPNOTSUPP
 */
static int meta_validate(const void *p, uint8_t family, uint32_t hooknum)
{
	const struct expr_meta *priv = p;

	if (!priv->is_set || priv->key != NFT_META_PKTTYPE)
		return 0;
	switch (family) {
	case NFPROTO_BRIDGE:	/* NF_BR_PRE_ROUTING */
	case NFPROTO_NETDEV:	/* NF_NETDEV_INGRESS */
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:	/* NF_INET_PRE_ROUTING */
		return hooknum == 0 ? 0 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

const struct nfnl_expr_ops nfnl_expr_meta = {
	.type = EXPR_META,
	.name = "meta",
	.maxattr = NFTA_META_MAX,
	.policy = meta_policy,
	.parse = meta_parse,
	.dump = meta_dump,
	.validate = meta_validate,
};
