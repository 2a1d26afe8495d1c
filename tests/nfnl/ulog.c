// SPDX-License-Identifier: GPL-2.0-only
/*
 * ulog.c - nfnetlink_log config validation (nfulnl_recv_config()) and
 * packet batching (nfulnl_log_packet()) of nfnl/ulog.c, without sockets:
 * messages in through nfnl_ulog_rcv(), batches out through
 * nfnl_unicast_hook.
 */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <sys/socket.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_log.h>

#include "nfnl.h"
#include "ruleset_api.h"
#include "dataplane.h"

void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude,
		    const void *data, size_t len)
{
	(void)net; (void)group; (void)exclude; (void)data; (void)len;
}

bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	(void)net; (void)group;
	return false;
}

static struct client a, b;
static struct net *net;
static char buf[4096];
static struct extack ext;

/* what the hook delivered: the last batch, and how many */
static uint8_t sent[1 << 17];
static size_t sent_len;
static uint32_t sent_portid;
static int nsent;

static void hook(struct net *n, uint32_t portid, const void *data, size_t len)
{
	cr_assert_eq(n, net);
	cr_assert_leq(len, sizeof(sent));
	memcpy(sent, data, len);
	sent_len = len;
	sent_portid = portid;
	nsent++;
}

static void setup(void)
{
	net = ruleset_net_alloc();
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.net = b.net = net;
	a.portid = 100;
	b.portid = 200;
	nfnl_unicast_hook = hook;
	nsent = 0;
}

static void teardown(void)
{
	nfnl_ulog_release(&a);
	nfnl_ulog_release(&b);
	cr_assert_null(net->ulog, "every instance gone with its owner");
	ruleset_net_free(net);
	nfnl_unicast_hook = NULL;
}

TestSuite(ulog, .init = setup, .fini = teardown);

static struct nlmsghdr *start(uint8_t type, uint8_t family, uint16_t group)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = NFNL_SUBSYS_ULOG << 8 | type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = family;
	nfg->res_id = htobe16(group);
	return nlh;
}

static int send_(struct client *cl, struct nlmsghdr *nlh)
{
	memset(&ext, 0, sizeof(ext));
	return nfnl_ulog_rcv(cl, nlh, &ext);
}

/* a config message to @group with a command (-1: none) and @extra attrs */
static int cfg(struct client *cl, uint16_t group, int cmd,
	       void (*extra)(struct nlmsghdr *))
{
	struct nlmsghdr *nlh = start(NFULNL_MSG_CONFIG, AF_INET, group);

	if (cmd >= 0)
		mnl_attr_put_u8(nlh, NFULA_CFG_CMD, cmd);
	if (extra)
		extra(nlh);
	return send_(cl, nlh);
}

static void qthresh2(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, NFULA_CFG_QTHRESH, htobe32(2));
}

static void ct_flag(struct nlmsghdr *nlh)
{
	mnl_attr_put_u16(nlh, NFULA_CFG_FLAGS, htobe16(NFULNL_CFG_F_CONNTRACK));
}

static void seq_flags(struct nlmsghdr *nlh)
{
	mnl_attr_put_u16(nlh, NFULA_CFG_FLAGS,
			 htobe16(NFULNL_CFG_F_SEQ | NFULNL_CFG_F_SEQ_GLOBAL));
}

static void short_cmd(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, NFULA_CFG_CMD, 0, NULL);
}

static void short_mode(struct nlmsghdr *nlh)
{
	mnl_attr_put(nlh, NFULA_CFG_MODE, 5, "\0\0\0\0\2");
}

static void short_qthresh(struct nlmsghdr *nlh)
{
	mnl_attr_put_u16(nlh, NFULA_CFG_QTHRESH, 1);
}

static void range3(struct nlmsghdr *nlh)
{
	struct nfulnl_msg_config_mode m = {
		.copy_range = htobe32(3), .copy_mode = NFULNL_COPY_PACKET,
	};

	mnl_attr_put(nlh, NFULA_CFG_MODE, sizeof(m), &m);
}

static void timeout0(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, NFULA_CFG_TIMEOUT, 0);
}

Test(ulog, config_errors_as_nfulnl_recv_config)
{
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_UNBIND, NULL), -ENODEV);
	cr_assert_eq(cfg(&a, 7, -1, qthresh2), -ENODEV);
	cr_assert_eq(cfg(&a, 7, 9, NULL), -524, "unknown command: ENOTSUPP");
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_BIND, NULL), 0);
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_BIND, NULL), -EBUSY);
	cr_assert_eq(cfg(&b, 7, NFULNL_CFG_CMD_BIND, NULL), -EPERM,
		     "another port: EPERM before EBUSY");
	cr_assert_eq(cfg(&b, 7, NFULNL_CFG_CMD_UNBIND, NULL), -EPERM);
	cr_assert_eq(cfg(&b, 7, -1, qthresh2), -EPERM);
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_NONE, NULL), -524);
	cr_assert_eq(cfg(&a, 7, -1, short_cmd), -ERANGE);
	cr_assert_eq(cfg(&a, 7, -1, short_mode), -ERANGE);
	cr_assert_eq(cfg(&a, 7, -1, short_qthresh), -ERANGE);
	cr_assert_eq(cfg(&a, 7, -1, seq_flags), 0);
	cr_assert_eq(cfg(&a, 7, -1, ct_flag), -EOPNOTSUPP);
	cr_assert_not_null(ext.msg, "the conntrack refusal says why");
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_UNBIND, NULL), 0);
	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_UNBIND, NULL), -ENODEV);
	cr_assert_eq(cfg(&b, 7, NFULNL_CFG_CMD_BIND, ct_flag), -EOPNOTSUPP,
		     "flags are checked before the instance is made");
	cr_assert_eq(cfg(&b, 7, -1, NULL), -ENODEV);
}

Test(ulog, pf_bind_and_other_messages)
{
	struct nlmsghdr *nlh = start(NFULNL_MSG_CONFIG, 13, 0);

	mnl_attr_put_u8(nlh, NFULA_CFG_CMD, NFULNL_CFG_CMD_PF_BIND);
	cr_assert_eq(send_(&a, nlh), -EINVAL, "no family 13");
	nlh = start(NFULNL_MSG_CONFIG, AF_INET6, 0);
	mnl_attr_put_u8(nlh, NFULA_CFG_CMD, NFULNL_CFG_CMD_PF_BIND);
	cr_assert_eq(send_(&a, nlh), 0);
	nlh = start(NFULNL_MSG_CONFIG, 200, 0);
	mnl_attr_put_u8(nlh, NFULA_CFG_CMD, NFULNL_CFG_CMD_PF_UNBIND);
	cr_assert_eq(send_(&a, nlh), 0);
	cr_assert_eq(send_(&a, start(NFULNL_MSG_PACKET, AF_INET, 1)), -524);
	cr_assert_eq(send_(&a, start(NFULNL_MSG_MAX, AF_INET, 1)), -EINVAL);
	cr_assert_null(net->ulog, "no instance made");
}

Test(ulog, instances_go_with_their_socket)
{
	cr_assert_eq(cfg(&a, 1, NFULNL_CFG_CMD_BIND, NULL), 0);
	cr_assert_eq(cfg(&a, 2, NFULNL_CFG_CMD_BIND, NULL), 0);
	cr_assert_eq(cfg(&b, 3, NFULNL_CFG_CMD_BIND, NULL), 0);
	nfnl_ulog_release(&a);
	cr_assert_eq(cfg(&b, 1, NFULNL_CFG_CMD_BIND, NULL), 0);
	cr_assert_eq(cfg(&b, 2, NFULNL_CFG_CMD_BIND, NULL), 0);
	cr_assert_eq(cfg(&b, 3, NFULNL_CFG_CMD_BIND, NULL), -EBUSY);
}

static const uint8_t payload[8] = { 0x45, 0, 0, 8, 1, 2, 3, 4 };

static void pkt_init(struct dp_nflog *p, uint16_t group, uint16_t qthreshold)
{
	memset(p, 0, sizeof(*p));
	p->group = group;
	p->qthreshold = qthreshold;
	p->pf = 2;
	p->hook = 3;	/* NF_INET_LOCAL_OUT: no timestamp */
	p->protocol = htobe16(0x0800);
	p->oif = 5;
	p->len = p->caplen = sizeof(payload);
	p->data = payload;
	p->prefix = "p";
}

/* the messages of the last batch: types in @types, returns the count */
static int batch(uint16_t *types, int max)
{
	const struct nlmsghdr *nlh = (const void *)sent;
	int len = (int)sent_len;
	int n = 0;

	while (mnl_nlmsg_ok(nlh, len) && n < max) {
		types[n++] = nlh->nlmsg_type;
		nlh = mnl_nlmsg_next(nlh, &len);
	}
	cr_assert_eq(len, 0, "whole messages only");
	return n;
}

static const struct nlattr *find(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *at;

	mnl_attr_for_each(at, nlh, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(at) == type)
			return at;
	return NULL;
}

Test(ulog, packets_batched_by_threshold_with_done)
{
	struct dp_nflog p;
	uint16_t t[8];
	const struct nlmsghdr *nlh = (const void *)sent;
	const struct nlattr *at;

	pkt_init(&p, 4, 0);
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 0, "no instance: not logged");
	cr_assert_eq(cfg(&a, 4, NFULNL_CFG_CMD_BIND, qthresh2), 0);
	cr_assert_eq(cfg(&a, 4, -1, seq_flags), 0);
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 0, "held for the threshold");
	cr_assert_geq(nfnl_ulog_timeout(), 0, "the flush timer runs");
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 1);
	cr_assert_eq(sent_portid, 100);
	cr_assert_eq(batch(t, 8), 3);
	cr_assert_eq(t[0], NFNL_SUBSYS_ULOG << 8 | NFULNL_MSG_PACKET);
	cr_assert_eq(t[1], NFNL_SUBSYS_ULOG << 8 | NFULNL_MSG_PACKET);
	cr_assert_eq(t[2], NLMSG_DONE);
	cr_assert_eq(nlh->nlmsg_flags, 0);
	cr_assert_eq(nlh->nlmsg_pid, 0);
	cr_assert_eq(nfnl_ulog_timeout(), -1, "flushed: no timer");
	at = find(nlh, NFULA_SEQ);
	cr_assert_not_null(at);
	cr_assert_eq(be32toh(mnl_attr_get_u32(at)), 0);
	at = find(nlh, NFULA_SEQ_GLOBAL);
	cr_assert_not_null(at);
	cr_assert_eq(be32toh(mnl_attr_get_u32(at)), 1);
	at = find(nlh, NFULA_PAYLOAD);
	cr_assert_not_null(at);
	cr_assert_eq(mnl_attr_get_payload_len(at), sizeof(payload));
	cr_assert_null(find(nlh, NFULA_TIMESTAMP), "not at LOCAL_OUT");
	cr_assert_null(find(nlh, NFULA_IFINDEX_INDEV));
	at = find(nlh, NFULA_IFINDEX_OUTDEV);
	cr_assert_not_null(at);
	cr_assert_eq(be32toh(mnl_attr_get_u32(at)), 5);
	at = find(nlh, NFULA_PREFIX);
	cr_assert_not_null(at);
	cr_assert_eq(mnl_attr_get_payload_len(at), 2, "prefix with its NUL");
}

Test(ulog, rule_threshold_range_and_timer)
{
	struct dp_nflog p;
	uint16_t t[8];
	const struct nlmsghdr *nlh = (const void *)sent;
	const struct nlattr *at;

	cr_assert_eq(cfg(&a, 9, NFULNL_CFG_CMD_BIND, range3), 0);
	pkt_init(&p, 9, 1);	/* the rule's threshold 1 beats the 100 */
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 1);
	cr_assert_eq(batch(t, 8), 1, "one message: no NLMSG_DONE");
	at = find(nlh, NFULA_PAYLOAD);
	cr_assert_not_null(at);
	cr_assert_eq(mnl_attr_get_payload_len(at), 3, "the copy range");
	cr_assert_eq(cfg(&a, 9, -1, timeout0), 0);
	pkt_init(&p, 9, 0);
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 1, "held: threshold 100");
	cr_assert_eq(nfnl_ulog_timeout(), 0, "timeout 0: due now");
	nfnl_ulog_run_timers();
	cr_assert_eq(nsent, 2, "the timer flushed it");
	cr_assert_eq(batch(t, 8), 1);
	/* unbind flushes what is pending */
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 2);
	cr_assert_eq(cfg(&a, 9, NFULNL_CFG_CMD_UNBIND, NULL), 0);
	cr_assert_eq(nsent, 3);
}

Test(ulog, nlbufsiz_room_splits_batches)
{
	static uint8_t big[3000];
	struct dp_nflog p;
	uint16_t t[8];

	cr_assert_eq(cfg(&a, 5, NFULNL_CFG_CMD_BIND, NULL), 0);
	pkt_init(&p, 5, 0);
	p.data = big;
	p.len = p.caplen = sizeof(big);
	/* 3776 bytes of room: the second message does not fit */
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 0);
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 1, "the first flushed to make room");
	cr_assert_eq(batch(t, 8), 1);
	nfnl_ulog_run_timers();
}

/* the attribute types of the first message in order, at most @max */
static int attr_order(uint16_t *types, int max)
{
	const struct nlmsghdr *nlh = (const void *)sent;
	const struct nlattr *at;
	int n = 0;

	mnl_attr_for_each(at, nlh, sizeof(struct nfgenmsg))
		if (n < max)
			types[n++] = at->nla_type;
	return n;
}

Test(ulog, bridge_and_netdev_attributes)
{
	static const uint8_t l2[14] = { 2, 0, 0, 0, 0xc, 2, 2, 0, 0, 0, 0xc, 1, 8, 0 };
	static const uint16_t want[] = {
		NFULA_PACKET_HDR, NFULA_PREFIX, NFULA_IFINDEX_PHYSINDEV,
		NFULA_IFINDEX_INDEV, NFULA_IFINDEX_PHYSOUTDEV,
		NFULA_IFINDEX_OUTDEV, NFULA_TIMESTAMP, NFULA_VLAN | NLA_F_NESTED,
		NFULA_L2HDR, NFULA_PAYLOAD,
	};
	const struct nlmsghdr *nlh = (const void *)sent;
	const struct nlattr *at, *in;
	struct dp_nflog p;
	uint16_t t[16];
	int n, i;

	cr_assert_eq(cfg(&a, 7, NFULNL_CFG_CMD_BIND, NULL), 0);
	/* bridge forward (NF_BR_FORWARD: a timestamp): ports 3 -> 4 of
	 * bridge 2; a VLAN tag (proto 0x8100, tci 5); the mac header */
	pkt_init(&p, 7, 1);
	p.pf = 7;
	p.hook = 2;
	p.iif = 3;
	p.br_iif = 2;
	p.oif = 4;
	p.br_oif = 2;
	p.has_l2 = true;
	p.vlan_all = 5u << 16 | htobe16(0x8100);
	p.l2len = sizeof(l2);
	p.l2hdr = l2;
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 1);
	n = attr_order(t, 16);
	cr_assert_eq(n, (int)(sizeof(want) / sizeof(want[0])));
	for (i = 0; i < n; i++)
		cr_assert_eq(t[i], want[i], "attribute %d: %u, want %u", i, t[i], want[i]);
	cr_assert_eq(be32toh(mnl_attr_get_u32(find(nlh, NFULA_IFINDEX_PHYSINDEV))), 3);
	cr_assert_eq(be32toh(mnl_attr_get_u32(find(nlh, NFULA_IFINDEX_INDEV))), 2);
	cr_assert_eq(be32toh(mnl_attr_get_u32(find(nlh, NFULA_IFINDEX_PHYSOUTDEV))), 4);
	cr_assert_eq(be32toh(mnl_attr_get_u32(find(nlh, NFULA_IFINDEX_OUTDEV))), 2);
	at = find(nlh, NFULA_VLAN);
	cr_assert_not_null(at);
	i = 0;
	mnl_attr_for_each_nested(in, at) {
		if (i++ == 0) {
			cr_assert_eq(mnl_attr_get_type(in), NFULA_VLAN_TCI);
			cr_assert_eq(be16toh(mnl_attr_get_u16(in)), 5);
		} else {
			cr_assert_eq(mnl_attr_get_type(in), NFULA_VLAN_PROTO);
			cr_assert_eq(be16toh(mnl_attr_get_u16(in)), 0x8100);
		}
	}
	cr_assert_eq(i, 2);
	at = find(nlh, NFULA_L2HDR);
	cr_assert_eq(mnl_attr_get_payload_len(at), sizeof(l2));
	cr_assert_eq(memcmp(mnl_attr_get_payload(at), l2, sizeof(l2)), 0);

	/* netdev egress: OUTDEV alone, no tag: L2HDR without NFULA_VLAN */
	pkt_init(&p, 7, 1);
	p.pf = 5;
	p.hook = 1;
	p.has_l2 = true;
	p.l2len = sizeof(l2);
	p.l2hdr = l2;
	nfnl_ulog_packet(net, &p);
	cr_assert_eq(nsent, 2);
	cr_assert_null(find(nlh, NFULA_IFINDEX_PHYSOUTDEV));
	cr_assert_eq(be32toh(mnl_attr_get_u32(find(nlh, NFULA_IFINDEX_OUTDEV))), 5);
	cr_assert_null(find(nlh, NFULA_VLAN));
	cr_assert_not_null(find(nlh, NFULA_L2HDR));
	cr_assert_not_null(find(nlh, NFULA_TIMESTAMP), "NF_NETDEV_EGRESS is 1");
}
