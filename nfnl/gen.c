// SPDX-License-Identifier: GPL-2.0-only
/* gen.c - GETGEN and NEWGEN events (nf_tables_getgen, nf_tables_gen_notify). */
#include <errno.h>
#include <string.h>

#include "handlers.h"

void nfnl_gen_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint32_t pid, const char *comm)
{
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event, 0,
				    seq, portid, 0 /* AF_UNSPEC */,
				    nft_res_id(net));

	nfnl_put_be32(b, NFTA_GEN_ID, net->base_seq);
	nfnl_put_be32(b, NFTA_GEN_PROC_PID, pid);
	nfnl_put_str(b, NFTA_GEN_PROC_NAME, comm);
	nfnl_msg_end(b, off);
}

int nfnl_getgen(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	(void)cda;
	nfnl_gen_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
		      ctx->nlh->nlmsg_seq, NFT_MSG_NEWGEN, ctx->cl->pid,
		      ctx->cl->comm);
	return nfnl_reply_end(ctx);
}
