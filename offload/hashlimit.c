// SPDX-License-Identifier: GPL-2.0-only
/*
 * hashlimit.c - the tables of the xt hashlimit match (codegen/xt/
 * hashlimit.c) of one namespace.
 *
 * Lifetime, as hashlimit_mt_check_common() / htable_put() give it: a rule
 * naming a table (name and family) that does not exist creates it from
 * the rule's configuration (htable_create(): size from the machine's
 * memory when 0, max 8 * size when 0 or at least size); later rules
 * share it whatever their own configuration says. A table no rule of the
 * live generation names goes, with its entries (dp_hl_sweep(), as
 * recent.c does). Entries expire as htable_gc() frees them: nfbpfd's
 * collector (dp_hl_gc()) runs once a second, the default
 * --hashlimit-htable-gcinterval; a table with another interval is still
 * collected each second (when an expired entry goes is the only
 * difference: until then its credit refills as the kernel's does).
 *
 * One table is one revision's: rules of revision 1 and of 2/3 (whose
 * credits per jiffy differ) naming the same table are refused. The rate
 * match mode is refused by codegen. /proc/net/ipt_hashlimit/NAME is the
 * kernel's own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/netfilter/xt_hashlimit.h>

#include "offload/offload.h"
#include "ruleset.h"
#include "ruleset_api.h"
#include "expr/xt.h"

#define HL_ENTRIES_MAX	(1u << 20)
#define NFPROTO_IPV4_	2

struct dp_hl_tbl {
	uint64_t key;
	char name[NAME_MAX + 1];
	uint8_t family;
	bool rev1;
	bool seen;
	uint32_t slot;
};

/**
 * struct dp_hl - the hashlimit tables of one namespace
 * @table_fd: the tables (-1 until the first rule naming one)
 * @ent_fd: their entries
 * @count_fd: their entry counts (mmapable ARRAY)
 * @counts: its mapping
 * @tbls: the tables the maps hold
 * @slots: count slots in use
 */
struct dp_hl {
	int table_fd, ent_fd, count_fd;
	uint64_t *counts;
	struct dp_hl_tbl *tbls;
	uint32_t ntbls, captbls;
	uint8_t slots[HL_TABLES_MAX];
};

struct dp_hl *dp_hl_new(void)
{
	struct dp_hl *hl = calloc(1, sizeof(*hl));

	if (!hl)
		return NULL;
	hl->table_fd = hl->ent_fd = hl->count_fd = -1;
	return hl;
}

void dp_hl_free(struct dp_hl *hl)
{
	if (!hl)
		return;
	if (hl->counts)
		munmap(hl->counts, HL_TABLES_MAX * sizeof(uint64_t));
	if (hl->table_fd >= 0)
		close(hl->table_fd);
	if (hl->ent_fd >= 0)
		close(hl->ent_fd);
	if (hl->count_fd >= 0)
		close(hl->count_fd);
	free(hl->tbls);
	free(hl);
}

static int maps_create(struct dp_hl *hl)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);
	void *m;

	hl->table_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "nfbpf_hl_tables", 8,
				      sizeof(struct codegen_hl_table),
				      HL_TABLES_MAX, NULL);
	if (hl->table_fd < 0)
		return -errno;
	hl->ent_fd = offload_lock_map_create("nfbpf_hl_ents",
					     sizeof(struct codegen_hl_key),
					     sizeof(struct codegen_hl_ent),
					     HL_ENTRIES_MAX);
	if (hl->ent_fd < 0)
		return hl->ent_fd;
	hl->count_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_hl_count", 4,
				      sizeof(uint64_t), HL_TABLES_MAX, &mmapable);
	if (hl->count_fd < 0)
		return -errno;
	m = mmap(NULL, HL_TABLES_MAX * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		 MAP_SHARED, hl->count_fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	hl->counts = m;
	return 0;
}

/* the highest power of two <= @x (POW2_BELOW64/32) */
static uint64_t pow2_below(uint64_t x)
{
	uint64_t p = 1;

	while (x >>= 1)
		p <<= 1;
	return p;
}

/* user2credits() */
static uint64_t user2credits(uint64_t user, bool rev1, uint64_t hz,
			     uint64_t cpj)
{
	uint64_t scale = rev1 ? XT_HASHLIMIT_SCALE : XT_HASHLIMIT_SCALE_v2;

	if (scale >= hz * cpj)
		return user / (scale / (hz * cpj));
	return user * ((hz * cpj) / scale);
}

/* mask of prefix @l of @len bytes, network order */
static void prefix_mask(uint8_t *m, unsigned int l)
{
	unsigned int i;

	memset(m, 0, 16);
	for (i = 0; i < 16 && l; i++) {
		unsigned int b = l >= 8 ? 8 : l;

		m[i] = (uint8_t)(0xff << (8 - b));
		l -= b;
	}
}

/* the fields every revision's hashlimit_cfg has, into a hashlimit_cfg3 */
#define CFG_COPY(c, cfg) do {						\
	(c)->mode = (cfg).mode;						\
	(c)->avg = (cfg).avg;						\
	(c)->burst = (cfg).burst;					\
	(c)->size = (cfg).size;						\
	(c)->max = (cfg).max;						\
	(c)->gc_interval = (cfg).gc_interval;				\
	(c)->expire = (cfg).expire;					\
	(c)->srcmask = (cfg).srcmask;					\
	(c)->dstmask = (cfg).dstmask;					\
} while (0)

/* the rule's cfg as struct hashlimit_cfg3, its name */
static void rule_cfg(const struct expr_xt *x, struct hashlimit_cfg3 *c,
		     char *name)
{
	memset(c, 0, sizeof(*c));
	if (x->rev == 1) {
		struct xt_hashlimit_mtinfo1 i;

		memcpy(&i, x->info, offsetof(struct xt_hashlimit_mtinfo1, hinfo));
		CFG_COPY(c, i.cfg);
		memcpy(name, i.name, IFNAMSIZ);
		name[IFNAMSIZ - 1] = 0;
	} else if (x->rev == 2) {
		struct xt_hashlimit_mtinfo2 i;

		memcpy(&i, x->info, offsetof(struct xt_hashlimit_mtinfo2, hinfo));
		CFG_COPY(c, i.cfg);
		memcpy(name, i.name, NAME_MAX);
		name[NAME_MAX] = 0;
	} else {
		memcpy(c, x->info + offsetof(struct xt_hashlimit_mtinfo3, cfg),
		       sizeof(*c));
		memcpy(name, x->info, NAME_MAX);
		name[NAME_MAX] = 0;
	}
}

/* htable_create() + rateinfo_init(): the table value of @c */
static int table_value(const struct hashlimit_cfg3 *c, bool rev1,
		       struct codegen_hl_table *t, struct dp_error *err)
{
	uint64_t hz = dataplane_hz(), size;
	struct sysinfo si;

	if (!hz || 1000 % hz) {
		err->msg = "xt match 'hashlimit': the kernel's HZ is unknown to nfbpfd";
		return -EOPNOTSUPP;
	}
	memset(t, 0, sizeof(*t));
	size = c->size;
	if (!size) {
		uint64_t pages, psz = (uint64_t)sysconf(_SC_PAGESIZE);

		if (sysinfo(&si))
			return -errno;
		pages = (uint64_t)si.totalram * si.mem_unit / psz;
		size = pages * psz / 16384 / sizeof(void *);
		if (pages > 1024ull * 1024 * 1024 / psz)
			size = 8192;
		if (size < 16)
			size = 16;
	}
	t->mode = c->mode;
	t->max = c->max ? c->max : 8 * size;
	if (t->max < size)
		t->max = size;
	t->expire = (c->expire + 1000 / hz - 1) / (1000 / hz);
	t->cpj = rev1 ? pow2_below(0xFFFFFFFFull / (hz * 60 * 60 * 24)) :
			pow2_below(0xFFFFFFFFFFFFFFFFull / (hz * 60 * 60 * 24));
	prefix_mask(t->srcmask, c->srcmask);
	prefix_mask(t->dstmask, c->dstmask);
	/* packets (byte mode is refused by codegen) */
	t->tmpl.credit = user2credits(c->avg * c->burst, rev1, hz, t->cpj);
	t->tmpl.cost = user2credits(c->avg, rev1, hz, t->cpj);
	t->tmpl.credit_cap = t->tmpl.credit;
	return 0;
}

static struct dp_hl_tbl *tbl_find(struct dp_hl *hl, uint64_t key)
{
	uint32_t i;

	for (i = 0; i < hl->ntbls; i++)
		if (hl->tbls[i].key == key)
			return &hl->tbls[i];
	return NULL;
}

static int match_check(struct dp_hl *hl, const struct expr_xt *x,
		       struct dp_error *err)
{
	char name[NAME_MAX + 1];
	struct hashlimit_cfg3 c;
	struct codegen_hl_table tv;
	struct dp_hl_tbl *t;
	uint64_t key;
	uint32_t slot;
	int ret;

	rule_cfg(x, &c, name);
	key = codegen_hl_key(name, x->family);
	t = tbl_find(hl, key);
	if (t) {
		if (strcmp(t->name, name) || t->family != x->family) {
			err->msg = "xt match 'hashlimit': two table names collide in the nfbpf dataplane";
			return -EOPNOTSUPP;
		}
		if (t->rev1 != (x->rev == 1)) {
			err->msg = "xt match 'hashlimit': revision 1 and later revisions sharing one table are not supported by the nfbpf dataplane";
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (hl->table_fd < 0 && (ret = maps_create(hl))) {
		err->msg = "cannot create the nfbpf xt hashlimit maps";
		return ret;
	}
	for (slot = 0; slot < HL_TABLES_MAX && hl->slots[slot]; slot++)
		;
	if (slot == HL_TABLES_MAX) {
		err->msg = "nfbpf xt hashlimit map is full (tables)";
		return -ENOSPC;
	}
	ret = table_value(&c, x->rev == 1, &tv, err);
	if (ret)
		return ret;
	tv.slot = slot;
	if (hl->ntbls == hl->captbls) {
		uint32_t ncap = hl->captbls ? 2 * hl->captbls : 8;
		void *m = realloc(hl->tbls, ncap * sizeof(*hl->tbls));

		if (!m)
			return -ENOMEM;
		hl->tbls = m;
		hl->captbls = ncap;
	}
	__atomic_store_n(&hl->counts[slot], 0, __ATOMIC_RELAXED);
	if (bpf_map_update_elem(hl->table_fd, &key, &tv, BPF_NOEXIST))
		return -errno;
	hl->slots[slot] = 1;
	t = &hl->tbls[hl->ntbls++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	memcpy(t->name, name, sizeof(t->name));
	t->family = x->family;
	t->rev1 = x->rev == 1;
	t->slot = slot;
	return 0;
}

static bool is_hl(const struct expr *e)
{
	const struct expr_xt *x;

	if (e->type != EXPR_MATCH)
		return false;
	x = expr_priv(e);
	return !strcmp(x->name, "hashlimit") && x->rev >= 1 && x->rev <= 3;
}

int dp_hl_rule(struct dp_hl *hl, const struct rule *rule,
	       struct codegen_env *env, struct dp_error *err)
{
	const struct expr *e;
	int ret;

	rule_for_each_expr(e, rule) {
		if (!is_hl(e))
			continue;
		ret = match_check(hl, expr_priv(e), err);
		if (ret)
			return ret;
		env->hl_table_fd = hl->table_fd;
		env->hl_ent_fd = hl->ent_fd;
		env->hl_count_fd = hl->count_fd;
	}
	return 0;
}

/*
 * delete the expired entries (@expired_only), else those of the tables
 * not seen: the keys are collected first, then deleted (deleting while
 * walking would restart the walk)
 */
static void ents_delete(struct dp_hl *hl, bool expired_only)
{
	struct codegen_hl_key k, *dead = NULL;
	struct codegen_hl_ent v;
	uint32_t n = 0, cap = 0, i;
	uint64_t now = 0;
	bool first = true;

	if (expired_only && dataplane_jiffies(&now))
		return;
	while (!bpf_map_get_next_key(hl->ent_fd, first ? NULL : &k, &k)) {
		struct dp_hl_tbl *t = tbl_find(hl, k.table);
		bool drop;

		first = false;
		if (bpf_map_lookup_elem(hl->ent_fd, &k, &v))
			continue;
		if (!t)
			drop = true;
		else if (expired_only)
			/* select_gc(): time_after_eq(jiffies, expires); an
			 * entry no packet initialised yet stays */
			drop = v.prev && (int64_t)(now - v.expires) >= 0;
		else
			drop = !t->seen;
		if (!drop)
			continue;
		if (n == cap) {
			uint32_t ncap = cap ? 2 * cap : 64;
			void *m = realloc(dead, ncap * sizeof(*dead));

			if (!m)
				break;
			dead = m;
			cap = ncap;
		}
		dead[n++] = k;
	}
	for (i = 0; i < n; i++) {
		struct dp_hl_tbl *t = tbl_find(hl, dead[i].table);

		if (bpf_map_delete_elem(hl->ent_fd, &dead[i]))
			continue;
		if (t)
			__atomic_fetch_sub(&hl->counts[t->slot], 1, __ATOMIC_RELAXED);
	}
	free(dead);
}

void dp_hl_gc(struct dp_hl *hl)
{
	if (!hl || hl->ent_fd < 0 || !hl->ntbls)
		return;
	ents_delete(hl, true);
}

/* ruleset_each_expr() callback: mark the table a hashlimit match names */
static void hl_seen(void *arg, const struct expr *e)
{
	struct hashlimit_cfg3 cfg;
	char name[NAME_MAX + 1];
	struct dp_hl *hl = arg;
	struct dp_hl_tbl *t;
	const struct expr_xt *x;

	if (!is_hl(e))
		return;
	x = expr_priv(e);
	rule_cfg(x, &cfg, name);
	t = tbl_find(hl, codegen_hl_key(name, x->family));
	if (t)
		t->seen = true;
}

void dp_hl_sweep(struct dp_hl *hl, struct net *net, uint8_t genmask)
{
	bool gone = false;
	uint32_t i, j;

	if (!hl || !hl->ntbls)
		return;
	for (i = 0; i < hl->ntbls; i++)
		hl->tbls[i].seen = false;
	ruleset_each_expr(net, genmask, hl_seen, hl);
	for (i = 0; i < hl->ntbls; i++)
		gone |= !hl->tbls[i].seen;
	if (!gone)
		return;
	offload_grace_wait(offload_grace_request());
	for (i = 0; i < hl->ntbls; i++)
		if (!hl->tbls[i].seen)
			bpf_map_delete_elem(hl->table_fd, &hl->tbls[i].key);
	ents_delete(hl, false);
	for (i = j = 0; i < hl->ntbls; i++) {
		if (!hl->tbls[i].seen) {
			hl->slots[hl->tbls[i].slot] = 0;
			continue;
		}
		hl->tbls[j++] = hl->tbls[i];
	}
	hl->ntbls = j;
}
