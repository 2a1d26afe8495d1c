// SPDX-License-Identifier: GPL-2.0-only
/*
 * ulog.c - NFNL_SUBSYS_ULOG, as the kernel's nfnetlink_log: listeners bind
 * groups with NFULNL_MSG_CONFIG, and the packets the dataplane logs with
 * `log group N` / xt NFLOG (struct dp_nflog, from the log ring buffer) go
 * to the group's listener as NFULNL_MSG_PACKET messages, batched as
 * nfulnl_log_packet() batches them: up to the queue threshold, the room of
 * a buffer of the instance's nlbufsiz (kmalloc-rounded as the skb the
 * kernel allocates), or the flush timeout.
 *
 * Instances are per namespace, keyed by group, owned by the port id that
 * bound them, and gone when that socket closes (nfnl_ulog_release()). The
 * namespace's programs log NFLOG packets of bound groups only (its
 * nflog_bound bitmap, dataplane_nflog_sync()), as the kernel builds
 * nothing for a group without an instance.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <endian.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink_log.h>

#include "handlers.h"
#include "dataplane.h"
#include "nfbpf/list.h"

#define NFULNL_COPY_DISABLED	0xff
#define NLMSG_GOODSIZE_		3776	/* 4096 - the skb_shared_info */
#define NFULNL_NLBUFSIZ_MAX	131072
#define NFULNL_TIMEOUT_DEFAULT	100	/* 1/100 s */
#define NFULNL_QTHRESH_DEFAULT	100
#define NFULNL_COPY_RANGE_MAX	(0xffff - NLA_HDRLEN)
#define NFPROTO_NUMPROTO_	13
#define ENOTSUPP_		524	/* the kernel's ENOTSUPP */
#define SHINFO_SIZE		320	/* SKB_DATA_ALIGN(struct skb_shared_info) */

void (*nfnl_unicast_hook)(struct net *net, uint32_t portid, const void *data,
			  size_t len);

/**
 * struct ulog_inst - struct nfulnl_instance
 * @list: in struct ulog_net.insts
 * @un: its namespace's state
 * @group: group number
 * @portid: owner
 * @copy_mode: NFULNL_COPY_*
 * @copy_range: bytes of payload
 * @flushtimeout: 1/100 s
 * @nlbufsiz: buffer size asked for
 * @qthreshold: messages per batch
 * @flags: NFULNL_CFG_F_*
 * @seq: NFULA_SEQ counter
 * @skb: the batch being built (@has_skb)
 * @tailroom: its room left, as the kernel's skb_tailroom()
 * @qlen: messages in it
 * @deadline: CLOCK_MONOTONIC ms of the flush timer, with @timer
 */
struct ulog_inst {
	struct list_head list;
	struct ulog_net *un;
	uint16_t group;
	uint32_t portid;
	uint8_t copy_mode;
	uint32_t copy_range;
	uint32_t flushtimeout;
	uint32_t nlbufsiz;
	uint32_t qthreshold;
	uint16_t flags;
	uint32_t seq;
	struct nfnl_buf skb;
	bool has_skb;
	size_t tailroom;
	unsigned int qlen;
	bool timer;
	uint64_t deadline;
};

/**
 * struct ulog_net - struct nfnl_log_net of one namespace
 * @list: in ulog_nets
 * @net: the namespace (its ->ulog points back)
 * @insts: instances
 * @global_seq: NFULA_SEQ_GLOBAL counter
 */
struct ulog_net {
	struct list_head list;
	struct net *net;
	struct list_head insts;
	uint32_t global_seq;
};

static struct list_head ulog_nets = { &ulog_nets, &ulog_nets };

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct ulog_inst *inst_lookup(const struct ulog_net *un, uint16_t group)
{
	struct ulog_inst *inst;

	if (!un)
		return NULL;
	list_for_each_entry(inst, &un->insts, list)
		if (inst->group == group)
			return inst;
	return NULL;
}

static size_t nla_total(size_t n)
{
	return NLA_ALIGN(NLA_HDRLEN + n);
}

/*
 * alloc_tailroom - skb_tailroom() of alloc_skb(@n): the data area is
 * SKB_DATA_ALIGN(@n) plus the shared info, rounded up by kmalloc (its
 * size classes up to 8 KiB, whole page orders above)
 */
static size_t alloc_tailroom(size_t n)
{
	static const size_t classes[] = { 4096, 8192 };
	size_t obj = ((n + 63) & ~(size_t)63) + SHINFO_SIZE, r = 16384;
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (obj <= classes[i])
			return classes[i] - SHINFO_SIZE;
	while (r < obj)
		r <<= 1;
	return r - SHINFO_SIZE;
}

/* __nfulnl_send() / __nfulnl_flush(): the batch to its owner */
static void inst_flush(struct ulog_inst *inst)
{
	inst->timer = false;
	if (!inst->has_skb)
		return;
	if (inst->qlen > 1) {
		size_t off = nfnl_msg_start(&inst->skb, NLMSG_DONE, 0, 0, 0,
					    AF_UNSPEC, inst->group);

		nfnl_msg_end(&inst->skb, off);
	}
	if (!inst->skb.err && nfnl_unicast_hook)
		nfnl_unicast_hook(inst->un->net, inst->portid, inst->skb.data,
				  inst->skb.len);
	nfnl_buf_fini(&inst->skb);
	inst->has_skb = false;
	inst->qlen = 0;
}

static void un_put(struct ulog_net *un)
{
	if (!list_empty(&un->insts))
		return;
	un->net->ulog = NULL;
	list_del(&un->list);
	free(un);
}

/* the dataplane logs to groups with an instance only */
static int set_bound(struct net *net, uint16_t group, bool bound)
{
	if (!net->nflog_bound) {
		net->nflog_bound = calloc(1, NFLOG_GROUPS / 8);
		if (!net->nflog_bound)
			return -ENOMEM;
	}
	if (bound)
		net->nflog_bound[group / 8] |= (uint8_t)(1u << (group % 8));
	else
		net->nflog_bound[group / 8] &= (uint8_t)~(1u << (group % 8));
	return dataplane_nflog_sync(net);
}

/* __instance_destroy(): pending messages are flushed first */
static void inst_destroy(struct ulog_inst *inst)
{
	struct ulog_net *un = inst->un;

	set_bound(un->net, inst->group, false);
	list_del(&inst->list);
	inst_flush(inst);
	free(inst);
	un_put(un);
}

static struct ulog_inst *inst_create(struct net *net, uint16_t group,
				     uint32_t portid)
{
	struct ulog_net *un = net->ulog;
	struct ulog_inst *inst;

	if (!un) {
		un = calloc(1, sizeof(*un));
		if (!un)
			return NULL;
		un->net = net;
		list_init(&un->insts);
		list_add_tail(&un->list, &ulog_nets);
		net->ulog = un;
	}
	inst = calloc(1, sizeof(*inst));
	if (!inst) {
		un_put(un);
		return NULL;
	}
	inst->un = un;
	inst->group = group;
	inst->portid = portid;
	inst->qthreshold = NFULNL_QTHRESH_DEFAULT;
	inst->flushtimeout = NFULNL_TIMEOUT_DEFAULT;
	inst->nlbufsiz = NLMSG_GOODSIZE_;
	inst->copy_mode = NFULNL_COPY_PACKET;
	inst->copy_range = NFULNL_COPY_RANGE_MAX;
	list_add(&inst->list, &un->insts);
	if (set_bound(net, group, true)) {
		inst_destroy(inst);
		return NULL;
	}
	return inst;
}

/* nfulnl_set_mode(): its -EINVAL is not reported to the sender */
static void inst_set_mode(struct ulog_inst *inst, uint8_t mode, uint32_t range)
{
	switch (mode) {
	case NFULNL_COPY_NONE:
	case NFULNL_COPY_META:
		inst->copy_mode = mode;
		inst->copy_range = 0;
		break;
	case NFULNL_COPY_PACKET:
		inst->copy_mode = mode;
		if (!range)
			range = NFULNL_COPY_RANGE_MAX;
		inst->copy_range = range < NFULNL_COPY_RANGE_MAX ? range :
				   NFULNL_COPY_RANGE_MAX;
		break;
	}
}

const struct attr_policy nfnl_ulog_cfg_policy[NFULA_CFG_MAX + 1] = {
	[NFULA_CFG_CMD] = { .kind = ATTR_MINLEN,
			    .len = sizeof(struct nfulnl_msg_config_cmd) },
	[NFULA_CFG_MODE] = { .kind = ATTR_MINLEN,
			     .len = sizeof(struct nfulnl_msg_config_mode) },
	[NFULA_CFG_TIMEOUT] = { .kind = ATTR_U32 },
	[NFULA_CFG_QTHRESH] = { .kind = ATTR_U32 },
	[NFULA_CFG_NLBUFSIZ] = { .kind = ATTR_U32 },
	/* NLA_U16 up to 6.18 (later kernels refuse unknown bits with
	 * NLA_POLICY_MASK); unknown bits are kept and mean nothing */
	[NFULA_CFG_FLAGS] = { .kind = ATTR_U16 },
};

/* nfulnl_recv_config() */
static int ulog_config(struct nfnl_ctx *ctx, const struct nlattr **cda,
		       uint16_t group)
{
	uint32_t portid = ctx->cl->portid;
	struct ulog_inst *inst;
	uint16_t flags = 0;
	int cmd = -1;

	if (cda[NFULA_CFG_CMD]) {
		cmd = *((const uint8_t *)cda[NFULA_CFG_CMD] + NLA_HDRLEN);
		/* commands without an instance: nf_log_bind_pf() finds
		 * nfnetlink_log for every family, it registers for all */
		switch (cmd) {
		case NFULNL_CFG_CMD_PF_BIND:
			return ctx->family >= NFPROTO_NUMPROTO_ ? -EINVAL : 0;
		case NFULNL_CFG_CMD_PF_UNBIND:
			return 0;
		}
	}
	inst = inst_lookup(ctx->net->ulog, group);
	if (inst && inst->portid != portid)
		return -EPERM;
	if (cda[NFULA_CFG_FLAGS]) {
		flags = nfnl_attr_be16(cda[NFULA_CFG_FLAGS]);
		if (flags & NFULNL_CFG_F_CONNTRACK) {
			extack_set(ctx->ext, "NFULNL_CFG_F_CONNTRACK (conntrack in NFLOG messages) is not supported by nfbpfd",
				   cda[NFULA_CFG_FLAGS]);
			return -EOPNOTSUPP;
		}
	}
	if (cmd >= 0) {
		switch (cmd) {
		case NFULNL_CFG_CMD_BIND:
			if (inst)
				return -EBUSY;
			inst = inst_create(ctx->net, group, portid);
			if (!inst)
				return -ENOMEM;
			break;
		case NFULNL_CFG_CMD_UNBIND:
			if (!inst)
				return -ENODEV;
			inst_destroy(inst);
			return 0;
		default:
			return -ENOTSUPP_;
		}
	} else if (!inst) {
		return -ENODEV;
	}
	if (cda[NFULA_CFG_MODE]) {
		const uint8_t *m = (const uint8_t *)cda[NFULA_CFG_MODE] + NLA_HDRLEN;
		uint32_t range;

		memcpy(&range, m, 4);
		inst_set_mode(inst, m[4], be32toh(range));
	}
	if (cda[NFULA_CFG_TIMEOUT])
		inst->flushtimeout = nfnl_attr_be32(cda[NFULA_CFG_TIMEOUT]);
	if (cda[NFULA_CFG_NLBUFSIZ]) {
		uint32_t n = nfnl_attr_be32(cda[NFULA_CFG_NLBUFSIZ]);

		/* nfulnl_set_nlbufsiz(): its -ERANGE is not reported */
		if (n >= NLMSG_GOODSIZE_ && n <= NFULNL_NLBUFSIZ_MAX)
			inst->nlbufsiz = n;
	}
	if (cda[NFULA_CFG_QTHRESH])
		inst->qthreshold = nfnl_attr_be32(cda[NFULA_CFG_QTHRESH]);
	if (cda[NFULA_CFG_FLAGS])
		inst->flags = flags;
	return 0;
}

int nfnl_ulog_rcv(struct client *cl, const struct nlmsghdr *nlh,
		  struct extack *ext)
{
	const struct nfgenmsg *nfg = (const void *)((const char *)nlh + NLMSG_HDRLEN);
	size_t min = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	const struct nlattr *cda[NFULA_CFG_MAX + 1];
	struct nfnl_ctx ctx = {
		.cl = cl, .net = cl->net, .nlh = nlh,
		.family = nfg->nfgen_family, .ext = ext,
	};
	int err;

	switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
	case NFULNL_MSG_PACKET:
		/* nfulnl_recv_unsupp(), no policy to check */
		return -ENOTSUPP_;
	case NFULNL_MSG_CONFIG:
		err = nfnl_attr_parse((const char *)nlh + min,
				      nlh->nlmsg_len > min ? nlh->nlmsg_len - min : 0,
				      NFULA_CFG_MAX, nfnl_ulog_cfg_policy, cda, ext);
		if (err)
			return err;
		return ulog_config(&ctx, cda, be16toh(nfg->res_id));
	default:
		return -EINVAL;
	}
}

void nfnl_ulog_release(struct client *cl)
{
	struct ulog_net *un = cl->net ? cl->net->ulog : NULL;
	struct ulog_inst *inst, *tmp;

	if (!un)
		return;
	list_for_each_entry_safe(inst, tmp, &un->insts, list) {
		if (inst->portid != cl->portid)
			continue;
		/* the owner is going: un goes with its last instance */
		if (inst->list.next == &un->insts && inst->list.prev == &un->insts) {
			inst_destroy(inst);
			return;
		}
		inst_destroy(inst);
	}
}

/* __build_packet_message(): one NFULNL_MSG_PACKET at the end of the batch */
static void build_packet(struct ulog_inst *inst, const struct dp_nflog *pkt,
			 size_t plen, uint32_t data_len)
{
	struct nfnl_buf *b = &inst->skb;
	uint8_t hdr[4];
	size_t off;

	off = nfnl_msg_start(b, NFNL_SUBSYS_ULOG << 8 | NFULNL_MSG_PACKET, 0, 0,
			     0, pkt->pf, inst->group);
	memcpy(hdr, &pkt->protocol, 2);
	hdr[2] = pkt->hook;
	hdr[3] = 0;
	nfnl_put(b, NFULA_PACKET_HDR, hdr, sizeof(hdr));
	nfnl_put(b, NFULA_PREFIX, pkt->prefix, plen);
	/* CONFIG_BRIDGE_NETFILTER: the bridge family names the port as the
	 * physical device and its bridge device as the device */
	if (pkt->iif && pkt->pf == NFPROTO_BRIDGE) {
		nfnl_put_be32(b, NFULA_IFINDEX_PHYSINDEV, pkt->iif);
		nfnl_put_be32(b, NFULA_IFINDEX_INDEV, pkt->br_iif);
	} else if (pkt->iif) {
		nfnl_put_be32(b, NFULA_IFINDEX_INDEV, pkt->iif);
	}
	if (pkt->oif && pkt->pf == NFPROTO_BRIDGE) {
		nfnl_put_be32(b, NFULA_IFINDEX_PHYSOUTDEV, pkt->oif);
		nfnl_put_be32(b, NFULA_IFINDEX_OUTDEV, pkt->br_oif);
	} else if (pkt->oif) {
		nfnl_put_be32(b, NFULA_IFINDEX_OUTDEV, pkt->oif);
	}
	if (pkt->mark)
		nfnl_put_be32(b, NFULA_MARK, pkt->mark);
	if (pkt->iif && pkt->has_hw && pkt->hwaddr_len) {
		struct nfulnl_msg_packet_hw phw;

		memset(&phw, 0, sizeof(phw));
		phw.hw_addrlen = htobe16(pkt->hwaddr_len);
		memcpy(phw.hw_addr, pkt->hwaddr, pkt->hwaddr_len);
		nfnl_put(b, NFULA_HWADDR, &phw, sizeof(phw));
	}
	if (pkt->iif && pkt->has_hw) {
		nfnl_put_be16(b, NFULA_HWTYPE, pkt->hwtype);
		nfnl_put_be16(b, NFULA_HWLEN, pkt->hwlen);
		if (pkt->hwheader)
			nfnl_put(b, NFULA_HWHEADER, pkt->hwheader, pkt->hwlen);
	}
	if (pkt->hook <= 2 /* NF_INET_FORWARD */) {
		struct nfulnl_msg_packet_timestamp ts;

		ts.sec = htobe64(pkt->tstamp_ns / 1000000000u);
		ts.usec = htobe64(pkt->tstamp_ns % 1000000000u / 1000);
		nfnl_put(b, NFULA_TIMESTAMP, &ts, sizeof(ts));
	}
	if (pkt->has_uid) {
		nfnl_put_be32(b, NFULA_UID, pkt->uid);
		nfnl_put_be32(b, NFULA_GID, pkt->gid);
	}
	if (inst->flags & NFULNL_CFG_F_SEQ)
		nfnl_put_be32(b, NFULA_SEQ, inst->seq++);
	if (inst->flags & NFULNL_CFG_F_SEQ_GLOBAL)
		nfnl_put_be32(b, NFULA_SEQ_GLOBAL, ++inst->un->global_seq);
	if (pkt->has_l2 && (pkt->vlan_all || pkt->l2hdr)) {
		/* nfulnl_put_bridge() */
		if (pkt->vlan_all) {
			uint16_t proto = (uint16_t)(pkt->vlan_all & 0xffff);
			size_t nest = nfnl_nest_start(b, NFULA_VLAN | NLA_F_NESTED);

			nfnl_put_be16(b, NFULA_VLAN_TCI, pkt->vlan_all >> 16);
			nfnl_put(b, NFULA_VLAN_PROTO, &proto, sizeof(proto));
			nfnl_nest_end(b, nest);
		}
		if (pkt->l2hdr)
			nfnl_put(b, NFULA_L2HDR, pkt->l2hdr, pkt->l2len);
	}
	if (data_len)
		nfnl_put(b, NFULA_PAYLOAD, pkt->data, data_len);
	nfnl_msg_end(b, off);
}

/* nfulnl_log_packet() */
void nfnl_ulog_packet(struct net *net, const struct dp_nflog *pkt)
{
	struct ulog_inst *inst = inst_lookup(net ? net->ulog : NULL, pkt->group);
	size_t plen, size, before;
	uint32_t data_len = 0, qthreshold;

	if (!inst)
		return;
	plen = strlen(pkt->prefix) + 1;
	size = NLMSG_ALIGN(NLMSG_HDRLEN + sizeof(struct nfgenmsg)) +
	       nla_total(sizeof(struct nfulnl_msg_packet_hdr)) +
	       4 * nla_total(sizeof(uint32_t)) +	/* ifindexes, bridge too */
	       nla_total(sizeof(uint32_t)) +		/* mark */
	       2 * nla_total(sizeof(uint32_t)) +	/* uid, gid */
	       nla_total(plen) +
	       nla_total(sizeof(struct nfulnl_msg_packet_hw)) +
	       nla_total(sizeof(struct nfulnl_msg_packet_timestamp)) +
	       NLMSG_ALIGN(NLMSG_HDRLEN + sizeof(struct nfgenmsg));	/* DONE */
	if (pkt->iif && pkt->has_hw)
		size += nla_total(pkt->hwlen) + 2 * nla_total(sizeof(uint16_t));
	if (pkt->has_l2)	/* nfulnl_get_bridge_size() */
		size += (pkt->vlan_all ? nla_total(0) + 2 * nla_total(sizeof(uint16_t)) : 0) +
			nla_total(pkt->l2len);
	if (inst->flags & NFULNL_CFG_F_SEQ)
		size += nla_total(sizeof(uint32_t));
	if (inst->flags & NFULNL_CFG_F_SEQ_GLOBAL)
		size += nla_total(sizeof(uint32_t));
	qthreshold = inst->qthreshold;
	/* the rule's queue threshold overrides a larger instance's */
	if (pkt->qthreshold && qthreshold > pkt->qthreshold)
		qthreshold = pkt->qthreshold;
	switch (inst->copy_mode) {
	case NFULNL_COPY_META:
	case NFULNL_COPY_NONE:
		break;
	case NFULNL_COPY_PACKET:
		/* the record holds min(skb->len, the rule's snaplen) */
		data_len = inst->copy_range < pkt->caplen ? inst->copy_range :
							    pkt->caplen;
		size += nla_total(data_len);
		break;
	default:
		return;
	}
	if (inst->has_skb && size > inst->tailroom)
		inst_flush(inst);
	if (!inst->has_skb) {
		inst->tailroom = alloc_tailroom(inst->nlbufsiz > size ?
						inst->nlbufsiz : size);
		inst->has_skb = true;
	}
	inst->qlen++;
	before = inst->skb.len;
	build_packet(inst, pkt, plen, data_len);
	inst->tailroom -= inst->skb.len - before < inst->tailroom ?
			  inst->skb.len - before : inst->tailroom;
	if (inst->qlen >= qthreshold) {
		inst_flush(inst);
	} else if (!inst->timer) {
		inst->timer = true;
		inst->deadline = now_ms() + (uint64_t)inst->flushtimeout * 10;
	}
}

int nfnl_ulog_timeout(void)
{
	struct ulog_net *un;
	struct ulog_inst *inst;
	uint64_t now = now_ms(), best = UINT64_MAX;

	list_for_each_entry(un, &ulog_nets, list)
		list_for_each_entry(inst, &un->insts, list)
			if (inst->timer && inst->deadline < best)
				best = inst->deadline;
	if (best == UINT64_MAX)
		return -1;
	return best <= now ? 0 : (best - now > 60000 ? 60000 : (int)(best - now));
}

void nfnl_ulog_run_timers(void)
{
	struct ulog_net *un;
	struct ulog_inst *inst;
	uint64_t now = now_ms();

	list_for_each_entry(un, &ulog_nets, list)
		list_for_each_entry(inst, &un->insts, list)
			if (inst->timer && inst->deadline <= now)
				inst_flush(inst);	/* nfulnl_timer() */
}
