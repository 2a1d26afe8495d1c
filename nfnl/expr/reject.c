// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject.c - netlink side of the reject expression (nft_reject.c init and
 * dump, nft_reject_validate()'s hooks for a base chain).
 */
#include <errno.h>
#include <string.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "ruleset.h"
#include "expr/reject.h"

#define H(h)	(1u << (h))

static const struct attr_policy reject_policy[NFTA_REJECT_MAX + 1] = {
	[NFTA_REJECT_TYPE] = { .kind = ATTR_U32 },
	[NFTA_REJECT_ICMP_CODE] = { .kind = ATTR_U8 },
};

/*
 * hooks the validate of each family's reject allows: nft_reject_validate()
 * (ip, ip6), nft_reject_inet_validate() (plus ingress) and the netdev's
 * (ingress, 0)
 */
static uint32_t reject_hooks(uint8_t family)
{
	uint32_t m = H(NF_INET_LOCAL_IN) | H(NF_INET_FORWARD) |
		     H(NF_INET_LOCAL_OUT) | H(NF_INET_PRE_ROUTING);

	switch (family) {
	case NFPROTO_INET:
		return m | H(NF_INET_INGRESS);
	case NFPROTO_NETDEV:
		return H(0);
	}
	return m;
}

/* nft_chain_validate_hooks(): EOPNOTSUPP outside the family's hooks */
static int reject_validate(const void *p, uint8_t family, uint32_t hooknum)
{
	(void)p;
	return hooknum < 32 && (reject_hooks(family) & H(hooknum)) ? 0 :
								    -EOPNOTSUPP;
}

/*
 * nft_reject_init(): the type is mandatory; an ICMP type needs a code, an
 * icmpx code is at most NFT_REJECT_ICMPX_MAX. In a base chain of a hook
 * the kernel's validate refuses (postrouting), the rule is EOPNOTSUPP.
 */
static int reject_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	struct expr_reject *priv = p;

	/* no reject type for arp; none for bridge in the reference kernel
	 * (no NFT_BRIDGE_REJECT): nft_expr_type_get() finds nothing */
	if (ctx->family != NFPROTO_IPV4 && ctx->family != NFPROTO_IPV6 &&
	    ctx->family != NFPROTO_INET && ctx->family != NFPROTO_NETDEV)
		return -ENOENT;
	priv->family = ctx->family;
	if (!tb[NFTA_REJECT_TYPE])
		return -EINVAL;
	switch (nfnl_attr_be32(tb[NFTA_REJECT_TYPE])) {
	case NFT_REJECT_ICMP_UNREACH:
	case NFT_REJECT_ICMPX_UNREACH:
		priv->type = (uint8_t)nfnl_attr_be32(tb[NFTA_REJECT_TYPE]);
		if (!tb[NFTA_REJECT_ICMP_CODE])
			return -EINVAL;
		priv->icmp_code = nfnl_attr_u8(tb[NFTA_REJECT_ICMP_CODE]);
		if (priv->type == NFT_REJECT_ICMPX_UNREACH &&
		    priv->icmp_code > NFT_REJECT_ICMPX_MAX)
			return -EINVAL;
		break;
	case NFT_REJECT_TCP_RST:
		priv->type = NFT_REJECT_TCP_RST;
		break;
	default:
		return -EINVAL;
	}
	if (ctx->chain && ctx->chain->base)
		return reject_validate(priv, priv->family,
				       ctx->chain->base->hooknum);
	return 0;
}

static void reject_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_reject *priv = p;

	nfnl_put_be32(b, NFTA_REJECT_TYPE, priv->type);
	if (priv->type != NFT_REJECT_TCP_RST)
		nfnl_put_u8(b, NFTA_REJECT_ICMP_CODE, priv->icmp_code);
}

const struct nfnl_expr_ops nfnl_expr_reject = {
	.type = EXPR_REJECT,
	.name = "reject",
	.maxattr = NFTA_REJECT_MAX,
	.policy = reject_policy,
	.parse = reject_parse,
	.dump = reject_dump,
	.validate = reject_validate,
};
