// SPDX-License-Identifier: GPL-2.0-only
/*
 * match.c - netlink side of the xtables "match" expression (nft_compat.c),
 * and the parse/dump shared with "target" (nfnl/expr/target.c).
 *
 * Whether the kernel accepts an extension (its name and revision, its
 * size, table, hooks, protocol and its checkentry()) is answered by the
 * kernel itself (nfnl_xt_check(), nfnl/xt_probe.c); everything nft_compat
 * checks before that is checked here, in the kernel's order.
 */
#include <errno.h>
#include <string.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables_compat.h>

#include "nfnl_expr.h"
#include "nfnl_xt.h"
#include "ruleset.h"
#include "expr/xt.h"

#define NF_INET_INGRESS_	5	/* NF_INET_INGRESS */

/* NFTA_MATCH_* and NFTA_TARGET_* have the same numbers and policy */
const struct attr_policy nfnl_xt_policy[NFTA_MATCH_MAX + 1] = {
	[NFTA_MATCH_NAME] = { .kind = ATTR_NUL_STRING, .len = XT_NAME_MAXLEN },
	[NFTA_MATCH_REV] = { .kind = ATTR_U32 },
	[NFTA_MATCH_INFO] = { .kind = ATTR_BINARY },
};

static uint32_t info_len(const struct nlattr **tb)
{
	return tb[NFTA_MATCH_INFO] ? tb[NFTA_MATCH_INFO]->nla_len - NLA_HDRLEN : 0;
}

/* larger than any fixed-size extension: the record's u16 size must hold it */
#define XT_INFO_MAX	16384

size_t nfnl_xt_priv_size(const struct nlattr **tb)
{
	uint32_t len = info_len(tb);

	return sizeof(struct expr_xt) + (len > XT_INFO_MAX ? 0 : XT_ALIGN_(len));
}

bool nfnl_xt_query_fill(struct nfnl_xt_query *q, uint8_t family,
			const char *table, const struct basechain *bc,
			const struct nlattr *compat, const struct nlattr **tb,
			bool target, char *name)
{
	memset(q, 0, sizeof(*q));
	nfnl_attr_strlcpy(name, tb[NFTA_MATCH_NAME], 32);
	q->family = family;
	q->table = table;
	if (bc && family != NFPROTO_NETDEV &&
	    !(family == NFPROTO_INET && bc->hooknum >= NF_INET_INGRESS_)) {
		q->base = true;
		q->hooknum = bc->hooknum;
		q->prio = bc->priority;
		q->type = bc->type;
	}
	if (compat) {
		q->compat = (const char *)compat + NLA_HDRLEN;
		q->compat_len = compat->nla_len - NLA_HDRLEN;
	}
	q->target = target;
	q->name = name;
	q->rev = nfnl_attr_be32(tb[NFTA_MATCH_REV]);
	q->info = (const char *)tb[NFTA_MATCH_INFO] + NLA_HDRLEN;
	q->len = info_len(tb);
	return q->base;
}

int nfnl_xt_parse(const struct nfnl_expr_ctx *ctx, struct expr_xt *priv,
		  const struct nlattr **tb, bool target)
{
	const struct basechain *bc = ctx->chain->base;
	struct nfnl_xt_query q;
	int err;

	/* NLA_POLICY_MAX(NLA_BE32, 255) */
	if (tb[NFTA_MATCH_REV] && nfnl_attr_be32(tb[NFTA_MATCH_REV]) > 255)
		return -ERANGE;
	/* nft_{match,target}_select_ops */
	if (!tb[NFTA_MATCH_NAME] || !tb[NFTA_MATCH_REV] || !tb[NFTA_MATCH_INFO])
		return -EINVAL;
	nfnl_xt_query_fill(&q, ctx->family, ctx->table->name, bc,
			   ctx->rule_compat, tb, target, priv->name);
	if (target && (!strcmp(priv->name, "ERROR") || !priv->name[0] ||
		       !strcmp(priv->name, "standard")))
		return -EINVAL;	/* XT_ERROR_TARGET, XT_STANDARD_TARGET */
	priv->rev = q.rev;
	priv->family = ctx->family;
	err = nfnl_xt_check(&q);
	if (err == -ECOMM) {
		extack_set(ctx->ext, "nfbpfd: cannot ask the kernel whether it accepts this xtables extension", NULL);
		return -EOPNOTSUPP;
	}
	if (err)
		return err;
	/* a base chain the probe could not reproduce: nft_{match,target}_
	 * validate refuses the family or the hook (ingress/egress) */
	if (bc && !q.base)
		return -EOPNOTSUPP;
	if (q.len > XT_INFO_MAX)
		return -EFBIG;	/* no such extension exists */
	priv->len = XT_ALIGN_(q.len);
	memcpy(priv->info, q.info, q.len);
	memset(priv->info + q.len, 0, priv->len - q.len);
	return 0;
}

void nfnl_xt_dump(struct nfnl_buf *b, const struct expr_xt *priv)
{
	nfnl_put_str(b, NFTA_MATCH_NAME, priv->name);
	nfnl_put_be32(b, NFTA_MATCH_REV, priv->rev);
	nfnl_put(b, NFTA_MATCH_INFO, priv->info, priv->len);
}

static int match_parse(const struct nfnl_expr_ctx *ctx, void *priv,
		       const struct nlattr **tb)
{
	return nfnl_xt_parse(ctx, priv, tb, false);
}

static void match_dump(struct nfnl_buf *b, const void *priv)
{
	nfnl_xt_dump(b, priv);
}

const struct nfnl_expr_ops nfnl_expr_match = {
	.type = EXPR_MATCH,
	.name = "match",
	.maxattr = NFTA_MATCH_MAX,
	.policy = nfnl_xt_policy,
	.priv_size = nfnl_xt_priv_size,
	.parse = match_parse,
	.dump = match_dump,
};
