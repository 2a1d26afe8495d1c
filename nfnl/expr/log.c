// SPDX-License-Identifier: GPL-2.0-only
/* log.c - netlink side of the log expression (nft_log.c init and dump). */
#include <errno.h>
#include <string.h>
#include "nfnl_expr.h"
#include "expr/log.h"

static const struct attr_policy log_policy[NFTA_LOG_MAX + 1] = {
	[NFTA_LOG_GROUP] = { .kind = ATTR_U16 },
	[NFTA_LOG_PREFIX] = { .kind = ATTR_STRING, .len = LOG_PREFIXLEN - 1 },
	[NFTA_LOG_SNAPLEN] = { .kind = ATTR_U32 },
	[NFTA_LOG_QTHRESHOLD] = { .kind = ATTR_U16 },
	[NFTA_LOG_LEVEL] = { .kind = ATTR_U32 },
	[NFTA_LOG_FLAGS] = { .kind = ATTR_U32 },
};

/*
 * nft_log_init(): level and flags land in the kernel's u8 fields before
 * they are range-checked, so only their low byte counts (level 0x104 is
 * level 4); every logger type exists (nf_log_syslog and nfnetlink_log are
 * built in), so nf_logger_find_get() never fails here.
 */
static int log_parse(const struct nfnl_expr_ctx *ctx, void *p,
		     const struct nlattr **tb)
{
	struct expr_log *priv = p;

	(void)ctx;
	priv->type = LOG_TYPE_SYSLOG;
	if (tb[NFTA_LOG_LEVEL] && tb[NFTA_LOG_GROUP])
		return -EINVAL;
	if (tb[NFTA_LOG_GROUP]) {
		priv->type = LOG_TYPE_NFLOG;
		if (tb[NFTA_LOG_FLAGS])
			return -EINVAL;
	}
	if (tb[NFTA_LOG_PREFIX]) {
		priv->has_prefix = true;
		nfnl_attr_strlcpy(priv->prefix, tb[NFTA_LOG_PREFIX],
				  sizeof(priv->prefix));
	}
	if (priv->type == LOG_TYPE_NFLOG) {
		priv->group = nfnl_attr_be16(tb[NFTA_LOG_GROUP]);
		if (tb[NFTA_LOG_SNAPLEN]) {
			priv->has_snaplen = true;
			priv->snaplen = nfnl_attr_be32(tb[NFTA_LOG_SNAPLEN]);
		}
		if (tb[NFTA_LOG_QTHRESHOLD])
			priv->qthreshold = nfnl_attr_be16(tb[NFTA_LOG_QTHRESHOLD]);
		return 0;
	}
	priv->level = LOG_LEVEL_WARNING;
	if (tb[NFTA_LOG_LEVEL])
		priv->level = (uint8_t)nfnl_attr_be32(tb[NFTA_LOG_LEVEL]);
	if (priv->level > LOG_LEVEL_AUDIT)
		return -EINVAL;
	if (tb[NFTA_LOG_FLAGS]) {
		priv->logflags = (uint8_t)nfnl_attr_be32(tb[NFTA_LOG_FLAGS]);
		if (priv->logflags & ~LOG_F_MASK)
			return -EINVAL;
	}
	return 0;
}

static void log_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_log *priv = p;

	if (priv->has_prefix)
		nfnl_put_str(b, NFTA_LOG_PREFIX, priv->prefix);
	if (priv->type == LOG_TYPE_SYSLOG) {
		nfnl_put_be32(b, NFTA_LOG_LEVEL, priv->level);
		if (priv->logflags)
			nfnl_put_be32(b, NFTA_LOG_FLAGS, priv->logflags);
		return;
	}
	nfnl_put_be16(b, NFTA_LOG_GROUP, priv->group);
	if (priv->has_snaplen)
		nfnl_put_be32(b, NFTA_LOG_SNAPLEN, priv->snaplen);
	if (priv->qthreshold)
		nfnl_put_be16(b, NFTA_LOG_QTHRESHOLD, priv->qthreshold);
}

const struct nfnl_expr_ops nfnl_expr_log = {
	.type = EXPR_LOG,
	.name = "log",
	.maxattr = NFTA_LOG_MAX,
	.policy = log_policy,
	.parse = log_parse,
	.dump = log_dump,
};
