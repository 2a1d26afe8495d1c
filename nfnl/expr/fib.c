// SPDX-License-Identifier: GPL-2.0-only
/*
 * fib.c - netlink side of the fib expression: nft_fib.c's policy, init,
 * dump and validate, and the per-family select_ops (nft_fib_ipv4.c,
 * nft_fib_ipv6.c; the inet and netdev types have one ops and no select).
 */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/fib.h"

#define H(h)		(1u << (h))
#define IFNAMSIZ_	16

static const struct attr_policy fib_policy[NFTA_FIB_MAX + 1] = {
	[NFTA_FIB_DREG] = { .kind = ATTR_U32 },
	[NFTA_FIB_RESULT] = { .kind = ATTR_U32 },
	[NFTA_FIB_FLAGS] = { .kind = ATTR_U32 },
};

/* nft_fib_validate(): the hooks each result and flag combination allows */
static uint32_t fib_hooks(const struct expr_fib *f)
{
	switch (f->result) {
	case FIB_RESULT_OIF:
	case FIB_RESULT_OIFNAME:
		/* with or without iif since "netfilter: nf_tables: allow
		 * fib oif in input and forward" (before 6.18) */
		return H(NF_INET_PRE_ROUTING) | H(NF_INET_LOCAL_IN) |
		       H(NF_INET_FORWARD);
	case FIB_RESULT_ADDRTYPE:
		if (f->flags & FIB_F_IIF)
			return H(NF_INET_PRE_ROUTING) | H(NF_INET_LOCAL_IN) |
			       H(NF_INET_FORWARD);
		if (f->flags & FIB_F_OIF)
			return H(NF_INET_LOCAL_OUT) | H(NF_INET_POST_ROUTING) |
			       H(NF_INET_FORWARD);
		return H(NF_INET_LOCAL_IN) | H(NF_INET_LOCAL_OUT) |
		       H(NF_INET_FORWARD) | H(NF_INET_PRE_ROUTING) |
		       H(NF_INET_POST_ROUTING);
	}
	return 0;
}

/* nft_chain_validate_hooks(): EOPNOTSUPP outside those hooks (netdev
 * ingress/egress are hook numbers 0 and 1, as the kernel compares them) */
static int fib_validate(const void *p, uint8_t family, uint32_t hooknum)
{
	(void)family;
	return hooknum < 32 && (fib_hooks(p) & H(hooknum)) ? 0 : -EOPNOTSUPP;
}

/*
 * The policy's mask check (NLA_POLICY_MASK: unknown flags are -EINVAL),
 * then select_ops for ip and ip6 (no result: -EINVAL, an unknown one:
 * -EOPNOTSUPP), then nft_fib_init().
 */
static int fib_parse(const struct nfnl_expr_ctx *ctx, void *p,
		     const struct nlattr **tb)
{
	struct expr_fib *priv = p;
	uint32_t len;

	if (ctx->family != NFPROTO_IPV4 && ctx->family != NFPROTO_IPV6 &&
	    ctx->family != NFPROTO_INET && ctx->family != NFPROTO_NETDEV)
		return -ENOENT;	/* no fib type for arp and bridge */
	priv->family = ctx->family;
	if (tb[NFTA_FIB_FLAGS] && (nfnl_attr_be32(tb[NFTA_FIB_FLAGS]) & ~FIB_F_ALL))
		return -EINVAL;
	if (ctx->family == NFPROTO_IPV4 || ctx->family == NFPROTO_IPV6) {
		if (!tb[NFTA_FIB_RESULT])
			return -EINVAL;
		switch (nfnl_attr_be32(tb[NFTA_FIB_RESULT])) {
		case FIB_RESULT_OIF:
		case FIB_RESULT_OIFNAME:
		case FIB_RESULT_ADDRTYPE:
			break;
		default:
			return -EOPNOTSUPP;
		}
	}
	if (!tb[NFTA_FIB_DREG] || !tb[NFTA_FIB_RESULT] || !tb[NFTA_FIB_FLAGS])
		return -EINVAL;
	priv->flags = nfnl_attr_be32(tb[NFTA_FIB_FLAGS]);
	if (!priv->flags)
		return -EINVAL;
	if ((priv->flags & (FIB_F_SADDR | FIB_F_DADDR)) ==
	    (FIB_F_SADDR | FIB_F_DADDR))
		return -EINVAL;
	if ((priv->flags & (FIB_F_IIF | FIB_F_OIF)) == (FIB_F_IIF | FIB_F_OIF))
		return -EINVAL;
	if (!(priv->flags & (FIB_F_SADDR | FIB_F_DADDR)))
		return -EINVAL;
	priv->result = nfnl_attr_be32(tb[NFTA_FIB_RESULT]);
	switch (priv->result) {
	case FIB_RESULT_OIF:
		if (priv->flags & FIB_F_OIF)
			return -EINVAL;
		len = 4;
		break;
	case FIB_RESULT_OIFNAME:
		if (priv->flags & FIB_F_OIF)
			return -EINVAL;
		len = IFNAMSIZ_;
		break;
	case FIB_RESULT_ADDRTYPE:
		len = 4;
		break;
	default:
		return -EINVAL;
	}
	/* "nft_fib: fix stale stack leak via the OIFNAME register": the
	 * present flag only with result oif, into one byte */
	if (priv->flags & FIB_F_PRESENT) {
		if (priv->result != FIB_RESULT_OIF)
			return -EINVAL;
		len = 1;
	}
	/* the hooks: at table validation, in base chains too (nf_tables
	 * validates the table at commit, so the error names no attribute) */
	return nfnl_reg_store(tb[NFTA_FIB_DREG], &priv->dreg, false, len);
}

static void fib_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_fib *priv = p;

	nfnl_reg_dump(b, NFTA_FIB_DREG, priv->dreg);
	nfnl_put_be32(b, NFTA_FIB_RESULT, priv->result);
	nfnl_put_be32(b, NFTA_FIB_FLAGS, priv->flags);
}

const struct nfnl_expr_ops nfnl_expr_fib = {
	.type = EXPR_FIB,
	.name = "fib",
	.maxattr = NFTA_FIB_MAX,
	.policy = fib_policy,
	.parse = fib_parse,
	.dump = fib_dump,
	.validate = fib_validate,
};
