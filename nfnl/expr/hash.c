// SPDX-License-Identifier: GPL-2.0-only
/* hash.c - netlink side of the hash expression (nft_hash.c). */
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include "nfnl_expr.h"
#include "expr/hash.h"

static const struct attr_policy hash_policy[NFTA_HASH_MAX + 1] = {
	[NFTA_HASH_SREG] = { .kind = ATTR_U32 },
	[NFTA_HASH_DREG] = { .kind = ATTR_U32 },
	[NFTA_HASH_LEN] = { .kind = ATTR_U32 },
	[NFTA_HASH_MODULUS] = { .kind = ATTR_U32 },
	[NFTA_HASH_SEED] = { .kind = ATTR_U32 },
	[NFTA_HASH_OFFSET] = { .kind = ATTR_U32 },
	[NFTA_HASH_TYPE] = { .kind = ATTR_U32 },
};

/* the offset both inits read first */
static void offset_parse(const struct nlattr **tb, struct expr_hash *priv)
{
	if (tb[NFTA_HASH_OFFSET])
		priv->offset = nfnl_attr_be32(tb[NFTA_HASH_OFFSET]);
}

/* the modulus both inits check, against the offset */
static int modulus_parse(const struct nlattr **tb, struct expr_hash *priv)
{
	priv->modulus = nfnl_attr_be32(tb[NFTA_HASH_MODULUS]);
	if (priv->modulus < 1)
		return -ERANGE;
	if (priv->offset + priv->modulus - 1 < priv->offset)
		return -EOVERFLOW;
	return 0;
}

/* nft_jhash_init */
static int jhash_init(const struct nlattr **tb, struct expr_hash *priv)
{
	uint32_t len;
	int err;

	if (!tb[NFTA_HASH_SREG] || !tb[NFTA_HASH_DREG] || !tb[NFTA_HASH_LEN] ||
	    !tb[NFTA_HASH_MODULUS])
		return -EINVAL;
	offset_parse(tb, priv);
	err = nfnl_u32_check(tb[NFTA_HASH_LEN], 255, &len);
	if (err)
		return err;
	if (len == 0)
		return -ERANGE;
	priv->len = len;
	err = nfnl_reg_load(tb[NFTA_HASH_SREG], &priv->sreg, len);
	if (!err)
		err = modulus_parse(tb, priv);
	if (err)
		return err;
	if (tb[NFTA_HASH_SEED]) {
		priv->seed = nfnl_attr_be32(tb[NFTA_HASH_SEED]);
	} else {
		priv->autogen_seed = true;
		if (getrandom(&priv->seed, sizeof(priv->seed), 0) != sizeof(priv->seed))
			priv->seed = (uint32_t)random();
	}
	return nfnl_reg_store(tb[NFTA_HASH_DREG], &priv->dreg, false, 4);
}

/* nft_symhash_init */
static int symhash_init(const struct nlattr **tb, struct expr_hash *priv)
{
	int err;

	if (!tb[NFTA_HASH_DREG] || !tb[NFTA_HASH_MODULUS])
		return -EINVAL;
	offset_parse(tb, priv);
	err = modulus_parse(tb, priv);
	if (err)
		return err;
	return nfnl_reg_store(tb[NFTA_HASH_DREG], &priv->dreg, false, 4);
}

static int hash_parse(const struct nfnl_expr_ctx *ctx, void *p,
		      const struct nlattr **tb)
{
	struct expr_hash *priv = p;

	(void)ctx;
	/* the policy's NLA_POLICY_MAX(NLA_BE32, 255) on the length */
	if (tb[NFTA_HASH_LEN] && nfnl_attr_be32(tb[NFTA_HASH_LEN]) > 255)
		return -ERANGE;
	/* nft_hash_select_ops */
	priv->type = tb[NFTA_HASH_TYPE] ? nfnl_attr_be32(tb[NFTA_HASH_TYPE]) :
					  HASH_JENKINS;
	switch (priv->type) {
	case HASH_JENKINS:
		return jhash_init(tb, priv);
	case HASH_SYM:
		return symhash_init(tb, priv);
	}
	return -EOPNOTSUPP;
}

static void hash_dump(struct nfnl_buf *b, const void *p)
{
	const struct expr_hash *priv = p;

	if (priv->type == HASH_JENKINS)
		nfnl_reg_dump(b, NFTA_HASH_SREG, priv->sreg);
	nfnl_reg_dump(b, NFTA_HASH_DREG, priv->dreg);
	if (priv->type == HASH_JENKINS)
		nfnl_put_be32(b, NFTA_HASH_LEN, priv->len);
	nfnl_put_be32(b, NFTA_HASH_MODULUS, priv->modulus);
	if (priv->type == HASH_JENKINS && !priv->autogen_seed)
		nfnl_put_be32(b, NFTA_HASH_SEED, priv->seed);
	if (priv->offset)
		nfnl_put_be32(b, NFTA_HASH_OFFSET, priv->offset);
	nfnl_put_be32(b, NFTA_HASH_TYPE, priv->type);
}

const struct nfnl_expr_ops nfnl_expr_hash = {
	.type = EXPR_HASH,
	.name = "hash",
	.maxattr = NFTA_HASH_MAX,
	.policy = hash_policy,
	.parse = hash_parse,
	.dump = hash_dump,
};
