/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - hand-built nf_tables model objects for dataplane tests, and a
 * commit that does what the control plane does (prepare, publish, flip
 * gencursor, clear stale genmask bits / free deleted objects).
 */
#ifndef NFBPF_TESTS_MODEL_H
#define NFBPF_TESTS_MODEL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <criterion/criterion.h>

#include "ruleset.h"
#include "object.h"
#include "ruleset_api.h"
#include "dataplane.h"
#include "expr/bitwise.h"
#include "expr/byteorder.h"
#include "expr/cmp.h"
#include "expr/counter.h"
#include "expr/ct.h"
#include "expr/immediate.h"
#include "expr/lookup.h"
#include "expr/dynset.h"
#include "expr/meta.h"
#include "expr/payload.h"
#include "expr/range.h"
#include "offload/offload.h"

#define NF_DROP		0
#define NF_ACCEPT	1
#define NFT_CONTINUE	(-1)
#define NFT_BREAK	(-2)
#define NFT_JUMP	(-3)
#define NFT_GOTO	(-4)
#define NFT_RETURN	(-5)

#define HOOK_PRE	0
#define HOOK_IN		1
#define HOOK_FWD	2
#define HOOK_OUT	3
#define HOOK_POST	4

/* run the calling process in a scratch network namespace (never the host's) */
static inline int tm_scratch_netns(void)
{
	cr_assert_eq(unshare(CLONE_NEWNET), 0, "unshare: %s", strerror(errno));
	return open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
}

static inline void tm_net_init(struct net *net, int ns_fd)
{
	memset(net, 0, sizeof(*net));
	list_init(&net->list);
	list_init(&net->tables);
	net->ns_fd = ns_fd;
}

static inline struct table *tm_table(struct net *net, const char *name,
				     uint8_t family)
{
	struct table *t = calloc(1, sizeof(*t));

	t->net = net;
	t->name = strdup(name);
	t->family = family;
	t->handle = ++net->table_handle;
	t->genmask = genmask_cur(net);	/* added in this batch */
	list_init(&t->chains);
	list_init(&t->sets);
	list_init(&t->objects);
	list_add_tail(&t->list, &net->tables);
	return t;
}

/* @hook < 0: user chain */
static inline struct chain *tm_chain(struct table *t, const char *name,
				     int hook, int32_t prio, uint32_t policy)
{
	struct chain *c = calloc(1, sizeof(*c));

	c->table = t;
	c->name = strdup(name);
	c->handle = ++t->hgenerator;
	c->genmask = genmask_cur(t->net);
	list_init(&c->rules);
	if (hook >= 0) {
		c->base = calloc(1, sizeof(*c->base));
		c->base->hooknum = hook;
		c->base->priority = prio;
		strcpy(c->base->type, "filter");
		c->base->policy = policy;
		c->flags = 1;	/* NFT_CHAIN_BASE */
	}
	list_add_tail(&c->list, &t->chains);
	return c;
}

/* rule builder */
struct tm_rb {
	uint8_t buf[4096] __attribute__((aligned(8)));
	uint32_t len;
	uint32_t n;
};

static inline void *tm_add(struct tm_rb *rb, enum expr_type type, size_t priv)
{
	struct expr *e = (struct expr *)(rb->buf + rb->len);

	memset(e, 0, EXPR_SIZE(priv));
	e->type = type;
	e->size = EXPR_SIZE(priv);
	rb->len += e->size;
	rb->n++;
	return expr_priv(e);
}

static inline void tm_payload(struct tm_rb *rb, uint8_t base, uint32_t off,
			      uint32_t len, uint8_t dreg)
{
	struct expr_payload *p = tm_add(rb, EXPR_PAYLOAD, sizeof(*p));

	p->base = base;
	p->offset = off;
	p->len = len;
	p->dreg = dreg;
}

static inline void tm_cmp(struct tm_rb *rb, uint8_t sreg, uint8_t op,
			  const void *data, uint32_t len)
{
	struct expr_cmp *c = tm_add(rb, EXPR_CMP, sizeof(*c));

	c->sreg = sreg;
	c->op = op;
	c->data.len = len;
	memcpy(c->data.v, data, len);
}

static inline void tm_meta(struct tm_rb *rb, uint32_t key, uint8_t dreg,
			   uint32_t len)
{
	struct expr_meta *m = tm_add(rb, EXPR_META, sizeof(*m));

	m->key = key;
	m->dreg = dreg;
	m->len = len;
}

/* ct get: @key (NFT_CT_*) in direction @dir (CT_DIR_NONE: none) -> @dreg */
static inline struct expr_ct *tm_ct(struct tm_rb *rb, uint32_t key,
				    uint8_t dir, uint8_t dreg, uint32_t len)
{
	struct expr_ct *c = tm_add(rb, EXPR_CT, sizeof(*c));

	c->key = key;
	c->dir = dir;
	c->reg = dreg;
	c->len = len;
	return c;
}

static inline void tm_verdict(struct tm_rb *rb, int32_t code, struct chain *to)
{
	struct expr_immediate *im = tm_add(rb, EXPR_IMMEDIATE, sizeof(*im));

	im->dreg = REG_VERDICT;
	im->verdict.code = code;
	im->verdict.chain = to;
}

static inline void tm_imm(struct tm_rb *rb, uint8_t dreg, const void *v,
			  uint32_t len)
{
	struct expr_immediate *im = tm_add(rb, EXPR_IMMEDIATE, sizeof(*im));

	im->dreg = dreg;
	im->data.len = len;
	memcpy(im->data.v, v, len);
}

static inline struct expr_counter *tm_counter(struct tm_rb *rb)
{
	return tm_add(rb, EXPR_COUNTER, sizeof(struct expr_counter));
}

static inline void tm_bitwise(struct tm_rb *rb, uint8_t sreg, uint8_t dreg,
			      uint32_t len, const void *mask, const void *xor)
{
	struct expr_bitwise *b = tm_add(rb, EXPR_BITWISE, sizeof(*b));

	b->sreg = sreg;
	b->dreg = dreg;
	b->len = len;
	b->op = BITWISE_BOOL;
	b->mask.len = b->xor.len = len;
	memcpy(b->mask.v, mask, len);
	memcpy(b->xor.v, xor, len);
}

static inline void tm_shift(struct tm_rb *rb, uint8_t sreg, uint8_t dreg,
			    uint32_t len, uint32_t op, uint32_t shift)
{
	struct expr_bitwise *b = tm_add(rb, EXPR_BITWISE, sizeof(*b));

	b->sreg = sreg;
	b->dreg = dreg;
	b->len = len;
	b->op = op;
	b->shift = shift;
}

static inline void tm_range(struct tm_rb *rb, uint8_t sreg, uint8_t op,
			    const void *from, const void *to, uint32_t len)
{
	struct expr_range *r = tm_add(rb, EXPR_RANGE, sizeof(*r));

	r->sreg = sreg;
	r->op = op;
	r->from.len = r->to.len = len;
	memcpy(r->from.v, from, len);
	memcpy(r->to.v, to, len);
}

static inline void tm_byteorder(struct tm_rb *rb, uint8_t sreg, uint8_t dreg,
				uint8_t op, uint32_t len, uint32_t size)
{
	struct expr_byteorder *b = tm_add(rb, EXPR_BYTEORDER, sizeof(*b));

	b->sreg = sreg;
	b->dreg = dreg;
	b->op = op;
	b->len = len;
	b->size = size;
}

/* sets (include/ruleset.h), new in the next commit */
#define TM_SET_ANON	0x1
#define TM_SET_CONST	0x2
#define TM_SET_INTERVAL	0x4
#define TM_SET_MAP	0x8
#define TM_SET_TIMEOUT	0x10
#define TM_SET_CONCAT	0x80
#define TM_VERDICT	0xffffff00u
#define TM_ELEM_END	0x1
#define TM_ELEM_CATCHALL 0x2

static inline struct set *tm_set(struct table *t, const char *name,
				 uint32_t flags, uint32_t klen)
{
	struct set *s = calloc(1, sizeof(*s));

	s->table = t;
	s->name = strdup(name);
	s->handle = ++t->hgenerator;
	s->genmask = genmask_cur(t->net);
	s->flags = flags;
	s->klen = klen;
	list_init(&s->elems);
	list_add_tail(&s->list, &t->sets);
	return s;
}

/* a map of @dlen bytes of data, or of verdicts (@dtype TM_VERDICT) */
static inline struct set *tm_map(struct table *t, const char *name,
				 uint32_t flags, uint32_t klen, uint32_t dtype,
				 uint32_t dlen)
{
	struct set *s = tm_set(t, name, flags | TM_SET_MAP, klen);

	s->dtype = dtype;
	s->dlen = dtype == TM_VERDICT ? 16 : dlen;
	return s;
}

/* element with @len key bytes (0: catchall), active from the next commit */
static inline struct set_elem *tm_elem(struct set *s, const void *key,
				       uint32_t len, uint32_t flags)
{
	struct set_elem *e = calloc(1, sizeof(*e));

	e->genmask = genmask_cur(s->table->net);
	e->flags = flags | (len ? 0 : TM_ELEM_CATCHALL);
	e->key.len = len;
	memcpy(e->key.v, key, len);
	list_add_tail(&e->list, &s->elems);
	return e;
}

/* 16-bit big-endian key (ports) */
static inline struct set_elem *tm_elem16(struct set *s, uint16_t v,
					 uint32_t flags)
{
	uint8_t k[2] = { v >> 8, v & 0xff };

	return tm_elem(s, k, 2, flags);
}

static inline struct set_elem *tm_elem_verdict(struct set_elem *e, int32_t code,
					       struct chain *to)
{
	e->verdict.code = code;
	e->verdict.chain = to;
	e->has_data = true;
	return e;
}

static inline struct set_elem *tm_elem_data(struct set_elem *e, const void *v,
					    uint32_t len)
{
	e->data.len = len;
	memcpy(e->data.v, v, len);
	e->has_data = true;
	return e;
}

/* a named object of @type (OBJ_TYPE_*), active from the next commit */
static inline struct object *tm_obj(struct table *t, const char *name,
				    uint32_t type)
{
	struct object *o = calloc(1, sizeof(*o));

	o->table = t;
	o->name = strdup(name);
	o->type = type;
	o->handle = ++t->hgenerator;
	o->genmask = genmask_cur(t->net);
	list_add_tail(&o->list, &t->objects);
	return o;
}

/* delete an object in the next commit */
static inline void tm_obj_del(struct object *o)
{
	o->genmask |= genmask_next(o->table->net);
}

/* delete an element in the next commit */
static inline void tm_elem_del(struct set_elem *e, struct set *s)
{
	e->genmask |= genmask_next(s->table->net);
}

static inline void tm_lookup(struct tm_rb *rb, struct set *s, uint8_t sreg,
			     bool invert)
{
	struct expr_lookup *l = tm_add(rb, EXPR_LOOKUP, sizeof(*l));

	l->set = s;
	l->sreg = sreg;
	l->invert = invert;
}

/* dynset @op (DYNSET_OP_*) of the key in @sreg into @s */
static inline void tm_dynset(struct tm_rb *rb, struct set *s, uint8_t op,
			     uint8_t sreg, uint64_t timeout)
{
	struct expr_dynset *d = tm_add(rb, EXPR_DYNSET, sizeof(*d));

	d->set = s;
	d->op = op;
	d->sreg_key = sreg;
	d->timeout = timeout;
}

static inline void tm_lookup_map(struct tm_rb *rb, struct set *s, uint8_t sreg,
				 uint8_t dreg)
{
	struct expr_lookup *l = tm_add(rb, EXPR_LOOKUP, sizeof(*l));

	l->set = s;
	l->sreg = sreg;
	l->dreg = dreg;
	l->has_dreg = true;
}

static inline struct rule *tm_rule_new(struct chain *c, struct tm_rb *rb)
{
	struct rule *r = calloc(1, sizeof(*r));

	r->chain = c;
	r->uid = ruleset_rule_uid();
	r->handle = ++c->table->hgenerator;
	r->genmask = genmask_cur(c->table->net);
	r->dlen = rb->len;
	r->nexprs = rb->n;
	r->exprs = malloc(rb->len ? rb->len : 8);
	memcpy(r->exprs, rb->buf, rb->len);
	memset(rb, 0, sizeof(*rb));
	return r;
}

/* append a rule (active from the next commit on) */
static inline struct rule *tm_rule(struct chain *c, struct tm_rb *rb)
{
	struct rule *r = tm_rule_new(c, rb);

	list_add_tail(&r->list, &c->rules);
	return r;
}

/* delete a rule in the next commit */
static inline void tm_rule_del(struct rule *r)
{
	r->genmask |= genmask_next(r->chain->table->net);
}

static inline void tm_rule_free(struct rule *r)
{
	list_del(&r->list);
	free(r->exprs);
	free(r);
}

/* what the control plane does after dataplane_publish() */
static inline void tm_flip(struct net *net)
{
	struct table *t;
	struct chain *c;
	struct rule *r, *rn;
	struct object *o, *on;

	net->gencursor ^= 1;
	net->base_seq++;
	list_for_each_entry(t, &net->tables, list) {
		struct set *s;
		struct set_elem *e, *en;

		t->genmask = 0;
		list_for_each_entry(s, &t->sets, list) {
			s->genmask = 0;
			list_for_each_entry_safe(e, en, &s->elems, list) {
				if (!active(e->genmask, genmask_cur(net))) {
					list_del(&e->list);
					free(e->exprs);
					free(e);
				} else {
					e->genmask = 0;
				}
			}
		}
		list_for_each_entry(c, &t->chains, list) {
			c->genmask = 0;
			list_for_each_entry_safe(r, rn, &c->rules, list) {
				if (!active(r->genmask, genmask_cur(net)))
					tm_rule_free(r);
				else
					r->genmask = 0;
			}
		}
		list_for_each_entry_safe(o, on, &t->objects, list) {
			if (!active(o->genmask, genmask_cur(net))) {
				list_del(&o->list);
				free(o->name);
				free(o);
			} else {
				o->genmask = 0;
			}
		}
	}
}

/* the control plane's commit; returns prepare's result */
static inline int tm_commit(struct net *net, struct dp_error *err)
{
	int ret;

	memset(err, 0, sizeof(*err));
	ret = dataplane_prepare(net, err);
	if (ret)
		return ret;
	dataplane_publish(net);
	tm_flip(net);
	return 0;
}

static inline void tm_commit_ok(struct net *net)
{
	struct dp_error err;
	int ret = tm_commit(net, &err);

	cr_assert_eq(ret, 0, "commit: %d %s", ret, err.msg ? err.msg : "");
}

/* BPF_PROG_TEST_RUN of @base's link program; returns the verdict */
static inline int tm_run(struct net *net, struct chain *base, uint8_t pf,
			 uint8_t hook, const void *pkt, uint32_t len)
{
	uint8_t ctx[48] = { 0 };	/* struct nf_hook_state: hook, pf */
	int fd = offload_chain_prog(net, base, pf), ret;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len,
		    .ctx_in = ctx, .ctx_size_in = sizeof(ctx));

	ctx[0] = hook;
	ctx[1] = pf;
	cr_assert_geq(fd, 0, "no program for chain %s", base->name);
	ret = bpf_prog_test_run_opts(fd, &o);
	cr_assert_eq(ret, 0, "test run: %s", strerror(errno));
	return (int)o.retval;
}

/* packets: IPv4/IPv6 + TCP/UDP, headers only (no L2: LOCAL_OUT test runs) */
static inline uint32_t tm_ip4(uint8_t *b, uint8_t proto, uint16_t sport,
			      uint16_t dport, uint16_t frag_off)
{
	uint32_t tl = proto == 6 ? 20 : 8;

	memset(b, 0, 20 + tl + 8);
	b[0] = 0x45;
	b[2] = 0;
	b[3] = 20 + tl + 8;
	b[6] = frag_off >> 8;
	b[7] = frag_off & 0xff;
	b[8] = 64;
	b[9] = proto;
	b[12] = 10; b[13] = 0; b[14] = 0; b[15] = 1;
	b[16] = 10; b[17] = 0; b[18] = 0; b[19] = 2;
	b[20] = sport >> 8; b[21] = sport & 0xff;
	b[22] = dport >> 8; b[23] = dport & 0xff;
	if (proto == 6)
		b[32] = 5 << 4;
	return 20 + tl + 8;
}

/* BPF_PROG_TEST_RUN of @base's link program on two CPUs at once */
struct tm_par {
	int fd;
	int cpu;
	uint32_t repeat;
	uint8_t ctx[48];
	const void *pkt;
	uint32_t len;
	pthread_barrier_t *start;
	int ret;
};

static inline void *tm_par_run(void *arg)
{
	struct tm_par *h = arg;
	cpu_set_t set;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = h->pkt,
		    .data_size_in = h->len, .ctx_in = h->ctx,
		    .ctx_size_in = sizeof(h->ctx), .repeat = h->repeat);

	CPU_ZERO(&set);
	CPU_SET(h->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	pthread_barrier_wait(h->start);
	h->ret = bpf_prog_test_run_opts(h->fd, &o) ? -errno : 0;
	return NULL;
}

/* run the packet @repeat times on CPU 0 and as often on CPU 1, started
 * together (shared state: limit buckets, quota bytes); link -lpthread */
static inline void tm_run_two_cpus(struct net *net, struct chain *base,
				   uint8_t pf, uint8_t hook, const void *pkt,
				   uint32_t len, uint32_t repeat)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_barrier_t start;
	struct tm_par h[2];
	pthread_t th[2];
	int i;

	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++) {
		memset(&h[i], 0, sizeof(h[i]));
		h[i].fd = offload_chain_prog(net, base, pf);
		cr_assert_geq(h[i].fd, 0, "no program for chain %s", base->name);
		h[i].cpu = ncpu > 1 ? i : 0;
		h[i].repeat = repeat;
		h[i].ctx[0] = hook;
		h[i].ctx[1] = pf;
		h[i].pkt = pkt;
		h[i].len = len;
		h[i].start = &start;
		pthread_create(&th[i], NULL, tm_par_run, &h[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++)
		cr_assert_eq(h[i].ret, 0, "test run: %s", strerror(-h[i].ret));
}

/*
 * TM_FIXTURE - the fixture most test files share: statics net, t (table
 * "t" of @family), base (chain "out" at the output hook with @policy) and
 * pkt (an IPv4 UDP datagram 1000 -> 53, plen bytes), made in a scratch
 * namespace by setup() before each test of criterion suite @suite;
 * teardown() frees the namespace's dataplane. Further arguments are more
 * TestSuite() options (.timeout = ...).
 */
#define TM_FIXTURE(suite, family, policy, ...)				\
	static struct net net;						\
	static struct table *t;						\
	static struct chain *base;					\
	static uint8_t pkt[128];					\
	static uint32_t plen;						\
									\
	static void setup(void)						\
	{								\
		tm_net_init(&net, tm_scratch_netns());			\
		t = tm_table(&net, "t", family);			\
		base = tm_chain(t, "out", HOOK_OUT, 0, policy);		\
		plen = tm_ip4(pkt, 17, 1000, 53, 0);			\
	}								\
									\
	static void teardown(void)					\
	{								\
		dataplane_net_free(&net);				\
	}								\
									\
	TestSuite(suite, .init = setup, .fini = teardown, ##__VA_ARGS__)

#endif /* NFBPF_TESTS_MODEL_H */
