// SPDX-License-Identifier: GPL-2.0-only
/*
 * core.c - nfnetlink: message dispatch, batches, acks and dumps, as the
 * kernel's nfnetlink_rcv() / nfnetlink_rcv_batch() / netlink_ack().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "handlers.h"
#include "ruleset_expr.h"
#include "expr/immediate.h"
#include "nfnl_compat.h"

#define DGRAM_MAX	4096	/* what a recv buffer of one page holds */
#define NFNL_ATTR_MAX	32	/* largest attr_count of nft_cbs */

static const struct attr_policy batch_policy[NFNL_BATCH_MAX + 1] = {
	[NFNL_BATCH_GENID] = { .kind = ATTR_U32 },
};

static const struct attr_policy flowtable_policy[NFTA_FLOWTABLE_MAX + 1] = {
	[NFTA_FLOWTABLE_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_FLOWTABLE_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_FLOWTABLE_HOOK] = { .kind = ATTR_NESTED },
	[NFTA_FLOWTABLE_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_FLOWTABLE_HANDLE] = { .kind = ATTR_U64 },
};

static const struct nfnl_cb nft_cbs[] = {
	[NFT_MSG_NEWTABLE] = { .call = nfnl_newtable, .batch = true,
			       .attr_count = NFTA_TABLE_MAX, .policy = nfnl_table_policy },
	[NFT_MSG_GETTABLE] = { .call = nfnl_gettable, .dump = nfnl_dumptables,
			       .attr_count = NFTA_TABLE_MAX, .policy = nfnl_table_policy },
	[NFT_MSG_DELTABLE] = { .call = nfnl_deltable, .batch = true,
			       .attr_count = NFTA_TABLE_MAX, .policy = nfnl_table_policy },
	[NFT_MSG_DESTROYTABLE] = { .call = nfnl_deltable, .batch = true,
			       .attr_count = NFTA_TABLE_MAX, .policy = nfnl_table_policy },
	[NFT_MSG_NEWCHAIN] = { .call = nfnl_newchain, .batch = true,
			       .attr_count = NFTA_CHAIN_MAX_K, .policy = nfnl_chain_policy },
	[NFT_MSG_GETCHAIN] = { .call = nfnl_getchain, .dump = nfnl_dumpchains,
			       .attr_count = NFTA_CHAIN_MAX_K, .policy = nfnl_chain_policy },
	[NFT_MSG_DELCHAIN] = { .call = nfnl_delchain, .batch = true,
			       .attr_count = NFTA_CHAIN_MAX_K, .policy = nfnl_chain_policy },
	[NFT_MSG_DESTROYCHAIN] = { .call = nfnl_delchain, .batch = true,
			       .attr_count = NFTA_CHAIN_MAX_K, .policy = nfnl_chain_policy },
	[NFT_MSG_NEWRULE] = { .call = nfnl_newrule, .batch = true,
			      .attr_count = NFTA_RULE_MAX_K, .policy = nfnl_rule_policy },
	[NFT_MSG_GETRULE] = { .call = nfnl_getrule, .dump = nfnl_dumprules,
			      .attr_count = NFTA_RULE_MAX_K, .policy = nfnl_rule_policy },
	[NFT_MSG_DELRULE] = { .call = nfnl_delrule, .batch = true,
			      .attr_count = NFTA_RULE_MAX_K, .policy = nfnl_rule_policy },
	[NFT_MSG_DESTROYRULE] = { .call = nfnl_delrule, .batch = true,
			      .attr_count = NFTA_RULE_MAX_K, .policy = nfnl_rule_policy },
	[NFT_MSG_GETGEN] = { .call = nfnl_getgen },
	[NFT_MSG_NEWSET] = { .call = nfnl_newset, .batch = true,
			     .attr_count = NFTA_SET_MAX, .policy = nfnl_set_policy },
	[NFT_MSG_GETSET] = { .call = nfnl_getset, .dump = nfnl_dumpsets,
			     .attr_count = NFTA_SET_MAX, .policy = nfnl_set_policy },
	[NFT_MSG_DELSET] = { .call = nfnl_delset, .batch = true,
			     .attr_count = NFTA_SET_MAX, .policy = nfnl_set_policy },
	[NFT_MSG_DESTROYSET] = { .call = nfnl_delset, .batch = true,
			     .attr_count = NFTA_SET_MAX, .policy = nfnl_set_policy },
	[NFT_MSG_NEWSETELEM] = { .call = nfnl_newsetelem, .batch = true,
				 .attr_count = NFTA_SET_ELEM_LIST_MAX,
				 .policy = nfnl_setelem_list_policy },
	[NFT_MSG_GETSETELEM] = { .call = nfnl_getsetelem, .dump = nfnl_dumpsetelems,
				 .attr_count = NFTA_SET_ELEM_LIST_MAX,
				 .policy = nfnl_setelem_list_policy },
	[NFT_MSG_DELSETELEM] = { .call = nfnl_delsetelem, .batch = true,
				 .attr_count = NFTA_SET_ELEM_LIST_MAX,
				 .policy = nfnl_setelem_list_policy },
	[NFT_MSG_DESTROYSETELEM] = { .call = nfnl_delsetelem, .batch = true,
				     .attr_count = NFTA_SET_ELEM_LIST_MAX,
				     .policy = nfnl_setelem_list_policy },
	[NFT_MSG_NEWOBJ] = { .call = nfnl_newobj, .batch = true,
			     .attr_count = NFTA_OBJ_MAX, .policy = nfnl_obj_policy },
	[NFT_MSG_GETOBJ] = { .call = nfnl_getobj, .dump = nfnl_dumpobjs,
			     .attr_count = NFTA_OBJ_MAX, .policy = nfnl_obj_policy },
	[NFT_MSG_GETOBJ_RESET] = { .call = nfnl_getobj, .dump = nfnl_dumpobjs,
				   .attr_count = NFTA_OBJ_MAX,
				   .policy = nfnl_obj_policy },
	[NFT_MSG_DELOBJ] = { .call = nfnl_delobj, .batch = true,
			     .attr_count = NFTA_OBJ_MAX, .policy = nfnl_obj_policy },
	[NFT_MSG_DESTROYOBJ] = { .call = nfnl_delobj, .batch = true,
				 .attr_count = NFTA_OBJ_MAX,
				 .policy = nfnl_obj_policy },
#define UNSUPPORTED(new, get, del, destroy, max, pol)				\
	[new] = { .call = nfnl_unsupported_new, .batch = true,			\
		  .attr_count = max, .policy = pol },				\
	[get] = { .call = nfnl_unsupported_get, .dump = nfnl_unsupported_dump,	\
		  .attr_count = max, .policy = pol },				\
	[del] = { .call = nfnl_unsupported_del, .batch = true,			\
		  .attr_count = max, .policy = pol },				\
	[destroy] = { .call = nfnl_unsupported_del, .batch = true,		\
		      .attr_count = max, .policy = pol }
	UNSUPPORTED(NFT_MSG_NEWFLOWTABLE, NFT_MSG_GETFLOWTABLE, NFT_MSG_DELFLOWTABLE,
		    NFT_MSG_DESTROYFLOWTABLE, NFTA_FLOWTABLE_MAX, flowtable_policy),
#undef UNSUPPORTED
};

struct trans *nfnl_tx_add(struct nfnl_ctx *ctx, enum trans_op op)
{
	struct trans *tr = ruleset_tx_add(ctx->tx, op);

	if (!tr)
		return NULL;
	tr->family = ctx->family;
	tr->portid = ctx->cl->portid;
	tr->seq = ctx->nlh->nlmsg_seq;
	tr->nlflags = ctx->nlh->nlmsg_flags;
	tr->report = ctx->nlh->nlmsg_flags & NLM_F_ECHO;
	return tr;
}

void nfnl_out_cut(struct nfnl_out *o)
{
	size_t start = o->nends ? o->ends[o->nends - 1] : 0;
	size_t *n;

	if (o->buf.len == start || o->buf.err)
		return;
	if (o->nends == o->cap) {
		n = realloc(o->ends, sizeof(*n) * (o->cap ? o->cap * 2 : 16));
		if (!n) {
			o->buf.err = -ENOMEM;
			return;
		}
		o->ends = n;
		o->cap = o->cap ? o->cap * 2 : 16;
	}
	o->ends[o->nends++] = o->buf.len;
}

void nfnl_out_cut_if(struct nfnl_out *o, size_t limit)
{
	size_t start = o->nends ? o->ends[o->nends - 1] : 0;

	if (o->buf.len - start >= limit)
		nfnl_out_cut(o);
}

void nfnl_out_fini(struct nfnl_out *o)
{
	nfnl_buf_fini(&o->buf);
	free(o->ends);
	memset(o, 0, sizeof(*o));
}

void nfnl_out_compact(struct nfnl_out *o)
{
	size_t i;

	if (!o->sent)
		return;
	memmove(o->buf.data, o->buf.data + o->sent, o->buf.len - o->sent);
	o->buf.len -= o->sent;
	for (i = o->nsent; i < o->nends; i++)
		o->ends[i - o->nsent] = o->ends[i] - o->sent;
	o->nends -= o->nsent;
	o->sent = 0;
	o->nsent = 0;
}

void nfnl_dump_added(struct nfnl_ctx *ctx, size_t off)
{
	struct nfnl_out *o = &ctx->cl->out;
	size_t start = o->nends ? o->ends[o->nends - 1] : 0;
	size_t end;

	if (o->buf.len - start <= DGRAM_MAX || off == start)
		return;
	/* cut before the message that overflowed the datagram */
	end = o->buf.len;
	o->buf.len = off;
	nfnl_out_cut(o);
	o->buf.len = end;
}

/*
 * ack - NLMSG_ERROR for @nlh, as the kernel's netlink_ack(): the request
 * is echoed unless capped or err == 0, TLVs follow when the socket asked
 * for extended acks. Each ack is a datagram of its own: nft reads the seq
 * of a failure from the first message of what it received.
 */
void (*nfnl_error_hook)(const struct client *cl, const struct nlmsghdr *nlh,
			int err, const char *msg);

static void ack(struct client *cl, const struct nlmsghdr *nlh, int err,
		const struct extack *ext)
{
	struct nfnl_buf *b = &cl->out.buf;
	bool ext_ack = cl->nlflags & CLIENT_F_EXT_ACK;
	size_t payload = sizeof(struct nlmsgerr), off;
	uint16_t flags = 0;
	struct nlmsghdr *rep;
	struct nlmsgerr *e;

	if (err && nfnl_error_hook)
		nfnl_error_hook(cl, nlh, err, ext ? ext->msg : NULL);
	if (err && !(cl->nlflags & CLIENT_F_CAP_ACK))
		payload += nlh->nlmsg_len - NLMSG_HDRLEN;
	else
		flags |= NLM_F_CAPPED;
	if (ext_ack && ext && (ext->msg || (err && ext->bad_attr)))
		flags |= NLM_F_ACK_TLVS;

	nfnl_out_cut(&cl->out);
	off = b->len;
	if (!nfnl_buf_reserve(b, NLMSG_HDRLEN + NLMSG_ALIGN(payload)))
		return;
	rep = (struct nlmsghdr *)(b->data + off);
	memset(rep, 0, NLMSG_HDRLEN + NLMSG_ALIGN(payload));
	rep->nlmsg_type = NLMSG_ERROR;
	rep->nlmsg_flags = flags;
	rep->nlmsg_seq = nlh->nlmsg_seq;
	rep->nlmsg_pid = cl->portid;
	e = (struct nlmsgerr *)((char *)rep + NLMSG_HDRLEN);
	e->error = err;
	e->msg = *nlh;
	if (!(flags & NLM_F_CAPPED))
		memcpy((char *)e + sizeof(*e), (const char *)nlh + NLMSG_HDRLEN,
		       nlh->nlmsg_len - NLMSG_HDRLEN);
	b->len += NLMSG_HDRLEN + NLMSG_ALIGN(payload);

	if (flags & NLM_F_ACK_TLVS) {
		if (ext->msg)
			nfnl_put_str(b, NLMSGERR_ATTR_MSG, ext->msg);
		if (err && ext->bad_attr) {
			uint32_t ofs = (const char *)ext->bad_attr - (const char *)nlh;

			if (ofs < nlh->nlmsg_len)
				nfnl_put(b, NLMSGERR_ATTR_OFFS, &ofs, sizeof(ofs));
		}
	}
	if (b->err)
		return;
	((struct nlmsghdr *)(b->data + off))->nlmsg_len = b->len - off;
	nfnl_out_cut(&cl->out);
}

static void dump_done(struct client *cl, const struct nlmsghdr *nlh, int err)
{
	struct nfnl_buf *b = &cl->out.buf;
	struct nlmsghdr *rep;
	size_t off = b->len;

	if (!nfnl_buf_reserve(b, NLMSG_HDRLEN + sizeof(int)))
		return;
	rep = (struct nlmsghdr *)(b->data + off);
	memset(rep, 0, NLMSG_HDRLEN + sizeof(int));
	rep->nlmsg_len = NLMSG_HDRLEN + sizeof(int);
	rep->nlmsg_type = NLMSG_DONE;
	rep->nlmsg_flags = NLM_F_MULTI;
	rep->nlmsg_seq = nlh->nlmsg_seq;
	rep->nlmsg_pid = cl->portid;
	memcpy((char *)rep + NLMSG_HDRLEN, &err, sizeof(err));
	b->len += NLMSG_HDRLEN + sizeof(int);
	nfnl_out_cut(&cl->out);
}

static const struct nfnl_cb *find_cb(uint16_t type)
{
	uint8_t msg = NFNL_MSG_TYPE(type);

	if (NFNL_SUBSYS_ID(type) == NFNL_SUBSYS_NFT_COMPAT)
		return msg == 0 /* NFNL_MSG_COMPAT_GET */ ? &nfnl_compat_cb : NULL;
	if (NFNL_SUBSYS_ID(type) != NFNL_SUBSYS_NFTABLES)
		return NULL;
	if (msg >= sizeof(nft_cbs) / sizeof(nft_cbs[0]) || !nft_cbs[msg].call)
		return NULL;
	return &nft_cbs[msg];
}

static int parse_cda(const struct nfnl_cb *cb, const struct nlmsghdr *nlh,
		     const struct nlattr **cda, struct extack *ext)
{
	size_t min = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));

	if (!cb->policy) {
		memset(cda, 0, sizeof(*cda) * (NFNL_ATTR_MAX + 1));
		return 0;
	}
	return nfnl_attr_parse((const char *)nlh + min,
			       nlh->nlmsg_len > min ? nlh->nlmsg_len - min : 0,
			       cb->attr_count, cb->policy, cda, ext);
}

static void ctx_init(struct nfnl_ctx *ctx, struct client *cl, struct tx *tx,
		     const struct nlmsghdr *nlh, struct extack *ext)
{
	const struct nfgenmsg *nfg = (const void *)((const char *)nlh + NLMSG_HDRLEN);

	ctx->cl = cl;
	ctx->net = cl->net;
	ctx->tx = tx;
	ctx->nlh = nlh;
	ctx->family = nfg->nfgen_family;
	ctx->ext = ext;
	ctx->refused = 0;
}

/* rcv_msg - one message outside a batch (nfnetlink_rcv_msg) */
static int rcv_msg(struct client *cl, const struct nlmsghdr *nlh,
		   struct extack *ext, bool *dumped)
{
	const struct nlattr *cda[NFNL_ATTR_MAX + 1];
	const struct nfnl_cb *cb;
	struct nfnl_ctx ctx;
	int err;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nfgenmsg))
		return 0;
	if (NFNL_SUBSYS_ID(nlh->nlmsg_type) == NFNL_SUBSYS_ULOG)
		return nfnl_ulog_rcv(cl, nlh, ext);
	cb = find_cb(nlh->nlmsg_type);
	if (!cb)
		return -EINVAL;
	err = parse_cda(cb, nlh, cda, ext);
	if (err)
		return err;
	if (cb->batch)
		return -EINVAL;
	ctx_init(&ctx, cl, NULL, nlh, ext);
	if ((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
		if (!cb->dump)
			return -EOPNOTSUPP;
		err = cb->dump(&ctx, cda);
		if (err == -ENOMEM || cl->out.buf.err)
			return -ENOMEM;
		nfnl_out_cut(&cl->out);
		dump_done(cl, nlh, err);
		*dumped = true;
		return 0;
	}
	return cb->call(&ctx, cda);
}

/* commit_notify - the kernel sends events for each committed record */
struct notify_ctx {
	struct client *cl;
	struct nfnl_buf events;		/* for listeners (all of them) */
	struct nfnl_buf echo;		/* for the sender, if it asked */
	struct nfnl_state_note note;	/* for the state journal */
};

/*
 * notify_unbound_sets - nf_tables_unbind_set(): a deleted rule's anonymous
 * sets (lookups, maps, object maps) go with it at commit, each announced
 * by a DELSET right after the rule's
 */
static void notify_unbound_sets(struct nfnl_buf *b, struct net *net,
				const struct trans *tr, const struct rule *r,
				uint16_t flags, unsigned int depth)
{
	const struct expr *e;

	rule_for_each_expr(e, r) {
		const struct ruleset_expr_ops *ops = ruleset_expr_ops[e->type];
		const struct expr_immediate *im = expr_priv(e);
		struct set *s = ops->bound_set ? ops->bound_set(e) : NULL;
		const struct rule *br;

		if (s && (s->flags & NFT_SET_ANONYMOUS) && !s->use)
			nfnl_set_fill(b, net, tr->portid, tr->seq, NFT_MSG_DELSET,
				      flags, s);
		/* a binding chain's rules go with it, their sets too */
		if (e->type != EXPR_IMMEDIATE || im->dreg != REG_VERDICT ||
		    !im->verdict.chain ||
		    !(im->verdict.chain->flags & CHAIN_F_BINDING) ||
		    depth >= 16)	/* NFT_JUMP_STACK_SIZE */
			continue;
		list_for_each_entry(br, &im->verdict.chain->rules, list)
			notify_unbound_sets(b, net, tr, br, flags, depth + 1);
	}
}

/* the neighbours of @r in its chain, deletions announced so far left out */
static const struct rule *rule_before(const struct rule *r)
{
	const struct list_head *p;

	for (p = r->list.prev; p != &r->chain->rules; p = p->prev) {
		const struct rule *o = list_entry(p, struct rule, list);

		if (!o->gone)
			return o;
	}
	return NULL;
}

static const struct rule *rule_after(const struct rule *r)
{
	const struct list_head *p;

	for (p = r->list.next; p != &r->chain->rules; p = p->next) {
		const struct rule *o = list_entry(p, struct rule, list);

		if (!o->gone)
			return o;
	}
	return NULL;
}

static void notify_one(const struct trans *tr, void *data)
{
	struct notify_ctx *nc = data;
	struct net *net = nc->cl->net;
	static const int events[] = {
		[TRANS_NEWTABLE] = NFT_MSG_NEWTABLE, [TRANS_DELTABLE] = NFT_MSG_DELTABLE,
		[TRANS_NEWCHAIN] = NFT_MSG_NEWCHAIN, [TRANS_DELCHAIN] = NFT_MSG_DELCHAIN,
		[TRANS_NEWRULE] = NFT_MSG_NEWRULE, [TRANS_DELRULE] = NFT_MSG_DELRULE,
		[TRANS_NEWSET] = NFT_MSG_NEWSET, [TRANS_DELSET] = NFT_MSG_DELSET,
		[TRANS_NEWSETELEM] = NFT_MSG_NEWSETELEM,
		[TRANS_DELSETELEM] = NFT_MSG_DELSETELEM,
		[TRANS_NEWOBJ] = NFT_MSG_NEWOBJ, [TRANS_DELOBJ] = NFT_MSG_DELOBJ,
	};
	bool listeners = nfnl_has_listeners(net, NFNLGRP_NFTABLES);
	struct nfnl_buf *bufs[2] = { listeners ? &nc->events : NULL,
				     tr->report ? &nc->echo : NULL };
	uint16_t flags = tr->nlflags & (NLM_F_CREATE | NLM_F_EXCL | NLM_F_APPEND |
					NLM_F_REPLACE);
	int i, ev = events[tr->op];

	nfnl_state_note(&nc->note, net, tr);
	if (tr->binding)
		return;	/* a bound chain goes silently with its rule */
	if (tr->op == TRANS_DELRULE)
		tr->rule->gone = true;
	for (i = 0; i < 2; i++) {
		struct nfnl_buf *b = bufs[i];

		if (!b)
			continue;
		switch (tr->op) {
		case TRANS_NEWTABLE:
		case TRANS_DELTABLE:
			nfnl_table_fill(b, net, tr->portid, tr->seq, ev,
					flags & (NLM_F_CREATE | NLM_F_EXCL), tr->table);
			break;
		case TRANS_NEWCHAIN:
		case TRANS_DELCHAIN:
			nfnl_chain_fill(b, net, tr->portid, tr->seq,
					ev | (tr->update ? NFNL_EV_HOOKS : 0),
					flags & (NLM_F_CREATE | NLM_F_EXCL), tr->chain);
			break;
		case TRANS_NEWRULE:
		case TRANS_DELRULE: {
			const struct rule *r = tr->rule, *prev = NULL;
			uint16_t rflags = flags & (NLM_F_CREATE | NLM_F_EXCL);

			/*
			 * nf_tables_rule_notify(): position only in the
			 * middle, of the list as the commit has it then:
			 * without the rules whose deletion came before
			 */
			if (tr->op == TRANS_NEWRULE && rule_after(r))
				prev = rule_before(r);
			if (flags & (NLM_F_APPEND | NLM_F_REPLACE))
				rflags |= NLM_F_APPEND;
			nfnl_rule_fill(b, net, tr->portid, tr->seq, ev, rflags, r, prev);
			if (tr->op == TRANS_DELRULE)
				notify_unbound_sets(b, net, tr, tr->rule,
						    rflags & ~NLM_F_APPEND, 0);
			break;
		}
		case TRANS_NEWSET:
		case TRANS_DELSET:
			nfnl_set_fill(b, net, tr->portid, tr->seq, ev,
				      flags & (NLM_F_CREATE | NLM_F_EXCL), tr->set);
			break;
		case TRANS_NEWSETELEM:
		case TRANS_DELSETELEM:
			nfnl_setelem_notify_fill(b, net, tr->portid, tr->seq, ev,
						 flags & (NLM_F_CREATE | NLM_F_EXCL),
						 tr->set, tr->elem);
			break;
		case TRANS_NEWOBJ:
		case TRANS_DELOBJ:
			nfnl_obj_fill(b, net, tr->portid, tr->seq, ev,
				      flags & (NLM_F_CREATE | NLM_F_EXCL),
				      tr->family, tr->obj, false);
			break;
		}
	}
}

/*
 * nft_commit_notify() coalesces a commit's events into datagrams of less
 * than NLMSG_GOODSIZE bytes (a larger event goes alone); the generation
 * follows in a datagram of its own. Clients see the boundaries: a monitor
 * that queries while handling a datagram consumes what arrives meanwhile.
 */
#define NLMSG_GOODSIZE	3776	/* 4 KiB pages, x86-64 skb_shared_info */

/* chunk_end - where the datagram starting at @off of @b ends */
static size_t chunk_end(const struct nfnl_buf *b, size_t off)
{
	const struct nlmsghdr *nlh = (const void *)(b->data + off);
	size_t end = off + NLMSG_ALIGN(nlh->nlmsg_len);

	while (end + NLMSG_HDRLEN <= b->len) {
		nlh = (const void *)(b->data + end);
		if (end - off + NLMSG_ALIGN(nlh->nlmsg_len) >= NLMSG_GOODSIZE)
			break;
		end += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return end < b->len ? end : b->len;
}

static void send_events(struct client *cl, struct notify_ctx *nc, struct tx *tx)
{
	struct net *net = cl->net;
	struct nfnl_buf gen;
	size_t off, end;

	nfnl_buf_init(&gen);
	nfnl_gen_fill(&gen, net, tx->portid, tx->seq, NFT_MSG_NEWGEN, tx->pid,
		      tx->comm);
	if (nfnl_has_listeners(net, NFNLGRP_NFTABLES) && !nc->events.err &&
	    !gen.err) {
		for (off = 0; off < nc->events.len; off = end) {
			end = chunk_end(&nc->events, off);
			nfnl_multicast(net, NFNLGRP_NFTABLES,
				       nc->echo.len ? cl->portid : 0,
				       nc->events.data + off, end - off);
		}
		nfnl_multicast(net, NFNLGRP_NFTABLES,
			       nc->echo.len ? cl->portid : 0, gen.data, gen.len);
	}
	if (nc->echo.len && !nc->echo.err && !gen.err) {
		for (off = 0; off < nc->echo.len; off = end) {
			end = chunk_end(&nc->echo, off);
			nfnl_out_cut(&cl->out);
			if (nfnl_buf_reserve(&cl->out.buf, end - off)) {
				memcpy(cl->out.buf.data + cl->out.buf.len,
				       nc->echo.data + off, end - off);
				cl->out.buf.len += end - off;
			}
		}
		nfnl_out_cut(&cl->out);
		/* nf_tables_gen_notify() reports the generation to it too */
		if (nfnl_buf_reserve(&cl->out.buf, gen.len)) {
			memcpy(cl->out.buf.data + cl->out.buf.len, gen.data,
			       gen.len);
			cl->out.buf.len += gen.len;
		}
		nfnl_out_cut(&cl->out);
	}
	nfnl_buf_fini(&gen);
}

struct pending_err {
	const struct nlmsghdr *nlh;
	int err;
	struct extack ext;
	bool refused;	/* nfnl_refuse(): an error only if nothing else fails */
};

/* rcv_batch - nfnetlink_rcv_batch() for NFNL_SUBSYS_NFTABLES */
static void rcv_batch(struct client *cl, const struct nlmsghdr *begin,
		      const char *p, size_t len)
{
	const struct nfgenmsg *nfg = (const void *)((const char *)begin + NLMSG_HDRLEN);
	const struct nlattr *bcda[NFNL_BATCH_MAX + 1];
	struct pending_err *errs = NULL;
	size_t nerrs = 0, caperrs = 0, i, hl;
	bool failure = false, done = false, refused = false, owned = false;
	const char *msgs = p;
	uint64_t table_handle_mark;
	uint32_t nfailed = 0;
	struct table *t;
	uint16_t res_id;
	struct tx tx;
	int err;

	hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	if (begin->nlmsg_len < NLMSG_HDRLEN + sizeof(struct nfgenmsg))
		return;
	err = nfnl_attr_parse((const char *)begin + hl,
			      begin->nlmsg_len > hl ? begin->nlmsg_len - hl : 0,
			      NFNL_BATCH_MAX, batch_policy, bcda, NULL);
	if (err) {
		ack(cl, begin, err, NULL);
		return;
	}
	/* old nft sent res_id in host byte order */
	res_id = nfg->res_id == NFNL_SUBSYS_NFTABLES ? NFNL_SUBSYS_NFTABLES :
		 be16toh(nfg->res_id);
	if (res_id >= NFNL_SUBSYS_COUNT) {
		ack(cl, begin, -EINVAL, NULL);
		return;
	}
	if (res_id != NFNL_SUBSYS_NFTABLES) {
		ack(cl, begin, -EOPNOTSUPP, NULL);
		return;
	}
	if (bcda[NFNL_BATCH_GENID] &&
	    nfnl_attr_be32(bcda[NFNL_BATCH_GENID]) != cl->net->base_seq) {
		ack(cl, begin, -ERESTART, NULL);
		return;
	}

	nfnl_rule_xt_prefetch(cl->net, p, len);
	ruleset_tx_init(&tx, cl->net);
	list_for_each_entry(t, &cl->net->tables, list) {
		t->hgen_mark = t->hgenerator;
		owned |= !!(t->flags & NFT_TABLE_F_OWNER);
	}
	table_handle_mark = cl->net->table_handle;
	tx.pid = cl->pid;
	memcpy(tx.comm, cl->comm, sizeof(tx.comm));
	tx.portid = cl->portid;
	tx.seq = begin->nlmsg_seq;

	while (len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)p;
		const struct nlattr *cda[NFNL_ATTR_MAX + 1];
		struct extack ext = { 0 };
		const struct nfnl_cb *cb;
		struct nfnl_ctx ctx;
		size_t msglen;
		int rerr = 0;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || len < nlh->nlmsg_len ||
		    nlh->nlmsg_len - NLMSG_HDRLEN < sizeof(struct nfgenmsg)) {
			nerrs = 0;
			failure = true;
			break;
		}
		err = 0;
		if (!(nlh->nlmsg_flags & NLM_F_REQUEST)) {
			err = -EINVAL;
			goto ack;
		}
		if (nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN) {
			nerrs = 0;
			failure = true;
			break;
		} else if (nlh->nlmsg_type == NFNL_MSG_BATCH_END) {
			done = true;
			break;
		} else if (nlh->nlmsg_type < NLMSG_MIN_TYPE) {
			err = -EINVAL;
			goto ack;
		}
		if (NFNL_SUBSYS_ID(nlh->nlmsg_type) != res_id) {
			err = -EINVAL;
			goto ack;
		}
		cb = find_cb(nlh->nlmsg_type);
		if (!cb || !cb->batch) {
			err = -EINVAL;
			goto ack;
		}
		err = parse_cda(cb, nlh, cda, &ext);
		if (err)
			goto ack;
		ctx_init(&ctx, cl, &tx, nlh, &ext);
		if (cl->restore)
			nfnl_state_handle(cl, nlh, cda);
		err = cb->call(&ctx, cda);
		if (!err && ctx.refused) {
			err = rerr = ctx.refused;
			ext = ctx.refused_ext;
			refused = true;
		}
ack:
		if ((nlh->nlmsg_flags & NLM_F_ACK) || err) {
			if (nerrs == caperrs) {
				struct pending_err *n;

				caperrs = caperrs ? caperrs * 2 : 8;
				n = realloc(errs, caperrs * sizeof(*n));
				if (!n) {
					nerrs = 0;
					ack(cl, begin, -ENOMEM, NULL);
					failure = true;
					break;
				}
				errs = n;
			}
			errs[nerrs].nlh = nlh;
			errs[nerrs].err = err;
			errs[nerrs].ext = ext;
			errs[nerrs].refused = rerr != 0;
			nerrs++;
			if (err && !errs[nerrs - 1].refused) {
				failure = true;
				nfailed++;
			}
		}
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len)
			msglen = len;
		p += msglen;
		len -= msglen;
	}

	if (done && !failure && !refused) {
		struct notify_ctx nc = { .cl = cl };
		const char *msg = NULL;

		/* nf_tables_commit(): nothing to commit, no new generation */
		bool empty = list_empty(&tx.records);
		uint32_t seq_mark = cl->net->base_seq;

		nfnl_buf_init(&nc.events);
		nfnl_buf_init(&nc.echo);
		nfnl_state_note_init(&nc.note);
		err = ruleset_tx_commit(&tx, notify_one, &nc, &msg);
		if (err) {
			struct extack ext = { 0 };

			extack_copy(&ext, msg, NULL);
			ack(cl, begin, err, &ext);
		} else if (!empty) {
			send_events(cl, &nc, &tx);
			/* (a restore saves once its counters are carried) */
			if (cl->restore)
				nfnl_state_replayed(cl, &nc.note);
			else
				nfnl_state_commit(cl->net, &nc.note, msgs,
						  p - msgs, table_handle_mark,
						  seq_mark, owned);
		}
		nfnl_buf_fini(&nc.events);
		nfnl_buf_fini(&nc.echo);
		nfnl_state_note_fini(&nc.note);
	} else {
		ruleset_tx_abort(&tx);
		/*
		 * The kernel validates jumps at commit; on failure it aborts
		 * and replays the whole batch validating rule by rule, which
		 * is where the error comes from. Handles are not given back,
		 * so a batch that failed only that way consumed its handles
		 * twice: do the same, or later handles would differ.
		 */
		if (done && nfailed && nfailed == tx.validate_errs) {
			list_for_each_entry(t, &cl->net->tables, list)
				t->hgenerator += t->hgenerator - t->hgen_mark;
			cl->net->table_handle +=
				cl->net->table_handle - table_handle_mark;
		}
	}
	for (i = 0; i < nerrs; i++) {
		if (errs[i].refused && failure) {
			/* the kernel's errors answer: this message passed */
			if (!(errs[i].nlh->nlmsg_flags & NLM_F_ACK))
				continue;
			errs[i].err = 0;
			errs[i].ext = (struct extack){ 0 };
		}
		if (errs[i].ext.own)	/* errs moved when it grew */
			errs[i].ext.msg = errs[i].ext.buf;
		ack(cl, errs[i].nlh, errs[i].err, &errs[i].ext);
	}
	free(errs);
}

void nfnl_rcv(struct client *cl, const void *data, size_t len)
{
	const struct nlmsghdr *nlh = data;
	const char *p = data;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    len < nlh->nlmsg_len)
		return;
	if (!cl->privileged) {
		ack(cl, nlh, -EPERM, NULL);
		return;
	}
	if (nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN) {
		size_t msglen = NLMSG_ALIGN(nlh->nlmsg_len);

		if (msglen > len)
			msglen = len;
		rcv_batch(cl, nlh, p + msglen, len - msglen);
		return;
	}
	/* netlink_rcv_skb() */
	while (len >= NLMSG_HDRLEN) {
		struct extack ext = { 0 };
		bool dumped = false;
		size_t msglen;
		int err = 0;

		nlh = (const void *)p;
		if (nlh->nlmsg_len < NLMSG_HDRLEN || len < nlh->nlmsg_len)
			return;
		if (!(nlh->nlmsg_flags & NLM_F_REQUEST))
			goto ack;
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
			goto ack;
		err = rcv_msg(cl, nlh, &ext, &dumped);
		if (dumped)
			goto skip;
ack:
		if ((nlh->nlmsg_flags & NLM_F_ACK) || err)
			ack(cl, nlh, err, &ext);
skip:
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len)
			msglen = len;
		p += msglen;
		len -= msglen;
	}
}
