/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trans.h - the transaction list of one batch, as nf_tables' commit_list.
 */
#ifndef NFBPF_TRANS_H
#define NFBPF_TRANS_H

#include <stdint.h>
#include <stdbool.h>
#include "ruleset.h"
#include "object.h"

/** enum trans_op - what a transaction record does */
enum trans_op {
	TRANS_NEWTABLE,
	TRANS_DELTABLE,
	TRANS_NEWCHAIN,
	TRANS_DELCHAIN,
	TRANS_NEWRULE,
	TRANS_DELRULE,
	TRANS_NEWSET,
	TRANS_DELSET,
	TRANS_NEWSETELEM,
	TRANS_DELSETELEM,
	TRANS_NEWOBJ,
	TRANS_DELOBJ,
};

/**
 * struct trans - one change of a batch
 * @list: in tx->records
 * @op: enum trans_op
 * @family: nfgen_family of the message
 * @portid: sender port id
 * @seq: message sequence number
 * @nlflags: message NLM_F_* flags (for notifications)
 * @report: NLM_F_ECHO was set
 * @table: table concerned (all ops)
 * @chain: chain (chain and rule ops)
 * @rule: rule (rule ops)
 * @set: set (set and element ops)
 * @elem: element (element ops)
 * @obj: object (object ops)
 * @obj_upd: NEWOBJ update: the object's data once committed (owned)
 * @id: NFTA_{CHAIN,RULE,SET}_ID of a new object, 0 if none
 * @update: NEWTABLE/NEWCHAIN updating an existing object
 * @upd_flags: new table flags
 * @upd_policy: new chain policy (-1 = unchanged)
 * @upd_name: new chain name (owned; NULL = unchanged)
 * @binding: DELCHAIN of a bound chain, following its rule's DELRULE: no
 *	     event (the kernel sends none), its rules go with it
 * @upd_devs: netdev base chain update: the chain's devices with those the
 *	      update adds (NEWCHAIN) or without those it deletes (DELCHAIN
 *	      with @update: the chain stays) (owned array of owned names;
 *	      NULL = unchanged); swapped with the chain's while the batch
 *	      commits
 * @upd_ndevs: count
 * @upd_has_devs: @upd_devs/@upd_ndevs are set
 */
struct trans {
	struct list_head list;
	enum trans_op op;
	uint8_t family;
	uint32_t portid;
	uint32_t seq;
	uint16_t nlflags;
	bool report;
	struct table *table;
	struct chain *chain;
	struct rule *rule;
	struct set *set;
	struct set_elem *elem;
	struct object *obj;
	union obj_data *obj_upd;
	uint32_t id;
	bool update;
	uint32_t upd_flags;
	int64_t upd_policy;
	uint64_t upd_timeout;	/* set element update: new timeout, jiffies */
	uint64_t upd_expires;	/* ... and when it expires */
	char *upd_name;
	bool binding;
	char **upd_devs;
	uint32_t upd_ndevs;
	bool upd_has_devs;
};

/**
 * struct tx - a batch in progress on one namespace
 * @net: the namespace
 * @records: struct trans list in batch order
 * @pid: process id of the sender (for NEWGEN events)
 * @comm: its name
 * @portid: sender port id
 * @seq: sequence number of the batch begin message
 * @validate_errs: messages refused by jump validation (see nfnl/core.c)
 */
struct tx {
	struct net *net;
	struct list_head records;
	uint32_t pid;
	char comm[16];
	uint32_t portid;
	uint32_t seq;
	uint32_t validate_errs;
};

#endif /* NFBPF_TRANS_H */
