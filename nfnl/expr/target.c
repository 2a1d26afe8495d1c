// SPDX-License-Identifier: GPL-2.0-only
/*
 * target.c - netlink side of the xtables "target" expression
 * (nft_compat.c); parse and dump are shared with "match" (match.c).
 */
#include <linux/netfilter/nf_tables_compat.h>

#include "nfnl_expr.h"
#include "expr/xt.h"

static int target_parse(const struct nfnl_expr_ctx *ctx, void *priv,
			const struct nlattr **tb)
{
	return nfnl_xt_parse(ctx, priv, tb, true);
}

static void target_dump(struct nfnl_buf *b, const void *priv)
{
	nfnl_xt_dump(b, priv);
}

const struct nfnl_expr_ops nfnl_expr_target = {
	.type = EXPR_TARGET,
	.name = "target",
	.maxattr = NFTA_TARGET_MAX,
	.policy = nfnl_xt_policy,
	.priv_size = nfnl_xt_priv_size,
	.parse = target_parse,
	.dump = target_dump,
};
