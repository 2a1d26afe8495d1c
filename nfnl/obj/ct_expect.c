// SPDX-License-Identifier: GPL-2.0-only
/* ct_expect.c - ct expectation objects (nft_ct.c, nft_ct_expect_obj_type). */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include "nfnl_obj.h"

static const struct attr_policy ct_expect_policy[NFTA_CT_EXPECT_MAX + 1] = {
	[NFTA_CT_EXPECT_L3PROTO] = { .kind = ATTR_U16 },
	[NFTA_CT_EXPECT_L4PROTO] = { .kind = ATTR_U8 },
	[NFTA_CT_EXPECT_DPORT] = { .kind = ATTR_U16 },
	[NFTA_CT_EXPECT_TIMEOUT] = { .kind = ATTR_U32 },
	[NFTA_CT_EXPECT_SIZE] = { .kind = ATTR_U8 },
};

static int ct_expect_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			   const struct nlattr **tb)
{
	struct obj_ct_expect *x = &d->ct_expect;
	uint16_t l3;

	if (!tb[NFTA_CT_EXPECT_L4PROTO] || !tb[NFTA_CT_EXPECT_DPORT] ||
	    !tb[NFTA_CT_EXPECT_TIMEOUT] || !tb[NFTA_CT_EXPECT_SIZE])
		return -EINVAL;
	x->l3proto = ctx->family;
	if (tb[NFTA_CT_EXPECT_L3PROTO]) {
		memcpy(&l3, (const char *)tb[NFTA_CT_EXPECT_L3PROTO] + NLA_HDRLEN, 2);
		x->l3proto = be16toh(l3);
	}
	switch (x->l3proto) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
		if (x->l3proto == ctx->family || ctx->family == NFPROTO_INET)
			break;
		return -EINVAL;
	default:	/* NFPROTO_INET too: a tuple is IPv4 or IPv6 */
		return -EAFNOSUPPORT;
	}
	x->l4proto = nfnl_attr_u8(tb[NFTA_CT_EXPECT_L4PROTO]);
	switch (x->l4proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_DCCP:
	case IPPROTO_SCTP:
		break;
	default:
		return -EOPNOTSUPP;
	}
	memcpy(&x->dport, (const char *)tb[NFTA_CT_EXPECT_DPORT] + NLA_HDRLEN, 2);
	/* nla_get_u32(): host order, unlike every other nf_tables u32 */
	memcpy(&x->timeout, (const char *)tb[NFTA_CT_EXPECT_TIMEOUT] + NLA_HDRLEN, 4);
	x->size = nfnl_attr_u8(tb[NFTA_CT_EXPECT_SIZE]);
	return nfnl_obj_ct_netns_get(ctx->family);
}

static void ct_expect_dump(struct nfnl_buf *b, const union obj_data *d)
{
	const struct obj_ct_expect *x = &d->ct_expect;
	uint16_t l3 = htobe16(x->l3proto);

	nfnl_put(b, NFTA_CT_EXPECT_L3PROTO, &l3, sizeof(l3));
	nfnl_put_u8(b, NFTA_CT_EXPECT_L4PROTO, x->l4proto);
	nfnl_put(b, NFTA_CT_EXPECT_DPORT, &x->dport, sizeof(x->dport));
	nfnl_put(b, NFTA_CT_EXPECT_TIMEOUT, &x->timeout, sizeof(x->timeout));
	nfnl_put_u8(b, NFTA_CT_EXPECT_SIZE, x->size);
}

const struct nfnl_obj_ops nfnl_obj_ct_expect = {
	.type = NFT_OBJECT_CT_EXPECT,
	.name = "ct expectation",
	.maxattr = NFTA_CT_EXPECT_MAX,
	.policy = ct_expect_policy,
	.parse = ct_expect_parse,
	.dump = ct_expect_dump,
};
