// SPDX-License-Identifier: GPL-2.0-only
/*
 * state.c - the state directory: each namespace's committed ruleset, so
 * that a restarted nfbpfd rebuilds the model the pinned dataplane runs.
 *
 * <state-dir>/<netns inode> (the base) is written now and then at a
 * commit (a temporary file, then rename()); the commits in between append
 * their batches to <state-dir>/<netns inode>.journal (see "The journal"
 * below). The base holds a header, the handle generators, the counter
 * slots, then the netlink dump of the ruleset exactly as `nft list
 * ruleset` receives it (tables, chains, sets, objects, set elements,
 * rules: NEWTABLE ... NEWRULE messages with their handles, userdata and
 * counter values). A restart replays that dump as one batch through the
 * transaction code (nfnl_rcv()), with each object given the handle it had
 * (the table's generator is set just before its message, see
 * nfnl_state_handle()), then puts back the generators and generation id
 * and carries every counter over from the earlier nfbpfd's pinned counter
 * map (what it counted until our walkers replaced its). The journal's
 * batches are replayed after the base, before the counters are carried.
 *
 * A state file is trusted only while the namespace still has pins: they
 * hold it, so its inode cannot have been reused by another namespace.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "handlers.h"
#include "trans.h"
#include "nfnl_compat.h"
#include "dataplane.h"
#include "object.h"
#include "expr/counter.h"
#include "expr/limit.h"
#include "expr/quota.h"
#include "expr/xt.h"

const char *nfnl_state_dir;

#define STATE_MAGIC	"nfbpfst4"

/**
 * struct state_hdr - start of a state file (host byte order: the file is
 * read back by the same host)
 * @magic: STATE_MAGIC
 * @base_seq: the generation id (net->base_seq)
 * @ntables: struct state_table records after the header
 * @ncounters: struct state_counter records after those
 * @nsets: struct state_set records after those
 * @table_handle: net->table_handle
 * @dump_len: bytes of netlink dump after those
 * @saved_ms: CLOCK_BOOTTIME of the dump, in ms (element expirations in the
 *	      dump count from there; pins do not outlive a boot)
 * @serial: random, non-zero: the journal that goes with this base has it
 */
struct state_hdr {
	char magic[8];
	uint32_t base_seq;
	uint32_t ntables;
	uint32_t ncounters;
	uint32_t nsets;
	uint64_t table_handle;
	uint64_t dump_len;
	uint64_t saved_ms;
	uint64_t serial;
};

static uint64_t boottime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* a table's handle generator */
struct state_table {
	uint8_t family;
	char name[NFT_TABLE_MAXNAMELEN];
	uint64_t hgenerator;
};

/* what a struct state_counter is of */
enum {
	STATE_CNT_RULE,		/* a counter expression of a rule */
	STATE_CNT_OBJ,		/* a named counter */
	STATE_WORD_RULE,	/* a quota or limit expression of a rule */
	STATE_WORD_OBJ,		/* a named quota (consumed) or limit (bucket) */
};

/*
 * a counter: the @index-th counter expression of rule @handle, or named
 * counter @handle, of table (@family, @table); @slot in the counter map,
 * which holds what it counted beyond @packets/@bytes. A state word (kind
 * STATE_WORD_*, the @index-th quota or limit expression of the rule):
 * @slot in the state map, which holds the word itself.
 */
struct state_counter {
	uint8_t family;
	uint8_t kind;
	char table[NFT_TABLE_MAXNAMELEN];
	uint64_t handle;
	uint32_t index;
	uint32_t slot;
	uint64_t packets;
	uint64_t bytes;
};

/*
 * a dynamic set (the packet path adds to it, not a map): its elements are
 * read back from the earlier nfbpfd's set map, where the packet path's
 * are, at a restart; @id is its key prefix there
 */
struct state_set {
	uint8_t family;
	char table[NFT_TABLE_MAXNAMELEN];
	char name[NFT_SET_MAXNAMELEN];
	uint32_t klen;
	uint32_t id;
	uint32_t flags;
};

/**
 * struct state_replay - a restore batch in flight (client.restore)
 * @handles: the handle each message of the batch had (0: none)
 * @n: count
 * @i: next message
 * @elapsed: ms since the dump
 */
struct state_replay {
	uint64_t *handles;
	size_t n, i;
	uint64_t elapsed;
	struct nfnl_buf *got;	/* journal replay: the handles it gave */
};

static int state_path(const struct net *net, char *buf, size_t len,
		      const char *suffix)
{
	int n = snprintf(buf, len, "%s/%llu%s", nfnl_state_dir,
			 (unsigned long long)net->ns_ino, suffix);

	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static int buf_add(struct nfnl_buf *b, const void *p, size_t n)
{
	if (!nfnl_buf_reserve(b, n))
		return -ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* dump request @type of @family into @cl (GETSETELEM: of set @set) */
static void dump(struct client *cl, uint16_t type, uint8_t family,
		 const struct set *set)
{
	struct nfnl_buf req;
	size_t off;

	nfnl_buf_init(&req);
	off = nfnl_msg_start(&req, (NFNL_SUBSYS_NFTABLES << 8) | type,
			     NLM_F_REQUEST | NLM_F_DUMP, 0, 0, family, 0);
	if (set) {
		nfnl_put_str(&req, NFTA_SET_ELEM_LIST_TABLE, set->table->name);
		nfnl_put_str(&req, NFTA_SET_ELEM_LIST_SET, set->name);
	}
	nfnl_msg_end(&req, off);
	if (!req.err)
		nfnl_rcv(cl, req.data, req.len);
	nfnl_buf_fini(&req);
}

/* the state slot of quota or limit expression @e, 0 if none */
static uint32_t expr_word(const struct expr *e)
{
	if (e->type == EXPR_QUOTA)
		return ((const struct expr_quota *)expr_priv(e))->slot;
	if (e->type == EXPR_LIMIT)
		return ((const struct expr_limit *)expr_priv(e))->slot;
	if (e->type == EXPR_MATCH)	/* 0 for a match without state */
		return ((const struct expr_xt *)expr_priv(e))->dp_aux;
	return 0;
}

/*
 * does @e keep a state word? quota, limit, an xt match with state
 * (statistic, quota: their slot, else 0); the index of a word counts
 * these only, so a match without state leaves older state files' indexes
 * as they were
 */
static bool has_word(const struct expr *e)
{
	return e->type == EXPR_QUOTA || e->type == EXPR_LIMIT ||
	       (e->type == EXPR_MATCH && expr_word(e));
}

/* the state words of @r's quota, limit and stateful xt match
 * expressions into @b; count */
static uint32_t save_words(struct rule *r, struct state_counter *sc,
			   struct nfnl_buf *b)
{
	struct expr *e;
	uint32_t n = 0;

	sc->kind = STATE_WORD_RULE;
	sc->index = 0;
	sc->packets = sc->bytes = 0;
	rule_for_each_expr(e, r) {
		if (!has_word(e))
			continue;
		sc->slot = expr_word(e);
		if (sc->slot && !buf_add(b, sc, sizeof(*sc)))
			n++;
		sc->index++;
	}
	return n;
}

/* the counters and state words of rule @r (of @sc's table) into @b */
static uint32_t save_rule(struct net *net, struct rule *r,
			  struct state_counter *sc, struct nfnl_buf *b)
{
	struct expr *e;
	uint32_t n;

	sc->handle = r->handle;
	n = save_words(r, sc, b);
	sc->kind = STATE_CNT_RULE;
	sc->index = 0;
	rule_for_each_expr(e, r) {
		struct expr_counter *ec;

		if (e->type != EXPR_COUNTER)
			continue;
		ec = expr_priv(e);
		sc->slot = ec->slot;
		if (!dataplane_counter_base(net, ec->slot, &sc->packets,
					    &sc->bytes) &&
		    !buf_add(b, sc, sizeof(*sc)))
			n++;
		sc->index++;
	}
	return n;
}

/* the counter or state word of object @o (of @sc's table) into @b */
static uint32_t save_obj(struct net *net, struct object *o,
			 struct state_counter *sc, struct nfnl_buf *b)
{
	uint32_t n = 0;

	if ((o->type == OBJ_TYPE_QUOTA || o->type == OBJ_TYPE_LIMIT) &&
	    o->dp_slot[0]) {
		sc->kind = STATE_WORD_OBJ;
		sc->handle = o->handle;
		sc->index = o->type;
		sc->slot = o->dp_slot[0];
		sc->packets = sc->bytes = 0;
		if (!buf_add(b, sc, sizeof(*sc)))
			n++;
	}
	if (o->type != OBJ_TYPE_COUNTER)
		return n;
	sc->kind = STATE_CNT_OBJ;
	sc->handle = o->handle;
	sc->index = 0;
	sc->slot = o->dp_slot[0];
	if (!dataplane_counter_base(net, sc->slot, &sc->packets, &sc->bytes) &&
	    !buf_add(b, sc, sizeof(*sc)))
		n++;
	return n;
}

/* the counters of the live generation into @b; their count */
static uint32_t save_counters(struct net *net, struct nfnl_buf *b)
{
	uint8_t cur = genmask_cur(net);
	struct state_counter sc;
	struct table *t;
	struct chain *c;
	struct object *o;
	struct rule *r;
	uint32_t n = 0;

	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, cur))
			continue;
		memset(&sc, 0, sizeof(sc));
		sc.family = t->family;
		snprintf(sc.table, sizeof(sc.table), "%s", t->name);
		list_for_each_entry(c, &t->chains, list) {
			if (!active(c->genmask, cur))
				continue;
			list_for_each_entry(r, &c->rules, list)
				if (active(r->genmask, cur))
					n += save_rule(net, r, &sc, b);
		}
		list_for_each_entry(o, &t->objects, list)
			if (active(o->genmask, cur))
				n += save_obj(net, o, &sc, b);
	}
	return n;
}

/* the dynamic sets of the live generation into @b; their count */
static uint32_t save_sets(struct net *net, struct nfnl_buf *b)
{
	uint8_t cur = genmask_cur(net);
	struct state_set ss;
	struct table *t;
	struct set *s;
	uint32_t n = 0;

	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, cur))
			continue;
		list_for_each_entry(s, &t->sets, list) {
			if (!active(s->genmask, cur) || (s->flags & NFT_SET_MAP) ||
			    !dataplane_set_dynamic(net, s))
				continue;
			memset(&ss, 0, sizeof(ss));
			ss.family = t->family;
			snprintf(ss.table, sizeof(ss.table), "%s", t->name);
			snprintf(ss.name, sizeof(ss.name), "%s", s->name);
			ss.klen = s->klen;
			ss.flags = s->flags;
			ss.id = dataplane_set_id(net, s);
			if (ss.id && !buf_add(b, &ss, sizeof(ss)))
				n++;
		}
	}
	return n;
}

/* a base's serial: random, non-zero, not @net's current one */
static uint64_t new_serial(const struct net *net)
{
	uint64_t v = 0;

	while (!v || v == net->state_serial) {
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			v = boottime_ms() ^ ((uint64_t)getpid() << 32) ^
			    (net->state_serial + 1);
	}
	return v;
}

int nfnl_state_save(struct net *net)
{
	static const uint16_t types[] = {
		NFT_MSG_GETTABLE, NFT_MSG_GETCHAIN, NFT_MSG_GETSET,
		NFT_MSG_GETOBJ,
	};
	struct client cl = { .net = net, .privileged = true };
	char path[4096], tmp[4096 + 8];
	struct state_hdr h = { .magic = STATE_MAGIC };
	struct nfnl_buf b;
	struct table *t;
	struct set *s;
	size_t i;
	int fd, ret = 0;

	if (!nfnl_state_dir)
		return 0;
	if (state_path(net, path, sizeof(path), "") ||
	    state_path(net, tmp, sizeof(tmp), ".tmp"))
		return -ENAMETOOLONG;
	/* 1. header, generators, counters; 2. the dump (into cl.out) */
	nfnl_buf_init(&b);
	nfnl_buf_init(&cl.out.buf);
	h.base_seq = net->base_seq;
	h.table_handle = net->table_handle;
	h.saved_ms = boottime_ms();
	h.serial = new_serial(net);
	buf_add(&b, &h, sizeof(h));
	list_for_each_entry(t, &net->tables, list) {
		struct state_table st = { .family = t->family,
					  .hgenerator = t->hgenerator };

		if (!active(t->genmask, genmask_cur(net)))
			continue;
		snprintf(st.name, sizeof(st.name), "%s", t->name);
		if (!buf_add(&b, &st, sizeof(st)))
			h.ntables++;
	}
	h.ncounters = save_counters(net, &b);
	h.nsets = save_sets(net, &b);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		dump(&cl, types[i], NFPROTO_UNSPEC, NULL);
	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, genmask_cur(net)))
			continue;
		list_for_each_entry(s, &t->sets, list)
			if (active(s->genmask, genmask_cur(net)))
				dump(&cl, NFT_MSG_GETSETELEM, t->family, s);
	}
	dump(&cl, NFT_MSG_GETRULE, NFPROTO_UNSPEC, NULL);
	h.dump_len = cl.out.buf.len;
	if (b.err || cl.out.buf.err) {
		ret = -ENOMEM;
		net->state_serial = 0;
		goto out_free;
	}
	memcpy(b.data, &h, sizeof(h));
	/* 3. write beside, then rename over */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		net->state_serial = 0;
		goto out_free;
	}
	/* no fsync: the file serves a restart while the pins exist, and
	 * pins do not outlive the kernel */
	if (write(fd, b.data, b.len) != (ssize_t)b.len ||
	    write(fd, cl.out.buf.data, cl.out.buf.len) !=
	    (ssize_t)cl.out.buf.len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		/* the journal lacks this commit: no record goes after it */
		net->state_serial = 0;
		goto out_free;
	}
	/* the journal of the earlier base goes (left behind, its serial
	 * keeps it out of a restore) */
	net->state_serial = h.serial;
	net->state_base_len = b.len + cl.out.buf.len;
	net->state_jnl_len = 0;
	net->state_records = 0;
	net->state_cnt_epoch = dataplane_counter_epoch(net);
	if (!state_path(net, path, sizeof(path), ".journal"))
		unlink(path);
out_free:
	nfnl_buf_fini(&b);
	nfnl_out_fini(&cl.out);
	return ret;
}

void nfnl_state_remove(struct net *net)
{
	char path[4096];

	if (nfnl_state_dir && !state_path(net, path, sizeof(path), ""))
		unlink(path);
	if (nfnl_state_dir && !state_path(net, path, sizeof(path), ".journal"))
		unlink(path);
	net->state_serial = 0;
}

/* the attribute that carries each message type's handle (0: none) */
static uint16_t handle_attr(uint16_t type)
{
	switch (type) {
	case NFT_MSG_NEWTABLE:	return NFTA_TABLE_HANDLE;
	case NFT_MSG_NEWCHAIN:	return NFTA_CHAIN_HANDLE;
	case NFT_MSG_NEWRULE:	return NFTA_RULE_HANDLE;
	case NFT_MSG_NEWSET:	return NFTA_SET_HANDLE;
	case NFT_MSG_NEWOBJ:	return NFTA_OBJ_HANDLE;
	default:		return 0;
	}
}

void nfnl_state_handle(struct client *cl, const struct nlmsghdr *nlh,
		       const struct nlattr *const *cda)
{
	struct state_replay *rp = cl->restore;
	const struct nfgenmsg *nfg = NLMSG_DATA(nlh);
	uint16_t type = NFNL_MSG_TYPE(nlh->nlmsg_type);
	struct table *t;
	uint64_t handle;

	if (rp->i >= rp->n)
		return;
	handle = rp->handles[rp->i++];
	if (!handle)
		return;
	/* the handler takes ++generator: make that the handle it had */
	if (type == NFT_MSG_NEWTABLE) {
		cl->net->table_handle = handle - 1;
		return;
	}
	/* NFTA_{CHAIN,RULE,SET,OBJ}_TABLE are all attribute 1 */
	if (!cda[1])
		return;
	list_for_each_entry(t, &cl->net->tables, list)
		if (t->family == nfg->nfgen_family &&
		    active(t->genmask, genmask_next(cl->net)) &&
		    !nfnl_attr_strcmp(cda[1], t->name)) {
			t->hgenerator = handle - 1;
			break;
		}
}

/* the top-level attribute of @nlh after @a (NULL: the first), NULL at
 * the end or at a malformed one */
static const struct nlattr *attr_next(const struct nlmsghdr *nlh, size_t hl,
				      const struct nlattr *a)
{
	size_t off = a ? (size_t)((const char *)a - (const char *)nlh) +
			 NLA_ALIGN(a->nla_len) : hl;

	if (off + NLA_HDRLEN > nlh->nlmsg_len)
		return NULL;
	a = (const void *)((const char *)nlh + off);
	if (a->nla_len < NLA_HDRLEN || off + a->nla_len > nlh->nlmsg_len)
		return NULL;
	return a;
}

/* append @a (aligned, zero padded) to @b */
static void attr_copy(struct nfnl_buf *b, const struct nlattr *a)
{
	if (!nfnl_buf_reserve(b, NLA_ALIGN(a->nla_len)))
		return;
	memcpy(b->data + b->len, a, a->nla_len);
	memset(b->data + b->len + a->nla_len, 0,
	       NLA_ALIGN(a->nla_len) - a->nla_len);
	b->len += NLA_ALIGN(a->nla_len);
}

/*
 * exprs_copy - NFTA_RULE_EXPRESSIONS @list into @b, each dynset without
 * a zero NFTA_DYNSET_TIMEOUT: the kernel dumps one for every dynset
 * (nft_dynset_dump()) but refuses it on a set without timeouts (nft
 * leaves it out when it reads a dump back)
 */
static void exprs_copy(struct nfnl_buf *b, const struct nlattr *list)
{
	const struct nlattr *e, *a, *d;
	size_t nest, enest, dnest, lleft, eleft, dleft;
	uint32_t flags;

	nest = nfnl_nest_start(b, list->nla_type);
	nfnl_attr_for_each_nested(e, list, lleft) {
		const struct nlattr *name = NULL, *data = NULL;

		nfnl_attr_for_each_nested(a, e, eleft) {
			if ((a->nla_type & NLA_TYPE_MASK) == NFTA_EXPR_NAME)
				name = a;
			else if ((a->nla_type & NLA_TYPE_MASK) == NFTA_EXPR_DATA)
				data = a;
		}
		if (!name || !data || nfnl_attr_strcmp(name, "dynset")) {
			attr_copy(b, e);
			continue;
		}
		enest = nfnl_nest_start(b, e->nla_type);
		nfnl_attr_for_each_nested(a, e, eleft) {
			if (a != data) {
				attr_copy(b, a);
				continue;
			}
			dnest = nfnl_nest_start(b, a->nla_type);
			flags = 0;
			nfnl_attr_for_each_nested(d, a, dleft) {
				uint16_t dt = d->nla_type & NLA_TYPE_MASK;
				uint64_t zero = 0;

				if (dt == NFTA_DYNSET_TIMEOUT &&
				    d->nla_len == NLA_HDRLEN + 8 &&
				    !memcmp((const char *)d + NLA_HDRLEN, &zero, 8))
					continue;
				/* (flags again below) */
				if (dt == NFTA_DYNSET_FLAGS &&
				    d->nla_len == NLA_HDRLEN + 4) {
					flags |= be32toh(*(const uint32_t *)
						((const char *)d + NLA_HDRLEN));
					continue;
				}
				/* the kernel dumps several expressions
				 * without the flag it wants for them */
				if (dt == NFTA_DYNSET_EXPRESSIONS)
					flags |= NFT_DYNSET_F_EXPR;
				attr_copy(b, d);
			}
			if (flags)
				nfnl_put_be32(b, NFTA_DYNSET_FLAGS, flags);
			nfnl_nest_end(b, dnest);
		}
		nfnl_nest_end(b, enest);
	}
	nfnl_nest_end(b, nest);
}

/*
 * elems_copy - NFTA_SET_ELEM_LIST_ELEMENTS @list into @b, each element's
 * NFTA_SET_ELEM_EXPIRATION less @elapsed ms (the time since the dump):
 * an element that expired meanwhile is left out, as the kernel's GC would
 * have removed it
 */
static void elems_copy(struct nfnl_buf *b, const struct nlattr *list,
		       uint64_t elapsed)
{
	const struct nlattr *e, *a;
	size_t nest, enest, lleft, eleft;

	nest = nfnl_nest_start(b, list->nla_type);
	nfnl_attr_for_each_nested(e, list, lleft) {
		uint64_t exp = 0;
		bool has = false;

		nfnl_attr_for_each_nested(a, e, eleft)
			if ((a->nla_type & NLA_TYPE_MASK) == NFTA_SET_ELEM_EXPIRATION &&
			    a->nla_len == NLA_HDRLEN + 8) {
				memcpy(&exp, (const char *)a + NLA_HDRLEN, 8);
				exp = be64toh(exp);
				has = true;
			}
		if (!has) {
			attr_copy(b, e);
			continue;
		}
		if (exp <= elapsed)
			continue;
		enest = nfnl_nest_start(b, e->nla_type);
		nfnl_attr_for_each_nested(a, e, eleft) {
			if ((a->nla_type & NLA_TYPE_MASK) == NFTA_SET_ELEM_EXPIRATION)
				nfnl_put_be64(b, NFTA_SET_ELEM_EXPIRATION,
					      exp - elapsed);
			else
				attr_copy(b, a);
		}
		nfnl_nest_end(b, enest);
	}
	nfnl_nest_end(b, nest);
}

/*
 * replay_add - append dumped message @nlh to batch @b as its NEW request,
 * without its handle attribute (kept in @rp); tables owned by a client
 * socket (NFT_TABLE_F_OWNER) are not restored: their owner's socket
 * closed with the earlier nfbpfd, which drops them in the kernel.
 * Return: 0 or -ENOMEM.
 */
static int replay_add(struct nfnl_buf *b, struct state_replay *rp,
		      const struct nlmsghdr *nlh, struct nfnl_buf *skipped)
{
	uint16_t type = NFNL_MSG_TYPE(nlh->nlmsg_type), ha = handle_attr(type);
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	const struct nfgenmsg *nfg = NLMSG_DATA(nlh);
	const struct nlattr *a;
	struct nlmsghdr *out;
	uint64_t handle = 0, *nh;
	size_t off = b->len;
	const char *table = NULL;

	if (nlh->nlmsg_len < hl)
		return 0;
	/* 0. the table it belongs to, owned tables */
	for (a = NULL; (a = attr_next(nlh, hl, a)); ) {
		uint16_t at = a->nla_type & NLA_TYPE_MASK;

		if (at == 1)	/* NFTA_TABLE_NAME, NFTA_*_TABLE */
			table = (const char *)a + NLA_HDRLEN;
		if (type == NFT_MSG_NEWTABLE && at == NFTA_TABLE_FLAGS &&
		    a->nla_len >= NLA_HDRLEN + 4 &&
		    (be32toh(*(const uint32_t *)((const char *)a + NLA_HDRLEN)) &
		     NFT_TABLE_F_OWNER)) {
			struct state_table st = { .family = nfg->nfgen_family };

			snprintf(st.name, sizeof(st.name), "%s", table ? table : "");
			return buf_add(skipped, &st, sizeof(st));
		}
	}
	if (table) {
		const struct state_table *st = (const void *)skipped->data;
		size_t i;

		for (i = 0; i < skipped->len / sizeof(*st); i++)
			if (st[i].family == nfg->nfgen_family &&
			    !strcmp(st[i].name, table))
				return 0;
	}
	/* 1. the message without its handle */
	if (!nfnl_buf_reserve(b, hl))
		return -ENOMEM;
	memcpy(b->data + b->len, nlh, hl);
	b->len += hl;
	for (a = NULL; (a = attr_next(nlh, hl, a)); ) {
		uint16_t at = a->nla_type & NLA_TYPE_MASK;

		if (ha && at == ha && a->nla_len == NLA_HDRLEN + 8) {
			memcpy(&handle, (const char *)a + NLA_HDRLEN, 8);
			handle = be64toh(handle);
			continue;
		}
		if (type == NFT_MSG_NEWRULE && at == NFTA_RULE_EXPRESSIONS)
			exprs_copy(b, a);
		else if (type == NFT_MSG_NEWSETELEM &&
			 at == NFTA_SET_ELEM_LIST_ELEMENTS)
			elems_copy(b, a, rp->elapsed);
		else
			attr_copy(b, a);
	}
	/* a new set needs a batch-unique id (nf_tables_newset()) */
	if (type == NFT_MSG_NEWSET) {
		uint32_t id = htobe32(rp->n + 1);

		nfnl_put(b, NFTA_SET_ID, &id, sizeof(id));
	}
	if (b->err)
		return -ENOMEM;
	out = (struct nlmsghdr *)(b->data + off);
	out->nlmsg_len = b->len - off;
	out->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE |
			   (type == NFT_MSG_NEWRULE ? NLM_F_APPEND : 0);
	out->nlmsg_seq = rp->n + 1;
	out->nlmsg_pid = 0;
	nh = realloc(rp->handles, (rp->n + 1) * sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	rp->handles = nh;
	rp->handles[rp->n++] = handle;
	return 0;
}

/* the attribute @type of message @nlh, NULL if none */
static const struct nlattr *msg_attr(const struct nlmsghdr *nlh, uint16_t type)
{
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	const struct nlattr *a;

	if (nlh->nlmsg_len < hl)
		return NULL;
	for (a = NULL; (a = attr_next(nlh, hl, a)); )
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	return NULL;
}

/* a NEWSETELEM being built for dyn_elems() */
struct dyn_ctx {
	struct nfnl_buf *b;
	const struct state_set *ss;
	const uint8_t *keys;	/* the dump's keys of the set, klen each */
	size_t nkeys;
	uint64_t elapsed;
	size_t msg, nest;	/* open message and element list (or -1) */
};

static void dyn_close(struct dyn_ctx *dc)
{
	if (dc->msg == (size_t)-1)
		return;
	nfnl_nest_end(dc->b, dc->nest);
	nfnl_msg_end(dc->b, dc->msg);
	dc->msg = (size_t)-1;
}

/* dataplane_restore_set() callback: one element, unless the dump has it */
static int dyn_one(void *arg, const uint8_t *key, uint64_t timeout_ms,
		   uint64_t expires_ms)
{
	struct dyn_ctx *dc = arg;
	size_t i, e, k;

	for (i = 0; i < dc->nkeys; i++)
		if (!memcmp(dc->keys + i * dc->ss->klen, key, dc->ss->klen))
			return 0;
	/* (an attribute length is 16 bits: a new message every 32 KiB) */
	if (dc->msg != (size_t)-1 && dc->b->len - dc->nest > 32768)
		dyn_close(dc);
	if (dc->msg == (size_t)-1) {
		dc->msg = nfnl_msg_start(dc->b, (NFNL_SUBSYS_NFTABLES << 8) |
					 NFT_MSG_NEWSETELEM, NLM_F_REQUEST, 0, 0,
					 dc->ss->family, 0);
		nfnl_put_str(dc->b, NFTA_SET_ELEM_LIST_TABLE, dc->ss->table);
		nfnl_put_str(dc->b, NFTA_SET_ELEM_LIST_SET, dc->ss->name);
		dc->nest = nfnl_nest_start(dc->b, NFTA_SET_ELEM_LIST_ELEMENTS);
	}
	e = nfnl_nest_start(dc->b, NFTA_LIST_ELEM);
	k = nfnl_nest_start(dc->b, NFTA_SET_ELEM_KEY);
	nfnl_put(dc->b, NFTA_DATA_VALUE, key, dc->ss->klen);
	nfnl_nest_end(dc->b, k);
	if ((dc->ss->flags & NFT_SET_TIMEOUT) && timeout_ms) {
		nfnl_put_be64(dc->b, NFTA_SET_ELEM_TIMEOUT, timeout_ms);
		/* (replay_add() takes the time since the dump off again) */
		if (expires_ms)
			nfnl_put_be64(dc->b, NFTA_SET_ELEM_EXPIRATION,
				      expires_ms + dc->elapsed);
	}
	nfnl_nest_end(dc->b, e);
	return dc->b->err;
}

/* the keys of set @ss's elements in dump @p (@len bytes) into @dc */
static int dump_keys(struct dyn_ctx *dc, const uint8_t *p, size_t len)
{
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	const struct nlmsghdr *nlh;
	size_t off, left, eleft, kleft;
	uint8_t *keys = NULL;

	for (off = 0; off + NLMSG_HDRLEN <= len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		const struct nlattr *t, *st, *l, *e, *a, *v;

		nlh = (const void *)(p + off);
		if (nlh->nlmsg_len < hl || off + nlh->nlmsg_len > len)
			break;
		if (NFNL_SUBSYS_ID(nlh->nlmsg_type) != NFNL_SUBSYS_NFTABLES ||
		    NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWSETELEM ||
		    ((const struct nfgenmsg *)NLMSG_DATA(nlh))->nfgen_family !=
		    dc->ss->family)
			continue;
		t = msg_attr(nlh, NFTA_SET_ELEM_LIST_TABLE);
		st = msg_attr(nlh, NFTA_SET_ELEM_LIST_SET);
		l = msg_attr(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
		if (!t || !st || !l || nfnl_attr_strcmp(t, dc->ss->table) ||
		    nfnl_attr_strcmp(st, dc->ss->name))
			continue;
		nfnl_attr_for_each_nested(e, l, left)
			nfnl_attr_for_each_nested(a, e, eleft) {
				if ((a->nla_type & NLA_TYPE_MASK) != NFTA_SET_ELEM_KEY)
					continue;
				nfnl_attr_for_each_nested(v, a, kleft) {
					uint8_t *nk;

					if ((v->nla_type & NLA_TYPE_MASK) != NFTA_DATA_VALUE ||
					    v->nla_len != NLA_HDRLEN + dc->ss->klen)
						continue;
					nk = realloc(keys, (dc->nkeys + 1) * dc->ss->klen);
					if (!nk) {
						free(keys);
						return -ENOMEM;
					}
					keys = nk;
					memcpy(keys + dc->nkeys++ * dc->ss->klen,
					       (const char *)v + NLA_HDRLEN,
					       dc->ss->klen);
				}
			}
	}
	dc->keys = keys;
	return 0;
}

/*
 * dyn_elems - NEWSETELEM messages into @b for the elements of each of the
 * @n dynamic sets @ss that the earlier nfbpfd's set maps hold and dump @p
 * (@len bytes) does not: those the packet path added after the last commit
 * (also while nfbpfd was down)
 */
static void dyn_elems(struct net *net, const struct state_set *ss, uint32_t n,
		      const uint8_t *p, size_t len, uint64_t elapsed,
		      struct nfnl_buf *b)
{
	uint32_t i;

	for (i = 0; i < n && !b->err; i++) {
		struct dyn_ctx dc = { .b = b, .ss = &ss[i], .elapsed = elapsed,
				      .msg = (size_t)-1 };

		if (!ss[i].klen || ss[i].klen > NFT_DATA_VALUE_MAXLEN ||
		    dump_keys(&dc, p, len)) {
			b->err = b->err ?: -ENOMEM;
			break;
		}
		dataplane_restore_set(net, ss[i].id, ss[i].klen, dyn_one, &dc);
		dyn_close(&dc);
		free((void *)dc.keys);
	}
}

/* does NEWRULE @r go into the chain NEWCHAIN @c made? */
static bool rule_of(const struct nlmsghdr *r, const struct nlmsghdr *c)
{
	const struct nlattr *rt = msg_attr(r, NFTA_RULE_TABLE),
			    *rc = msg_attr(r, NFTA_RULE_CHAIN),
			    *ct = msg_attr(c, NFTA_CHAIN_TABLE),
			    *cn = msg_attr(c, NFTA_CHAIN_NAME);

	return rt && rc && ct && cn &&
	       ((const struct nfgenmsg *)NLMSG_DATA(r))->nfgen_family ==
	       ((const struct nfgenmsg *)NLMSG_DATA(c))->nfgen_family &&
	       rt->nla_len == ct->nla_len && rc->nla_len == cn->nla_len &&
	       !memcmp(rt, ct, rt->nla_len) &&
	       !memcmp((const char *)rc + NLA_HDRLEN,
		       (const char *)cn + NLA_HDRLEN, rc->nla_len - NLA_HDRLEN);
}

static uint64_t chain_handle(const struct nlmsghdr *c)
{
	const struct nlattr *h = msg_attr(c, NFTA_CHAIN_HANDLE);
	uint64_t v = 0;

	if (h && h->nla_len == NLA_HDRLEN + 8)
		memcpy(&v, (const char *)h + NLA_HDRLEN, 8);
	return be64toh(v);
}

/*
 * replay_all - the dump of @len bytes at @p as a batch into @b: everything
 * but rules in dump order (tables, chains, sets, objects, elements), the
 * NEWSETELEM messages of @extra (dyn_elems()), then
 * the rules of bound chains (chain bindings, newest first: an inner one
 * is bound by a rule of an outer one), then the others: a binding chain
 * takes no rule once a rule binds it. 0 or -ENOMEM.
 */
static int replay_all(struct nfnl_buf *b, struct state_replay *rp,
		      const uint8_t *p, size_t len, const struct nfnl_buf *extra,
		      struct nfnl_buf *skipped)
{
	const struct nlmsghdr **m = NULL, **bind = NULL, *nlh;
	size_t n = 0, nbind = 0, i, j, off;
	int ret = 0;

	for (off = 0; off + NLMSG_HDRLEN <= len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		const struct nlattr *f;
		const void **v;

		nlh = (const void *)(p + off);
		if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > len)
			break;
		if (NFNL_SUBSYS_ID(nlh->nlmsg_type) != NFNL_SUBSYS_NFTABLES)
			continue;
		v = realloc(m, (n + 1) * sizeof(*m));
		if (!v)
			goto out_nomem;
		m = (const struct nlmsghdr **)v;
		m[n++] = nlh;
		f = msg_attr(nlh, NFTA_CHAIN_FLAGS);
		if (NFNL_MSG_TYPE(nlh->nlmsg_type) != NFT_MSG_NEWCHAIN || !f ||
		    f->nla_len != NLA_HDRLEN + 4 ||
		    !(be32toh(*(const uint32_t *)((const char *)f + NLA_HDRLEN)) &
		      NFT_CHAIN_BINDING))
			continue;
		v = realloc(bind, (nbind + 1) * sizeof(*bind));
		if (!v)
			goto out_nomem;
		bind = (const struct nlmsghdr **)v;
		/* by handle, highest first */
		for (j = nbind++; j && chain_handle(bind[j - 1]) < chain_handle(nlh); j--)
			bind[j] = bind[j - 1];
		bind[j] = nlh;
	}
	for (i = 0; i < n && !ret; i++)
		if (NFNL_MSG_TYPE(m[i]->nlmsg_type) != NFT_MSG_NEWRULE)
			ret = replay_add(b, rp, m[i], skipped);
	/* the elements only the earlier nfbpfd's set maps hold */
	for (off = 0; !ret && off + NLMSG_HDRLEN <= extra->len;
	     off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		nlh = (const void *)(extra->data + off);
		ret = replay_add(b, rp, nlh, skipped);
	}
	for (j = 0; j < nbind; j++)
		for (i = 0; i < n && !ret; i++)
			if (NFNL_MSG_TYPE(m[i]->nlmsg_type) == NFT_MSG_NEWRULE &&
			    rule_of(m[i], bind[j]))
				ret = replay_add(b, rp, m[i], skipped);
	for (i = 0; i < n && !ret; i++) {
		if (NFNL_MSG_TYPE(m[i]->nlmsg_type) != NFT_MSG_NEWRULE)
			continue;
		for (j = 0; j < nbind && !rule_of(m[i], bind[j]); j++)
			;
		if (j == nbind)
			ret = replay_add(b, rp, m[i], skipped);
	}
	free(m);
	free(bind);
	return ret;

out_nomem:
	free(m);
	free(bind);
	return -ENOMEM;
}

/* the first error the restore batch got, 0 if none */
static int replay_errors(const struct nfnl_buf *o, const char **msg)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;

	*msg = NULL;
	while (off + NLMSG_HDRLEN <= o->len) {
		nlh = (const void *)(o->data + off);
		if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > o->len)
			break;
		if (nlh->nlmsg_type == NLMSG_ERROR &&
		    nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr)) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (e->error) {
				static char buf[256];
				const char *why = "";
				const struct nlattr *a = (const void *)(e + 1);
				size_t left = nlh->nlmsg_len - NLMSG_HDRLEN -
					      sizeof(*e);
				size_t alen;

				/* the extended ack's message (capped acks) */
				while ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
				       left >= NLA_HDRLEN &&
				       a->nla_len >= NLA_HDRLEN &&
				       a->nla_len <= left) {
					if (a->nla_type == NLMSGERR_ATTR_MSG)
						why = (const char *)a + NLA_HDRLEN;
					alen = NLA_ALIGN(a->nla_len);
					if (alen >= left)
						break;
					left -= alen;
					a = (const void *)((const char *)a + alen);
				}
				snprintf(buf, sizeof(buf),
					 "message %u (type %u) of the state file refused: %.160s",
					 e->msg.nlmsg_seq,
					 NFNL_MSG_TYPE(e->msg.nlmsg_type), why);
				*msg = buf;
				return e->error;
			}
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

/* the quota or limit expression @index of rule @handle of @t (NULL: none) */
static struct expr *rule_word(struct table *t, uint64_t handle, uint32_t index,
			      uint8_t cur)
{
	struct chain *c;
	struct rule *r;
	struct expr *e;

	list_for_each_entry(c, &t->chains, list)
		list_for_each_entry(r, &c->rules, list) {
			if (r->handle != handle || !active(r->genmask, cur))
				continue;
			rule_for_each_expr(e, r)
				if (has_word(e) && !index--)
					return e;
			return NULL;
		}
	return NULL;
}

/*
 * carry_word - state word @sc (a quota's consumed bytes, a limit's
 * bucket) as the earlier nfbpfd's map holds it: ours becomes that, plus
 * what packets changed in ours since our walkers run
 */
static void carry_word(struct net *net, struct table *t,
		       const struct state_counter *sc, uint8_t cur)
{
	uint64_t old, now;
	uint32_t slot = 0;

	if (sc->kind == STATE_WORD_RULE) {
		struct expr *e = rule_word(t, sc->handle, sc->index, cur);

		slot = e ? expr_word(e) : 0;
	} else {
		struct object *o = ruleset_obj_lookup_handle(t, sc->handle,
							     sc->index, cur);

		slot = o ? o->dp_slot[0] : 0;
	}
	if (!slot || dataplane_restore_word(net, sc->slot, &old) ||
	    dataplane_state_read(net, slot, &now))
		return;
	/* (unsigned wrap: a negative sub adds) */
	dataplane_state_sub(net, slot, now - old);
}

/* the counter expression @index of rule @handle of @t (NULL: none) */
static struct expr_counter *rule_counter(struct table *t, uint64_t handle,
					 uint32_t index, uint8_t cur)
{
	struct chain *c;
	struct rule *r;
	struct expr *e;

	list_for_each_entry(c, &t->chains, list)
		list_for_each_entry(r, &c->rules, list) {
			if (r->handle != handle || !active(r->genmask, cur))
				continue;
			rule_for_each_expr(e, r)
				if (e->type == EXPR_COUNTER && !index--)
					return expr_priv(e);
			return NULL;
		}
	return NULL;
}

/*
 * carry_counters - each counter of the state file now counts on from what
 * the earlier nfbpfd's counted: its base plus what its map holds (nothing
 * counts there since our walkers run), where the rebuilt one started from
 * the value of the last commit
 */
static void carry_counters(struct net *net, const struct state_counter *sc,
			   uint32_t n)
{
	uint8_t cur = genmask_cur(net);
	uint32_t i, slot;

	for (i = 0; i < n; i++) {
		uint64_t p, by, p0, b0;
		struct table *t;

		t = ruleset_table_lookup(net, sc[i].table, sc[i].family, cur);
		if (!t)
			continue;
		if (sc[i].kind == STATE_WORD_RULE || sc[i].kind == STATE_WORD_OBJ) {
			carry_word(net, t, &sc[i], cur);
			continue;
		}
		if (sc[i].kind == STATE_CNT_RULE) {
			struct expr_counter *c = rule_counter(t, sc[i].handle,
							      sc[i].index, cur);

			if (!c)
				continue;
			slot = c->slot;
		} else {
			struct object *o = ruleset_obj_lookup_handle(t, sc[i].handle,
								     OBJ_TYPE_COUNTER,
								     cur);

			if (!o)
				continue;
			slot = o->dp_slot[0];
		}
		/* ours started from the last commit's value (its base) */
		if (dataplane_restore_counter(net, sc[i].slot, &p, &by) ||
		    dataplane_counter_base(net, slot, &p0, &b0))
			continue;
		/* (unsigned wrap: a negative sub adds) */
		dataplane_counter_sub(net, slot, p0 - (sc[i].packets + p),
				      b0 - (sc[i].bytes + by));
	}
}

/*
 * The journal: <state-dir>/<netns inode>.journal holds the batches
 * committed since the base (the state file) was written, so that a commit
 * costs what its batch is, not what the ruleset is. A header (its base's
 * serial), then one record per committed batch: the generators before and
 * after, the handles the commit gave, the counter and state slots of what
 * it created, and the batch's messages as the client sent them. A restore
 * replays the base, then each record as a batch of a client; it refuses
 * the state if a replay gives other handles (the base and the records
 * before it are committed by then: the dataplane runs those). The base
 * is written again
 * (and the journal emptied) when the journal outgrows it, and for batches
 * whose replay could not give the same (see batch_replayable()).
 */
#define JNL_MAGIC	"nfbpfjn1"
#define REC_MAGIC	"nfbpfjr1"
#define JNL_MAX_RECORDS	1024

struct jnl_hdr {
	char magic[8];
	uint64_t serial;
};

/**
 * struct jnl_rec - one committed batch; then @ntables struct jnl_table,
 * @ncounters struct state_counter, @nhandles uint64_t, @msgs_len bytes of
 * messages, zero padded to 8 bytes
 * @len: bytes of the record, all of it
 */
struct jnl_rec {
	char magic[8];
	uint64_t len;
	uint64_t th_pre, th_post;
	uint32_t seq_pre, seq_post;
	uint32_t ntables, ncounters, nhandles, pad;
	uint64_t msgs_len;
};

/* the generator of a table the batch gave handles of, before and after */
struct jnl_table {
	uint8_t family;
	char name[NFT_TABLE_MAXNAMELEN];
	uint64_t pre, post;
};

void nfnl_state_note_init(struct nfnl_state_note *n)
{
	nfnl_buf_init(&n->handles);
	nfnl_buf_init(&n->counters);
}

void nfnl_state_note_fini(struct nfnl_state_note *n)
{
	nfnl_buf_fini(&n->handles);
	nfnl_buf_fini(&n->counters);
}

void nfnl_state_note(struct nfnl_state_note *n, struct net *net,
		     const struct trans *tr)
{
	struct state_counter sc;
	uint64_t h;

	switch (tr->op) {
	case TRANS_NEWTABLE:
		h = tr->table->handle;
		break;
	case TRANS_NEWCHAIN:
		h = tr->chain->handle;
		break;
	case TRANS_NEWRULE:
		h = tr->rule->handle;
		break;
	case TRANS_NEWSET:
		h = tr->set->handle;
		break;
	case TRANS_NEWOBJ:
		h = tr->obj->handle;
		break;
	default:
		return;
	}
	buf_add(&n->handles, &h, sizeof(h));
	if (!nfnl_state_dir || (tr->op != TRANS_NEWRULE && tr->op != TRANS_NEWOBJ))
		return;
	memset(&sc, 0, sizeof(sc));
	sc.family = tr->table->family;
	snprintf(sc.table, sizeof(sc.table), "%s", tr->table->name);
	if (tr->op == TRANS_NEWRULE)
		save_rule(net, tr->rule, &sc, &n->counters);
	else
		save_obj(net, tr->obj, &sc, &n->counters);
}

void nfnl_state_replayed(struct client *cl, const struct nfnl_state_note *n)
{
	struct state_replay *rp = cl->restore;

	if (rp->got)
		buf_add(rp->got, n->handles.data, n->handles.len);
}

/* the string of attribute @a into @buf (@len bytes), false if too long */
static bool attr_str(const struct nlattr *a, char *buf, size_t len)
{
	size_t n = a->nla_len - NLA_HDRLEN;

	if (n && ((const char *)a)[NLA_HDRLEN + n - 1] == '\0')
		n--;
	if (n >= len)
		return false;
	memcpy(buf, (const char *)a + NLA_HDRLEN, n);
	buf[n] = '\0';
	return true;
}

static bool attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || a->nla_len != NLA_HDRLEN + 4)
		return false;
	memcpy(v, (const char *)a + NLA_HDRLEN, 4);
	*v = be32toh(*v);
	return true;
}

/* the set the elements of NEWSETELEM/DELSETELEM @nlh go to: not one with
 * timeouts, not one the packet path writes? (else: false) */
static bool elems_replayable(struct net *net, const struct nlmsghdr *nlh,
			     const uint8_t *p, size_t len)
{
	const struct nfgenmsg *nfg = NLMSG_DATA(nlh);
	const struct nlattr *id = msg_attr(nlh, NFTA_SET_ELEM_LIST_SET_ID),
			    *ta = msg_attr(nlh, NFTA_SET_ELEM_LIST_TABLE),
			    *sa = msg_attr(nlh, NFTA_SET_ELEM_LIST_SET);
	const uint32_t bad = NFT_SET_TIMEOUT | NFT_SET_EVAL;
	char tname[NFT_TABLE_MAXNAMELEN], sname[NFT_SET_MAXNAMELEN];
	const struct nlmsghdr *m;
	struct table *t;
	struct set *s;
	uint32_t want, have, flags;
	size_t off;

	/* nft_set_lookup_global(): by name, else by id in the batch */
	if (ta && sa && attr_str(ta, tname, sizeof(tname)) &&
	    attr_str(sa, sname, sizeof(sname))) {
		t = ruleset_table_lookup(net, tname, nfg->nfgen_family,
					 genmask_cur(net));
		s = t ? ruleset_set_lookup(t, sname, genmask_cur(net)) : NULL;
		if (s)
			return !(s->flags & bad) && !dataplane_set_dynamic(net, s);
	}
	if (!id || !attr_u32(id, &want))
		return false;
	for (off = 0; off + NLMSG_HDRLEN <= len; off += NLMSG_ALIGN(m->nlmsg_len)) {
		m = (const void *)(p + off);
		if (m->nlmsg_len < NLMSG_HDRLEN || off + m->nlmsg_len > len)
			break;
		if (NFNL_MSG_TYPE(m->nlmsg_type) != NFT_MSG_NEWSET ||
		    !attr_u32(msg_attr(m, NFTA_SET_ID), &have) || have != want)
			continue;
		flags = 0;
		attr_u32(msg_attr(m, NFTA_SET_FLAGS), &flags);
		return !(flags & bad);
	}
	return false;
}

/*
 * batch_replayable - does replaying batch @p (@len bytes) after what came
 * before give what it gave? Not for elements of a set with timeouts (they
 * count from the commit) or of one the packet path writes (its elements
 * are read back from the pinned set map, once, after the base), nor for a
 * rule that makes a set one the packet path writes, nor for a table owned
 * by a socket (not restored).
 */
static bool batch_replayable(struct net *net, const uint8_t *p, size_t len)
{
	const struct nlmsghdr *nlh;
	const struct nlattr *l, *e, *a;
	size_t off, left, eleft;
	uint32_t flags;

	for (off = 0; off + NLMSG_HDRLEN <= len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		nlh = (const void *)(p + off);
		if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > len ||
		    NFNL_SUBSYS_ID(nlh->nlmsg_type) != NFNL_SUBSYS_NFTABLES)
			return false;
		switch (NFNL_MSG_TYPE(nlh->nlmsg_type)) {
		case NFT_MSG_NEWTABLE:
			if (attr_u32(msg_attr(nlh, NFTA_TABLE_FLAGS), &flags) &&
			    (flags & NFT_TABLE_F_OWNER))
				return false;
			break;
		case NFT_MSG_NEWRULE:
			l = msg_attr(nlh, NFTA_RULE_EXPRESSIONS);
			if (!l)
				break;
			nfnl_attr_for_each_nested(e, l, left)
				nfnl_attr_for_each_nested(a, e, eleft)
					if ((a->nla_type & NLA_TYPE_MASK) == NFTA_EXPR_NAME &&
					    !nfnl_attr_strcmp(a, "dynset"))
						return false;
			break;
		case NFT_MSG_NEWSETELEM:
		case NFT_MSG_DELSETELEM:
		case NFT_MSG_DESTROYSETELEM:
			if (!elems_replayable(net, nlh, p, len))
				return false;
			break;
		}
	}
	return true;
}

int nfnl_state_commit(struct net *net, const struct nfnl_state_note *n,
		      const void *msgs, size_t len, uint64_t table_handle,
		      uint32_t base_seq, bool owned)
{
	static const uint8_t zero[8];
	struct jnl_rec rec = { .magic = REC_MAGIC };
	struct jnl_hdr jh = { .magic = JNL_MAGIC };
	struct nfnl_buf tabs;
	struct iovec iov[6];
	struct table *t;
	char path[4096];
	size_t pad;
	ssize_t w;
	int fd, niov = 0, ret = 0;

	if (!nfnl_state_dir)
		return 0;
	if (!net->state_serial || owned ||
	    net->state_records >= JNL_MAX_RECORDS ||
	    net->state_cnt_epoch != dataplane_counter_epoch(net) ||
	    state_path(net, path, sizeof(path), ".journal") ||
	    !batch_replayable(net, msgs, len))
		return nfnl_state_save(net);
	/* 1. the record */
	nfnl_buf_init(&tabs);
	list_for_each_entry(t, &net->tables, list) {
		struct jnl_table jt = { .family = t->family,
					.pre = t->hgen_mark,
					.post = t->hgenerator };

		if (!active(t->genmask, genmask_cur(net)))
			continue;
		if (t->flags & NFT_TABLE_F_OWNER) {
			nfnl_buf_fini(&tabs);
			return nfnl_state_save(net);
		}
		/* (a generator the batch did not move needs no setting) */
		if (t->hgen_mark == t->hgenerator)
			continue;
		snprintf(jt.name, sizeof(jt.name), "%s", t->name);
		if (!buf_add(&tabs, &jt, sizeof(jt)))
			rec.ntables++;
	}
	if (tabs.err || n->handles.err || n->counters.err) {
		nfnl_buf_fini(&tabs);
		return nfnl_state_save(net);
	}
	rec.th_pre = table_handle;
	rec.th_post = net->table_handle;
	rec.seq_pre = base_seq;
	rec.seq_post = net->base_seq;
	rec.ncounters = n->counters.len / sizeof(struct state_counter);
	rec.nhandles = n->handles.len / sizeof(uint64_t);
	rec.msgs_len = len;
	pad = (8 - len % 8) % 8;
	rec.len = sizeof(rec) + tabs.len + n->counters.len + n->handles.len +
		  len + pad;
	/* 2. compaction: the journal is not to outgrow the base */
	if (net->state_jnl_len + rec.len > net->state_base_len) {
		nfnl_buf_fini(&tabs);
		return nfnl_state_save(net);
	}
	/* 3. one write (with the header if the journal is new) */
	if (!net->state_jnl_len) {
		jh.serial = net->state_serial;
		iov[niov++] = (struct iovec){ &jh, sizeof(jh) };
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	} else {
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	}
	iov[niov++] = (struct iovec){ &rec, sizeof(rec) };
	iov[niov++] = (struct iovec){ tabs.data, tabs.len };
	iov[niov++] = (struct iovec){ n->counters.data, n->counters.len };
	iov[niov++] = (struct iovec){ n->handles.data, n->handles.len };
	iov[niov++] = (struct iovec){ (void *)msgs, len };
	iov[niov++] = (struct iovec){ (void *)zero, pad };
	if (fd < 0) {
		ret = -errno;
	} else {
		size_t want = (net->state_jnl_len ? 0 : sizeof(jh)) + rec.len;

		/* no fsync, as the base */
		w = writev(fd, iov, niov);
		if (w != (ssize_t)want)
			ret = w < 0 ? -errno : -EIO;
		if (close(fd) && !ret)
			ret = -errno;
		if (!ret) {
			net->state_jnl_len += want;
			net->state_records++;
		}
	}
	nfnl_buf_fini(&tabs);
	/* a journal that failed (perhaps half a record) goes with a base */
	return ret ? nfnl_state_save(net) : 0;
}

/* the next whole record of journal @j (@len bytes) at *@off, NULL at the
 * end (a record cut short by a kill is not one) */
static const struct jnl_rec *rec_next(const uint8_t *j, size_t len, size_t *off)
{
	const struct jnl_rec *r;
	uint64_t need;

	if (*off + sizeof(*r) > len)
		return NULL;
	r = (const void *)(j + *off);
	need = sizeof(*r) + (uint64_t)r->ntables * sizeof(struct jnl_table) +
	       (uint64_t)r->ncounters * sizeof(struct state_counter) +
	       (uint64_t)r->nhandles * sizeof(uint64_t) + r->msgs_len;
	if (memcmp(r->magic, REC_MAGIC, 8) || r->len > len - *off ||
	    r->len < need || r->len - need >= 8 || r->len % 8 ||
	    r->ntables > len || r->ncounters > len || r->nhandles > len ||
	    r->msgs_len > len)
		return NULL;
	*off += r->len;
	return r;
}

static const struct jnl_table *rec_tables(const struct jnl_rec *r)
{
	return (const void *)(r + 1);
}

static const struct state_counter *rec_counters(const struct jnl_rec *r)
{
	return (const void *)(rec_tables(r) + r->ntables);
}

static const uint64_t *rec_handles(const struct jnl_rec *r)
{
	return (const void *)(rec_counters(r) + r->ncounters);
}

static const uint8_t *rec_msgs(const struct jnl_rec *r)
{
	return (const void *)(rec_handles(r) + r->nhandles);
}

/*
 * replay_rec - journal record @r (the @k-th) as the batch of a client,
 * from the generators it began with; the handles and generators it gives
 * must be the ones it gave. 0 or -errno with *@msg.
 */
static int replay_rec(struct net *net, const struct jnl_rec *r, uint32_t k,
		      const char **msg)
{
	struct client cl = { .net = net, .privileged = true,
			     .nlflags = CLIENT_F_EXT_ACK | CLIENT_F_CAP_ACK };
	const struct jnl_table *jt = rec_tables(r);
	struct state_replay rp = { NULL, 0, 0, 0, NULL };
	static char buf[320];
	struct nfnl_buf batch, got;
	const char *why = NULL;
	struct table *t;
	size_t off;
	uint32_t i;
	int ret;

	for (i = 0; i < r->ntables; i++) {
		t = ruleset_table_lookup(net, jt[i].name, jt[i].family,
					 genmask_cur(net));
		if (t)
			t->hgenerator = jt[i].pre;
	}
	net->table_handle = r->th_pre;
	net->base_seq = r->seq_pre;
	nfnl_buf_init(&batch);
	nfnl_buf_init(&got);
	nfnl_buf_init(&cl.out.buf);
	off = nfnl_msg_start(&batch, NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 0, 0,
			     NFPROTO_UNSPEC, NFNL_SUBSYS_NFTABLES);
	nfnl_msg_end(&batch, off);
	buf_add(&batch, rec_msgs(r), r->msgs_len);
	off = nfnl_msg_start(&batch, NFNL_MSG_BATCH_END, NLM_F_REQUEST, 0, 0,
			     NFPROTO_UNSPEC, NFNL_SUBSYS_NFTABLES);
	nfnl_msg_end(&batch, off);
	if (batch.err) {
		ret = -ENOMEM;
		why = "out of memory";
		goto out;
	}
	rp.got = &got;
	cl.restore = &rp;
	nfnl_rcv(&cl, batch.data, batch.len);
	ret = replay_errors(&cl.out.buf, &why);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (got.err || got.len != r->nhandles * sizeof(uint64_t) ||
	    memcmp(got.data, rec_handles(r), got.len)) {
		why = "its replay gave other handles than the commit";
		goto out;
	}
	for (i = 0; i < r->ntables; i++) {
		t = ruleset_table_lookup(net, jt[i].name, jt[i].family,
					 genmask_cur(net));
		if (!t || t->hgenerator != jt[i].post) {
			why = "its replay left other handle generators than the commit";
			goto out;
		}
	}
	if (net->table_handle != r->th_post) {
		why = "its replay left another table handle than the commit";
		goto out;
	}
	net->base_seq = r->seq_post;
	ret = 0;
out:
	if (ret) {
		snprintf(buf, sizeof(buf), "record %u of the state journal: %.280s",
			 k, why ? why : "refused");
		*msg = buf;
	}
	nfnl_buf_fini(&batch);
	nfnl_buf_fini(&got);
	nfnl_out_fini(&cl.out);
	return ret;
}

/* the journal of base @serial, read whole into *@j (NULL: none) */
static int jnl_read(struct net *net, uint64_t serial, uint8_t **j, size_t *len)
{
	struct jnl_hdr jh;
	struct stat sb;
	char path[4096];
	int fd, ret = 0;

	*j = NULL;
	*len = 0;
	if (state_path(net, path, sizeof(path), ".journal"))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &sb) || sb.st_size < (off_t)sizeof(jh))
		goto out;	/* (cut short before its header: empty) */
	*j = malloc(sb.st_size);
	if (!*j) {
		ret = -ENOMEM;
		goto out;
	}
	if (read(fd, *j, sb.st_size) != sb.st_size) {
		ret = -EIO;
		goto out;
	}
	memcpy(&jh, *j, sizeof(jh));
	/* a journal of an earlier base: the base has what it had */
	if (memcmp(jh.magic, JNL_MAGIC, 8) || jh.serial != serial)
		goto out;
	*len = sb.st_size;
out:
	if (!*len) {
		free(*j);
		*j = NULL;
	}
	close(fd);
	return ret;
}

int nfnl_state_restore(struct net *net, const char **msg)
{
	struct client cl = { .net = net, .privileged = true,
			     .nlflags = CLIENT_F_EXT_ACK | CLIENT_F_CAP_ACK };
	struct state_replay rp = { NULL, 0, 0, 0, NULL };
	struct nfnl_buf batch, skipped, extra;
	const struct state_table *st;
	struct state_hdr h;
	struct stat sb;
	char path[4096];
	uint8_t *data = NULL, *jnl = NULL;
	size_t off, len, jlen = 0, joff;
	const struct jnl_rec *r;
	uint32_t i, k;
	int fd, ret;

	*msg = NULL;
	if (!nfnl_state_dir || state_path(net, path, sizeof(path), ""))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	/* 0. a namespace without pins is not the one the file was of */
	ret = dataplane_restore_begin(net);
	if (ret) {
		close(fd);
		if (ret == -ENOENT)
			unlink(path);
		return ret == -ENOENT ? 0 : ret;
	}
	/* 1. read and check the file */
	ret = -EINVAL;
	*msg = "state file is damaged";
	if (fstat(fd, &sb) || sb.st_size < (off_t)sizeof(h) ||
	    !(data = malloc(sb.st_size)) ||
	    read(fd, data, sb.st_size) != sb.st_size)
		goto out_close;
	memcpy(&h, data, sizeof(h));
	len = sizeof(h) + (size_t)h.ntables * sizeof(struct state_table) +
	      (size_t)h.ncounters * sizeof(struct state_counter) +
	      (size_t)h.nsets * sizeof(struct state_set);
	if (memcmp(h.magic, STATE_MAGIC, 8) || h.ntables > sb.st_size ||
	    h.ncounters > sb.st_size || h.nsets > sb.st_size ||
	    len + h.dump_len != (size_t)sb.st_size)
		goto out_close;
	/* 2. the dump as one batch, handles aside */
	rp.elapsed = boottime_ms() > h.saved_ms ? boottime_ms() - h.saved_ms : 0;
	nfnl_buf_init(&batch);
	nfnl_buf_init(&skipped);
	nfnl_buf_init(&cl.out.buf);
	off = nfnl_msg_start(&batch, NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 0, 0,
			     NFPROTO_UNSPEC, NFNL_SUBSYS_NFTABLES);
	nfnl_msg_end(&batch, off);
	nfnl_buf_init(&extra);
	st = (const void *)(data + sizeof(h));
	dyn_elems(net, (const void *)((const uint8_t *)st +
				      h.ntables * sizeof(struct state_table) +
				      h.ncounters * sizeof(struct state_counter)),
		  h.nsets, data + len, sb.st_size - len, rp.elapsed, &extra);
	if (extra.err ||
	    replay_all(&batch, &rp, data + len, sb.st_size - len, &extra,
		       &skipped))
		batch.err = -ENOMEM;
	nfnl_buf_fini(&extra);
	off = nfnl_msg_start(&batch, NFNL_MSG_BATCH_END, NLM_F_REQUEST, 0, 0,
			     NFPROTO_UNSPEC, NFNL_SUBSYS_NFTABLES);
	nfnl_msg_end(&batch, off);
	/* 3. replay: the commit adopts the pinned dataplane */
	if (batch.err) {
		ret = -ENOMEM;
		*msg = "out of memory";
	} else {
		cl.restore = &rp;
		nfnl_rcv(&cl, batch.data, batch.len);
		cl.restore = NULL;
		ret = replay_errors(&cl.out.buf, msg);
		if (ret && !*msg)
			*msg = "the ruleset of the state file was refused";
	}
	if (!ret) {
		/* 4. generators, generation id, counters as they were */
		st = (const void *)(data + sizeof(h));
		for (i = 0; i < h.ntables; i++) {
			struct table *t = ruleset_table_lookup(net, st[i].name,
							       st[i].family,
							       genmask_cur(net));

			if (t)
				t->hgenerator = st[i].hgenerator;
		}
		net->table_handle = h.table_handle;
		net->base_seq = h.base_seq;
		/* 5. the batches committed since, as they came */
		ret = jnl_read(net, h.serial, &jnl, &jlen);
		if (ret)
			*msg = "state journal unreadable";
		joff = sizeof(struct jnl_hdr);
		for (k = 0; !ret && (r = rec_next(jnl, jlen, &joff)); k++)
			ret = replay_rec(net, r, k, msg);
	}
	if (!ret) {
		/* 6. counters: the base's, then each record's (a later one
		 * sets a counter again: a rule replaced keeps its handle) */
		carry_counters(net, (const void *)(st + h.ntables), h.ncounters);
		joff = sizeof(struct jnl_hdr);
		while ((r = rec_next(jnl, jlen, &joff)))
			carry_counters(net, rec_counters(r), r->ncounters);
		*msg = NULL;
	}
	free(jnl);
	nfnl_buf_fini(&batch);
	nfnl_buf_fini(&skipped);
	nfnl_out_fini(&cl.out);
	free(rp.handles);
out_close:
	dataplane_restore_end(net);
	free(data);
	close(fd);
	/* the carried counters are the ones to keep from now on */
	if (!ret)
		ret = nfnl_state_save(net);
	return ret;
}
