// SPDX-License-Identifier: GPL-2.0-only
/*
 * expr.c - generic expression handling: registers, data, and the table of
 * expression types (nf_tables_expr_parse / nf_tables_fill_expr_info).
 */
#include <errno.h>
#include <string.h>
#include <linux/netfilter.h>

#include "nfnl_expr.h"
#include "ruleset_api.h"

extern const struct nfnl_expr_ops nfnl_expr_immediate, nfnl_expr_cmp,
	nfnl_expr_payload, nfnl_expr_meta, nfnl_expr_counter,
	nfnl_expr_bitwise, nfnl_expr_lookup, nfnl_expr_range,
	nfnl_expr_byteorder, nfnl_expr_ct, nfnl_expr_exthdr, nfnl_expr_log,
	nfnl_expr_numgen, nfnl_expr_hash, nfnl_expr_objref, nfnl_expr_match,
	nfnl_expr_target,
	nfnl_expr_limit, nfnl_expr_quota, nfnl_expr_reject, nfnl_expr_fwd,
	nfnl_expr_dup, nfnl_expr_dynset, nfnl_expr_fib, nfnl_expr_rt,
	nfnl_expr_connlimit;

const struct nfnl_expr_ops *const nfnl_expr_ops[__EXPR_MAX] = {
	[EXPR_IMMEDIATE] = &nfnl_expr_immediate,
	[EXPR_CMP] = &nfnl_expr_cmp,
	[EXPR_PAYLOAD] = &nfnl_expr_payload,
	[EXPR_META] = &nfnl_expr_meta,
	[EXPR_COUNTER] = &nfnl_expr_counter,
	[EXPR_BITWISE] = &nfnl_expr_bitwise,
	[EXPR_LOOKUP] = &nfnl_expr_lookup,
	[EXPR_RANGE] = &nfnl_expr_range,
	[EXPR_BYTEORDER] = &nfnl_expr_byteorder,
	[EXPR_CT] = &nfnl_expr_ct,
	[EXPR_EXTHDR] = &nfnl_expr_exthdr,
	[EXPR_LOG] = &nfnl_expr_log,
	[EXPR_NUMGEN] = &nfnl_expr_numgen,
	[EXPR_HASH] = &nfnl_expr_hash,
	[EXPR_OBJREF] = &nfnl_expr_objref,
	[EXPR_MATCH] = &nfnl_expr_match,
	[EXPR_TARGET] = &nfnl_expr_target,
	[EXPR_LIMIT] = &nfnl_expr_limit,
	[EXPR_QUOTA] = &nfnl_expr_quota,
	[EXPR_REJECT] = &nfnl_expr_reject,
	[EXPR_FWD] = &nfnl_expr_fwd,
	[EXPR_DUP] = &nfnl_expr_dup,
	[EXPR_DYNSET] = &nfnl_expr_dynset,
	[EXPR_FIB] = &nfnl_expr_fib,
	[EXPR_RT] = &nfnl_expr_rt,
	[EXPR_CONNLIMIT] = &nfnl_expr_connlimit,
};

struct set *nfnl_set_lookup_global(const struct nfnl_expr_ctx *ctx,
				   const struct nlattr *name,
				   const struct nlattr *id)
{
	char buf[NAME_MAXLEN];
	struct set *s = NULL;

	if (name) {
		nfnl_attr_strlcpy(buf, name, sizeof(buf));
		s = ruleset_set_lookup(ctx->table, buf, genmask_next(ctx->net));
	}
	if (!s && id && ctx->tx)
		s = ruleset_tx_find_set_id(ctx->tx, ctx->table, nfnl_attr_be32(id));
	return s;
}

static int parse_register(const struct nlattr *a, uint8_t *reg)
{
	uint32_t r = nfnl_attr_be32(a);

	if (r <= NFT_REG_4)
		*reg = r * 4;
	else if (r >= NFT_REG32_00 && r <= NFT_REG32_15)
		*reg = r + 4 - NFT_REG32_00;
	else
		return -ERANGE;
	return 0;
}

bool nfnl_reg_is_verdict(const struct nlattr *a)
{
	return nfnl_attr_be32(a) == NFT_REG_VERDICT;
}

int nfnl_reg_load(const struct nlattr *a, uint8_t *reg, uint32_t len)
{
	int err;

	if (!a)
		return -EINVAL;
	err = parse_register(a, reg);
	if (err)
		return err;
	if (*reg < REG_DATA_FIRST || len == 0)
		return -EINVAL;
	if (*reg * 4u + len > REG_BYTES)
		return -ERANGE;
	return 0;
}

int nfnl_reg_store(const struct nlattr *a, uint8_t *reg, bool verdict,
		   uint32_t len)
{
	int err;

	if (!a)
		return -EINVAL;
	err = parse_register(a, reg);
	if (err)
		return err;
	if (*reg == REG_VERDICT)
		return verdict ? 0 : -EINVAL;
	if (verdict || *reg < REG_DATA_FIRST || len == 0)
		return -EINVAL;
	if (*reg * 4u + len > REG_BYTES)
		return -ERANGE;
	return 0;
}

void nfnl_reg_dump(struct nfnl_buf *b, uint16_t type, uint8_t reg)
{
	uint32_t r = (reg % 4 == 0) ? reg / 4u : reg - 4u + NFT_REG32_00;

	nfnl_put_be32(b, type, r);
}

int nfnl_u32_check(const struct nlattr *a, uint32_t max, uint32_t *out)
{
	uint32_t v = nfnl_attr_be32(a);

	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static const struct attr_policy data_policy[NFTA_DATA_MAX + 1] = {
	[NFTA_DATA_VALUE] = { .kind = ATTR_BINARY, .len = DATA_VALUE_MAXLEN },
	[NFTA_DATA_VERDICT] = { .kind = ATTR_NESTED },
};

static const struct attr_policy verdict_policy[NFTA_VERDICT_MAX + 1] = {
	[NFTA_VERDICT_CODE] = { .kind = ATTR_U32 },
	[NFTA_VERDICT_CHAIN] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_VERDICT_CHAIN_ID] = { .kind = ATTR_U32 },
};

int nfnl_data_value_parse(const struct nlattr *a, struct data_value *v,
			  uint32_t size, uint32_t want_len)
{
	const struct nlattr *tb[NFTA_DATA_MAX + 1];
	uint32_t len;
	int err;

	if (!a)
		return -EINVAL;
	err = nfnl_attr_parse_nested(a, NFTA_DATA_MAX, data_policy, tb, NULL);
	if (err)
		return err;
	if (!tb[NFTA_DATA_VALUE])
		return -EINVAL;
	len = tb[NFTA_DATA_VALUE]->nla_len - NLA_HDRLEN;
	if (len == 0)
		return -EINVAL;
	if (len > size)
		return -EOVERFLOW;
	if (want_len && len != want_len)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	v->len = len;
	memcpy(v->v, (const char *)tb[NFTA_DATA_VALUE] + NLA_HDRLEN, len);
	return 0;
}

int nfnl_data_verdict_parse(const struct nfnl_expr_ctx *ctx,
			    const struct nlattr *a, struct verdict *vd)
{
	const struct nlattr *tb[NFTA_DATA_MAX + 1];
	const struct nlattr *vt[NFTA_VERDICT_MAX + 1];
	uint8_t mask = genmask_next(ctx->net);
	struct chain *c = NULL;
	int err;

	if (!a)
		return -EINVAL;
	err = nfnl_attr_parse_nested(a, NFTA_DATA_MAX, data_policy, tb, NULL);
	if (err)
		return err;
	if (tb[NFTA_DATA_VALUE] || !tb[NFTA_DATA_VERDICT])
		return -EINVAL;
	err = nfnl_attr_parse_nested(tb[NFTA_DATA_VERDICT], NFTA_VERDICT_MAX,
				     verdict_policy, vt, NULL);
	if (err)
		return err;
	if (!vt[NFTA_VERDICT_CODE])
		return -EINVAL;
	memset(vd, 0, sizeof(*vd));
	vd->code = (int32_t)nfnl_attr_be32(vt[NFTA_VERDICT_CODE]);
	switch (vd->code) {
	case NF_ACCEPT:
	case NF_DROP:
	case NF_QUEUE:
	case NFT_CONTINUE:
	case NFT_BREAK:
	case NFT_RETURN:
		return 0;
	case NFT_JUMP:
	case NFT_GOTO:
		break;
	default:
		return -EINVAL;
	}
	if (vt[NFTA_VERDICT_CHAIN]) {
		char name[NAME_MAXLEN];

		nfnl_attr_strlcpy(name, vt[NFTA_VERDICT_CHAIN], sizeof(name));
		c = ruleset_chain_lookup(ctx->table, name, mask);
	} else if (vt[NFTA_VERDICT_CHAIN_ID]) {
		c = ruleset_tx_find_chain_id(ctx->tx, ctx->table,
					     nfnl_attr_be32(vt[NFTA_VERDICT_CHAIN_ID]));
	} else {
		return -EINVAL;
	}
	if (!c)
		return -ENOENT;
	if (c->base)
		return -EOPNOTSUPP;
	/* a binding chain takes one jump, from a rule (nft_verdict_init) */
	if ((c->flags & CHAIN_F_BINDING) && (c->bound || !ctx->chain))
		return -EINVAL;
	vd->chain = c;
	return 0;
}

void nfnl_data_value_dump(struct nfnl_buf *b, uint16_t type,
			  const struct data_value *v)
{
	size_t nest = nfnl_nest_start(b, type);

	nfnl_put(b, NFTA_DATA_VALUE, v->v, v->len);
	nfnl_nest_end(b, nest);
}

void nfnl_data_verdict_dump(struct nfnl_buf *b, uint16_t type,
			    const struct verdict *vd)
{
	size_t nest = nfnl_nest_start(b, type), vnest;

	vnest = nfnl_nest_start(b, NFTA_DATA_VERDICT);
	nfnl_put_be32(b, NFTA_VERDICT_CODE, (uint32_t)vd->code);
	if ((vd->code == NFT_JUMP || vd->code == NFT_GOTO) && vd->chain)
		nfnl_put_str(b, NFTA_VERDICT_CHAIN, vd->chain->name);
	nfnl_nest_end(b, vnest);
	nfnl_nest_end(b, nest);
}
