/* SPDX-License-Identifier: GPL-2.0-only */
/* nfnl_obj.h - netlink side of stateful object types (nfnl/obj/X.c). */
#ifndef NFBPF_NFNL_OBJ_H
#define NFBPF_NFNL_OBJ_H

#include "nfnl.h"
#include "object.h"

/**
 * struct nfnl_obj_ctx - what an object parser may look at
 * @family: nfgen_family of the message (the table's family)
 * @ext: extended ack
 */
struct nfnl_obj_ctx {
	uint8_t family;
	struct extack *ext;
};

/**
 * struct nfnl_obj_ops - netlink operations of one object type
 * @type: NFT_OBJECT_*
 * @name: for messages
 * @maxattr: highest attribute of NFTA_OBJ_DATA
 * @policy: maxattr + 1 entries
 * @parse: validate @tb (policy-checked) into @d as the kernel's
 *	   ->select_ops() + ->init(); 0 or the kernel's -errno
 * @dump: append the attributes of NFTA_OBJ_DATA, as the kernel's ->dump()
 * @live: optional: @d (a copy of @obj's data) as the dataplane has it
 *	  now (counts, consumed bytes), for dumps
 * @reset: what a dump with reset does after showing @shown (what @live
 *	   gave): zero it, in the model and the dataplane (NULL: nothing)
 * @update: the kernel's ->update(): merge @nd into @d; NULL when the
 *	    kernel has none, and then NEWOBJ on an existing object is a no-op
 */
struct nfnl_obj_ops {
	uint32_t type;
	const char *name;
	int maxattr;
	const struct attr_policy *policy;
	int (*parse)(const struct nfnl_obj_ctx *ctx, union obj_data *d,
		     const struct nlattr **tb);
	void (*dump)(struct nfnl_buf *b, const union obj_data *d);
	void (*live)(struct net *net, const struct object *obj,
		     union obj_data *d);
	void (*reset)(struct net *net, struct object *obj,
		      const union obj_data *shown);
	void (*update)(union obj_data *d, const union obj_data *nd);
};

extern const struct nfnl_obj_ops nfnl_obj_counter, nfnl_obj_quota,
	nfnl_obj_limit, nfnl_obj_ct_helper, nfnl_obj_ct_timeout,
	nfnl_obj_ct_expect, nfnl_obj_synproxy, nfnl_obj_secmark;

/**
 * nfnl_obj_ct_netns_get - nf_ct_netns_get(): conntrack exists for the ip,
 * ip6 and inet families only here (no bridge conntrack).
 * Return: 0 or -EPROTO.
 */
int nfnl_obj_ct_netns_get(uint8_t family);

/** nfnl_nest_start_flag - nla_nest_start(): with NLA_F_NESTED set. */
size_t nfnl_nest_start_flag(struct nfnl_buf *b, uint16_t type);

#endif
