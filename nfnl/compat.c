// SPDX-License-Identifier: GPL-2.0-only
/*
 * compat.c - NFNL_SUBSYS_NFT_COMPAT revision queries (nfnl_compat_get_rcu).
 *
 * iptables-nft asks which revision of an xtables match or target exists
 * before it uses one. The answer is a property of the kernel's xtables
 * extension registry, which is global and read-only: nfbpfd asks the
 * kernel's own nft_compat (no ruleset is involved) and relays the answer
 * with the client's port id and sequence number. Rules that then use a
 * match/target expression are refused by nfbpfd until the dataplane can
 * run them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables_compat.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>

#include "handlers.h"

static const struct attr_policy compat_policy[NFTA_COMPAT_MAX + 1] = {
	[NFTA_COMPAT_NAME] = { .kind = ATTR_NUL_STRING, .len = 31 },
	[NFTA_COMPAT_REV] = { .kind = ATTR_U32 },
	[NFTA_COMPAT_TYPE] = { .kind = ATTR_U32 },
};

static struct mnl_socket *kernel_sock;

/* ask_kernel - the best revision of @name, or -errno as xt_find_revision() */
static int ask_kernel(uint8_t family, const char *name, uint32_t rev,
		      uint32_t type, uint32_t *best)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	static uint32_t seq;
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;
	ssize_t n;

	if (!kernel_sock) {
		kernel_sock = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC);
		if (!kernel_sock)
			return -errno;
		if (mnl_socket_bind(kernel_sock, 0, MNL_SOCKET_AUTOPID) < 0) {
			int err = -errno;

			mnl_socket_close(kernel_sock);
			kernel_sock = NULL;
			return err;
		}
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (NFNL_SUBSYS_NFT_COMPAT << 8) | NFNL_MSG_COMPAT_GET;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = family;
	nfg->version = NFNETLINK_V0;
	mnl_attr_put_strz(nlh, NFTA_COMPAT_NAME, name);
	mnl_attr_put_u32(nlh, NFTA_COMPAT_REV, htonl(rev));
	mnl_attr_put_u32(nlh, NFTA_COMPAT_TYPE, htonl(type));
	if (mnl_socket_sendto(kernel_sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(kernel_sock, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		nlh = (struct nlmsghdr *)buf;
		if (!mnl_nlmsg_ok(nlh, n) || nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			return e->error ? e->error : -EIO;
		}
		{
			struct nlattr *a;

			mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
				if (mnl_attr_get_type(a) == NFTA_COMPAT_REV &&
				    mnl_attr_get_payload_len(a) >= 4) {
					*best = ntohl(mnl_attr_get_u32(a));
					return 0;
				}
			}
		}
		return -EIO;
	}
}

int nfnl_compat_get(struct nfnl_ctx *ctx, const struct nlattr **tb)
{
	struct nfnl_buf *b = &ctx->cl->out.buf;
	uint32_t rev, type, best = 0;
	char name[32];
	size_t off;
	int err;

	if (!tb[NFTA_COMPAT_NAME] || !tb[NFTA_COMPAT_REV] || !tb[NFTA_COMPAT_TYPE])
		return -EINVAL;
	switch (ctx->family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_BRIDGE:
	case NFPROTO_ARP:
		break;
	default:
		return -EINVAL;
	}
	nfnl_attr_strlcpy(name, tb[NFTA_COMPAT_NAME], sizeof(name));
	rev = nfnl_attr_be32(tb[NFTA_COMPAT_REV]);
	type = nfnl_attr_be32(tb[NFTA_COMPAT_TYPE]) == 1;
	err = ask_kernel(ctx->family, name, rev, type, &best);
	if (err)
		return err;
	off = nfnl_msg_start(b, (NFNL_SUBSYS_NFT_COMPAT << 8) | NFNL_MSG_COMPAT_GET,
			     0, ctx->nlh->nlmsg_seq, ctx->cl->portid, ctx->family, 0);
	nfnl_put_str(b, NFTA_COMPAT_NAME, name);
	nfnl_put_be32(b, NFTA_COMPAT_REV, best);
	nfnl_put_be32(b, NFTA_COMPAT_TYPE, type);
	nfnl_msg_end(b, off);
	nfnl_out_cut(&ctx->cl->out);
	return b->err;
}

const struct nfnl_cb nfnl_compat_cb = {
	.call = nfnl_compat_get,
	.attr_count = NFTA_COMPAT_MAX,
	.policy = compat_policy,
};
