// SPDX-License-Identifier: GPL-2.0-only
/*
 * obj.c - NEW/GET/GET_RESET/DEL/DESTROY OBJ, as nf_tables_api.c answers
 * them: stateful objects of the types in obj_types[], each parsed and
 * dumped by its nfnl/obj/X.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "handlers.h"
#include "nfnl_compat.h"
#include "nfnl_obj.h"

#define OBJ_TABLE_MAX	(1u << 16)	/* objects per table, daemon limit */
#define OBJ_ATTR_MAX	15		/* largest maxattr of obj_types[] */

const struct attr_policy nfnl_obj_policy[NFTA_OBJ_MAX + 1] = {
	[NFTA_OBJ_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_OBJ_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_OBJ_TYPE] = { .kind = ATTR_U32 },
	[NFTA_OBJ_DATA] = { .kind = ATTR_NESTED },
	[NFTA_OBJ_HANDLE] = { .kind = ATTR_U64 },
	[NFTA_OBJ_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
};

/* the object types nfbpfd models, indexed by NFT_OBJECT_* */
static const struct nfnl_obj_ops *const obj_types[NFT_OBJECT_MAX + 1] = {
	[NFT_OBJECT_COUNTER] = &nfnl_obj_counter,
	[NFT_OBJECT_QUOTA] = &nfnl_obj_quota,
	[NFT_OBJECT_CT_HELPER] = &nfnl_obj_ct_helper,
	[NFT_OBJECT_LIMIT] = &nfnl_obj_limit,
	[NFT_OBJECT_CT_TIMEOUT] = &nfnl_obj_ct_timeout,
	[NFT_OBJECT_SECMARK] = &nfnl_obj_secmark,
	[NFT_OBJECT_CT_EXPECT] = &nfnl_obj_ct_expect,
	[NFT_OBJECT_SYNPROXY] = &nfnl_obj_synproxy,
};

_Static_assert(NFTA_LIMIT_MAX <= OBJ_ATTR_MAX && NFTA_QUOTA_MAX <= OBJ_ATTR_MAX &&
	       NFTA_CT_EXPECT_MAX <= OBJ_ATTR_MAX && NFTA_SECMARK_MAX <= OBJ_ATTR_MAX &&
	       NFTA_CT_HELPER_MAX <= OBJ_ATTR_MAX && NFTA_CT_TIMEOUT_MAX <= OBJ_ATTR_MAX &&
	       NFTA_SYNPROXY_MAX <= OBJ_ATTR_MAX && NFTA_COUNTER_MAX <= OBJ_ATTR_MAX,
	       "obj_init() parses into a table of OBJ_ATTR_MAX + 1");

static const struct nfnl_obj_ops *type_ops(uint32_t type)
{
	return type <= NFT_OBJECT_MAX ? obj_types[type] : NULL;
}

int nfnl_obj_ct_netns_get(uint8_t family)
{
	switch (family) {
	case NFPROTO_IPV4:
	case NFPROTO_IPV6:
	case NFPROTO_INET:
		return 0;
	default:
		return -EPROTO;	/* no conntrack for arp, bridge, netdev */
	}
}

size_t nfnl_nest_start_flag(struct nfnl_buf *b, uint16_t type)
{
	return nfnl_nest_start(b, type | NLA_F_NESTED);
}

/*
 * type_get - nft_obj_type_get(): a type the kernel does not know is ENOENT;
 * the ones it knows that nfbpfd does not model are refused with a message
 */
static int type_get(struct nfnl_ctx *ctx, uint32_t type,
		    const struct nfnl_obj_ops **ops)
{
	*ops = type_ops(type);
	if (*ops)
		return 0;
	if (type == NFT_OBJECT_CONNLIMIT || type == NFT_OBJECT_TUNNEL) {
		extack_set(ctx->ext, type == NFT_OBJECT_CONNLIMIT ?
			   "nfbpfd: connlimit objects are not supported yet" :
			   "nfbpfd: tunnel objects are not supported yet", NULL);
		return -EOPNOTSUPP;
	}
	return -ENOENT;
}

/* obj_init - nft_obj_init(): parse NFTA_OBJ_DATA into @d */
static int obj_init(struct nfnl_ctx *ctx, const struct nfnl_obj_ops *ops,
		    const struct nlattr *attr, union obj_data *d)
{
	const struct nlattr *tb[OBJ_ATTR_MAX + 1];
	struct nfnl_obj_ctx octx = { .family = ctx->family, .ext = ctx->ext };
	int err;

	memset(d, 0, sizeof(*d));
	if (attr) {
		err = nfnl_attr_parse_nested(attr, ops->maxattr, ops->policy, tb, NULL);
		if (err)
			return err;
	} else {
		memset(tb, 0, sizeof(tb));
	}
	return ops->parse(&octx, d, tb);
}

/* obj_table - nft_table_lookup() of NFTA_OBJ_TABLE, its errors and bad attr */
static int obj_table(struct nfnl_ctx *ctx, const struct nlattr **cda,
		     uint8_t mask, struct table **tp)
{
	return nfnl_table_find(ctx, cda[NFTA_OBJ_TABLE], mask, tp);
}

static struct trans *obj_tx_add(struct nfnl_ctx *ctx, enum trans_op op,
				struct object *obj)
{
	struct trans *tr = nfnl_tx_add(ctx, op);

	if (!tr)
		return NULL;
	tr->table = obj->table;
	tr->obj = obj;
	return tr;
}

/* updobj - nf_tables_updobj(): the new state applies at commit */
static int updobj(struct nfnl_ctx *ctx, const struct nfnl_obj_ops *ops,
		  const struct nlattr *attr, struct object *obj)
{
	union obj_data nd, *upd;
	struct trans *tr;
	int err;

	err = obj_init(ctx, ops, attr, &nd);
	if (err)
		return err;
	upd = malloc(sizeof(*upd));
	if (!upd)
		return -ENOMEM;
	*upd = obj->data;
	ops->update(upd, &nd);
	tr = obj_tx_add(ctx, TRANS_NEWOBJ, obj);
	if (!tr) {
		free(upd);
		return -ENOMEM;
	}
	tr->obj_upd = upd;
	return 0;
}

int nfnl_newobj(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_next(ctx->net);
	const struct nfnl_obj_ops *ops;
	char name[NAME_MAXLEN];
	struct object *obj;
	struct trans *tr;
	struct table *t;
	uint32_t type;
	int err;

	if (!cda[NFTA_OBJ_TYPE] || !cda[NFTA_OBJ_NAME] || !cda[NFTA_OBJ_DATA])
		return -EINVAL;
	err = obj_table(ctx, cda, mask, &t);
	if (err)
		return err;
	type = nfnl_attr_be32(cda[NFTA_OBJ_TYPE]);
	nfnl_attr_strlcpy(name, cda[NFTA_OBJ_NAME], sizeof(name));
	obj = ruleset_obj_lookup(t, name, type, mask);
	if (obj) {
		if (ctx->nlh->nlmsg_flags & NLM_F_EXCL) {
			extack_set(ctx->ext, NULL, cda[NFTA_OBJ_NAME]);
			return -EEXIST;
		}
		if (ctx->nlh->nlmsg_flags & NLM_F_REPLACE)
			return -EOPNOTSUPP;
		ops = type_ops(type);
		if (!ops->update)
			return 0;	/* no transaction, no event */
		return updobj(ctx, ops, cda[NFTA_OBJ_DATA], obj);
	}

	err = type_get(ctx, type, &ops);
	if (err)
		return err;
	if (t->nobjects >= OBJ_TABLE_MAX) {
		extack_set(ctx->ext, "nfbpfd: too many objects in this table", NULL);
		return -ENOSPC;
	}
	obj = ruleset_obj_alloc(t, name, type);
	if (!obj)
		return -ENOMEM;
	err = obj_init(ctx, ops, cda[NFTA_OBJ_DATA], &obj->data);
	if (err)
		goto out_free_obj;
	obj->handle = ++t->hgenerator;
	if (cda[NFTA_OBJ_USERDATA]) {
		err = nfnl_attr_udata(cda[NFTA_OBJ_USERDATA], &obj->udata);
		if (err)
			goto out_free_obj;
	}
	obj->genmask = genmask_cur(ctx->net);
	err = ruleset_obj_link(obj);
	if (err)
		goto out_free_obj;
	tr = obj_tx_add(ctx, TRANS_NEWOBJ, obj);
	if (!tr) {
		ruleset_obj_unlink(obj);
		err = -ENOMEM;
		goto out_free_obj;
	}
	t->use++;
	return 0;

out_free_obj:
	ruleset_obj_free(obj);
	return err;
}

void nfnl_obj_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint16_t flags, uint8_t family,
		   struct object *obj, bool reset)
{
	const struct nfnl_obj_ops *ops = type_ops(obj->type);
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event,
				    flags, seq, portid, family, nft_res_id(net));
	union obj_data d = obj->data;
	size_t nest;

	if (ops->live)
		ops->live(net, obj, &d);
	nfnl_put_str(b, NFTA_OBJ_TABLE, obj->table->name);
	nfnl_put_str(b, NFTA_OBJ_NAME, obj->name);
	nfnl_put_be32(b, NFTA_OBJ_TYPE, obj->type);
	nfnl_put_be64(b, NFTA_OBJ_HANDLE, obj->handle);
	/* a deletion event names the object only (nf_tables_fill_obj_info) */
	if (event == NFT_MSG_DELOBJ || event == NFT_MSG_DESTROYOBJ) {
		nfnl_msg_end(b, off);
		return;
	}
	nfnl_put_be32(b, NFTA_OBJ_USE, obj->use);
	nest = nfnl_nest_start(b, NFTA_OBJ_DATA);
	ops->dump(b, &d);
	nfnl_nest_end(b, nest);
	nfnl_put_udata(b, NFTA_OBJ_USERDATA, &obj->udata);
	nfnl_msg_end(b, off);
	if (reset && ops->reset && !b->err)
		ops->reset(net, obj, &d);
}

int nfnl_obj_delete(struct nfnl_ctx *ctx, struct object *obj)
{
	struct trans *tr = obj_tx_add(ctx, TRANS_DELOBJ, obj);

	if (!tr)
		return -ENOMEM;
	tr->family = obj->table->family;
	obj->genmask |= genmask_next(ctx->net);
	obj->table->use--;
	return 0;
}

int nfnl_delobj(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYOBJ;
	uint8_t mask = genmask_next(ctx->net);
	const struct nlattr *attr;
	struct object *obj;
	struct table *t;
	uint32_t type;
	int err;

	if (!cda[NFTA_OBJ_TYPE] || (!cda[NFTA_OBJ_NAME] && !cda[NFTA_OBJ_HANDLE]))
		return -EINVAL;
	err = obj_table(ctx, cda, mask, &t);
	if (err)
		return err;
	type = nfnl_attr_be32(cda[NFTA_OBJ_TYPE]);
	if (cda[NFTA_OBJ_HANDLE]) {
		attr = cda[NFTA_OBJ_HANDLE];
		obj = ruleset_obj_lookup_handle(t, nfnl_attr_be64(attr), type, mask);
	} else {
		char name[NAME_MAXLEN];

		attr = cda[NFTA_OBJ_NAME];
		nfnl_attr_strlcpy(name, attr, sizeof(name));
		obj = ruleset_obj_lookup(t, name, type, mask);
	}
	if (!obj) {
		if (destroy)
			return 0;
		extack_set(ctx->ext, NULL, attr);
		return -ENOENT;
	}
	if (obj->use > 0) {
		extack_set(ctx->ext, NULL, attr);
		return -EBUSY;
	}
	return nfnl_obj_delete(ctx, obj);
}

static bool is_reset(const struct nfnl_ctx *ctx)
{
	return NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_GETOBJ_RESET;
}

int nfnl_getobj(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	char name[NAME_MAXLEN];
	struct object *obj;
	struct table *t;
	int err;

	if (!cda[NFTA_OBJ_NAME] || !cda[NFTA_OBJ_TYPE])
		return -EINVAL;
	err = obj_table(ctx, cda, mask, &t);
	if (err)
		return err;
	nfnl_attr_strlcpy(name, cda[NFTA_OBJ_NAME], sizeof(name));
	obj = ruleset_obj_lookup(t, name, nfnl_attr_be32(cda[NFTA_OBJ_TYPE]), mask);
	if (!obj) {
		extack_set(ctx->ext, NULL, cda[NFTA_OBJ_NAME]);
		return -ENOENT;
	}
	nfnl_obj_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
		      ctx->nlh->nlmsg_seq, NFT_MSG_NEWOBJ, 0, ctx->family, obj,
		      is_reset(ctx));
	return nfnl_reply_end(ctx);
}

int nfnl_dumpobjs(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint32_t type = cda[NFTA_OBJ_TYPE] ? nfnl_attr_be32(cda[NFTA_OBJ_TYPE]) :
					     NFT_OBJECT_UNSPEC;
	uint8_t mask = genmask_cur(ctx->net);
	struct object *obj;
	struct table *t;

	list_for_each_entry(t, &ctx->net->tables, list) {
		if (!nfnl_family_match(ctx->family, t->family))
			continue;
		list_for_each_entry(obj, &t->objects, list) {
			size_t off = ctx->cl->out.buf.len;

			if (!active(obj->genmask, mask))
				continue;
			if (cda[NFTA_OBJ_TABLE] &&
			    nfnl_attr_strcmp(cda[NFTA_OBJ_TABLE], t->name))
				continue;
			if (type != NFT_OBJECT_UNSPEC && obj->type != type)
				continue;
			nfnl_obj_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
				      ctx->nlh->nlmsg_seq, NFT_MSG_NEWOBJ,
				      NLM_F_MULTI | NLM_F_APPEND, t->family, obj,
				      is_reset(ctx));
			nfnl_dump_added(ctx, off);
		}
	}
	return 0;
}
