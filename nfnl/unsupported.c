// SPDX-License-Identifier: GPL-2.0-only
/*
 * unsupported.c - flowtables, as a kernel without NF_FLOW_TABLE has them.
 *
 * The reference kernel (6.18, nf_tables built in, no NF_FLOW_TABLE, no
 * modules) registers no flowtable type and no flow_offload expression:
 * NEWFLOWTABLE fails with ENOENT once its table is found
 * (nft_flowtable_type_get()), and a rule with `flow add @ft` fails with
 * ENOENT on its expression (nfnl/rule.c does not know the name either).
 * Nothing is accepted and dropped: the whole batch fails, as with the
 * kernel. Since no flowtable can exist, dumps are truthfully empty and
 * single GETs answer ENOENT; nft needs these dumps to list a ruleset.
 */
#include <errno.h>

#include "handlers.h"
#include "nfnl_compat.h"

/*
 * nfnl_unsupported_new - NEWFLOWTABLE: nf_tables_newflowtable()'s checks up
 * to the flowtable type lookup, which finds none (ENOENT, no bad attribute).
 * The kernel has allocated the flowtable's handle by then, and an aborted
 * batch gives no handle back: later handles in the table count it.
 */
int nfnl_unsupported_new(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	const struct nlattr *table = cda[NFTA_FLOWTABLE_TABLE];
	struct table *t;
	int err;

	if (!table || !cda[NFTA_FLOWTABLE_NAME] || !cda[NFTA_FLOWTABLE_HOOK])
		return -EINVAL;
	err = nfnl_table_find(ctx, table, genmask_next(ctx->net), &t);
	if (err)
		return err;
	t->hgenerator++;	/* the handle is taken before the type lookup */
	return -ENOENT;
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
	struct table *t;
	int err;

	if (!name && !handle)
		return -EINVAL;
	err = nfnl_table_find(ctx, table, genmask_next(ctx->net), &t);
	if (err)
		return err;
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
