// SPDX-License-Identifier: GPL-2.0-only
/*
 * ruleset.c - object lifetime and lookups of the nf_tables model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ruleset_api.h"
#include "ruleset_expr.h"
#include "dataplane.h"

struct net *ruleset_net_alloc(void)
{
	struct net *net = calloc(1, sizeof(*net));

	if (!net)
		return NULL;
	list_init(&net->list);
	list_init(&net->tables);
	net->ns_fd = -1;
	net->base_seq = 1;
	return net;
}

void ruleset_net_free(struct net *net)
{
	struct table *t, *tn;

	if (!net)
		return;
	dataplane_net_free(net);
	free(net->nflog_bound);
	list_for_each_entry_safe(t, tn, &net->tables, list) {
		list_del(&t->list);
		ruleset_table_free(t);
	}
	if (net->ns_fd >= 0)
		close(net->ns_fd);
	free(net);
}

struct table *ruleset_table_lookup(struct net *net, const char *name,
				   uint8_t family, uint8_t mask)
{
	struct table *t;

	list_for_each_entry(t, &net->tables, list) {
		if (t->family == family && active(t->genmask, mask) &&
		    !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

struct table *ruleset_table_lookup_handle(struct net *net, uint64_t handle,
					  uint8_t family, uint8_t mask)
{
	struct table *t;

	list_for_each_entry(t, &net->tables, list) {
		if (t->family == family && active(t->genmask, mask) &&
		    t->handle == handle)
			return t;
	}
	return NULL;
}

struct chain *ruleset_chain_lookup(struct table *t, const char *name,
				   uint8_t mask)
{
	struct chain *c;

	list_for_each_entry(c, &t->chains, list) {
		if (active(c->genmask, mask) && !strcmp(c->name, name))
			return c;
	}
	return NULL;
}

struct chain *ruleset_chain_lookup_handle(struct table *t, uint64_t handle,
					  uint8_t mask)
{
	struct chain *c;

	list_for_each_entry(c, &t->chains, list) {
		if (active(c->genmask, mask) && c->handle == handle)
			return c;
	}
	return NULL;
}

struct rule *ruleset_rule_lookup_handle(struct chain *c, uint64_t handle,
					uint8_t mask)
{
	struct rule *r;

	list_for_each_entry(r, &c->rules, list) {
		if (active(r->genmask, mask) && r->handle == handle)
			return r;
	}
	return NULL;
}

struct set *ruleset_set_lookup(struct table *t, const char *name, uint8_t mask)
{
	struct set *s;

	list_for_each_entry(s, &t->sets, list) {
		if (active(s->genmask, mask) && !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

struct set *ruleset_set_lookup_handle(struct table *t, uint64_t handle,
				      uint8_t mask)
{
	struct set *s;

	list_for_each_entry(s, &t->sets, list) {
		if (active(s->genmask, mask) && s->handle == handle)
			return s;
	}
	return NULL;
}

/* obj_hash - FNV-1a of (name, type), the kernel's nft_objname_hash key */
static uint32_t obj_hash(const char *name, uint32_t type)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return (h ^ type) * 16777619u;
}

static void obj_hash_insert(struct table *t, struct object *obj)
{
	uint32_t b = obj_hash(obj->name, obj->type) & (t->obj_hash_size - 1);

	obj->hnext = t->obj_hash[b];
	t->obj_hash[b] = obj;
}

/* obj_hash_grow - keep chains short: at most one object per bucket on average */
static int obj_hash_grow(struct table *t)
{
	uint32_t size = t->obj_hash_size ? t->obj_hash_size * 2 : 16;
	struct object **old = t->obj_hash, *obj, *next;
	uint32_t i, oldsize = t->obj_hash_size;

	t->obj_hash = calloc(size, sizeof(*t->obj_hash));
	if (!t->obj_hash) {
		t->obj_hash = old;
		return -ENOMEM;
	}
	t->obj_hash_size = size;
	for (i = 0; i < oldsize; i++) {
		for (obj = old[i]; obj; obj = next) {
			next = obj->hnext;
			obj_hash_insert(t, obj);
		}
	}
	free(old);
	return 0;
}

int ruleset_obj_link(struct object *obj)
{
	struct table *t = obj->table;

	if (t->nobjects >= t->obj_hash_size && obj_hash_grow(t))
		return -ENOMEM;
	obj_hash_insert(t, obj);
	list_add_tail(&obj->list, &t->objects);
	t->nobjects++;
	return 0;
}

void ruleset_obj_unlink(struct object *obj)
{
	struct table *t = obj->table;
	struct object **pp;

	pp = &t->obj_hash[obj_hash(obj->name, obj->type) & (t->obj_hash_size - 1)];
	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == obj) {
			*pp = obj->hnext;
			break;
		}
	}
	list_del(&obj->list);
	t->nobjects--;
}

struct object *ruleset_obj_lookup(struct table *t, const char *name,
				  uint32_t type, uint8_t mask)
{
	struct object *obj;

	if (!t->obj_hash_size)
		return NULL;
	obj = t->obj_hash[obj_hash(name, type) & (t->obj_hash_size - 1)];
	for (; obj; obj = obj->hnext) {
		if (obj->type == type && active(obj->genmask, mask) &&
		    !strcmp(obj->name, name))
			return obj;
	}
	return NULL;
}

struct object *ruleset_obj_lookup_handle(struct table *t, uint64_t handle,
					 uint32_t type, uint8_t mask)
{
	struct object *obj;

	list_for_each_entry(obj, &t->objects, list) {
		if (obj->type == type && active(obj->genmask, mask) &&
		    obj->handle == handle)
			return obj;
	}
	return NULL;
}

struct object *ruleset_obj_alloc(struct table *t, const char *name,
				 uint32_t type)
{
	struct object *obj = calloc(1, sizeof(*obj));

	if (!obj)
		return NULL;
	obj->name = strdup(name);
	if (!obj->name) {
		free(obj);
		return NULL;
	}
	obj->table = t;
	obj->type = type;
	list_init(&obj->list);
	return obj;
}

void ruleset_obj_free(struct object *obj)
{
	if (!obj)
		return;
	free(obj->udata.data);
	free(obj->name);
	free(obj);
}

struct table *ruleset_table_alloc(struct net *net, const char *name,
				  uint8_t family)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->name = strdup(name);
	if (!t->name) {
		free(t);
		return NULL;
	}
	t->net = net;
	t->family = family;
	list_init(&t->list);
	list_init(&t->chains);
	list_init(&t->sets);
	list_init(&t->objects);
	return t;
}

void ruleset_table_free(struct table *t)
{
	struct object *obj, *on;
	struct chain *c, *cn;
	struct set *s, *sn;

	if (!t)
		return;
	/* rules first: they hold references on chains and sets */
	list_for_each_entry(c, &t->chains, list) {
		struct rule *r, *rn;

		list_for_each_entry_safe(r, rn, &c->rules, list) {
			list_del(&r->list);
			ruleset_rule_free(r);
		}
	}
	list_for_each_entry_safe(s, sn, &t->sets, list) {
		list_del(&s->list);
		ruleset_set_free(s);
	}
	list_for_each_entry_safe(obj, on, &t->objects, list) {
		list_del(&obj->list);
		ruleset_obj_free(obj);
	}
	free(t->obj_hash);
	list_for_each_entry_safe(c, cn, &t->chains, list) {
		list_del(&c->list);
		ruleset_chain_free(c);
	}
	free(t->udata.data);
	free(t->name);
	free(t);
}

struct chain *ruleset_chain_alloc(struct table *t, const char *name)
{
	struct chain *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->name = strdup(name);
	if (!c->name) {
		free(c);
		return NULL;
	}
	c->table = t;
	c->reg_seq = ruleset_reg_seq();
	list_init(&c->list);
	list_init(&c->rules);
	return c;
}

void ruleset_chain_free(struct chain *c)
{
	uint32_t i;

	if (!c)
		return;
	if (c->base) {
		for (i = 0; i < c->base->ndevs; i++)
			free(c->base->devs[i]);
		free(c->base->devs);
		free(c->base);
	}
	free(c->udata.data);
	free(c->name);
	free(c);
}

uint64_t ruleset_rule_uid(void)
{
	static uint64_t seq;

	return ++seq;
}

static uint64_t reg_seq;

uint64_t ruleset_reg_seq(void)
{
	return ++reg_seq;
}

uint64_t ruleset_reg_seq_last(void)
{
	return reg_seq;
}

struct rule *ruleset_rule_alloc(struct chain *c, uint32_t dlen)
{
	struct rule *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->exprs = calloc(1, dlen ? dlen : 8);
	if (!r->exprs) {
		free(r);
		return NULL;
	}
	r->chain = c;
	r->uid = ruleset_rule_uid();
	list_init(&r->list);
	return r;
}

void ruleset_rule_activate(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r) {
		const struct ruleset_expr_ops *ops = ruleset_expr_ops[e->type];

		if (ops->activate)
			ops->activate(e);
	}
}

void ruleset_rule_deactivate(struct rule *r)
{
	struct expr *e;

	rule_for_each_expr(e, r) {
		const struct ruleset_expr_ops *ops = ruleset_expr_ops[e->type];

		if (ops->deactivate)
			ops->deactivate(e);
	}
}

void ruleset_rule_free(struct rule *r)
{
	if (!r)
		return;
	free(r->exprs);
	free(r->udata.data);
	free(r);
}

struct set *ruleset_set_alloc(struct table *t, const char *name)
{
	struct set *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = strdup(name);
	if (!s->name) {
		free(s);
		return NULL;
	}
	s->table = t;
	list_init(&s->list);
	list_init(&s->elems);
	return s;
}

void ruleset_elem_free(struct set_elem *e)
{
	if (!e)
		return;
	free(e->udata.data);
	free(e->exprs);
	free(e);
}

void ruleset_set_objrefs_get(struct set *s, uint8_t mask)
{
	struct set_elem *e;

	list_for_each_entry(e, &s->elems, list) {
		if (!active(e->genmask, mask))
			continue;
		if (e->obj)
			e->obj->use++;
		if (e->verdict.chain)
			e->verdict.chain->use++;
	}
}

void ruleset_set_objrefs_put(struct set *s, uint8_t mask)
{
	struct set_elem *e;

	list_for_each_entry(e, &s->elems, list) {
		if (!active(e->genmask, mask))
			continue;
		if (e->obj)
			e->obj->use--;
		if (e->verdict.chain)
			e->verdict.chain->use--;
	}
}

void ruleset_set_free(struct set *s)
{
	struct set_elem *e, *en;

	if (!s)
		return;
	list_for_each_entry_safe(e, en, &s->elems, list) {
		list_del(&e->list);
		ruleset_elem_free(e);
	}
	free(s->ehash);
	free(s->exprs);
	free(s->udata.data);
	free(s->name);
	free(s);
}

/* ---- the kernel's clock (set element timeouts) ---- */

int ruleset_msecs_to_jiffies(uint64_t ms, uint64_t *j)
{
	unsigned int hz = dataplane_hz();
	uint64_t ns;

	if (ms >= UINT64_MAX / 1000000u)
		return -ERANGE;
	if (!hz)
		return -EOPNOTSUPP;
	ns = ms * 1000000u;
	/* nsecs_to_jiffies64() */
	if (1000000000u % hz == 0)
		*j = ns / (1000000000u / hz);
	else
		*j = (uint64_t)((unsigned __int128)ns * 9 /
				((9ull * 1000000000u + hz / 2) / hz));
	if (!*j && ms)
		*j = 1;
	return 0;
}

uint64_t ruleset_jiffies_to_msecs(uint64_t j)
{
	unsigned int hz = dataplane_hz();

	if (!hz)
		return 0;
	/* jiffies64_to_msecs() */
	if (hz <= 1000 && 1000 % hz == 0)
		return j * (1000 / hz);
	return (uint64_t)((unsigned __int128)j * 1000 / hz);
}

int ruleset_jiffies_now(uint64_t *now)
{
	static uint64_t cached, cached_at;
	struct timespec ts;
	uint64_t t;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (cached && t - cached_at < 1000000) {
		*now = cached;
		return 0;
	}
	err = dataplane_jiffies(&cached);
	if (err) {
		cached = 0;
		return err;
	}
	cached_at = t;
	*now = cached;
	return 0;
}

/* ---- set element index ---- */

static uint32_t key_hash(const struct data_value *k)
{
	uint32_t h = 2166136261u, i;	/* FNV-1a */

	for (i = 0; i < k->len; i++)
		h = (h ^ k->v[i]) * 16777619u;
	return h;
}

static int ehash_grow(struct set *s)
{
	uint32_t size = s->ehash_size ? 2 * s->ehash_size : 64, i;
	struct set_elem **t = calloc(size, sizeof(*t)), *e, *en;

	if (!t)
		return -ENOMEM;
	for (i = 0; i < s->ehash_size; i++)
		for (e = s->ehash[i]; e; e = en) {
			uint32_t b = key_hash(&e->key) & (size - 1);

			en = e->hnext;
			e->hnext = t[b];
			t[b] = e;
		}
	free(s->ehash);
	s->ehash = t;
	s->ehash_size = size;
	return 0;
}

int ruleset_set_elem_link(struct set *s, struct set_elem *e)
{
	uint32_t b;

	if (s->ehash_n >= s->ehash_size && ehash_grow(s))
		return -ENOMEM;
	b = key_hash(&e->key) & (s->ehash_size - 1);
	e->hnext = s->ehash[b];
	s->ehash[b] = e;
	s->ehash_n++;
	list_add_tail(&e->list, &s->elems);
	return 0;
}

void ruleset_set_elem_unlink(struct set *s, struct set_elem *e)
{
	struct set_elem **pp;

	list_del(&e->list);
	if (!s->ehash_size)
		return;
	for (pp = &s->ehash[key_hash(&e->key) & (s->ehash_size - 1)]; *pp;
	     pp = &(*pp)->hnext)
		if (*pp == e) {
			*pp = e->hnext;
			s->ehash_n--;
			return;
		}
}

struct set_elem *ruleset_set_elem_chain(const struct set *s,
					const struct data_value *key)
{
	if (!s->ehash_size)
		return NULL;
	return s->ehash[key_hash(key) & (s->ehash_size - 1)];
}

void ruleset_each_expr(struct net *net, uint8_t mask,
		       void (*fn)(void *arg, const struct expr *e), void *arg)
{
	const struct table *t;
	const struct chain *c;
	const struct rule *r;
	const struct expr *e;

	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, mask))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			if (!active(c->genmask, mask))
				continue;
			list_for_each_entry(r, &c->rules, list) {
				if (!active(r->genmask, mask))
					continue;
				rule_for_each_expr(e, r)
					fn(arg, e);
			}
		}
	}
}
