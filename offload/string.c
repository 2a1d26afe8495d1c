// SPDX-License-Identifier: GPL-2.0-only
/*
 * string.c - the automata of the xt string match (codegen/xt/string.c)
 * of one namespace: one value of a HASH map per (pattern, --icase),
 * keyed by codegen_string_key(), shared by every rule searching for it.
 *
 * The kernel prepares a pattern's textsearch config in the match's
 * checkentry and frees it with the rule; here dp_string_rule() builds the
 * automaton of each string match of a rule new to the dataplane (at
 * prepare, before its shape is compiled) unless the map holds it already,
 * and dp_string_sweep() deletes the automata no rule of the live
 * generation searches for (after a publish or an abort, once no packet
 * of the generation before runs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "offload/offload.h"
#include "ruleset.h"
#include "ruleset_api.h"
#include "expr/xt.h"

#define STRING_TABLES_MAX	4096
#define I_PATTERN		20
#define I_PATLEN		148
#define I_FLAGS			149
#define F_ICASE			0x02

struct dp_string_tbl {
	uint64_t key;
	uint8_t pattern[STRING_PATLEN_MAX];
	uint8_t patlen;
	bool icase;
	bool seen;
};

/**
 * struct dp_string - the automata of one namespace
 * @fd: the map (-1 until the first string match)
 * @tbls: the automata the map holds
 */
struct dp_string {
	int fd;
	struct dp_string_tbl *tbls;
	uint32_t ntbls, captbls;
};

struct dp_string *dp_string_new(void)
{
	struct dp_string *ds = calloc(1, sizeof(*ds));

	if (ds)
		ds->fd = -1;
	return ds;
}

void dp_string_free(struct dp_string *ds)
{
	if (!ds)
		return;
	if (ds->fd >= 0)
		close(ds->fd);
	free(ds->tbls);
	free(ds);
}

static bool is_string(const struct expr *e)
{
	const struct expr_xt *x;

	if (e->type != EXPR_MATCH)
		return false;
	x = expr_priv(e);
	return !strcmp(x->name, "string") && x->rev == 1 && x->len > I_FLAGS;
}

static struct dp_string_tbl *tbl_find(struct dp_string *ds, uint64_t key)
{
	uint32_t i;

	for (i = 0; i < ds->ntbls; i++)
		if (ds->tbls[i].key == key)
			return &ds->tbls[i];
	return NULL;
}

/* the automaton of string match @x in the map */
static int match_add(struct dp_string *ds, const struct expr_xt *x,
		     struct dp_error *err)
{
	const uint8_t *pat = x->info + I_PATTERN;
	uint8_t patlen = x->info[I_PATLEN];
	bool icase = x->info[I_FLAGS] & F_ICASE;
	struct codegen_string_table *val;
	struct dp_string_tbl *t;
	uint64_t key;
	int ret;

	if (!patlen || patlen > STRING_PATLEN_MAX)
		return 0;	/* refused by codegen_rule_check() */
	key = codegen_string_key(pat, patlen, icase);
	t = tbl_find(ds, key);
	if (t) {
		if (t->patlen == patlen && t->icase == icase &&
		    !memcmp(t->pattern, pat, patlen))
			return 0;
		err->msg = "xt match 'string': two patterns collide in the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	if (ds->fd < 0) {
		LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
		int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "nfbpf_string", 8,
					sizeof(struct codegen_string_table),
					STRING_TABLES_MAX, &opts);

		if (fd < 0) {
			err->msg = "cannot create the nfbpf xt string map";
			return -errno;
		}
		ds->fd = fd;
	}
	if (ds->ntbls == ds->captbls) {
		uint32_t ncap = ds->captbls ? 2 * ds->captbls : 8;
		void *m = realloc(ds->tbls, ncap * sizeof(*ds->tbls));

		if (!m)
			return -ENOMEM;
		ds->tbls = m;
		ds->captbls = ncap;
	}
	val = malloc(sizeof(*val));
	if (!val)
		return -ENOMEM;
	codegen_string_build(val, pat, patlen, icase);
	ret = bpf_map_update_elem(ds->fd, &key, val, BPF_NOEXIST) ? -errno : 0;
	free(val);
	if (ret) {
		if (ret == -E2BIG)
			err->msg = "nfbpf xt string map is full (patterns)";
		return ret;
	}
	t = &ds->tbls[ds->ntbls++];
	memset(t, 0, sizeof(*t));
	t->key = key;
	memcpy(t->pattern, pat, patlen);
	t->patlen = patlen;
	t->icase = icase;
	return 0;
}

int dp_string_rule(struct dp_string *ds, const struct rule *rule,
		   struct codegen_env *env, struct dp_error *err)
{
	const struct expr *e;
	int ret;

	rule_for_each_expr(e, rule) {
		if (!is_string(e))
			continue;
		ret = match_add(ds, expr_priv(e), err);
		if (ret)
			return ret;
		env->string_fd = ds->fd;
	}
	return 0;
}

/* ruleset_each_expr() callback: mark the automaton a string match uses */
static void string_seen(void *arg, const struct expr *e)
{
	struct dp_string *ds = arg;
	const struct expr_xt *x;
	struct dp_string_tbl *t;

	if (!is_string(e))
		return;
	x = expr_priv(e);
	t = tbl_find(ds, codegen_string_key(x->info + I_PATTERN, x->info[I_PATLEN],
					    x->info[I_FLAGS] & F_ICASE));
	if (t)
		t->seen = true;
}

void dp_string_sweep(struct dp_string *ds, struct net *net, uint8_t genmask)
{
	bool gone = false;
	uint32_t i, j;

	if (!ds || !ds->ntbls)
		return;
	for (i = 0; i < ds->ntbls; i++)
		ds->tbls[i].seen = false;
	ruleset_each_expr(net, genmask, string_seen, ds);
	for (i = 0; i < ds->ntbls; i++)
		gone |= !ds->tbls[i].seen;
	if (!gone)
		return;
	/* packets of the generation before may still search for it */
	offload_grace_wait(offload_grace_request());
	for (i = j = 0; i < ds->ntbls; i++) {
		if (!ds->tbls[i].seen) {
			bpf_map_delete_elem(ds->fd, &ds->tbls[i].key);
			continue;
		}
		ds->tbls[j++] = ds->tbls[i];
	}
	ds->ntbls = j;
}
