// SPDX-License-Identifier: GPL-2.0-only
/*
 * set.c - NEW/GET/DEL SET and NEW/GET/DEL SETELEM, as nf_tables_api.c
 * answers them: named and anonymous sets, maps and verdict maps, interval
 * and concatenated keys, elements with flags, timeouts and comments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "dataplane.h"
#include "handlers.h"
#include "dataplane.h"
#include "nfnl_compat.h"
#include "nfnl_expr.h"
#include "expr/counter.h"
#include "expr/dynset.h"

#define SET_F_MASK	(NFT_SET_ANONYMOUS | NFT_SET_CONSTANT | NFT_SET_INTERVAL | \
			 NFT_SET_TIMEOUT | NFT_SET_MAP | NFT_SET_EVAL | \
			 NFT_SET_OBJECT | NFT_SET_CONCAT | NFT_SET_EXPR)
#define DATA_RESERVED_MASK	0xffffff00u	/* NFT_DATA_RESERVED_MASK */
#define SET_MAX_ANONLEN		16		/* NFT_SET_MAX_ANONLEN */
#define ELEM_F_CATCHALL		0x2		/* NFT_SET_ELEM_CATCHALL */
#define SET_ELEMS_MAX		(1u << 22)	/* per set, daemon limit */

const struct attr_policy nfnl_set_policy[NFTA_SET_MAX + 1] = {
	[NFTA_SET_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_SET_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_SET_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_SET_KEY_TYPE] = { .kind = ATTR_U32 },
	[NFTA_SET_KEY_LEN] = { .kind = ATTR_U32 },
	[NFTA_SET_DATA_TYPE] = { .kind = ATTR_U32 },
	[NFTA_SET_DATA_LEN] = { .kind = ATTR_U32 },
	[NFTA_SET_POLICY] = { .kind = ATTR_U32 },
	[NFTA_SET_DESC] = { .kind = ATTR_NESTED },
	[NFTA_SET_ID] = { .kind = ATTR_U32 },
	[NFTA_SET_TIMEOUT] = { .kind = ATTR_U64 },
	[NFTA_SET_GC_INTERVAL] = { .kind = ATTR_U32 },
	[NFTA_SET_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
	[NFTA_SET_OBJ_TYPE] = { .kind = ATTR_U32 },
	[NFTA_SET_HANDLE] = { .kind = ATTR_U64 },
	[NFTA_SET_EXPR] = { .kind = ATTR_NESTED },
	[NFTA_SET_EXPRESSIONS] = { .kind = ATTR_NESTED },
};

static const struct attr_policy desc_policy[NFTA_SET_DESC_MAX + 1] = {
	[NFTA_SET_DESC_SIZE] = { .kind = ATTR_U32 },
	[NFTA_SET_DESC_CONCAT] = { .kind = ATTR_NESTED },
};

static const struct attr_policy field_policy[NFTA_SET_FIELD_MAX + 1] = {
	[NFTA_SET_FIELD_LEN] = { .kind = ATTR_U32 },
};

const struct attr_policy nfnl_setelem_list_policy[NFTA_SET_ELEM_LIST_MAX + 1] = {
	[NFTA_SET_ELEM_LIST_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_LIST_SET] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_LIST_ELEMENTS] = { .kind = ATTR_NESTED },
	[NFTA_SET_ELEM_LIST_SET_ID] = { .kind = ATTR_U32 },
};

static const struct attr_policy elem_policy[NFTA_SET_ELEM_MAX + 1] = {
	[NFTA_SET_ELEM_KEY] = { .kind = ATTR_NESTED },
	[NFTA_SET_ELEM_DATA] = { .kind = ATTR_NESTED },
	[NFTA_SET_ELEM_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_SET_ELEM_TIMEOUT] = { .kind = ATTR_U64 },
	[NFTA_SET_ELEM_EXPIRATION] = { .kind = ATTR_U64 },
	[NFTA_SET_ELEM_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
	[NFTA_SET_ELEM_EXPR] = { .kind = ATTR_NESTED },
	[NFTA_SET_ELEM_OBJREF] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_SET_ELEM_KEY_END] = { .kind = ATTR_NESTED },
	[NFTA_SET_ELEM_EXPRESSIONS] = { .kind = ATTR_NESTED },
};

/**
 * struct set_desc - what NEWSET asks for (nft_set_desc)
 */
struct set_desc {
	uint32_t flags, ktype, klen, dtype, dlen, objtype, policy, size;
	bool has_policy;
	uint64_t timeout;
	uint32_t gc_int;
	uint32_t nfields;
	uint8_t field_len[SET_FIELDS_MAX];
};

static int parse_concat(const struct nlattr *nest, struct set_desc *d)
{
	const struct nlattr *a;
	unsigned int regs = 0;
	size_t left;

	nfnl_attr_for_each_nested(a, nest, left) {
		const struct nlattr *tb[NFTA_SET_FIELD_MAX + 1];
		uint32_t len;
		int err;

		if ((a->nla_type & NLA_TYPE_MASK) != NFTA_LIST_ELEM)
			return -EINVAL;
		err = nfnl_attr_parse_nested(a, NFTA_SET_FIELD_MAX, field_policy, tb, NULL);
		if (err)
			return err;
		if (!tb[NFTA_SET_FIELD_LEN])
			return -EINVAL;
		len = nfnl_attr_be32(tb[NFTA_SET_FIELD_LEN]);
		if (!len || len > 0xff)
			return -EINVAL;
		if (d->nfields >= SET_FIELDS_MAX)
			return -E2BIG;
		regs += (len + 3) / 4;
		if (regs > 16)
			return -E2BIG;
		d->field_len[d->nfields++] = len;
	}
	return 0;
}

static int parse_desc(const struct nlattr *nest, struct set_desc *d)
{
	const struct nlattr *tb[NFTA_SET_DESC_MAX + 1];
	uint32_t i, len = 0;
	int err;

	err = nfnl_attr_parse_nested(nest, NFTA_SET_DESC_MAX, desc_policy, tb, NULL);
	if (err)
		return err;
	if (tb[NFTA_SET_DESC_SIZE])
		d->size = nfnl_attr_be32(tb[NFTA_SET_DESC_SIZE]);
	if (tb[NFTA_SET_DESC_CONCAT]) {
		err = parse_concat(tb[NFTA_SET_DESC_CONCAT], d);
		if (err)
			return err;
		for (i = 0; i < d->nfields; i++)
			len += (d->field_len[i] + 3u) & ~3u;
		if (d->nfields && len != d->klen)
			return -EINVAL;
	}
	return 0;
}

/* alloc_name - nf_tables_set_alloc_name(): "__set%d" picks a free number */
static int alloc_name(struct nfnl_ctx *ctx, struct table *t,
		      const struct nlattr *attr, char *out, size_t outlen)
{
	uint8_t mask = genmask_next(ctx->net);
	char name[NAME_MAXLEN];
	const char *p;
	struct set *s;

	nfnl_attr_strlcpy(name, attr, sizeof(name));
	p = strchr(name, '%');
	if (p) {
		static uint8_t inuse[4096];
		unsigned int n, min = 0;

		if (p[1] != 'd' || strchr(p + 2, '%'))
			return -EINVAL;
		if (strnlen(name, SET_MAX_ANONLEN) >= SET_MAX_ANONLEN)
			return -EINVAL;
		for (;;) {
			memset(inuse, 0, sizeof(inuse));
			list_for_each_entry(s, &t->sets, list) {
				int tmp;

				if (!active(s->genmask, mask))
					continue;
				if (sscanf(s->name, name, &tmp) != 1)
					continue;
				if (tmp < (int)min || tmp >= (int)(min + sizeof(inuse) * 8))
					continue;
				inuse[(tmp - min) / 8] |= 1u << ((tmp - min) % 8);
			}
			for (n = 0; n < sizeof(inuse) * 8; n++)
				if (!(inuse[n / 8] & (1u << (n % 8))))
					break;
			if (n < sizeof(inuse) * 8)
				break;
			min += sizeof(inuse) * 8;
		}
		snprintf(out, outlen, name, min + n);
	} else {
		snprintf(out, outlen, "%s", name);
	}
	list_for_each_entry(s, &t->sets, list) {
		if (active(s->genmask, mask) && !strcmp(s->name, out))
			return -ENFILE;
	}
	return 0;
}

static bool set_is_same(const struct set *s, const struct set_desc *d)
{
	uint32_t i;

	if (s->flags != d->flags || s->ktype != d->ktype || s->klen != d->klen ||
	    s->dtype != d->dtype || s->dlen != d->dlen || s->objtype != d->objtype ||
	    s->timeout != d->timeout || s->gc_int != d->gc_int ||
	    s->nfields != d->nfields)
		return false;
	for (i = 0; i < s->nfields; i++)
		if (s->field_len[i] != d->field_len[i])
			return false;
	return true;
}

static struct trans *set_tx_add(struct nfnl_ctx *ctx, enum trans_op op,
				struct set *s)
{
	struct trans *tr = nfnl_tx_add(ctx, op);

	if (!tr)
		return NULL;
	tr->table = s->table;
	tr->set = s;
	return tr;
}

/**
 * struct set_exprs - the stateful expressions of a NEWSET or an element
 * @buf: owned records
 * @len: bytes of records
 * @n: count
 * @type: enum expr_type of each
 */
struct set_exprs {
	struct expr *buf;
	uint32_t len;
	uint32_t n;
	uint16_t type[SET_EXPRS_MAX];
};

/* nft_set_expr_alloc(): NFTA_SET_EXPR, or NFTA_SET_EXPRESSIONS (flag EXPR) */
static int set_exprs_parse(struct nfnl_ctx *ctx, struct table *t,
			   const struct nlattr **cda, uint32_t flags,
			   struct set_exprs *x)
{
	struct nfnl_expr_ctx ectx = {
		.net = ctx->net, .table = t, .family = ctx->family,
		.tx = ctx->tx, .ext = ctx->ext,
	};
	const struct nlattr *a;
	size_t left;
	int err;

	if (cda[NFTA_SET_EXPR]) {
		err = nfnl_expr_stateful_parse(&ectx, cda[NFTA_SET_EXPR], flags,
					       &x->buf, &x->len, &x->type[0]);
		if (!err)
			x->n = 1;
		return err;
	}
	if (!cda[NFTA_SET_EXPRESSIONS])
		return 0;
	if (!(flags & NFT_SET_EXPR))
		return -EINVAL;
	nfnl_attr_for_each_nested(a, cda[NFTA_SET_EXPRESSIONS], left) {
		if (x->n == SET_EXPRS_MAX)
			return -E2BIG;
		if ((a->nla_type & NLA_TYPE_MASK) != NFTA_LIST_ELEM)
			return -EINVAL;
		err = nfnl_expr_stateful_parse(&ectx, a, flags, &x->buf, &x->len,
					       &x->type[x->n]);
		if (err)
			return err;
		x->n++;
	}
	return 0;
}

/* nft_set_is_same(): the same number of expressions of the same types */
static bool set_exprs_same(const struct set *s, const struct set_exprs *x)
{
	const struct expr *e;
	uint32_t i = 0;

	if (s->nexprs != x->n)
		return false;
	expr_for_each_in(e, s->exprs, s->exprs_len)
		if (e->type != x->type[i++])
			return false;
	return true;
}

int nfnl_newset(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	struct set_exprs x = { 0 };
	uint8_t mask = genmask_next(ctx->net);
	struct set_desc d = { .policy = NFT_SET_POL_PERFORMANCE };
	char name[NAME_MAXLEN];
	struct trans *tr;
	struct table *t;
	struct set *s;
	int err;

	if (!cda[NFTA_SET_TABLE] || !cda[NFTA_SET_NAME] || !cda[NFTA_SET_KEY_LEN] ||
	    !cda[NFTA_SET_ID])
		return -EINVAL;
	d.ktype = NFT_DATA_VALUE;
	if (cda[NFTA_SET_KEY_TYPE]) {
		d.ktype = nfnl_attr_be32(cda[NFTA_SET_KEY_TYPE]);
		if ((d.ktype & DATA_RESERVED_MASK) == DATA_RESERVED_MASK)
			return -EINVAL;
	}
	d.klen = nfnl_attr_be32(cda[NFTA_SET_KEY_LEN]);
	if (d.klen == 0 || d.klen > DATA_VALUE_MAXLEN)
		return -EINVAL;
	if (cda[NFTA_SET_FLAGS]) {
		d.flags = nfnl_attr_be32(cda[NFTA_SET_FLAGS]);
		if (d.flags & ~SET_F_MASK)
			return -EOPNOTSUPP;
		if ((d.flags & (NFT_SET_MAP | NFT_SET_OBJECT)) == (NFT_SET_MAP | NFT_SET_OBJECT) ||
		    (d.flags & (NFT_SET_EVAL | NFT_SET_OBJECT)) == (NFT_SET_EVAL | NFT_SET_OBJECT) ||
		    (d.flags & (NFT_SET_ANONYMOUS | NFT_SET_TIMEOUT | NFT_SET_EVAL)) ==
			(NFT_SET_ANONYMOUS | NFT_SET_TIMEOUT) ||
		    (d.flags & (NFT_SET_CONSTANT | NFT_SET_TIMEOUT)) ==
			(NFT_SET_CONSTANT | NFT_SET_TIMEOUT))
			return -EOPNOTSUPP;
		/* nft_select_set_ops(): only rhash has ->update, no intervals */
		if ((d.flags & (NFT_SET_EVAL | NFT_SET_INTERVAL)) ==
		    (NFT_SET_EVAL | NFT_SET_INTERVAL))
			return -EOPNOTSUPP;
	}
	if (cda[NFTA_SET_DATA_TYPE]) {
		if (!(d.flags & NFT_SET_MAP))
			return -EINVAL;
		d.dtype = nfnl_attr_be32(cda[NFTA_SET_DATA_TYPE]);
		if ((d.dtype & DATA_RESERVED_MASK) == DATA_RESERVED_MASK &&
		    d.dtype != NFT_DATA_VERDICT)
			return -EINVAL;
		if (d.dtype != NFT_DATA_VERDICT) {
			if (!cda[NFTA_SET_DATA_LEN])
				return -EINVAL;
			d.dlen = nfnl_attr_be32(cda[NFTA_SET_DATA_LEN]);
			if (d.dlen == 0 || d.dlen > DATA_VALUE_MAXLEN)
				return -EINVAL;
		} else {
			d.dlen = 16;	/* sizeof(struct nft_verdict) */
		}
	} else if (d.flags & NFT_SET_MAP) {
		return -EINVAL;
	}
	if (cda[NFTA_SET_OBJ_TYPE]) {
		if (!(d.flags & NFT_SET_OBJECT))
			return -EINVAL;
		d.objtype = nfnl_attr_be32(cda[NFTA_SET_OBJ_TYPE]);
		if (d.objtype == 0 || d.objtype > 10 /* NFT_OBJECT_MAX */)
			return -EOPNOTSUPP;
	} else if (d.flags & NFT_SET_OBJECT) {
		return -EINVAL;
	}
	if (cda[NFTA_SET_TIMEOUT]) {
		if (!(d.flags & NFT_SET_TIMEOUT))
			return -EINVAL;
		if (d.flags & NFT_SET_ANONYMOUS)
			return -EOPNOTSUPP;
		err = ruleset_msecs_to_jiffies(nfnl_attr_be64(cda[NFTA_SET_TIMEOUT]),
					       &d.timeout);
		if (err)
			return err;
	}
	if (cda[NFTA_SET_GC_INTERVAL]) {
		if (!(d.flags & NFT_SET_TIMEOUT))
			return -EINVAL;
		if (d.flags & NFT_SET_ANONYMOUS)
			return -EOPNOTSUPP;
		d.gc_int = nfnl_attr_be32(cda[NFTA_SET_GC_INTERVAL]);
	}
	if (cda[NFTA_SET_POLICY]) {
		d.policy = nfnl_attr_be32(cda[NFTA_SET_POLICY]);
		if (d.policy != NFT_SET_POL_PERFORMANCE && d.policy != NFT_SET_POL_MEMORY)
			return -EOPNOTSUPP;
		d.has_policy = true;
	}
	if (cda[NFTA_SET_DESC]) {
		err = parse_desc(cda[NFTA_SET_DESC], &d);
		if (err)
			return err;
		if (d.nfields > 1) {
			if (!(d.flags & NFT_SET_CONCAT))
				return -EINVAL;
		} else if (d.flags & NFT_SET_CONCAT) {
			return -EINVAL;
		}
	} else if (d.flags & NFT_SET_CONCAT) {
		return -EINVAL;
	}

	err = nfnl_table_find(ctx, cda[NFTA_SET_TABLE], mask, &t);
	if (err)
		return err;
	nfnl_attr_strlcpy(name, cda[NFTA_SET_NAME], sizeof(name));
	s = ruleset_set_lookup(t, name, mask);
	if (s) {
		if (ctx->nlh->nlmsg_flags & NLM_F_EXCL) {
			extack_set(ctx->ext, NULL, cda[NFTA_SET_NAME]);
			return -EEXIST;
		}
		if (ctx->nlh->nlmsg_flags & NLM_F_REPLACE)
			return -EOPNOTSUPP;
		if (s->flags & NFT_SET_ANONYMOUS)
			return -EOPNOTSUPP;
		err = set_exprs_parse(ctx, t, cda, d.flags, &x);
		if (!err && (!set_is_same(s, &d) || !set_exprs_same(s, &x))) {
			extack_set(ctx->ext, NULL, cda[NFTA_SET_NAME]);
			err = -EEXIST;
		}
		free(x.buf);
		return err;
	}
	if (!(ctx->nlh->nlmsg_flags & NLM_F_CREATE))
		return -ENOENT;
	err = alloc_name(ctx, t, cda[NFTA_SET_NAME], name, sizeof(name));
	if (err)
		return err;
	s = ruleset_set_alloc(t, name);
	if (!s)
		return -ENOMEM;
	if (cda[NFTA_SET_USERDATA]) {
		err = nfnl_attr_udata(cda[NFTA_SET_USERDATA], &s->udata);
		if (err)
			goto out_free_set;
	}
	err = set_exprs_parse(ctx, t, cda, d.flags, &x);
	s->exprs = x.buf;	/* owned by the set from here on */
	s->exprs_len = x.len;
	s->nexprs = x.n;
	if (err)
		goto out_free_set;
	s->flags = d.flags;
	s->ktype = d.ktype;
	s->klen = d.klen;
	s->dtype = d.dtype;
	s->dlen = d.dlen;
	s->objtype = d.objtype;
	s->policy = d.policy;
	s->has_policy = d.has_policy;
	s->size = d.size;
	s->timeout = d.timeout;
	s->gc_int = d.gc_int;
	s->nfields = d.nfields > 1 ? d.nfields : 0;
	memcpy(s->field_len, d.field_len, sizeof(s->field_len));
	s->handle = ++t->hgenerator;
	s->genmask = genmask_cur(ctx->net);
	tr = set_tx_add(ctx, TRANS_NEWSET, s);
	if (!tr) {
		err = -ENOMEM;
		goto out_free_set;
	}
	tr->id = nfnl_attr_be32(cda[NFTA_SET_ID]);
	list_add_tail(&s->list, &t->sets);
	t->use++;
	return 0;

out_free_set:
	ruleset_set_free(s);
	return err;
}

/* nest @attr of @n expressions: one is the nest itself, more a list */
static void exprs_fill(struct nfnl_buf *b, struct net *net, uint16_t one,
		       uint16_t list, const struct expr *buf, uint32_t len,
		       uint32_t n)
{
	const struct expr *e;
	size_t nest;

	if (n == 1) {
		nfnl_expr_fill(b, net, one, buf);
		return;
	}
	if (n < 2)
		return;
	nest = nfnl_nest_start(b, list);
	expr_for_each_in(e, buf, len)
		nfnl_expr_fill(b, net, NFTA_LIST_ELEM, e);
	nfnl_nest_end(b, nest);
}

static void fill_concat(struct nfnl_buf *b, const struct set *s)
{
	size_t concat = nfnl_nest_start(b, NFTA_SET_DESC_CONCAT);
	uint32_t i;

	for (i = 0; i < s->nfields; i++) {
		size_t elem = nfnl_nest_start(b, NFTA_LIST_ELEM);

		nfnl_put_be32(b, NFTA_SET_FIELD_LEN, s->field_len[i]);
		nfnl_nest_end(b, elem);
	}
	nfnl_nest_end(b, concat);
}

void nfnl_set_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint16_t flags, const struct set *s)
{
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event,
				    flags, seq, portid, s->table->family,
				    nft_res_id(net));
	size_t desc;

	nfnl_put_str(b, NFTA_SET_TABLE, s->table->name);
	nfnl_put_str(b, NFTA_SET_NAME, s->name);
	nfnl_put_be64(b, NFTA_SET_HANDLE, s->handle);
	if (event == NFT_MSG_DELSET) {
		/* nf_tables_fill_set(): a deletion names the set, no more */
		nfnl_msg_end(b, off);
		return;
	}
	if (s->flags)
		nfnl_put_be32(b, NFTA_SET_FLAGS, s->flags);
	nfnl_put_be32(b, NFTA_SET_KEY_TYPE, s->ktype);
	nfnl_put_be32(b, NFTA_SET_KEY_LEN, s->klen);
	if (s->flags & NFT_SET_MAP) {
		nfnl_put_be32(b, NFTA_SET_DATA_TYPE, s->dtype);
		nfnl_put_be32(b, NFTA_SET_DATA_LEN, s->dlen);
	}
	if (s->flags & NFT_SET_OBJECT)
		nfnl_put_be32(b, NFTA_SET_OBJ_TYPE, s->objtype);
	if (s->timeout)
		nfnl_put_be64(b, NFTA_SET_TIMEOUT, ruleset_jiffies_to_msecs(s->timeout));
	if (s->gc_int)
		nfnl_put_be32(b, NFTA_SET_GC_INTERVAL, s->gc_int);
	if (s->policy != NFT_SET_POL_PERFORMANCE)
		nfnl_put_be32(b, NFTA_SET_POLICY, s->policy);
	nfnl_put_udata(b, NFTA_SET_USERDATA, &s->udata);
	desc = nfnl_nest_start(b, NFTA_SET_DESC);
	if (s->size)
		nfnl_put_be32(b, NFTA_SET_DESC_SIZE, s->size);
	if (s->nfields > 1)
		fill_concat(b, s);
	nfnl_nest_end(b, desc);
	exprs_fill(b, net, NFTA_SET_EXPR, NFTA_SET_EXPRESSIONS, s->exprs,
		   s->exprs_len, s->nexprs);
	nfnl_msg_end(b, off);
}

/* set_find - by handle or name, active in @mask; ENOENT with bad attr */
static int set_find(struct nfnl_ctx *ctx, const struct nlattr **cda, uint8_t mask,
		    struct table **tp, struct set **sp, const struct nlattr **ap)
{
	const struct nlattr *attr;
	struct table *t;
	struct set *s;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_SET_TABLE], mask, &t);
	if (err)
		return err;
	*tp = t;
	if (cda[NFTA_SET_HANDLE] && mask == genmask_next(ctx->net)) {
		attr = cda[NFTA_SET_HANDLE];
		s = ruleset_set_lookup_handle(t, nfnl_attr_be64(attr), mask);
	} else {
		char name[NAME_MAXLEN];

		attr = cda[NFTA_SET_NAME];
		if (!attr)
			return -EINVAL;
		nfnl_attr_strlcpy(name, attr, sizeof(name));
		s = ruleset_set_lookup(t, name, mask);
	}
	*ap = attr;
	*sp = s;
	if (!s) {
		extack_set(ctx->ext, NULL, attr);
		return -ENOENT;
	}
	return 0;
}

int nfnl_set_delete(struct nfnl_ctx *ctx, struct set *s)
{
	struct trans *tr = set_tx_add(ctx, TRANS_DELSET, s);

	if (!tr)
		return -ENOMEM;
	tr->family = s->table->family;
	/* nft_map_deactivate(): the elements let go of their objects and
	 * the chains they jump to */
	if (s->flags & (NFT_SET_OBJECT | NFT_SET_MAP))
		ruleset_set_objrefs_put(s, genmask_next(ctx->net));
	s->genmask |= genmask_next(ctx->net);
	s->table->use--;
	return 0;
}

int nfnl_delset(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYSET;
	const struct nlattr *attr = NULL;
	struct table *t = NULL;
	struct set *s = NULL;
	int err;

	err = set_find(ctx, cda, genmask_next(ctx->net), &t, &s, &attr);
	if (err)
		return (err == -ENOENT && t && destroy) ? 0 : err;
	if (s->use || ((ctx->nlh->nlmsg_flags & NLM_F_NONREC) && s->nelems)) {
		extack_set(ctx->ext, NULL, attr);
		return -EBUSY;
	}
	return nfnl_set_delete(ctx, s);
}

int nfnl_getset(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	const struct nlattr *attr;
	struct table *t;
	struct set *s;
	int err;

	err = set_find(ctx, cda, genmask_cur(ctx->net), &t, &s, &attr);
	if (err)
		return err;
	nfnl_set_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
		      ctx->nlh->nlmsg_seq, NFT_MSG_NEWSET, 0, s);
	return nfnl_reply_end(ctx);
}

int nfnl_dumpsets(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct table *t;
	struct set *s;

	list_for_each_entry(t, &ctx->net->tables, list) {
		if (!nfnl_family_match(ctx->family, t->family))
			continue;
		if (cda[NFTA_SET_TABLE] && nfnl_attr_strcmp(cda[NFTA_SET_TABLE], t->name))
			continue;
		list_for_each_entry(s, &t->sets, list) {
			size_t off = ctx->cl->out.buf.len;

			if (!active(s->genmask, mask))
				continue;
			nfnl_set_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
				      ctx->nlh->nlmsg_seq, NFT_MSG_NEWSET,
				      NLM_F_MULTI, s);
			nfnl_dump_added(ctx, off);
		}
	}
	return 0;
}

/* ---- elements ----------------------------------------------------------- */

static void elem_fill(struct nfnl_buf *b, struct net *net, const struct set *s,
		      const struct set_elem *e)
{
	size_t nest = nfnl_nest_start(b, NFTA_LIST_ELEM);

	if (e->key.len)
		nfnl_data_value_dump(b, NFTA_SET_ELEM_KEY, &e->key);
	if (e->key_end.len)
		nfnl_data_value_dump(b, NFTA_SET_ELEM_KEY_END, &e->key_end);
	if (e->has_data) {
		if (s->dtype == NFT_DATA_VERDICT)
			nfnl_data_verdict_dump(b, NFTA_SET_ELEM_DATA, &e->verdict);
		else
			nfnl_data_value_dump(b, NFTA_SET_ELEM_DATA, &e->data);
	}
	exprs_fill(b, net, NFTA_SET_ELEM_EXPR, NFTA_SET_ELEM_EXPRESSIONS,
		   e->exprs, e->exprs_len, e->nexprs);
	if (e->obj)
		nfnl_put_str(b, NFTA_SET_ELEM_OBJREF, e->obj->name);
	if (e->flags)
		nfnl_put_be32(b, NFTA_SET_ELEM_FLAGS, e->flags);
	if (e->timeout) {
		uint64_t now = 0, left = 0;

		/* the timeout only where it is not the set's; what is left */
		if (e->timeout != s->timeout)
			nfnl_put_be64(b, NFTA_SET_ELEM_TIMEOUT,
				      ruleset_jiffies_to_msecs(e->timeout));
		if (!ruleset_jiffies_now(&now) && now < e->expires)
			left = e->expires - now;
		nfnl_put_be64(b, NFTA_SET_ELEM_EXPIRATION,
			      ruleset_jiffies_to_msecs(left));
	}
	nfnl_put_udata(b, NFTA_SET_ELEM_USERDATA, &e->udata);
	nfnl_nest_end(b, nest);
}

static size_t elem_msg_start(struct nfnl_buf *b, struct net *net, uint32_t portid,
			     uint32_t seq, int event, uint16_t flags,
			     const struct set *s, size_t *elems)
{
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event,
				    flags, seq, portid, s->table->family,
				    nft_res_id(net));

	nfnl_put_str(b, NFTA_SET_ELEM_LIST_TABLE, s->table->name);
	nfnl_put_str(b, NFTA_SET_ELEM_LIST_SET, s->name);
	*elems = nfnl_nest_start(b, NFTA_SET_ELEM_LIST_ELEMENTS);
	return off;
}

void nfnl_setelem_notify_fill(struct nfnl_buf *b, struct net *net,
			      uint32_t portid, uint32_t seq, int event,
			      uint16_t flags, const struct set *s,
			      const struct set_elem *e)
{
	size_t elems, off = elem_msg_start(b, net, portid, seq, event, flags, s,
					   &elems);

	elem_fill(b, net, s, e);
	nfnl_nest_end(b, elems);
	nfnl_msg_end(b, off);
}

/* elem_set - the set an element message names (by name or batch id) */
static void set_gc(struct set *s);
static void set_sync(struct net *net, struct set *s);

static int elem_set(struct nfnl_ctx *ctx, const struct nlattr **cda, uint8_t mask,
		    struct set **sp)
{
	struct table *t;
	struct set *s = NULL;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_SET_ELEM_LIST_TABLE], mask, &t);
	if (err)
		return err;
	if (cda[NFTA_SET_ELEM_LIST_SET]) {
		char name[NAME_MAXLEN];

		nfnl_attr_strlcpy(name, cda[NFTA_SET_ELEM_LIST_SET], sizeof(name));
		s = ruleset_set_lookup(t, name, mask);
	}
	if (!s && cda[NFTA_SET_ELEM_LIST_SET_ID] && ctx->tx)
		s = ruleset_tx_find_set_id(ctx->tx, t,
					   nfnl_attr_be32(cda[NFTA_SET_ELEM_LIST_SET_ID]));
	if (!s) {
		extack_set(ctx->ext, NULL, cda[NFTA_SET_ELEM_LIST_SET]);
		return cda[NFTA_SET_ELEM_LIST_SET] || cda[NFTA_SET_ELEM_LIST_SET_ID] ?
		       -ENOENT : -EINVAL;
	}
	*sp = s;
	set_gc(s);
	set_sync(ctx->net, s);
	return 0;
}

static bool data_eq(const struct data_value *a, const struct data_value *b)
{
	return a->len == b->len && !memcmp(a->v, b->v, a->len);
}

/* key_end - a range element's end; a single value ends where it starts */
static const struct data_value *key_end(const struct set_elem *e)
{
	return e->key_end.len ? &e->key_end : &e->key;
}

/* has @e timed out (the kernel's lookups skip such elements)? */
static bool expired(const struct set_elem *e)
{
	uint64_t now;

	return e->expires && !ruleset_jiffies_now(&now) &&
	       ruleset_elem_expired(e, now);
}

/*
 * set_gc - drop the expired elements no pending change refers to, as the
 * kernel's set garbage collection does (silently, outside transactions)
 */
static void gc_elem(struct set *s, struct set_elem *e)
{
	dataplane_elem_gc(s->table->net, s, e);
	ruleset_set_elem_unlink(s, e);
	if (e->verdict.chain)
		e->verdict.chain->use--;
	if (e->obj)
		e->obj->use--;
	if (ruleset_elem_counts(e))
		s->nelems--;
	ruleset_elem_free(e);
}

/* key order; on the same key an interval end sorts before a start */
static int elem_key_cmp(const void *a, const void *b, void *arg)
{
	const struct set_elem *x = *(struct set_elem *const *)a;
	const struct set_elem *y = *(struct set_elem *const *)b;
	int d = memcmp(x->key.v, y->key.v, *(const uint32_t *)arg);

	if (d)
		return d;
	return (int)(y->flags & NFT_SET_ELEM_INTERVAL_END) -
	       (int)(x->flags & NFT_SET_ELEM_INTERVAL_END);
}

/*
 * gc_interval_ends - nft_rbtree_gc(): an expired interval start goes with
 * its end element (the next key up, which has no timeout of its own)
 */
static void gc_interval_ends(struct set *s, uint64_t now)
{
	struct set_elem *e, **v;
	bool any = false;
	size_t n = 0, i;

	list_for_each_entry(e, &s->elems, list) {
		if (e->genmask || (e->flags & ELEM_F_CATCHALL))
			continue;
		n++;
		if (!(e->flags & NFT_SET_ELEM_INTERVAL_END) &&
		    ruleset_elem_expired(e, now))
			any = true;
	}
	if (!any)
		return;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;	/* the ends stay until the next collection */
	n = 0;
	list_for_each_entry(e, &s->elems, list)
		if (!e->genmask && !(e->flags & ELEM_F_CATCHALL))
			v[n++] = e;
	qsort_r(v, n, sizeof(*v), elem_key_cmp, &s->klen);
	for (i = 0; i + 1 < n; i++) {
		if ((v[i]->flags & NFT_SET_ELEM_INTERVAL_END) ||
		    !ruleset_elem_expired(v[i], now) ||
		    !(v[i + 1]->flags & NFT_SET_ELEM_INTERVAL_END))
			continue;
		gc_elem(s, v[i + 1]);
		i++;
	}
	free(v);
}

static void set_gc(struct set *s)
{
	struct set_elem *e, *en;
	uint64_t now;

	if (!(s->flags & NFT_SET_TIMEOUT) || ruleset_jiffies_now(&now))
		return;
	if ((s->flags & NFT_SET_INTERVAL) && s->nfields <= 1)
		gc_interval_ends(s, now);
	list_for_each_entry_safe(e, en, &s->elems, list) {
		if (e->genmask || !ruleset_elem_expired(e, now))
			continue;
		gc_elem(s, e);
	}
}

/* a committed element: not added or deleted by a batch in flight */
static bool committed(const struct set_elem *e)
{
	return !e->genmask;
}

/* the dynset that adds elements with statements to @s, NULL if none */
static const struct expr_dynset *set_dynset(const struct set *s, uint8_t mask)
{
	const struct chain *c;
	const struct rule *r;
	const struct expr *x;

	list_for_each_entry(c, &s->table->chains, list)
		list_for_each_entry(r, &c->rules, list) {
			if (!active(r->genmask, mask))
				continue;
			rule_for_each_expr(x, r) {
				const struct expr_dynset *d = expr_priv(x);

				if (x->type == EXPR_DYNSET && d->set == s &&
				    d->nexprs)
					return d;
			}
		}
	return NULL;
}

/* the live state of a packet-added element's statements, from its entry */
static void stmts_refresh(struct set_elem *e, const uint8_t *data)
{
	struct expr *x;

	expr_for_each_in(x, e->exprs, e->exprs_len)
		if (x->type == EXPR_COUNTER) {
			struct expr_counter *c = expr_priv(x);

			memcpy(&c->packets, data + SET_DATA_PACKETS, 8);
			memcpy(&c->bytes, data + SET_DATA_BYTES, 8);
		}
}

struct sync_ctx {
	struct set *s;
	const struct expr_dynset *d;
};

static int sync_one(void *arg, const uint8_t *key, uint64_t timeout,
		    uint64_t expires, const uint8_t *data)
{
	struct sync_ctx *sc = arg;
	struct data_value k = { 0 };
	struct set *s = sc->s;
	struct set_elem *e;
	uint32_t flags;
	int err;

	k.len = s->klen;
	memcpy(k.v, key, s->klen);
	memcpy(&flags, data + SET_DATA_FLAGS, 4);
	for (e = ruleset_set_elem_chain(s, &k); e; e = e->hnext)
		if (!(e->flags & ELEM_F_CATCHALL) && data_eq(&e->key, &k)) {
			e->synced = true;
			if (e->dyn)
				stmts_refresh(e, data);
			return 0;
		}
	/* one the packet path added: the model holds it from now on */
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	list_init(&e->list);
	e->key = k;
	e->timeout = timeout;
	e->expires = expires;
	e->synced = true;
	if ((flags & SET_STMTS_INLINE) && sc->d) {
		/* nft_dynset_expr_setup(): the dynset's statements */
		e->exprs = malloc(sc->d->exprs_len);
		if (!e->exprs) {
			free(e);
			return -ENOMEM;
		}
		memcpy(e->exprs, sc->d->exprs, sc->d->exprs_len);
		e->exprs_len = sc->d->exprs_len;
		e->nexprs = sc->d->nexprs;
		e->dyn = true;
		stmts_refresh(e, data);
	}
	err = ruleset_set_elem_link(s, e);
	if (err) {
		ruleset_elem_free(e);
		return err;
	}
	s->nelems++;
	return 0;
}

/*
 * set_sync - the elements of a set the packet path adds to or deletes
 * from (dynset), as its map holds them: the ones it added join the model
 * (committed, as the kernel's are at once), the committed ones it deleted
 * leave it. Elements a batch in flight adds or deletes stay as they are.
 */
static void set_sync(struct net *net, struct set *s)
{
	struct sync_ctx sc = { .s = s };
	struct set_elem *e, *en;

	/* a set the packet path does not write: nothing to read (and no
	 * walk over its elements: an element batch into a big set stays
	 * O(batch)) */
	if ((s->flags & (NFT_SET_INTERVAL | NFT_SET_MAP | NFT_SET_OBJECT)) ||
	    !dataplane_set_dynamic(net, s))
		return;
	sc.d = set_dynset(s, genmask_cur(net));

	list_for_each_entry(e, &s->elems, list)
		e->synced = false;
	if (dataplane_set_read(net, s, sync_one, &sc))
		return;
	list_for_each_entry_safe(e, en, &s->elems, list) {
		if (e->synced || !committed(e) || (e->flags & ELEM_F_CATCHALL))
			continue;
		ruleset_set_elem_unlink(s, e);
		if (e->obj)
			e->obj->use--;
		s->nelems--;
		ruleset_elem_free(e);
	}
}

/*
 * once a second (the kernel's set gc interval): timed out elements go; in
 * a dynamic set (NFT_SET_EVAL) whose elements the packet path adds with a
 * "ct count", so do those whose connection list empties (nft_rhash_gc()
 * with nft_rhash_expr_needs_gc_run(), every nft_set_gc_interval(): 1 s,
 * as a set with a ct count on its elements has no timeout flag, so no
 * gc-interval: the kernel refuses both, EOPNOTSUPP). The dataplane knows
 * which sets have such elements (-ENOENT for the others).
 */
void nfnl_sets_gc(struct net *net)
{
	struct table *t;
	struct set *s;

	list_for_each_entry(t, &net->tables, list)
		list_for_each_entry(s, &t->sets, list) {
			if (s->flags & NFT_SET_TIMEOUT) {
				set_gc(s);
				set_sync(net, s);
			} else if ((s->flags & NFT_SET_EVAL) &&
				   !(s->flags & (NFT_SET_INTERVAL | NFT_SET_MAP |
						 NFT_SET_OBJECT)) &&
				   !dataplane_set_cl_gc(net, s)) {
				set_sync(net, s);
			}
		}
}

/* is @e active in @mask, not expired, with @k's key, end and flags? */
static bool elem_matches(const struct set_elem *e, const struct set_elem *k,
			 uint8_t mask)
{
	return active(e->genmask, mask) && !expired(e) &&
	       data_eq(&e->key, &k->key) && data_eq(key_end(e), key_end(k)) &&
	       (e->flags & (NFT_SET_ELEM_INTERVAL_END | ELEM_F_CATCHALL)) ==
	       (k->flags & (NFT_SET_ELEM_INTERVAL_END | ELEM_F_CATCHALL));
}

/* elem_find - the active element with the same key (and interval-end flag) */
static struct set_elem *elem_find(struct set *s, const struct set_elem *k,
				  uint8_t mask)
{
	struct set_elem *e;

	/* the key index holds every element add_elem() linked */
	for (e = ruleset_set_elem_chain(s, &k->key); e; e = e->hnext)
		if (elem_matches(e, k, mask))
			return e;
	return NULL;
}

/*
 * nft_add_set_elem(): the element's timeout (its own, else the set's) and
 * expiration, in jiffies; @e->expires = now + (expiration ?: timeout)
 */
static int elem_timeout_parse(const struct set *s, const struct nlattr **nla,
			      struct set_elem *e)
{
	uint64_t expiration = 0, now;
	int err;

	if (nla[NFTA_SET_ELEM_TIMEOUT]) {
		if (!(s->flags & NFT_SET_TIMEOUT))
			return -EINVAL;
		err = ruleset_msecs_to_jiffies(nfnl_attr_be64(nla[NFTA_SET_ELEM_TIMEOUT]),
					       &e->timeout);
		if (err)
			return err;
	} else if ((s->flags & NFT_SET_TIMEOUT) &&
		   !(e->flags & NFT_SET_ELEM_INTERVAL_END)) {
		e->timeout = s->timeout;
	}
	if (nla[NFTA_SET_ELEM_EXPIRATION]) {
		if (!(s->flags & NFT_SET_TIMEOUT))
			return -EINVAL;
		if (!e->timeout)
			return -EOPNOTSUPP;
		err = ruleset_msecs_to_jiffies(nfnl_attr_be64(nla[NFTA_SET_ELEM_EXPIRATION]),
					       &expiration);
		if (err)
			return err;
		if (expiration > e->timeout)
			return -ERANGE;
	}
	if (!e->timeout)
		return 0;
	err = ruleset_jiffies_now(&now);
	if (err)
		return err;
	e->expires = now + (expiration ? expiration : e->timeout);
	e->expiration = expiration;
	return 0;
}

/*
 * nft_add_set_elem(): the element's own expressions, which must match the
 * set's in number and types when the set has some, else a copy of the
 * set's (an interval end has none)
 */
static int elem_exprs_parse(struct nfnl_ctx *ctx, struct set *s,
			    const struct nlattr **nla, struct set_elem *e)
{
	struct nfnl_expr_ctx ectx = {
		.net = ctx->net, .table = s->table, .family = ctx->family,
		.tx = ctx->tx, .ext = ctx->ext,
	};
	uint16_t type[SET_EXPRS_MAX];
	const struct expr *x;
	const struct nlattr *a;
	uint32_t i = 0;
	size_t left;
	int err;

	expr_for_each_in(x, s->exprs, s->exprs_len)
		if (i < SET_EXPRS_MAX)
			type[i++] = x->type;
	if (nla[NFTA_SET_ELEM_EXPR]) {
		if (s->nexprs && s->nexprs != 1)
			return -EOPNOTSUPP;
		err = nfnl_expr_stateful_parse(&ectx, nla[NFTA_SET_ELEM_EXPR],
					       s->flags, &e->exprs, &e->exprs_len, &type[1]);
		if (err)
			return err;
		e->nexprs = 1;
		if (s->nexprs && type[0] != type[1])
			return -EOPNOTSUPP;
		return 0;
	}
	if (nla[NFTA_SET_ELEM_EXPRESSIONS]) {
		nfnl_attr_for_each_nested(a, nla[NFTA_SET_ELEM_EXPRESSIONS], left) {
			uint16_t t;

			if (e->nexprs == SET_EXPRS_MAX ||
			    (s->nexprs && s->nexprs == e->nexprs))
				return -E2BIG;
			if ((a->nla_type & NLA_TYPE_MASK) != NFTA_LIST_ELEM)
				return -EINVAL;
			err = nfnl_expr_stateful_parse(&ectx, a, s->flags, &e->exprs,
						       &e->exprs_len, &t);
			if (err)
				return err;
			if (s->nexprs && t != type[e->nexprs])
				return -EOPNOTSUPP;
			e->nexprs++;
		}
		if (s->nexprs && s->nexprs != e->nexprs)
			return -EOPNOTSUPP;
		return 0;
	}
	if (!s->nexprs || (e->flags & NFT_SET_ELEM_INTERVAL_END))
		return 0;
	/* nft_set_elem_expr_clone(): the set's, state included */
	e->exprs = malloc(s->exprs_len);
	if (!e->exprs)
		return -ENOMEM;
	memcpy(e->exprs, s->exprs, s->exprs_len);
	e->exprs_len = s->exprs_len;
	e->nexprs = s->nexprs;
	return 0;
}

static int elem_parse(struct nfnl_ctx *ctx, struct set *s, const struct nlattr *attr,
		      struct set_elem *e, bool del)
{
	const struct nlattr *nla[NFTA_SET_ELEM_MAX + 1];
	struct nfnl_expr_ctx ectx = {
		.net = ctx->net, .table = s->table, .family = ctx->family,
		.tx = ctx->tx, .ext = ctx->ext,
	};
	int err;

	err = nfnl_attr_parse_nested(attr, NFTA_SET_ELEM_MAX, elem_policy, nla, NULL);
	if (err)
		return err;
	if (nla[NFTA_SET_ELEM_FLAGS]) {
		e->flags = nfnl_attr_be32(nla[NFTA_SET_ELEM_FLAGS]);
		if (e->flags & ~(NFT_SET_ELEM_INTERVAL_END | ELEM_F_CATCHALL))
			return -EOPNOTSUPP;
		if (!(s->flags & NFT_SET_INTERVAL) && (e->flags & NFT_SET_ELEM_INTERVAL_END))
			return -EINVAL;
		if ((e->flags & (NFT_SET_ELEM_INTERVAL_END | ELEM_F_CATCHALL)) ==
		    (NFT_SET_ELEM_INTERVAL_END | ELEM_F_CATCHALL))
			return -EINVAL;
	}
	if (!nla[NFTA_SET_ELEM_KEY] && !(e->flags & ELEM_F_CATCHALL))
		return -EINVAL;
	if (nla[NFTA_SET_ELEM_KEY]) {
		err = nfnl_data_value_parse(nla[NFTA_SET_ELEM_KEY], &e->key,
					    DATA_VALUE_MAXLEN, s->klen);
		if (err)
			return err;
	}
	if (nla[NFTA_SET_ELEM_KEY_END]) {
		err = nfnl_data_value_parse(nla[NFTA_SET_ELEM_KEY_END], &e->key_end,
					    DATA_VALUE_MAXLEN, s->klen);
		if (err)
			return err;
	}
	if (del)
		return 0;
	if (s->flags & NFT_SET_MAP) {
		if (!nla[NFTA_SET_ELEM_DATA] && !(e->flags & NFT_SET_ELEM_INTERVAL_END))
			return -EINVAL;
	} else if (nla[NFTA_SET_ELEM_DATA]) {
		return -EINVAL;
	}
	if (s->flags & NFT_SET_OBJECT) {
		if (!nla[NFTA_SET_ELEM_OBJREF] && !(e->flags & NFT_SET_ELEM_INTERVAL_END))
			return -EINVAL;
	} else if (nla[NFTA_SET_ELEM_OBJREF]) {
		return -EINVAL;
	}
	if ((e->flags & NFT_SET_ELEM_INTERVAL_END) &&
	    (nla[NFTA_SET_ELEM_DATA] || nla[NFTA_SET_ELEM_OBJREF] ||
	     nla[NFTA_SET_ELEM_TIMEOUT] || nla[NFTA_SET_ELEM_EXPIRATION] ||
	     nla[NFTA_SET_ELEM_USERDATA] || nla[NFTA_SET_ELEM_EXPR] ||
	     nla[NFTA_SET_ELEM_KEY_END] || nla[NFTA_SET_ELEM_EXPRESSIONS]))
		return -EINVAL;
	err = elem_timeout_parse(s, nla, e);
	if (err)
		return err;
	err = elem_exprs_parse(ctx, s, nla, e);
	if (err)
		return err;
	if (nla[NFTA_SET_ELEM_OBJREF]) {
		char name[NAME_MAXLEN];

		/* the reference is taken once the element is added */
		nfnl_attr_strlcpy(name, nla[NFTA_SET_ELEM_OBJREF], sizeof(name));
		e->obj = ruleset_obj_lookup(s->table, name, s->objtype,
					    genmask_next(ctx->net));
		if (!e->obj)
			return -ENOENT;
	}
	if (nla[NFTA_SET_ELEM_DATA]) {
		if (s->dtype == NFT_DATA_VERDICT) {
			err = nfnl_data_verdict_parse(&ectx, nla[NFTA_SET_ELEM_DATA],
						      &e->verdict);
		} else {
			err = nfnl_data_value_parse(nla[NFTA_SET_ELEM_DATA], &e->data,
						    DATA_VALUE_MAXLEN, s->dlen);
		}
		if (err)
			return err;
		e->has_data = true;
	}
	if (nla[NFTA_SET_ELEM_USERDATA])
		return nfnl_attr_udata(nla[NFTA_SET_ELEM_USERDATA], &e->udata);
	return 0;
}

static bool elem_same_data(const struct set *s, const struct set_elem *a,
			   const struct set_elem *b)
{
	if (a->has_data != b->has_data || a->obj != b->obj)
		return false;
	if (!a->has_data)
		return true;
	if (s->dtype == NFT_DATA_VERDICT)
		return a->verdict.code == b->verdict.code &&
		       a->verdict.chain == b->verdict.chain;
	return data_eq(&a->data, &b->data);
}

/* in_fields - is every field of @q within [@lo, @hi] (concatenated ranges)? */
static bool in_fields(const struct set *s, const uint8_t *q, const uint8_t *lo,
		      const uint8_t *hi)
{
	uint32_t i, off = 0;

	for (i = 0; i < s->nfields; i++) {
		uint32_t l = s->field_len[i];

		if (memcmp(q + off, lo + off, l) < 0 || memcmp(q + off, hi + off, l) > 0)
			return false;
		off += (l + 3u) & ~3u;
	}
	return true;
}

/*
 * pipapo_get - the element nft_set_pipapo's lookup finds for @key: the
 * first active (in @mask), unexpired element whose concatenated ranges
 * hold every field of @key (a concatenation with intervals)
 */
static struct set_elem *pipapo_get(struct set *s, const struct data_value *key,
				   uint8_t mask)
{
	struct set_elem *e;

	list_for_each_entry(e, &s->elems, list)
		if (active(e->genmask, mask) && !(e->flags & ELEM_F_CATCHALL) &&
		    !expired(e) && in_fields(s, key->v, e->key.v, key_end(e)->v))
			return e;
	return NULL;
}

static bool set_is_pipapo(const struct set *s)
{
	return (s->flags & NFT_SET_INTERVAL) && s->nfields > 1;
}

/*
 * pipapo_find - what nft_pipapo_insert() runs into when adding @k: the
 * element holding @k's start if it is @k exactly, else -EEXIST when that
 * start or @k's end lies in an element (a partial overlap: the kernel
 * turns its -ENOTEMPTY into -EEXIST, create or not); one enclosing @k
 * entirely is no clash
 */
static int pipapo_find(struct set *s, const struct set_elem *k, uint8_t mask,
		       struct set_elem **old)
{
	struct set_elem *d = pipapo_get(s, &k->key, mask);

	*old = NULL;
	if (d) {
		if (!data_eq(&d->key, &k->key) || !data_eq(key_end(d), key_end(k)))
			return -EEXIST;
		*old = d;
		return 0;
	}
	return pipapo_get(s, key_end(k), mask) ? -EEXIST : 0;
}

static int elem_update(struct nfnl_ctx *ctx, struct set *s, struct set_elem *old,
		       const struct set_elem *e);

static int add_elem(struct nfnl_ctx *ctx, struct set *s, const struct nlattr *attr)
{
	uint8_t mask = genmask_next(ctx->net);
	struct set_elem *e, *old;
	struct trans *tr;
	int err;

	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	list_init(&e->list);
	err = elem_parse(ctx, s, attr, e, false);
	if (err)
		goto out_free;
	if (set_is_pipapo(s) && !(e->flags & ELEM_F_CATCHALL)) {
		err = pipapo_find(s, e, mask, &old);
		if (err)
			goto out_free;
	} else {
		old = elem_find(s, e, mask);
	}
	if (old) {
		err = (!elem_same_data(s, old, e) ||
		       (ctx->nlh->nlmsg_flags & NLM_F_EXCL)) ? -EEXIST : 0;
		if (!err && old->timeout)
			err = elem_update(ctx, s, old, e);
		goto out_free;
	}
	/* the daemon's cap bounds entries: an interval counts two */
	if (ruleset_elem_counts(e) &&
	    ((s->size && s->nelems >= s->size) ||
	     s->nelems >= (s->flags & NFT_SET_INTERVAL ? SET_ELEMS_MAX / 2 :
			   SET_ELEMS_MAX))) {
		err = -ENFILE;
		goto out_free;
	}
	tr = set_tx_add(ctx, TRANS_NEWSETELEM, s);
	if (!tr) {
		err = -ENOMEM;
		goto out_free;
	}
	tr->elem = e;
	e->genmask = genmask_cur(ctx->net);
	if (e->verdict.chain)
		e->verdict.chain->use++;
	if (e->obj)
		e->obj->use++;
	err = ruleset_set_elem_link(s, e);
	if (err) {
		list_del(&tr->list);	/* the record just added */
		free(tr);
		goto out_unref;
	}
	if (ruleset_elem_counts(e))
		s->nelems++;
	return 0;

out_unref:
	if (e->verdict.chain)
		e->verdict.chain->use--;
	if (e->obj)
		e->obj->use--;
out_free:
	ruleset_elem_free(e);
	return err;
}

/*
 * elem_update - adding an element that exists refreshes its timeout: a
 * new timeout restarts it, an expiration sets what is left (applied at
 * commit, before the dataplane is prepared: see swap_updates())
 */
static int elem_update(struct nfnl_ctx *ctx, struct set *s, struct set_elem *old,
		       const struct set_elem *e)
{
	struct trans *tr;

	if (e->timeout == old->timeout && !e->expiration)
		return 0;
	tr = set_tx_add(ctx, TRANS_NEWSETELEM, s);
	if (!tr)
		return -ENOMEM;
	tr->elem = old;
	tr->update = true;
	tr->upd_timeout = e->timeout;
	tr->upd_expires = e->expires;
	return 0;
}

static int del_elem(struct nfnl_ctx *ctx, struct set *s, struct set_elem *e)
{
	struct trans *tr = set_tx_add(ctx, TRANS_DELSETELEM, s);

	if (!tr)
		return -ENOMEM;
	tr->elem = e;
	e->genmask |= genmask_next(ctx->net);
	if (e->verdict.chain)
		e->verdict.chain->use--;
	if (e->obj)
		e->obj->use--;
	if (ruleset_elem_counts(e))
		s->nelems--;
	return 0;
}

int nfnl_newsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	const struct nlattr *a;
	struct set *s;
	size_t left;
	int err;

	if (!cda[NFTA_SET_ELEM_LIST_ELEMENTS])
		return -EINVAL;
	err = elem_set(ctx, cda, genmask_next(ctx->net), &s);
	if (err)
		return err;
	if (s->use && (s->flags & (NFT_SET_CONSTANT | NFT_SET_ANONYMOUS)))
		return -EBUSY;
	nfnl_attr_for_each_nested(a, cda[NFTA_SET_ELEM_LIST_ELEMENTS], left) {
		err = add_elem(ctx, s, a);
		if (err) {
			ctx->ext->bad_attr = a;
			return err;
		}
	}
	/* an element jumping to a chain can make the table invalid */
	if (s->dtype == NFT_DATA_VERDICT)
		return nfnl_table_validate(ctx, s->table);
	return 0;
}

int nfnl_delsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYSETELEM;
	uint8_t mask = genmask_next(ctx->net);
	struct set_elem *e, *en;
	const struct nlattr *a;
	struct set *s;
	size_t left;
	int err;

	err = elem_set(ctx, cda, mask, &s);
	if (err)
		return err;
	if (s->use && (s->flags & NFT_SET_CONSTANT))
		return -EBUSY;
	if (!cda[NFTA_SET_ELEM_LIST_ELEMENTS]) {
		list_for_each_entry_safe(e, en, &s->elems, list) {
			if (!active(e->genmask, mask))
				continue;
			err = del_elem(ctx, s, e);
			if (err)
				return err;
		}
		return 0;
	}
	nfnl_attr_for_each_nested(a, cda[NFTA_SET_ELEM_LIST_ELEMENTS], left) {
		struct set_elem k = { 0 };

		err = elem_parse(ctx, s, a, &k, true);
		if (!err) {
			/* pipapo deactivates what holds the start key */
			if (set_is_pipapo(s) && !(k.flags & ELEM_F_CATCHALL))
				e = pipapo_get(s, &k.key, mask);
			else
				e = elem_find(s, &k, mask);
			err = e ? del_elem(ctx, s, e) : (destroy ? 0 : -ENOENT);
		}
		if (err) {
			ctx->ext->bad_attr = a;
			return err;
		}
	}
	return 0;
}

/*
 * elem_get - what the kernel's set backend ->get() finds for key @k: the
 * exact element, or for interval sets the element whose range holds it
 * (pipapo: the element of the ranges; rbtree, __nft_rbtree_get(): a start
 * query gets the start of the interval holding it, an end query (the key
 * after a range, NFT_SET_ELEM_INTERVAL_END) the end closing that range)
 */
static struct set_elem *elem_get(struct set *s, const struct set_elem *k,
				 uint8_t mask)
{
	bool end = k->flags & NFT_SET_ELEM_INTERVAL_END;
	struct set_elem *e, *best = NULL;

	if (!(s->flags & NFT_SET_INTERVAL) || (k->flags & ELEM_F_CATCHALL))
		return elem_find(s, k, mask);
	list_for_each_entry(e, &s->elems, list) {
		bool e_end = e->flags & NFT_SET_ELEM_INTERVAL_END;
		int d;

		if (!active(e->genmask, mask) || (e->flags & ELEM_F_CATCHALL) ||
		    expired(e))
			continue;
		if (s->nfields) {
			if (in_fields(s, k->key.v, e->key.v, key_end(e)->v))
				return e;
			continue;
		}
		d = memcmp(e->key.v, k->key.v, s->klen);
		if (!d && e_end == end)
			return e;
		if (end) {
			/* the least key above q */
			if (d > 0 && (!best || memcmp(e->key.v, best->key.v, s->klen) < 0))
				best = e;
			continue;
		}
		if (d > 0)
			continue;
		/* the greatest key <= q; a start beats an end on the same key */
		if (!best || memcmp(e->key.v, best->key.v, s->klen) > 0 ||
		    (!memcmp(e->key.v, best->key.v, s->klen) && !e_end))
			best = e;
	}
	if (best && !(best->flags & NFT_SET_ELEM_INTERVAL_END) != !end)
		return NULL;
	return best;
}

int nfnl_getsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	const struct nlattr *a;
	struct set *s;
	size_t left;
	int err;

	err = elem_set(ctx, cda, mask, &s);
	if (err)
		return err;
	if (!cda[NFTA_SET_ELEM_LIST_ELEMENTS])
		return -EINVAL;
	nfnl_attr_for_each_nested(a, cda[NFTA_SET_ELEM_LIST_ELEMENTS], left) {
		struct set_elem k = { 0 }, *e;

		err = elem_parse(ctx, s, a, &k, true);
		if (err)
			return err;
		e = elem_get(s, &k, mask);
		if (!e)
			return -ENOENT;
		nfnl_setelem_notify_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
					 ctx->nlh->nlmsg_seq, NFT_MSG_NEWSETELEM, 0,
					 s, e);
		nfnl_out_cut(&ctx->cl->out);
	}
	return ctx->cl->out.buf.err;
}

int nfnl_dumpsetelems(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct nfnl_buf *b = &ctx->cl->out.buf;
	const struct set_elem *e;
	size_t off = 0, elems = 0;
	bool open = false;
	struct set *s;
	int err;

	err = elem_set(ctx, cda, mask, &s);
	if (err)
		return err;
	list_for_each_entry(e, &s->elems, list) {
		if (!active(e->genmask, mask) || expired(e))
			continue;
		if (!open) {
			off = elem_msg_start(b, ctx->net, ctx->cl->portid,
					     ctx->nlh->nlmsg_seq, NFT_MSG_NEWSETELEM,
					     NLM_F_MULTI, s, &elems);
			open = true;
		}
		elem_fill(b, ctx->net, s, e);
		if (b->len - off > 3000) {
			nfnl_nest_end(b, elems);
			nfnl_msg_end(b, off);
			nfnl_dump_added(ctx, off);
			open = false;
		}
	}
	if (open) {
		nfnl_nest_end(b, elems);
		nfnl_msg_end(b, off);
		nfnl_dump_added(ctx, off);
	}
	return 0;
}
