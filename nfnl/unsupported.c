// SPDX-License-Identifier: GPL-2.0-only
/*
 * unsupported.c - object types nfbpfd does not model yet: stateful
 * objects and flowtables.
 *
 * Creating one is refused with EOPNOTSUPP and a message (never accepted
 * and dropped). Since none can exist, their dumps are truthfully empty and
 * single GETs answer ENOENT, as the kernel does for an absent object; nft
 * needs these dumps to list a ruleset at all.
 */
#include <errno.h>

#include "handlers.h"

int nfnl_unsupported_new(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	static const char *const what[] = {
		[NFT_MSG_NEWOBJ] = "nfbpfd: stateful objects are not supported yet",
		[NFT_MSG_NEWFLOWTABLE] = "nfbpfd: flowtables are not supported yet",
	};
	uint8_t msg = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type);

	(void)cda;
	if (msg < sizeof(what) / sizeof(what[0]) && what[msg])
		extack_set(ctx->ext, what[msg], NULL);
	return -EOPNOTSUPP;
}

int nfnl_unsupported_del(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	(void)ctx;
	(void)cda;
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
