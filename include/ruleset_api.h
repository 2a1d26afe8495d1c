/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ruleset_api.h - operations on the model: lookups, object lifetime,
 * transactions. Implemented in ruleset/.
 */
#ifndef NFBPF_RULESET_API_H
#define NFBPF_RULESET_API_H

#include "ruleset.h"
#include "object.h"
#include "trans.h"

/** ruleset_net_alloc - new empty namespace state; NULL on ENOMEM. */
struct net *ruleset_net_alloc(void);
/** ruleset_net_free - free @net and every object in it (NULL: no-op). */
void ruleset_net_free(struct net *net);

/* Lookups: @mask is genmask_cur() or genmask_next(); NULL if absent. */
struct table *ruleset_table_lookup(struct net *net, const char *name,
				   uint8_t family, uint8_t mask);
struct table *ruleset_table_lookup_handle(struct net *net, uint64_t handle,
					  uint8_t family, uint8_t mask);
struct chain *ruleset_chain_lookup(struct table *t, const char *name,
				   uint8_t mask);
struct chain *ruleset_chain_lookup_handle(struct table *t, uint64_t handle,
					  uint8_t mask);
struct rule *ruleset_rule_lookup_handle(struct chain *c, uint64_t handle,
					uint8_t mask);
struct set *ruleset_set_lookup(struct table *t, const char *name, uint8_t mask);
struct set *ruleset_set_lookup_handle(struct table *t, uint64_t handle,
				      uint8_t mask);
/* objects: by (name, type) as nft_obj_lookup(), by (handle, type) */
struct object *ruleset_obj_lookup(struct table *t, const char *name,
				  uint32_t type, uint8_t mask);
struct object *ruleset_obj_lookup_handle(struct table *t, uint64_t handle,
					 uint32_t type, uint8_t mask);

/** ruleset_table_alloc - owned table, not linked; NULL on ENOMEM. */
struct table *ruleset_table_alloc(struct net *net, const char *name,
				  uint8_t family);
void ruleset_table_free(struct table *t);
/** ruleset_chain_alloc - owned chain of @t, not linked; NULL on ENOMEM. */
struct chain *ruleset_chain_alloc(struct table *t, const char *name);
void ruleset_chain_free(struct chain *c);
/**
 * ruleset_rule_alloc - rule with room for @dlen bytes of expressions
 * Return: owned rule, not linked; NULL on ENOMEM.
 */
struct rule *ruleset_rule_alloc(struct chain *c, uint32_t dlen);
/** ruleset_rule_uid - a rule uid never handed out before (never 0) */
uint64_t ruleset_rule_uid(void);
/**
 * ruleset_reg_seq - the next hook registration sequence number (never 0):
 * base chains register their hooks in this order (struct chain @reg_seq)
 */
uint64_t ruleset_reg_seq(void);
/** ruleset_reg_seq_last - the last one handed out (0: none yet) */
uint64_t ruleset_reg_seq_last(void);
/**
 * ruleset_rule_free - free; references must have been dropped already
 * (ruleset_rule_deactivate()), as only the caller knows whether they are held.
 */
void ruleset_rule_free(struct rule *r);
/** ruleset_rule_activate - take the references the expressions hold. */
void ruleset_rule_activate(struct rule *r);
/** ruleset_rule_deactivate - drop them (rule deleted in the batch). */
void ruleset_rule_deactivate(struct rule *r);
struct set *ruleset_set_alloc(struct table *t, const char *name);
void ruleset_set_free(struct set *s);
/**
 * ruleset_msecs_to_jiffies - nf_msecs_to_jiffies64(): @ms as the kernel
 * stores a timeout (at least one jiffy for a non-zero @ms).
 * Return: 0, -ERANGE (too large), -EOPNOTSUPP (kernel clock unknown).
 */
int ruleset_msecs_to_jiffies(uint64_t ms, uint64_t *j);
/** ruleset_jiffies_to_msecs - jiffies64_to_msecs() */
uint64_t ruleset_jiffies_to_msecs(uint64_t j);
/**
 * ruleset_jiffies_now - the kernel's jiffies (read at most once per
 * millisecond). Return: 0 or -errno.
 */
int ruleset_jiffies_now(uint64_t *now);
/** ruleset_elem_expired - has @e's timeout run out at @now? */
static inline bool ruleset_elem_expired(const struct set_elem *e, uint64_t now)
{
	return e->expires && now >= e->expires;
}

/**
 * ruleset_set_elem_link - append @e to @s's elements and its key index
 * (one hash chain per key: finding an element stays O(1) in big sets).
 * Return: 0 or -ENOMEM (then @e is not linked).
 */
int ruleset_set_elem_link(struct set *s, struct set_elem *e);
/** ruleset_set_elem_unlink - take @e out of @s's elements and index. */
void ruleset_set_elem_unlink(struct set *s, struct set_elem *e);
/**
 * ruleset_set_elem_chain - the first element whose key hashes as @key
 * (follow ->hnext; compare keys yourself), or NULL. Only elements linked
 * with ruleset_set_elem_link() are indexed.
 */
struct set_elem *ruleset_set_elem_chain(const struct set *s,
					const struct data_value *key);

/** ruleset_elem_free - free; a vmap jump reference must be dropped first. */
void ruleset_elem_free(struct set_elem *e);
/**
 * ruleset_set_objrefs_get - nft_map_activate(): take back the object and
 * jump/goto chain references of @s's elements active in generation @mask.
 */
void ruleset_set_objrefs_get(struct set *s, uint8_t mask);
/** ruleset_set_objrefs_put - nft_map_deactivate(): drop them. */
void ruleset_set_objrefs_put(struct set *s, uint8_t mask);
/**
 * ruleset_obj_alloc - owned object of @t, not linked
 * Return: the object, NULL on ENOMEM.
 */
struct object *ruleset_obj_alloc(struct table *t, const char *name,
				 uint32_t type);
/** ruleset_obj_free - free @obj (NULL: no-op); nothing may refer to it. */
void ruleset_obj_free(struct object *obj);
/**
 * ruleset_obj_link - add @obj to its table's list and name index
 * Return: 0, or -ENOMEM (then @obj is not linked).
 */
int ruleset_obj_link(struct object *obj);
/** ruleset_obj_unlink - take @obj out of its table's list and index. */
void ruleset_obj_unlink(struct object *obj);


/** ruleset_tx_init - start a batch on @net. */
void ruleset_tx_init(struct tx *tx, struct net *net);
/**
 * ruleset_tx_add - append a transaction record
 * Return: the record (zeroed but for @op), NULL on ENOMEM.
 */
struct trans *ruleset_tx_add(struct tx *tx, enum trans_op op);

/**
 * typedef ruleset_notify_fn - called for each record once committed
 * @tr: the record; its objects still exist (deleted ones are freed after)
 * @data: caller's cookie
 */
typedef void (*ruleset_notify_fn)(const struct trans *tr, void *data);

/**
 * ruleset_tx_commit - make the batch the current generation
 * @tx: the batch
 * @notify: called per record after the flip, in batch order
 * @data: cookie for @notify
 * @errmsg: out, static message on failure
 *
 * Runs the fallible steps first (loop validation, dataplane_prepare()),
 * aborting the batch on failure.
 *
 * Return: 0, or -errno with the batch aborted.
 */
int ruleset_tx_commit(struct tx *tx, ruleset_notify_fn notify, void *data,
		      const char **errmsg);
/** ruleset_tx_abort - undo every record in reverse order. */
void ruleset_tx_abort(struct tx *tx);

/** ruleset_tx_find_chain_id - chain created in this batch with @id. */
struct chain *ruleset_tx_find_chain_id(struct tx *tx, struct table *t, uint32_t id);
/** ruleset_tx_find_rule_id - rule created in this batch with @id. */
struct rule *ruleset_tx_find_rule_id(struct tx *tx, struct chain *c, uint32_t id);
/** ruleset_tx_find_set_id - set created in this batch with @id. */
struct set *ruleset_tx_find_set_id(struct tx *tx, struct table *t, uint32_t id);

/**
 * ruleset_chain_reaches - can a packet in @from reach @to by jump/goto,
 * following rules and verdict maps active in generation @mask?
 * @depth: out, longest jump chain found from @from to any chain
 */
bool ruleset_chain_reaches(const struct chain *from, const struct chain *to,
			   uint8_t mask);
/**
 * ruleset_chain_depth - deepest jump nesting below @c (0: no jumps), in
 * generation @mask; stops counting past @limit.
 */
unsigned int ruleset_chain_depth(const struct chain *c, uint8_t mask,
				 unsigned int limit);

/**
 * ruleset_each_expr - call @fn(@arg, e) for every expression of every rule
 * active in the generation of @mask (in an active chain of an active table)
 */
void ruleset_each_expr(struct net *net, uint8_t mask,
		       void (*fn)(void *arg, const struct expr *e), void *arg);

#endif /* NFBPF_RULESET_API_H */
