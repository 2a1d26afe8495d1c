// SPDX-License-Identifier: GPL-2.0-only
/* exthdr.c - netlink side of the exthdr expression (nft_exthdr.c). */
#include <errno.h>
#include <linux/netfilter.h>
#include "nfnl_expr.h"
#include "expr/exthdr.h"

#define REG32_MAX	23	/* NFT_REG32_MAX */

static const struct attr_policy exthdr_policy[NFTA_EXTHDR_MAX + 1] = {
	[NFTA_EXTHDR_DREG] = { .kind = ATTR_U32 },
	[NFTA_EXTHDR_TYPE] = { .kind = ATTR_U8 },
	[NFTA_EXTHDR_OFFSET] = { .kind = ATTR_U32 },
	[NFTA_EXTHDR_LEN] = { .kind = ATTR_U32 },
	[NFTA_EXTHDR_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_EXTHDR_OP] = { .kind = ATTR_U32 },
	[NFTA_EXTHDR_SREG] = { .kind = ATTR_U32 },
};

/* the range/mask parts of the kernel's policy (NLA_POLICY_MAX/MASK) */
static int policy_check(const struct nlattr **tb)
{
	static const struct { uint16_t type; uint32_t max; } maxes[] = {
		{ NFTA_EXTHDR_DREG, REG32_MAX }, { NFTA_EXTHDR_LEN, 255 },
		{ NFTA_EXTHDR_OP, 255 }, { NFTA_EXTHDR_SREG, REG32_MAX },
	};
	size_t i;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++)
		if (tb[maxes[i].type] &&
		    nfnl_attr_be32(tb[maxes[i].type]) > maxes[i].max)
			return -ERANGE;
	if (tb[NFTA_EXTHDR_FLAGS] &&
	    (nfnl_attr_be32(tb[NFTA_EXTHDR_FLAGS]) & ~EXTHDR_F_PRESENT))
		return -EINVAL;
	return 0;
}

/* nft_exthdr_select_ops: which form, or -EOPNOTSUPP */
static int select_form(const struct nfnl_expr_ctx *ctx, const struct nlattr **tb,
		       uint8_t *form)
{
	uint32_t op;

	*form = EXTHDR_GET;
	if (!tb[NFTA_EXTHDR_OP])
		return 0;
	if (tb[NFTA_EXTHDR_SREG] && tb[NFTA_EXTHDR_DREG])
		return -EOPNOTSUPP;
	op = nfnl_attr_be32(tb[NFTA_EXTHDR_OP]);
	switch (op) {
	case EXTHDR_OP_TCPOPT:
		if (tb[NFTA_EXTHDR_SREG])
			*form = EXTHDR_SET;
		else if (!tb[NFTA_EXTHDR_DREG])
			*form = EXTHDR_STRIP;
		return 0;
	case EXTHDR_OP_IPV6:
	case EXTHDR_OP_SCTP:
		return tb[NFTA_EXTHDR_DREG] ? 0 : -EOPNOTSUPP;
	case EXTHDR_OP_IPV4:
		return ctx->family != NFPROTO_IPV6 && tb[NFTA_EXTHDR_DREG] ?
		       0 : -EOPNOTSUPP;
	}
	return -EOPNOTSUPP;	/* DCCP: not in this kernel */
}

/* nft_exthdr_init (get forms) */
static int get_init(const struct nlattr **tb, struct expr_exthdr *priv)
{
	uint32_t offset, len, flags = 0, op = EXTHDR_OP_IPV6;
	int err;

	if (!tb[NFTA_EXTHDR_DREG] || !tb[NFTA_EXTHDR_TYPE] ||
	    !tb[NFTA_EXTHDR_OFFSET] || !tb[NFTA_EXTHDR_LEN])
		return -EINVAL;
	err = nfnl_u32_check(tb[NFTA_EXTHDR_OFFSET], 255, &offset);
	if (!err)
		err = nfnl_u32_check(tb[NFTA_EXTHDR_LEN], 255, &len);
	if (!err && tb[NFTA_EXTHDR_FLAGS])
		err = nfnl_u32_check(tb[NFTA_EXTHDR_FLAGS], 255, &flags);
	if (!err && tb[NFTA_EXTHDR_OP])
		err = nfnl_u32_check(tb[NFTA_EXTHDR_OP], 255, &op);
	if (err)
		return err;
	if ((flags & EXTHDR_F_PRESENT) && len != 1)
		return -EINVAL;
	priv->type = nfnl_attr_u8(tb[NFTA_EXTHDR_TYPE]);
	priv->offset = offset;
	priv->len = len;
	priv->flags = flags;
	priv->op = op;
	err = nfnl_reg_store(tb[NFTA_EXTHDR_DREG], &priv->reg, false, len);
	if (err || op != EXTHDR_OP_IPV4)
		return err;
	/* nft_exthdr_ipv4_init: ssrr, lsrr, rr, ra only */
	switch (priv->type) {
	case 137: case 131: case 7: case 148:
		return 0;
	}
	return -EOPNOTSUPP;
}

/* nft_exthdr_tcp_set_init */
static int set_init(const struct nlattr **tb, struct expr_exthdr *priv)
{
	uint32_t offset, len;
	int err;

	if (!tb[NFTA_EXTHDR_SREG] || !tb[NFTA_EXTHDR_TYPE] ||
	    !tb[NFTA_EXTHDR_OFFSET] || !tb[NFTA_EXTHDR_LEN])
		return -EINVAL;
	if (tb[NFTA_EXTHDR_DREG] || tb[NFTA_EXTHDR_FLAGS])
		return -EINVAL;
	err = nfnl_u32_check(tb[NFTA_EXTHDR_OFFSET], 255, &offset);
	if (!err)
		err = nfnl_u32_check(tb[NFTA_EXTHDR_LEN], 255, &len);
	if (err)
		return err;
	if (offset < 2 || (len != 2 && len != 4))
		return -EOPNOTSUPP;
	priv->type = nfnl_attr_u8(tb[NFTA_EXTHDR_TYPE]);
	priv->offset = offset;
	priv->len = len;
	priv->op = EXTHDR_OP_TCPOPT;
	return nfnl_reg_load(tb[NFTA_EXTHDR_SREG], &priv->reg, len);
}

/* nft_exthdr_tcp_strip_init */
static int strip_init(const struct nlattr **tb, struct expr_exthdr *priv)
{
	if (tb[NFTA_EXTHDR_SREG] || tb[NFTA_EXTHDR_DREG] ||
	    tb[NFTA_EXTHDR_FLAGS] || tb[NFTA_EXTHDR_OFFSET] ||
	    tb[NFTA_EXTHDR_LEN] || !tb[NFTA_EXTHDR_TYPE])
		return -EINVAL;
	priv->type = nfnl_attr_u8(tb[NFTA_EXTHDR_TYPE]);
	priv->op = EXTHDR_OP_TCPOPT;
	return 0;
}

static int exthdr_parse(const struct nfnl_expr_ctx *ctx, void *p,
			const struct nlattr **tb)
{
	struct expr_exthdr *priv = p;
	int err;

	err = policy_check(tb);
	if (!err)
		err = select_form(ctx, tb, &priv->form);
	if (err)
		return err;
	switch (priv->form) {
	case EXTHDR_SET:
		return set_init(tb, priv);
	case EXTHDR_STRIP:
		return strip_init(tb, priv);
	}
	return get_init(tb, priv);
}

static void exthdr_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_exthdr *priv = p;

	if (priv->form == EXTHDR_GET)
		nfnl_reg_dump(b, NFTA_EXTHDR_DREG, priv->reg);
	else if (priv->form == EXTHDR_SET)
		nfnl_reg_dump(b, NFTA_EXTHDR_SREG, priv->reg);
	nfnl_put_u8(b, NFTA_EXTHDR_TYPE, priv->type);
	nfnl_put_be32(b, NFTA_EXTHDR_OFFSET, priv->offset);
	nfnl_put_be32(b, NFTA_EXTHDR_LEN, priv->len);
	nfnl_put_be32(b, NFTA_EXTHDR_FLAGS, priv->flags);
	nfnl_put_be32(b, NFTA_EXTHDR_OP, priv->op);
}

const struct nfnl_expr_ops nfnl_expr_exthdr = {
	.type = EXPR_EXTHDR,
	.name = "exthdr",
	.maxattr = NFTA_EXTHDR_MAX,
	.policy = exthdr_policy,
	.parse = exthdr_parse,
	.dump = exthdr_dump,
};
