// SPDX-License-Identifier: GPL-2.0-only
/* ct_helper.c - ct helper objects (nft_ct.c, nft_ct_helper_obj_type). */
#include <errno.h>
#include <string.h>
#include <endian.h>
#include <netinet/in.h>
#include <linux/netfilter.h>
#include "nfnl_obj.h"

static const struct attr_policy ct_helper_policy[NFTA_CT_HELPER_MAX + 1] = {
	[NFTA_CT_HELPER_NAME] = { .kind = ATTR_STRING, .len = OBJ_CT_HELPER_NAMELEN - 1 },
	[NFTA_CT_HELPER_L3PROTO] = { .kind = ATTR_U16 },
	[NFTA_CT_HELPER_L4PROTO] = { .kind = ATTR_U8 },
};

/**
 * struct helper - a conntrack helper the kernel registers
 * @name: its name (compared case-sensitively, as the kernel)
 * @l4proto: IPPROTO_*
 * @v6: also registered for NFPROTO_IPV6 (all are for NFPROTO_IPV4)
 */
struct helper {
	const char *name;
	uint8_t l4proto;
	bool v6;
};

/* the helpers built into the kernel nfbpfd answers for (6.18, this config) */
static const struct helper helpers[] = {
	{ "amanda", IPPROTO_UDP, true },	{ "ftp", IPPROTO_TCP, true },
	{ "RAS", IPPROTO_UDP, true },		{ "Q.931", IPPROTO_TCP, true },
	{ "H.245", IPPROTO_UDP, true },		{ "irc", IPPROTO_TCP, false },
	{ "snmp", IPPROTO_UDP, false },		{ "snmp_trap", IPPROTO_UDP, false },
	{ "pptp", IPPROTO_TCP, false },		{ "sane", IPPROTO_TCP, true },
	{ "sip", IPPROTO_TCP, true },		{ "sip", IPPROTO_UDP, true },
	{ "tftp", IPPROTO_UDP, true },		{ "netbios-ns", IPPROTO_UDP, false },
};

/* helper_find - nf_conntrack_helper_try_module_get() */
static const struct helper *helper_find(const char *name, uint16_t family,
					uint8_t l4proto)
{
	size_t i;

	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		if (strcmp(helpers[i].name, name) || helpers[i].l4proto != l4proto)
			continue;
		if (family == NFPROTO_IPV4 || helpers[i].v6)
			return &helpers[i];
	}
	return NULL;
}

static int ct_helper_parse(const struct nfnl_obj_ctx *ctx, union obj_data *d,
			   const struct nlattr **tb)
{
	struct obj_ct_helper *h = &d->ct_helper;
	const struct helper *h4 = NULL, *h6 = NULL;
	uint16_t family = ctx->family, l3;

	if (!tb[NFTA_CT_HELPER_NAME] || !tb[NFTA_CT_HELPER_L4PROTO])
		return -EINVAL;
	h->l4proto = nfnl_attr_u8(tb[NFTA_CT_HELPER_L4PROTO]);
	if (!h->l4proto)
		return -ENOENT;
	nfnl_attr_strlcpy(h->name, tb[NFTA_CT_HELPER_NAME], sizeof(h->name));
	if (tb[NFTA_CT_HELPER_L3PROTO]) {
		memcpy(&l3, (const char *)tb[NFTA_CT_HELPER_L3PROTO] + NLA_HDRLEN, 2);
		family = be16toh(l3);
	}
	switch (family) {
	case NFPROTO_IPV4:
		if (ctx->family == NFPROTO_IPV6)
			return -EINVAL;
		h4 = helper_find(h->name, NFPROTO_IPV4, h->l4proto);
		break;
	case NFPROTO_IPV6:
		if (ctx->family == NFPROTO_IPV4)
			return -EINVAL;
		h6 = helper_find(h->name, NFPROTO_IPV6, h->l4proto);
		break;
	case NFPROTO_NETDEV:
	case NFPROTO_BRIDGE:
	case NFPROTO_INET:
		h4 = helper_find(h->name, NFPROTO_IPV4, h->l4proto);
		h6 = helper_find(h->name, NFPROTO_IPV6, h->l4proto);
		break;
	default:
		return -EAFNOSUPPORT;
	}
	if (!h4 && !h6)
		return -ENOENT;
	/* nft_ct_helper_obj_dump() reports the families it found helpers for */
	h->l3proto = h4 && h6 ? NFPROTO_INET : h6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	return nfnl_obj_ct_netns_get(ctx->family);
}

static void ct_helper_dump(struct nfnl_buf *b, const union obj_data *d)
{
	const struct obj_ct_helper *h = &d->ct_helper;
	uint16_t l3 = htobe16(h->l3proto);

	nfnl_put_str(b, NFTA_CT_HELPER_NAME, h->name);
	nfnl_put_u8(b, NFTA_CT_HELPER_L4PROTO, h->l4proto);
	nfnl_put(b, NFTA_CT_HELPER_L3PROTO, &l3, sizeof(l3));
}

const struct nfnl_obj_ops nfnl_obj_ct_helper = {
	.type = NFT_OBJECT_CT_HELPER,
	.name = "ct helper",
	.maxattr = NFTA_CT_HELPER_MAX,
	.policy = ct_helper_policy,
	.parse = ct_helper_parse,
	.dump = ct_helper_dump,
};
