// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - NEW/GET/DEL/DESTROY TABLE, as nf_tables_api.c answers them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "nfnl_compat.h"

#define TABLE_F_MASK	(NFT_TABLE_F_DORMANT | NFT_TABLE_F_OWNER | 0x4 /* PERSIST */)

const struct attr_policy nfnl_table_policy[NFTA_TABLE_MAX + 1] = {
	[NFTA_TABLE_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_TABLE_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_TABLE_HANDLE] = { .kind = ATTR_U64 },
	[NFTA_TABLE_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
};

void nfnl_table_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		     uint32_t seq, int event, uint16_t flags,
		     const struct table *t)
{
	size_t off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event,
				    flags, seq, portid, t->family, nft_res_id(net));

	/* nf_tables_fill_table_info()'s order; a deletion stops there */
	nfnl_put_str(b, NFTA_TABLE_NAME, t->name);
	nfnl_put_be32(b, NFTA_TABLE_USE, t->use);
	nfnl_put_be64(b, NFTA_TABLE_HANDLE, t->handle);
	if (event == NFT_MSG_DELTABLE) {
		nfnl_msg_end(b, off);
		return;
	}
	nfnl_put_be32(b, NFTA_TABLE_FLAGS, t->flags & TABLE_F_MASK);
	if (t->flags & NFT_TABLE_F_OWNER)
		nfnl_put_be32(b, NFTA_TABLE_OWNER, t->owner);
	nfnl_put_udata(b, NFTA_TABLE_USERDATA, &t->udata);
	nfnl_msg_end(b, off);
}

/* owner_ok - nft_table_lookup() refuses other ports' owned tables */
static int owner_ok(struct nfnl_ctx *ctx, const struct table *t, uint8_t mask)
{
	if (mask == genmask_next(ctx->net) && (t->flags & NFT_TABLE_F_OWNER) &&
	    t->owner != ctx->cl->portid)
		return -EPERM;
	return 0;
}

int nfnl_table_find(struct nfnl_ctx *ctx, const struct nlattr *attr,
		    uint8_t mask, struct table **out)
{
	char name[NAME_MAXLEN];
	struct table *t;
	int err;

	if (!attr)
		return -EINVAL;
	nfnl_attr_strlcpy(name, attr, sizeof(name));
	t = ruleset_table_lookup(ctx->net, name, ctx->family, mask);
	err = t ? owner_ok(ctx, t, mask) : -ENOENT;
	if (err) {
		extack_set(ctx->ext, NULL, attr);
		return err;
	}
	*out = t;
	return 0;
}

/* table_find - lookup with the kernel's error codes; sets the bad attr */
static int table_find(struct nfnl_ctx *ctx, const struct nlattr **cda,
		      uint8_t mask, bool by_handle, struct table **out)
{
	const struct nlattr *attr;
	struct table *t;
	char name[NAME_MAXLEN];

	if (by_handle && cda[NFTA_TABLE_HANDLE]) {
		attr = cda[NFTA_TABLE_HANDLE];
		t = ruleset_table_lookup_handle(ctx->net, nfnl_attr_be64(attr),
						ctx->family, mask);
	} else {
		attr = cda[NFTA_TABLE_NAME];
		if (!attr)
			return -EINVAL;
		nfnl_attr_strlcpy(name, attr, sizeof(name));
		t = ruleset_table_lookup(ctx->net, name, ctx->family, mask);
	}
	if (!t) {
		extack_set(ctx->ext, NULL, attr);
		return -ENOENT;
	}
	if (owner_ok(ctx, t, mask)) {
		extack_set(ctx->ext, NULL, attr);
		return -EPERM;
	}
	*out = t;
	return 0;
}

static int updtable(struct nfnl_ctx *ctx, struct table *t,
		    const struct nlattr **cda)
{
	struct trans *tr;
	uint32_t flags;

	if (!cda[NFTA_TABLE_FLAGS])
		return 0;
	flags = nfnl_attr_be32(cda[NFTA_TABLE_FLAGS]);
	if (flags & ~TABLE_F_MASK)
		return -EOPNOTSUPP;
	if (flags == t->flags)
		return 0;
	if (((t->flags & NFT_TABLE_F_OWNER) && !(flags & NFT_TABLE_F_OWNER)) ||
	    ((flags & NFT_TABLE_F_OWNER) && !(t->flags & NFT_TABLE_F_OWNER)))
		return -EOPNOTSUPP;
	if ((flags ^ t->flags) & 0x4)
		return -EOPNOTSUPP;
	/* no dormant off/on/off games in one transaction */
	list_for_each_entry(tr, &ctx->tx->records, list) {
		if (tr->op == TRANS_NEWTABLE && tr->update && tr->table == t)
			return -EINVAL;
	}
	tr = nfnl_tx_add(ctx, TRANS_NEWTABLE);
	if (!tr)
		return -ENOMEM;
	tr->table = t;
	tr->update = true;
	tr->upd_flags = flags;
	return 0;
}

int nfnl_newtable(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_next(ctx->net);
	const struct nlattr *attr = cda[NFTA_TABLE_NAME];
	char name[NAME_MAXLEN];
	struct table *t;
	struct trans *tr;
	uint32_t flags = 0;
	int err;

	if (!attr)
		return -EINVAL;
	nfnl_attr_strlcpy(name, attr, sizeof(name));
	t = ruleset_table_lookup(ctx->net, name, ctx->family, mask);
	if (t) {
		if (owner_ok(ctx, t, mask))
			return -EPERM;
		if (ctx->nlh->nlmsg_flags & NLM_F_EXCL) {
			extack_set(ctx->ext, NULL, attr);
			return -EEXIST;
		}
		if (ctx->nlh->nlmsg_flags & NLM_F_REPLACE)
			return -EOPNOTSUPP;
		return updtable(ctx, t, cda);
	}
	if (cda[NFTA_TABLE_FLAGS]) {
		flags = nfnl_attr_be32(cda[NFTA_TABLE_FLAGS]);
		if (flags & ~TABLE_F_MASK)
			return -EOPNOTSUPP;
	}
	t = ruleset_table_alloc(ctx->net, name, ctx->family);
	if (!t)
		return -ENOMEM;
	if (cda[NFTA_TABLE_USERDATA]) {
		err = nfnl_attr_udata(cda[NFTA_TABLE_USERDATA], &t->udata);
		if (err)
			goto out_free_table;
	}
	t->flags = flags;
	t->handle = ++ctx->net->table_handle;
	if (flags & NFT_TABLE_F_OWNER)
		t->owner = ctx->cl->portid;
	t->genmask = genmask_cur(ctx->net);
	tr = nfnl_tx_add(ctx, TRANS_NEWTABLE);
	if (!tr) {
		err = -ENOMEM;
		goto out_free_table;
	}
	tr->table = t;
	list_add_tail(&t->list, &ctx->net->tables);
	return 0;

out_free_table:
	ruleset_table_free(t);
	return err;
}

/* flush_table - nft_flush_table(): rules, sets, objects, chains, the table */
static int flush_table(struct nfnl_ctx *ctx, struct table *t)
{
	uint8_t mask = genmask_next(ctx->net);
	struct object *obj, *on;
	struct chain *c, *cn;
	struct set *s, *sn;
	struct trans *tr;
	int err;

	/* binding chains go with the rules bound to them */
	list_for_each_entry(c, &t->chains, list) {
		struct rule *r;

		if (!active(c->genmask, mask) || (c->flags & CHAIN_F_BINDING))
			continue;
		list_for_each_entry(r, &c->rules, list) {
			if (!active(r->genmask, mask))
				continue;
			err = nfnl_rule_delete(ctx, r);
			if (err)
				return err;
		}
	}
	list_for_each_entry_safe(s, sn, &t->sets, list) {
		if (!active(s->genmask, mask))
			continue;
		if ((s->flags & NFT_SET_ANONYMOUS) && s->use)
			continue;
		err = nfnl_set_delete(ctx, s);
		if (err)
			return err;
	}
	list_for_each_entry_safe(obj, on, &t->objects, list) {
		if (!active(obj->genmask, mask))
			continue;
		err = nfnl_obj_delete(ctx, obj);
		if (err)
			return err;
	}
	list_for_each_entry_safe(c, cn, &t->chains, list) {
		if (!active(c->genmask, mask) || (c->flags & CHAIN_F_BINDING))
			continue;
		err = nfnl_chain_delete(ctx, c);
		if (err)
			return err;
	}
	tr = nfnl_tx_add(ctx, TRANS_DELTABLE);
	if (!tr)
		return -ENOMEM;
	tr->family = t->family;
	tr->table = t;
	t->genmask |= mask;
	return 0;
}

int nfnl_deltable(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYTABLE;
	uint8_t mask = genmask_next(ctx->net);
	struct table *t, *tn;
	int err;

	if (ctx->family == 0 || (!cda[NFTA_TABLE_NAME] && !cda[NFTA_TABLE_HANDLE])) {
		/* nft_flush(): every table of the family, or all */
		list_for_each_entry_safe(t, tn, &ctx->net->tables, list) {
			if (ctx->family && t->family != ctx->family)
				continue;
			if (!active(t->genmask, mask))
				continue;
			if ((t->flags & NFT_TABLE_F_OWNER) &&
			    t->owner != ctx->cl->portid)
				continue;
			if (cda[NFTA_TABLE_NAME] &&
			    nfnl_attr_strcmp(cda[NFTA_TABLE_NAME], t->name))
				continue;
			err = flush_table(ctx, t);
			if (err)
				return err;
		}
		return 0;
	}
	err = table_find(ctx, cda, mask, true, &t);
	if (err) {
		if (err == -ENOENT && destroy)
			return 0;
		return err;
	}
	if ((ctx->nlh->nlmsg_flags & NLM_F_NONREC) && t->use > 0)
		return -EBUSY;
	return flush_table(ctx, t);
}

int nfnl_gettable(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	struct table *t;
	int err;

	err = table_find(ctx, cda, genmask_cur(ctx->net), false, &t);
	if (err)
		return err;
	nfnl_table_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
			ctx->nlh->nlmsg_seq, NFT_MSG_NEWTABLE, 0, t);
	return nfnl_reply_end(ctx);
}

int nfnl_dumptables(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct table *t;

	(void)cda;
	list_for_each_entry(t, &ctx->net->tables, list) {
		size_t off = ctx->cl->out.buf.len;

		if (!nfnl_family_match(ctx->family, t->family) ||
		    !active(t->genmask, mask))
			continue;
		nfnl_table_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
				ctx->nlh->nlmsg_seq, NFT_MSG_NEWTABLE,
				NLM_F_MULTI, t);
		nfnl_dump_added(ctx, off);
	}
	return 0;
}

static void release_notify(const struct trans *tr, void *data)
{
	(void)tr;
	(void)data;
}

/*
 * nfnl_client_release - a client's netlink socket closed (NETLINK_URELEASE,
 * nft_rcv_nl_event()): the tables it owns go with it, at once, without
 * events and without a new generation; a persistent one only loses its
 * owner
 */
void nfnl_client_release(struct client *cl)
{
	struct nlmsghdr nlh = { .nlmsg_len = NLMSG_HDRLEN, .nlmsg_flags = NLM_F_REQUEST };
	struct extack ext = { 0 };
	struct nfnl_ctx ctx;
	const char *msg = NULL;
	struct table *t;
	uint32_t seq;
	struct tx tx;
	bool any = false;
	int err = 0;

	nfnl_ulog_release(cl);
	if (!cl->net)
		return;
	list_for_each_entry(t, &cl->net->tables, list) {
		if (!(t->flags & NFT_TABLE_F_OWNER) || t->owner != cl->portid)
			continue;
		if (t->flags & 0x4 /* NFT_TABLE_F_PERSIST */) {
			t->flags &= ~NFT_TABLE_F_OWNER;
			t->owner = 0;
			continue;
		}
		any = true;
	}
	if (!any)
		return;
	ruleset_tx_init(&tx, cl->net);
	tx.pid = cl->pid;
	memcpy(tx.comm, cl->comm, sizeof(tx.comm));
	tx.portid = cl->portid;
	ctx = (struct nfnl_ctx){ .cl = cl, .net = cl->net, .tx = &tx,
				 .nlh = &nlh, .ext = &ext };
	list_for_each_entry(t, &cl->net->tables, list) {
		if (!(t->flags & NFT_TABLE_F_OWNER) || t->owner != cl->portid ||
		    !active(t->genmask, genmask_next(cl->net)))
			continue;
		ctx.family = t->family;
		err = flush_table(&ctx, t);
		if (err)
			break;
	}
	if (err) {
		ruleset_tx_abort(&tx);
		return;
	}
	seq = cl->net->base_seq;
	if (!ruleset_tx_commit(&tx, release_notify, NULL, &msg)) {
		cl->net->base_seq = seq;
		nfnl_state_save(cl->net);
	}
}
