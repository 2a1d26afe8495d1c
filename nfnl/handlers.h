/* SPDX-License-Identifier: GPL-2.0-only */
/* handlers.h - private interface between nfnl/core.c and the object handlers. */
#ifndef NFBPF_NFNL_HANDLERS_H
#define NFBPF_NFNL_HANDLERS_H

#include "nfnl.h"
#include "trans.h"
#include "ruleset_api.h"

/**
 * struct nfnl_ctx - one request being handled
 * @cl: sender
 * @net: its namespace
 * @tx: the batch (NULL for GET requests)
 * @nlh: the message
 * @family: nfgen_family
 * @ext: extended ack of this message
 */
struct nfnl_ctx {
	struct client *cl;
	struct net *net;
	struct tx *tx;
	const struct nlmsghdr *nlh;
	uint8_t family;
	struct extack *ext;
	int refused;
	struct extack refused_ext;
};

/*
 * nfnl_refuse - the message is valid for the kernel but the dataplane
 * cannot carry it out: it goes into the transaction as the kernel would
 * take it, and the batch fails with @err on this message only if nothing
 * else in it fails (then the kernel's own errors are the answer, as from
 * the kernel; rcv_batch())
 */
static inline void nfnl_refuse(struct nfnl_ctx *ctx, int err, const char *msg,
			       const struct nlattr *attr)
{
	if (ctx->refused)
		return;
	ctx->refused = err;
	extack_copy(&ctx->refused_ext, msg, attr);
}

typedef int (*nfnl_handler_fn)(struct nfnl_ctx *ctx, const struct nlattr **cda);

/**
 * struct nfnl_cb - one message type of the nf_tables subsystem
 * @call: handler (batch change, or single GET)
 * @dump: NLM_F_DUMP handler for GET types (appends NLM_F_MULTI messages)
 * @batch: true if only allowed inside a batch
 * @attr_count: highest attribute
 * @policy: attr_count + 1 entries
 */
struct nfnl_cb {
	nfnl_handler_fn call;
	nfnl_handler_fn dump;
	bool batch;
	int attr_count;
	const struct attr_policy *policy;
};

static inline uint16_t nft_res_id(const struct net *net)
{
	return net->base_seq & 0xffff;
}

/* nfnl/table.c */
extern const struct attr_policy nfnl_table_policy[];
int nfnl_newtable(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_deltable(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_gettable(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumptables(struct nfnl_ctx *ctx, const struct nlattr **cda);
void nfnl_table_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		     uint32_t seq, int event, uint16_t flags,
		     const struct table *t);
/**
 * nfnl_table_find - the table named by @attr for @ctx, with
 * nft_table_lookup()'s errors (EINVAL without @attr, ENOENT, EPERM for
 * another port's owned table when looking in the next generation); on
 * error @attr is the extended ack's bad attribute.
 */
int nfnl_table_find(struct nfnl_ctx *ctx, const struct nlattr *attr,
		    uint8_t mask, struct table **out);

/* nfnl/chain.c */
extern const struct attr_policy nfnl_chain_policy[];
int nfnl_newchain(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_delchain(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_getchain(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumpchains(struct nfnl_ctx *ctx, const struct nlattr **cda);
/*
 * nfnl_chain_fill - a chain message; a DELCHAIN event names the chain only,
 * unless @event has NFNL_EV_HOOKS (devices leaving a netdev chain)
 */
#define NFNL_EV_HOOKS	0x10000
void nfnl_chain_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		     uint32_t seq, int event, uint16_t flags,
		     const struct chain *c);
/** nfnl_chain_delete - add a DELCHAIN record (checks EBUSY as the kernel). */
int nfnl_chain_delete(struct nfnl_ctx *ctx, struct chain *c);

/* nfnl/rule.c */
extern const struct attr_policy nfnl_rule_policy[];
/**
 * nfnl_rule_xt_prefetch - before the batch @p/@len (the messages after
 * BATCH_BEGIN) is handled, ask the kernel about all its xtables match/
 * target expressions at once (nfnl_xt_prefetch()); a cache fill only.
 */
void nfnl_rule_xt_prefetch(struct net *net, const char *p, size_t len);
int nfnl_newrule(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_delrule(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_getrule(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumprules(struct nfnl_ctx *ctx, const struct nlattr **cda);
void nfnl_rule_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		    uint32_t seq, int event, uint16_t flags,
		    const struct rule *r, const struct rule *prev);

/**
 * nfnl_table_validate - nft_table_validate(): jumps (immediate and verdict
 * map) from every base chain of @t stay below 16 levels, loops included.
 * Return: 0 or -EMLINK (counted in ctx->tx->validate_errs).
 */
int nfnl_table_validate(struct nfnl_ctx *ctx, struct table *t);
/** nfnl_rule_delete - add a DELRULE record for an active rule. */
int nfnl_rule_delete(struct nfnl_ctx *ctx, struct rule *r);

/* nfnl/set.c */
extern const struct attr_policy nfnl_set_policy[];
extern const struct attr_policy nfnl_setelem_list_policy[];
int nfnl_newset(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_delset(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_getset(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumpsets(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_newsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_delsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_getsetelem(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumpsetelems(struct nfnl_ctx *ctx, const struct nlattr **cda);
void nfnl_set_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint16_t flags, const struct set *s);
void nfnl_setelem_notify_fill(struct nfnl_buf *b, struct net *net,
			      uint32_t portid, uint32_t seq, int event,
			      uint16_t flags, const struct set *s,
			      const struct set_elem *e);

/* nfnl/obj.c */
extern const struct attr_policy nfnl_obj_policy[];
int nfnl_newobj(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_delobj(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_getobj(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_dumpobjs(struct nfnl_ctx *ctx, const struct nlattr **cda);
/**
 * nfnl_obj_fill - one object message, as nf_tables_fill_obj_info()
 * @reset: zero what the type resets once it is reported (GETOBJ_RESET)
 */
void nfnl_obj_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint16_t flags, uint8_t family,
		   struct object *obj, bool reset);
/** nfnl_obj_delete - add a DELOBJ record (no use check: table flush). */
int nfnl_obj_delete(struct nfnl_ctx *ctx, struct object *obj);

/* nfnl/unsupported.c: flowtables (refused for now) */
int nfnl_unsupported_new(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_unsupported_del(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_unsupported_get(struct nfnl_ctx *ctx, const struct nlattr **cda);
int nfnl_unsupported_dump(struct nfnl_ctx *ctx, const struct nlattr **cda);
/** nfnl_set_delete - add a DELSET record. */
int nfnl_set_delete(struct nfnl_ctx *ctx, struct set *s);

/* nfnl/compat.c */
extern const struct nfnl_cb nfnl_compat_cb;

/* nfnl/gen.c */
int nfnl_getgen(struct nfnl_ctx *ctx, const struct nlattr **cda);
void nfnl_gen_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		   uint32_t seq, int event, uint32_t pid, const char *comm);

/* nfnl/core.c */
/** nfnl_tx_add - transaction record for the current message; NULL on ENOMEM. */
struct trans *nfnl_tx_add(struct nfnl_ctx *ctx, enum trans_op op);
/** nfnl_reply_end - a single GET reply is complete: its own datagram. */
static inline int nfnl_reply_end(struct nfnl_ctx *ctx)
{
	nfnl_out_cut(&ctx->cl->out);
	return ctx->cl->out.buf.err;
}

/**
 * nfnl_dump_added - a dump message was appended at @off: start a new
 * datagram before it if the current one would exceed a page
 */
void nfnl_dump_added(struct nfnl_ctx *ctx, size_t off);
/** nfnl_family_match - does a dump filter family @want accept @family? */
static inline bool nfnl_family_match(uint8_t want, uint8_t family)
{
	return want == 0 /* NFPROTO_UNSPEC */ || want == family;
}

#endif
