/* SPDX-License-Identifier: GPL-2.0-only */
/* nfnl_expr.h - netlink side of expressions (nfnl/expr/X.c). */
#ifndef NFBPF_NFNL_EXPR_H
#define NFBPF_NFNL_EXPR_H

#include "nfnl.h"
#include "expr.h"

/**
 * struct nfnl_expr_ctx - what an expression parser may look at
 * @net: namespace
 * @table: table of the rule
 * @chain: chain of the rule
 * @family: nfgen_family
 * @tx: the batch (for NFTA_*_ID references)
 * @ext: extended ack
 * @rule_compat: the rule's NFTA_RULE_COMPAT, or NULL (the kernel's
 *		 ctx->nla[NFTA_RULE_COMPAT], read by the xtables expressions)
 */
struct nfnl_expr_ctx {
	struct net *net;
	struct table *table;
	struct chain *chain;
	uint8_t family;
	struct tx *tx;
	struct extack *ext;
	const struct nlattr *rule_compat;
};

/**
 * struct nfnl_expr_ops - netlink operations of one expression type
 * @type: enum expr_type
 * @name: wire name (NFTA_EXPR_NAME)
 * @maxattr: highest attribute of NFTA_EXPR_DATA
 * @policy: maxattr + 1 entries
 * @priv_size: optional: size of the private data for these (policy-
 *	       checked) attributes, for types whose size depends on the
 *	       message, as the kernel's select_ops sets ops->size; NULL =
 *	       the model layer's fixed ruleset_expr_ops.size
 * @parse: validate @tb (already policy-checked) into the model, as the
 *	   kernel's ->init(); returns 0 or the kernel's -errno
 * @live: optional, for expressions whose state the dataplane keeps
 *	  (counter, quota): put the live values into @priv, a copy of the
 *	  model's private data that @dump then writes, as the kernel dumps the
 *	  running state; leaves @priv as it is if the dataplane has none
 * @dump: append the attributes of NFTA_EXPR_DATA, as the kernel's ->dump()
 * @validate: optional: may @priv run in a chain reached from a base chain
 *	      of @family at @hooknum? 0 or -errno (the kernel's ->validate(),
 *	      run on the rule's own base chain at parse and on every base
 *	      chain that reaches it by jumps at table validation)
 */
struct nfnl_expr_ops {
	enum expr_type type;
	const char *name;
	int maxattr;
	const struct attr_policy *policy;
	size_t (*priv_size)(const struct nlattr **tb);
	int (*parse)(const struct nfnl_expr_ctx *ctx, void *priv,
		     const struct nlattr **tb);
	void (*live)(struct net *net, void *priv);
	void (*dump)(struct nfnl_buf *b, const void *priv);
	int (*validate)(const void *priv, uint8_t family, uint32_t hooknum);
};

extern const struct nfnl_expr_ops *const nfnl_expr_ops[__EXPR_MAX];

/* Registers (nft_parse_register_load/store, nft_dump_register). */
int nfnl_reg_load(const struct nlattr *a, uint8_t *reg, uint32_t len);
int nfnl_reg_store(const struct nlattr *a, uint8_t *reg, bool verdict,
		   uint32_t len);
void nfnl_reg_dump(struct nfnl_buf *b, uint16_t type, uint8_t reg);
/** nfnl_reg_is_verdict - does attribute @a name NFT_REG_VERDICT? */
bool nfnl_reg_is_verdict(const struct nlattr *a);

/**
 * nfnl_data_value_parse - nft_data_init() of a value
 * @a: NFTA_*_DATA nest
 * @v: out
 * @size: largest accepted length (-EOVERFLOW beyond)
 * @want_len: required length, 0 = any
 */
int nfnl_data_value_parse(const struct nlattr *a, struct data_value *v,
			  uint32_t size, uint32_t want_len);
/** nfnl_data_verdict_parse - nft_data_init() of a verdict; takes no reference. */
int nfnl_data_verdict_parse(const struct nfnl_expr_ctx *ctx,
			    const struct nlattr *a, struct verdict *vd);
void nfnl_data_value_dump(struct nfnl_buf *b, uint16_t type,
			  const struct data_value *v);
void nfnl_data_verdict_dump(struct nfnl_buf *b, uint16_t type,
			    const struct verdict *vd);
/**
 * nfnl_set_lookup_global - nft_set_lookup_global(): the set named @name
 * (may be NULL), else the one created in this batch with NFTA_*_SET_ID @id
 * Return: the set, NULL if none.
 */
struct set *nfnl_set_lookup_global(const struct nfnl_expr_ctx *ctx,
				   const struct nlattr *name,
				   const struct nlattr *id);
/** nfnl_u32_check - nft_parse_u32_check(): -ERANGE above @max. */
int nfnl_u32_check(const struct nlattr *a, uint32_t max, uint32_t *out);

/**
 * nfnl_expr_stateful_parse - nft_set_elem_expr_alloc(): one stateful
 * expression (NFTA_SET_EXPR, an NFTA_LIST_ELEM of NFTA_SET_EXPRESSIONS,
 * NFTA_SET_ELEM_EXPR...) appended as a record to *@buf (@len bytes)
 * @ectx: expression context (table, extended ack)
 * @a: the expression nest (NFTA_EXPR_NAME, NFTA_EXPR_DATA)
 * @set_flags: NFTA_SET_FLAGS of the set it is for (a type with ->gc, as
 *	       connlimit, is -EOPNOTSUPP in a set with NFT_SET_TIMEOUT)
 * @buf: owned buffer of records, grown
 * @len: bytes of records in *@buf
 * @type: out: its enum expr_type
 *
 * Return: 0; -EOPNOTSUPP for a type that keeps no state, -ENOENT for an
 * unknown one, or the type's parse error.
 */
int nfnl_expr_stateful_parse(const struct nfnl_expr_ctx *ectx,
			     const struct nlattr *a, uint32_t set_flags,
			     struct expr **buf, uint32_t *len, uint16_t *type);

/**
 * nfnl_expr_fill - nft_expr_dump(): @e as nest @attr { NAME, DATA } with
 * its live state when the dataplane keeps it (@net NULL: as
 * the model holds it)
 */
void nfnl_expr_fill(struct nfnl_buf *b, struct net *net, uint16_t attr,
		    const struct expr *e);

/*
 * limit and quota (nfnl/expr/limit.c, quota.c): their attributes, the
 * same for the expression and the object of that name (nfnl/obj/)
 */
struct expr_limit;
struct expr_quota;
extern const struct attr_policy nfnl_limit_policy[];
/**
 * nfnl_limit_parse - nft_limit_select_ops() + nft_limit_init() +
 * nft_limit_pkts_init() of @tb into @l (zeroed by the caller)
 * Return: 0 or the kernel's -errno, in its order.
 */
int nfnl_limit_parse(const struct nlattr **tb, struct expr_limit *l);
extern const struct attr_policy nfnl_quota_policy[];
/**
 * nfnl_quota_parse - nft_quota_do_init() of @tb into @q (zeroed by the
 * caller)
 * Return: 0 or the kernel's -errno, in its order.
 */
int nfnl_quota_parse(const struct nlattr **tb, struct expr_quota *q);
/* nft_quota_do_dump(): consumed capped at the quota, depleted from there */
void nfnl_quota_dump(struct nfnl_buf *b, uint64_t quota, uint64_t consumed,
		     uint32_t flags);

/* xtables match/target (nfnl/expr/match.c), shared by both types */
struct expr_xt;
extern const struct attr_policy nfnl_xt_policy[];
/** nfnl_xt_priv_size - private data size of a match/target expression */
size_t nfnl_xt_priv_size(const struct nlattr **tb);
/**
 * nfnl_xt_parse - nft_{match,target}_select_ops() + init()
 * Return: 0, or the kernel's -errno (-ENOENT unknown extension, -EINVAL,
 * -ERANGE, -EOPNOTSUPP ...).
 */
int nfnl_xt_parse(const struct nfnl_expr_ctx *ctx, struct expr_xt *priv,
		  const struct nlattr **tb, bool target);
void nfnl_xt_dump(struct nfnl_buf *b, const struct expr_xt *priv);
struct nfnl_xt_query;
struct basechain;
/**
 * nfnl_xt_query_fill - the kernel query for one expression: @tb policy-
 * checked with NAME, REV and INFO present, @bc the chain's hook or NULL,
 * @compat the rule's NFTA_RULE_COMPAT or NULL, @name 32 bytes of storage
 * for the name. Return: whether the query is in a base chain.
 */
bool nfnl_xt_query_fill(struct nfnl_xt_query *q, uint8_t family,
			const char *table, const struct basechain *bc,
			const struct nlattr *compat, const struct nlattr **tb,
			bool target, char *name);

#endif
