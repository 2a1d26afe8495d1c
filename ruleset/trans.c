// SPDX-License-Identifier: GPL-2.0-only
/*
 * trans.c - batches: transaction records, commit and abort, with the
 * nf_tables genmask scheme (see include/ruleset.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset_api.h"
#include "dataplane.h"

void ruleset_tx_init(struct tx *tx, struct net *net)
{
	memset(tx, 0, sizeof(*tx));
	tx->net = net;
	list_init(&tx->records);
}

struct trans *ruleset_tx_add(struct tx *tx, enum trans_op op)
{
	struct trans *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->op = op;
	tr->upd_policy = -1;
	list_add_tail(&tr->list, &tx->records);
	return tr;
}

struct chain *ruleset_tx_find_chain_id(struct tx *tx, struct table *t, uint32_t id)
{
	struct trans *tr;

	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWCHAIN && !tr->update && tr->id == id &&
		    tr->chain->table == t &&
		    active(tr->chain->genmask, genmask_next(tx->net)))
			return tr->chain;
	}
	return NULL;
}

struct rule *ruleset_tx_find_rule_id(struct tx *tx, struct chain *c, uint32_t id)
{
	struct trans *tr;

	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWRULE && tr->id == id && tr->rule->chain == c)
			return tr->rule;
	}
	return NULL;
}

struct set *ruleset_tx_find_set_id(struct tx *tx, struct table *t, uint32_t id)
{
	struct trans *tr;

	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWSET && tr->id == id && tr->set->table == t &&
		    active(tr->set->genmask, genmask_next(tx->net)))
			return tr->set;
	}
	return NULL;
}

/* unlink - take a deleted object out of its list, before freeing */
static void unlink_deleted(struct trans *tr)
{
	switch (tr->op) {
	case TRANS_DELTABLE:
		list_del(&tr->table->list);
		break;
	case TRANS_DELCHAIN:
		if (!tr->update)	/* else: devices deleted, not the chain */
			list_del(&tr->chain->list);
		break;
	case TRANS_DELRULE:
		list_del(&tr->rule->list);
		break;
	case TRANS_DELSET:
		list_del(&tr->set->list);
		break;
	case TRANS_DELSETELEM:
		ruleset_set_elem_unlink(tr->set, tr->elem);
		break;
	case TRANS_DELOBJ:
		ruleset_obj_unlink(tr->obj);
		break;
	default:
		break;
	}
}

static void free_deleted(struct trans *tr)
{
	switch (tr->op) {
	case TRANS_DELTABLE:
		ruleset_table_free(tr->table);
		break;
	case TRANS_DELCHAIN:
		if (tr->update)
			break;
		if (tr->binding) {
			struct rule *r, *rn;

			list_for_each_entry_safe(r, rn, &tr->chain->rules, list) {
				list_del(&r->list);
				ruleset_rule_free(r);
			}
		}
		ruleset_chain_free(tr->chain);
		break;
	case TRANS_DELRULE:
		ruleset_rule_free(tr->rule);
		break;
	case TRANS_DELSET:
		ruleset_set_free(tr->set);
		break;
	case TRANS_DELSETELEM:
		ruleset_elem_free(tr->elem);
		break;
	case TRANS_DELOBJ:
		ruleset_obj_free(tr->obj);
		break;
	default:
		break;
	}
}

static void apply(struct trans *tr)
{
	switch (tr->op) {
	case TRANS_NEWTABLE:
		if (!tr->update)
			tr->table->genmask = 0;
		break;
	case TRANS_NEWCHAIN:
		if (tr->update) {
			if (tr->upd_name) {
				free(tr->chain->name);
				tr->chain->name = tr->upd_name;
				tr->upd_name = NULL;
			}
		} else {
			tr->chain->genmask = 0;
		}
		break;
	case TRANS_NEWRULE:
		tr->rule->genmask = 0;
		break;
	case TRANS_NEWSET:
		tr->set->genmask = 0;
		break;
	case TRANS_NEWSETELEM:
		if (!tr->update)
			tr->elem->genmask = 0;
		break;
	case TRANS_NEWOBJ:
		/* nft_obj_commit_update(): the merged state, built at parse,
		 * is in place since swap_updates() */
		if (!tr->obj_upd)
			tr->obj->genmask = 0;
		break;
	default:
		break;
	}
}

/*
 * swap_updates - exchange the pending and the live values of updated
 * tables (flags), chains (policy), elements (timeouts) and objects. Called once before
 * dataplane_prepare(), which builds from the model and must see them, and
 * once more to put them back if the batch aborts after all.
 */
static void swap_updates(struct tx *tx)
{
	struct trans *tr;

	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWOBJ && tr->obj_upd) {
			union obj_data d = tr->obj->data;

			tr->obj->data = *tr->obj_upd;
			*tr->obj_upd = d;
			continue;
		}
		if (!tr->update)
			continue;
		if (tr->op == TRANS_NEWTABLE) {
			uint32_t f = tr->table->flags;

			tr->table->flags = tr->upd_flags;
			tr->upd_flags = f;
		} else if (tr->op == TRANS_NEWCHAIN && tr->upd_policy >= 0 &&
			   tr->chain->base) {
			int64_t p = tr->chain->base->policy;

			tr->chain->base->policy = tr->upd_policy;
			tr->upd_policy = p;
		}
		if ((tr->op == TRANS_NEWCHAIN || tr->op == TRANS_DELCHAIN) &&
		    tr->upd_has_devs && tr->chain->base) {
			char **d = tr->chain->base->devs;
			uint32_t n = tr->chain->base->ndevs;

			tr->chain->base->devs = tr->upd_devs;
			tr->chain->base->ndevs = tr->upd_ndevs;
			tr->upd_devs = d;
			tr->upd_ndevs = n;
		} else if (tr->op == TRANS_NEWSETELEM) {
			uint64_t t = tr->elem->timeout, x = tr->elem->expires;

			tr->elem->timeout = tr->upd_timeout;
			tr->elem->expires = tr->upd_expires;
			tr->upd_timeout = t;
			tr->upd_expires = x;
		}
	}
}

/* sweep_anonymous_sets - an anonymous set no rule is bound to is gone */
static void sweep_anonymous_sets(struct net *net)
{
	struct table *t;
	struct set *s, *sn;

	list_for_each_entry(t, &net->tables, list) {
		list_for_each_entry_safe(s, sn, &t->sets, list) {
			if (!(s->flags & NFT_SET_ANONYMOUS_) || s->use)
				continue;
			ruleset_set_objrefs_put(s, genmask_cur(net));
			list_del(&s->list);
			t->use--;
			ruleset_set_free(s);
		}
	}
}

static void tx_free_records(struct tx *tx)
{
	struct trans *tr, *tn;

	list_for_each_entry_safe(tr, tn, &tx->records, list) {
		list_del(&tr->list);
		free(tr->upd_name);
		if (tr->upd_devs) {
			uint32_t i;

			for (i = 0; i < tr->upd_ndevs; i++)
				free(tr->upd_devs[i]);
			free(tr->upd_devs);
		}
		free(tr->obj_upd);
		free(tr);
	}
}

/*
 * dataplane_prepare_delta() with the rules and set elements the batch adds
 * and deletes, so that a batch of such changes costs what it changes, not
 * the ruleset
 */
static int prepare(struct tx *tx, struct dp_error *dperr)
{
	struct dp_delta d = { 0 };
	struct trans *tr;
	uint32_t n = 0, ne = 0;
	int err;

	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWRULE || tr->op == TRANS_DELRULE)
			n++;
		else if (tr->op == TRANS_NEWSETELEM || tr->op == TRANS_DELSETELEM)
			ne++;
		else
			d.other = true;
	}
	if (n && !d.other) {
		d.rules = malloc(n * sizeof(*d.rules));
		if (!d.rules)
			d.other = true;	/* then a full prepare */
	}
	if (ne && !d.other) {
		d.elems = malloc(ne * sizeof(*d.elems));
		if (!d.elems)
			d.other = true;
	}
	if (!d.other)
		list_for_each_entry(tr, &tx->records, list) {
			if (tr->op == TRANS_NEWRULE || tr->op == TRANS_DELRULE) {
				d.rules[d.nrules++] = tr->rule;
			} else {
				d.elems[d.nelems].set = tr->set;
				d.elems[d.nelems++].elem = tr->elem;
			}
		}
	err = dataplane_prepare_delta(tx->net, &d, dperr);
	free(d.rules);
	free(d.elems);
	return err;
}

int ruleset_tx_commit(struct tx *tx, ruleset_notify_fn notify, void *data,
		      const char **errmsg)
{
	struct net *net = tx->net;
	static struct dp_error dperr;	/* *errmsg may point into it */
	struct trans *tr;
	int err;

	if (list_empty(&tx->records))
		return 0;

	/* 0. A binding chain no rule took is refused (nf_tables_commit()) */
	list_for_each_entry(tr, &tx->records, list) {
		if (tr->op == TRANS_NEWCHAIN && !tr->update &&
		    (tr->chain->flags & CHAIN_F_BINDING) && !tr->chain->bound) {
			*errmsg = NULL;
			ruleset_tx_abort(tx);
			return -EINVAL;
		}
	}

	/* 1. Fallible steps: build the next generation's dataplane. */
	swap_updates(tx);
	err = prepare(tx, &dperr);
	if (err) {
		*errmsg = dperr.msg;
		swap_updates(tx);
		ruleset_tx_abort(tx);
		return err;
	}

	/* cannot fail after this point */

	/* 2. Publish: packets switch, then the model flips. */
	dataplane_publish(net);
	while (++net->base_seq == 0)
		;
	net->gencursor ^= 1;
	list_for_each_entry(tr, &tx->records, list)
		apply(tr);

	/* 3. Notify, then release what the old generation alone used. */
	list_for_each_entry(tr, &tx->records, list)
		notify(tr, data);
	list_for_each_entry(tr, &tx->records, list)
		unlink_deleted(tr);
	list_for_each_entry(tr, &tx->records, list)
		free_deleted(tr);
	sweep_anonymous_sets(net);
	tx_free_records(tx);
	return 0;
}

static void undo(struct trans *tr, struct net *net)
{
	switch (tr->op) {
	case TRANS_NEWTABLE:
		if (!tr->update) {
			list_del(&tr->table->list);
			ruleset_table_free(tr->table);
		}
		break;
	case TRANS_DELTABLE:
		tr->table->genmask &= ~genmask_next(net);
		break;
	case TRANS_NEWCHAIN:
		if (!tr->update) {
			list_del(&tr->chain->list);
			tr->table->use--;
			ruleset_chain_free(tr->chain);
		}
		break;
	case TRANS_DELCHAIN:
		if (tr->update)	/* devices: swap_updates() put them back */
			break;
		tr->chain->genmask &= ~genmask_next(net);
		tr->table->use++;
		if (tr->binding) {
			struct rule *r;

			list_for_each_entry(r, &tr->chain->rules, list)
				ruleset_rule_activate(r);
		}
		break;
	case TRANS_NEWRULE:
		list_del(&tr->rule->list);
		ruleset_rule_deactivate(tr->rule);
		tr->chain->use--;
		tr->chain->nrules--;
		ruleset_rule_free(tr->rule);
		break;
	case TRANS_DELRULE:
		tr->rule->genmask &= ~genmask_next(net);
		ruleset_rule_activate(tr->rule);
		tr->chain->use++;
		tr->chain->nrules++;
		break;
	case TRANS_NEWSET:
		list_del(&tr->set->list);
		tr->table->use--;
		ruleset_set_free(tr->set);
		break;
	case TRANS_DELSET:
		tr->set->genmask &= ~genmask_next(net);
		ruleset_set_objrefs_get(tr->set, genmask_next(net));
		tr->table->use++;
		break;
	case TRANS_NEWSETELEM:
		if (tr->update)
			break;	/* a timeout update: nothing was added */
		ruleset_set_elem_unlink(tr->set, tr->elem);
		if (tr->elem->verdict.chain)
			tr->elem->verdict.chain->use--;
		if (tr->elem->obj)
			tr->elem->obj->use--;
		if (ruleset_elem_counts(tr->elem))
			tr->set->nelems--;
		ruleset_elem_free(tr->elem);
		break;
	case TRANS_DELSETELEM:
		tr->elem->genmask &= ~genmask_next(net);
		if (tr->elem->verdict.chain)
			tr->elem->verdict.chain->use++;
		if (tr->elem->obj)
			tr->elem->obj->use++;
		if (ruleset_elem_counts(tr->elem))
			tr->set->nelems++;
		break;
	case TRANS_NEWOBJ:
		if (!tr->obj_upd) {
			ruleset_obj_unlink(tr->obj);
			tr->table->use--;
			ruleset_obj_free(tr->obj);
		}
		break;
	case TRANS_DELOBJ:
		tr->obj->genmask &= ~genmask_next(net);
		tr->table->use++;
		break;
	}
}

void ruleset_tx_abort(struct tx *tx)
{
	struct trans *tr;

	dataplane_abort(tx->net);
	list_for_each_entry_reverse(tr, &tx->records, list)
		undo(tr, tx->net);
	tx_free_records(tx);
}
