// SPDX-License-Identifier: GPL-2.0-only
/*
 * sets.c - the elements of the sets that rules look up, in the shared set
 * maps (codegen.h, "Sets").
 *
 * Every prepare recomputes, from the model, what each map entry must hold
 * in both generations (elements active in generation g fill half g), then
 * writes the entries whose value changed and deletes the entries neither
 * generation needs. The live generation's half of an entry never changes
 * (the model's current generation is what the previous prepare made the
 * next one), so packets see nothing until publish flips the generation
 * word; element changes are map updates only, never code.
 *
 * A batch of element changes to exact sets (and rules) needs less:
 * dp_sets_prepare_delta() settles the entries the last prepare left with
 * two different halves (the generation that went live is the truth for
 * both now) and recomputes the next half of the entries of the batch's
 * elements from the model's key index, so its cost is the batch's size,
 * not the sets'.
 *
 * Interval sets (nft_set_rbtree semantics): elements sorted by key, an
 * element flagged NFT_SET_ELEM_INTERVAL_END ends the range the previous
 * one started; a key matches the last element (ends before starts on equal
 * keys) whose key is <= it, unless that is an end. Each range becomes its
 * minimal set of prefixes in an LPM trie. The ranges of one generation are
 * disjoint, but the trie holds both generations' prefixes, so an entry's
 * half g holds the value of the generation-g prefix containing it (or
 * nothing): the longest match then answers as generation g's own prefixes
 * would, whichever generation's entries are in the way.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "offload/offload.h"
#include "dataplane.h"
#include "ruleset_api.h"
#include "expr/lookup.h"
#include "expr/counter.h"
#include "expr/objref.h"
#include "object.h"
#include "expr/dynset.h"

#define DP_SETS		65536	/* set ids */
#define DP_SET_ELEMS	(1u << 22)	/* entries per shared set map (no
					 * prealloc: memory grows with use),
					 * as nfnl/set.c SET_ELEMS_MAX */
#define SET_HASH	1024
#define KEY_MAX		(8 + SET_KLEN_MAX)

#define NFPROTO_INET	1
#define NFPROTO_IPV4	2
#define NFPROTO_IPV6	10
#define NFPROTO_NETDEV	5
#define NFPROTO_ARP	3
#define NFPROTO_BRIDGE	7

/* a set the rules look up */
struct dp_slot {
	uint8_t start[SET_KLEN_MAX];
	uint8_t end[SET_KLEN_MAX];
	bool used;
	bool seen;
};

struct dp_set {
	struct dp_set *hnext;
	uint64_t table;
	uint64_t handle;
	uint32_t id;
	bool seen;
	bool fresh;
	bool dyn;		/* the packet path adds to it (dynset) */
	uint32_t count;		/* dyn: state slot of its count word */
	int fd;			/* dyn: its map */
	uint32_t ksize;		/* dyn: its map's key size */
	int64_t pending;	/* dyn: count change publish makes */
	bool looked;		/* a lookup reads it (this prepare) */
	bool stmts;		/* a dynset adds elements with statements */
	bool cl;		/* ... with a ct count (sticky: its elements keep
				 * being collected) */
	struct dp_slot *slots;	/* interval concatenations: slot -> range */
	uint32_t nslots, capslots;
};

/* one map entry */
struct dp_elem {
	struct dp_elem *hnext;
	int fd;
	uint32_t klen;
	uint8_t key[KEY_MAX];
	uint32_t vsize;		/* value bytes */
	uint32_t voff;		/* struct codegen_set_val within the value */
	uint8_t *shadow;	/* vsize bytes: what the map holds */
	uint8_t *want;		/* vsize bytes: what this prepare wants */
	bool in_map;
	bool seen;
	bool touched;		/* in dp_sets.touched */
	uint8_t buf[] __attribute__((aligned(8)));
};

struct dp_sets {
	struct dp_set *hash[SET_HASH];
	bool swept_cl;		/* no set has or had a ct count since the last
				 * sweep of the lists (dp_sets_cl_sweep()) */
	struct dp_elem **elems;
	uint32_t nbuckets, nelems;
	/* id allocator, ids freed by a prepare reused after a publish */
	uint8_t *used;
	uint32_t next;
	uint32_t *free, nfree;
	uint32_t *cool, ncool;
	/* incremental prepares (dp_sets_prepare_delta()) */
	struct dp_elems {
		struct dp_elem **v;
		uint32_t n, cap;
	} settle,		/* entries the last prepare left with two
				 * different halves */
	  touched;		/* entries the current delta prepare changes */
	/* entries of elements set garbage collection freed since the last
	 * prepare, and their exact sets */
	struct dp_gc {
		struct dp_elem *el;
		struct set *s;
	} *gc;
	uint32_t ngc, capgc;
	bool settled;		/* settle is complete: a delta prepare may run */
	bool taken;		/* the current delta prepare touched all of it */
	uint32_t gen_next;	/* of the current delta prepare */
	uint64_t written;	/* map updates and deletes, cumulative */
	struct dp_set **byid;
	struct dp_sets_ops ops;
	uint32_t cur;		/* generation packets see during a prepare */
};

/* one prefix of an interval set's generation */
struct dp_prefix {
	uint8_t start[SET_KLEN_MAX];
	uint8_t last[SET_KLEN_MAX];
	uint32_t plen;
	const struct set_elem *e;
};

struct dp_prefixes {
	struct dp_prefix *v;
	uint32_t n, cap;
};

struct dp_sets *dp_sets_new(void)
{
	struct dp_sets *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	ss->nbuckets = 4096;
	ss->elems = calloc(ss->nbuckets, sizeof(*ss->elems));
	ss->used = calloc(DP_SETS, 1);
	ss->free = calloc(DP_SETS, sizeof(uint32_t));
	ss->cool = calloc(DP_SETS, sizeof(uint32_t));
	ss->byid = calloc(DP_SETS, sizeof(*ss->byid));
	ss->next = 1;
	if (!ss->elems || !ss->used || !ss->free || !ss->cool || !ss->byid) {
		dp_sets_free(ss, NULL);
		return NULL;
	}
	return ss;
}

void dp_sets_free(struct dp_sets *ss, struct codegen_env *env)
{
	struct dp_set *s;
	struct dp_elem *el;
	uint32_t i;

	if (env) {
		for (i = 0; i <= SET_KEY_WORDS_MAX; i++)
			if (env->set_hash_fd[i] > 0)
				close(env->set_hash_fd[i]);
		for (i = 0; i <= SET_KLEN_MAX; i++)
			if (env->set_lpm_fd[i] > 0)
				close(env->set_lpm_fd[i]);
		if (env->set_scratch_fd > 0)
			close(env->set_scratch_fd);
	}
	if (!ss)
		return;
	for (i = 0; i < SET_HASH; i++)
		while ((s = ss->hash[i])) {
			ss->hash[i] = s->hnext;
			free(s->slots);
			free(s);
		}
	for (i = 0; ss->elems && i < ss->nbuckets; i++)
		while ((el = ss->elems[i])) {
			ss->elems[i] = el->hnext;
			free(el);
		}
	free(ss->elems);
	free(ss->used);
	free(ss->free);
	free(ss->cool);
	free(ss->settle.v);
	free(ss->touched.v);
	free(ss->gc);
	free(ss->byid);
	free(ss);
}

/* ---- set records ---- */

static uint32_t set_hash(uint64_t table, uint64_t handle)
{
	uint64_t h = table * 0x9e3779b97f4a7c15ull ^ handle * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(h ^ (h >> 31)) % SET_HASH;
}

static struct dp_set *set_find(struct dp_sets *ss, const struct set *s)
{
	struct dp_set *r;

	for (r = ss->hash[set_hash(s->table->handle, s->handle)]; r; r = r->hnext)
		if (r->table == s->table->handle && r->handle == s->handle)
			return r;
	return NULL;
}

static struct dp_set *set_new(struct dp_sets *ss, const struct set *s)
{
	uint32_t h = set_hash(s->table->handle, s->handle);
	struct dp_set *r;
	uint32_t id;

	if (ss->nfree)
		id = ss->free[--ss->nfree];
	else if (ss->next < DP_SETS)
		id = ss->next++;
	else
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		ss->free[ss->nfree++] = id;
		return NULL;
	}
	ss->used[id] = 1;
	ss->byid[id] = r;
	r->id = id;
	r->table = s->table->handle;
	r->handle = s->handle;
	r->fresh = true;
	r->hnext = ss->hash[h];
	ss->hash[h] = r;
	return r;
}

/*
 * the entries of set @id in map @fd, in batches: @fn(arg, key, value)
 * each (the key's first 4 bytes are the id); @fn returns nonzero to stop
 */
static int map_walk(int fd, uint32_t id, uint32_t ksize, uint32_t vsize,
		    int (*fn)(void *arg, const uint8_t *key, void *val),
		    void *arg)
{
	uint8_t key[KEY_MAX], next[KEY_MAX];
	uint8_t *val = malloc(vsize);
	void *prev = NULL;
	int ret = 0;

	if (!val)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksize);
		prev = key;
		if (memcmp(key, &id, 4) || bpf_map_lookup_elem(fd, key, val))
			continue;
		ret = fn(arg, key, val);
		if (ret)
			break;
	}
	free(val);
	return ret < 0 ? ret : 0;
}

struct gone_ctx {
	uint8_t (*keys)[KEY_MAX];
	uint32_t n, cap;
};

static int gone_collect(void *arg, const uint8_t *key, void *val)
{
	struct gone_ctx *g = arg;

	(void)val;
	if (g->n == g->cap) {
		uint32_t ncap = g->cap ? 2 * g->cap : 64;
		void *n = realloc(g->keys, ncap * sizeof(*g->keys));

		if (!n)
			return -ENOMEM;
		g->keys = n;
		g->cap = ncap;
	}
	memcpy(g->keys[g->n++], key, KEY_MAX);
	return 0;
}

/* a set the packet path added to goes: its entries go with it */
static void set_dyn_drop(struct dp_sets *ss, struct dp_set *r)
{
	struct gone_ctx g = { 0 };
	uint32_t i;

	if (!r->dyn)
		return;
	if (r->fd > 0) {
		map_walk(r->fd, r->id, KEY_MAX, sizeof(struct codegen_set_val),
			 gone_collect, &g);
		for (i = 0; i < g.n; i++)
			bpf_map_delete_elem(r->fd, g.keys[i]);
		free(g.keys);
	}
	if (r->count && ss->ops.count_put)
		ss->ops.count_put(ss->ops.priv, r->count);
	r->count = 0;
	r->dyn = false;
}

static void set_free(struct dp_sets *ss, struct dp_set *r)
{
	struct dp_set **pp = &ss->hash[set_hash(r->table, r->handle)];

	if (r->cl)
		ss->swept_cl = false;	/* its lists: the next sweep */
	set_dyn_drop(ss, r);
	while (*pp != r)
		pp = &(*pp)->hnext;
	*pp = r->hnext;
	ss->byid[r->id] = NULL;
	ss->used[r->id] = 0;
	ss->cool[ss->ncool++] = r->id;
	free(r->slots);
	free(r);
}

void dp_sets_set_ops(struct dp_sets *ss, const struct dp_sets_ops *ops)
{
	ss->ops = *ops;
}

uint32_t dp_sets_count(struct dp_sets *ss, const struct set *s)
{
	struct dp_set *r = set_find(ss, s);

	return r && r->dyn ? r->count : 0;
}

uint32_t dp_sets_id(struct dp_sets *ss, const struct set *s)
{
	struct dp_set *r = set_find(ss, s);

	return r ? r->id : 0;
}

/* ---- map entries ---- */

static uint32_t elem_hash(int fd, const uint8_t *key, uint32_t klen)
{
	uint32_t h = 2166136261u ^ (uint32_t)fd, i;

	for (i = 0; i < klen; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

static int elems_grow(struct dp_sets *ss)
{
	uint32_t n = ss->nbuckets * 2, i;
	struct dp_elem **b = calloc(n, sizeof(*b)), *el;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < ss->nbuckets; i++)
		while ((el = ss->elems[i])) {
			uint32_t h = elem_hash(el->fd, el->key, el->klen) % n;

			ss->elems[i] = el->hnext;
			el->hnext = b[h];
			b[h] = el;
		}
	free(ss->elems);
	ss->elems = b;
	ss->nbuckets = n;
	return 0;
}

static struct codegen_set_val *elem_val(struct dp_elem *el)
{
	return (struct codegen_set_val *)(el->want + el->voff);
}

static struct dp_elem *elem_get(struct dp_sets *ss, int fd, const uint8_t *key,
				uint32_t klen, bool range)
{
	uint32_t h = elem_hash(fd, key, klen), vsize;
	struct dp_elem *el;

	for (el = ss->elems[h % ss->nbuckets]; el; el = el->hnext)
		if (el->fd == fd && el->klen == klen && !memcmp(el->key, key, klen)) {
			if (!el->seen) {
				el->seen = true;
				memset(el->want, 0, el->vsize);
			}
			return el;
		}
	if (ss->nelems >= 2 * ss->nbuckets && elems_grow(ss))
		return NULL;
	vsize = range ? sizeof(struct codegen_set_range) :
			sizeof(struct codegen_set_val);
	el = calloc(1, sizeof(*el) + 2 * vsize);
	if (!el)
		return NULL;
	el->fd = fd;
	el->klen = klen;
	el->vsize = vsize;
	el->shadow = el->buf;
	el->want = el->buf + vsize;
	el->voff = range ? offsetof(struct codegen_set_range, val) : 0;
	memcpy(el->key, key, klen);
	el->seen = true;
	h %= ss->nbuckets;
	el->hnext = ss->elems[h];
	ss->elems[h] = el;
	ss->nelems++;
	return el;
}

static int elems_push(struct dp_elems *l, struct dp_elem *el)
{
	if (l->n == l->cap) {
		uint32_t ncap = l->cap ? 2 * l->cap : 64;
		void *n = realloc(l->v, ncap * sizeof(*l->v));

		if (!n)
			return -ENOMEM;
		l->v = n;
		l->cap = ncap;
	}
	l->v[l->n++] = el;
	return 0;
}

/* do the two generations see @el's entry differently (in el->want)? */
static bool halves_differ(struct dp_elem *el)
{
	const struct codegen_set_val *v = elem_val(el);

	return memcmp(&v->half[0], &v->half[1], sizeof(v->half[0])) != 0;
}

/* take @el out of the index and free it (its map entry is gone) */
static void elem_free(struct dp_sets *ss, struct dp_elem *el)
{
	struct dp_elem **pp = &ss->elems[elem_hash(el->fd, el->key, el->klen) %
					 ss->nbuckets];

	while (*pp != el)
		pp = &(*pp)->hnext;
	*pp = el->hnext;
	ss->nelems--;
	free(el);
}

static bool half_valid(const uint8_t *v, uint32_t g)
{
	return ((const struct codegen_set_val *)v)->half[g].valid;
}

/*
 * the state of an element's statements the packet path keeps in the entry
 * (SET_STMTS_INLINE): what the control plane writes keeps it
 */
static void keep_inline(uint8_t *want, const uint8_t *have)
{
	struct codegen_set_half *w = &((struct codegen_set_val *)want)->half[0];
	const struct codegen_set_half *h = &((const struct codegen_set_val *)have)->half[0];
	uint32_t flags;

	memcpy(&flags, h->data + SET_DATA_FLAGS, 4);
	if (flags & SET_STMTS_INLINE)
		memcpy(w->data + SET_DATA_LIMIT, h->data + SET_DATA_LIMIT,
		       SET_DATA_FLAGS + 4 - SET_DATA_LIMIT);
}

/*
 * before a write of @el in a dynamic set: the count change it makes (the
 * packet path may have added the element already, and counted it), and
 * the entry's statement state kept
 */
static int64_t dyn_write(struct dp_elem *el, uint32_t cur)
{
	struct codegen_set_val old;

	if (bpf_map_lookup_elem(el->fd, el->key, &old))
		return el->in_map ? -(int64_t)half_valid(el->shadow, cur) +
				    half_valid(el->want, cur ^ 1) :
				    half_valid(el->want, cur ^ 1);
	keep_inline(el->want, (const uint8_t *)&old);
	return (int64_t)half_valid(el->want, cur ^ 1) - old.half[cur].valid;
}

/* the dynamic set entry @el belongs to, NULL if none */
static struct dp_set *dyn_of(struct dp_sets *ss, const struct dp_elem *el)
{
	struct dp_set *r;
	uint32_t id;

	memcpy(&id, el->key, 4);
	if (id >= DP_SETS)
		return NULL;
	r = ss->byid[id];
	return r && r->dyn && r->fd == el->fd ? r : NULL;
}

/* ---- building ---- */

struct fill_ctx {
	struct dp_sets *ss;
	const struct codegen_consts_ctx *cc;
	struct dp_error *err;
	const struct set *s;
	uint32_t id;
	int fd;
	bool lpm;
	bool ranges;
	bool in_gen[2];		/* set active in generation g */
	bool fresh;		/* the set's id is new to this prepare */
};

/* @v == LONG_MIN: "set 'x': @what", else "set 'x': @what @v is not supported" */
static int fail(struct fill_ctx *fc, int ret, const char *what, long v)
{
	const char *name = fc->s->name ? fc->s->name : "";

	if (v == LONG_MIN)
		snprintf(fc->err->buf, sizeof(fc->err->buf), "set '%.64s': %s",
			 name, what);
	else
		snprintf(fc->err->buf, sizeof(fc->err->buf),
			 "set '%.64s': %s %ld is not supported by the nfbpf dataplane yet",
			 name, what, v);
	fc->err->msg = fc->err->buf;
	return ret;
}

/*
 * the counter slot of @e's counter expression (0: none), kept from one
 * prepare to the next; lookups count in it (codegen_set_counted())
 */
static int elem_counter(struct fill_ctx *fc, const struct set_elem *e,
			uint32_t *slot)
{
	const struct expr *x;

	*slot = 0;
	if (e->dyn)
		return 0;	/* their state is in the entry (dynset) */
	if (e->exprs_len && !fc->cc->elem_counter)
		return fail(fc, -EINVAL, "element statements in an incremental "
			    "prepare", LONG_MIN);	/* dp_sets_delta_ok() */
	expr_for_each_in(x, e->exprs, e->exprs_len) {
		if (x->type != EXPR_COUNTER)
			return fail(fc, -EOPNOTSUPP, "element statements other "
				    "than counter are not supported by the "
				    "nfbpf dataplane yet", LONG_MIN);
		if (!codegen_set_counted(fc->s))
			return fail(fc, -EOPNOTSUPP, "element counters without "
				    "the set's counter statement are not "
				    "supported by the nfbpf dataplane yet",
				    LONG_MIN);
		if (*slot)
			return fail(fc, -EOPNOTSUPP, "more than one counter "
				    "per element is not supported by the nfbpf "
				    "dataplane yet", LONG_MIN);
		*slot = fc->cc->elem_counter(fc->cc->priv, expr_priv(x), true);
		if (!*slot)
			return fail(fc, -ENOSPC, "the nfbpf dataplane is out of "
				    "counter slots", LONG_MIN);
	}
	return 0;
}

static int make_half(struct fill_ctx *fc, const struct set_elem *e,
		     struct codegen_set_half *h)
{
	const struct set *s = fc->s;
	int ret;

	memset(h, 0, sizeof(*h));
	h->valid = 1;
	h->expires = e->expires;
	ret = elem_counter(fc, e, &h->counter);
	if (ret)
		return ret;
	/* object maps: the object's descriptor (codegen/expr/objref.c) */
	if (s->flags & NFT_SET_F_OBJECT) {
		if (!e->obj || !codegen_obj_type_ok(e->obj->type))
			return 0;	/* objref refuses the map's type */
		if (codegen_obj_desc(e->obj, h->data))
			return fail(fc, -ENOENT, "element names an object without a dataplane slot",
				    LONG_MIN);
		return 0;
	}
	if (!(s->flags & NFT_SET_F_MAP)) {
		/* sets: the element's timeout, for dataplane_set_read() */
		memcpy(h->data, &e->timeout, sizeof(e->timeout));
		return 0;
	}
	if (s->dtype == NFT_DATA_VERDICT_TYPE) {
		switch (e->verdict.code) {
		case VERDICT_JUMP:
		case VERDICT_GOTO:
			if (!e->verdict.chain)
				return fail(fc, -EINVAL, "jump/goto without a chain",
					    LONG_MIN);
			h->target = fc->cc->chain_head(fc->cc->priv, e->verdict.chain);
			/* fallthrough */
		case VERDICT_ACCEPT:
		case VERDICT_DROP:
		case VERDICT_CONTINUE:
		case VERDICT_BREAK:
		case VERDICT_RETURN:
			h->code = e->verdict.code;
			return 0;
		}
		return fail(fc, -EOPNOTSUPP, "verdict", e->verdict.code);
	}
	memcpy(h->data, e->data.v,
	       e->data.len < s->dlen ? e->data.len : s->dlen);
	return 0;
}

/* the map key of @e (NULL: catchall) in @key; returns its length */
static uint32_t exact_key(const struct fill_ctx *fc, const struct set_elem *e,
			  uint8_t *key)
{
	uint32_t klen = fc->s->klen, kb = fc->lpm ? klen : 4 * ((klen + 3) / 4);
	uint32_t id = fc->id, plen = 32 + 8 * klen, off = 0;

	memset(key, 0, KEY_MAX);
	if (fc->ranges) {
		uint32_t idx = SET_RANGE_CATCHALL;

		memcpy(key, &fc->id, 4);
		memcpy(key + 4, &idx, 4);
		return 8;
	}
	if (fc->lpm) {
		memcpy(key, &plen, 4);
		off = 4;
	}
	if (!e)
		id |= SET_CATCHALL_BIT;
	memcpy(key + off, &id, 4);
	if (e)
		memcpy(key + off + 4, e->key.v,
		       e->key.len < klen ? e->key.len : klen);
	return off + 4 + kb;
}

static bool is_catchall(const struct set_elem *e)
{
	return (e->flags & SET_ELEM_F_CATCHALL) || !e->key.len;
}

/*
 * A set whose id is new to this (full) prepare: no rule of the live
 * generation names the id (ids are reused only after the publish that
 * retired them), so no packet reads its entries before the publish. Its
 * entries get the next generation in both halves at once, as the next
 * delta prepare would settle them: a batch that loads a set of a million
 * elements does not leave a million entries to write again at the next
 * commit. Only generation @next is computed (half @next ^ 1 follows it).
 */
static bool fresh_skip(const struct fill_ctx *fc, uint32_t g)
{
	return fc->fresh && g == fc->ss->cur;
}

static void fresh_copy(const struct fill_ctx *fc, struct dp_elem *el)
{
	struct codegen_set_val *v = elem_val(el);
	uint32_t cur = fc->ss->cur;

	if (fc->fresh)
		v->half[cur] = v->half[cur ^ 1];
}

/* exact sets, and the catchall element of any set */
static int fill_elem(struct fill_ctx *fc, const struct set_elem *e, bool catchall)
{
	uint8_t key[KEY_MAX];
	uint32_t klen = exact_key(fc, catchall ? NULL : e, key), g;
	struct dp_elem *el = NULL;
	int ret;

	for (g = 0; g < 2; g++) {
		if (!fc->in_gen[g] || !active(e->genmask, 1u << g) ||
		    fresh_skip(fc, g))
			continue;
		if (!el)
			el = elem_get(fc->ss, fc->fd, key, klen, fc->ranges);
		if (!el)
			return fail(fc, -ENOMEM, "out of memory", LONG_MIN);
		ret = make_half(fc, e, &elem_val(el)->half[g]);
		if (ret)
			return ret;
		fresh_copy(fc, el);
	}
	return 0;
}

static int elem_cmp(const void *a, const void *b, void *klen)
{
	const struct set_elem *x = *(const struct set_elem *const *)a;
	const struct set_elem *y = *(const struct set_elem *const *)b;
	int c = memcmp(x->key.v, y->key.v, *(const uint32_t *)klen);

	if (c)
		return c;
	/* equal keys: the end of the previous range first */
	return (int)!(x->flags & SET_ELEM_F_INTERVAL_END) -
	       (int)!(y->flags & SET_ELEM_F_INTERVAL_END);
}

/* number of trailing zero bits of @a (nbits if zero) */
static uint32_t be_tz(const uint8_t *a, uint32_t len)
{
	uint32_t i, b;

	for (i = 0; i < len; i++) {
		uint8_t v = a[len - 1 - i];

		if (!v)
			continue;
		for (b = 0; !(v & (1u << b)); b++)
			;
		return 8 * i + b;
	}
	return 8 * len;
}

/* @out = @a with its low @s bits set */
static void be_or_low(uint8_t *out, const uint8_t *a, uint32_t len, uint32_t s)
{
	uint32_t i;

	memcpy(out, a, len);
	for (i = 0; i < s; i++)
		out[len - 1 - i / 8] |= 1u << (i % 8);
}

/* @a += 1; false on overflow */
static bool be_inc(uint8_t *a, uint32_t len)
{
	uint32_t i;

	for (i = len; i-- > 0;)
		if (++a[i])
			return true;
	return false;
}

/* @a -= 1; false on underflow */
static bool be_dec(uint8_t *a, uint32_t len)
{
	uint32_t i;

	for (i = len; i-- > 0;)
		if (a[i]--)
			return true;
	return false;
}

static int prefix_push(struct dp_prefixes *ps, const struct dp_prefix *p)
{
	if (ps->n == ps->cap) {
		uint32_t ncap = ps->cap ? 2 * ps->cap : 64;
		void *n = realloc(ps->v, ncap * sizeof(*ps->v));

		if (!n)
			return -ENOMEM;
		ps->v = n;
		ps->cap = ncap;
	}
	ps->v[ps->n++] = *p;
	return 0;
}

/* [start, last] as its minimal list of prefixes, in ascending order */
static int decompose(struct dp_prefixes *ps, const uint8_t *start,
		     const uint8_t *last, uint32_t len, const struct set_elem *e)
{
	struct dp_prefix p = { .e = e };
	uint32_t nbits = 8 * len, s;

	memcpy(p.start, start, len);
	for (;;) {
		s = be_tz(p.start, len);
		for (; s > 0; s--) {
			be_or_low(p.last, p.start, len, s);
			if (memcmp(p.last, last, len) <= 0)
				break;
		}
		if (!s)
			memcpy(p.last, p.start, len);
		p.plen = nbits - s;
		if (prefix_push(ps, &p))
			return -ENOMEM;
		if (memcmp(p.last, last, len) >= 0)
			return 0;
		memcpy(p.start, p.last, len);
		be_inc(p.start, len);
	}
}

/* the ranges of generation @g as prefixes */
static int gen_prefixes(struct fill_ctx *fc, uint32_t g, struct dp_prefixes *ps)
{
	const struct set *s = fc->s;
	uint32_t klen = s->klen, n = 0, i;
	const struct set_elem **v;
	struct set_elem *e;
	uint8_t last[SET_KLEN_MAX];
	int ret = 0;

	list_for_each_entry(e, &s->elems, list)
		n++;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	list_for_each_entry(e, &s->elems, list)
		if (active(e->genmask, 1u << g) && !is_catchall(e))
			v[n++] = e;
	qsort_r(v, n, sizeof(*v), elem_cmp, &klen);
	for (i = 0; i < n && !ret; i++) {
		const struct set_elem *x = v[i];

		if (x->flags & SET_ELEM_F_INTERVAL_END)
			continue;
		if (x->key_end.len) {
			memset(last, 0, sizeof(last));
			memcpy(last, x->key_end.v,
			       x->key_end.len < klen ? x->key_end.len : klen);
		} else if (i + 1 < n) {
			memcpy(last, v[i + 1]->key.v, klen);
			if (memcmp(last, x->key.v, klen) <= 0 || !be_dec(last, klen))
				continue;
		} else {
			memset(last, 0xff, klen);
		}
		if (memcmp(last, x->key.v, klen) < 0)
			continue;
		ret = decompose(ps, x->key.v, last, klen, x);
	}
	free(v);
	return ret;
}

/* the prefix of @ps (sorted, disjoint) containing @p, or NULL */
static const struct dp_prefix *containing(const struct dp_prefixes *ps,
					  const struct dp_prefix *p, uint32_t len)
{
	uint32_t lo = 0, hi = ps->n;

	/* first index whose start > p->start */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (memcmp(ps->v[mid].start, p->start, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || memcmp(p->last, ps->v[lo - 1].last, len) > 0)
		return NULL;
	return &ps->v[lo - 1];
}

static int fill_interval(struct fill_ctx *fc)
{
	struct dp_prefixes own[2] = { { 0 } };
	uint32_t klen = fc->s->klen, g, h, i;
	int ret = 0;

	for (g = 0; g < 2 && !ret; g++)
		if (fc->in_gen[g] && !fresh_skip(fc, g))
			ret = gen_prefixes(fc, g, &own[g]);
	for (g = 0; g < 2 && !ret; g++)
		for (i = 0; i < own[g].n && !ret; i++) {
			const struct dp_prefix *p = &own[g].v[i];
			uint32_t plen = 32 + p->plen;
			uint8_t key[KEY_MAX] = { 0 };
			struct dp_elem *el;

			memcpy(key, &plen, 4);
			memcpy(key + 4, &fc->id, 4);
			memcpy(key + 8, p->start, klen);
			el = elem_get(fc->ss, fc->fd, key, 8 + klen, false);
			if (!el) {
				ret = -ENOMEM;
				break;
			}
			for (h = 0; h < 2 && !ret; h++) {
				const struct dp_prefix *q = containing(&own[h], p, klen);

				if (q)
					ret = make_half(fc, q->e, &elem_val(el)->half[h]);
			}
			fresh_copy(fc, el);
		}
	free(own[0].v);
	free(own[1].v);
	if (ret == -ENOMEM && !fc->err->msg)
		fail(fc, ret, "out of memory", LONG_MIN);
	return ret;
}

/* the slot of range [@start, @end] in @r, allocated if new; -1: no memory */
static int slot_get(struct dp_set *r, const uint8_t *start, const uint8_t *end,
		    uint32_t klen)
{
	uint32_t i, free_i = UINT32_MAX;

	for (i = 0; i < r->nslots; i++) {
		struct dp_slot *sl = &r->slots[i];

		if (!sl->used) {
			if (free_i == UINT32_MAX && !sl->seen)
				free_i = i;
			continue;
		}
		if (!memcmp(sl->start, start, klen) && !memcmp(sl->end, end, klen))
			return (int)i;
	}
	if (free_i == UINT32_MAX) {
		if (r->nslots == r->capslots) {
			uint32_t ncap = r->capslots ? 2 * r->capslots : 16;
			void *n = realloc(r->slots, ncap * sizeof(*r->slots));

			if (!n)
				return -1;
			r->slots = n;
			r->capslots = ncap;
		}
		free_i = r->nslots++;
	}
	memset(&r->slots[free_i], 0, sizeof(r->slots[free_i]));
	r->slots[free_i].used = true;
	memcpy(r->slots[free_i].start, start, klen);
	memcpy(r->slots[free_i].end, end, klen);
	return (int)free_i;
}

/*
 * interval concatenations: every range of either generation keeps its
 * slot while it lives; the slot's halves say in which generation
 */
static int fill_ranges(struct fill_ctx *fc, struct dp_set *r)
{
	uint32_t klen = fc->s->klen, i, g, count;
	uint8_t key[KEY_MAX];
	struct set_elem *e;
	struct dp_elem *el;
	int ret;

	for (i = 0; i < r->nslots; i++)
		r->slots[i].seen = false;
	list_for_each_entry(e, &fc->s->elems, list) {
		const uint8_t *end;
		uint8_t kbuf[SET_KLEN_MAX] = { 0 }, ebuf[SET_KLEN_MAX] = { 0 };
		int idx = -1;

		if (is_catchall(e))
			continue;
		memcpy(kbuf, e->key.v, e->key.len < klen ? e->key.len : klen);
		end = kbuf;
		if (e->key_end.len) {
			memcpy(ebuf, e->key_end.v,
			       e->key_end.len < klen ? e->key_end.len : klen);
			end = ebuf;
		}
		for (g = 0; g < 2; g++) {
			struct codegen_set_range *v;
			uint32_t u;

			if (!fc->in_gen[g] || !active(e->genmask, 1u << g))
				continue;
			if (idx < 0) {
				idx = slot_get(r, kbuf, end, klen);
				if (idx < 0)
					return fail(fc, -ENOMEM, "out of memory", LONG_MIN);
				r->slots[idx].seen = true;
			}
			u = (uint32_t)idx;
			memcpy(key, &fc->id, 4);
			memcpy(key + 4, &u, 4);
			el = elem_get(fc->ss, fc->fd, key, 8, true);
			if (!el)
				return fail(fc, -ENOMEM, "out of memory", LONG_MIN);
			v = (struct codegen_set_range *)el->want;
			memcpy(v->start, kbuf, klen);
			memcpy(v->end, end, klen);
			ret = make_half(fc, e, &v->val.half[g]);
			if (ret)
				return ret;
		}
	}
	/* ranges gone from both generations free their slot; the count
	 * covers the highest slot in use */
	count = 0;
	for (i = 0; i < r->nslots; i++) {
		if (!r->slots[i].seen)
			r->slots[i].used = false;
		else
			count = i + 1;
	}
	r->nslots = count;
	g = SET_RANGE_COUNT;
	memcpy(key, &fc->id, 4);
	memcpy(key + 4, &g, 4);
	el = elem_get(fc->ss, fc->fd, key, 8, true);
	if (!el)
		return fail(fc, -ENOMEM, "out of memory", LONG_MIN);
	memcpy(el->want, &count, 4);
	return 0;
}

static int ensure_map(struct codegen_env *env, const struct set *s, int *fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = BPF_F_NO_PREALLOC);
	bool lpm = codegen_set_interval(s);

	if (codegen_set_ranges(s)) {
		if (env->set_range_fd <= 0) {
			env->set_range_fd = bpf_map_create(BPF_MAP_TYPE_HASH,
						"nfbpf_set_r", 8,
						sizeof(struct codegen_set_range),
						DP_SET_ELEMS, &o);
			if (env->set_range_fd < 0) {
				int ret = -errno;

				env->set_range_fd = 0;
				return ret;
			}
		}
		*fd = env->set_range_fd;
		return 0;
	}
	uint32_t w = (s->klen + 3) / 4;
	int *slot = lpm ? &env->set_lpm_fd[s->klen] : &env->set_hash_fd[w];
	char name[16];

	if (*slot <= 0) {
		snprintf(name, sizeof(name), lpm ? "nfbpf_set_l%u" : "nfbpf_set_h%u",
			 lpm ? s->klen : w);
		*slot = bpf_map_create(lpm ? BPF_MAP_TYPE_LPM_TRIE : BPF_MAP_TYPE_HASH,
				       name, lpm ? 8 + s->klen : 4 + 4 * w,
				       sizeof(struct codegen_set_val),
				       DP_SET_ELEMS, &o);
		if (*slot < 0) {
			int ret = -errno;

			*slot = 0;
			return ret;
		}
	}
	*fd = *slot;
	return 0;
}

/* the families whose chains run in the dataplane: as offload/dataplane.c */
static bool family_ok(uint8_t f)
{
	return f == NFPROTO_INET || f == NFPROTO_IPV4 || f == NFPROTO_IPV6 ||
	       f == NFPROTO_NETDEV || f == NFPROTO_ARP || f == NFPROTO_BRIDGE;
}

static bool visible(uint8_t genmask, const struct net *net)
{
	return active(genmask, genmask_cur(net)) ||
	       active(genmask, genmask_next(net));
}

static int fill_set(struct dp_sets *ss, struct codegen_env *env,
		    const struct set *s, struct dp_set *r,
		    const struct codegen_consts_ctx *cc, struct dp_error *err)
{
	struct fill_ctx fc = { .ss = ss, .cc = cc, .err = err, .s = s, .id = r->id,
			       .lpm = codegen_set_interval(s),
			       .ranges = codegen_set_ranges(s),
			       .fresh = r->fresh };
	struct set_elem *e;
	uint32_t g;
	int ret;

	if (s->klen < 1 || s->klen > SET_KLEN_MAX)
		return fail(&fc, -EOPNOTSUPP, "key length", s->klen);
	ret = ensure_map(env, s, &fc.fd);
	if (ret)
		return fail(&fc, ret, "cannot create the nfbpf set map", LONG_MIN);
	for (g = 0; g < 2; g++)
		fc.in_gen[g] = active(s->table->genmask, 1u << g) &&
			       active(s->genmask, 1u << g);
	list_for_each_entry(e, &s->elems, list) {
		if (is_catchall(e))
			ret = fill_elem(&fc, e, true);
		else if (!fc.lpm && !fc.ranges)
			ret = fill_elem(&fc, e, false);
		if (ret)
			return ret;
	}
	if (fc.lpm)
		return fill_interval(&fc);
	if (fc.ranges)
		return fill_ranges(&fc, r);
	return 0;
}

/* the set @e looks up or writes: lookup's, an objref's object map, dynset's */
static struct set *rule_expr_set(const struct expr *e)
{
	if (e->type == EXPR_LOOKUP)
		return ((const struct expr_lookup *)expr_priv(e))->set;
	if (e->type == EXPR_OBJREF)
		return ((const struct expr_objref *)expr_priv(e))->set;
	if (e->type == EXPR_DYNSET)
		return ((const struct expr_dynset *)expr_priv(e))->set;
	return NULL;
}

/*
 * the count word of a set the packet path adds to: the number of its
 * entries in the map (tracked ones, the packet path's are counted by it)
 */
static int set_dyn(struct dp_sets *ss, struct codegen_env *env, struct dp_set *r,
		   int fd, struct dp_error *err)
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	struct dp_elem *el;
	uint64_t n = 0;
	uint32_t i;

	if (env->set_scratch_fd <= 0) {
		env->set_scratch_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
						     "nfbpf_set_new", 4,
						     sizeof(struct codegen_set_val),
						     1, &o);
		if (env->set_scratch_fd < 0) {
			env->set_scratch_fd = 0;
			err->msg = "cannot create the nfbpf dynamic set scratch map";
			return -ENOMEM;
		}
	}
	if (r->dyn)
		return 0;
	for (i = 0; i < ss->nbuckets; i++)
		for (el = ss->elems[i]; el; el = el->hnext)
			if (el->fd == fd && el->in_map && !memcmp(el->key, &r->id, 4) &&
			    ((struct codegen_set_val *)el->shadow)->half[ss->cur].valid)
				n++;
	r->count = ss->ops.count_get ? ss->ops.count_get(ss->ops.priv, n) : 0;
	if (!r->count) {
		err->msg = "the nfbpf dataplane is out of state slots";
		return -ENOSPC;
	}
	r->dyn = true;
	r->fd = fd;
	return 0;
}

/* the key size of the exact-match map of @s: id, key words */
static uint32_t exact_ksize(const struct set *s)
{
	return 4 + 4 * ((s->klen + 3) / 4);
}

/* the set a lookup or objref reads or a dynset writes: an id, its entries */
static int use_set(struct dp_sets *ss, struct codegen_env *env, struct expr *e,
		   const struct codegen_consts_ctx *cc, struct dp_error *err)
{
	struct set *s = rule_expr_set(e);
	struct dp_set *r;
	int ret;

	if (!s)
		return 0;
	r = set_find(ss, s);
	if (!r || !r->seen) {
		if (!r)
			r = set_new(ss, s);
		if (!r) {
			err->msg = "too many sets for the nfbpf dataplane";
			return -ENOSPC;
		}
		r->seen = true;
		ret = fill_set(ss, env, s, r, cc, err);
		if (ret)
			return ret;
	}
	if (e->type == EXPR_LOOKUP)
		r->looked = true;
	else if (e->type == EXPR_DYNSET &&
		 ((struct expr_dynset *)expr_priv(e))->nexprs) {
		r->stmts = true;
		r->cl |= codegen_expr_reads_ct(e);	/* its ct count */
	}
	if (r->looked && r->stmts) {
		snprintf(err->buf, sizeof(err->buf), "set '%.32s': lookups of "
			 "elements that carry statements from the packet path "
			 "are not supported by the nfbpf dataplane yet", s->name);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (e->type == EXPR_DYNSET && !codegen_set_interval(s) &&
	    !codegen_set_ranges(s)) {
		r->ksize = exact_ksize(s);
		return set_dyn(ss, env, r, env->set_hash_fd[(s->klen + 3) / 4], err);
	}
	return 0;
}

int dp_sets_prepare(struct dp_sets *ss, struct net *net,
		    struct codegen_env *env,
		    const struct codegen_consts_ctx *cc, struct dp_error *err)
{
	struct dp_elem *el, **pp;
	struct dp_set *r;
	struct table *t;
	struct chain *c;
	struct rule *rule;
	struct expr *e;
	bool settle_ok = true;
	uint32_t i;
	int ret;

	ss->settled = ss->taken = false;
	ss->settle.n = 0;
	ss->ngc = 0;	/* the model has them no more: this prepare drops them */
	ss->cur = net->gencursor;
	for (i = 0; i < SET_HASH; i++)
		for (r = ss->hash[i]; r; r = r->hnext) {
			r->seen = r->fresh = false;
			r->pending = 0;
			r->looked = r->stmts = false;
		}
	for (i = 0; i < ss->nbuckets; i++)
		for (el = ss->elems[i]; el; el = el->hnext)
			el->seen = false;
	/* 1. what every entry must hold, for the sets visible rules use */
	list_for_each_entry(t, &net->tables, list) {
		if (!visible(t->genmask, net) || !family_ok(t->family))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			if (!visible(c->genmask, net))
				continue;
			list_for_each_entry(rule, &c->rules, list) {
				if (!visible(rule->genmask, net))
					continue;
				rule_for_each_expr(e, rule) {
					ret = use_set(ss, env, e, cc, err);
					if (ret)
						return ret;
				}
			}
		}
	}
	/* 1b. the counters of the elements of sets no rule looks up keep
	 * their slots (and counts) while the elements live */
	list_for_each_entry(t, &net->tables, list) {
		struct set *s;

		if (!visible(t->genmask, net) || !family_ok(t->family))
			continue;
		list_for_each_entry(s, &t->sets, list) {
			struct set_elem *el;

			if (!s->nexprs || !visible(s->genmask, net))
				continue;
			r = set_find(ss, s);
			if (r && r->seen)
				continue;
			list_for_each_entry(el, &s->elems, list) {
				struct expr *x;

				expr_for_each_in(x, el->exprs, el->exprs_len)
					if (x->type == EXPR_COUNTER)
						cc->elem_counter(cc->priv,
								 expr_priv(x),
								 false);
			}
		}
	}
	/* 2. write what changed (the live half stays as it is); what the
	 * next delta prepare must settle */
	for (i = 0; i < ss->nbuckets; i++)
		for (el = ss->elems[i]; el; el = el->hnext) {
			/* a dynamic set's entries are written by full
			 * prepares only (the packet path's count and inline
			 * state): one left with two halves makes the next
			 * prepare a full one */
			if (el->seen && settle_ok && halves_differ(el) &&
			    (dyn_of(ss, el) || elems_push(&ss->settle, el)))
				settle_ok = false;
			if (!el->seen)
				continue;
			r = dyn_of(ss, el);
			if (r && el->in_map)
				keep_inline(el->want, el->shadow);
			if (el->in_map && !memcmp(el->want, el->shadow, el->vsize))
				continue;
			ss->written++;
			/* dynamic sets count their elements live in the
			 * generation packets see: what publish changes */
			if (r)
				r->pending += dyn_write(el, ss->cur);
			if (bpf_map_update_elem(el->fd, el->key, el->want, BPF_ANY)) {
				ret = -errno;
				snprintf(err->buf, sizeof(err->buf),
					 "cannot write a set element: %s",
					 strerror(-ret));
				err->msg = err->buf;
				return ret;
			}
			memcpy(el->shadow, el->want, el->vsize);
			el->in_map = true;
		}
	/* 3. entries neither generation needs */
	for (i = 0; i < ss->nbuckets; i++)
		for (pp = &ss->elems[i]; (el = *pp);) {
			if (el->seen) {
				pp = &el->hnext;
				continue;
			}
			r = dyn_of(ss, el);
			if (el->in_map)
				ss->written++;
			if (el->in_map && !bpf_map_delete_elem(el->fd, el->key) && r)
				ss->ops.count_add(ss->ops.priv, r->count,
						  -(int64_t)half_valid(el->shadow, ss->cur));
			*pp = el->hnext;
			ss->nelems--;
			free(el);
		}
	ss->settled = settle_ok;
	return 0;
}

/* ---- delta prepares ---- */

bool dp_sets_delta_ok(struct dp_sets *ss, const struct set *s,
		      const struct set_elem *e)
{
	if (!ss->settled)
		return false;
	/* element statements: their counter slots are given and taken back
	 * by full prepares only (the dataplane's eslot bookkeeping) */
	if (s && (s->nexprs || (e && e->exprs_len)))
		return false;
	/* no rule looks it up: nothing to write */
	if (!s || !set_find(ss, s))
		return true;
	/* the packet path adds to it: full prepares (dp_sets_prepare()
	 * keeps what packets added, counted and hold inline) */
	if (set_find(ss, s)->dyn)
		return false;
	/* an interval's prefixes depend on its neighbours */
	return !(s->flags & NFT_SET_F_INTERVAL) ||
	       (e && is_catchall(e) && !codegen_set_ranges(s));
}

bool dp_sets_delta_expr_ok(struct dp_sets *ss, const struct expr *e)
{
	const struct expr_dynset *ds = expr_priv(e);
	struct dp_set *r;

	if (e->type == EXPR_LOOKUP) {
		const struct expr_lookup *l = expr_priv(e);

		r = l->set ? set_find(ss, l->set) : NULL;
		if (r && r->stmts)
			return false;
		if (r)
			r->looked = true;
	} else if (e->type == EXPR_DYNSET && ds->nexprs) {
		r = ds->set ? set_find(ss, ds->set) : NULL;
		if (r && r->looked)
			return false;
		if (r) {
			r->stmts = true;
			r->cl |= codegen_expr_reads_ct(e);	/* its ct count */
		}
	}
	return true;
}

/* @el changes in this delta prepare: start from what the map holds */
static int elem_touch(struct dp_sets *ss, struct dp_elem *el)
{
	if (el->touched)
		return 0;
	if (elems_push(&ss->touched, el))
		return -ENOMEM;
	el->touched = true;
	if (el->in_map)
		memcpy(el->want, el->shadow, el->vsize);
	else
		memset(el->want, 0, el->vsize);
	return 0;
}

static struct dp_elem *elem_find_key(struct dp_sets *ss, int fd,
				      const uint8_t *key, uint32_t klen)
{
	uint32_t h = elem_hash(fd, key, klen);
	struct dp_elem *el;

	for (el = ss->elems[h % ss->nbuckets]; el; el = el->hnext)
		if (el->fd == fd && el->klen == klen && !memcmp(el->key, key, klen))
			return el;
	return NULL;
}

/* the entry of key @key, made (not in the map yet) if there is none */
static struct dp_elem *elem_lookup(struct dp_sets *ss, int fd,
				   const uint8_t *key, uint32_t klen)
{
	struct dp_elem *el = elem_find_key(ss, fd, key, klen);

	if (el)
		return el;
	el = elem_get(ss, fd, key, klen, false);
	if (el)
		el->seen = false;
	return el;
}

/* the entry of @e of @s (an exact set, or a catchall), NULL if none */
static struct dp_elem *entry_of(struct dp_sets *ss, struct codegen_env *env,
				struct fill_ctx *fc, const struct set_elem *e,
				bool make)
{
	struct dp_set *r = set_find(ss, fc->s);
	uint8_t key[KEY_MAX];
	uint32_t klen;

	if (!r || ensure_map(env, fc->s, &fc->fd))
		return NULL;
	fc->id = r->id;
	klen = exact_key(fc, is_catchall(e) ? NULL : e, key);
	return make ? elem_lookup(ss, fc->fd, key, klen) :
		      elem_find_key(ss, fc->fd, key, klen);
}

/*
 * the next generation's half of entry @el, of the elements of @s with key
 * @key (or the catchall): the model element active in the next generation
 * (the key index finds it; the newest first, as the full prepare lets the
 * last one of the list win), or nothing
 */
static int delta_half(struct fill_ctx *fc, struct dp_elem *el,
		      const struct data_value *key, bool catchall)
{
	uint8_t next = 1u << fc->ss->gen_next;
	const struct set *s = fc->s;
	struct codegen_set_half *h;
	const struct set_elem *x;

	if (elem_touch(fc->ss, el))
		return fail(fc, -ENOMEM, "out of memory", LONG_MIN);
	h = &elem_val(el)->half[fc->ss->gen_next];
	memset(h, 0, sizeof(*h));
	if (!active(s->table->genmask, next) || !active(s->genmask, next))
		return 0;
	for (x = ruleset_set_elem_chain(s, key); x; x = x->hnext) {
		if (!active(x->genmask, next) || is_catchall(x) != catchall ||
		    (x->flags & SET_ELEM_F_INTERVAL_END))
			continue;
		if (!catchall && (x->key.len != key->len ||
				  memcmp(x->key.v, key->v, key->len)))
			continue;
		return make_half(fc, x, h);
	}
	return 0;
}

/* a change of element @e of @s: the next half of its entry */
static int delta_elem(struct dp_sets *ss, struct codegen_env *env,
		      const struct codegen_consts_ctx *cc, struct set *s,
		      const struct set_elem *e, struct dp_error *err)
{
	struct fill_ctx fc = { .ss = ss, .cc = cc, .err = err, .s = s,
			       .lpm = codegen_set_interval(s) };
	struct dp_elem *el;

	if (!set_find(ss, s))
		return 0;	/* no rule looks it up */
	el = entry_of(ss, env, &fc, e, true);
	if (!el)
		return fail(&fc, -ENOMEM, "out of memory", LONG_MIN);
	return delta_half(&fc, el, &e->key, is_catchall(e));
}

/* an element garbage collection freed: the next half of its entry, from
 * what the model holds under its key now */
static int delta_gc(struct dp_sets *ss, const struct codegen_consts_ctx *cc,
		    const struct dp_gc *g, struct dp_error *err)
{
	struct fill_ctx fc = { .ss = ss, .cc = cc, .err = err, .s = g->s,
			       .lpm = codegen_set_interval(g->s) };
	struct data_value key = { .len = g->s->klen };
	uint32_t id, off = fc.lpm ? 4 : 0;

	memcpy(&id, g->el->key + off, 4);
	memcpy(key.v, g->el->key + off + 4, g->s->klen);
	return delta_half(&fc, g->el, &key, id & SET_CATCHALL_BIT);
}

void dp_sets_gc(struct dp_sets *ss, struct codegen_env *env, struct set *s,
		const struct set_elem *e)
{
	struct fill_ctx fc = { .ss = ss, .s = s, .lpm = codegen_set_interval(s) };
	struct dp_elem *el;

	/* interval sets: the next full prepare (the only kind they have) */
	if (!ss || !set_find(ss, s) || !dp_sets_delta_ok(ss, s, e))
		return;
	el = entry_of(ss, env, &fc, e, false);
	if (!el)
		return;
	if (ss->ngc == ss->capgc) {
		uint32_t ncap = ss->capgc ? 2 * ss->capgc : 64;
		void *n = realloc(ss->gc, ncap * sizeof(*ss->gc));

		if (!n) {
			ss->settled = false;	/* the next prepare: a full one */
			return;
		}
		ss->gc = n;
		ss->capgc = ncap;
	}
	ss->gc[ss->ngc].el = el;
	ss->gc[ss->ngc++].s = s;
}

/*
 * write the touched entries whose value changed; an exact or prefix entry
 * neither generation sees goes (for a prefix: no prefix of that generation
 * contains it, so none shorter matches either). Return: 0 or -errno.
 */
static int write_touched(struct dp_sets *ss, struct dp_error *err)
{
	uint32_t i;
	int ret;

	for (i = 0; i < ss->touched.n; i++) {
		struct dp_elem *el = ss->touched.v[i];
		const struct codegen_set_val *v;

		if (!el)
			continue;	/* freed by an earlier pass */
		v = elem_val(el);
		if (el->vsize == sizeof(*v) && !v->half[0].valid &&
		    !v->half[1].valid) {
			if (el->in_map) {
				ss->written++;
				if (bpf_map_delete_elem(el->fd, el->key) &&
				    errno != ENOENT)
					goto out_errno;
			}
			ss->touched.v[i] = NULL;
			elem_free(ss, el);
			continue;
		}
		if (el->in_map && !memcmp(el->want, el->shadow, el->vsize))
			continue;
		ss->written++;
		if (bpf_map_update_elem(el->fd, el->key, el->want, BPF_ANY))
			goto out_errno;
		memcpy(el->shadow, el->want, el->vsize);
		el->in_map = true;
	}
	return 0;

out_errno:
	ret = -errno;
	snprintf(err->buf, sizeof(err->buf), "cannot write a set element: %s",
		 strerror(-ret));
	err->msg = err->buf;
	return ret;
}

/* forget the touched list (entries it freed are NULL) */
static void touched_clear(struct dp_sets *ss)
{
	uint32_t i;

	for (i = 0; i < ss->touched.n; i++)
		if (ss->touched.v[i])
			ss->touched.v[i]->touched = false;
	ss->touched.n = 0;
}

int dp_sets_prepare_delta(struct dp_sets *ss, struct net *net,
			  struct codegen_env *env,
			  const struct codegen_consts_ctx *cc,
			  const struct dp_delta *d, struct dp_error *err)
{
	uint32_t cur = (uint32_t)net->gencursor, next = cur ^ 1, i;
	int ret = 0;

	if (!ss->settled)
		return -EINVAL;	/* the caller checked dp_sets_delta_ok() */
	ss->settled = ss->taken = false;
	ss->gen_next = next;
	touched_clear(ss);
	/* 1. the last prepare's generation is live: both halves are it */
	for (i = 0; i < ss->settle.n; i++) {
		struct dp_elem *el = ss->settle.v[i];
		struct codegen_set_val *v;

		if (elem_touch(ss, el))
			goto out_nomem;
		v = elem_val(el);
		v->half[next] = v->half[cur];
	}
	ss->settle.n = 0;
	ss->taken = true;
	/* 2. elements garbage collection freed, then the batch's */
	for (i = 0; i < ss->ngc && !ret; i++)
		ret = delta_gc(ss, cc, &ss->gc[i], err);
	ss->ngc = 0;
	for (i = 0; d && i < d->nelems && !ret; i++)
		ret = delta_elem(ss, env, cc, d->elems[i].set, d->elems[i].elem,
				 err);
	if (!ret)
		ret = write_touched(ss, err);
	if (ret)
		return ret;
	/* 3. what the next one settles */
	for (i = 0; i < ss->touched.n; i++) {
		struct dp_elem *el = ss->touched.v[i];

		if (el && halves_differ(el) && elems_push(&ss->settle, el))
			return 0;	/* not settled: the next one is full */
	}
	ss->settled = true;
	return 0;

out_nomem:
	err->msg = "out of memory";
	return -ENOMEM;
}

uint64_t dp_sets_written(const struct dp_sets *ss)
{
	return ss ? ss->written : 0;
}

void dp_sets_drop_unseen(struct dp_sets *ss)
{
	struct dp_set *r, *n;
	uint32_t i;

	for (i = 0; i < SET_HASH; i++)
		for (r = ss->hash[i]; r; r = n) {
			n = r->hnext;
			if (!r->seen)
				set_free(ss, r);
		}
}

void dp_sets_abort(struct dp_sets *ss)
{
	struct dp_set *r, *n;
	uint32_t i;

	/* a delta prepare's next halves go back to the live ones: what they
	 * held before, settled (if that cannot be written, or the prepare
	 * failed before it took the whole settle list, the next prepare is a
	 * full one) */
	if (ss->taken) {
		struct dp_error err;
		uint32_t cur = ss->gen_next ^ 1;

		for (i = 0; i < ss->touched.n; i++) {
			struct dp_elem *el = ss->touched.v[i];
			struct codegen_set_val *v;

			if (!el)
				continue;
			v = elem_val(el);
			v->half[ss->gen_next] = v->half[cur];
		}
		ss->settle.n = 0;
		ss->settled = !write_touched(ss, &err);
	} else {
		ss->settled = false;
	}
	touched_clear(ss);
	ss->taken = false;
	for (i = 0; i < SET_HASH; i++)
		for (r = ss->hash[i]; r; r = n) {
			n = r->hnext;
			if (r->fresh)
				set_free(ss, r);
		}
	/* no rule entry names them any more: usable again at once, as
	 * another batch may never publish */
	while (ss->ncool)
		ss->free[ss->nfree++] = ss->cool[--ss->ncool];
}

void dp_sets_publish(struct dp_sets *ss)
{
	uint32_t i;

	touched_clear(ss);
	ss->taken = false;
	for (i = 0; i < SET_HASH; i++) {
		struct dp_set *r;

		for (r = ss->hash[i]; r; r = r->hnext) {
			r->fresh = false;
			if (r->dyn && r->pending)
				ss->ops.count_add(ss->ops.priv, r->count, r->pending);
			r->pending = 0;
		}
	}
	while (ss->ncool)
		ss->free[ss->nfree++] = ss->cool[--ss->ncool];
}

struct read_ctx {
	struct dp_sets *ss;
	struct dp_set *r;
	uint32_t g, klen;
	uint64_t now;
	int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
		  uint64_t expires, const uint8_t *data);
	void *arg;
	struct gone_ctx gone;
};

/*
 * the entries of @r under @g's keys go (their map deletes them, the
 * count word counts them out, the model of the map forgets them), and
 * with each one its "ct count" list if @cl (a set with such elements has
 * no timeouts: the kernel refuses both)
 */
static void gone_delete(struct dp_sets *ss, struct dp_set *r, uint32_t ksize,
			struct gone_ctx *g, bool cl)
{
	struct dp_elem *el, **pp;
	uint32_t i;

	for (i = 0; i < g->n; i++) {
		uint32_t h = elem_hash(r->fd, g->keys[i], ksize) % ss->nbuckets;

		if (bpf_map_delete_elem(r->fd, g->keys[i]))
			continue;
		ss->ops.count_add(ss->ops.priv, r->count, -1);
		if (cl && ss->ops.cl_free)
			ss->ops.cl_free(ss->ops.priv, r->id, g->keys[i] + 4,
					ksize - 4);
		for (pp = &ss->elems[h]; (el = *pp); pp = &el->hnext)
			if (el->fd == r->fd && el->klen == ksize &&
			    !memcmp(el->key, g->keys[i], ksize)) {
				*pp = el->hnext;
				ss->nelems--;
				free(el);
				break;
			}
	}
	free(g->keys);
	g->keys = NULL;
	g->n = g->cap = 0;
}

static int read_one(void *arg, const uint8_t *key, void *val)
{
	struct read_ctx *rc = arg;
	struct codegen_set_val *v = val;
	const struct codegen_set_half *h = &v->half[rc->g];
	uint64_t timeout;

	if (!h->valid)
		return 0;
	if (h->expires && rc->now >= h->expires) {
		/* timed out: the set's garbage collection */
		if (v->half[rc->g ^ 1].valid && v->half[rc->g ^ 1].expires !=
		    h->expires)
			return 0;	/* the next generation has it anew */
		return gone_collect(&rc->gone, key, val);
	}
	memcpy(&timeout, h->data, sizeof(timeout));
	return rc->fn(rc->arg, key + 4, timeout, h->expires, v->half[0].data);
}

bool dp_sets_dynamic(struct dp_sets *ss, const struct set *s)
{
	struct dp_set *r = set_find(ss, s);

	return r && r->dyn && r->fd > 0;
}

int dp_sets_read(struct dp_sets *ss, const struct set *s, uint32_t g,
		 uint64_t now,
		 int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
			   uint64_t expires, const uint8_t *data),
		 void *arg)
{
	struct dp_set *r = set_find(ss, s);
	struct read_ctx rc = { .ss = ss, .r = r, .g = g, .klen = s->klen,
			       .now = now, .fn = fn, .arg = arg };
	int ret;

	if (!r || !r->dyn || r->fd <= 0)
		return -ENOENT;
	ret = map_walk(r->fd, r->id, KEY_MAX, sizeof(struct codegen_set_val),
		       read_one, &rc);
	gone_delete(ss, r, exact_ksize(s), &rc.gone, false);
	return ret;
}

/* is @v's element a "ct count" one whose list emptied (ops.cl_dead())? */
static int cl_one(void *arg, const uint8_t *key, void *val)
{
	struct read_ctx *rc = arg;
	struct codegen_set_val *v = val;
	const struct codegen_set_half *h = &v->half[rc->g];
	uint32_t flags;

	memcpy(&flags, v->half[0].data + SET_DATA_FLAGS, 4);
	if (!h->valid || !(flags & SET_STMTS_CONNLIMIT))
		return 0;
	if (h->expires && rc->now >= h->expires)
		return 0;	/* timed out: dp_sets_read() collects it */
	if (!rc->ss->ops.cl_dead(rc->ss->ops.priv, rc->r->id, key + 4,
				 rc->klen))
		return 0;
	return gone_collect(&rc->gone, key, val);
}

int dp_sets_cl_gc(struct dp_sets *ss, const struct set *s, uint32_t g,
		  uint64_t now)
{
	struct dp_set *r = set_find(ss, s);
	struct read_ctx rc = { .ss = ss, .r = r, .g = g, .now = now,
			       .klen = exact_ksize(s) - 4 };
	int ret;

	if (!r || !r->dyn || !r->cl || r->fd <= 0 || !ss->ops.cl_dead)
		return -ENOENT;
	ret = map_walk(r->fd, r->id, KEY_MAX, sizeof(struct codegen_set_val),
		       cl_one, &rc);
	gone_delete(ss, r, exact_ksize(s), &rc.gone, true);
	return ret;
}

/*
 * does @ss still hold an element under @key (set id, key words), live in
 * generation @g, of a set the ruleset still has (@set_live: a set that a
 * table deletion or a delta prepare dropped keeps its map entries until
 * the next full prepare)?
 */
static bool cl_owner_live(struct dp_sets *ss, uint32_t g, uint32_t id,
			  const uint8_t *key,
			  bool (*set_live)(void *arg, uint64_t table, uint64_t handle),
			  void *arg)
{
	struct codegen_set_val v;
	uint8_t k[KEY_MAX];
	struct dp_set *r;

	if (id >= DP_SETS)
		return false;
	r = ss->byid[id];
	if (!r || !r->dyn || r->fd <= 0 || r->ksize < 4 || r->ksize > KEY_MAX ||
	    !set_live(arg, r->table, r->handle))
		return false;
	memcpy(k, &id, 4);
	memcpy(k + 4, key, r->ksize - 4);
	if (bpf_map_lookup_elem(r->fd, k, &v))
		return false;
	return v.half[g & 1].valid;
}

uint32_t dp_sets_cl_sweep(struct dp_sets *ss, int cl_fd, uint32_t g,
			  bool (*set_live)(void *arg, uint64_t table, uint64_t handle),
			  void *arg)
{
	struct codegen_cl_key k, next;
	bool first = true, any = false;
	uint32_t n = 0, i;
	struct dp_set *r;

	/* no element lists: no walk of the map (xt connlimit's lists) */
	for (i = 0; i < SET_HASH && !any; i++)
		for (r = ss->hash[i]; r && !any; r = r->hnext)
			any = r->cl;
	if (!any && ss->swept_cl)
		return 0;
	ss->swept_cl = !any;

	/* deleting the key just visited restarts the walk: walk from the
	 * one before (as cl_delete() in dataplane.c) */
	while (!bpf_map_get_next_key(cl_fd, first ? NULL : &k, &next)) {
		if ((next.id & CL_SET_TAG) && !(next.id & CL_ID_TAG) &&
		    !cl_owner_live(ss, g, (uint32_t)next.id, next.addr, set_live, arg)) {
			if (!bpf_map_delete_elem(cl_fd, &next))
				n++;
			continue;
		}
		k = next;
		first = false;
	}
	return n;
}
