// SPDX-License-Identifier: GPL-2.0-only
/*
 * rule.c - NEW/GET/DEL/DESTROY RULE, as nf_tables_api.c answers them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "handlers.h"
#include "nfnl_compat.h"
#include "nfnl_expr.h"
#include "nfnl_xt.h"
#include <linux/netfilter/nf_tables_compat.h>
#include "ruleset_expr.h"
#include "dataplane.h"
#include "expr/immediate.h"
#include "expr/lookup.h"

#define RULE_MAXEXPRS	128	/* NFT_RULE_MAXEXPRS */
#define JUMP_STACK_SIZE	16	/* NFT_JUMP_STACK_SIZE */

const struct attr_policy nfnl_rule_policy[NFTA_RULE_MAX_K + 1] = {
	[NFTA_RULE_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_RULE_CHAIN] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_RULE_HANDLE] = { .kind = ATTR_U64 },
	[NFTA_RULE_EXPRESSIONS] = { .kind = ATTR_NESTED },
	[NFTA_RULE_COMPAT] = { .kind = ATTR_NESTED },
	[NFTA_RULE_POSITION] = { .kind = ATTR_U64 },
	[NFTA_RULE_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
	[NFTA_RULE_ID] = { .kind = ATTR_U32 },
	[NFTA_RULE_POSITION_ID] = { .kind = ATTR_U32 },
	[NFTA_RULE_CHAIN_ID_K] = { .kind = ATTR_U32 },
};

static const struct attr_policy expr_policy[NFTA_EXPR_MAX + 1] = {
	[NFTA_EXPR_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_EXPR_DATA] = { .kind = ATTR_NESTED },
};

/*
 * Expression types the reference kernel has that nfbpfd does not model
 * yet, with the families nft_expr_type_get() finds them for. The kernel
 * (6.18, nf_tables built in, no modules) has no queue, flow_offload or
 * bridge reject at all, tunnel only for netdev, masq/redir only for ip,
 * ip6 and inet, dup only for ip, ip6 (and netdev, modelled): any other
 * family gets ENOENT on the expression, as from the kernel. Measured by
 * sending each name with an empty NFTA_EXPR_DATA in each family.
 */
#define FAM(f)		(1u << (f))
#define FAMS_ALL	(FAM(NFPROTO_INET) | FAM(NFPROTO_IPV4) | FAM(NFPROTO_ARP) | \
			 FAM(NFPROTO_NETDEV) | FAM(NFPROTO_BRIDGE) | FAM(NFPROTO_IPV6))
#define FAMS_L3		(FAM(NFPROTO_INET) | FAM(NFPROTO_IPV4) | FAM(NFPROTO_IPV6))

static const struct { const char *name; uint32_t families; } kernel_exprs[] = {
	{ "ct", FAMS_ALL }, { "log", FAMS_ALL }, { "limit", FAMS_ALL },
	{ "reject", FAMS_ALL & ~FAM(NFPROTO_BRIDGE) }, { "nat", FAMS_ALL },
	{ "masq", FAMS_L3 }, { "redir", FAMS_L3 }, { "exthdr", FAMS_ALL },
	{ "dynset", FAMS_ALL }, { "quota", FAMS_ALL }, { "fib", FAMS_ALL },
	{ "socket", FAMS_ALL }, { "notrack", FAMS_ALL },
	{ "dup", FAM(NFPROTO_IPV4) | FAM(NFPROTO_IPV6) | FAM(NFPROTO_NETDEV) },
	{ "fwd", FAMS_ALL }, { "tproxy", FAMS_ALL }, { "synproxy", FAMS_ALL },
	{ "hash", FAMS_ALL }, { "numgen", FAMS_ALL }, { "osf", FAMS_ALL },
	{ "xfrm", FAMS_ALL }, { "tunnel", FAM(NFPROTO_NETDEV) },
	{ "connlimit", FAMS_ALL }, { "last", FAMS_ALL }, { "inner", FAMS_ALL },
	{ "cmp", FAMS_ALL }, { "lookup", FAMS_ALL }, { "meta", FAMS_ALL },
	{ "counter", FAMS_ALL },
};

static const struct nfnl_expr_ops *expr_type_find(const struct nlattr *name)
{
	int i;

	for (i = 0; i < __EXPR_MAX; i++) {
		if (!nfnl_attr_strcmp(name, nfnl_expr_ops[i]->name))
			return nfnl_expr_ops[i];
	}
	return NULL;
}

static bool kernel_knows(const struct nlattr *name, uint8_t family)
{
	size_t i;

	for (i = 0; i < sizeof(kernel_exprs) / sizeof(kernel_exprs[0]); i++) {
		if (!nfnl_attr_strcmp(name, kernel_exprs[i].name))
			return family < 32 &&
			       (kernel_exprs[i].families & FAM(family));
	}
	return false;
}

/**
 * struct expr_info - one parsed NFTA_LIST_ELEM before the rule exists
 * @attr: the list element (for the extended ack)
 * @ops: its type
 * @tb: its NFTA_EXPR_DATA attributes
 * @size: size of its record
 */
struct expr_info {
	const struct nlattr *attr;
	const struct nfnl_expr_ops *ops;
	uint32_t size;
	const struct nlattr *tb[32];
};

/* expr_parse_one(): a kernel expression nfbpfd does not model (> 0: the
 * rule is refused only if nothing else in the batch fails, nfnl_refuse()) */
#define EXPR_UNMODELLED	1

static int expr_parse_one(struct extack *ext, uint8_t family,
			  const struct nlattr *elem, struct expr_info *info)
{
	const struct nlattr *tb[NFTA_EXPR_MAX + 1];
	const struct nfnl_expr_ops *ops;
	char msg[96];
	int err;

	err = nfnl_attr_parse_nested(elem, NFTA_EXPR_MAX, expr_policy, tb, NULL);
	if (err)
		return err;
	if (!tb[NFTA_EXPR_NAME])
		return -EINVAL;	/* nft_expr_type_get(NULL) */
	ops = expr_type_find(tb[NFTA_EXPR_NAME]);
	if (!ops) {
		if (!kernel_knows(tb[NFTA_EXPR_NAME], family))
			return -ENOENT;
		snprintf(msg, sizeof(msg),
			 "nfbpfd: expression '%.*s' is not supported yet",
			 (int)(tb[NFTA_EXPR_NAME]->nla_len - NLA_HDRLEN),
			 (const char *)tb[NFTA_EXPR_NAME] + NLA_HDRLEN);
		extack_copy(ext, msg, NULL);
		return EXPR_UNMODELLED;
	}
	if (tb[NFTA_EXPR_DATA]) {
		err = nfnl_attr_parse_nested(tb[NFTA_EXPR_DATA], ops->maxattr,
					     ops->policy, info->tb, NULL);
		if (err)
			return err;
	} else {
		memset(info->tb, 0, sizeof(info->tb[0]) * (ops->maxattr + 1));
	}
	info->ops = ops;
	info->attr = elem;
	info->size = EXPR_SIZE(ops->priv_size ? ops->priv_size(info->tb) :
			       ruleset_expr_ops[ops->type]->size);
	return 0;
}

int nfnl_expr_stateful_parse(const struct nfnl_expr_ctx *ectx,
			     const struct nlattr *a, uint32_t set_flags,
			     struct expr **buf, uint32_t *len, uint16_t *type)
{
	struct expr_info info;
	struct expr *n, *e;
	int err;

	err = expr_parse_one(ectx->ext, ectx->family, a, &info);
	if (err)
		return err == EXPR_UNMODELLED ? -EOPNOTSUPP : err;
	/* NFT_EXPR_STATEFUL types only */
	switch (info.ops->type) {
	case EXPR_COUNTER:
	case EXPR_LIMIT:
	case EXPR_QUOTA:
	case EXPR_CONNLIMIT:
		break;
	default:
		return -EOPNOTSUPP;
	}
	n = realloc(*buf, *len + info.size);
	if (!n)
		return -ENOMEM;
	*buf = n;
	e = (struct expr *)((char *)n + *len);
	memset(e, 0, info.size);
	e->type = info.ops->type;
	e->size = info.size;
	err = info.ops->parse(ectx, expr_priv(e), info.tb);
	if (err)
		return err;
	/* NFT_EXPR_GC (connlimit): not in a set whose elements time out */
	if (e->type == EXPR_CONNLIMIT && (set_flags & NFT_SET_TIMEOUT))
		return -EOPNOTSUPP;
	*len += info.size;
	*type = e->type;
	return 0;
}

/*
 * validate_chain - nft_chain_validate(): every chain reachable from a base
 * chain must sit less than NFT_JUMP_STACK_SIZE jumps deep; a loop is an
 * unbounded depth, so it fails the same way (-EMLINK), as on the kernel.
 */
static int validate_chain(struct chain *c, uint8_t mask, uint32_t hook,
			  unsigned int level, uint32_t epoch);

/* validate_vmap - the jumps of a verdict map's elements count as the rule's */
static int validate_vmap(const struct set *s, uint8_t mask, uint32_t hook,
			 unsigned int level, uint32_t epoch)
{
	const struct set_elem *el;
	int err;

	list_for_each_entry(el, &s->elems, list) {
		if (!active(el->genmask, mask) || !el->verdict.chain)
			continue;
		err = validate_chain(el->verdict.chain, mask, hook, level + 1,
				     epoch);
		if (err)
			return err;
	}
	return 0;
}

/*
 * ... and every expression with a ->validate() must accept the hook of
 * the base chain it is reached from (nft_reject_validate() and friends),
 * which the kernel checks on the same walk.
 */
static int validate_chain(struct chain *c, uint8_t mask, uint32_t hook,
			  unsigned int level, uint32_t epoch)
{
	uint8_t hbit = hook < 8 ? (uint8_t)(1u << hook) : 0;
	const struct rule *r;
	const struct expr *e;
	int err;

	if (level == JUMP_STACK_SIZE)
		return -EMLINK;
	if (c->vepoch == epoch && level <= c->vlevel && (c->vhooks & hbit))
		return 0;	/* already valid at this depth or deeper */
	list_for_each_entry(r, &c->rules, list) {
		if (!active(r->genmask, mask))
			continue;
		rule_for_each_expr(e, r) {
			const struct expr_immediate *im = expr_priv(e);
			const struct expr_lookup *lk = expr_priv(e);

			const struct nfnl_expr_ops *ops = e->type < __EXPR_MAX ?
							  nfnl_expr_ops[e->type] : NULL;

			if (e->type == EXPR_LOOKUP && lk->has_dreg &&
			    lk->set->dtype == NFT_DATA_VERDICT)
				err = validate_vmap(lk->set, mask, hook, level,
						    epoch);
			else if (e->type == EXPR_IMMEDIATE && im->dreg == REG_VERDICT &&
				 im->verdict.chain)
				err = validate_chain(im->verdict.chain, mask, hook,
						     level + 1, epoch);
			else if (ops && ops->validate)
				err = ops->validate(expr_priv(e), c->table->family,
						    hook);
			else
				err = 0;
			if (err)
				return err;
		}
	}
	if (c->vepoch != epoch) {
		c->vepoch = epoch;
		c->vlevel = 0;
		c->vhooks = 0;
	}
	if (level > c->vlevel)
		c->vlevel = level;
	c->vhooks |= hbit;
	return 0;
}

int nfnl_table_validate(struct nfnl_ctx *ctx, struct table *t)
{
	static uint32_t epoch;
	uint8_t mask = genmask_next(ctx->net);
	struct chain *c;
	int err;

	epoch++;
	list_for_each_entry(c, &t->chains, list) {
		if (!c->base || !active(c->genmask, mask))
			continue;
		err = validate_chain(c, mask, c->base->hooknum, 0, epoch);
		if (err) {
			ctx->tx->validate_errs++;
			return err;
		}
	}
	return 0;
}

/*
 * needs_validate - can @r make the table invalid? A jump can; so can an
 * expression restricted to some hooks in a chain that is not a base chain,
 * or in a base chain whose hook it refuses (fib: the kernel finds that at
 * table validation, as for a regular chain; reject checks it at parse)
 */
static bool needs_validate(const struct chain *c, const struct rule *r)
{
	const struct expr *e;

	rule_for_each_expr(e, r) {
		const struct nfnl_expr_ops *ops = e->type < __EXPR_MAX ?
						  nfnl_expr_ops[e->type] : NULL;

		if (!c->base && ops && ops->validate)
			return true;
		if (c->base && ops && ops->validate &&
		    ops->validate(expr_priv(e), c->table->family,
				  c->base->hooknum))
			return true;
		const struct expr_immediate *im = expr_priv(e);
		const struct expr_lookup *lk = expr_priv(e);

		if (e->type == EXPR_IMMEDIATE && im->dreg == REG_VERDICT &&
		    im->verdict.chain)
			return true;
		if (e->type == EXPR_LOOKUP && lk->has_dreg &&
		    lk->set->dtype == NFT_DATA_VERDICT)
			return true;
	}
	return false;
}

static int rule_parse_exprs(struct nfnl_ctx *ctx, struct table *t,
			    struct chain *c, const struct nlattr *list,
			    const struct nlattr *compat, struct rule **out)
{
	struct nfnl_expr_ctx ectx = {
		.net = ctx->net, .table = t, .chain = c, .family = ctx->family,
		.tx = ctx->tx, .ext = ctx->ext, .rule_compat = compat,
	};
	struct expr_info *info = NULL;
	const struct nlattr *a;
	uint32_t n = 0, size = 0, i;
	struct rule *r;
	struct expr *e;
	size_t left;
	int err;

	if (list) {
		info = calloc(RULE_MAXEXPRS, sizeof(*info));
		if (!info)
			return -ENOMEM;
		nfnl_attr_for_each_nested(a, list, left) {
			err = -EINVAL;
			if ((a->nla_type & NLA_TYPE_MASK) != NFTA_LIST_ELEM ||
			    n == RULE_MAXEXPRS)
				goto out_free_info;
			err = expr_parse_one(ctx->ext, ctx->family, a, &info[n]);
			if (err) {
				ctx->ext->bad_attr = a;
				goto out_free_info;
			}
			size += info[n].size;
			n++;
		}
	}
	r = ruleset_rule_alloc(c, size);
	if (!r) {
		err = -ENOMEM;
		goto out_free_info;
	}
	e = r->exprs;
	for (i = 0; i < n; i++) {
		e->type = info[i].ops->type;
		e->size = info[i].size;
		err = info[i].ops->parse(&ectx, expr_priv(e), info[i].tb);
		if (err) {
			ctx->ext->bad_attr = info[i].attr;
			r->dlen = (char *)e - (char *)r->exprs;
			goto out_free_rule;
		}
		r->dlen += e->size;
		r->nexprs++;
		e = expr_next(e);
	}
	free(info);
	*out = r;
	return 0;

out_free_rule:
	ruleset_rule_free(r);
out_free_info:
	free(info);
	return err;
}

/* the binding chain @r jumps to, if any */
static struct chain *bound_chain(const struct rule *r)
{
	const struct expr *e;

	rule_for_each_expr(e, r) {
		const struct expr_immediate *im = expr_priv(e);

		if (e->type == EXPR_IMMEDIATE && im->dreg == REG_VERDICT &&
		    im->verdict.chain &&
		    (im->verdict.chain->flags & CHAIN_F_BINDING))
			return im->verdict.chain;
	}
	return NULL;
}

int nfnl_rule_delete(struct nfnl_ctx *ctx, struct rule *r)
{
	struct chain *b = bound_chain(r);
	struct trans *tr, *btr = NULL;
	struct rule *br;

	if (!active(r->genmask, genmask_next(ctx->net)))
		return -ENOENT;
	tr = nfnl_tx_add(ctx, TRANS_DELRULE);
	if (!tr)
		return -ENOMEM;
	/* its binding chain goes with it (nft_immediate_deactivate()):
	 * inactive next, its rules' references dropped; no event */
	if (b && active(b->genmask, genmask_next(ctx->net))) {
		btr = nfnl_tx_add(ctx, TRANS_DELCHAIN);
		if (!btr)
			return -ENOMEM;
		btr->family = b->table->family;
		btr->table = b->table;
		btr->chain = b;
		btr->binding = true;
	}
	tr->family = r->chain->table->family;
	tr->table = r->chain->table;
	tr->chain = r->chain;
	tr->rule = r;
	r->genmask |= genmask_next(ctx->net);
	ruleset_rule_deactivate(r);
	r->chain->use--;
	r->chain->nrules--;
	if (btr) {
		list_for_each_entry(br, &b->rules, list)
			ruleset_rule_deactivate(br);
		b->genmask |= genmask_next(ctx->net);
		b->table->use--;
	}
	return 0;
}

static struct chain *rule_chain(struct nfnl_ctx *ctx, struct table *t,
				const struct nlattr **cda, uint8_t mask, int *err)
{
	struct chain *c = NULL;

	if (cda[NFTA_RULE_CHAIN]) {
		char name[NAME_MAXLEN];

		nfnl_attr_strlcpy(name, cda[NFTA_RULE_CHAIN], sizeof(name));
		c = ruleset_chain_lookup(t, name, mask);
		if (!c)
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_CHAIN]);
	} else if (cda[NFTA_RULE_CHAIN_ID_K] && ctx->tx) {
		c = ruleset_tx_find_chain_id(ctx->tx, t,
					     nfnl_attr_be32(cda[NFTA_RULE_CHAIN_ID_K]));
		if (!c)
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_CHAIN_ID_K]);
	} else {
		*err = -EINVAL;
		return NULL;
	}
	*err = c ? 0 : -ENOENT;
	return c;
}

int nfnl_newrule(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint16_t flags = ctx->nlh->nlmsg_flags;
	uint8_t mask = genmask_next(ctx->net);
	struct rule *r, *old = NULL;
	struct dp_error dperr = { 0 };
	struct trans *tr;
	struct table *t;
	struct chain *c;
	uint64_t handle;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_RULE_TABLE], mask, &t);
	if (err)
		return err;
	c = rule_chain(ctx, t, cda, mask, &err);
	if (!c)
		return err;
	/* a bound chain's rules are the binding rule's own */
	if ((c->flags & CHAIN_F_BINDING) && c->bound)
		return -EOPNOTSUPP;

	if (cda[NFTA_RULE_HANDLE]) {
		handle = nfnl_attr_be64(cda[NFTA_RULE_HANDLE]);
		old = ruleset_rule_lookup_handle(c, handle, mask);
		if (!old) {
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_HANDLE]);
			return -ENOENT;
		}
		if (flags & NLM_F_EXCL) {
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_HANDLE]);
			return -EEXIST;
		}
		if (!(flags & NLM_F_REPLACE))
			return -EOPNOTSUPP;
	} else {
		if (!(flags & NLM_F_CREATE) || (flags & NLM_F_REPLACE))
			return -EINVAL;
		handle = ++t->hgenerator;
		if (cda[NFTA_RULE_POSITION]) {
			old = ruleset_rule_lookup_handle(c,
					nfnl_attr_be64(cda[NFTA_RULE_POSITION]), mask);
			if (!old) {
				extack_set(ctx->ext, NULL, cda[NFTA_RULE_POSITION]);
				return -ENOENT;
			}
		} else if (cda[NFTA_RULE_POSITION_ID]) {
			old = ruleset_tx_find_rule_id(ctx->tx, c,
					nfnl_attr_be32(cda[NFTA_RULE_POSITION_ID]));
			if (!old || !active(old->genmask, mask)) {
				extack_set(ctx->ext, NULL, cda[NFTA_RULE_POSITION_ID]);
				return -ENOENT;
			}
		}
	}

	err = rule_parse_exprs(ctx, t, c, cda[NFTA_RULE_EXPRESSIONS],
			       cda[NFTA_RULE_COMPAT], &r);
	if (err == EXPR_UNMODELLED) {
		/* its handle is taken, as the kernel's would be */
		nfnl_refuse(ctx, -EOPNOTSUPP, ctx->ext->msg, ctx->ext->bad_attr);
		*ctx->ext = (struct extack){ 0 };
		return 0;
	}
	if (err)
		return err;
	if (r->dlen >= (1u << 12) * 2) {	/* nft_rule dlen field overflow */
		err = -EFBIG;
		goto out_free_rule;
	}
	r->handle = handle;
	if (cda[NFTA_RULE_USERDATA]) {
		err = nfnl_attr_udata(cda[NFTA_RULE_USERDATA], &r->udata);
		if (err)
			goto out_free_rule;
	}
	err = dataplane_rule_check(c, r, &dperr);
	if (err)
		nfnl_refuse(ctx, err, dperr.msg, NULL);

	if (flags & NLM_F_REPLACE) {
		err = nfnl_rule_delete(ctx, old);
		if (err)
			goto out_free_rule;
	}
	tr = nfnl_tx_add(ctx, TRANS_NEWRULE);
	if (!tr) {
		err = -ENOMEM;
		goto out_free_rule;
	}
	tr->table = t;
	tr->chain = c;
	tr->rule = r;
	if (cda[NFTA_RULE_ID])
		tr->id = nfnl_attr_be32(cda[NFTA_RULE_ID]);
	r->genmask = genmask_cur(ctx->net);
	ruleset_rule_activate(r);
	c->use++;
	c->nrules++;
	if (flags & NLM_F_REPLACE)
		list_add_tail(&r->list, &old->list);
	else if (flags & NLM_F_APPEND)
		old ? list_add(&r->list, &old->list) : list_add_tail(&r->list, &c->rules);
	else
		old ? list_add_tail(&r->list, &old->list) : list_add(&r->list, &c->rules);
	/* only a jump or a hook-restricted expression can make the table
	 * invalid: validate then, not always */
	if (needs_validate(c, r)) {
		err = nfnl_table_validate(ctx, t);
		if (err)
			return err;	/* the record is undone by the abort */
	}
	return 0;

out_free_rule:
	ruleset_rule_free(r);
	return err;
}

static int delrule_by_chain(struct nfnl_ctx *ctx, struct chain *c)
{
	uint8_t mask = genmask_next(ctx->net);
	struct rule *r;
	int err;

	list_for_each_entry(r, &c->rules, list) {
		if (!active(r->genmask, mask))
			continue;
		err = nfnl_rule_delete(ctx, r);
		if (err)
			return err;
	}
	return 0;
}

int nfnl_delrule(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYRULE;
	uint8_t mask = genmask_next(ctx->net);
	struct chain *c = NULL;
	struct table *t;
	struct rule *r;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_RULE_TABLE], mask, &t);
	if (err)
		return err;
	if (cda[NFTA_RULE_CHAIN]) {
		c = rule_chain(ctx, t, cda, mask, &err);
		if (!c)
			return (err == -ENOENT && destroy) ? 0 : err;
		if (c->flags & CHAIN_F_BINDING)
			return -EOPNOTSUPP;
	}
	if (!c) {
		list_for_each_entry(c, &t->chains, list) {
			if (!active(c->genmask, mask) ||
			    (c->flags & CHAIN_F_BINDING))
				continue;
			err = delrule_by_chain(ctx, c);
			if (err)
				return err;
		}
		return 0;
	}
	if (cda[NFTA_RULE_HANDLE]) {
		r = ruleset_rule_lookup_handle(c, nfnl_attr_be64(cda[NFTA_RULE_HANDLE]),
					       mask);
		if (!r) {
			if (destroy)
				return 0;
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_HANDLE]);
			return -ENOENT;
		}
		return nfnl_rule_delete(ctx, r);
	}
	if (cda[NFTA_RULE_ID]) {
		r = ruleset_tx_find_rule_id(ctx->tx, c, nfnl_attr_be32(cda[NFTA_RULE_ID]));
		if (!r) {
			extack_set(ctx->ext, NULL, cda[NFTA_RULE_ID]);
			return -ENOENT;
		}
		return nfnl_rule_delete(ctx, r);
	}
	return delrule_by_chain(ctx, c);
}

void nfnl_expr_fill(struct nfnl_buf *b, struct net *net, uint16_t attr,
		    const struct expr *e)
{
	const struct nfnl_expr_ops *ops = nfnl_expr_ops[e->type];
	size_t elem = nfnl_nest_start(b, attr), data;
	size_t size = ruleset_expr_ops[e->type]->size;
	uint64_t live[16];

	nfnl_put_str(b, NFTA_EXPR_NAME, ops->name);
	data = nfnl_nest_start(b, NFTA_EXPR_DATA);
	if (ops->live && net && size <= sizeof(live)) {
		memcpy(live, expr_priv(e), size);
		ops->live(net, live);
		ops->dump(b, live);
	} else {
		ops->dump(b, expr_priv(e));
	}
	nfnl_nest_end(b, data);
	nfnl_nest_end(b, elem);
}

void nfnl_rule_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		    uint32_t seq, int event, uint16_t flags,
		    const struct rule *r, const struct rule *prev)
{
	const struct chain *c = r->chain;
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event,
				    flags, seq, portid, c->table->family,
				    nft_res_id(net));
	const struct expr *e;
	size_t list;

	nfnl_put_str(b, NFTA_RULE_TABLE, c->table->name);
	nfnl_put_str(b, NFTA_RULE_CHAIN, c->name);
	nfnl_put_be64(b, NFTA_RULE_HANDLE, r->handle);
	if (event != NFT_MSG_DELRULE && prev)
		nfnl_put_be64(b, NFTA_RULE_POSITION, prev->handle);
	list = nfnl_nest_start(b, NFTA_RULE_EXPRESSIONS);
	rule_for_each_expr(e, r)
		nfnl_expr_fill(b, net, NFTA_LIST_ELEM, e);
	nfnl_nest_end(b, list);
	nfnl_put_udata(b, NFTA_RULE_USERDATA, &r->udata);
	nfnl_msg_end(b, off);
}

int nfnl_getrule(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct table *t;
	struct chain *c;
	struct rule *r;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_RULE_TABLE], mask, &t);
	if (err)
		return err;
	c = rule_chain(ctx, t, cda, mask, &err);
	if (!c)
		return err;
	if (!cda[NFTA_RULE_HANDLE])
		return -EINVAL;
	r = ruleset_rule_lookup_handle(c, nfnl_attr_be64(cda[NFTA_RULE_HANDLE]), mask);
	if (!r) {
		extack_set(ctx->ext, NULL, cda[NFTA_RULE_HANDLE]);
		return -ENOENT;
	}
	nfnl_rule_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
		       ctx->nlh->nlmsg_seq, NFT_MSG_NEWRULE, 0, r, NULL);
	return nfnl_reply_end(ctx);
}

int nfnl_dumprules(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct table *t;
	struct chain *c;

	list_for_each_entry(t, &ctx->net->tables, list) {
		if (!nfnl_family_match(ctx->family, t->family))
			continue;
		if (cda[NFTA_RULE_TABLE] && nfnl_attr_strcmp(cda[NFTA_RULE_TABLE], t->name))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			const struct rule *r, *prev = NULL;

			if (cda[NFTA_RULE_CHAIN] &&
			    nfnl_attr_strcmp(cda[NFTA_RULE_CHAIN], c->name))
				continue;
			list_for_each_entry(r, &c->rules, list) {
				size_t off = ctx->cl->out.buf.len;

				if (!active(r->genmask, mask))
					continue;
				nfnl_rule_fill(&ctx->cl->out.buf, ctx->net,
					       ctx->cl->portid, ctx->nlh->nlmsg_seq,
					       NFT_MSG_NEWRULE,
					       NLM_F_MULTI | NLM_F_APPEND, r, prev);
				nfnl_dump_added(ctx, off);
				prev = r;
			}
		}
	}
	return 0;
}

/**
 * struct xt_pre - one match/target expression seen ahead (prefetch)
 * @next: list
 * @q: its query; points into @name, @table and @bc
 * @name: extension name
 * @table: table name
 * @bc: the chain's hook, if a base chain
 */
struct xt_pre {
	struct xt_pre *next;
	struct nfnl_xt_query q;
	char name[32];
	char table[NAME_MAXLEN];
	struct basechain bc;
};

/**
 * struct xt_chain_pre - a NEWCHAIN of the batch, for the rules after it
 * @family: NFPROTO_*
 * @table: NFTA_CHAIN_TABLE
 * @name: NFTA_CHAIN_NAME
 * @base: it has a hook
 * @bc: the hook
 */
struct xt_chain_pre {
	uint8_t family;
	const struct nlattr *table, *name;
	bool base;
	struct basechain bc;
};

static const struct attr_policy pre_hook_policy[NFTA_HOOK_MAX + 1] = {
	[NFTA_HOOK_HOOKNUM] = { .kind = ATTR_U32 },
	[NFTA_HOOK_PRIORITY] = { .kind = ATTR_U32 },
};

static bool pre_chain(struct xt_chain_pre *cp, uint8_t family,
		      const struct nlattr **cda)
{
	const struct nlattr *ha[NFTA_HOOK_MAX + 1];

	if (!cda[NFTA_CHAIN_TABLE] || !cda[NFTA_CHAIN_NAME])
		return false;
	memset(cp, 0, sizeof(*cp));
	cp->family = family;
	cp->table = cda[NFTA_CHAIN_TABLE];
	cp->name = cda[NFTA_CHAIN_NAME];
	if (!cda[NFTA_CHAIN_HOOK])
		return true;
	if (nfnl_attr_parse_nested(cda[NFTA_CHAIN_HOOK], NFTA_HOOK_MAX,
				   pre_hook_policy, ha, NULL) ||
	    !ha[NFTA_HOOK_HOOKNUM] || !ha[NFTA_HOOK_PRIORITY])
		return false;
	cp->base = true;
	cp->bc.hooknum = nfnl_attr_be32(ha[NFTA_HOOK_HOOKNUM]);
	cp->bc.priority = (int32_t)nfnl_attr_be32(ha[NFTA_HOOK_PRIORITY]);
	strcpy(cp->bc.type, "filter");
	if (cda[NFTA_CHAIN_TYPE])
		nfnl_attr_strlcpy(cp->bc.type, cda[NFTA_CHAIN_TYPE],
				  sizeof(cp->bc.type));
	return true;
}

/* the hook of the rule's chain: a NEWCHAIN before it, else the ruleset */
static bool pre_rule_chain(struct net *net, const struct xt_chain_pre *cps,
			   size_t ncps, uint8_t family, const struct nlattr **cda,
			   const char *table, struct basechain *bc, bool *base)
{
	char name[NAME_MAXLEN];
	struct table *t;
	struct chain *c;
	size_t i;

	for (i = ncps; i-- > 0;) {
		if (cps[i].family != family ||
		    nfnl_attr_strcmp(cps[i].table, table))
			continue;
		nfnl_attr_strlcpy(name, cps[i].name, sizeof(name));
		if (nfnl_attr_strcmp(cda[NFTA_RULE_CHAIN], name))
			continue;
		*base = cps[i].base;
		*bc = cps[i].bc;
		return true;
	}
	t = ruleset_table_lookup(net, table, family, genmask_next(net));
	nfnl_attr_strlcpy(name, cda[NFTA_RULE_CHAIN], sizeof(name));
	c = t ? ruleset_chain_lookup(t, name, genmask_next(net)) : NULL;
	if (!c)
		return false;
	*base = c->base != NULL;
	if (c->base)
		*bc = *c->base;
	return true;
}

/* the match/target expressions of one NEWRULE, onto @list */
static void pre_rule(struct net *net, const struct xt_chain_pre *cps,
		     size_t ncps, uint8_t family, const struct nlattr **cda,
		     struct xt_pre **list, size_t *n)
{
	char table[NAME_MAXLEN];
	struct basechain bc;
	const struct nlattr *a;
	bool base = false;
	size_t left;

	if (!cda[NFTA_RULE_TABLE] || !cda[NFTA_RULE_CHAIN] ||
	    !cda[NFTA_RULE_EXPRESSIONS])
		return;
	nfnl_attr_strlcpy(table, cda[NFTA_RULE_TABLE], sizeof(table));
	memset(&bc, 0, sizeof(bc));
	if (!pre_rule_chain(net, cps, ncps, family, cda, table, &bc, &base))
		return;
	nfnl_attr_for_each_nested(a, cda[NFTA_RULE_EXPRESSIONS], left) {
		const struct nlattr *tb[NFTA_EXPR_MAX + 1];
		const struct nlattr *xt[NFTA_MATCH_MAX + 1];
		struct xt_pre *x;
		bool target;

		if (nfnl_attr_parse_nested(a, NFTA_EXPR_MAX, expr_policy, tb, NULL) ||
		    !tb[NFTA_EXPR_NAME] || !tb[NFTA_EXPR_DATA])
			continue;
		target = !nfnl_attr_strcmp(tb[NFTA_EXPR_NAME], "target");
		if (!target && nfnl_attr_strcmp(tb[NFTA_EXPR_NAME], "match"))
			continue;
		if (nfnl_attr_parse_nested(tb[NFTA_EXPR_DATA], NFTA_MATCH_MAX,
					   nfnl_xt_policy, xt, NULL) ||
		    !xt[NFTA_MATCH_NAME] || !xt[NFTA_MATCH_REV] ||
		    !xt[NFTA_MATCH_INFO] || nfnl_attr_be32(xt[NFTA_MATCH_REV]) > 255)
			continue;
		x = calloc(1, sizeof(*x));
		if (!x)
			return;
		memcpy(x->table, table, sizeof(table));
		x->bc = bc;
		nfnl_xt_query_fill(&x->q, family, x->table, base ? &x->bc : NULL,
				   cda[NFTA_RULE_COMPAT], xt, target, x->name);
		x->next = *list;
		*list = x;
		(*n)++;
	}
}

void nfnl_rule_xt_prefetch(struct net *net, const char *p, size_t len)
{
	struct xt_chain_pre *cps = NULL;
	size_t ncps = 0, capcps = 0, n = 0, i;
	struct xt_pre *list = NULL, *x;
	struct nfnl_xt_query *qs;

	while (len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)p;
		const struct nfgenmsg *nfg = (const void *)((const char *)nlh + NLMSG_HDRLEN);
		size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
		const struct nlattr *cda[NFTA_CHAIN_MAX_K + NFTA_RULE_MAX_K + 2];
		uint16_t type = nlh->nlmsg_type;
		size_t msglen;

		if (nlh->nlmsg_len < hl || len < nlh->nlmsg_len ||
		    type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END)
			break;
		if (type == ((NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWCHAIN) &&
		    !nfnl_attr_parse((const char *)nlh + hl, nlh->nlmsg_len - hl,
				     NFTA_CHAIN_MAX_K, nfnl_chain_policy, cda, NULL)) {
			if (ncps == capcps) {
				struct xt_chain_pre *nc;

				capcps = capcps ? 2 * capcps : 16;
				nc = realloc(cps, capcps * sizeof(*cps));
				if (!nc)
					goto out_free;
				cps = nc;
			}
			if (pre_chain(&cps[ncps], nfg->nfgen_family, cda))
				ncps++;
		} else if (type == ((NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWRULE) &&
			   !nfnl_attr_parse((const char *)nlh + hl, nlh->nlmsg_len - hl,
					    NFTA_RULE_MAX_K, nfnl_rule_policy, cda, NULL)) {
			pre_rule(net, cps, ncps, nfg->nfgen_family, cda, &list, &n);
		}
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len)
			break;
		p += msglen;
		len -= msglen;
	}
	if (n) {
		qs = calloc(n, sizeof(*qs));
		if (qs) {
			/* in message order: the list is reversed */
			for (i = n, x = list; x; x = x->next)
				qs[--i] = x->q;
			nfnl_xt_prefetch(qs, n);
			free(qs);
		}
	}
out_free:
	while (list) {
		x = list;
		list = x->next;
		free(x);
	}
	free(cps);
}
