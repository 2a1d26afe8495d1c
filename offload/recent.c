// SPDX-License-Identifier: GPL-2.0-only
/*
 * recent.c - the tables of the xt recent match (codegen/xt/recent.c) of
 * one namespace: one value of a HASH map per table name, with a
 * bpf_spin_lock (the map carries BTF for it).
 *
 * Lifetime, as recent_mt_check() / recent_mt_destroy() give it:
 *  - a rule naming a table that does not exist creates it, empty, with
 *    the rule's mask (revision 0: all ones) and the rule's nstamps mask;
 *    a rule whose nstamps mask is larger than the table's flushes the
 *    table and takes its mask (dp_recent_rule(), at prepare: the kernel
 *    does both while the batch is processed, aborted or not);
 *  - a table no rule of the live generation names any more is deleted
 *    (dp_recent_sweep() after a publish or an abort, once no packet of
 *    the generation before runs), as the last rule's destroy frees it.
 * The kernel runs checkentry in the order of the batch's messages; the
 * daemon creates tables in the order it meets new rules (chain order).
 * That differs only when one batch adds, for a table that does not exist
 * yet, rules with different --mask: the table then takes the mask of the
 * first one in chain order.
 *
 * /proc/net/xt_recent/NAME (reading or writing a table) is the kernel's
 * own: nfbpf's tables live in BPF maps and have no proc file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "offload/offload.h"
#include "ruleset.h"
#include "ruleset_api.h"
#include "expr/xt.h"

#define RECENT_TABLES_MAX	1024
#define NAME_LEN		200
#define I_HITS			4
#define I_NAME			10
#define I_MASK			212

struct dp_recent_tbl {
	uint64_t key;
	char name[NAME_LEN + 1];
	uint32_t nstamps_mask;
	bool seen;
};

/**
 * struct dp_recent - the recent tables of one namespace
 * @fd: the map (-1 until the first rule naming a table)
 * @n: entries per table (ip_list_tot)
 * @pkt_tot: ip_pkt_list_tot
 * @tbls: the tables the map holds
 */
struct dp_recent {
	int fd;
	uint32_t n;
	uint32_t pkt_tot;
	struct dp_recent_tbl *tbls;
	uint32_t ntbls, captbls;
};

/* a module parameter of xt_recent, @def if the module is not loaded */
static uint32_t param(const char *name, uint32_t def)
{
	char path[128];
	unsigned int v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/xt_recent/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return def;
	if (fscanf(f, "%u", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

struct dp_recent *dp_recent_new(void)
{
	struct dp_recent *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return NULL;
	rc->fd = -1;
	rc->n = param("ip_list_tot", 100);
	rc->pkt_tot = param("ip_pkt_list_tot", 0);
	return rc;
}

void dp_recent_free(struct dp_recent *rc)
{
	if (!rc)
		return;
	if (rc->fd >= 0)
		close(rc->fd);
	free(rc->tbls);
	free(rc);
}

static size_t value_size(const struct dp_recent *rc)
{
	return sizeof(struct codegen_recent_head) +
	       (size_t)rc->n * sizeof(struct codegen_recent_ent);
}

int offload_lock_map_create(const char *name, uint32_t ksize, uint32_t vsize,
			    uint32_t max)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	struct btf *btf = btf__new_empty();
	int int_id, key_id, u8_id, lock_id, arr_id, val_id, fd, ret;

	if (!btf)
		return -ENOMEM;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u8_id = btf__add_int(btf, "unsigned char", 1, 0);
	key_id = u8_id < 0 ? u8_id : btf__add_array(btf, int_id, u8_id, ksize);
	lock_id = btf__add_struct(btf, "bpf_spin_lock", 4);
	if (int_id < 0 || key_id < 0 || u8_id < 0 || lock_id < 0 ||
	    btf__add_field(btf, "val", int_id, 0, 0)) {
		ret = -ENOMEM;
		goto out_free_btf;
	}
	arr_id = btf__add_array(btf, int_id, u8_id, vsize - 4);
	val_id = btf__add_struct(btf, "nfbpf_locked", vsize);
	if (arr_id < 0 || val_id < 0 ||
	    btf__add_field(btf, "lock", lock_id, 0, 0) ||
	    btf__add_field(btf, "b", arr_id, 32, 0)) {
		ret = -ENOMEM;
		goto out_free_btf;
	}
	if (btf__load_into_kernel(btf)) {
		ret = -errno;
		goto out_free_btf;
	}
	opts.btf_fd = btf__fd(btf);
	opts.btf_key_type_id = key_id;
	opts.btf_value_type_id = val_id;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, name, ksize, vsize, max, &opts);
	ret = fd < 0 ? -errno : fd;
out_free_btf:
	btf__free(btf);
	return ret;
}

/* the map: key u64, value { struct bpf_spin_lock lock; u8 b[] } */
static int map_create(struct dp_recent *rc)
{
	int fd = offload_lock_map_create("nfbpf_recent", 8, value_size(rc),
					 RECENT_TABLES_MAX);

	if (fd < 0)
		return fd;
	rc->fd = fd;
	return 0;
}

/* roundup_pow_of_two(@v) - 1 for @v >= 1 */
static uint32_t pow2_mask(uint32_t v)
{
	uint32_t m = 1;

	while (m < v)
		m <<= 1;
	return m - 1;
}

/* write an empty table (mask @mask, nstamps mask @nmask) under @flags */
static int table_write(struct dp_recent *rc, uint64_t key, const uint8_t *mask,
		       uint32_t nmask, uint64_t flags)
{
	struct codegen_recent_head *h = calloc(1, value_size(rc));
	int ret;

	if (!h)
		return -ENOMEM;
	memcpy(h->mask, mask, 16);
	h->nstamps_mask = nmask;
	ret = bpf_map_update_elem(rc->fd, &key, h, flags) ? -errno : 0;
	free(h);
	return ret;
}

static struct dp_recent_tbl *tbl_find(struct dp_recent *rc, uint64_t key)
{
	uint32_t i;

	for (i = 0; i < rc->ntbls; i++)
		if (rc->tbls[i].key == key)
			return &rc->tbls[i];
	return NULL;
}

/* recent_mt_check() for the recent match @x */
static int match_check(struct dp_recent *rc, const struct expr_xt *x,
		       struct dp_error *err)
{
	struct dp_recent_tbl *t;
	uint8_t mask[16];
	uint32_t hits, nmask;
	uint64_t key;
	char name[NAME_LEN + 1];
	int ret;

	memcpy(name, x->info + I_NAME, NAME_LEN);
	name[NAME_LEN] = 0;
	memcpy(&hits, x->info + I_HITS, 4);
	if (x->rev >= 1)
		memcpy(mask, x->info + I_MASK, 16);
	else
		memset(mask, 0xff, 16);
	if (rc->pkt_tot && hits < rc->pkt_tot)
		nmask = pow2_mask(rc->pkt_tot);
	else if (hits)
		nmask = pow2_mask(hits);
	else
		nmask = 32 - 1;
	if (nmask >= RECENT_STAMPS || !rc->n || rc->n > RECENT_ENTRIES_MAX) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt match 'recent': %u timestamps or %u entries per table (ip_list_tot) are not supported by the nfbpf dataplane",
			 nmask + 1, rc->n);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (rc->fd < 0 && (ret = map_create(rc))) {
		err->msg = "cannot create the nfbpf xt recent map";
		return ret;
	}
	key = codegen_recent_hash(name);
	t = tbl_find(rc, key);
	if (t && strcmp(t->name, name)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt match 'recent': table names '%.40s' and '%.40s' collide in the nfbpf dataplane",
			 t->name, name);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (t) {
		if (nmask <= t->nstamps_mask)
			return 0;
		/* a larger nstamps mask flushes the table (mask kept) */
		memset(mask, 0, 16);
		{
			struct codegen_recent_head *h = calloc(1, value_size(rc));

			if (!h)
				return -ENOMEM;
			ret = bpf_map_lookup_elem(rc->fd, &key, h) ? -errno : 0;
			if (!ret)
				memcpy(mask, h->mask, 16);
			free(h);
			if (ret)
				return ret;
		}
		ret = table_write(rc, key, mask, nmask, BPF_EXIST | BPF_F_LOCK);
		if (ret)
			return ret;
		t->nstamps_mask = nmask;
		return 0;
	}
	if (rc->ntbls == rc->captbls) {
		uint32_t ncap = rc->captbls ? 2 * rc->captbls : 8;
		void *m = realloc(rc->tbls, ncap * sizeof(*rc->tbls));

		if (!m)
			return -ENOMEM;
		rc->tbls = m;
		rc->captbls = ncap;
	}
	ret = table_write(rc, key, mask, nmask, BPF_NOEXIST);
	if (ret) {
		if (ret == -E2BIG)
			err->msg = "nfbpf xt recent map is full (tables)";
		return ret;
	}
	t = &rc->tbls[rc->ntbls++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	memcpy(t->name, name, sizeof(t->name));
	t->nstamps_mask = nmask;
	return 0;
}

static bool is_recent(const struct expr *e)
{
	const struct expr_xt *x;

	if (e->type != EXPR_MATCH)
		return false;
	x = expr_priv(e);
	return !strcmp(x->name, "recent") && x->rev <= 1;
}

int dp_recent_rule(struct dp_recent *rc, const struct rule *rule,
		   struct codegen_env *env, struct dp_error *err)
{
	const struct expr *e;
	int ret;

	rule_for_each_expr(e, rule) {
		if (!is_recent(e))
			continue;
		ret = match_check(rc, expr_priv(e), err);
		if (ret)
			return ret;
		env->recent_fd = rc->fd;
		env->recent_n = rc->n;
	}
	return 0;
}

/* ruleset_each_expr() callback: mark the table a recent match names */
static void recent_seen(void *arg, const struct expr *e)
{
	struct dp_recent *rc = arg;
	const struct expr_xt *x;
	struct dp_recent_tbl *t;
	char name[NAME_LEN + 1];

	if (!is_recent(e))
		return;
	x = expr_priv(e);
	memcpy(name, x->info + I_NAME, NAME_LEN);
	name[NAME_LEN] = 0;
	t = tbl_find(rc, codegen_recent_hash(name));
	if (t)
		t->seen = true;
}

void dp_recent_sweep(struct dp_recent *rc, struct net *net, uint8_t genmask)
{
	bool gone = false;
	uint32_t i, j;

	if (!rc || !rc->ntbls)
		return;
	for (i = 0; i < rc->ntbls; i++)
		rc->tbls[i].seen = false;
	ruleset_each_expr(net, genmask, recent_seen, rc);
	for (i = 0; i < rc->ntbls; i++)
		gone |= !rc->tbls[i].seen;
	if (!gone)
		return;
	/* packets of the generation before may still run a rule naming
	 * the table: they finish first (as destroy follows the commit's
	 * grace period in the kernel) */
	offload_grace_wait(offload_grace_request());
	for (i = j = 0; i < rc->ntbls; i++) {
		if (!rc->tbls[i].seen) {
			bpf_map_delete_elem(rc->fd, &rc->tbls[i].key);
			continue;
		}
		rc->tbls[j++] = rc->tbls[i];
	}
	rc->ntbls = j;
}
