/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * object.h - stateful objects (NFT_MSG_*OBJ): the model of one named
 * counter, quota, limit, ct helper, ct timeout, ct expectation or synproxy.
 *
 * An object is identified by (table, name, type): two objects of different
 * types may share a name, as in the kernel's nft_obj_lookup(). Its type is
 * the kernel's object type number (NFT_OBJECT_*), which is also what
 * NFTA_OBJ_TYPE, NFTA_SET_OBJ_TYPE and NFTA_OBJREF_IMM_TYPE carry.
 */
#ifndef NFBPF_OBJECT_H
#define NFBPF_OBJECT_H

#include <stdint.h>
#include "nfbpf/list.h"
#include "ruleset.h"

/* object types: the kernel's NFT_OBJECT_* numbers, for the layers that
 * do not include its headers */
#define OBJ_TYPE_COUNTER	1
#define OBJ_TYPE_QUOTA		2
#define OBJ_TYPE_CT_HELPER	3
#define OBJ_TYPE_LIMIT		4
#define OBJ_TYPE_CONNLIMIT	5
#define OBJ_TYPE_TUNNEL		6
#define OBJ_TYPE_CT_TIMEOUT	7
#define OBJ_TYPE_SECMARK	8
#define OBJ_TYPE_CT_EXPECT	9
#define OBJ_TYPE_SYNPROXY	10

#define OBJ_LIMIT_PKT_BYTES	1	/* NFT_LIMIT_PKT_BYTES */
#define OBJ_LIMIT_F_INV		1	/* NFT_LIMIT_F_INV */
#define OBJ_QUOTA_F_INV		1	/* NFT_QUOTA_F_INV */

#define OBJ_CT_HELPER_NAMELEN	16	/* NF_CT_HELPER_NAME_LEN */
#define OBJ_CT_TIMEOUT_MAX	11	/* CTA_TIMEOUT_TCP_MAX: most states */

/** struct obj_counter - initial packets and bytes (NFTA_COUNTER_*) */
struct obj_counter {
	uint64_t packets;
	uint64_t bytes;
};

/**
 * struct obj_quota - NFTA_QUOTA_*
 * @quota: bytes
 * @consumed: bytes already used
 * @flags: NFT_QUOTA_F_INV
 */
struct obj_quota {
	uint64_t quota;
	uint64_t consumed;
	uint32_t flags;
};

/**
 * struct obj_limit - NFTA_LIMIT_*
 * @rate: tokens per @unit
 * @unit: seconds
 * @burst: extra tokens (packet limits: 5 when 0 was given)
 * @type: NFT_LIMIT_PKTS or NFT_LIMIT_PKT_BYTES
 * @flags: NFT_LIMIT_F_INV
 */
struct obj_limit {
	uint64_t rate;
	uint64_t unit;
	uint32_t burst;
	uint32_t type;
	uint32_t flags;
};

/**
 * struct obj_ct_helper - a conntrack helper assignment
 * @name: helper name as the kernel registered it
 * @l3proto: NFPROTO_IPV4, NFPROTO_IPV6 or NFPROTO_INET (helpers found)
 * @l4proto: IPPROTO_*
 */
struct obj_ct_helper {
	char name[OBJ_CT_HELPER_NAMELEN];
	uint16_t l3proto;
	uint8_t l4proto;
};

/**
 * struct obj_ct_timeout - a conntrack timeout policy
 * @l3proto: NFPROTO_* (not validated, as the kernel)
 * @l4proto: IPPROTO_* with a timeout policy
 * @n: number of states of @l4proto
 * @timeouts: per state, in seconds as the kernel reports them
 */
struct obj_ct_timeout {
	uint16_t l3proto;
	uint8_t l4proto;
	uint32_t n;
	uint32_t timeouts[OBJ_CT_TIMEOUT_MAX];
};

/**
 * struct obj_ct_expect - a conntrack expectation template
 * @l3proto: NFPROTO_IPV4 or NFPROTO_IPV6
 * @l4proto: IPPROTO_*
 * @dport: destination port, network order
 * @timeout: ms (host order on the wire, as the kernel)
 * @size: maximum expectations
 */
struct obj_ct_expect {
	uint16_t l3proto;
	uint8_t l4proto;
	uint16_t dport;
	uint32_t timeout;
	uint8_t size;
};

/**
 * struct obj_synproxy - NFTA_SYNPROXY_*
 * @mss: maximum segment size
 * @wscale: window scale
 * @flags: NF_SYNPROXY_OPT_*
 */
struct obj_synproxy {
	uint16_t mss;
	uint8_t wscale;
	uint32_t flags;
};

/** union obj_data - what each object type keeps */
union obj_data {
	struct obj_counter counter;
	struct obj_quota quota;
	struct obj_limit limit;
	struct obj_ct_helper ct_helper;
	struct obj_ct_timeout ct_timeout;
	struct obj_ct_expect ct_expect;
	struct obj_synproxy synproxy;
};

/**
 * struct object - a named stateful object
 * @list: in table->objects, in creation order
 * @hnext: next in its table->obj_hash chain
 * @table: owning table
 * @name: owned
 * @type: NFT_OBJECT_*
 * @handle: from the table's handle counter
 * @genmask: see include/ruleset.h
 * @use: references: objref expressions and object map elements
 * @udata: NFTA_OBJ_USERDATA, byte for byte
 * @data: the type's state; counters and quotas with a dataplane slot
 *	  keep their first values here, the live ones are in the dataplane
 * @dp_id: the dataplane's record of it (counter, quota, limit), assigned
 *	   at commit; valid only while the dataplane says so
 * @dp_slot: its dataplane slots, assigned at commit (0 = none yet):
 *	     counter: [0] its counter slot; quota: [0] the consumed bytes,
 *	     [1] the quota and its invert flag; limit: [0] the bucket
 */
struct object {
	struct list_head list;
	struct object *hnext;
	struct table *table;
	char *name;
	uint32_t type;
	uint64_t handle;
	uint8_t genmask;
	uint32_t use;
	struct userdata udata;
	union obj_data data;
	uint32_t dp_id;
	uint32_t dp_slot[2];
};

#endif /* NFBPF_OBJECT_H */
