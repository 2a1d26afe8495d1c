// SPDX-License-Identifier: GPL-2.0-only
/*
 * chain.c - NEW/GET/DEL/DESTROY CHAIN, as nf_tables_api.c answers them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netfilter.h>

#include "handlers.h"
#include "nfnl_compat.h"
#include "dataplane.h"

#define CHAIN_FLAGS	(NFT_CHAIN_BASE | NFT_CHAIN_HW_OFFLOAD | 0x4 /* BINDING */)
#define MAX_HOOKS	(NF_INET_INGRESS + 1)
#define IFNAMSIZ_	16

const struct attr_policy nfnl_chain_policy[NFTA_CHAIN_MAX_K + 1] = {
	[NFTA_CHAIN_TABLE] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_CHAIN_HANDLE] = { .kind = ATTR_U64 },
	[NFTA_CHAIN_NAME] = { .kind = ATTR_STRING, .len = NAME_MAXLEN - 1 },
	[NFTA_CHAIN_HOOK] = { .kind = ATTR_NESTED },
	[NFTA_CHAIN_POLICY] = { .kind = ATTR_U32 },
	[NFTA_CHAIN_TYPE] = { .kind = ATTR_STRING, .len = 15 },
	[NFTA_CHAIN_COUNTERS] = { .kind = ATTR_NESTED },
	[NFTA_CHAIN_FLAGS] = { .kind = ATTR_U32 },
	[NFTA_CHAIN_ID] = { .kind = ATTR_U32 },
	[NFTA_CHAIN_USERDATA] = { .kind = ATTR_BINARY, .len = USERDATA_MAXLEN },
};

static const struct attr_policy hook_policy[NFTA_HOOK_MAX + 1] = {
	[NFTA_HOOK_HOOKNUM] = { .kind = ATTR_U32 },
	[NFTA_HOOK_PRIORITY] = { .kind = ATTR_U32 },
	[NFTA_HOOK_DEV] = { .kind = ATTR_STRING, .len = IFNAMSIZ_ - 1 },
	[NFTA_HOOK_DEVS] = { .kind = ATTR_NESTED },
};

static const struct attr_policy counter_policy[NFTA_COUNTER_MAX + 1] = {
	[NFTA_COUNTER_PACKETS] = { .kind = ATTR_U64 },
	[NFTA_COUNTER_BYTES] = { .kind = ATTR_U64 },
};

/**
 * struct chain_type - a chain type of one family: name and allowed hooks
 */
struct chain_type {
	uint8_t family;
	const char *name;
	uint32_t hook_mask;
	bool is_nat;
};

#define H(x)	(1u << (x))
#define INET_HOOKS (H(NF_INET_LOCAL_IN) | H(NF_INET_LOCAL_OUT) | H(NF_INET_FORWARD) | \
		    H(NF_INET_PRE_ROUTING) | H(NF_INET_POST_ROUTING))
#define NAT_HOOKS (H(NF_INET_PRE_ROUTING) | H(NF_INET_LOCAL_IN) | \
		   H(NF_INET_LOCAL_OUT) | H(NF_INET_POST_ROUTING))

/* the first entry of a family is its default type (NFT_CHAIN_T_DEFAULT) */
static const struct chain_type chain_types[] = {
	{ NFPROTO_IPV4, "filter", INET_HOOKS, false },
	{ NFPROTO_IPV4, "nat", NAT_HOOKS, true },
	{ NFPROTO_IPV4, "route", H(NF_INET_LOCAL_OUT), false },
	{ NFPROTO_IPV6, "filter", INET_HOOKS, false },
	{ NFPROTO_IPV6, "nat", NAT_HOOKS, true },
	{ NFPROTO_IPV6, "route", H(NF_INET_LOCAL_OUT), false },
	{ NFPROTO_INET, "filter", INET_HOOKS | H(NF_INET_INGRESS), false },
	{ NFPROTO_INET, "nat", NAT_HOOKS, true },
	{ NFPROTO_INET, "route", H(NF_INET_LOCAL_OUT), false },
	{ NFPROTO_ARP, "filter", H(0) | H(1), false },	/* NF_ARP_IN, NF_ARP_OUT */
	{ NFPROTO_BRIDGE, "filter", INET_HOOKS, false },
	{ NFPROTO_NETDEV, "filter", H(0) | H(1), false }, /* INGRESS, EGRESS */
};

static const struct chain_type *type_lookup(uint8_t family, const struct nlattr *name)
{
	size_t i;

	for (i = 0; i < sizeof(chain_types) / sizeof(chain_types[0]); i++) {
		if (chain_types[i].family != family)
			continue;
		if (!name || !nfnl_attr_strcmp(name, chain_types[i].name))
			return &chain_types[i];
	}
	return NULL;
}

static bool is_netdev_hook(uint8_t family, uint32_t hooknum)
{
	return family == NFPROTO_NETDEV ||
	       (family == NFPROTO_INET && hooknum == NF_INET_INGRESS);
}

static void dump_hook(struct nfnl_buf *b, const struct table *t,
		      const struct basechain *bc)
{
	size_t nest = nfnl_nest_start(b, NFTA_CHAIN_HOOK), devs;
	uint32_t i;

	nfnl_put_be32(b, NFTA_HOOK_HOOKNUM, bc->hooknum);
	nfnl_put_be32(b, NFTA_HOOK_PRIORITY, (uint32_t)bc->priority);
	if (is_netdev_hook(t->family, bc->hooknum)) {
		devs = nfnl_nest_start(b, NFTA_HOOK_DEVS);
		for (i = 0; i < bc->ndevs; i++)
			nfnl_put_str(b, NFTA_DEVICE_NAME, bc->devs[i]);
		nfnl_nest_end(b, devs);
		if (bc->ndevs == 1)
			nfnl_put_str(b, NFTA_HOOK_DEV, bc->devs[0]);
	}
	nfnl_nest_end(b, nest);
}

void nfnl_chain_fill(struct nfnl_buf *b, struct net *net, uint32_t portid,
		     uint32_t seq, int event, uint16_t flags,
		     const struct chain *c)
{
	bool hooks = event & NFNL_EV_HOOKS;
	size_t off;

	event &= ~NFNL_EV_HOOKS;
	off = nfnl_msg_start(b, (NFNL_SUBSYS_NFTABLES << 8) | event, flags,
			     seq, portid, c->table->family, nft_res_id(net));

	nfnl_put_str(b, NFTA_CHAIN_TABLE, c->table->name);
	nfnl_put_str(b, NFTA_CHAIN_NAME, c->name);
	nfnl_put_be64(b, NFTA_CHAIN_HANDLE, c->handle);
	if (event == NFT_MSG_DELCHAIN && !hooks) {
		/* nf_tables_fill_chain_info(): a deleted chain is named only */
		nfnl_msg_end(b, off);
		return;
	}
	if (c->base) {
		dump_hook(b, c->table, c->base);
		nfnl_put_be32(b, NFTA_CHAIN_POLICY, c->base->policy);
		nfnl_put_str(b, NFTA_CHAIN_TYPE, c->base->type);
		if (c->base->has_stats) {
			size_t nest = nfnl_nest_start(b, NFTA_CHAIN_COUNTERS);

			nfnl_put_be64(b, NFTA_COUNTER_BYTES, c->base->bytes);
			nfnl_put_be64(b, NFTA_COUNTER_PACKETS, c->base->packets);
			nfnl_nest_end(b, nest);
		}
	}
	if (c->flags)
		nfnl_put_be32(b, NFTA_CHAIN_FLAGS, c->flags);
	nfnl_put_be32(b, NFTA_CHAIN_USE, c->use);
	nfnl_put_udata(b, NFTA_CHAIN_USERDATA, &c->udata);
	nfnl_msg_end(b, off);
}

static int parse_devs(struct nfnl_ctx *ctx, const struct nlattr **ha,
		      struct basechain *bc)
{
	const struct nlattr *a;
	size_t left;

	if (ha[NFTA_HOOK_DEV]) {
		bc->devs = calloc(1, sizeof(char *));
		if (!bc->devs)
			return -ENOMEM;
		bc->devs[0] = nfnl_attr_strdup(ha[NFTA_HOOK_DEV]);
		if (!bc->devs[0])
			return -ENOMEM;
		bc->ndevs = 1;
		return 0;
	}
	if (!ha[NFTA_HOOK_DEVS])
		return 0;
	nfnl_attr_for_each_nested(a, ha[NFTA_HOOK_DEVS], left) {
		char **n;

		if ((a->nla_type & NLA_TYPE_MASK) != NFTA_DEVICE_NAME ||
		    a->nla_len - NLA_HDRLEN >= IFNAMSIZ_ + 1) {
			extack_set(ctx->ext, NULL, a);
			return -EINVAL;
		}
		if (bc->ndevs >= 256)
			return -EFBIG;
		n = realloc(bc->devs, sizeof(char *) * (bc->ndevs + 1));
		if (!n)
			return -ENOMEM;
		bc->devs = n;
		bc->devs[bc->ndevs] = nfnl_attr_strdup(a);
		if (!bc->devs[bc->ndevs])
			return -ENOMEM;
		bc->ndevs++;
	}
	return 0;
}

/* parse_hook - nft_chain_parse_hook() for a new base chain */
static int parse_hook(struct nfnl_ctx *ctx, const struct nlattr **cda,
		      struct basechain *bc)
{
	const struct nlattr *ha[NFTA_HOOK_MAX + 1];
	const struct chain_type *type;
	int err;

	err = nfnl_attr_parse_nested(cda[NFTA_CHAIN_HOOK], NFTA_HOOK_MAX,
				     hook_policy, ha, ctx->ext);
	if (err)
		return err;
	if (!ha[NFTA_HOOK_HOOKNUM] || !ha[NFTA_HOOK_PRIORITY]) {
		extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_HOOK]);
		return -EINVAL;
	}
	bc->hooknum = nfnl_attr_be32(ha[NFTA_HOOK_HOOKNUM]);
	bc->priority = (int32_t)nfnl_attr_be32(ha[NFTA_HOOK_PRIORITY]);
	type = type_lookup(ctx->family, NULL);
	if (!type)
		return -EOPNOTSUPP;
	if (cda[NFTA_CHAIN_TYPE]) {
		type = type_lookup(ctx->family, cda[NFTA_CHAIN_TYPE]);
		if (!type) {
			extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_TYPE]);
			return -ENOENT;
		}
	}
	if (bc->hooknum >= MAX_HOOKS || !(type->hook_mask & H(bc->hooknum)))
		return -EOPNOTSUPP;
	if (type->is_nat && bc->priority <= -200 /* NF_IP_PRI_CONNTRACK */)
		return -EOPNOTSUPP;
	strcpy(bc->type, type->name);
	if (is_netdev_hook(ctx->family, bc->hooknum)) {
		err = parse_devs(ctx, ha, bc);
		if (err)
			return err;
		if (!bc->ndevs && ctx->family == NFPROTO_NETDEV) {
			/* kernel >= 6.10 accepts netdev chains without devices */
		}
	} else if (ha[NFTA_HOOK_DEV] || ha[NFTA_HOOK_DEVS]) {
		return -EOPNOTSUPP;
	}
	return 0;
}

static int parse_counters(struct nfnl_ctx *ctx, const struct nlattr *attr,
			  struct basechain *bc)
{
	const struct nlattr *tb[NFTA_COUNTER_MAX + 1];
	int err;

	err = nfnl_attr_parse_nested(attr, NFTA_COUNTER_MAX, counter_policy, tb,
				     ctx->ext);
	if (err)
		return err;
	if (!tb[NFTA_COUNTER_PACKETS] || !tb[NFTA_COUNTER_BYTES])
		return -EINVAL;
	bc->has_stats = true;
	bc->packets = nfnl_attr_be64(tb[NFTA_COUNTER_PACKETS]);
	bc->bytes = nfnl_attr_be64(tb[NFTA_COUNTER_BYTES]);
	return 0;
}

/*
 * does the batch so far wake or put @t to sleep (the kernel's
 * __NFT_TABLE_F_UPDATE)? nf_tables_addchain() then refuses base chains
 */
static bool table_dormant_pending(struct nfnl_ctx *ctx, const struct table *t)
{
	const struct trans *tr;

	list_for_each_entry(tr, &ctx->tx->records, list)
		if (tr->op == TRANS_NEWTABLE && tr->update && tr->table == t &&
		    ((tr->upd_flags ^ t->flags) & NFT_TABLE_F_DORMANT))
			return true;
	return false;
}

static int addchain(struct nfnl_ctx *ctx, struct table *t,
		    const struct nlattr **cda, uint32_t policy, uint32_t flags)
{
	struct basechain *bc = NULL;
	struct dp_error dperr = { 0 };
	struct chain *c;
	struct trans *tr;
	int err;

	if (cda[NFTA_CHAIN_HOOK]) {
		if (table_dormant_pending(ctx, t))
			return -EINVAL;
		if (flags & CHAIN_F_BINDING)
			return -EOPNOTSUPP;
		bc = calloc(1, sizeof(*bc));
		if (!bc)
			return -ENOMEM;
		bc->policy = NF_ACCEPT;
		err = parse_hook(ctx, cda, bc);
		if (err)
			goto out_free_bc;
		if (cda[NFTA_CHAIN_COUNTERS]) {
			err = parse_counters(ctx, cda[NFTA_CHAIN_COUNTERS], bc);
			if (err)
				goto out_free_bc;
		}
		bc->policy = policy;
		flags |= NFT_CHAIN_BASE;
	} else {
		if (flags & NFT_CHAIN_BASE)
			return -EINVAL;
		if (flags & NFT_CHAIN_HW_OFFLOAD)
			return -EOPNOTSUPP;
	}
	/* only a binding chain (nft's "jump { ... }") may come without a
	 * name: it gets the kernel's "__chain<N>", N counting every such
	 * chain since start, in every namespace */
	if (!cda[NFTA_CHAIN_NAME] && !(flags & CHAIN_F_BINDING)) {
		err = -EINVAL;
		goto out_free_bc;
	}
	c = ruleset_chain_alloc(t, "");
	if (!c) {
		err = -ENOMEM;
		goto out_free_bc;
	}
	free(c->name);
	if (cda[NFTA_CHAIN_NAME]) {
		c->name = nfnl_attr_strdup(cda[NFTA_CHAIN_NAME]);
	} else {
		static uint64_t binding_seq;
		char name[32];

		snprintf(name, sizeof(name), "__chain%llu",
			 (unsigned long long)++binding_seq);
		c->name = strdup(name);
	}
	c->base = bc;
	bc = NULL;
	c->flags = flags;
	if (!c->name) {
		err = -ENOMEM;
		goto out_free_chain;
	}
	if (cda[NFTA_CHAIN_USERDATA]) {
		err = nfnl_attr_udata(cda[NFTA_CHAIN_USERDATA], &c->udata);
		if (err)
			goto out_free_chain;
	}
	if (c->base) {
		err = dataplane_chain_check(t, c, &dperr);
		if (err)
			nfnl_refuse(ctx, err, dperr.msg, cda[NFTA_CHAIN_HOOK]);
	}
	tr = nfnl_tx_add(ctx, TRANS_NEWCHAIN);
	if (!tr) {
		err = -ENOMEM;
		goto out_free_chain;
	}
	c->handle = ++t->hgenerator;
	c->genmask = genmask_cur(ctx->net);
	tr->table = t;
	tr->chain = c;
	if (cda[NFTA_CHAIN_ID])
		tr->id = nfnl_attr_be32(cda[NFTA_CHAIN_ID]);
	t->use++;
	list_add_tail(&c->list, &t->chains);
	return 0;

out_free_chain:
	ruleset_chain_free(c);
	return err;
out_free_bc:
	if (bc) {
		uint32_t i;

		for (i = 0; i < bc->ndevs; i++)
			free(bc->devs[i]);
		free(bc->devs);
		free(bc);
	}
	return err;
}

static void free_devs(char **devs, uint32_t n)
{
	uint32_t i;

	for (i = 0; devs && i < n; i++)
		free(devs[i]);
	free(devs);
}

/*
 * upd_devs - a netdev base chain update adds the devices of its hook the
 * chain lacks (nf_tables_updchain()): *@out = the chain's devices, then
 * those (owned copies), or NULL if the update adds none
 */
static int upd_devs(struct nfnl_ctx *ctx, const struct nlattr **ha,
		    const struct basechain *bc, char ***out, uint32_t *nout)
{
	struct basechain add = { 0 };
	char **all = NULL;
	uint32_t i, j, n = 0;
	int err;

	*out = NULL;
	*nout = 0;
	err = parse_devs(ctx, ha, &add);
	if (err)
		goto out_free;
	all = calloc(bc->ndevs + add.ndevs + 1, sizeof(*all));
	if (!all) {
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < bc->ndevs; i++) {
		all[n] = strdup(bc->devs[i]);
		if (!all[n++]) {
			err = -ENOMEM;
			goto out_free;
		}
	}
	for (i = 0; i < add.ndevs; i++) {
		for (j = 0; j < n && strcmp(all[j], add.devs[i]); j++)
			;
		if (j < n)
			continue;
		all[n++] = add.devs[i];
		add.devs[i] = NULL;
	}
	if (n == bc->ndevs) {
		err = 0;	/* nothing new */
		goto out_free;
	}
	*out = all;
	*nout = n;
	free_devs(add.devs, add.ndevs);
	return 0;

out_free:
	free_devs(all, n);
	free_devs(add.devs, add.ndevs);
	return err;
}

static int updchain(struct nfnl_ctx *ctx, struct table *t, struct chain *c,
		    const struct nlattr **cda, int64_t policy, uint32_t flags,
		    const struct nlattr *attr)
{
	char **devs = NULL;
	uint32_t ndevs = 0;
	struct trans *tr;

	if (c->flags ^ flags)
		return -EOPNOTSUPP;
	if (cda[NFTA_CHAIN_HOOK]) {
		const struct nlattr *ha[NFTA_HOOK_MAX + 1];
		int err;

		if (!c->base) {
			extack_set(ctx->ext, NULL, attr);
			return -EEXIST;
		}
		err = nfnl_attr_parse_nested(cda[NFTA_CHAIN_HOOK], NFTA_HOOK_MAX,
					     hook_policy, ha, ctx->ext);
		if (err)
			return err;
		if (ha[NFTA_HOOK_HOOKNUM] &&
		    nfnl_attr_be32(ha[NFTA_HOOK_HOOKNUM]) != c->base->hooknum) {
			extack_set(ctx->ext, "Hook mismatch", cda[NFTA_CHAIN_HOOK]);
			return -EOPNOTSUPP;
		}
		if (ha[NFTA_HOOK_PRIORITY] &&
		    (int32_t)nfnl_attr_be32(ha[NFTA_HOOK_PRIORITY]) != c->base->priority) {
			extack_set(ctx->ext, "Hook mismatch", cda[NFTA_CHAIN_HOOK]);
			return -EOPNOTSUPP;
		}
		/* nf_tables_updchain(): another type is EEXIST on the name */
		if (cda[NFTA_CHAIN_TYPE] &&
		    nfnl_attr_strcmp(cda[NFTA_CHAIN_TYPE], c->base->type)) {
			if (!type_lookup(ctx->family, cda[NFTA_CHAIN_TYPE]))
				return -ENOENT;
			extack_set(ctx->ext, NULL, attr);
			return -EEXIST;
		}
		if (is_netdev_hook(t->family, c->base->hooknum)) {
			err = upd_devs(ctx, ha, c->base, &devs, &ndevs);
			if (err)
				return err;
		}
	}
	tr = nfnl_tx_add(ctx, TRANS_NEWCHAIN);
	if (!tr) {
		free_devs(devs, ndevs);
		return -ENOMEM;
	}
	tr->table = t;
	tr->chain = c;
	tr->update = true;
	tr->upd_policy = policy;
	if (devs) {
		tr->upd_devs = devs;
		tr->upd_ndevs = ndevs;
		tr->upd_has_devs = true;
	}
	/* a rename; the chain's own name counts as taken, as on the kernel */
	if (cda[NFTA_CHAIN_HANDLE] && cda[NFTA_CHAIN_NAME]) {
		char name[NAME_MAXLEN];
		struct trans *o;

		nfnl_attr_strlcpy(name, cda[NFTA_CHAIN_NAME], sizeof(name));
		if (ruleset_chain_lookup(t, name, genmask_next(ctx->net))) {
			extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_NAME]);
			goto out_eexist;
		}
		list_for_each_entry(o, &ctx->tx->records, list) {
			if (o->op == TRANS_NEWCHAIN && o->update && o->upd_name &&
			    o->chain->table == t && !strcmp(o->upd_name, name)) {
				extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_NAME]);
				goto out_eexist;
			}
		}
		tr->upd_name = strdup(name);
		if (!tr->upd_name)
			return -ENOMEM;	/* the record is freed with the batch */
	}
	return 0;

out_eexist:
	list_del(&tr->list);
	free_devs(tr->upd_devs, tr->upd_ndevs);
	free(tr);
	return -EEXIST;
}

int nfnl_newchain(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_next(ctx->net);
	const struct nlattr *attr = cda[NFTA_CHAIN_NAME];
	struct chain *c = NULL;
	struct table *t;
	int64_t policy = -1;
	uint32_t flags = 0;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_CHAIN_TABLE], mask, &t);
	if (err)
		return err;
	if (cda[NFTA_CHAIN_HANDLE]) {
		c = ruleset_chain_lookup_handle(t, nfnl_attr_be64(cda[NFTA_CHAIN_HANDLE]), mask);
		if (!c) {
			extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_HANDLE]);
			return -ENOENT;
		}
		attr = cda[NFTA_CHAIN_HANDLE];
	} else if (cda[NFTA_CHAIN_NAME]) {
		char name[NAME_MAXLEN];

		nfnl_attr_strlcpy(name, attr, sizeof(name));
		c = ruleset_chain_lookup(t, name, mask);
	} else if (!cda[NFTA_CHAIN_ID]) {
		return -EINVAL;
	}

	if (cda[NFTA_CHAIN_POLICY]) {
		if ((c && !c->base) || (!c && !cda[NFTA_CHAIN_HOOK])) {
			extack_set(ctx->ext, NULL, cda[NFTA_CHAIN_POLICY]);
			return -EOPNOTSUPP;
		}
		policy = nfnl_attr_be32(cda[NFTA_CHAIN_POLICY]);
		if (policy != NF_DROP && policy != NF_ACCEPT)
			return -EINVAL;
	}
	if (cda[NFTA_CHAIN_FLAGS])
		flags = nfnl_attr_be32(cda[NFTA_CHAIN_FLAGS]);
	else if (c)
		flags = c->flags;
	if (flags & ~CHAIN_FLAGS)
		return -EOPNOTSUPP;

	if (c) {
		if (c->flags & CHAIN_F_BINDING)
			return -EINVAL;
		if (ctx->nlh->nlmsg_flags & NLM_F_EXCL) {
			extack_set(ctx->ext, NULL, attr);
			return -EEXIST;
		}
		if (ctx->nlh->nlmsg_flags & NLM_F_REPLACE)
			return -EOPNOTSUPP;
		flags |= c->flags & NFT_CHAIN_BASE;
		return updchain(ctx, t, c, cda, policy, flags, attr);
	}
	return addchain(ctx, t, cda, policy < 0 ? NF_ACCEPT : (uint32_t)policy, flags);
}

int nfnl_chain_delete(struct nfnl_ctx *ctx, struct chain *c)
{
	struct trans *tr = nfnl_tx_add(ctx, TRANS_DELCHAIN);

	if (!tr)
		return -ENOMEM;
	tr->family = c->table->family;
	tr->table = c->table;
	tr->chain = c;
	c->genmask |= genmask_next(ctx->net);
	c->table->use--;
	return 0;
}

static int chain_find(struct nfnl_ctx *ctx, const struct nlattr **cda,
		      uint8_t mask, struct table **tp, struct chain **cp,
		      const struct nlattr **attrp)
{
	const struct nlattr *attr;
	char name[NAME_MAXLEN];
	struct chain *c;
	struct table *t;
	int err;

	err = nfnl_table_find(ctx, cda[NFTA_CHAIN_TABLE], mask, &t);
	if (err)
		return err;
	if (cda[NFTA_CHAIN_HANDLE] && mask == genmask_next(ctx->net)) {
		attr = cda[NFTA_CHAIN_HANDLE];
		c = ruleset_chain_lookup_handle(t, nfnl_attr_be64(attr), mask);
	} else {
		attr = cda[NFTA_CHAIN_NAME];
		if (!attr)
			return -EINVAL;
		nfnl_attr_strlcpy(name, attr, sizeof(name));
		c = ruleset_chain_lookup(t, name, mask);
	}
	*attrp = attr;
	*tp = t;
	*cp = c;
	if (!c) {
		extack_set(ctx->ext, NULL, attr);
		return -ENOENT;
	}
	return 0;
}

/*
 * delchain_hook - nft_delchain_hook(): delete some devices of a netdev
 * base chain; each must be one of the chain's (-ENOENT). The chain stays,
 * with no device if they were all deleted.
 */
static int delchain_hook(struct nfnl_ctx *ctx, struct table *t,
			 struct chain *c, const struct nlattr **cda)
{
	const struct nlattr *ha[NFTA_HOOK_MAX + 1];
	struct basechain del = { 0 };
	char **keep = NULL;
	uint32_t i, j, n = 0;
	struct trans *tr;
	int err;

	if (table_dormant_pending(ctx, t))
		return -EOPNOTSUPP;
	err = nfnl_attr_parse_nested(cda[NFTA_CHAIN_HOOK], NFTA_HOOK_MAX,
				     hook_policy, ha, ctx->ext);
	if (err)
		return err;
	/* nft_chain_parse_hook() against the existing chain */
	if ((ha[NFTA_HOOK_HOOKNUM] &&
	     nfnl_attr_be32(ha[NFTA_HOOK_HOOKNUM]) != c->base->hooknum) ||
	    (ha[NFTA_HOOK_PRIORITY] &&
	     (int32_t)nfnl_attr_be32(ha[NFTA_HOOK_PRIORITY]) != c->base->priority)) {
		extack_set(ctx->ext, "Hook mismatch", cda[NFTA_CHAIN_HOOK]);
		return -EOPNOTSUPP;
	}
	err = parse_devs(ctx, ha, &del);
	if (err)
		goto out_free;
	for (i = 0; i < del.ndevs; i++) {
		for (j = 0; j < c->base->ndevs && strcmp(c->base->devs[j], del.devs[i]); j++)
			;
		if (j == c->base->ndevs) {
			err = -ENOENT;
			goto out_free;
		}
	}
	keep = calloc(c->base->ndevs + 1, sizeof(*keep));
	if (!keep) {
		err = -ENOMEM;
		goto out_free;
	}
	for (j = 0; j < c->base->ndevs; j++) {
		for (i = 0; i < del.ndevs && strcmp(c->base->devs[j], del.devs[i]); i++)
			;
		if (i < del.ndevs)
			continue;
		keep[n] = strdup(c->base->devs[j]);
		if (!keep[n++]) {
			err = -ENOMEM;
			goto out_free;
		}
	}
	tr = nfnl_tx_add(ctx, TRANS_DELCHAIN);
	if (!tr) {
		err = -ENOMEM;
		goto out_free;
	}
	tr->family = t->family;
	tr->table = t;
	tr->chain = c;
	tr->update = true;
	tr->upd_devs = keep;
	tr->upd_ndevs = n;
	tr->upd_has_devs = true;
	free_devs(del.devs, del.ndevs);
	return 0;

out_free:
	free_devs(keep, n);
	free_devs(del.devs, del.ndevs);
	return err;
}

int nfnl_delchain(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	bool destroy = NFNL_MSG_TYPE(ctx->nlh->nlmsg_type) == NFT_MSG_DESTROYCHAIN;
	uint8_t mask = genmask_next(ctx->net);
	const struct nlattr *attr = NULL;
	struct table *t;
	struct chain *c;
	struct rule *r;
	uint32_t use;
	int err;

	err = chain_find(ctx, cda, mask, &t, &c, &attr);
	if (err) {
		if (err == -ENOENT && c == NULL && t && destroy)
			return 0;
		return err;
	}
	if (c->flags & CHAIN_F_BINDING)
		return -EOPNOTSUPP;
	if (cda[NFTA_CHAIN_HOOK]) {
		if (destroy || (c->flags & NFT_CHAIN_HW_OFFLOAD))
			return -EOPNOTSUPP;
		/* only a netdev-style hook has devices to delete
		 * (nft_base_chain_netdev); any other base chain is deleted
		 * whole, the hook attribute ignored (iptables-nft -X) */
		if (c->base && is_netdev_hook(t->family, c->base->hooknum))
			return delchain_hook(ctx, t, c, cda);
	}
	if ((ctx->nlh->nlmsg_flags & NLM_F_NONREC) && c->use > 0)
		return -EBUSY;
	use = c->use;
	list_for_each_entry(r, &c->rules, list) {
		if (!active(r->genmask, mask))
			continue;
		use--;
		err = nfnl_rule_delete(ctx, r);
		if (err)
			return err;
	}
	if (use > 0) {
		extack_set(ctx->ext, NULL, attr);
		return -EBUSY;
	}
	return nfnl_chain_delete(ctx, c);
}

int nfnl_getchain(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	const struct nlattr *attr;
	struct table *t;
	struct chain *c;
	int err;

	err = chain_find(ctx, cda, genmask_cur(ctx->net), &t, &c, &attr);
	if (err)
		return err;
	nfnl_chain_fill(&ctx->cl->out.buf, ctx->net, ctx->cl->portid,
			ctx->nlh->nlmsg_seq, NFT_MSG_NEWCHAIN, 0, c);
	return nfnl_reply_end(ctx);
}

int nfnl_dumpchains(struct nfnl_ctx *ctx, const struct nlattr **cda)
{
	uint8_t mask = genmask_cur(ctx->net);
	struct table *t;
	struct chain *c;

	(void)cda;
	list_for_each_entry(t, &ctx->net->tables, list) {
		if (!nfnl_family_match(ctx->family, t->family))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			size_t off = ctx->cl->out.buf.len;

			if (!active(c->genmask, mask))
				continue;
			nfnl_chain_fill(&ctx->cl->out.buf, ctx->net,
					ctx->cl->portid, ctx->nlh->nlmsg_seq,
					NFT_MSG_NEWCHAIN, NLM_F_MULTI, c);
			nfnl_dump_added(ctx, off);
		}
	}
	return 0;
}
