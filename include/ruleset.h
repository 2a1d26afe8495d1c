/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ruleset.h - the nf_tables model of one network namespace.
 *
 * Generations work as in nf_tables: every object carries a 2-bit genmask;
 * bit (1 << g) set means "inactive in generation g". net->gencursor is the
 * current generation. A batch creates objects active only in the next
 * generation and marks deleted ones inactive in the next generation; the
 * commit flips gencursor and then clears the stale bits; an abort undoes
 * each transaction record in reverse. Readers of the committed ruleset
 * (dumps, codegen after commit) use genmask_cur(); the batch uses
 * genmask_next().
 */
#ifndef NFBPF_RULESET_H
#define NFBPF_RULESET_H

#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#include "nfbpf/list.h"
#include "expr.h"

#define NFT_SET_ANONYMOUS_	0x1	/* NFT_SET_ANONYMOUS, without the uapi header */
#define NAME_MAXLEN	256	/* NFT_NAME_MAXLEN / NFT_CHAIN_MAXNAMELEN */
#define USERDATA_MAXLEN	256	/* NFT_USERDATA_MAXLEN */

struct net;
struct object;

/**
 * struct userdata - opaque client bytes, kept byte for byte
 * @len: 0 = absent
 * @data: owned
 */
struct userdata {
	uint32_t len;
	uint8_t *data;
};

/**
 * struct table - an nf_tables table
 * @list: in net->tables
 * @net: owning namespace
 * @name: owned
 * @family: NFPROTO_*
 * @flags: NFT_TABLE_F_* as committed
 * @handle: from net->table_handle
 * @hgenerator: last handle given to an object of this table
 * @hgen_mark: @hgenerator when the current batch began
 * @genmask: see file comment
 * @use: references (chains, sets, objects, flowtables)
 * @owner: netlink port id of the owner (NFT_TABLE_F_OWNER), else 0
 * @udata: user data
 * @chains: struct chain list
 * @sets: struct set list
 * @objects: struct object list (include/object.h), in creation order
 * @nobjects: objects in @objects, any generation (daemon limit)
 * @obj_hash: @objects indexed by (name, type), @obj_hash_size chains
 *	      (owned; see ruleset_obj_link())
 * @obj_hash_size: power of two, 0 before the first object
 */
struct table {
	struct list_head list;
	struct net *net;
	char *name;
	uint8_t family;
	uint32_t flags;
	uint64_t handle;
	uint64_t hgenerator;
	uint64_t hgen_mark;
	uint8_t genmask;
	uint32_t use;
	uint32_t owner;
	struct userdata udata;
	struct list_head chains;
	struct list_head sets;
	struct list_head objects;
	uint32_t nobjects;
	struct object **obj_hash;
	uint32_t obj_hash_size;
};

/**
 * struct basechain - hook attributes of a base chain
 * @hooknum: NF_INET_* (or NF_NETDEV_INGRESS/EGRESS)
 * @priority: hook priority
 * @type: "filter", "nat" or "route"
 * @policy: NF_ACCEPT or NF_DROP
 * @ndevs: number of devices (netdev family / inet ingress)
 * @devs: owned device names
 * @has_stats: NFTA_CHAIN_COUNTERS was given (iptables-nft)
 * @packets: initial packet count
 * @bytes: initial byte count
 */
struct basechain {
	uint32_t hooknum;
	int32_t priority;
	char type[16];
	uint32_t policy;
	uint32_t ndevs;
	char **devs;
	bool has_stats;
	uint64_t packets;
	uint64_t bytes;
};

/**
 * struct chain - an nf_tables chain
 * @list: in table->chains
 * @table: owning table
 * @name: owned
 * @handle: table-unique handle
 * @genmask: see file comment
 * @use: references: rules jumping here, plus verdict map elements
 * @flags: NFT_CHAIN_BASE | NFT_CHAIN_HW_OFFLOAD | NFT_CHAIN_BINDING
 * @base: non-NULL for base chains, owned
 * @udata: user data
 * @rules: struct rule list, in evaluation order (contains rules of both
 *	   generations, filtered by genmask)
 * @nrules: rules active in the next generation (kept by transactions)
 * @bound: NFT_CHAIN_BINDING chain already bound to a rule (the one rule
 *	   whose jump/goto names it; it lives and dies with that rule)
 * @vepoch: jump validation pass that last reached this chain
 * @vlevel: deepest jump level it was found valid at in that pass
 * @vhooks: hooks (1 << hooknum) of the base chains it was found valid
 *	    from in that pass (expressions restricted to some hooks)
 * @reg_seq: ruleset_reg_seq() when it was created: the kernel registers a
 *	     base chain's hooks as it processes its NEWCHAIN message, and
 *	     runs equal priorities newest registration first
 */
#define CHAIN_F_BINDING	0x4	/* NFT_CHAIN_BINDING */

struct chain {
	struct list_head list;
	struct table *table;
	char *name;
	uint64_t handle;
	uint8_t genmask;
	uint32_t use;
	uint32_t flags;
	struct basechain *base;
	struct userdata udata;
	struct list_head rules;
	uint32_t nrules;
	bool bound;
	uint32_t vepoch;
	uint8_t vlevel;
	uint8_t vhooks;
	uint64_t reg_seq;
};

/**
 * struct rule - an nf_tables rule
 * @list: in chain->rules
 * @chain: owning chain
 * @handle: table-unique handle (a replacement keeps the replaced rule's)
 * @uid: unique among all rules ever made (ruleset_rule_uid()): what the
 *	 dataplane knows a rule by, since a replacement and the rule it
 *	 replaces share a handle within their batch
 * @genmask: see file comment
 * @dlen: bytes of expression records in @exprs
 * @nexprs: number of expressions
 * @exprs: owned buffer of struct expr records
 * @udata: user data
 */
struct rule {
	struct list_head list;
	struct chain *chain;
	uint64_t handle;
	uint64_t uid;
	uint8_t genmask;
	bool gone;	/* its deletion is announced: commit events skip it */
	uint32_t dlen;
	uint32_t nexprs;
	struct expr *exprs;
	struct userdata udata;
};

#define rule_for_each_expr(e, r)					\
	for (e = (r)->exprs; (char *)e < (char *)(r)->exprs + (r)->dlen;	\
	     e = expr_next(e))

/**
 * struct set_field - length of one field of a concatenated key
 */
#define SET_FIELDS_MAX	16

/**
 * struct set - a named or anonymous set or map
 * @list: in table->sets
 * @table: owning table
 * @name: owned
 * @handle: table-unique handle
 * @genmask: see file comment
 * @use: rules bound to it (lookups), plus map references
 * @flags: NFT_SET_*
 * @ktype: key datatype (opaque to us, echoed)
 * @klen: key length in bytes
 * @dtype: data datatype (maps), NFT_DATA_VERDICT for vmaps
 * @dlen: data length (maps)
 * @objtype: object type (object maps)
 * @policy: NFT_SET_POL_*
 * @has_policy: NFTA_SET_POLICY was given
 * @size: NFTA_SET_DESC_SIZE (0 = none)
 * @timeout: default timeout, jiffies (as the kernel keeps it)
 * @gc_int: gc interval, ms
 * @nfields: concatenation fields (0 = not concatenated)
 * @field_len: lengths of the fields
 * @udata: user data
 * @elems: struct set_elem list
 * @nelems: elements active in the next generation
 * @exprs: NFTA_SET_EXPR(ESSIONS): the stateful expressions each new
 *	   element gets a copy of (records as in struct rule), owned
 * @exprs_len: bytes of records in @exprs
 * @nexprs: count (at most SET_EXPRS_MAX)
 */
struct set {
	struct list_head list;
	struct table *table;
	char *name;
	uint64_t handle;
	uint8_t genmask;
	uint32_t use;
	uint32_t flags;
	uint32_t ktype;
	uint32_t klen;
	uint32_t dtype;
	uint32_t dlen;
	uint32_t objtype;
	uint32_t policy;
	bool has_policy;
	uint32_t size;
	uint64_t timeout;
	uint32_t gc_int;
	uint32_t nfields;
	uint8_t field_len[SET_FIELDS_MAX];
	struct userdata udata;
	struct list_head elems;
	uint32_t nelems;
	struct set_elem **ehash;	/* @elems by key (ruleset_set_elem_link) */
	uint32_t ehash_size, ehash_n;
	struct expr *exprs;
	uint32_t exprs_len;
	uint32_t nexprs;
};

#define SET_EXPRS_MAX	2	/* NFT_SET_EXPR_MAX */

/* expr_for_each_in - walk @len bytes of expression records at @buf */
#define expr_for_each_in(e, buf, len)					\
	for (e = (buf); e && (char *)e < (char *)(buf) + (len);		\
	     e = expr_next(e))

/**
 * struct set_elem - one element of a set or map
 * @list: in set->elems
 * @genmask: see file comment
 * @flags: NFT_SET_ELEM_INTERVAL_END etc.
 * @key: key bytes (set->klen)
 * @key_end: range end (NFTA_SET_ELEM_KEY_END), len 0 if absent
 * @data: map data value (set->dtype != NFT_DATA_VERDICT)
 * @verdict: vmap data
 * @has_data: @data or @verdict is set
 * @timeout: jiffies, 0 = none
 * @expires: absolute jiffies when it expires (0: never)
 * @expiration: the expiration asked for in the message (parsing only)
 * @obj: object map data (NFTA_SET_ELEM_OBJREF); holds obj->use
 * @udata: user data
 * @exprs: NFTA_SET_ELEM_EXPR(ESSIONS): its stateful expressions (records
 *	   as in struct rule; a counter's slot is given by the dataplane),
 *	   owned
 * @exprs_len: bytes of records in @exprs
 * @nexprs: count
 */
struct set_elem {
	struct list_head list;
	struct set_elem *hnext;	/* set->ehash chain */
	uint8_t genmask;
	uint32_t flags;
	struct data_value key;
	struct data_value key_end;
	struct data_value data;
	struct verdict verdict;
	bool has_data;
	uint64_t timeout;
	uint64_t expires;
	uint64_t expiration;
	struct object *obj;
	struct userdata udata;
	struct expr *exprs;
	uint32_t exprs_len;
	uint32_t nexprs;
	bool synced;	/* scratch of nfnl/set.c set_sync() */
	bool dyn;	/* added by the packet path with statements, whose
			 * state its map entry keeps (dynset) */
};

/*
 * ruleset_elem_counts - does @e count in set->nelems (and so against its
 * size)? nft_add_set_elem() counts neither the catch-all element nor the
 * interval ends of an rbtree set (flags: NFT_SET_ELEM_INTERVAL_END 0x1,
 * NFT_SET_ELEM_CATCHALL 0x2)
 */
static inline bool ruleset_elem_counts(const struct set_elem *e)
{
	return !(e->flags & 0x3);
}

/**
 * struct net - the nf_tables state of one network namespace
 * @list: in the daemon's namespace list
 * @ns_dev: st_dev of the namespace inode
 * @ns_ino: st_ino of the namespace inode (its identity)
 * @ns_fd: an fd of the namespace (for setns() when attaching), owned
 * @gencursor: current generation bit (0 or 1)
 * @base_seq: generation id reported by GETGEN, bumped by every commit
 * @table_handle: last table handle
 * @tables: struct table list
 * @dataplane: opaque dataplane state owned by offload/, NULL until used
 */
struct net {
	struct list_head list;
	dev_t ns_dev;
	ino_t ns_ino;
	int ns_fd;
	uint8_t gencursor;
	uint32_t base_seq;
	uint64_t table_handle;
	struct list_head tables;
	void *dataplane;
	struct ulog_net *ulog;	/* nfnetlink_log instances (nfnl/ulog.c) */
	uint8_t *nflog_bound;	/* NFLOG_GROUPS bits: groups with an instance
				 * (NULL: none yet), read by the dataplane */
	/* nfnl/state.c: the state file of the namespace */
	uint64_t state_serial;	/* its base's serial (0: none written) */
	uint64_t state_base_len;	/* bytes of the base */
	uint64_t state_jnl_len;	/* bytes of the journal (0: none) */
	uint32_t state_records;	/* records in the journal */
	uint64_t state_cnt_epoch;	/* dataplane_counter_epoch() at the base */
};

#define NFLOG_GROUPS	65536

static inline uint8_t genmask_cur(const struct net *net)
{
	return 1u << net->gencursor;
}

static inline uint8_t genmask_next(const struct net *net)
{
	return 1u << (net->gencursor ^ 1u);
}

/* active - is an object with @genmask active in the generation of @mask? */
static inline bool active(uint8_t genmask, uint8_t mask)
{
	return !(genmask & mask);
}

#endif /* NFBPF_RULESET_H */
