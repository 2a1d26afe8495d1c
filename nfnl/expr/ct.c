// SPDX-License-Identifier: GPL-2.0-only
/* ct.c - netlink side of the conntrack expression (nft_ct.c). */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/ct.h"


static const struct attr_policy ct_policy[NFTA_CT_MAX + 1] = {
	[NFTA_CT_DREG] = { .kind = ATTR_U32 },
	[NFTA_CT_KEY] = { .kind = ATTR_U32 },
	[NFTA_CT_DIRECTION] = { .kind = ATTR_U8 },
	[NFTA_CT_SREG] = { .kind = ATTR_U32 },
};

enum dir_rule { DIR_FORBIDDEN, DIR_ALLOWED, DIR_REQUIRED };

/*
 * get_len - register bytes of a readable key and what it says about
 * NFTA_CT_DIRECTION (nft_ct_get_init); 0 = unknown key (-EOPNOTSUPP)
 */
static uint32_t get_len(uint32_t key, uint8_t family, enum dir_rule *dir)
{
	*dir = DIR_FORBIDDEN;
	switch (key) {
	case CT_DIRECTION:
		return 1;
	case CT_STATE: case CT_STATUS: case CT_MARK: case CT_SECMARK:
	case CT_EXPIRATION: case CT_ID:
		return 4;
	case CT_LABELS:
	case CT_HELPER:
		return 16;	/* NF_CT_LABELS_MAX_SIZE, NF_CT_HELPER_NAME_LEN */
	case CT_L3PROTOCOL: case CT_PROTOCOL:
		*dir = DIR_ALLOWED;	/* accepted for compatibility */
		return 1;
	case CT_SRC: case CT_DST:
		*dir = DIR_REQUIRED;
		if (family == NFPROTO_IPV4)
			return 4;
		if (family == NFPROTO_IPV6 || family == NFPROTO_INET)
			return 16;
		return UINT32_MAX;	/* -EAFNOSUPPORT */
	case CT_SRC_IP: case CT_DST_IP:
		*dir = DIR_REQUIRED;
		return 4;
	case CT_SRC_IP6: case CT_DST_IP6:
		*dir = DIR_REQUIRED;
		return 16;
	case CT_PROTO_SRC: case CT_PROTO_DST:
		*dir = DIR_REQUIRED;
		return 2;
	case CT_PKTS: case CT_BYTES: case CT_AVGPKT:
		*dir = DIR_ALLOWED;
		return 8;
	case CT_ZONE:
		*dir = DIR_ALLOWED;
		return 2;
	}
	return 0;
}

/* set_len - register bytes of a writable key (nft_ct_set_init), 0 = none */
static uint32_t set_len(uint32_t key, enum dir_rule *dir)
{
	*dir = DIR_FORBIDDEN;
	switch (key) {
	case CT_MARK: case CT_EVENTMASK: case CT_SECMARK:
		return 4;
	case CT_LABELS:
		return 16;
	case CT_ZONE:
		*dir = DIR_ALLOWED;
		return 2;
	}
	return 0;
}

/* nf_ct_netns_get(): conntrack exists for ip, ip6 and inet only here */
static int family_check(uint8_t family)
{
	switch (family) {
	case NFPROTO_IPV4: case NFPROTO_IPV6: case NFPROTO_INET:
		return 0;
	}
	return -EPROTO;
}

static int ct_parse(const struct nfnl_expr_ctx *ctx, void *p,
		    const struct nlattr **tb)
{
	const struct nlattr *dira = tb[NFTA_CT_DIRECTION];
	struct expr_ct *priv = p;
	enum dir_rule dir;
	int err;

	/* 0. nft_ct_select_ops */
	if (!tb[NFTA_CT_KEY])
		return -EINVAL;
	if (tb[NFTA_CT_DREG] && tb[NFTA_CT_SREG])
		return -EINVAL;
	if (!tb[NFTA_CT_DREG] && !tb[NFTA_CT_SREG])
		return -EINVAL;
	priv->key = nfnl_attr_be32(tb[NFTA_CT_KEY]);
	priv->is_set = !tb[NFTA_CT_DREG];
	priv->dir = CT_DIR_NONE;

	/* 1. the key and its direction rule */
	priv->len = priv->is_set ? set_len(priv->key, &dir) :
				   get_len(priv->key, ctx->family, &dir);
	if (!priv->len)
		return -EOPNOTSUPP;
	if ((dir == DIR_FORBIDDEN && dira) || (dir == DIR_REQUIRED && !dira))
		return -EINVAL;
	if (priv->len == UINT32_MAX)
		return -EAFNOSUPPORT;
	if (dira) {
		priv->dir = nfnl_attr_u8(dira);
		if (priv->dir > 1)
			return -EINVAL;
	}

	/* 2. register, 3. conntrack for this family */
	if (priv->is_set)
		err = nfnl_reg_load(tb[NFTA_CT_SREG], &priv->reg, priv->len);
	else
		err = nfnl_reg_store(tb[NFTA_CT_DREG], &priv->reg, false,
				     priv->len);
	if (err)
		return err;
	return family_check(ctx->family);
}

/* nft_ct_get_dump / nft_ct_set_dump: which keys carry their direction */
static bool dump_dir(const struct expr_ct *priv)
{
	if (priv->is_set)
		return priv->key == CT_ZONE && priv->dir != CT_DIR_NONE;
	switch (priv->key) {
	case CT_SRC: case CT_DST: case CT_SRC_IP: case CT_DST_IP:
	case CT_SRC_IP6: case CT_DST_IP6: case CT_PROTO_SRC: case CT_PROTO_DST:
		return true;
	case CT_PKTS: case CT_BYTES: case CT_AVGPKT: case CT_ZONE:
		return priv->dir != CT_DIR_NONE;
	}
	return false;
}

static void ct_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_ct *priv = p;

	nfnl_reg_dump(b, priv->is_set ? NFTA_CT_SREG : NFTA_CT_DREG,
		      priv->reg);
	nfnl_put_be32(b, NFTA_CT_KEY, priv->key);
	if (dump_dir(priv))
		nfnl_put_u8(b, NFTA_CT_DIRECTION, priv->dir);
}

const struct nfnl_expr_ops nfnl_expr_ct = {
	.type = EXPR_CT,
	.name = "ct",
	.maxattr = NFTA_CT_MAX,
	.policy = ct_policy,
	.parse = ct_parse,
	.dump = ct_dump,
};
