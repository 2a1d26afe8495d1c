// SPDX-License-Identifier: GPL-2.0-only
/*
 * ct_timeout.c - ct timeout objects (nft_ct.c, nft_ct_timeout_obj_type;
 * the policy itself is nfnetlink_cttimeout's ctnl_timeout_parse_policy()).
 */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <netinet/in.h>
#include "nfnl_obj.h"

#define CT_HZ		250u	/* CONFIG_HZ: timeouts are kept in jiffies */
#define L4_GENERIC	255	/* nf_conntrack_l4proto_generic.l4proto */

static const struct attr_policy ct_timeout_policy[NFTA_CT_TIMEOUT_MAX + 1] = {
	[NFTA_CT_TIMEOUT_L3PROTO] = { .kind = ATTR_U16 },
	[NFTA_CT_TIMEOUT_L4PROTO] = { .kind = ATTR_U8 },
	[NFTA_CT_TIMEOUT_DATA] = { .kind = ATTR_NESTED },
};

/* every per-protocol timeout attribute is an NLA_U32 of seconds */
static const struct attr_policy states_policy[OBJ_CT_TIMEOUT_MAX + 1] = {
	[1] = { .kind = ATTR_U32 }, [2] = { .kind = ATTR_U32 },
	[3] = { .kind = ATTR_U32 }, [4] = { .kind = ATTR_U32 },
	[5] = { .kind = ATTR_U32 }, [6] = { .kind = ATTR_U32 },
	[7] = { .kind = ATTR_U32 }, [8] = { .kind = ATTR_U32 },
	[9] = { .kind = ATTR_U32 }, [10] = { .kind = ATTR_U32 },
	[11] = { .kind = ATTR_U32 },
};

/**
 * struct l4_timeouts - the timeout states of one protocol
 * @l4proto: IPPROTO_* (255: generic)
 * @n: states (CTA_TIMEOUT_<PROTO>_MAX)
 * @defaults: the per-netns defaults, seconds, in attribute order
 */
struct l4_timeouts {
	uint8_t l4proto;
	uint32_t n;
	uint32_t defaults[OBJ_CT_TIMEOUT_MAX];
};

static const struct l4_timeouts protos[] = {
	{ IPPROTO_TCP, 11, { 120, 60, 432000, 120, 60, 30, 120, 10, 120, 300, 300 } },
	{ IPPROTO_UDP, 2, { 30, 120 } },
	{ IPPROTO_UDPLITE, 2, { 30, 120 } },
	{ IPPROTO_ICMP, 1, { 30 } },
	{ IPPROTO_ICMPV6, 1, { 30 } },
	{ IPPROTO_GRE, 2, { 30, 180 } },
	{ L4_GENERIC, 1, { 600 } },
};

static int ct_timeout_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			    const struct nlattr **tb)
{
	const struct nlattr *st[OBJ_CT_TIMEOUT_MAX + 1];
	struct obj_ct_timeout *t = &d->ct_timeout;
	const struct l4_timeouts *p = NULL;
	uint32_t i;
	uint16_t l3;
	int err;

	if (!tb[NFTA_CT_TIMEOUT_L4PROTO] || !tb[NFTA_CT_TIMEOUT_DATA])
		return -EINVAL;
	t->l3proto = ctx->family;
	if (tb[NFTA_CT_TIMEOUT_L3PROTO]) {
		memcpy(&l3, (const char *)tb[NFTA_CT_TIMEOUT_L3PROTO] + NLA_HDRLEN, 2);
		t->l3proto = be16toh(l3);
	}
	t->l4proto = nfnl_attr_u8(tb[NFTA_CT_TIMEOUT_L4PROTO]);
	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].l4proto == t->l4proto)
			p = &protos[i];
	if (!p) {
		/* the kernel also knows sctp; nfbpfd does not model it yet */
		if (t->l4proto == IPPROTO_SCTP)
			extack_set(ctx->ext, "nfbpfd: sctp ct timeouts are not "
				   "supported yet", NULL);
		return -EOPNOTSUPP;	/* nf_ct_l4proto_find(): generic */
	}
	err = nfnl_attr_parse_nested(tb[NFTA_CT_TIMEOUT_DATA], p->n, states_policy,
				     st, NULL);
	if (err)
		return err;
	t->n = p->n;
	for (i = 0; i < p->n; i++) {
		/* seconds * HZ in an unsigned int, back to seconds on dump */
		uint32_t jiffies = st[i + 1] ? nfnl_attr_be32(st[i + 1]) * CT_HZ :
					       p->defaults[i] * CT_HZ;

		t->timeouts[i] = jiffies / CT_HZ;
	}
	return nfnl_obj_ct_netns_get(ctx->family);
}

static void ct_timeout_dump(struct nfnl_buf *b, const union obj_data *d)
{
	const struct obj_ct_timeout *t = &d->ct_timeout;
	uint16_t l3 = htobe16(t->l3proto);
	size_t nest;
	uint32_t i;

	nfnl_put_u8(b, NFTA_CT_TIMEOUT_L4PROTO, t->l4proto);
	nfnl_put(b, NFTA_CT_TIMEOUT_L3PROTO, &l3, sizeof(l3));
	nest = nfnl_nest_start_flag(b, NFTA_CT_TIMEOUT_DATA);
	for (i = 0; i < t->n; i++)
		nfnl_put_be32(b, i + 1, t->timeouts[i]);
	nfnl_nest_end(b, nest);
}

const struct nfnl_obj_ops nfnl_obj_ct_timeout = {
	.type = NFT_OBJECT_CT_TIMEOUT,
	.name = "ct timeout",
	.maxattr = NFTA_CT_TIMEOUT_MAX,
	.policy = ct_timeout_policy,
	.parse = ct_timeout_parse,
	.dump = ct_timeout_dump,
};
