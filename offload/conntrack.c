// SPDX-License-Identifier: GPL-2.0-only
/*
 * conntrack.c - conntrack for namespaces whose rules read ct keys.
 *
 * The kernel registers its conntrack hooks in a netns only while something
 * holds nf_ct_netns_get() there (an nft ct expression, an xt conntrack
 * match, a ct object...). A BPF netfilter program cannot take that
 * reference, so without help every packet would look "invalid" to ct state.
 * nfbpfd takes it the cheapest way the kernel offers: a dormant table
 * holding one ct expectation object, with no chain and no rule, so the
 * kernel's nf_tables never sees a packet. One per family (an ip table for
 * IPv4, an ip6 table for IPv6), as the kernel turns conntrack (and its
 * defragmentation) on per family of the tables whose rules use it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <netinet/in.h>
#include <sys/time.h>

#include "offload/offload.h"

#define HOLDER_TABLE	"nfbpf_conntrack"
#define HOLDER_OBJ	"hold"

static int socket_cb(void *arg)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);

	(void)arg;
	return fd < 0 ? -errno : fd;
}

static struct nlmsghdr *msg_put(char *buf, uint16_t type, uint16_t flags,
				uint32_t seq, uint8_t family, uint16_t res_id)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = family;
	g->version = NFNETLINK_V0;
	g->res_id = htons(res_id);
	return nlh;
}

#define NFT_TYPE(m)	((NFNL_SUBSYS_NFTABLES << 8) | (m))

/* the body of the holder's batch: @create = new table + object, else delete */
static void batch_body(struct mnl_nlmsg_batch *b, uint8_t family, bool create,
		       uint32_t seq)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	if (!create) {
		nlh = msg_put(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_DELTABLE),
			      NLM_F_ACK, seq, family, 0);
		mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, HOLDER_TABLE);
		mnl_nlmsg_batch_next(b);
		return;
	}
	nlh = msg_put(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_NEWTABLE),
		      NLM_F_CREATE | NLM_F_ACK, seq, family, 0);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, HOLDER_TABLE);
	mnl_attr_put_u32(nlh, NFTA_TABLE_FLAGS, htonl(NFT_TABLE_F_DORMANT));
	mnl_nlmsg_batch_next(b);

	nlh = msg_put(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_NEWOBJ),
		      NLM_F_CREATE | NLM_F_ACK, seq + 1, family, 0);
	mnl_attr_put_strz(nlh, NFTA_OBJ_TABLE, HOLDER_TABLE);
	mnl_attr_put_strz(nlh, NFTA_OBJ_NAME, HOLDER_OBJ);
	mnl_attr_put_u32(nlh, NFTA_OBJ_TYPE, htonl(NFT_OBJECT_CT_EXPECT));
	nest = mnl_attr_nest_start(nlh, NFTA_OBJ_DATA);
	mnl_attr_put_u16(nlh, NFTA_CT_EXPECT_L3PROTO, htons(family));
	mnl_attr_put_u8(nlh, NFTA_CT_EXPECT_L4PROTO, 6);
	mnl_attr_put_u16(nlh, NFTA_CT_EXPECT_DPORT, htons(1));
	mnl_attr_put_u32(nlh, NFTA_CT_EXPECT_TIMEOUT, htonl(1000));
	mnl_attr_put_u8(nlh, NFTA_CT_EXPECT_SIZE, 1);
	mnl_attr_nest_end(nlh, nest);
	mnl_nlmsg_batch_next(b);
}

/* send one batch in the netns of @ns_fd; 0 or the first error acked */
static int holder_batch(int ns_fd, uint8_t family, bool create)
{
	char buf[2048] __attribute__((aligned(4)));
	struct mnl_nlmsg_batch *b;
	uint32_t seq = (uint32_t)time(NULL);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, ret = 0, nacks = create ? 2 : 1;
	ssize_t n;

	fd = offload_in_netns(ns_fd, socket_cb, NULL);
	if (fd < 0)
		return fd;
	b = mnl_nlmsg_batch_start(buf, sizeof(buf));
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	msg_put(mnl_nlmsg_batch_current(b), NFNL_MSG_BATCH_BEGIN, 0, seq++,
		AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	mnl_nlmsg_batch_next(b);
	batch_body(b, family, create, seq);
	seq += nacks;
	msg_put(mnl_nlmsg_batch_current(b), NFNL_MSG_BATCH_END, 0, seq,
		AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	mnl_nlmsg_batch_next(b);
	if (sendto(fd, mnl_nlmsg_batch_head(b), mnl_nlmsg_batch_size(b), 0,
		   (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		goto out;
	}
	/* the kernel handles the batch inside sendto(): every ack is queued */
	while (nacks > 0 && (n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		int left = (int)n;

		for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
				continue;
			nacks--;
			if (e->error && !ret)
				ret = e->error;
		}
	}
	if (nacks > 0 && !ret)
		ret = -EIO;
out:
	mnl_nlmsg_batch_stop(b);
	close(fd);
	return ret;
}

int offload_conntrack_enable(int ns_fd, uint8_t family)
{
	return holder_batch(ns_fd, family, true);
}

void offload_conntrack_disable(int ns_fd, uint8_t family)
{
	(void)holder_batch(ns_fd, family, false);
}

/* write "1" to the accounting sysctl of this thread's netns */
static int acct_cb(void *arg)
{
	int fd = open("/proc/sys/net/netfilter/nf_conntrack_acct",
		      O_WRONLY | O_CLOEXEC), ret = 0;

	(void)arg;
	if (fd < 0)
		return -errno;
	if (write(fd, "1\n", 2) != 2)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

int offload_conntrack_acct(int ns_fd)
{
	return offload_in_netns(ns_fd, acct_cb, NULL);
}

int offload_conntrack_socket(int ns_fd)
{
	int fd = offload_in_netns(ns_fd, socket_cb, NULL);
	struct timeval tv = { .tv_sec = 1 };

	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* the tuple's nests: addresses, then protocol and its ports or ICMP keys */
static void tuple_put(struct nlmsghdr *nlh, const struct offload_ct_tuple *off,
		      const uint8_t *t, uint8_t family)
{
	struct nlattr *tup = mnl_attr_nest_start(nlh, CTA_TUPLE_ORIG);
	struct nlattr *n = mnl_attr_nest_start(nlh, CTA_TUPLE_IP);
	uint8_t proto = t[off->protonum];
	uint16_t sp, dp;

	if (family == AF_INET) {
		mnl_attr_put(nlh, CTA_IP_V4_SRC, 4, t + off->src_u3);
		mnl_attr_put(nlh, CTA_IP_V4_DST, 4, t + off->dst_u3);
	} else {
		mnl_attr_put(nlh, CTA_IP_V6_SRC, 16, t + off->src_u3);
		mnl_attr_put(nlh, CTA_IP_V6_DST, 16, t + off->dst_u3);
	}
	mnl_attr_nest_end(nlh, n);
	n = mnl_attr_nest_start(nlh, CTA_TUPLE_PROTO);
	mnl_attr_put_u8(nlh, CTA_PROTO_NUM, proto);
	memcpy(&sp, t + off->src_u, 2);	/* network order, as the kernel keeps them */
	memcpy(&dp, t + off->dst_u, 2);
	switch (proto) {
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		/* src.u.icmp.id; dst.u.icmp.type, code */
		mnl_attr_put_u16(nlh, proto == IPPROTO_ICMP ? CTA_PROTO_ICMP_ID :
				 CTA_PROTO_ICMPV6_ID, sp);
		mnl_attr_put_u8(nlh, proto == IPPROTO_ICMP ? CTA_PROTO_ICMP_TYPE :
				CTA_PROTO_ICMPV6_TYPE, t[off->dst_u]);
		mnl_attr_put_u8(nlh, proto == IPPROTO_ICMP ? CTA_PROTO_ICMP_CODE :
				CTA_PROTO_ICMPV6_CODE, t[off->dst_u + 1]);
		break;
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		mnl_attr_put_u16(nlh, CTA_PROTO_SRC_PORT, sp);
		mnl_attr_put_u16(nlh, CTA_PROTO_DST_PORT, dp);
		break;
	default:
		break;
	}
	mnl_attr_nest_end(nlh, n);
	mnl_attr_nest_end(nlh, tup);
}

/* the TCP state in a CTA_PROTOINFO nest, 0xff if none */
static uint8_t tcp_state_of(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *b, *c;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) != CTA_PROTOINFO)
			continue;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) != CTA_PROTOINFO_TCP)
				continue;
			mnl_attr_for_each_nested(c, b)
				if (mnl_attr_get_type(c) == CTA_PROTOINFO_TCP_STATE &&
				    mnl_attr_get_payload_len(c) >= 1)
					return mnl_attr_get_u8(c);
		}
	}
	return 0xff;
}

int offload_conntrack_get(int fd, const struct offload_ct_tuple *off,
			  const uint8_t *tuple, uint16_t zone_id,
			  uint8_t *tcp_state)
{
	char buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	static uint32_t seq;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *nlh;
	uint16_t l3num;
	uint32_t myseq = ++seq;
	ssize_t n;

	memcpy(&l3num, tuple + off->l3num, 2);
	if (l3num != AF_INET && l3num != AF_INET6)
		return -EAFNOSUPPORT;
	nlh = msg_put(buf, (NFNL_SUBSYS_CTNETLINK << 8) | IPCTNL_MSG_CT_GET,
		      NLM_F_ACK, myseq, (uint8_t)l3num, 0);
	tuple_put(nlh, off, tuple, (uint8_t)l3num);
	if (zone_id)
		mnl_attr_put_u16(nlh, CTA_ZONE, htons(zone_id));
	if (sendto(fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	*tcp_state = 0xff;
	/* the conntrack (then an ack), or an error ack */
	for (;;) {
		int left, found = 0;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		left = (int)n;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			const struct nlmsgerr *e;

			if (nlh->nlmsg_seq != myseq)
				continue;	/* an answer to an earlier question */
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				e = mnl_nlmsg_get_payload(nlh);
				if (e->error == -ENOENT)
					return 0;
				return e->error ? e->error : 1;
			}
			if (nlh->nlmsg_type == NLMSG_DONE)
				return found;
			if ((nlh->nlmsg_type & 0xff) == IPCTNL_MSG_CT_NEW) {
				*tcp_state = tcp_state_of(nlh);
				found = 1;
			}
		}
		if (found)
			return 1;
	}
}
