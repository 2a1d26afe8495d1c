// SPDX-License-Identifier: GPL-2.0-only
/*
 * unsupported.c - object types nfbpfd does not model yet: flowtables.
 *
 * Creating one is refused with EOPNOTSUPP and a message (never accepted
 * and dropped). Since none can exist, their dumps are truthfully empty and
 * single GETs answer ENOENT, as the kernel does for an absent object; nft
 * needs these dumps to list a ruleset at all.
 */
#include <errno.h>

#include "handlers.h"
#include "nfnl_compat.h"

int nfnl_unsupported_new(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	static const char *const what[] = {
		[NFT_MSG_NEWFLOWTABLE] = "nfbpfd: flowtables are not supported yet",
	};
	uint8_t msg = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type);

	(void)cda;
	if (msg < sizeof(what) / sizeof(what[0]) && what[msg])
		extack_set(ctx->ext, what[msg], NULL);
	return -EOPNOTSUPP;
}

/*
 * nfnl_unsupported_del - DELFLOWTABLE (and DESTROY): none can exist, so
 * after the kernel's own checks the answer is ENOENT on the attribute that
 * named the flowtable (nf_tables_delflowtable).
 */
int nfnl_unsupported_del(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYFLOWTABLE;
	const struct nlattr *table = cda[NFTA_FLOWTABLE_TABLE];
	const struct nlattr *name = cda[NFTA_FLOWTABLE_NAME];
	const struct nlattr *handle = cda[NFTA_FLOWTABLE_HANDLE];

	if (!name && !handle)
		return -EINVAL;
	if (!nfnl_table_get(ctx, table, genmask_next(ctx->net))) {
		extack_set(ctx->ext, NULL, table);
		return table ? -ENOENT : -EINVAL;
	}
	if (destroy)
		return 0;
	extack_set(ctx->ext, NULL, handle ? handle : name);
	return -ENOENT;
}

int nfnl_unsupported_get(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	(void)ctx;
	(void)cda;
	return -ENOENT;
}

int nfnl_unsupported_dump(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	(void)ctx;
	(void)cda;
	return 0;
}
