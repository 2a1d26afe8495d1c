// SPDX-License-Identifier: GPL-2.0-only
/* immediate.c - netlink side of the immediate expression (nft_immediate.c). */
#include <errno.h>
#include "nfnl_expr.h"
#include "expr/immediate.h"

static const struct attr_policy immediate_policy[NFTA_IMMEDIATE_MAX + 1] = {
	[NFTA_IMMEDIATE_DREG] = { .kind = ATTR_U32 },
	[NFTA_IMMEDIATE_DATA] = { .kind = ATTR_NESTED },
};

/*
 * a jump/goto to a binding chain binds it to this rule
 * (nf_tables_bind_chain()): not from inside another binding chain, and
 * only once. The rule's deletion takes the chain along (nfnl/rule.c); a
 * failed batch frees both.
 */
static int bind_chain(const struct nfnl_expr_ctx *ctx, struct chain *c)
{
	if (!c || !(c->flags & CHAIN_F_BINDING))
		return 0;
	if (ctx->chain && (ctx->chain->flags & CHAIN_F_BINDING))
		return -EOPNOTSUPP;
	if (c->bound)
		return -EBUSY;
	c->bound = true;
	c->use++;
	return 0;
}

static int immediate_parse(const struct nfnl_expr_ctx *ctx, void *p,
			   const struct nlattr **tb)
{
	struct expr_immediate *priv = p;
	bool verdict;
	int err;

	if (!tb[NFTA_IMMEDIATE_DREG] || !tb[NFTA_IMMEDIATE_DATA])
		return -EINVAL;
	verdict = nfnl_reg_is_verdict(tb[NFTA_IMMEDIATE_DREG]);
	if (verdict)
		err = nfnl_data_verdict_parse(ctx, tb[NFTA_IMMEDIATE_DATA],
					      &priv->verdict);
	else
		err = nfnl_data_value_parse(tb[NFTA_IMMEDIATE_DATA], &priv->data,
					    16, 0);
	if (err)
		return err;
	err = nfnl_reg_store(tb[NFTA_IMMEDIATE_DREG], &priv->dreg, verdict,
			     verdict ? 16 : priv->data.len);
	if (err)
		return err;
	return verdict ? bind_chain(ctx, priv->verdict.chain) : 0;
}

static void immediate_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_immediate *priv = p;

	nfnl_reg_dump(b, NFTA_IMMEDIATE_DREG, priv->dreg);
	if (priv->dreg == REG_VERDICT)
		nfnl_data_verdict_dump(b, NFTA_IMMEDIATE_DATA, &priv->verdict);
	else
		nfnl_data_value_dump(b, NFTA_IMMEDIATE_DATA, &priv->data);
}

const struct nfnl_expr_ops nfnl_expr_immediate = {
	.type = EXPR_IMMEDIATE,
	.name = "immediate",
	.maxattr = NFTA_IMMEDIATE_MAX,
	.policy = immediate_policy,
	.parse = immediate_parse,
	.dump = immediate_dump,
};
