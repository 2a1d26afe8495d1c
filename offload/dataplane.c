// SPDX-License-Identifier: GPL-2.0-only
/*
 * dataplane.c - include/dataplane.h on BPF: rule map entries, shapes,
 * walker programs, netfilter links, generations.
 *
 * Per namespace: one rule map (struct codegen_entry per rule and per chain
 * head, written through a shared mapping), one per-CPU counter map, one
 * state map (a u64 per stateful expression such as limit and quota, shared
 * by all CPUs, also mapped), one generation word, one prog array. Per hook
 * point (pf, hook, priority): one permanent trampoline program + netfilter link (never updated: the
 * kernel refuses; a second link there is EBUSY), tail-calling the walker
 * of the base chains registered there in its prog array slot.
 *
 * The rule map mirrors nf_tables: every rule of either generation has an
 * entry carrying the rule's genmask, linked in chain order. prepare writes
 * new entries first, then relinks and updates genmasks (never changing
 * what the live generation sees); publish swaps walker programs (only if a
 * new shape or base chain needed one) and flips the generation word.
 * Named counters, quotas and limits own counter and state slots too, from
 * the full prepare that first sees them to the one after they are gone
 * (prepare_objs()): rules and object map elements only name those slots.
 * Entry indices, counter and state slots freed by a prepare are reused only
 * after the next publish, so no packet still walking can meet a recycled entry;
 * an abort first unlinks what the prepare linked in, then gives back at
 * once every index, slot, set id and shape the prepare took.
 *
 * The rule, counter and state maps start at DP_ENTRIES/DP_COUNTERS/DP_STATES
 * slots and double (up to DP_MAX) when a prepare needs more: the grown rule
 * map is a copy of the old one (the state map too, and at publish it gets
 * what packets changed in the old one meanwhile), every walker is rebuilt
 * against the new maps and switched at publish (the one case where adding
 * rules loads a program); abort drops the new maps and walkers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/netfilter.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane.h"
#include "object.h"
#include "codegen/codegen.h"
#include "offload/bpf_compat.h"
#include "offload/offload.h"
#include "expr/counter.h"
#include "expr/dynset.h"
#include "expr/fib.h"
#include "expr/log.h"
#include "expr/lookup.h"
#include "expr/objref.h"
#include "expr/payload.h"
#include "ruleset_api.h"

/*
 * The rule map and the counter map start small and grow by doubling when a
 * prepare needs more slots: a bigger map, the live entries copied into it,
 * walker programs that reference it, published by the usual walker switch.
 */
#define DP_ENTRIES	4096		/* initial rule map slots (heads + rules) */
#define DP_COUNTERS	4096		/* initial counter slots */
#define DP_STATES	4096		/* initial state slots */
#define DP_MAX		(1u << 22)	/* hard limit of both */
#define DP_BASES	256	/* heads map slots (hook points) */
#define DP_WALKERS	3	/* walkers: CODEGEN_CTX_* */
#define DP_HASH		4096	/* initial record hash buckets (grows) */

#define NFPROTO_INET	1
#define NFPROTO_IPV4	2
#define NFPROTO_IPV6	10
#define NFPROTO_NETDEV	5
#define NFPROTO_ARP	3
#define NFPROTO_BRIDGE	7
#define NF_BR_PRE_ROUTING	0
#define NF_BR_LOCAL_IN		1
#define NF_BR_FORWARD		2
#define NF_BR_LOCAL_OUT		3
#define NF_BR_POST_ROUTING	4
#define NF_ARP_IN	0
#define NF_ARP_OUT	1
#define NF_INET_NUMHOOKS 5
#define NF_INET_INGRESS	5
#define NF_NETDEV_INGRESS 0
#define NF_NETDEV_EGRESS 1
#define CHAIN_F_HW_OFFLOAD 0x2	/* NFT_CHAIN_HW_OFFLOAD */
#define NF_INET_PRE_ROUTING 0
#define NF_INET_LOCAL_OUT 3
#define TABLE_F_DORMANT	0x1

enum rec_kind { REC_HEAD, REC_RULE, REC_FOLD };

#define FOLD_MIN	8	/* rules a run needs to be folded */
/* fold map entries: a hash map allocates its buckets up front, 16 bytes
 * per entry of max_entries even without preallocated elements, for every
 * namespace served; folding stops quietly past this many keys (the rest of
 * a run is walked rule by rule). A ruleset replaced in one batch (or a flush
 * and a load) holds its old keys beside the new ones until the next prepare:
 * 2^18 keys fold a 100k-rule chain reloaded so */
#define FOLD_MAX	(1u << 18)

/**
 * struct dp_rec - a rule map entry owned by a chain head or a rule
 * @hnext: hash chain
 * @kind: enum rec_kind
 * @table: table handle
 * @handle: chain handle (heads), rule uid (rules: see struct rule), fold sequence (fold heads)
 * @idx: entry index
 * @shadow: what the map holds
 * @want: what this prepare wants it to hold
 * @slots: counter slots owned (rules), owned array
 * @nslots: count
 * @states: state slots owned (rules), owned array
 * @nstates: count
 * @seq: creation order (orders base chains at a shared hook point)
 * @seen: met in the current prepare
 * @fresh: created by the current prepare
 * @prev: previous record of the same chain, in rule order (NULL: a head)
 * @succ: next record of the same chain, in rule order (NULL: the last)
 * @touched: in dp->touched (its @want is being changed by this prepare)
 * @dead: its rule left the model with the last commit; unlinked by this
 *	  prepare
 *
 * @prev/@succ mirror the entries' @next links (which skip nothing), so an
 * incremental prepare finds a new rule's neighbours without walking the
 * chain; a full prepare rebuilds them.
 *
 * Folded runs (REC_FOLD, codegen/fold.c): a full prepare puts a fold head
 * before each run of >= FOLD_MIN rules of one foldable shape with distinct
 * keys and fills the fold map; @run of each member names its head. An
 * incremental prepare keeps a run folded when rules come before or after
 * it (the head's exit follows), and unfolds it (the head goes inactive
 * in the next generation, the run is walked rule by rule) when a rule
 * goes inside it or a member goes away; the next full prepare folds again
 * (and keeps a run whose rules did not change: fold_keep()).
 * @run: member rules: their fold head
 * @run_seq: member rules: their fold head's @handle, kept across full
 *	     prepares (which reset @run): a run whose rules did not change
 *	     keeps its head and fold map keys (fold_keep())
 * @last: fold heads: the last member
 * @keys: fold heads: the fold map keys they own, owned array
 * @nkeys: count
 * @unfolded: fold heads: no longer used from the next generation on
 * @retired: fold heads replaced by a full prepare, freed by the next one
 */
struct dp_rec {
	struct dp_rec *hnext;
	struct dp_rec *prev, *succ;
	struct dp_rec *run, *last;
	uint64_t run_seq;
	struct codegen_fold_key *keys;
	uint32_t nkeys;
	bool unfolded;
	bool retired;
	uint8_t kind;
	uint64_t table;
	uint64_t handle;
	uint32_t idx;
	struct codegen_entry shadow;
	struct codegen_entry want;
	uint32_t *slots;
	uint32_t nslots;
	uint32_t *states;
	uint32_t nstates;
	uint64_t seq;
	bool seen;
	bool fresh;
	bool touched;
	bool dead;
};

/* a growable array of records */
struct dp_recs {
	struct dp_rec **v;
	uint32_t n, cap;
};

/**
 * struct dp_want - a base chain of the next generation at a hook point
 * @head: its head entry
 * @seq: its order key (registration order)
 * @outer: where it runs among the hooks of its hook point: @seq, or for
 *	   a nat chain the registration of the nat core's hook (nat_sort())
 * @prio: its priority (tc hook points run several)
 * @pf: tc hook points: HEAD_PF_NETDEV or HEAD_PF_INET; netfilter:
 *	HEAD_NF_NAT for a nat chain, else 0
 */
struct dp_want {
	uint32_t head;
	uint64_t seq;
	uint64_t outer;
	int32_t prio;
	uint8_t pf;
};

/**
 * struct dp_hook - a hook point with its link: (pf, hook, priority) with a
 * netfilter link, or (device, ingress/egress) with a tcx link
 * @list: in dp->hooks
 * @pf: NFPROTO_IPV4 / NFPROTO_IPV6; NFPROTO_NETDEV for tc hook points
 * @hooknum: NF_INET_*; tc: NF_NETDEV_INGRESS / NF_NETDEV_EGRESS
 * @priority: hook priority (tc: 0)
 * @tc: a tcx hook point: netdev chains and inet ingress chains of device
 *	@ifindex, in priority order, as the kernel's per-device hook list
 * @ifindex: tc: the device
 * @head_pf: tc: HEAD_PF_* of each of @heads
 * @slot: its heads map slot (the trampoline passes it to the walker)
 * @tramp_fd: permanent trampoline program (the link's program)
 * @link_fd: the netfilter link (never updated: the kernel refuses)
 * @heads: head entries the live generation runs here, in order
 * @head_seq: when each of @heads was registered here (its order key)
 * @nheads: count
 * @want: head entries of the next generation, with their order keys
 * @nwant: count
 * @seen: used by the next generation
 * @fresh: created by the current prepare
 * @pinned: @link_fd is pinned (hook_pin_name())
 *
 * The kernel refuses a second link at the same (pf, hook, priority)
 * (EBUSY), so base chains that share one run from one link, in the
 * order they were registered (netfilter runs equal priorities so).
 */
struct dp_hook {
	struct list_head list;
	uint32_t pf;
	uint32_t hooknum;
	int32_t priority;
	bool tc;
	uint32_t ifindex;
	uint8_t head_pf[HOOK_CHAINS_MAX];
	uint32_t slot;
	int tramp_fd;
	int link_fd;
	uint32_t heads[HOOK_CHAINS_MAX];
	uint64_t head_seq[HOOK_CHAINS_MAX];
	uint32_t nheads;
	struct dp_want want[HOOK_CHAINS_MAX];
	uint32_t nwant;
	bool seen;
	bool fresh;
	bool pinned;
};

/*
 * index allocator with a cooling list (reuse only after a publish),
 * growing by doubling up to @hard. A free index is handed out lowest
 * first, so a chain loaded after a flush gets ascending, dense entries
 * again (the walker steps through them in memory order) instead of the
 * order in which the flush happened to free them.
 */
struct dp_alloc {
	uint32_t max;		/* exclusive */
	uint32_t hard;		/* max may grow up to this */
	uint32_t next;		/* never used yet from here */
	uint64_t *freebits;	/* free (not cooling) indices below next */
	uint32_t nfree;
	uint32_t lo;		/* no free index below this one */
	uint32_t *cool, ncool;
	uint8_t *used;
};

struct dp_cnt {
	uint64_t packets;
	uint64_t bytes;
};

/**
 * struct dp_obj - the dataplane slots of a named counter, quota or limit
 * @table: table handle
 * @handle: object handle (never reused in a table: a re-created object
 *	    is another one)
 * @type: OBJ_TYPE_*
 * @slot: what struct object.dp_slot holds; counter: a counter slot, else
 *	  state slots
 * @live: in use (else on the free list)
 * @seen: met by the current prepare
 * @fresh: created by the current prepare
 */
struct dp_obj {
	uint64_t table;
	uint64_t handle;
	uint32_t type;
	uint32_t slot[2];
	bool live;
	bool seen;
	bool fresh;
};

/* a quota word an update changes, written at publish */
struct dp_qword {
	uint32_t slot;
	uint64_t val;
};

/**
 * struct dataplane - the BPF side of one namespace (net->dataplane)
 */
struct dataplane {
	struct codegen_env env;
	struct codegen_entry *rules_mem;	/* mmap of the rule map */
	size_t rules_len;
	uint32_t rules_cap;		/* rule map entries */
	uint32_t counters_cap;		/* counter map entries */
	uint32_t cnt_cap;		/* cnt_init entries */
	uint64_t *state_mem;		/* mmap of the state map */
	size_t state_len;
	uint32_t state_cap;		/* state map entries */
	/* first values of the state slots this prepare assigned */
	struct dp_state_init {
		uint32_t slot;
		uint64_t val;
	} *sinit;
	uint32_t nsinit, capsinit;
	/* the maps before this prepare grew them (fd -1: not grown) */
	struct {
		int rules_fd, counters_fd, state_fd;
		struct codegen_entry *rules_mem;
		size_t rules_len;
		uint64_t *state_mem;
		size_t state_len;
		uint64_t *state_copy;	/* the old state map when copied */
		uint32_t rules_cap, counters_cap, state_cap;
	} old;
	bool grown;
	struct dp_alloc entries;
	struct dp_alloc counters;
	struct dp_alloc states;
	struct dp_cnt *cnt_init;
	uint64_t cnt_epoch;		/* dataplane_counter_epoch() */
	bool slot_used[DP_BASES];
	struct codegen_heads *heads_mem;	/* mmap of the heads map */
	size_t heads_len;
	/* walkers by CODEGEN_CTX_*: live, prepared for the next generation
	 * (-1: none), shapes the live one knows (ids 1..n) */
	int walker_fd[DP_WALKERS];
	int pending_fd[DP_WALKERS];
	uint32_t walker_nshapes[DP_WALKERS];
	struct codegen_shape **shapes;
	uint32_t nshapes, capshapes;
	struct dp_rec **hash;
	uint32_t nhash;		/* buckets, a power of two */
	uint32_t nrecs;
	/* incremental prepare (rule-only batches), see dataplane_prepare_delta() */
	struct dp_recs touched;	/* records whose entry this prepare writes */
	struct dp_recs dead;	/* records of rules the last commit deleted */
	struct dp_recs settle;	/* records of the last prepare whose two
				 * generations differ: rules and fold heads
				 * whose genmask is not 0 yet, chain heads
				 * whose policy halves differ (settle_wanted()) */
	struct dp_recs retired;	/* fold heads replaced by the last prepare */
	struct dp_recs chain;	/* scratch: one chain's rule records */
	struct rule **chain_rules;	/* scratch: their rules */
	uint32_t chain_cap;
	uint64_t fold_seq;
	bool freeing;
	bool incremental;	/* the current prepare is incremental */
	bool settling;		/* ... left a complete settle list */
	bool settled;		/* the last published one did: the next
				 * prepare may be incremental */
	uint64_t rule_entries_next;
	uint32_t unfolds;		/* fold heads this prepare unfolded */
	bool fold_full;			/* the fold map refused a key (E2BIG):
					 * no more folds in this prepare */
	struct list_head hooks;
	uint64_t seq;
	uint64_t reg_seen;	/* ruleset_reg_seq_last() at the last prepare */
	/* when the nat core's hooks (IPv4, IPv6) registered, live and in
	 * the next generation (0: no nat chain of that family) */
	uint64_t natcore_seq[2], natcore_next[2];
	struct dp_stats stats;
	uint32_t gen_next;
	bool prepared;
	bool written;		/* this prepare changed live entries */
	uint32_t nshapes0;	/* shapes before this prepare */
	int err;		/* sticky error of the current prepare */
	int ncpus;
	struct dp_sets *sets;
	uint8_t *eslot;		/* counter slots of set elements: enum eslot */
	uint32_t eslot_cap;
	uint8_t conntrack;	/* CT_V4/CT_V6: offload_conntrack_enable() holds */
	uint8_t conntrack_new;	/* ... since this prepare */
	uint32_t ct_users[2];	/* conntrack users live, IPv4 and IPv6 (ct_users()) */
	uint32_t ct_next[2];	/* ... in the generation being prepared */
	bool ct_acct;		/* offload_conntrack_acct() done */
	struct dp_log *log;
	struct dp_reject *reject;
	struct dp_routes *routes;	/* route mirror (fib) */
	struct dp_recent *recent;	/* xt recent tables */
	struct dp_hl *hl;		/* xt hashlimit tables */
	struct dp_string *string;	/* xt string automata */
	struct net *net;	/* the namespace this is of */
	int link_fd;		/* rtnetlink link events of the netns, -1 */
	int ct_nl_fd;		/* ctnetlink, for "ct count" element gc; -1 */
	/* named objects: records (id = index + 1), free ids, quota words
	 * to write at publish */
	struct dp_obj *objs;
	uint32_t nobjs, capobjs;
	uint32_t *objfree;
	uint32_t nobjfree;
	struct dp_qword *qpend;
	uint32_t nqpend, capqpend;
	/* the set maps pinned (pin_set_maps()) */
	int set_pinned[SET_KEY_WORDS_MAX + 1];
	/* the hook points of a dataplane pinned by an earlier nfbpfd were
	 * adopted (adopt_maps(), adopt_link()): its walkers still run until the first
	 * publish replaces them */
	bool adopted;
};

static char verifier_log[1 << 20];

/* ---- index allocator ---- */

#define BITS_WORDS(n)	(((n) + 63) / 64)

static int alloc_init(struct dp_alloc *a, uint32_t max, uint32_t hard)
{
	memset(a, 0, sizeof(*a));
	a->max = max;
	a->hard = hard;
	a->next = 1;	/* 0 is "none" */
	a->freebits = calloc(BITS_WORDS(max), sizeof(uint64_t));
	a->cool = calloc(max, sizeof(uint32_t));
	a->used = calloc(max, 1);
	if (!a->freebits || !a->cool || !a->used)
		return -ENOMEM;
	return 0;
}

static void alloc_fini(struct dp_alloc *a)
{
	free(a->freebits);
	free(a->cool);
	free(a->used);
}

static void free_set(struct dp_alloc *a, uint32_t i)
{
	a->freebits[i / 64] |= 1ull << (i % 64);
	a->nfree++;
	if (i < a->lo)
		a->lo = i;
}

static bool free_test(const struct dp_alloc *a, uint32_t i)
{
	return a->freebits[i / 64] & (1ull << (i % 64));
}

static void free_clear(struct dp_alloc *a, uint32_t i)
{
	a->freebits[i / 64] &= ~(1ull << (i % 64));
	a->nfree--;
}

/* the lowest free index (a->nfree > 0) */
static uint32_t free_lowest(struct dp_alloc *a)
{
	uint32_t w = a->lo / 64;

	while (!a->freebits[w])
		w++;
	a->lo = w * 64 + __builtin_ctzll(a->freebits[w]);
	return a->lo;
}

/* double @a's capacity (not beyond a->hard); false if it cannot */
static bool alloc_grow(struct dp_alloc *a)
{
	uint32_t n = a->max * 2 > a->hard ? a->hard : a->max * 2;
	void *f, *c, *u;

	if (n <= a->max)
		return false;
	f = realloc(a->freebits, BITS_WORDS(n) * sizeof(uint64_t));
	if (f)
		a->freebits = f;
	c = realloc(a->cool, n * sizeof(uint32_t));
	if (c)
		a->cool = c;
	u = realloc(a->used, n);
	if (u)
		a->used = u;
	if (!f || !c || !u)
		return false;
	memset(a->freebits + BITS_WORDS(a->max), 0,
	       (BITS_WORDS(n) - BITS_WORDS(a->max)) * sizeof(uint64_t));
	memset(a->used + a->max, 0, n - a->max);
	a->max = n;
	return true;
}

/* give up the indices from @max on (none of them in use) */
static void alloc_shrink(struct dp_alloc *a, uint32_t max)
{
	uint32_t i, n;

	if (max >= a->max)
		return;
	for (i = max; i < a->next; i++)
		if (free_test(a, i))
			free_clear(a, i);
	for (i = n = 0; i < a->ncool; i++)
		if (a->cool[i] < max)
			a->cool[n++] = a->cool[i];
	a->ncool = n;
	if (a->next > max)
		a->next = max;
	a->max = max;
}

static uint32_t alloc_get(struct dp_alloc *a)
{
	uint32_t i;

	if (a->nfree) {
		i = free_lowest(a);
		free_clear(a, i);
	} else if (a->next < a->max || alloc_grow(a)) {
		i = a->next++;
	} else {
		return 0;
	}
	a->used[i] = 1;
	return i;
}

/* claim a specific index if it is untouched; 0 if not possible */
static uint32_t alloc_claim(struct dp_alloc *a, uint32_t i)
{
	uint32_t k;

	if (!i || i >= a->max || a->used[i])
		return 0;
	if (i >= a->next) {
		for (k = a->next; k < i; k++)
			free_set(a, k);
		a->next = i + 1;
	} else {
		if (!free_test(a, i))
			return 0;	/* cooling */
		free_clear(a, i);
	}
	a->used[i] = 1;
	return i;
}

static void alloc_put(struct dp_alloc *a, uint32_t i)
{
	if (!i || !a->used[i])
		return;
	a->used[i] = 0;
	a->cool[a->ncool++] = i;
}

static void alloc_publish(struct dp_alloc *a)
{
	while (a->ncool)
		free_set(a, a->cool[--a->ncool]);
}

/* ---- records ---- */

static uint32_t rec_hash(uint8_t kind, uint64_t table, uint64_t handle)
{
	uint64_t h = (table * 0x9e3779b97f4a7c15ull) ^ (handle * 0xc2b2ae3d27d4eb4full) ^ kind;

	return (uint32_t)(h ^ (h >> 29));
}

static struct dp_rec **rec_bucket(struct dataplane *dp, uint8_t kind,
				  uint64_t table, uint64_t handle)
{
	return &dp->hash[rec_hash(kind, table, handle) & (dp->nhash - 1)];
}

/* twice the buckets (best effort: a failed allocation keeps the old) */
static void rec_rehash(struct dataplane *dp)
{
	uint32_t n = dp->nhash * 2, i;
	struct dp_rec **h = calloc(n, sizeof(*h)), *r, *nx;

	if (!h)
		return;
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = nx) {
			uint32_t b = rec_hash(r->kind, r->table, r->handle) & (n - 1);

			nx = r->hnext;
			r->hnext = h[b];
			h[b] = r;
		}
	free(dp->hash);
	dp->hash = h;
	dp->nhash = n;
}

static int recs_push(struct dp_recs *a, struct dp_rec *r)
{
	if (a->n == a->cap) {
		uint32_t ncap = a->cap ? a->cap * 2 : 64;
		void *v = realloc(a->v, ncap * sizeof(*a->v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = ncap;
	}
	a->v[a->n++] = r;
	return 0;
}

static struct dp_rec *rec_find(struct dataplane *dp, uint8_t kind,
			       uint64_t table, uint64_t handle)
{
	struct dp_rec *r;

	for (r = *rec_bucket(dp, kind, table, handle); r; r = r->hnext)
		if (r->kind == kind && r->table == table && r->handle == handle)
			return r;
	return NULL;
}

static struct dp_rec *rec_new(struct dataplane *dp, uint8_t kind,
			      uint64_t table, uint64_t handle)
{
	struct dp_rec *r = calloc(1, sizeof(*r)), **b;

	if (!r)
		return NULL;
	if (dp->nrecs >= 2 * dp->nhash)
		rec_rehash(dp);
	b = rec_bucket(dp, kind, table, handle);
	r->idx = alloc_get(&dp->entries);
	if (!r->idx) {
		free(r);
		return NULL;
	}
	r->kind = kind;
	r->table = table;
	r->handle = handle;
	r->fresh = true;
	r->seq = ++dp->seq;
	r->hnext = *b;
	*b = r;
	dp->nrecs++;
	return r;
}

/* fold map keys[0, n) go: one syscall for all of them (the first one
 * missing stops the batch: the rest one by one) */
static void fold_keys_delete(struct dataplane *dp,
			     const struct codegen_fold_key *keys, uint32_t n)
{
	uint32_t done = n, i;

	if (!n)
		return;
	dp->stats.fold_keys_written += n;
	if (!bpf_map_delete_batch(dp->env.fold_fd, keys, &done, NULL) &&
	    done == n)
		return;
	for (i = done < n ? done : 0; i < n; i++)
		bpf_map_delete_elem(dp->env.fold_fd, &keys[i]);
}

/* the connlimit lists of instance @id (one, or one per xt connlimit key) */
static void cl_delete(struct dataplane *dp, uint64_t id)
{
	struct codegen_cl_key k = { .id = id }, next;
	bool first = true;

	/* a rule's "ct count": its one list */
	if (!bpf_map_delete_elem(dp->env.cl_fd, &k))
		return;
	/* xt connlimit: every key of the instance; deleting the key just
	 * visited makes the walk restart, so walk from the one before */
	while (!bpf_map_get_next_key(dp->env.cl_fd, first ? NULL : &k, &next)) {
		if (next.id == id) {
			bpf_map_delete_elem(dp->env.cl_fd, &next);
			continue;
		}
		k = next;
		first = false;
	}
}

static void rec_free(struct dataplane *dp, struct dp_rec *r)
{
	struct dp_rec **pp = rec_bucket(dp, r->kind, r->table, r->handle);
	uint32_t i;

	while (*pp != r)
		pp = &(*pp)->hnext;
	*pp = r->hnext;
	dp->nrecs--;
	if (!dp->freeing)
		fold_keys_delete(dp, r->keys, r->nkeys);
	free(r->keys);
	alloc_put(&dp->entries, r->idx);
	for (i = 0; i < r->nslots; i++)
		alloc_put(&dp->counters, r->slots[i]);
	for (i = 0; i < r->nstates; i++) {
		/* a ct count's list goes with its rule */
		if (!dp->freeing && r->states[i] < dp->state_cap) {
			uint64_t id = __atomic_load_n(&dp->state_mem[r->states[i]],
						      __ATOMIC_RELAXED);

			if (id & CL_ID_TAG)
				cl_delete(dp, id);
		}
		alloc_put(&dp->states, r->states[i]);
	}
	free(r->slots);
	free(r->states);
	free(r);
}

static uint32_t count_get(void *priv, uint64_t init);
static void count_add(void *priv, uint32_t slot, int64_t d);
static void count_put(void *priv, uint32_t slot);
static bool cl_dead(void *priv, uint32_t id, const uint8_t *key, uint32_t klen);
static void cl_free(void *priv, uint32_t id, const uint8_t *key, uint32_t klen);

/* ---- setup ---- */

static void hook_free(struct dataplane *dp, struct dp_hook *h);

static void dp_free(struct dataplane *dp)
{
	struct dp_hook *h, *tmp;
	uint32_t i;

	/* (hook_free() leaves the pins: dataplane_net_free() decides) */
	dp->freeing = true;
	list_for_each_entry_safe(h, tmp, &dp->hooks, list)
		hook_free(dp, h);
	for (i = 0; i < DP_WALKERS; i++) {
		if (dp->walker_fd[i] >= 0)
			close(dp->walker_fd[i]);
		if (dp->pending_fd[i] >= 0)
			close(dp->pending_fd[i]);
	}
	if (dp->heads_mem)
		munmap(dp->heads_mem, dp->heads_len);
	for (i = 0; i < dp->nhash; i++)
		while (dp->hash[i])
			rec_free(dp, dp->hash[i]);
	for (i = 0; i < dp->nshapes; i++) {
		free(dp->shapes[i]->key.b);
		codegen_shape_release(dp->shapes[i]);
		free(dp->shapes[i]->exprs);
		free(dp->shapes[i]);
	}
	free(dp->shapes);
	free(dp->hash);
	free(dp->touched.v);
	free(dp->dead.v);
	free(dp->settle.v);
	free(dp->retired.v);
	free(dp->chain.v);
	free(dp->chain_rules);
	dp_sets_free(dp->sets, &dp->env);
	dp_log_free(dp->log);
	dp_reject_free(dp->reject);
	dp_routes_free(dp->routes);
	dp_recent_free(dp->recent);
	dp_hl_free(dp->hl);
	dp_string_free(dp->string);
	if (dp->link_fd >= 0) {
		epoll_ctl(dataplane_link_fd(), EPOLL_CTL_DEL, dp->link_fd, NULL);
		close(dp->link_fd);
	}
	if (dp->ct_nl_fd >= 0)
		close(dp->ct_nl_fd);
	if (dp->rules_mem)
		munmap(dp->rules_mem, dp->rules_len);
	if (dp->old.rules_mem)
		munmap(dp->old.rules_mem, dp->old.rules_len);
	if (dp->old.rules_fd >= 0 && dp->old.rules_fd != dp->env.rules_fd)
		close(dp->old.rules_fd);
	if (dp->old.counters_fd >= 0 &&
	    dp->old.counters_fd != dp->env.counters_fd)
		close(dp->old.counters_fd);
	if (dp->state_mem)
		munmap(dp->state_mem, dp->state_len);
	if (dp->old.state_mem)
		munmap(dp->old.state_mem, dp->old.state_len);
	if (dp->old.state_fd >= 0 && dp->old.state_fd != dp->env.state_fd)
		close(dp->old.state_fd);
	free(dp->old.state_copy);
	free(dp->cnt_init);
	free(dp->sinit);
	free(dp->objs);
	free(dp->objfree);
	free(dp->qpend);
	alloc_fini(&dp->entries);
	alloc_fini(&dp->counters);
	free(dp->eslot);
	alloc_fini(&dp->states);
	if (dp->env.rules_fd > 0)
		close(dp->env.rules_fd);
	if (dp->env.counters_fd > 0)
		close(dp->env.counters_fd);
	if (dp->env.state_fd > 0)
		close(dp->env.state_fd);
	if (dp->env.gen_fd > 0)
		close(dp->env.gen_fd);
	if (dp->env.cl_fd > 0)
		close(dp->env.cl_fd);
	if (dp->env.cl_zero_fd > 0)
		close(dp->env.cl_zero_fd);
	if (dp->env.cl_scratch_fd > 0)
		close(dp->env.cl_scratch_fd);
	if (dp->env.progs_fd > 0)
		close(dp->env.progs_fd);
	if (dp->env.progs_tc_fd > 0)
		close(dp->env.progs_tc_fd);
	if (dp->env.heads_fd > 0)
		close(dp->env.heads_fd);
	if (dp->env.ring_fd > 0)
		close(dp->env.ring_fd);
	if (dp->env.inflight_fd > 0)
		close(dp->env.inflight_fd);
	if (dp->env.fold_fd > 0)
		close(dp->env.fold_fd);
	free(dp);
}

/* ---- link events (devices of tc chains) ---- */

static int link_epfd = -1;

int dataplane_link_fd(void)
{
	return offload_epoll(&link_epfd);
}

/*
 * links_open - follow the link events of @ns_fd's netns (devices that
 * appear, go or are renamed) on dataplane_link_fd(), tagged @dp; -1 if
 * that cannot be done (devices are then looked up at commits only)
 */
static int links_open(int ns_fd, struct dataplane *dp)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = dp };
	uint32_t groups = RTMGRP_LINK;
	int epfd = dataplane_link_fd(), fd;

	if (epfd < 0)
		return -1;
	fd = offload_in_netns(ns_fd, offload_rtnl_socket, &groups);
	if (fd <= 0)
		return -1;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- pins (offload/pin.c) ---- */

static struct dp_hook *hook_get(struct dataplane *dp, uint32_t pf,
				uint32_t hooknum, int32_t priority,
				uint32_t ifindex);
static struct dp_hook *hook_find(struct dataplane *dp, uint32_t pf,
				 uint32_t hooknum, int32_t priority,
				 uint32_t ifindex);

/* the pin name of @h's link: nf_<pf>_<hook>_<priority>_<slot>, tc_<ifindex>_<hook>_<slot> */
static void hook_pin_name(const struct dp_hook *h, char *buf, size_t len)
{
	if (h->tc)
		snprintf(buf, len, "tc_%u_%u_%u", h->ifindex, h->hooknum,
			 h->slot);
	else
		snprintf(buf, len, "nf_%u_%u_%d_%u", h->pf, h->hooknum,
			 h->priority, h->slot);
}

/* pin @h's link (nothing when pins are off); 0 or -errno with @err */
static int hook_pin(struct dataplane *dp, struct dp_hook *h,
		    struct dp_error *err)
{
	char name[64];
	int ret;

	if (!offload_pins_on() || h->link_fd < 0)
		return 0;
	hook_pin_name(h, name, sizeof(name));
	ret = offload_pin(h->link_fd, dp->net->ns_ino, name);
	if (ret) {
		snprintf(err->buf, sizeof(err->buf), "cannot pin link %s: %s",
			 name, strerror(-ret));
		err->msg = err->buf;
		return ret;
	}
	h->pinned = true;
	return 0;
}

/*
 * pin_set_maps - pin the exact-match set maps (created as sets need them)
 * not pinned yet, "sethash_<key words>": a restart reads the elements the
 * packet path added to dynamic sets there. 0 or -errno.
 */
static int pin_set_maps(struct dataplane *dp)
{
	char name[32];
	uint32_t w;
	int ret;

	for (w = 0; w <= SET_KEY_WORDS_MAX; w++) {
		if (dp->env.set_hash_fd[w] <= 0 ||
		    dp->set_pinned[w] == dp->env.set_hash_fd[w])
			continue;
		snprintf(name, sizeof(name), "sethash_%u", w);
		ret = offload_pin(dp->env.set_hash_fd[w], dp->net->ns_ino, name);
		if (ret)
			return ret;
		dp->set_pinned[w] = dp->env.set_hash_fd[w];
	}
	return 0;
}

/*
 * pin_maps - pin the maps a restarted nfbpfd adopts or reads: the prog
 * arrays and ring the trampolines use (a prog array is emptied when its
 * last user reference goes: pinned, the walkers stay behind the links),
 * and the rule, counter and state maps (again after a growth replaced
 * them). 0 or -errno.
 */
static int pin_maps(struct dataplane *dp)
{
	const struct { const char *name; int fd; } m[] = {
		{ "progs", dp->env.progs_fd },
		{ "progs_tc", dp->env.progs_tc_fd },
		{ "ring", dp->env.ring_fd },
		{ "rules", dp->env.rules_fd },
		{ "counters", dp->env.counters_fd },
		{ "state", dp->env.state_fd },
		{ "gen", dp->env.gen_fd },
	};
	uint32_t i;
	int ret;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		ret = offload_pin(m[i].fd, dp->net->ns_ino, m[i].name);
		if (ret)
			return ret;
	}
	memset(dp->set_pinned, 0, sizeof(dp->set_pinned));
	return pin_set_maps(dp);
}

/*
 * map_adopt - the map an earlier nfbpfd pinned as @name, if it is of
 * @type with @vsize-byte values and @max entries; else -1
 */
static int map_adopt(uint64_t ino, const char *name, uint32_t type,
		     uint32_t vsize, uint32_t max)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int fd = offload_pin_get(ino, name);

	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || info.type != type ||
	    info.key_size != 4 || info.value_size != vsize ||
	    info.max_entries != max) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * adopt_maps - the prog arrays and ring of the dataplane an earlier nfbpfd
 * pinned for @dp's namespace into @dp->env: the trampolines behind its
 * pinned links tail-call through them, so the walkers of @dp replace its
 * walkers there in one step (no moment without a filter), and its links
 * need not be replaced at all (a second link at their hook point would be
 * EBUSY). Pins that do not fit (another version) are removed: their links
 * detach before ours attach.
 * Return: whether they were adopted.
 */
static bool adopt_maps(struct dataplane *dp)
{
	uint64_t ino = dp->net->ns_ino;
	int progs, progs_tc, ring;

	if (!offload_pins_on())
		return false;
	progs = map_adopt(ino, "progs", BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	progs_tc = map_adopt(ino, "progs_tc", BPF_MAP_TYPE_PROG_ARRAY, 4, 2);
	ring = map_adopt(ino, "ring", BPF_MAP_TYPE_PERCPU_ARRAY,
			 sizeof(struct codegen_ring), 1);
	if (progs >= 0 && progs_tc >= 0 && ring >= 0) {
		dp->env.progs_fd = progs;
		dp->env.progs_tc_fd = progs_tc;
		dp->env.ring_fd = ring;
		return true;
	}
	if (progs >= 0)
		close(progs);
	if (progs_tc >= 0)
		close(progs_tc);
	if (ring >= 0)
		close(ring);
	if (offload_pins_remove_ino(ino) == 0 && progs + progs_tc + ring > -3)
		fprintf(stderr, "nfbpfd: netns %llu: pins of another nfbpfd "
			"version removed\n", (unsigned long long)ino);
	return false;
}

/* adopt_link - offload_pin_each() callback: a pinned link becomes a hook
 * point of @arg (a dataplane whose maps were adopted), keeping its slot */
static int adopt_link(void *arg, const char *name)
{
	struct dataplane *dp = arg;
	uint32_t pf, hooknum, slot, ifindex = 0;
	union {
		struct bpf_link_info link;
		struct compat_link_info_tcx tcx;
	} info;
	uint32_t len = sizeof(info.link);
	int32_t prio = 0;
	struct dp_hook *h;
	int n = 0, fd;

	if (sscanf(name, "nf_%u_%u_%d_%u%n", &pf, &hooknum, &prio, &slot,
		   &n) == 4 && !name[n]) {
		;
	} else if (sscanf(name, "tc_%u_%u_%u%n", &ifindex, &hooknum, &slot,
			  &n) == 3 && !name[n] && ifindex) {
		pf = NFPROTO_NETDEV;
	} else {
		return 0;	/* a map, or not ours */
	}
	fd = offload_pin_get(dp->net->ns_ino, name);
	if (fd < 0)
		return 0;
	memset(&info, 0, sizeof(info));
	if (!slot || slot >= DP_BASES || dp->slot_used[slot] ||
	    hook_find(dp, pf, hooknum, prio, ifindex) ||
	    bpf_obj_get_info_by_fd(fd, &info.link, &len) ||
	    (ifindex && info.tcx.ifindex != ifindex)) {
		/* detached (its device went) or not what its name says */
		close(fd);
		offload_unpin(dp->net->ns_ino, name);
		return 0;
	}
	h = hook_get(dp, pf, hooknum, prio, ifindex);
	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	h->fresh = false;
	h->link_fd = fd;
	h->slot = slot;
	h->pinned = true;
	dp->slot_used[slot] = true;
	/* its trampoline, for BPF_PROG_TEST_RUN (offload_chain_prog()) */
	h->tramp_fd = bpf_prog_get_fd_by_id(info.link.prog_id);
	if (h->tramp_fd < 0)
		h->tramp_fd = -1;
	return 0;
}

static int dp_get(struct net *net, struct dataplane **out, struct dp_error *err)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);
	struct dataplane *dp = net->dataplane;
	uint32_t hard;
	const char *env;
	bool adopt;
	int ret;

	if (dp) {
		*out = dp;
		return 0;
	}
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	list_init(&dp->hooks);
	for (ret = 0; ret < DP_WALKERS; ret++)
		dp->walker_fd[ret] = dp->pending_fd[ret] = -1;
	dp->old.rules_fd = dp->old.counters_fd = dp->old.state_fd = -1;
	dp->link_fd = -1;
	dp->ct_nl_fd = -1;
	dp->env.progs_fd = dp->env.progs_tc_fd = dp->env.ring_fd = -1;
	dp->net = net;
	dp->nhash = DP_HASH;
	dp->hash = calloc(dp->nhash, sizeof(*dp->hash));
	if (!dp->hash) {
		free(dp);
		return -ENOMEM;
	}
	ret = libbpf_num_possible_cpus();
	if (ret < 0)
		goto out_free;
	dp->ncpus = ret;
	ret = -ENOMEM;
	hard = DP_MAX;
	if ((env = getenv("NFBPF_RULE_MAP_MAX")) && strtoul(env, NULL, 0) >= 16 &&
	    strtoul(env, NULL, 0) < DP_MAX)
		hard = strtoul(env, NULL, 0);	/* tests: a smaller limit */
	dp->rules_cap = DP_ENTRIES < hard ? DP_ENTRIES : hard;
	dp->counters_cap = DP_COUNTERS < hard ? DP_COUNTERS : hard;
	dp->state_cap = DP_STATES < hard ? DP_STATES : hard;
	dp->cnt_cap = dp->counters_cap;
	dp->cnt_init = calloc(dp->cnt_cap, sizeof(*dp->cnt_init));
	dp->sets = dp_sets_new();
	if (dp->sets) {
		struct dp_sets_ops ops = { .count_get = count_get,
					   .count_add = count_add,
					   .count_put = count_put,
					   .cl_dead = cl_dead, .cl_free = cl_free,
					   .priv = dp };

		dp_sets_set_ops(dp->sets, &ops);
	}
	if (!dp->cnt_init || !dp->sets ||
	    alloc_init(&dp->entries, dp->rules_cap, hard) ||
	    alloc_init(&dp->counters, dp->counters_cap, hard) ||
	    alloc_init(&dp->states, dp->state_cap, hard))
		goto out_free;
	ret = offload_btf_env(&dp->env);
	if (ret) {
		err->msg = "kernel BTF lacks what the nfbpf dataplane needs";
		goto out_free;
	}
	/* the rule map is written through a shared mapping: a live entry's
	 * successor and genmask change with single atomic stores, never
	 * with a memcpy a walking packet could see half done */
	dp->env.rules_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_rules", 4,
					  sizeof(struct codegen_entry),
					  dp->rules_cap, &mmapable);
	dp->env.counters_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
					     "nfbpf_counters", 4,
					     sizeof(struct codegen_counter),
					     dp->counters_cap, NULL);
	/* limit buckets and quota bytes: read and initialised through a
	 * shared mapping, updated by packets with atomic instructions */
	dp->env.state_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_state", 4,
					  sizeof(uint64_t), dp->state_cap,
					  &mmapable);
	dp->env.gen_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_gen", 4, 4,
					1, NULL);
	/* 0. the prog arrays and ring of a pinned dataplane of an earlier
	 * nfbpfd (adopt_maps()), else new ones */
	adopt = adopt_maps(dp);
	if (!adopt)
		dp->env.progs_fd = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY,
						  "nfbpf_walker", 4, 4, 1, NULL);
	/* tc walkers: a prog array holds programs of one type */
	if (!adopt)
		dp->env.progs_tc_fd = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY,
						     "nfbpf_tc_walker", 4, 4, 2,
						     NULL);
	/* the heads of each hook point, written through a shared mapping */
	dp->env.heads_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_heads", 4,
					  sizeof(struct codegen_heads), DP_BASES,
					  &mmapable);
	if (!adopt)
		dp->env.ring_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
						 "nfbpf_ring", 4,
						 sizeof(struct codegen_ring), 1,
						 NULL);
	dp->env.inflight_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
					     "nfbpf_inflight", 4,
					     sizeof(struct codegen_inflight), 1,
					     NULL);
	{
		LIBBPF_OPTS(bpf_map_create_opts, noprealloc,
			    .map_flags = BPF_F_NO_PREALLOC);

		dp->env.fold_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "nfbpf_fold",
						 sizeof(struct codegen_fold_key),
						 4, FOLD_MAX, &noprealloc);
	}
	dp->link_fd = links_open(net->ns_fd, dp);
	dp->log = dp_log_new(net->ns_fd, net, &dp->env.log_fd,
			     &dp->env.nflog_fd);
	if (!dp->log || dp_log_nflog_sync(dp->log, net->nflog_bound)) {
		ret = -ENOMEM;
		err->msg = "cannot create the nfbpf log ring buffer";
		goto out_free;
	}
	dp->reject = dp_reject_new(dp->log, net->ns_fd, &dp->env.reject_fd,
				   &dp->env.reject_ct_fd);
	if (!dp->reject) {
		ret = -ENOMEM;
		err->msg = "cannot create the nfbpf reject ring buffer";
		goto out_free;
	}
	/* without a route mirror only rules reading routes are refused */
	dp->env.fib4_fd = dp->env.fib6_fd = -1;
	dp->routes = dp_routes_new(net->ns_fd, &dp->env.fib4_fd,
				   &dp->env.fib6_fd);
	dp->env.recent_fd = -1;
	dp->env.hl_table_fd = dp->env.hl_ent_fd = dp->env.hl_count_fd = -1;
	dp->env.string_fd = -1;
	/* connlimit lists: one per rule instance, made by the first packet */
	{
		LIBBPF_OPTS(bpf_map_create_opts, noprealloc,
			    .map_flags = BPF_F_NO_PREALLOC);

		dp->env.cl_fd = bpf_map_create(BPF_MAP_TYPE_HASH, "nfbpf_connlim",
					       sizeof(struct codegen_cl_key),
					       sizeof(struct codegen_cl_list),
					       CL_LISTS_MAX, &noprealloc);
		dp->env.cl_zero_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_cl_zero", 4,
						    sizeof(struct codegen_cl_list), 1, NULL);
		dp->env.cl_scratch_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
						       "nfbpf_cl_scr", 4,
						       sizeof(struct codegen_cl_scratch), 1, NULL);
	}
	dp->recent = dp_recent_new();
	dp->hl = dp_hl_new();
	dp->string = dp_string_new();
	if (!dp->recent || !dp->hl || !dp->string) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (dp->env.rules_fd < 0 || dp->env.counters_fd < 0 ||
	    dp->env.state_fd < 0 || dp->env.gen_fd < 0 ||
	    dp->env.progs_fd < 0 || dp->env.progs_tc_fd < 0 ||
	    dp->env.heads_fd < 0 || dp->env.ring_fd < 0 ||
	    dp->env.inflight_fd < 0 || dp->env.fold_fd < 0 ||
	    dp->env.cl_fd < 0 || dp->env.cl_zero_fd < 0 || dp->env.cl_scratch_fd < 0) {
		ret = -errno;
		err->msg = "cannot create the nfbpf dataplane maps";
		goto out_free;
	}
	dp->rules_len = (size_t)dp->rules_cap * sizeof(struct codegen_entry);
	dp->rules_mem = mmap(NULL, dp->rules_len, PROT_READ | PROT_WRITE,
			     MAP_SHARED, dp->env.rules_fd, 0);
	if (dp->rules_mem == MAP_FAILED) {
		ret = -errno;
		dp->rules_mem = NULL;
		err->msg = "cannot map the nfbpf rule map";
		goto out_free;
	}
	dp->state_len = (size_t)dp->state_cap * sizeof(uint64_t);
	dp->state_mem = mmap(NULL, dp->state_len, PROT_READ | PROT_WRITE,
			     MAP_SHARED, dp->env.state_fd, 0);
	if (dp->state_mem == MAP_FAILED) {
		ret = -errno;
		dp->state_mem = NULL;
		err->msg = "cannot map the nfbpf state map";
		goto out_free;
	}
	dp->heads_len = DP_BASES * sizeof(struct codegen_heads);
	dp->heads_mem = mmap(NULL, dp->heads_len, PROT_READ | PROT_WRITE,
			     MAP_SHARED, dp->env.heads_fd, 0);
	if (dp->heads_mem == MAP_FAILED) {
		ret = -errno;
		dp->heads_mem = NULL;
		err->msg = "cannot map the nfbpf heads map";
		goto out_free;
	}
	/* 1. the earlier nfbpfd's links become our hook points, 2. our maps
	 * are pinned; over its rule, counter and state maps only once our
	 * walkers replaced its (dataplane_publish()): until then a restart
	 * still reads its counters there */
	if (adopt) {
		dp->adopted = true;
		ret = offload_pin_each(net->ns_ino, adopt_link, dp);
		if (ret) {
			err->msg = "cannot adopt the pinned nfbpf links";
			goto out_free;
		}
	}
	ret = adopt ? 0 : pin_maps(dp);
	if (ret) {
		snprintf(err->buf, sizeof(err->buf),
			 "cannot pin the nfbpf dataplane maps: %s",
			 strerror(-ret));
		err->msg = err->buf;
		goto out_free;
	}
	net->dataplane = dp;
	*out = dp;
	return 0;

out_free:
	dp_free(dp);
	return ret;
}

/* ---- checks ---- */

static const char *family_name(uint8_t f)
{
	switch (f) {
	case NFPROTO_INET: return "inet";
	case NFPROTO_IPV4: return "ip";
	case NFPROTO_IPV6: return "ip6";
	case 0: return "unspec";
	case 3: return "arp";
	case 5: return "netdev";
	case 7: return "bridge";
	}
	return "?";
}

static bool family_ok(uint8_t f)
{
	return f == NFPROTO_INET || f == NFPROTO_IPV4 || f == NFPROTO_IPV6 ||
	       f == NFPROTO_NETDEV || f == NFPROTO_ARP || f == NFPROTO_BRIDGE;
}

/* does base chain @b of a table of @family run as a tc program? (arp:
 * netfilter links take IPv4/IPv6 only, so NF_ARP_IN runs at tc ingress
 * and NF_ARP_OUT at tc egress of every device, see emit_arp() in
 * codegen/walker.c) */
static bool chain_is_tc(uint8_t family, const struct basechain *b)
{
	return family == NFPROTO_NETDEV || family == NFPROTO_ARP ||
	       family == NFPROTO_BRIDGE ||
	       (family == NFPROTO_INET && b->hooknum == NF_INET_INGRESS);
}

/* a nat chain (ip, ip6, inet: the only families with the type) */
static bool chain_is_nat(const struct basechain *b)
{
	return strcmp(b->type, "nat") == 0;
}

/* where the nat core hooks in (NF_IP_PRI_NAT_DST / NF_IP_PRI_NAT_SRC, the
 * same for IPv6): a nat chain's own priority only orders it among the
 * nat chains run from there */
static int32_t nat_core_prio(uint32_t hooknum)
{
	return hooknum == NF_INET_PRE_ROUTING || hooknum == NF_INET_LOCAL_OUT ?
	       -100 : 100;
}

/*
 * fib route lookups where policy routing rules other than the default
 * ones exist: refused (the route mirror models the lookup without rules;
 * rules added later make the program fail closed)
 */
static int rules_check(const struct chain *chain, const struct rule *rule,
		       struct dp_error *err)
{
	const struct expr_fib *f;
	const struct expr *e;
	bool v4 = false, v6 = false;

	if (!chain || !chain->table || !chain->table->net ||
	    chain->table->net->ns_fd < 0)
		return 0;
	rule_for_each_expr(e, rule) {
		if (e->type != EXPR_FIB)
			continue;
		f = expr_priv(e);
		if (f->result == FIB_RESULT_ADDRTYPE)
			continue;
		v4 |= f->family != NFPROTO_IPV6;
		v6 |= f->family != NFPROTO_IPV4;
	}
	if (!v4 && !v6)
		return 0;
	if (dp_routes_rules_check(chain->table->net->ns_fd, v4, v6, &err->msg)) {
		if (!err->msg)
			err->msg = "fib route lookups: cannot read the namespace's policy routing rules";
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * payload set (mangling) where a BPF_PROG_TYPE_NETFILTER program would
 * run it: refused, such a program's packet is read-only (its skb dynptr
 * is; no helper writes it). It runs in tc programs: tables of the
 * netdev, bridge and arp families, and an inet table's ingress base
 * chains (its other chains can be reached from netfilter hooks).
 */
static int mangle_check(const struct chain *chain, const struct rule *rule,
			struct dp_error *err)
{
	const struct expr_payload *pl;
	const struct expr *e;
	uint8_t f;

	if (!chain || !chain->table)
		return 0;
	f = chain->table->family;
	if (f == NFPROTO_NETDEV || f == NFPROTO_ARP || f == NFPROTO_BRIDGE ||
	    (f == NFPROTO_INET && chain->base &&
	     chain->base->hooknum == NF_INET_INGRESS))
		return 0;
	rule_for_each_expr(e, rule) {
		if (e->type != EXPR_PAYLOAD)
			continue;
		pl = expr_priv(e);
		if (!pl->is_set)
			continue;
		snprintf(err->buf, sizeof(err->buf),
			 "payload set (mangling) in %s: netfilter hook programs see packets read-only (nfbpf mangles in netdev, bridge, arp, inet ingress chains)",
			 f == NFPROTO_IPV4 ? "the ip family" :
			 f == NFPROTO_IPV6 ? "the ip6 family" :
			 "an inet non-ingress chain");
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

int dataplane_rule_check(const struct chain *chain, const struct rule *rule,
			 struct dp_error *err)
{
	int ret;

	if (chain && chain->table && !family_ok(chain->table->family)) {
		snprintf(err->buf, sizeof(err->buf),
			 "family '%s' is not supported by the nfbpf dataplane yet",
			 family_name(chain->table->family));
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	ret = mangle_check(chain, rule, err);
	if (ret)
		return ret;
	ret = codegen_rule_check(rule, err);
	if (ret)
		return ret;
	return rules_check(chain, rule, err);
}

int dataplane_chain_check(const struct table *table, const struct chain *chain,
			  struct dp_error *err)
{
	const struct basechain *b = chain->base;

	if (!family_ok(table->family)) {
		snprintf(err->buf, sizeof(err->buf),
			 "family '%s' is not supported by the nfbpf dataplane yet",
			 family_name(table->family));
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!b)
		return 0;
	/* hardware offload: nf_tables_addchain() refuses it unless every
	 * device can (nft_chain_offload_support()); nfbpf offloads to none */
	if (chain->flags & CHAIN_F_HW_OFFLOAD) {
		err->msg = "hardware offload of chains is not supported by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	if (chain_is_tc(table->family, b)) {
		if (table->family == NFPROTO_NETDEV &&
		    b->hooknum != NF_NETDEV_INGRESS && b->hooknum != NF_NETDEV_EGRESS) {
			snprintf(err->buf, sizeof(err->buf),
				 "netdev hook %u is not supported by the nfbpf dataplane",
				 b->hooknum);
			err->msg = err->buf;
			return -EOPNOTSUPP;
		}
		if (table->family == NFPROTO_BRIDGE && !offload_btf_bridge()) {
			err->msg = "bridge chains need the bridge's types in the kernel's BTF (net_bridge, net_bridge_port), which this kernel lacks";
			return -EOPNOTSUPP;
		}
		if (table->family == NFPROTO_BRIDGE &&
		    b->hooknum > NF_BR_POST_ROUTING) {
			snprintf(err->buf, sizeof(err->buf),
				 "bridge hook %u is not supported by the nfbpf dataplane",
				 b->hooknum);
			err->msg = err->buf;
			return -EOPNOTSUPP;
		}
		if (table->family == NFPROTO_ARP &&
		    b->hooknum != NF_ARP_IN && b->hooknum != NF_ARP_OUT) {
			snprintf(err->buf, sizeof(err->buf),
				 "arp hook %u is not supported by the nfbpf dataplane",
				 b->hooknum);
			err->msg = err->buf;
			return -EOPNOTSUPP;
		}
	} else if (b->hooknum >= NF_INET_NUMHOOKS) {
		snprintf(err->buf, sizeof(err->buf),
			 "hook %u is not supported by the nfbpf dataplane yet",
			 b->hooknum);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (strcmp(b->type, "filter") && !chain_is_nat(b) &&
	    !(strcmp(b->type, "route") == 0 && b->hooknum == NF_INET_LOCAL_OUT)) {
		snprintf(err->buf, sizeof(err->buf),
			 "chain type '%.16s' is not supported by the nfbpf dataplane yet",
			 b->type);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!chain_is_tc(table->family, b) &&
	    (b->priority == COMPAT_NF_IP_PRI_FIRST ||
	     b->priority == COMPAT_NF_IP_PRI_LAST)) {
		err->msg = "priority NF_IP_PRI_FIRST/LAST is refused by kernel netfilter links";
		return -EOPNOTSUPP;
	}
	if (b->policy != VERDICT_ACCEPT && b->policy != VERDICT_DROP) {
		err->msg = "chain policy must be accept or drop";
		return -EOPNOTSUPP;
	}
	return 0;
}

/* ---- prepare ---- */

static void set_err(struct dataplane *dp, struct dp_error *err, int ret,
		    const char *msg)
{
	if (dp->err)
		return;
	dp->err = ret;
	if (msg && !err->msg)
		err->msg = msg;
}

static const char *full_msg(struct dataplane *dp, struct dp_error *err,
			    const char *what)
{
	if (err->msg)
		return NULL;
	snprintf(err->buf, sizeof(err->buf),
		 "nfbpf %s map is full: at most %u %s per namespace", what,
		 dp->entries.hard - 1,
		 strcmp(what, "rule") ? "counters" : "rules and chains");
	return err->buf;
}

static uint32_t head_of(void *priv, const struct chain *chain)
{
	struct dataplane *dp = priv;
	struct dp_rec *r = rec_find(dp, REC_HEAD, chain->table->handle,
				    chain->handle);

	if (!r) {
		if (!dp->err)
			dp->err = -ENOENT;
		return 0;
	}
	return r->idx;
}

static uint32_t set_id_of(void *priv, const struct set *set)
{
	struct dataplane *dp = priv;
	uint32_t id = dp_sets_id(dp->sets, set);

	if (!id && !dp->err)
		dp->err = -ENOENT;
	return id;
}

static bool visible(uint8_t genmask, const struct net *net)
{
	return active(genmask, genmask_cur(net)) ||
	       active(genmask, genmask_next(net));
}

/*
 * a counter slot starting at (@packets, @bytes): @want if it is free, else
 * any. Return: the slot, 0 with *@ret = -ENOSPC or -errno.
 */
static uint32_t counter_slot_take(struct dataplane *dp, uint32_t want,
				  uint64_t packets, uint64_t bytes, int *ret)
{
	struct codegen_counter *zero;
	uint32_t slot;

	*ret = 0;
	slot = alloc_claim(&dp->counters, want);
	if (!slot)
		slot = alloc_get(&dp->counters);
	if (!slot) {
		*ret = -ENOSPC;
		return 0;
	}
	if (slot >= dp->cnt_cap) {
		uint32_t n = dp->counters.max;
		struct dp_cnt *ci = realloc(dp->cnt_init, n * sizeof(*ci));

		if (!ci)
			goto out_put;
		memset(ci + dp->cnt_cap, 0, (n - dp->cnt_cap) * sizeof(*ci));
		dp->cnt_init = ci;
		dp->cnt_cap = n;
	}
	dp->cnt_init[slot].packets = packets;
	dp->cnt_init[slot].bytes = bytes;
	/* a recycled slot starts from zero (a new map is zero) */
	if (slot >= dp->counters_cap)
		return slot;
	zero = calloc(dp->ncpus, sizeof(*zero));
	if (!zero)
		goto out_put;
	if (bpf_map_update_elem(dp->env.counters_fd, &slot, zero, BPF_ANY)) {
		*ret = -errno;
		free(zero);
		alloc_put(&dp->counters, slot);
		return 0;
	}
	free(zero);
	return slot;

out_put:
	alloc_put(&dp->counters, slot);
	*ret = -ENOMEM;
	return 0;
}

/*
 * Counter slots of set elements (codegen_consts_ctx.elem_counter): an
 * element keeps its slot while it lives; a full prepare marks the slots
 * of the elements it meets, and gives back the others once it succeeded.
 */
enum eslot { ESLOT_NONE, ESLOT_OWNED, ESLOT_SEEN, ESLOT_FRESH };

static uint32_t elem_counter_of(void *priv, struct expr_counter *c, bool assign)
{
	struct dataplane *dp = priv;
	uint32_t slot = c->slot;
	int ret;

	if (slot && slot < dp->eslot_cap && dp->eslot[slot] != ESLOT_NONE) {
		if (dp->eslot[slot] == ESLOT_OWNED)
			dp->eslot[slot] = ESLOT_SEEN;
		return slot;
	}
	if (!assign)
		return 0;
	slot = counter_slot_take(dp, slot, c->packets, c->bytes, &ret);
	if (!slot)
		return 0;
	if (slot >= dp->eslot_cap) {
		uint32_t n = dp->counters.max;
		uint8_t *v = realloc(dp->eslot, n);

		if (!v) {
			alloc_put(&dp->counters, slot);
			return 0;
		}
		memset(v + dp->eslot_cap, 0, n - dp->eslot_cap);
		dp->eslot = v;
		dp->eslot_cap = n;
	}
	dp->eslot[slot] = ESLOT_FRESH;
	c->slot = slot;
	return slot;
}

/* ---- count words of dynamic sets (dp_sets_ops) ---- */

static int state_first(struct dataplane *dp, uint32_t slot, uint64_t val)
{
	if (slot < dp->state_cap) {
		__atomic_store_n(&dp->state_mem[slot], val, __ATOMIC_RELAXED);
		return 0;
	}
	if (dp->nsinit == dp->capsinit) {
		uint32_t ncap = dp->capsinit ? 2 * dp->capsinit : 64;
		void *m = realloc(dp->sinit, ncap * sizeof(*dp->sinit));

		if (!m)
			return -ENOMEM;
		dp->sinit = m;
		dp->capsinit = ncap;
	}
	dp->sinit[dp->nsinit].slot = slot;
	dp->sinit[dp->nsinit].val = val;
	dp->nsinit++;
	return 0;
}

/* the key of the "ct count" list of set @id's element @key */
static void cl_elem_key(struct codegen_cl_key *k, uint32_t id,
			const uint8_t *key, uint32_t klen)
{
	memset(k, 0, sizeof(*k));
	k->id = CL_SET_TAG | id;
	memcpy(k->addr, key, klen < sizeof(k->addr) ? klen : sizeof(k->addr));
}

static void cl_free(void *priv, uint32_t id, const uint8_t *key, uint32_t klen)
{
	struct dataplane *dp = priv;
	struct codegen_cl_key k;

	cl_elem_key(&k, id, key, klen);
	if (!bpf_map_delete_elem(dp->env.cl_fd, &k))
		dp->stats.cl_lists_freed++;
}

/*
 * Would nf_conncount_gc_list() empty the list of set @id's element @key
 * now (so that nft_rhash_gc() removes the element)? Its walk, asked of
 * the netns's conntrack table over ctnetlink (nf_conntrack_find_get()
 * by the entry's tuple and zone): an entry whose conntrack is found
 * stays unless TCP in TIME_WAIT or CLOSE (already_closed()); one not
 * found goes once 2 jiffies old (find_or_evict(); the CPU test of the
 * kernel's walk has no meaning here). No list: empty. When conntrack
 * cannot answer, the element stays.
 */
static bool cl_dead(void *priv, uint32_t id, const uint8_t *key, uint32_t klen)
{
	struct dataplane *dp = priv;
	const struct offload_ct_tuple off = {
		.src_u3 = dp->env.off.tup_src_u3, .src_u = dp->env.off.tup_src_u,
		.l3num = dp->env.off.tup_l3num, .dst_u3 = dp->env.off.tup_dst_u3,
		.dst_u = dp->env.off.tup_dst_u, .protonum = dp->env.off.tup_protonum,
	};
	struct codegen_cl_list *l;
	struct codegen_cl_key k;
	uint64_t now;
	uint32_t i, n;
	bool dead = true;

	if (off.src_u3 < 0 || off.dst_u3 < 0 || off.protonum < 0 ||
	    off.l3num < 0 || off.src_u < 0 || off.dst_u < 0)
		return false;
	l = malloc(sizeof(*l));
	if (!l)
		return false;
	cl_elem_key(&k, id, key, klen);
	if (bpf_map_lookup_elem(dp->env.cl_fd, &k, l)) {
		free(l);
		return errno == ENOENT;
	}
	if (dataplane_jiffies(&now)) {
		free(l);
		return false;
	}
	if (dp->ct_nl_fd < 0)
		dp->ct_nl_fd = offload_conntrack_socket(dp->net->ns_fd);
	n = l->count < CL_ENTS ? l->count : CL_ENTS;
	for (i = 0; i < n && dead; i++) {
		const struct codegen_cl_ent *e = &l->ent[i];
		uint8_t tcp = 0xff;
		int r = dp->ct_nl_fd < 0 ? -EBADF :
			offload_conntrack_get(dp->ct_nl_fd, &off, e->tuple,
					      (uint16_t)e->zone, &tcp);

		if (r < 0)
			dead = false;	/* not known: keep */
		else if (r > 0)
			dead = tcp == 7 /* TIME_WAIT */ || tcp == 8 /* CLOSE */;
		else
			dead = (uint32_t)now - e->jiffies > 1;
	}
	free(l);
	return dead;
}

static uint32_t count_get(void *priv, uint64_t init)
{
	struct dataplane *dp = priv;
	uint32_t slot = alloc_get(&dp->states);

	if (slot && state_first(dp, slot, init)) {
		alloc_put(&dp->states, slot);
		return 0;
	}
	return slot;
}

static void count_add(void *priv, uint32_t slot, int64_t d)
{
	struct dataplane *dp = priv;
	uint64_t *mem = NULL;
	uint32_t i;

	/* a grown map not published yet: the live walkers count in the
	 * old one, whose changes publish folds into the new one */
	if (dp->grown && dp->old.state_mem && slot < dp->old.state_cap)
		mem = dp->old.state_mem;
	else if (slot < dp->state_cap)
		mem = dp->state_mem;
	if (mem) {
		__atomic_fetch_add(&mem[slot], (uint64_t)d, __ATOMIC_RELAXED);
		return;
	}
	for (i = 0; i < dp->nsinit; i++)
		if (dp->sinit[i].slot == slot)
			dp->sinit[i].val += (uint64_t)d;
}

static void count_put(void *priv, uint32_t slot)
{
	struct dataplane *dp = priv;

	alloc_put(&dp->states, slot);
}

static uint32_t set_count_of(void *priv, const struct set *set)
{
	struct dataplane *dp = priv;
	uint32_t slot = dp_sets_count(dp->sets, set);

	if (!slot && !dp->err)
		dp->err = -ENOENT;
	return slot;
}

/* after a full prepare: @ok keeps what it met, else what it found */
static void eslots_settle(struct dataplane *dp, bool ok)
{
	uint32_t i;

	for (i = 1; i < dp->eslot_cap; i++)
		switch (dp->eslot[i]) {
		case ESLOT_OWNED:
			if (ok) {
				alloc_put(&dp->counters, i);
				dp->eslot[i] = ESLOT_NONE;
			}
			break;
		case ESLOT_FRESH:
			if (!ok) {
				alloc_put(&dp->counters, i);
				dp->eslot[i] = ESLOT_NONE;
				break;
			}
			/* fallthrough */
		case ESLOT_SEEN:
			dp->eslot[i] = ESLOT_OWNED;
			break;
		}
}

/* counter slots of a new rule: keep the model's if free, else assign */
static int rule_slots(struct dataplane *dp, struct rule *rule, struct dp_rec *r)
{
	struct expr *e;
	uint32_t n = 0;
	int ret;

	rule_for_each_expr(e, rule)
		if (e->type == EXPR_COUNTER)
			n++;
	if (!n)
		return 0;
	r->slots = calloc(n, sizeof(uint32_t));
	if (!r->slots)
		return -ENOMEM;
	rule_for_each_expr(e, rule) {
		struct expr_counter *c;
		uint32_t slot;

		if (e->type != EXPR_COUNTER)
			continue;
		c = expr_priv(e);
		slot = counter_slot_take(dp, c->slot, c->packets, c->bytes, &ret);
		if (!slot)
			return ret;
		r->slots[r->nslots++] = slot;
		c->slot = slot;
	}
	return 0;
}

/*
 * a state slot whose first value is @val: @want if it is free, else any;
 * @val is written now if the state map holds the slot (no packet reaches
 * a fresh or cooled slot), else by grow_maps() into the bigger map.
 * Return: the slot, 0 with *@ret = -ENOSPC or -ENOMEM.
 */
static uint32_t state_slot_take(struct dataplane *dp, uint32_t want,
				uint64_t val, int *ret)
{
	uint32_t slot;

	*ret = 0;
	slot = alloc_claim(&dp->states, want);
	if (!slot)
		slot = alloc_get(&dp->states);
	if (!slot) {
		*ret = -ENOSPC;
		return 0;
	}
	if (slot < dp->state_cap) {
		__atomic_store_n(&dp->state_mem[slot], val, __ATOMIC_RELAXED);
		return slot;
	}
	if (dp->nsinit == dp->capsinit) {
		uint32_t ncap = dp->capsinit ? 2 * dp->capsinit : 64;
		void *m = realloc(dp->sinit, ncap * sizeof(*dp->sinit));

		if (!m) {
			alloc_put(&dp->states, slot);
			*ret = -ENOMEM;
			return 0;
		}
		dp->sinit = m;
		dp->capsinit = ncap;
	}
	dp->sinit[dp->nsinit].slot = slot;
	dp->sinit[dp->nsinit].val = val;
	dp->nsinit++;
	return slot;
}

/* state slots of a new rule's stateful expressions (codegen ops with
 * ->state_slot), each with its first value */
static int rule_states(struct dataplane *dp, struct rule *rule,
		       struct dp_rec *r)
{
	const struct codegen_expr_ops *ops;
	struct timespec ts;
	struct expr *e;
	uint32_t n = 0;
	uint64_t now;
	int ret;

	rule_for_each_expr(e, rule) {
		ops = codegen_expr_ops[e->type];
		if (ops->state_slot && ops->state_slot(e))
			n++;
	}
	if (!n)
		return 0;
	r->states = calloc(n, sizeof(uint32_t));
	if (!r->states)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	rule_for_each_expr(e, rule) {
		uint32_t *sp, slot;

		ops = codegen_expr_ops[e->type];
		if (!ops->state_slot)
			continue;
		sp = ops->state_slot(e);
		if (!sp)
			continue;	/* an expression kind some of whose have none */
		slot = state_slot_take(dp, *sp, ops->state_init(e, now), &ret);
		if (!slot)
			return ret;
		r->states[r->nstates++] = slot;
		*sp = slot;
	}
	return 0;
}

/* ---- named objects ---- */

/* @obj's record, if the dataplane has one for it */
static struct dp_obj *obj_rec(struct dataplane *dp, const struct object *obj)
{
	struct dp_obj *d;

	if (!obj->dp_id || obj->dp_id > dp->nobjs)
		return NULL;
	d = &dp->objs[obj->dp_id - 1];
	if (!d->live || d->table != obj->table->handle ||
	    d->handle != obj->handle || d->type != obj->type)
		return NULL;
	return d;
}

/* give back @d's slots and id (cooling until a publish, as a rule's) */
static void obj_release(struct dataplane *dp, struct dp_obj *d)
{
	if (d->type == OBJ_TYPE_COUNTER) {
		alloc_put(&dp->counters, d->slot[0]);
	} else {
		alloc_put(&dp->states, d->slot[0]);
		alloc_put(&dp->states, d->slot[1]);
	}
	d->live = false;
	dp->objfree[dp->nobjfree++] = (uint32_t)(d - dp->objs);
}

/* a record for @obj with its slots and their first values */
static int obj_new(struct dataplane *dp, struct object *obj, uint64_t now)
{
	struct dp_obj *d;
	uint32_t i;
	int ret = 0;

	if (!dp->nobjfree && dp->nobjs == dp->capobjs) {
		uint32_t ncap = dp->capobjs ? 2 * dp->capobjs : 64;
		void *o = realloc(dp->objs, ncap * sizeof(*dp->objs));
		void *f;

		if (!o)
			return -ENOMEM;
		dp->objs = o;
		f = realloc(dp->objfree, ncap * sizeof(*dp->objfree));
		if (!f)
			return -ENOMEM;
		dp->objfree = f;
		dp->capobjs = ncap;
	}
	i = dp->nobjfree ? dp->objfree[--dp->nobjfree] : dp->nobjs++;
	d = &dp->objs[i];
	memset(d, 0, sizeof(*d));
	d->table = obj->table->handle;
	d->handle = obj->handle;
	d->type = obj->type;
	switch (obj->type) {
	case OBJ_TYPE_COUNTER:
		d->slot[0] = counter_slot_take(dp, 0, obj->data.counter.packets,
					       obj->data.counter.bytes, &ret);
		break;
	case OBJ_TYPE_QUOTA:
		/* nft_quota_do_init(): consumed starts at NFTA_QUOTA_CONSUMED */
		d->slot[0] = state_slot_take(dp, 0, obj->data.quota.consumed, &ret);
		if (d->slot[0]) {
			d->slot[1] = state_slot_take(dp, 0,
						     codegen_obj_quota_word(obj), &ret);
			if (!d->slot[1])
				alloc_put(&dp->states, d->slot[0]);
		}
		break;
	case OBJ_TYPE_LIMIT:
		d->slot[0] = state_slot_take(dp, 0,
					     codegen_obj_limit_init(obj, now), &ret);
		break;
	}
	if (ret) {
		dp->objfree[dp->nobjfree++] = i;
		return ret;
	}
	d->live = d->seen = d->fresh = true;
	obj->dp_id = i + 1;
	obj->dp_slot[0] = d->slot[0];
	obj->dp_slot[1] = d->slot[1];
	return 0;
}

/* an updated quota's word, to write at publish (nft_obj_commit_update()) */
static int obj_update(struct dataplane *dp, const struct object *obj)
{
	uint64_t want = codegen_obj_quota_word(obj);
	uint32_t slot = obj->dp_slot[1];

	if (obj->type != OBJ_TYPE_QUOTA || slot >= dp->state_cap ||
	    __atomic_load_n(&dp->state_mem[slot], __ATOMIC_RELAXED) == want)
		return 0;
	if (dp->nqpend == dp->capqpend) {
		uint32_t ncap = dp->capqpend ? 2 * dp->capqpend : 16;
		void *m = realloc(dp->qpend, ncap * sizeof(*dp->qpend));

		if (!m)
			return -ENOMEM;
		dp->qpend = m;
		dp->capqpend = ncap;
	}
	dp->qpend[dp->nqpend].slot = slot;
	dp->qpend[dp->nqpend].val = want;
	dp->nqpend++;
	return 0;
}

/*
 * 0. the slots of every counter, quota and limit object of either
 * generation, before any rule constant or map element names them: an
 * object keeps its slots as long as it lives, whatever else commits
 */
static void prepare_objs(struct net *net, struct dataplane *dp,
			 struct dp_error *err)
{
	struct timespec ts;
	struct object *obj;
	struct table *t;
	uint64_t now;
	uint32_t i;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	dp->nqpend = 0;
	for (i = 0; i < dp->nobjs; i++)
		dp->objs[i].seen = dp->objs[i].fresh = false;
	list_for_each_entry(t, &net->tables, list) {
		if (!visible(t->genmask, net))
			continue;
		list_for_each_entry(obj, &t->objects, list) {
			struct dp_obj *d;

			if (!visible(obj->genmask, net) ||
			    !codegen_obj_type_ok(obj->type))
				continue;
			d = obj_rec(dp, obj);
			if (d) {
				d->seen = true;
				ret = obj_update(dp, obj);
			} else {
				ret = obj_new(dp, obj, now);
			}
			if (ret) {
				set_err(dp, err, ret, ret == -ENOSPC ?
					"nfbpf counter or state map is full (named counters, quotas and limits)" :
					NULL);
				return;
			}
		}
	}
}

/* after a successful full prepare: objects gone from the model */
static void drop_unseen_objs(struct dataplane *dp)
{
	uint32_t i;

	for (i = 0; i < dp->nobjs; i++)
		if (dp->objs[i].live && !dp->objs[i].seen)
			obj_release(dp, &dp->objs[i]);
}

static struct codegen_shape *shape_get(struct dataplane *dp,
				       const struct rule *rule, int *ret)
{
	struct codegen_key k = { 0 };
	struct codegen_shape *s;
	uint32_t i;

	*ret = codegen_rule_key(rule, &k);
	if (*ret)
		goto out_free_key;
	for (i = 0; i < dp->nshapes; i++)
		if (dp->shapes[i]->key.len == k.len &&
		    !memcmp(dp->shapes[i]->key.b, k.b, k.len)) {
			free(k.b);
			return dp->shapes[i];
		}
	*ret = -ENOMEM;
	if (dp->nshapes == dp->capshapes) {
		uint32_t ncap = dp->capshapes ? 2 * dp->capshapes : 16;
		void *n = realloc(dp->shapes, ncap * sizeof(*dp->shapes));

		if (!n)
			goto out_free_key;
		dp->shapes = n;
		dp->capshapes = ncap;
	}
	if (dp->nshapes >= 4096) {
		*ret = -ENOSPC;
		goto out_free_key;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto out_free_key;
	s->exprs = malloc(rule->dlen ? rule->dlen : 1);
	if (!s->exprs) {
		free(s);
		goto out_free_key;
	}
	memcpy(s->exprs, rule->exprs, rule->dlen);
	s->dlen = rule->dlen;
	if (codegen_shape_detach(s)) {
		free(s->exprs);
		free(s);
		goto out_free_key;
	}
	s->key = k;
	s->id = dp->nshapes + 1;
	s->foldable = codegen_shape_foldable(s);
	dp->shapes[dp->nshapes++] = s;
	dp->stats.shapes++;
	*ret = 0;
	return s;

out_free_key:
	free(k.b);
	return NULL;
}

/* does @rule read conntrack keys? */
static bool rule_reads_ct(const struct rule *rule)
{
	const struct expr *e;

	rule_for_each_expr(e, rule)
		if (codegen_expr_reads_ct(e))
			return true;
	return false;
}

/*
 * acct_wanted - does a rule of the next generation read conntrack
 * accounting? Of the rules @delta changes (incremental prepares), else of
 * all of them.
 */
static bool acct_wanted(struct net *net, const struct dp_delta *delta)
{
	uint8_t next = genmask_next(net);
	const struct expr *e;
	struct table *t;
	struct chain *c;
	struct rule *r;
	uint32_t i;

	if (delta) {
		for (i = 0; i < delta->nrules; i++) {
			r = delta->rules[i];
			if (active(r->genmask, next))
				rule_for_each_expr(e, r)
					if (codegen_expr_reads_acct(e))
						return true;
		}
		return false;
	}
	list_for_each_entry(t, &net->tables, list)
		list_for_each_entry(c, &t->chains, list)
			list_for_each_entry(r, &c->rules, list)
				if (active(r->genmask, next))
					rule_for_each_expr(e, r)
						if (codegen_expr_reads_acct(e))
							return true;
	return false;
}

/* object types whose kernel init takes nf_ct_netns_get() */
static bool obj_holds_ct(uint32_t type)
{
	/* NFT_OBJECT_CT_HELPER, _CT_TIMEOUT, _CT_EXPECT, _SYNPROXY */
	return type == 3 || type == 7 || type == 9 || type == 10;
}

/*
 * Which conntrack families the kernel turns on for a user in a table of
 * @family (nf_ct_netns_get(ctx->family)): ip IPv4, ip6 IPv6, inet (and
 * bridge, which also needs the bridge's own) both; others refuse ct
 * (EPROTO) before a rule gets here.
 */
enum { CT_V4 = 1, CT_V6 = 2 };

static unsigned int ct_families(uint8_t family)
{
	switch (family) {
	case NFPROTO_IPV4: return CT_V4;
	case NFPROTO_IPV6: return CT_V6;
	case NFPROTO_INET:
	case NFPROTO_BRIDGE: return CT_V4 | CT_V6;
	default: return 0;
	}
}

/* count @d (+1/-1) users of each family @family's table turns on */
static void ct_count(uint32_t n[2], uint8_t family, int d)
{
	unsigned int f = ct_families(family), i;

	for (i = 0; i < 2; i++) {
		if (!(f & (1u << i)))
			continue;
		if (d > 0)
			n[i]++;
		else if (n[i])
			n[i]--;
	}
}

/*
 * ct_users - what in the next generation holds the kernel's conntrack in
 * this netns, per family (IPv4, IPv6): rules reading ct keys and ct
 * helper/timeout/expectation and synproxy objects. The kernel takes a
 * reference (nf_ct_netns_get) for each when it is created and drops it
 * when it is destroyed, dormant table or not; a family's hooks (and its
 * defragmentation) run while one is held.
 */
static void ct_users(struct net *net, uint32_t n[2])
{
	uint8_t next = genmask_next(net);
	struct object *o;
	struct table *t;
	struct chain *c;
	struct rule *r;

	n[0] = n[1] = 0;
	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, next))
			continue;
		list_for_each_entry(o, &t->objects, list)
			if (active(o->genmask, next) && obj_holds_ct(o->type))
				ct_count(n, t->family, 1);
		list_for_each_entry(c, &t->chains, list) {
			if (!active(c->genmask, next))
				continue;
			list_for_each_entry(r, &c->rules, list)
				if (active(r->genmask, next) && rule_reads_ct(r))
					ct_count(n, t->family, 1);
		}
	}
}

/* ct_users() after a batch of rule changes only: the live counts moved by
 * the rules it adds and deletes */
static void ct_users_delta(struct net *net, const struct dataplane *dp,
			   const struct dp_delta *delta, uint32_t n[2])
{
	uint32_t i;

	n[0] = dp->ct_users[0];
	n[1] = dp->ct_users[1];
	for (i = 0; i < delta->nrules; i++) {
		const struct rule *r = delta->rules[i];
		bool cur = active(r->genmask, genmask_cur(net));
		bool next = active(r->genmask, genmask_next(net));

		if (cur == next || !rule_reads_ct(r))
			continue;
		ct_count(n, r->chain->table->family, next ? 1 : -1);
	}
}

/* the conntrack families @n counts users of */
static uint8_t ct_wanted(const uint32_t n[2])
{
	return (n[0] ? CT_V4 : 0) | (n[1] ? CT_V6 : 0);
}

/* turn off the conntrack families of @f (best effort) */
static void ct_release(struct net *net, struct dataplane *dp, uint8_t f)
{
	if (f & dp->conntrack & CT_V4)
		offload_conntrack_disable(net->ns_fd, NFPROTO_IPV4);
	if (f & dp->conntrack & CT_V6)
		offload_conntrack_disable(net->ns_fd, NFPROTO_IPV6);
	dp->conntrack &= ~f;
	dp->conntrack_new &= ~f;
}

/* pass A: a head entry per visible chain */
static void prepare_heads(struct net *net, struct dataplane *dp,
			  struct dp_error *err)
{
	struct table *t;
	struct chain *c;

	list_for_each_entry(t, &net->tables, list) {
		if (!visible(t->genmask, net) || !family_ok(t->family))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			struct dp_rec *r;

			if (!visible(c->genmask, net))
				continue;
			r = rec_find(dp, REC_HEAD, t->handle, c->handle);
			if (!r) {
				r = rec_new(dp, REC_HEAD, t->handle, c->handle);
				if (!r) {
					set_err(dp, err, -ENOSPC,
						full_msg(dp, err, "rule"));
					return;
				}
			} else {
				r->want = r->shadow;
			}
			r->seen = true;
			r->want.shape = 0;
			r->want.genmask = 0;
			if (c->base) {
				uint8_t pol = c->base->policy == VERDICT_DROP ?
					      VERDICT_DROP : VERDICT_ACCEPT;
				uint32_t g = dp->gen_next;

				/* a chain absent from a generation lets the
				 * packet through to the next chain of its hook
				 * point, as if it were not registered */
				r->want.policy[g] = active(c->genmask, 1u << g) ?
						    pol : VERDICT_ACCEPT;
				if (r->fresh)
					r->want.policy[g ^ 1] =
						active(c->genmask, 1u << (g ^ 1)) ?
						pol : VERDICT_ACCEPT;
			}
		}
	}
}

/*
 * the record and entry of a rule new to the dataplane (its constants, shape
 * and counter slots); NULL on error (dp->err and @err set)
 */
static struct dp_rec *rule_rec_new(struct dataplane *dp, const struct table *t,
				   struct rule *rule, struct dp_error *err)
{
	struct codegen_consts_ctx cc = { .chain_head = head_of,
					 .set_id = set_id_of,
					 .set_count = set_count_of, .priv = dp };
	struct codegen_shape *s;
	struct dp_rec *r;
	int ret;

	ret = codegen_rule_check(rule, err);
	if (ret) {
		set_err(dp, err, ret, NULL);
		return NULL;
	}
	r = rec_new(dp, REC_RULE, t->handle, rule->uid);
	if (!r) {
		set_err(dp, err, -ENOSPC, full_msg(dp, err, "rule"));
		return NULL;
	}
	ret = rule_slots(dp, rule, r);
	if (!ret)
		ret = dp_log_rule(dp->log, rule);
	if (ret) {
		set_err(dp, err, ret,
			ret == -ENOSPC ? full_msg(dp, err, "counter") : NULL);
		r->seen = true;
		return NULL;
	}
	ret = rule_states(dp, rule, r);
	if (ret) {
		set_err(dp, err, ret,
			ret == -ENOSPC ?
			"nfbpf state map is full (limit and quota expressions)" :
			NULL);
		r->seen = true;
		return NULL;
	}
	ret = dp_recent_rule(dp->recent, rule, &dp->env, err);
	if (!ret)
		ret = dp_hl_rule(dp->hl, rule, &dp->env, err);
	if (!ret)
		ret = dp_string_rule(dp->string, rule, &dp->env, err);
	if (ret) {
		set_err(dp, err, ret, NULL);
		r->seen = true;
		return NULL;
	}
	s = shape_get(dp, rule, &ret);
	if (!s) {
		set_err(dp, err, ret, NULL);
		r->seen = true;
		return NULL;
	}
	memset(&r->want, 0, sizeof(r->want));
	r->want.shape = s->id;
	codegen_rule_consts(rule, &r->want, &cc);
	return r;
}

/* is rule record @r of a foldable shape? */
static bool rec_foldable(const struct dataplane *dp, const struct dp_rec *r)
{
	uint32_t id = r->want.shape;

	return id && id <= dp->nshapes && dp->shapes[id - 1]->foldable;
}

/*
 * fold the rules chain[i, n) from i on, as far as they share i's shape and
 * have distinct keys: a fresh fold head whose keys are in the fold map.
 * Return: the number of rules folded (0: fewer than FOLD_MIN, no head;
 * *@out = NULL).
 */
static uint32_t fold_run(struct net *net, struct dataplane *dp,
			 const struct table *t, uint32_t i, uint32_t n,
			 struct dp_rec **out)
{
	struct dp_rec **v = dp->chain.v, *h;
	uint32_t j, k;

	*out = NULL;
	if (dp->fold_full || !rec_foldable(dp, v[i]))
		return 0;
	for (j = i + 1; j < n && j - i < FOLD_MIN; j++)
		if (v[j]->want.shape != v[i]->want.shape)
			return 0;
	if (j - i < FOLD_MIN)
		return 0;
	h = rec_new(dp, REC_FOLD, t->handle, ++dp->fold_seq);
	if (!h)
		return 0;
	for (j = i; j < n && v[j]->want.shape == v[i]->want.shape; j++)
		;
	h->keys = calloc(j - i, sizeof(*h->keys));
	if (!h->keys)
		goto out_free;
	/* the keys, while they are distinct (the map says so) */
	for (k = i; k < j; k++) {
		struct codegen_fold_key *key = &h->keys[h->nkeys];

		key->run = h->idx;
		if (!codegen_rule_fold_key(dp->chain_rules[k], key->key))
			break;
		if (bpf_map_update_elem(dp->env.fold_fd, key, &v[k]->idx,
					BPF_NOEXIST)) {
			/* full: each later try would fail the same way (and
			 * cost a key array as long as the rest of its run) */
			if (errno == E2BIG || errno == ENOMEM)
				dp->fold_full = true;
			break;
		}
		dp->stats.fold_keys_written++;
		h->nkeys++;
	}
	if (h->nkeys < FOLD_MIN)
		goto out_free;
	memset(&h->want, 0, sizeof(h->want));
	h->want.shape = v[i]->want.shape;
	h->want.flags = ENTRY_F_FOLD;
	/* new in the next generation, like a new rule */
	h->want.genmask = genmask_cur(net);
	memcpy(h->want.consts + FOLD_CONST_RUN, &h->idx, 4);
	h->seen = true;
	h->last = v[i + h->nkeys - 1];
	for (k = i; k < i + h->nkeys; k++) {
		v[k]->run = h;
		v[k]->run_seq = h->handle;
	}
	*out = h;
	return h->nkeys;

out_free:
	rec_free(dp, h);
	return 0;
}

/*
 * the fold head of the live generation whose members are exactly the
 * rules chain[i, i + its nkeys), in order (nothing inserted among them or
 * deleted since it was made: that unfolds it), if any: it stays, with its
 * entry and fold map keys (retire_heads() retired it; a full prepare that
 * changes nothing of a run writes nothing of it, and the next prepare
 * frees nothing of it). Its members' keys are those of their constants,
 * which a rule's record never changes.
 */
static struct dp_rec *fold_keep(struct dataplane *dp, const struct table *t,
				uint32_t i, uint32_t n)
{
	struct dp_rec **v = dp->chain.v, *h;
	uint32_t k;

	if (!v[i]->run_seq)
		return NULL;
	h = rec_find(dp, REC_FOLD, t->handle, v[i]->run_seq);
	if (!h || !h->retired || h->unfolded || h->nkeys < FOLD_MIN ||
	    h->nkeys > n - i || v[i + h->nkeys - 1] != h->last)
		return NULL;
	for (k = i; k < i + h->nkeys; k++)
		if (v[k]->run_seq != h->handle)
			return NULL;
	for (k = i; k < i + h->nkeys; k++)
		v[k]->run = h;
	h->retired = false;
	h->want.genmask = 0;	/* the live generation runs it already */
	return h;
}

/* fold head @h: its exit is the entry after its last member */
static void fold_set_exit(struct dp_rec *h, uint32_t exit)
{
	memcpy(h->want.consts + FOLD_CONST_EXIT, &exit, 4);
}

static uint32_t fold_exit(const struct codegen_entry *e)
{
	uint32_t x;

	memcpy(&x, e->consts + FOLD_CONST_EXIT, 4);
	return x;
}

/* one chain's rule records (dp->chain) linked after @head, runs folded */
static void link_chain(struct net *net, struct dataplane *dp,
		       const struct table *t, struct dp_rec *head)
{
	struct dp_rec *prev = head, *h;
	uint32_t i = 0, n = dp->chain.n, k, m;

	head->prev = NULL;
	while (i < n) {
		h = fold_keep(dp, t, i, n);
		if (h)
			m = h->nkeys;
		else
			m = fold_run(net, dp, t, i, n, &h);
		if (h) {
			prev->want.next = h->idx;
			prev->succ = h;
			h->prev = prev;
			prev = h;
		} else {
			m = 1;
			dp->chain.v[i]->run_seq = 0;
		}
		for (k = i; k < i + m; k++) {
			struct dp_rec *r = dp->chain.v[k];

			prev->want.next = r->idx;
			prev->succ = r;
			r->prev = prev;
			prev = r;
		}
		i += m;
	}
	prev->want.next = 0;
	prev->succ = NULL;
	/* exits, now that every successor is known */
	for (h = head->succ; h; h = h->succ)
		if (h->kind == REC_FOLD)
			fold_set_exit(h, h->last->want.next);
}

static int chain_push(struct dataplane *dp, struct dp_rec *r, struct rule *rule)
{
	if (dp->chain.n == dp->chain_cap) {
		uint32_t ncap = dp->chain_cap ? dp->chain_cap * 2 : 256;
		void *v = realloc(dp->chain.v, ncap * sizeof(*dp->chain.v));
		void *w = v ? realloc(dp->chain_rules, ncap * sizeof(*dp->chain_rules)) : NULL;

		if (v)
			dp->chain.v = v;
		if (!w)
			return -ENOMEM;
		dp->chain_rules = w;
		dp->chain_cap = dp->chain.cap = ncap;
	}
	dp->chain_rules[dp->chain.n] = rule;
	dp->chain.v[dp->chain.n++] = r;
	return 0;
}

/* pass B: an entry per visible rule, linked in chain order, runs folded */
static void prepare_rules(struct net *net, struct dataplane *dp,
			  struct dp_error *err)
{
	struct table *t;
	struct chain *c;
	struct rule *rule;

	list_for_each_entry(t, &net->tables, list) {
		if (!visible(t->genmask, net) || !family_ok(t->family))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			if (!visible(c->genmask, net))
				continue;
			dp->chain.n = 0;
			list_for_each_entry(rule, &c->rules, list) {
				struct dp_rec *r;

				if (dp->err)
					return;
				if (!visible(rule->genmask, net))
					continue;
				r = rec_find(dp, REC_RULE, t->handle, rule->uid);
				if (r)
					r->want = r->shadow;
				else if (!(r = rule_rec_new(dp, t, rule, err)))
					return;
				r->seen = true;
				r->run = NULL;
				/* a rule of a chain the batch deletes goes with
				 * it (a binding chain's rules have no genmask
				 * of their own): the next incremental prepare
				 * frees its entry (unreachable already: no
				 * live rule jumps to a deleted chain, no hook
				 * point runs it) */
				r->want.genmask = (rule->genmask | c->genmask |
						   t->genmask) & 3;
				if (chain_push(dp, r, rule)) {
					set_err(dp, err, -ENOMEM, NULL);
					return;
				}
			}
			link_chain(net, dp, t,
				   rec_find(dp, REC_HEAD, t->handle, c->handle));
		}
	}
}

/* fold heads of the last generation: unlinked by this full prepare; they
 * stay (inactive in both generations) for packets still at them, and go
 * with the next prepare */
static int retire_heads(struct dataplane *dp)
{
	struct dp_rec *r;
	uint32_t i;

	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = r->hnext) {
			if (r->kind != REC_FOLD || r->retired)
				continue;
			r->retired = true;
			r->seen = true;
			r->want = r->shadow;
			r->want.genmask = 3;
			if (recs_push(&dp->retired, r))
				return -ENOMEM;
		}
	return 0;
}

/* the heads the last prepare retired (and did not keep: fold_keep()):
 * their keys and entries go */
static void free_retired(struct dataplane *dp)
{
	uint32_t i;

	for (i = 0; i < dp->retired.n; i++)
		if (dp->retired.v[i]->retired)
			rec_free(dp, dp->retired.v[i]);
	dp->retired.n = 0;
}

/*
 * the allocators outgrew the maps: bigger maps for the next generation,
 * the rule map a copy of the current one (the live walkers keep the old
 * maps until publish switches walkers; counters of the old map are folded
 * into cnt_init then). Every walker is rebuilt against the new maps.
 */
static int grow_maps(struct dataplane *dp, struct dp_error *err)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);
	uint32_t rcap = dp->rules_cap, ccap = dp->counters_cap;
	uint32_t scap = dp->state_cap, i;
	int rfd = -1, cfd = -1, sfd = -1, ret;
	struct codegen_entry *mem = NULL;
	uint64_t *smem = NULL, *scopy = NULL;
	size_t len = 0, slen = 0;

	while (rcap < dp->entries.max)
		rcap *= 2;
	while (ccap < dp->counters.max)
		ccap *= 2;
	while (scap < dp->states.max)
		scap *= 2;
	if (rcap > dp->entries.hard)
		rcap = dp->entries.hard;
	if (ccap > dp->counters.hard)
		ccap = dp->counters.hard;
	if (scap > dp->states.hard)
		scap = dp->states.hard;
	if (rcap != dp->rules_cap) {
		rfd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_rules", 4,
				     sizeof(struct codegen_entry), rcap, &mmapable);
		if (rfd < 0)
			goto out_errno;
		len = (size_t)rcap * sizeof(struct codegen_entry);
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0);
		if (mem == MAP_FAILED) {
			mem = NULL;
			goto out_errno;
		}
		memcpy(mem, dp->rules_mem, dp->rules_len);
	}
	if (ccap != dp->counters_cap) {
		cfd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "nfbpf_counters",
				     4, sizeof(struct codegen_counter), ccap, NULL);
		if (cfd < 0)
			goto out_errno;
	}
	if (scap != dp->state_cap) {
		sfd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_state", 4,
				     sizeof(uint64_t), scap, &mmapable);
		if (sfd < 0)
			goto out_errno;
		slen = (size_t)scap * sizeof(uint64_t);
		smem = mmap(NULL, slen, PROT_READ | PROT_WRITE, MAP_SHARED, sfd, 0);
		scopy = malloc(dp->state_len);
		if (smem == MAP_FAILED || !scopy) {
			if (smem == MAP_FAILED)
				smem = NULL;
			else
				errno = ENOMEM;
			goto out_errno;
		}
		/* the state as it is now (grow_commit() adds what packets
		 * change in the old map until then), and this prepare's new
		 * slots */
		for (i = 0; i < dp->state_cap; i++)
			scopy[i] = __atomic_load_n(&dp->state_mem[i], __ATOMIC_RELAXED);
		memcpy(smem, scopy, dp->state_len);
		for (i = 0; i < dp->nsinit; i++)
			smem[dp->sinit[i].slot] = dp->sinit[i].val;
	}
	dp->old.rules_fd = dp->env.rules_fd;
	dp->old.counters_fd = dp->env.counters_fd;
	dp->old.state_fd = dp->env.state_fd;
	dp->old.rules_cap = dp->rules_cap;
	dp->old.counters_cap = dp->counters_cap;
	dp->old.state_cap = dp->state_cap;
	if (rfd >= 0) {
		dp->old.rules_mem = dp->rules_mem;
		dp->old.rules_len = dp->rules_len;
		dp->env.rules_fd = rfd;
		dp->rules_mem = mem;
		dp->rules_len = len;
		dp->rules_cap = rcap;
	}
	if (cfd >= 0) {
		dp->env.counters_fd = cfd;
		dp->counters_cap = ccap;
	}
	if (sfd >= 0) {
		dp->old.state_mem = dp->state_mem;
		dp->old.state_len = dp->state_len;
		dp->old.state_copy = scopy;
		dp->env.state_fd = sfd;
		dp->state_mem = smem;
		dp->state_len = slen;
		dp->state_cap = scap;
	}
	dp->grown = true;
	return 0;

out_errno:
	ret = -errno;
	if (mem)
		munmap(mem, len);
	if (smem)
		munmap(smem, slen);
	free(scopy);
	if (rfd >= 0)
		close(rfd);
	if (cfd >= 0)
		close(cfd);
	if (sfd >= 0)
		close(sfd);
	snprintf(err->buf, sizeof(err->buf),
		 "cannot grow the nfbpf rule map to %u entries: %s", rcap,
		 strerror(-ret));
	err->msg = err->buf;
	return ret;
}

/* dataplane_counter_epoch(): global, so that a dataplane freed and made
 * again does not count from 0 again */
static uint64_t cnt_epochs;

/* publish: the new walkers run, the maps before growth go */
static void grow_commit(struct dataplane *dp)
{
	struct codegen_counter *v;
	uint32_t slot;
	int i;

	if (!dp->grown)
		return;
	if (dp->old.counters_fd != dp->env.counters_fd) {
		/* what packets counted in the old counter map */
		v = calloc(dp->ncpus, sizeof(*v));
		for (slot = 1; v && slot < dp->old.counters_cap &&
		     slot < dp->counters.max; slot++) {
			if (!dp->counters.used[slot] ||
			    bpf_map_lookup_elem(dp->old.counters_fd, &slot, v))
				continue;
			for (i = 0; i < dp->ncpus; i++) {
				dp->cnt_init[slot].packets += v[i].packets;
				dp->cnt_init[slot].bytes += v[i].bytes;
			}
		}
		free(v);
		close(dp->old.counters_fd);
		dp->cnt_epoch = ++cnt_epochs;
	}
	if (dp->old.state_fd != dp->env.state_fd) {
		/* the new walkers run: add what packets changed in the old
		 * map since it was copied (quota bytes, limit bases move by
		 * the cost spent), keeping what the new walkers did since */
		for (slot = 1; slot < dp->old.state_cap; slot++) {
			uint64_t d = __atomic_load_n(&dp->old.state_mem[slot],
						     __ATOMIC_RELAXED) -
				     dp->old.state_copy[slot];

			if (d)
				__atomic_fetch_add(&dp->state_mem[slot], d,
						   __ATOMIC_RELAXED);
		}
		munmap(dp->old.state_mem, dp->old.state_len);
		close(dp->old.state_fd);
		free(dp->old.state_copy);
	}
	if (dp->old.rules_fd != dp->env.rules_fd) {
		munmap(dp->old.rules_mem, dp->old.rules_len);
		close(dp->old.rules_fd);
	}
	dp->old.rules_mem = NULL;
	dp->old.state_mem = NULL;
	dp->old.state_copy = NULL;
	dp->old.rules_fd = dp->old.counters_fd = dp->old.state_fd = -1;
	dp->grown = false;
	/* the grown maps replace the pinned ones (a failure only leaves a
	 * restart the old counters) */
	if (pin_maps(dp))
		fprintf(stderr, "nfbpfd: cannot pin the grown maps\n");
}

/* abort: back to the maps before growth, shadows as they hold */
static void grow_undo(struct dataplane *dp)
{
	struct dp_rec *r;
	uint32_t i;

	if (!dp->grown)
		return;
	if (dp->old.rules_fd != dp->env.rules_fd) {
		munmap(dp->rules_mem, dp->rules_len);
		close(dp->env.rules_fd);
		dp->env.rules_fd = dp->old.rules_fd;
		dp->rules_mem = dp->old.rules_mem;
		dp->rules_len = dp->old.rules_len;
		dp->rules_cap = dp->old.rules_cap;
		/* the old map never saw this prepare's writes */
		for (i = 0; i < dp->nhash; i++)
			for (r = dp->hash[i]; r; r = r->hnext)
				if (!r->fresh)
					r->shadow = dp->rules_mem[r->idx];
	}
	if (dp->old.counters_fd != dp->env.counters_fd) {
		close(dp->env.counters_fd);
		dp->env.counters_fd = dp->old.counters_fd;
		dp->counters_cap = dp->old.counters_cap;
	}
	if (dp->old.state_fd != dp->env.state_fd) {
		munmap(dp->state_mem, dp->state_len);
		close(dp->env.state_fd);
		dp->env.state_fd = dp->old.state_fd;
		dp->state_mem = dp->old.state_mem;
		dp->state_len = dp->old.state_len;
		dp->state_cap = dp->old.state_cap;
		free(dp->old.state_copy);
		dp->old.state_copy = NULL;
	}
	dp->old.rules_mem = NULL;
	dp->old.state_mem = NULL;
	dp->old.rules_fd = dp->old.counters_fd = dp->old.state_fd = -1;
	dp->grown = false;
}

/* a fresh entry, whole (nothing reaches it yet) */
static void write_fresh(struct dataplane *dp, struct dp_rec *r)
{
	memcpy(&dp->rules_mem[r->idx], &r->want, sizeof(r->want));
	r->shadow = r->want;
}

/* a live entry, field by field with atomic stores: only its successor,
 * genmask and the next generation's policy change */
static void write_live(struct dataplane *dp, struct dp_rec *r)
{
	struct codegen_entry *m = &dp->rules_mem[r->idx];
	int k;

	if (!memcmp(&r->want, &r->shadow, sizeof(r->want)))
		return;
	for (k = 0; k < 2; k++)
		if (r->want.policy[k] != r->shadow.policy[k])
			__atomic_store_n(&m->policy[k], r->want.policy[k],
					 __ATOMIC_RELEASE);
	if (r->want.genmask != r->shadow.genmask)
		__atomic_store_n(&m->genmask, r->want.genmask, __ATOMIC_RELEASE);
	if (r->want.next != r->shadow.next)
		__atomic_store_n(&m->next, r->want.next, __ATOMIC_RELEASE);
	if (r->kind == REC_FOLD && fold_exit(&r->want) != fold_exit(&r->shadow))
		__atomic_store_n((uint32_t *)(m->consts + FOLD_CONST_EXIT),
				 fold_exit(&r->want), __ATOMIC_RELEASE);
	r->shadow = r->want;
}

/*
 * write fresh entries whole, then, after a release fence, change live
 * entries: every record seen by a full prepare
 */
static void write_entries(struct dataplane *dp)
{
	struct dp_rec *r;
	uint32_t i;

	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = r->hnext)
			if (r->seen && r->fresh)
				write_fresh(dp, r);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	dp->written = true;
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = r->hnext)
			if (r->seen && !r->fresh)
				write_live(dp, r);
}

/* the same for the records an incremental prepare touched */
static void write_touched(struct dataplane *dp)
{
	uint32_t i;

	for (i = 0; i < dp->touched.n; i++)
		if (dp->touched.v[i]->fresh)
			write_fresh(dp, dp->touched.v[i]);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	dp->written = true;
	for (i = 0; i < dp->touched.n; i++)
		if (!dp->touched.v[i]->fresh)
			write_live(dp, dp->touched.v[i]);
}

/*
 * does @r's entry differ between the generations after this prepare (so
 * that the next incremental prepare must make the next one's half or
 * genmask bit what the live one holds then)? Rules and fold heads new or
 * gone in the next generation; chain heads whose policy changes, or that
 * are new or gone (a full prepare writes the next generation's policy of
 * a live head only: the other half is two generations old)
 */
static bool settle_wanted(const struct dp_rec *r)
{
	if (r->kind == REC_HEAD)
		return r->want.policy[0] != r->want.policy[1];
	return !r->retired && r->want.genmask;
}

/* objects gone from the model: their entries are unreachable now; what
 * the next prepare settles */
static void drop_unseen(struct dataplane *dp)
{
	struct dp_rec *r, *n;
	uint32_t i;

	dp->settle.n = 0;
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = n) {
			n = r->hnext;
			if (!r->seen)
				rec_free(dp, r);
			else if (settle_wanted(r) && recs_push(&dp->settle, r))
				dp->settling = false;
		}
}

/* ---- incremental prepare ---- */

/* @r's entry changes in this prepare: start from what the map holds */
static int touch(struct dataplane *dp, struct dp_rec *r)
{
	if (r->touched)
		return 0;
	r->want = r->shadow;
	r->touched = true;
	r->seen = true;
	return recs_push(&dp->touched, r);
}

/* @r's successor: the next record of its chain that is not dead */
static int relink(struct dataplane *dp, struct dp_rec *r)
{
	struct dp_rec *n = r->succ;

	while (n && n->dead)
		n = n->succ;
	if (touch(dp, r))
		return -ENOMEM;
	r->want.next = n ? n->idx : 0;
	/* the last member of a folded run: its head's exit follows */
	if (r->run && r->run->last == r && !r->run->unfolded) {
		if (touch(dp, r->run))
			return -ENOMEM;
		fold_set_exit(r->run, r->want.next);
	}
	return 0;
}

/* walk @h's run rule by rule from the next generation on */
static int unfold(struct dataplane *dp, struct dp_rec *h)
{
	if (h->unfolded)
		return 0;
	if (touch(dp, h))
		return -ENOMEM;
	h->want.genmask |= 1u << dp->gen_next;
	h->unfolded = true;
	dp->unfolds++;
	return 0;
}

static struct dp_rec *prev_alive(struct dp_rec *r)
{
	r = r->prev;
	while (r && r->dead)
		r = r->prev;
	return r;
}

/*
 * can the batch @d be prepared from the records alone? Only rules and
 * elements of exact sets changed, the last published prepare (full or
 * not) left complete lists of what differs between the generations (rule
 * entries and chain policies: dp->settle; set entries: dp_sets_delta_ok()),
 * and every chain and set the new rules and elements name has a dataplane
 * id already.
 */
static bool delta_ok(struct dataplane *dp, struct net *net,
		     const struct dp_delta *d)
{
	uint32_t i;

	if (!d || d->other || !dp->settled || dp->prepared ||
	    !dp_sets_delta_ok(dp->sets, NULL, NULL))
		return false;
	for (i = 0; i < d->nelems; i++) {
		const struct set_elem *e = d->elems[i].elem;
		const struct set *s = d->elems[i].set;
		const struct chain *c = e->verdict.chain;

		if (!dp_sets_delta_ok(dp->sets, s, e))
			return false;
		if (c && dp_sets_id(dp->sets, s) &&
		    !rec_find(dp, REC_HEAD, c->table->handle, c->handle))
			return false;
	}
	for (i = 0; i < d->nrules; i++) {
		const struct rule *rule = d->rules[i];
		const struct chain *c = rule->chain;
		const struct expr *e;

		if (!family_ok(c->table->family))
			continue;
		if (!rec_find(dp, REC_HEAD, c->table->handle, c->handle))
			return false;
		rule_for_each_expr(e, rule) {
			const struct expr_lookup *l = expr_priv(e);
			const struct expr_objref *o = expr_priv(e);

			if (e->type == EXPR_LOOKUP && l->set &&
			    !dp_sets_id(dp->sets, l->set))
				return false;
			/* a map or an object new to the dataplane */
			if (e->type == EXPR_OBJREF &&
			    (o->set ? !dp_sets_id(dp->sets, o->set) :
			     !obj_rec(dp, o->obj)))
				return false;
			if (e->type == EXPR_DYNSET && (!dp_sets_count(dp->sets,
			    ((const struct expr_dynset *)expr_priv(e))->set)))
				return false;
			/* a set both looked up and added to with statements
			 * (refused by the full prepare) */
			if (active(rule->genmask, genmask_next(net)) &&
			    !dp_sets_delta_expr_ok(dp->sets, e))
				return false;
		}
	}
	return true;
}

/*
 * pass B for a rule-only batch: settle what the last commit left (rules it
 * added are active in both generations now, rules it deleted are gone from
 * the model, chain policies it changed hold in both generations), then a
 * record per rule of @d, linked between its neighbours. Touches O(batch)
 * records, never a whole chain.
 */
static void prepare_delta_rules(struct net *net, struct dataplane *dp,
				const struct dp_delta *d, struct dp_error *err)
{
	uint8_t cur = genmask_cur(net), next = 1u << dp->gen_next;
	int64_t count = (int64_t)dp->stats.rule_entries;
	uint32_t i;

	/* 1. the last commit's rules and chain policies */
	for (i = 0; i < dp->settle.n; i++) {
		struct dp_rec *r = dp->settle.v[i];

		if (r->kind == REC_HEAD) {
			/* this batch changes no policy: the next generation
			 * has the live one's */
			if (touch(dp, r))
				goto out_nomem;
			r->want.policy[dp->gen_next] =
				r->want.policy[dp->gen_next ^ 1];
		} else if (r->shadow.genmask & cur) {
			r->dead = true;
			if (recs_push(&dp->dead, r))
				goto out_nomem;
		} else {
			if (touch(dp, r))
				goto out_nomem;
			r->want.genmask = 0;
		}
	}
	/* a member going away unfolds its run (after the loop above: it
	 * may settle the head itself, which must not undo the unfold) */
	for (i = 0; i < dp->dead.n; i++)
		if (dp->dead.v[i]->run && unfold(dp, dp->dead.v[i]->run))
			goto out_nomem;
	/* 2. this batch's rules */
	for (i = 0; i < d->nrules && !dp->err; i++) {
		struct rule *rule = d->rules[i];
		struct chain *c = rule->chain;
		struct table *t = c->table;
		struct list_head *q;
		struct dp_rec *r, *p = NULL;

		if (!family_ok(t->family) || !visible(rule->genmask, net))
			continue;
		r = rec_find(dp, REC_RULE, t->handle, rule->uid);
		if (r) {
			if (touch(dp, r))
				goto out_nomem;
			count -= !(r->shadow.genmask & cur);
			r->want.genmask = rule->genmask & 3;
			count += !(r->want.genmask & next);
			continue;
		}
		r = rule_rec_new(dp, t, rule, err);
		if (!r)
			return;
		r->seen = r->touched = true;
		if (recs_push(&dp->touched, r))
			goto out_nomem;
		r->want.genmask = rule->genmask & 3;
		count += !(r->want.genmask & next);
		/* after the nearest earlier rule that has a record (rules of
		 * this batch met later have none yet), or the chain head */
		for (q = rule->list.prev; q != &c->rules && !p; q = q->prev)
			p = rec_find(dp, REC_RULE, t->handle,
				     list_entry(q, struct rule, list)->uid);
		if (!p)
			p = rec_find(dp, REC_HEAD, t->handle, c->handle);
		/* inside a folded run (not after its last rule): unfold it */
		if (p->run && p->run->last != p && unfold(dp, p->run))
			goto out_nomem;
		r->prev = p;
		r->succ = p->succ;
		if (p->succ)
			p->succ->prev = r;
		p->succ = r;
	}
	if (dp->err)
		return;
	/* 3. successors: of each new entry and of what precedes it or a
	 * dead one */
	for (i = 0; i < dp->touched.n; i++) {
		struct dp_rec *r = dp->touched.v[i], *p;

		if (!r->fresh)
			continue;
		if (relink(dp, r) || ((p = prev_alive(r)) && relink(dp, p)))
			goto out_nomem;
	}
	for (i = 0; i < dp->dead.n; i++) {
		struct dp_rec *p = prev_alive(dp->dead.v[i]);

		if (p && relink(dp, p))
			goto out_nomem;
	}
	dp->rule_entries_next = count < 0 ? 0 : (uint64_t)count;
	return;

out_nomem:
	set_err(dp, err, -ENOMEM, NULL);
}

/* after a successful incremental prepare: dead records go, the rules of
 * this batch are the next one's to settle */
static void finish_delta(struct dataplane *dp)
{
	uint32_t i;

	/* members of fold heads that go forget them (first, while every
	 * member is still there) */
	for (i = 0; i < dp->dead.n; i++) {
		struct dp_rec *h = dp->dead.v[i], *m;

		if (h->kind != REC_FOLD || h->last == h)
			continue;
		for (m = h->succ; m; m = m->succ) {
			if (m->run == h)
				m->run = NULL;
			if (m == h->last)
				break;
		}
	}
	for (i = 0; i < dp->dead.n; i++) {
		struct dp_rec *r = dp->dead.v[i];

		if (r->run && r->run->last == r)
			r->run->last = r->prev;
		r->prev->succ = r->succ;
		if (r->succ)
			r->succ->prev = r->prev;
		rec_free(dp, r);
	}
	dp->dead.n = 0;
	dp->settle.n = 0;
	for (i = 0; i < dp->touched.n; i++) {
		struct dp_rec *r = dp->touched.v[i];

		if (settle_wanted(r) && recs_push(&dp->settle, r))
			dp->settling = false;	/* next prepare: a full one */
	}
}

/* which walker runs at hook point @h: CODEGEN_CTX_* */
static uint8_t hook_ctx(const struct dp_hook *h)
{
	return !h->tc ? CODEGEN_CTX_NF :
	       h->hooknum == NF_NETDEV_EGRESS ? CODEGEN_CTX_TC_EGRESS :
						CODEGEN_CTX_TC_INGRESS;
}

/* the environment of the programs of hook point @h (its ctx) */
static struct codegen_env hook_env(const struct dataplane *dp,
				   const struct dp_hook *h)
{
	struct codegen_env env = dp->env;

	env.ctx = hook_ctx(h);
	return env;
}

/* the walker of context @ctx (CODEGEN_CTX_*), knowing every shape */
static int walker_load(struct dataplane *dp, uint8_t ctx, struct dp_error *err)
{
	struct codegen_env env = dp->env;
	struct codegen_prog p;
	int fd;

	env.ctx = ctx;
	codegen_prog_init(&p);
	fd = codegen_walker_emit(&p, &env, dp->shapes, dp->nshapes);
	if (!fd) {
		fd = offload_prog_load_ctx(&p, "nfbpf_walker", env.ctx,
					   verifier_log, sizeof(verifier_log));
		if (fd >= 0) {
			dp->stats.progs_loaded++;
			if (getenv("NFBPF_VERIFIER_LOG"))
				fprintf(stderr, "%s\n", strstr(verifier_log, "processed") ?: "");
		} else {
			char *last = verifier_log, *nl;

			if (getenv("NFBPF_VERIFIER_LOG"))
				fprintf(stderr, "%s\n", verifier_log);
			/* the verifier's reason: the last line before its stats */
			while ((nl = strstr(last, "\n")) && nl[1] &&
			       strncmp(nl + 1, "processed ", 10) &&
			       strncmp(nl + 1, "verification time", 17))
				last = nl + 1;
			if (nl)
				*nl = 0;
			snprintf(err->buf, sizeof(err->buf),
				 "BPF verifier refused the chain: %.120s", last);
			err->msg = err->buf;
		}
	} else {
		snprintf(err->buf, sizeof(err->buf),
			 "cannot generate the walker program: %s (%u shapes)",
			 strerror(-fd), dp->nshapes);
		err->msg = err->buf;
	}
	codegen_prog_fini(&p);
	return fd;
}

/* 1. prog array slot, 2. trampoline, 3. link in the namespace of @net */
static int hook_attach(struct net *net, struct dataplane *dp,
		       struct dp_hook *h, struct dp_error *err)
{
	struct codegen_env env = hook_env(dp, h);
	struct codegen_prog p;
	int i, fd;

	for (i = 1; i < DP_BASES && dp->slot_used[i]; i++)
		;
	if (i == DP_BASES) {
		err->msg = "too many hook points for the nfbpf dataplane";
		return -ENOSPC;
	}
	h->slot = i;
	dp->slot_used[i] = true;
	codegen_prog_init(&p);
	fd = codegen_tramp_emit(&p, &env, h->slot);
	if (!fd)
		fd = offload_prog_load_ctx(&p, "nfbpf_hook", env.ctx, verifier_log,
					   sizeof(verifier_log));
	codegen_prog_fini(&p);
	if (fd < 0) {
		err->msg = "cannot load the nfbpf hook trampoline";
		return fd;
	}
	dp->stats.progs_loaded++;
	h->tramp_fd = fd;
	if (h->tc) {
		fd = offload_tcx_attach(h->tramp_fd, h->ifindex,
					h->hooknum == NF_NETDEV_EGRESS, net->ns_fd);
		/* gone since it was looked up: as a chain naming a device
		 * that does not exist, nothing to attach to */
		if (fd == -ENODEV)
			return 0;
		if (fd < 0) {
			snprintf(err->buf, sizeof(err->buf),
				 "cannot attach tcx link (ifindex %u %s): %s",
				 h->ifindex, h->hooknum == NF_NETDEV_EGRESS ?
				 "egress" : "ingress", strerror(-fd));
			err->msg = err->buf;
			return fd;
		}
		h->link_fd = fd;
		return hook_pin(dp, h, err);
	}
	fd = offload_link_create(h->tramp_fd, h->pf, h->hooknum, h->priority,
				 net->ns_fd);
	if (fd < 0) {
		snprintf(err->buf, sizeof(err->buf),
			 "cannot attach netfilter link (pf %u hook %u priority %d): %s",
			 h->pf, h->hooknum, h->priority, strerror(-fd));
		err->msg = err->buf;
		return fd == -ERANGE ? -EOPNOTSUPP : fd;
	}
	h->link_fd = fd;
	return hook_pin(dp, h, err);
}

static void hook_free(struct dataplane *dp, struct dp_hook *h)
{
	char name[64];

	/* unpinned, the link detaches with our fd below */
	if (h->pinned && !dp->freeing) {
		hook_pin_name(h, name, sizeof(name));
		offload_unpin(dp->net->ns_ino, name);
	}
	if (h->slot)
		dp->slot_used[h->slot] = false;
	if (h->link_fd >= 0)
		close(h->link_fd);
	if (h->tramp_fd >= 0)
		close(h->tramp_fd);
	list_del(&h->list);
	free(h);
}

/* the hook point (@pf, @hooknum, @priority), or tc (device @ifindex != 0) */
static struct dp_hook *hook_find(struct dataplane *dp, uint32_t pf,
				 uint32_t hooknum, int32_t priority,
				 uint32_t ifindex)
{
	struct dp_hook *h;

	list_for_each_entry(h, &dp->hooks, list)
		if (h->pf == pf && h->hooknum == hooknum &&
		    h->priority == priority && h->ifindex == ifindex)
			return h;
	return NULL;
}

static struct dp_hook *hook_get(struct dataplane *dp, uint32_t pf,
				uint32_t hooknum, int32_t priority,
				uint32_t ifindex)
{
	struct dp_hook *h = hook_find(dp, pf, hooknum, priority, ifindex);

	if (h)
		return h;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->pf = pf;
	h->hooknum = hooknum;
	h->priority = priority;
	h->ifindex = ifindex;
	h->tc = ifindex != 0;
	h->tramp_fd = h->link_fd = -1;
	h->fresh = true;
	list_add_tail(&h->list, &dp->hooks);
	return h;
}

/*
 * base chains of one hook point run newest registration first: the kernel's
 * nf_hook_entries_grow() puts a new hook before those of equal priority.
 * A chain registers when it first runs at a hook point: when it is
 * created, and again when its table wakes from dormant or its device
 * list gains the hook point's device (want_add())
 */
static int want_cmp(const void *a, const void *b)
{
	const struct dp_want *x = a, *y = b;

	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* netfilter hook points: the nat chains run together inside the nat
 * core's hook (where it registered among the others), in priority order
 * there, newest first among equals (nf_hook_entries_insert_raw()) */
static int want_cmp_nf(const void *a, const void *b)
{
	const struct dp_want *x = a, *y = b;

	if (x->outer != y->outer)
		return x->outer > y->outer ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return want_cmp(a, b);
}

/* tc hook points: a device's hook list runs in priority order, newest
 * registration first among equals (nf_hook_entries_grow()) */
static int want_cmp_tc(const void *a, const void *b)
{
	const struct dp_want *x = a, *y = b;

	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return want_cmp(a, b);
}

/*
 * ... in groups by where the kernel runs them, whatever their priority:
 * ingress: the bridge's input hook at the bridge device (br_pass_frame_up()
 * precedes the bridge device's netif_receive_skb()), the netdev and inet
 * ingress chains (nf_hook_ingress()), the bridge's prerouting and
 * link-local input hooks at a port (its rx_handler, br_handle_frame()),
 * the arp chains (arp_rcv()); egress: the bridge's forward/output hooks,
 * its postrouting hook (all before the port's dev_queue_xmit()), the arp
 * chains (arp_xmit() before dev_queue_xmit()), the netdev egress chains
 * (nf_hook_egress())
 */
static int tc_group(uint8_t pf, bool egress)
{
	switch (pf) {
	case HEAD_PF_BR_IN_BR:
		return 0;
	case HEAD_PF_BR_PRE: case HEAD_PF_BR_IN_PORT: case HEAD_PF_BR_MARK:
		return 2;
	case HEAD_PF_BR_FWD: case HEAD_PF_BR_OUT:
		return 0;
	case HEAD_PF_BR_POST:
		return 1;
	case HEAD_PF_ARP:
		return egress ? 2 : 3;
	}
	return egress ? 3 : 1;
}

static int want_cmp_tc_in(const void *a, const void *b)
{
	const struct dp_want *x = a, *y = b;
	int gx = tc_group(x->pf, false), gy = tc_group(y->pf, false);

	return gx != gy ? gx - gy : want_cmp_tc(a, b);
}

static int want_cmp_tc_out(const void *a, const void *b)
{
	const struct dp_want *x = a, *y = b;
	int gx = tc_group(x->pf, true), gy = tc_group(y->pf, true);

	return gx != gy ? gx - gy : want_cmp_tc(a, b);
}

/*
 * @c (of @r) wants to run at hook point @h: registered there since the
 * live generation if it runs there now; else registered by this batch:
 * when it was created if that was since the last prepare, else now (its
 * table woke from dormant, or its device list gained @h's device)
 */
static int want_add(struct dataplane *dp, struct dp_hook *h,
		    const struct chain *c, const struct dp_rec *r, uint8_t pf,
		    struct dp_error *err)
{
	uint64_t seq = 0;
	uint32_t i;

	if (h->nwant == HOOK_CHAINS_MAX) {
		set_err(dp, err, -ENOSPC,
			"too many base chains at one hook and priority");
		return -ENOSPC;
	}
	for (i = 0; i < h->nheads && !seq; i++)
		if (h->heads[i] == r->idx && h->head_pf[i] == pf)
			seq = h->head_seq[i];
	if (!seq)
		seq = c->reg_seq > dp->reg_seen ? c->reg_seq : ruleset_reg_seq();
	h->seen = true;
	h->want[h->nwant].head = r->idx;
	h->want[h->nwant].seq = seq;
	h->want[h->nwant].outer = seq;
	h->want[h->nwant].prio = c->base->priority;
	h->want[h->nwant].pf = pf;
	h->nwant++;
	return 0;
}

/*
 * a netdev chain or inet ingress chain: one tc hook point per device
 * that exists now (a device named but missing gets nothing; one that
 * appears later is attached by dataplane_link_poll() or the next commit).
 * An arp chain: every device of the netns (tc ingress for input, egress
 * for output), the walker picks the frames the arp hook would see.
 */
static void collect_tc(struct net *net, struct dataplane *dp,
		       const struct table *t, const struct chain *c,
		       const struct dp_rec *r, struct dp_error *err)
{
	const struct basechain *b = c->base;
	uint32_t *idx = NULL, i, n, hooknum;
	struct dp_hook *h;
	uint8_t pf;
	int ret;

	if (t->family == NFPROTO_ARP || t->family == NFPROTO_BRIDGE) {
		ret = offload_ifindex_all(net->ns_fd, &idx, &n);
		if (ret) {
			set_err(dp, err, ret, "cannot list the devices of the netns");
			return;
		}
		if (t->family == NFPROTO_ARP) {
			hooknum = b->hooknum == NF_ARP_OUT ? NF_NETDEV_EGRESS :
							     NF_NETDEV_INGRESS;
			pf = HEAD_PF_ARP;
		} else {
			hooknum = b->hooknum <= NF_BR_LOCAL_IN ?
				  NF_NETDEV_INGRESS : NF_NETDEV_EGRESS;
			pf = b->hooknum == NF_BR_PRE_ROUTING ? HEAD_PF_BR_PRE :
			     b->hooknum == NF_BR_LOCAL_IN ? HEAD_PF_BR_IN_PORT :
			     b->hooknum == NF_BR_FORWARD ? HEAD_PF_BR_FWD :
			     b->hooknum == NF_BR_LOCAL_OUT ? HEAD_PF_BR_OUT :
							     HEAD_PF_BR_POST;
		}
	} else {
		if (!b->ndevs)
			return;
		n = b->ndevs;
		idx = calloc(n, sizeof(*idx));
		if (!idx) {
			set_err(dp, err, -ENOMEM, NULL);
			return;
		}
		ret = offload_ifindex(net->ns_fd, b->devs, n, idx);
		if (ret) {
			set_err(dp, err, ret, "cannot look up the chain's devices");
			goto out_free;
		}
		hooknum = t->family == NFPROTO_NETDEV ? b->hooknum :
							NF_NETDEV_INGRESS;
		pf = t->family == NFPROTO_NETDEV ? HEAD_PF_NETDEV : HEAD_PF_INET;
	}
	for (i = 0; i < n && !dp->err; i++) {
		if (!idx[i])
			continue;
		h = hook_get(dp, NFPROTO_NETDEV, hooknum, 0, idx[i]);
		if (!h) {
			set_err(dp, err, -ENOMEM, NULL);
			break;
		}
		if (want_add(dp, h, c, r, pf, err))
			break;
		/* the bridge's input hook also runs at the bridge device
		 * (br_pass_frame_up()), before its ingress chains */
		if (pf == HEAD_PF_BR_IN_PORT &&
		    want_add(dp, h, c, r, HEAD_PF_BR_IN_BR, err))
			break;
		/* forward and postrouting (of forwarded frames) need the
		 * walker at the ports' ingress too (codegen/walker.c
		 * emit_bridge(): it tells the egress the input port) */
		if (pf == HEAD_PF_BR_FWD || pf == HEAD_PF_BR_POST) {
			h = hook_get(dp, NFPROTO_NETDEV, NF_NETDEV_INGRESS, 0, idx[i]);
			if (!h) {
				set_err(dp, err, -ENOMEM, NULL);
				break;
			}
			if (want_add(dp, h, c, r, HEAD_PF_BR_MARK, err))
				break;
		}
	}
out_free:
	free(idx);
}

/* the next generation's base chains, grouped by hook point */
static void collect_hooks_(struct net *net, struct dataplane *dp,
			   uint8_t next, struct dp_error *err)
{
	struct dp_hook *h;
	struct table *t;
	struct chain *c;

	list_for_each_entry(h, &dp->hooks, list) {
		h->seen = false;
		h->nwant = 0;
	}
	list_for_each_entry(t, &net->tables, list) {
		if (!active(t->genmask, next) || (t->flags & TABLE_F_DORMANT) ||
		    !family_ok(t->family))
			continue;
		list_for_each_entry(c, &t->chains, list) {
			uint32_t pfs[2], npf = 0, i;
			struct dp_rec *r;

			if (!active(c->genmask, next) || !c->base)
				continue;
			r = rec_find(dp, REC_HEAD, t->handle, c->handle);
			if (chain_is_tc(t->family, c->base)) {
				collect_tc(net, dp, t, c, r, err);
				if (dp->err)
					return;
				continue;
			}
			if (t->family == NFPROTO_INET) {
				pfs[npf++] = NFPROTO_IPV4;
				pfs[npf++] = NFPROTO_IPV6;
			} else {
				pfs[npf++] = t->family;
			}
			for (i = 0; i < npf; i++) {
				bool nat = chain_is_nat(c->base);

				h = hook_get(dp, pfs[i], c->base->hooknum,
					     nat ? nat_core_prio(c->base->hooknum) :
					     c->base->priority, 0);
				if (!h) {
					set_err(dp, err, -ENOMEM, NULL);
					return;
				}
				if (want_add(dp, h, c, r, nat ? HEAD_NF_NAT : 0, err))
					return;
			}
		}
	}
}

/*
 * The nat core registers its hooks (at NF_IP_PRI_NAT_DST/SRC of every nat
 * hook) when the first nat chain of its family registers, and keeps them
 * while one is registered (nf_nat_register_fn()); a batch registers its
 * new chains before it unregisters the ones it deletes. So the core of a
 * family with nat chains live keeps its place; else it registered with
 * the first of the new ones. Its nat chains run where it is.
 */
static void nat_sort(struct dataplane *dp)
{
	struct dp_hook *h;
	uint32_t i, f;

	dp->natcore_next[0] = dp->natcore_next[1] = 0;
	list_for_each_entry(h, &dp->hooks, list) {
		if (h->tc || !h->seen)
			continue;
		f = h->pf == NFPROTO_IPV6;
		for (i = 0; i < h->nwant; i++)
			if (h->want[i].pf == HEAD_NF_NAT &&
			    (!dp->natcore_next[f] ||
			     h->want[i].seq < dp->natcore_next[f]))
				dp->natcore_next[f] = h->want[i].seq;
	}
	for (f = 0; f < 2; f++)
		if (dp->natcore_next[f] && dp->natcore_seq[f])
			dp->natcore_next[f] = dp->natcore_seq[f];
	list_for_each_entry(h, &dp->hooks, list) {
		if (h->tc || !h->seen)
			continue;
		f = h->pf == NFPROTO_IPV6;
		for (i = 0; i < h->nwant; i++)
			if (h->want[i].pf == HEAD_NF_NAT)
				h->want[i].outer = dp->natcore_next[f];
	}
}

/* ... and the registrations it saw are no longer new */
static void collect_hooks(struct net *net, struct dataplane *dp,
			  uint8_t next, struct dp_error *err)
{
	uint64_t now = ruleset_reg_seq_last();

	collect_hooks_(net, dp, next, err);
	nat_sort(dp);
	dp->reg_seen = now;
}

/*
 * hook points of the next generation (@mask): attach new ones, sort their
 * chains; load each walker that runs somewhere and lacks a shape (even
 * one left by an aborted batch: it would drop those rules' packets) or
 * refers to maps a growth replaced
 */
static void prepare_hooks(struct net *net, struct dataplane *dp,
			  uint8_t mask, struct dp_error *err)
{
	bool need[DP_WALKERS] = { false };
	struct dp_hook *h;
	uint8_t c;
	int ret;

	collect_hooks(net, dp, mask, err);
	list_for_each_entry(h, &dp->hooks, list) {
		if (dp->err)
			return;
		if (!h->seen)
			continue;
		qsort(h->want, h->nwant, sizeof(h->want[0]),
		      !h->tc ? want_cmp_nf :
		      h->hooknum == NF_NETDEV_EGRESS ? want_cmp_tc_out :
						       want_cmp_tc_in);
		need[hook_ctx(h)] = true;
		if (h->fresh) {
			ret = hook_attach(net, dp, h, err);
			if (ret) {
				set_err(dp, err, ret, NULL);
				return;
			}
		}
	}
	for (c = 0; c < DP_WALKERS && !dp->err; c++) {
		if (!need[c] || (dp->walker_fd[c] >= 0 && !dp->grown &&
				 dp->walker_nshapes[c] == dp->nshapes))
			continue;
		ret = walker_load(dp, c, err);
		if (ret < 0) {
			set_err(dp, err, ret, NULL);
			return;
		}
		dp->pending_fd[c] = ret;
	}
}

/*
 * heads map: half @g of every slot = the chains each hook point runs in
 * that generation (0 for slots of no hook point). The next generation's
 * half is not live; the live half is written by links_refresh() only:
 * heads first, then their count.
 */
static void heads_write(struct dataplane *dp, uint32_t g)
{
	bool used[DP_BASES] = { false };
	struct codegen_heads_gen *v;
	struct dp_hook *h;
	uint32_t i;

	list_for_each_entry(h, &dp->hooks, list) {
		if (!h->seen || !h->slot)
			continue;
		used[h->slot] = true;
		v = &dp->heads_mem[h->slot].gen[g];
		for (i = 0; i < h->nwant; i++) {
			v->head[i] = h->want[i].head;
			v->pf[i] = h->want[i].pf;
		}
		__atomic_store_n(&v->n, h->nwant, __ATOMIC_RELEASE);
	}
	for (i = 1; i < DP_BASES; i++)
		if (!used[i])
			__atomic_store_n(&dp->heads_mem[i].gen[g].n, 0,
					 __ATOMIC_RELEASE);
}

/* the hook points' chains of the generation now live */
static void hooks_settle(struct dataplane *dp)
{
	struct dp_hook *h;
	uint32_t i;

	dp->natcore_seq[0] = dp->natcore_next[0];
	dp->natcore_seq[1] = dp->natcore_next[1];
	list_for_each_entry(h, &dp->hooks, list) {
		h->fresh = false;
		if (!h->seen)
			continue;
		for (i = 0; i < h->nwant; i++) {
			h->heads[i] = h->want[i].head;
			h->head_pf[i] = h->want[i].pf;
			h->head_seq[i] = h->want[i].seq;
		}
		h->nheads = h->nwant;
	}
}

/*
 * the prepared walkers go live (prog array updates). A walker no hook
 * point runs stays in its slot for the next one (a flush, then the same
 * ruleset again: its verification is the most of that commit's time),
 * unless it reads maps this prepare replaced (grown) or is an earlier
 * nfbpfd's (adopted). Return: whether a walker changed.
 */
static bool walkers_publish(struct dataplane *dp)
{
	bool need[DP_WALKERS] = { false }, changed = false;
	struct dp_hook *h;
	uint32_t c;

	list_for_each_entry(h, &dp->hooks, list)
		if (h->seen)
			need[hook_ctx(h)] = true;
	for (c = 0; c < DP_WALKERS; c++) {
		int fd = c == CODEGEN_CTX_NF ? dp->env.progs_fd : dp->env.progs_tc_fd;
		uint32_t idx = c == CODEGEN_CTX_NF ? WALKER_NF :
			       c == CODEGEN_CTX_TC_EGRESS ? WALKER_TC_EGRESS :
							    WALKER_TC_INGRESS;

		if (dp->pending_fd[c] >= 0) {
			bpf_map_update_elem(fd, &idx, &dp->pending_fd[c], BPF_ANY);
			/* an empty slot had no walker a packet could still
			 * run: nothing to wait for */
			if (dp->walker_fd[c] >= 0) {
				close(dp->walker_fd[c]);
				changed = true;
			}
			dp->walker_fd[c] = dp->pending_fd[c];
			dp->pending_fd[c] = -1;
			dp->walker_nshapes[c] = dp->nshapes;
		} else if (!need[c] && (dp->adopted ||
					(dp->walker_fd[c] >= 0 && dp->grown))) {
			/* (adopted prog arrays: an earlier nfbpfd's walker) */
			bpf_map_delete_elem(fd, &idx);
			if (dp->walker_fd[c] >= 0)
				close(dp->walker_fd[c]);
			dp->walker_fd[c] = -1;
		}
	}
	return changed;
}

/* abort: the walkers prepared for the next generation go */
static void walkers_abort(struct dataplane *dp)
{
	uint32_t c;

	for (c = 0; c < DP_WALKERS; c++)
		if (dp->pending_fd[c] >= 0) {
			close(dp->pending_fd[c]);
			dp->pending_fd[c] = -1;
		}
}

/*
 * wait until no packet of generation parity @g is in flight: the sum of
 * the per-CPU counters the walkers keep (struct codegen_inflight). The
 * flip came before (a packet that counts itself later sees it and runs
 * the live generation), so the sum only falls. If it does not reach zero
 * in a second (a bug), fall back to an RCU grace period, which waits for
 * every program that was running.
 */
#define INFLIGHT_SPINS	100000
static int inflight_wait(struct dataplane *dp, uint32_t g)
{
	struct codegen_inflight *v;
	struct timespec ts = { 0, 10000 };
	uint32_t zero = 0, spin;
	int64_t sum;
	int i, ret = 0;

	v = calloc(dp->ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (spin = 0; spin < INFLIGHT_SPINS; spin++) {
		if (bpf_map_lookup_elem(dp->env.inflight_fd, &zero, v)) {
			ret = -errno;
			break;
		}
		for (sum = 0, i = 0; i < dp->ncpus; i++)
			sum += v[i].cnt[g & 1];
		if (!sum)
			break;
		if (spin > 100)
			nanosleep(&ts, NULL);
	}
	free(v);
	if (ret || spin == INFLIGHT_SPINS) {
		dp->stats.inflight_timeouts++;
		return offload_grace_wait(offload_grace_request());
	}
	return 0;
}

int dataplane_prepare_delta(struct net *net, const struct dp_delta *delta,
			    struct dp_error *err)
{
	struct dataplane *dp = NULL;
	struct dp_rec *r;
	int ret;
	uint32_t i;

	err->msg = NULL;
	if (!net->dataplane && list_empty(&net->tables))
		return 0;	/* nothing to run: no maps yet */
	ret = dp_get(net, &dp, err);
	if (ret)
		return ret;
	if (dp->prepared)
		dataplane_abort(net);
	/* packets of the generation before the live one must be gone before
	 * anything they could still read changes */
	ret = inflight_wait(dp, net->gencursor ^ 1);
	if (ret) {
		err->msg = "cannot wait for the packets of the last generation to finish";
		return ret;
	}
	dp->err = 0;
	dp->written = false;
	dp->nsinit = 0;
	dp->nshapes0 = dp->nshapes;
	dp->gen_next = net->gencursor ^ 1;
	dp->touched.n = 0;
	dp->dead.n = 0;
	dp->unfolds = 0;
	dp->fold_full = false;
	free_retired(dp);
	dp->settling = true;
	dp->incremental = delta_ok(dp, net, delta);
	if (dp->incremental) {
		/* 1. entries of the rules of this batch only */
		struct codegen_consts_ctx cc = { .chain_head = head_of,
						 .set_id = set_id_of,
						 .priv = dp };

		dp->stats.incremental_prepares++;
		prepare_delta_rules(net, dp, delta, err);
		/* 1b. the entries of the batch's elements, and those the last
		 * one changed */
		if (!dp->err) {
			ret = dp_sets_prepare_delta(dp->sets, net, &dp->env, &cc,
						    delta, err);
			if (ret)
				set_err(dp, err, ret, NULL);
		}
	} else {
		for (i = 0; i < dp->nhash; i++)
			for (r = dp->hash[i]; r; r = r->hnext) {
				r->seen = false;
				r->fresh = false;
			}
		if (retire_heads(dp))
			set_err(dp, err, -ENOMEM, NULL);
		if (!dp->err)
			prepare_objs(net, dp, err);
		/* 1. entries (nothing the live generation sees changes) */
		if (!dp->err)
			prepare_heads(net, dp, err);
		if (!dp->err) {
			struct codegen_consts_ctx cc = { .chain_head = head_of,
							 .set_id = set_id_of,
							 .elem_counter = elem_counter_of,
							 .set_count = set_count_of,
							 .priv = dp };

			ret = dp_sets_prepare(dp->sets, net, &dp->env, &cc, err);
			if (ret)
				set_err(dp, err, ret, NULL);
		}
		if (!dp->err)
			prepare_rules(net, dp, err);
	}
	if (!dp->err && (dp->entries.max > dp->rules_cap ||
			 dp->counters.max > dp->counters_cap ||
			 dp->states.max > dp->state_cap)) {
		ret = grow_maps(dp, err);
		if (ret)
			set_err(dp, err, ret, NULL);
	}
	if (!dp->err) {
		if (dp->incremental)
			write_touched(dp);
		else
			write_entries(dp);
	}
	/* 1b. conntrack on while something of the next generation uses it
	 * (turned off at publish when nothing does any more) */
	if (dp->incremental)
		ct_users_delta(net, dp, delta, dp->ct_next);
	else
		ct_users(net, dp->ct_next);
	for (i = 0; i < 2 && !dp->err; i++) {
		uint8_t f = i ? CT_V6 : CT_V4;

		if (!(ct_wanted(dp->ct_next) & f) || (dp->conntrack & f))
			continue;
		ret = offload_conntrack_enable(net->ns_fd, i ? NFPROTO_IPV6 : NFPROTO_IPV4);
		if (ret) {
			set_err(dp, err, ret, "cannot enable the kernel's conntrack in this network namespace");
		} else {
			dp->conntrack |= f;
			dp->conntrack_new |= f;
		}
	}
	if (!dp->err && ct_wanted(dp->ct_next) && !dp->ct_acct &&
	    acct_wanted(net, dp->incremental ? delta : NULL)) {
		ret = offload_conntrack_acct(net->ns_fd);
		if (ret)
			set_err(dp, err, ret, "cannot turn conntrack accounting on in this network namespace");
		else
			dp->ct_acct = true;
	}
	/* 2. programs and links */
	if (!dp->err)
		prepare_hooks(net, dp, genmask_next(net), err);
	if (!dp->err)
		heads_write(dp, dp->gen_next & 1);
	dp->prepared = true;
	if (dp->err) {
		ret = dp->err;
		if (!err->msg)
			err->msg = "the nfbpf dataplane cannot build this ruleset";
		dataplane_abort(net);
		return ret;
	}
	if (dp->incremental) {
		finish_delta(dp);
	} else {
		drop_unseen(dp);
		dp_sets_drop_unseen(dp->sets);
		drop_unseen_objs(dp);
		eslots_settle(dp, true);
	}
	return 0;
}

int dataplane_prepare(struct net *net, struct dp_error *err)
{
	return dataplane_prepare_delta(net, NULL, err);
}

void dataplane_publish(struct net *net)
{
	struct dataplane *dp = net->dataplane;
	struct dp_hook *h, *tmp;
	struct dp_rec *r;
	uint32_t zero = 0, i;

	if (!dp || !dp->prepared)
		return;
	dp->conntrack_new = 0;
	/* cannot fail after this point: the calls below only swap what the
	 * kernel already accepted */
	if (dp->adopted) {
		/* the first publish over an earlier nfbpfd's pinned hook
		 * points: their trampolines run its walkers (on its maps)
		 * until our walkers replace them in the prog arrays, which
		 * must find the new generation live at once */
		bpf_map_update_elem(dp->env.gen_fd, &zero, &dp->gen_next,
				    BPF_ANY);
		walkers_publish(dp);
		hooks_settle(dp);
		dp->adopted = false;
		if (pin_maps(dp))
			fprintf(stderr, "nfbpfd: cannot pin the dataplane maps\n");
	} else {
		/* new walkers know every shape of both generations, old
		 * ones not those of the next: no packet may run an old
		 * walker once the flip is seen (a grace period; a failed
		 * wait only loses that) */
		if (walkers_publish(dp)) {
			dp->stats.walker_graces++;
			offload_grace_wait(offload_grace_request());
		}
		hooks_settle(dp);
		bpf_map_update_elem(dp->env.gen_fd, &zero, &dp->gen_next,
				    BPF_ANY);
	}
	/* hook points the new generation does not use (their slots' live
	 * half is empty) */
	list_for_each_entry_safe(h, tmp, &dp->hooks, list)
		if (!h->seen)
			hook_free(dp, h);
	grow_commit(dp);
	/* set maps this prepare created (a failure only loses a restart the
	 * elements the packet path adds to them) */
	if (!dp->adopted && pin_set_maps(dp))
		fprintf(stderr, "nfbpfd: cannot pin the set maps\n");
	/* updated quotas: their new quota word (cannot fail) */
	for (i = 0; i < dp->nqpend; i++)
		__atomic_store_n(&dp->state_mem[dp->qpend[i].slot],
				 dp->qpend[i].val, __ATOMIC_RELAXED);
	dp->nqpend = 0;
	for (i = 0; i < dp->nobjs; i++)
		dp->objs[i].fresh = false;
	if (dp->incremental) {
		for (i = 0; i < dp->touched.n; i++)
			dp->touched.v[i]->fresh = dp->touched.v[i]->touched = false;
		dp->stats.rule_entries = dp->rule_entries_next;
		dp->stats.fold_heads -= dp->unfolds;
	} else {
		dp->stats.rule_entries = dp->stats.fold_heads = 0;
		for (i = 0; i < dp->nhash; i++)
			for (r = dp->hash[i]; r; r = r->hnext) {
				r->fresh = false;
				if (r->shadow.genmask & (1u << dp->gen_next))
					continue;
				if (r->kind == REC_RULE)
					dp->stats.rule_entries++;
				else if (r->kind == REC_FOLD)
					dp->stats.fold_heads++;
			}
	}
	dp->touched.n = 0;
	dp->settled = dp->settling;
	alloc_publish(&dp->entries);
	alloc_publish(&dp->counters);
	alloc_publish(&dp->states);
	dp_sets_publish(dp->sets);
	dp->prepared = false;
	/* the last conntrack user is gone: let the kernel stop tracking (its
	 * hooks unregister with the last nf_ct_netns_put(), after the commit) */
	dp->ct_users[0] = dp->ct_next[0];
	dp->ct_users[1] = dp->ct_next[1];
	ct_release(net, dp, (uint8_t)~ct_wanted(dp->ct_users));
	/* xt recent tables no rule of the new generation names */
	dp_recent_sweep(dp->recent, net, genmask_next(net));
	dp_hl_sweep(dp->hl, net, genmask_next(net));
	dp_string_sweep(dp->string, net, genmask_next(net));
}

/*
 * abort: entries of this prepare (and those drop_unseen() freed) may still
 * be linked from the map; every surviving entry's successor skips to the
 * next surviving one, so no new packet reaches a freed index. The live
 * generation sees no change: it skipped those entries anyway.
 * Return: false if out of memory (then freed indices must cool down).
 */
static bool relink_survivors(struct dataplane *dp)
{
	uint8_t *keep = calloc(dp->entries.max, 1);
	struct dp_rec *r;
	uint32_t i;

	if (!keep)
		return false;
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = r->hnext)
			if (!r->fresh)
				keep[r->idx] = 1;
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = r->hnext) {
			struct codegen_entry *m = &dp->rules_mem[r->idx];
			uint32_t nx = m->next;

			if (r->fresh)
				continue;
			while (nx && !keep[nx])
				nx = dp->rules_mem[nx].next;
			if (nx != m->next)
				__atomic_store_n(&m->next, nx, __ATOMIC_RELEASE);
			r->shadow.next = nx;
		}
	free(keep);
	return true;
}

/* forget the shapes created since there were @n (only fresh entries,
 * freed by now, and no published walker name them) */
static void shapes_trim(struct dataplane *dp, uint32_t n)
{
	while (dp->nshapes > n) {
		struct codegen_shape *s = dp->shapes[--dp->nshapes];

		free(s->key.b);
		codegen_shape_release(s);
		free(s->exprs);
		free(s);
		dp->stats.shapes--;
	}
}

void dataplane_abort(struct net *net)
{
	struct dataplane *dp = net->dataplane;
	struct dp_hook *h, *tmp;
	struct dp_rec *r, *n;
	bool relinked;
	uint32_t i;

	if (!dp || !dp->prepared)
		return;
	dp->natcore_next[0] = dp->natcore_seq[0];
	dp->natcore_next[1] = dp->natcore_seq[1];
	ct_release(net, dp, dp->conntrack_new);
	/* fold heads this prepare retired but never unlinked stay live */
	if (!dp->written) {
		for (i = 0; i < dp->retired.n; i++)
			dp->retired.v[i]->retired = false;
		dp->retired.n = 0;
	}
	/* the next prepare is a full one: it rebuilds record links and the
	 * settle list from the model */
	for (i = 0; i < dp->touched.n; i++)
		dp->touched.v[i]->touched = false;
	for (i = 0; i < dp->dead.n; i++)
		dp->dead.v[i]->dead = false;
	dp->touched.n = dp->dead.n = dp->settle.n = 0;
	dp->settled = false;
	list_for_each_entry_safe(h, tmp, &dp->hooks, list)
		if (h->fresh)
			hook_free(dp, h);
	walkers_abort(dp);
	/* back to the maps before a growth (new walkers are closed) */
	if (dp->grown) {
		grow_undo(dp);
		dp->written = true;	/* the old map links dropped entries */
	}
	/* entries of this prepare: the live generation skips them, but
	 * write_entries() may have linked them in; unlink them so that no
	 * new packet reaches them, then give back every index, counter
	 * slot, set id and shape this prepare took (another batch may never
	 * publish: cooling them until a publish would leak them for good) */
	relinked = !dp->written || relink_survivors(dp);
	for (i = 0; i < dp->nhash; i++)
		for (r = dp->hash[i]; r; r = n) {
			n = r->hnext;
			if (r->fresh)
				rec_free(dp, r);
		}
	/* objects this prepare gave slots to are gone with the batch */
	for (i = 0; i < dp->nobjs; i++)
		if (dp->objs[i].live && dp->objs[i].fresh)
			obj_release(dp, &dp->objs[i]);
	dp->nqpend = 0;
	if (relinked)
		alloc_publish(&dp->entries);
	eslots_settle(dp, false);
	alloc_publish(&dp->counters);
	alloc_publish(&dp->states);
	alloc_shrink(&dp->entries, dp->rules_cap);
	alloc_shrink(&dp->counters, dp->counters_cap);
	alloc_shrink(&dp->states, dp->state_cap);
	dp->written = false;
	shapes_trim(dp, dp->nshapes0);
	dp_sets_abort(dp->sets);
	dp->prepared = false;
	/* tables only the batch's rules named (their checkentry ran) */
	dp_recent_sweep(dp->recent, net, genmask_cur(net));
	dp_hl_sweep(dp->hl, net, genmask_cur(net));
	dp_string_sweep(dp->string, net, genmask_cur(net));
}

/* is the set @handle of table @table in the ruleset (committed)? */
static bool set_live(void *arg, uint64_t table, uint64_t handle)
{
	struct net *net = arg;
	struct table *t;
	struct set *s;

	list_for_each_entry(t, &net->tables, list) {
		if (t->handle != table || !active(t->genmask, genmask_cur(net)))
			continue;
		list_for_each_entry(s, &t->sets, list)
			if (s->handle == handle)
				return active(s->genmask, genmask_cur(net));
	}
	return false;
}

void dataplane_xt_gc(struct net *net)
{
	struct dataplane *dp = net->dataplane;

	if (dp) {
		dp_hl_gc(dp->hl);
		/* the "ct count" lists of elements gone */
		if (!dp->prepared)
			dp->stats.cl_lists_freed +=
				dp_sets_cl_sweep(dp->sets, dp->env.cl_fd,
						 net->gencursor, set_live, net);
	}
}

int dataplane_set_cl_gc(struct net *net, const struct set *s)
{
	struct dataplane *dp = net->dataplane;
	uint64_t now;
	int ret;

	if (!dp || dp->prepared)
		return -ENOENT;
	ret = dataplane_jiffies(&now);
	if (ret)
		return ret;
	return dp_sets_cl_gc(dp->sets, s, net->gencursor, now);
}

void dataplane_net_free(struct net *net)
{
	struct dataplane *dp = net->dataplane;

	if (dp) {
		/* pins kept: what they run may need conntrack */
		if (!offload_pins_kept())
			ct_release(net, dp, dp->conntrack);
		dp_free(dp);
		net->dataplane = NULL;
	}
	if (!offload_pins_kept())
		dataplane_net_unpin(net);
}

int dataplane_nflog_sync(struct net *net)
{
	struct dataplane *dp = net->dataplane;

	return dp ? dp_log_nflog_sync(dp->log, net->nflog_bound) : 0;
}

int dataplane_counter_read(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes)
{
	struct dataplane *dp = net->dataplane;
	struct codegen_counter *v;
	int i;

	if (!dp || !slot || slot >= dp->counters.max ||
	    slot >= dp->counters_cap || !dp->counters.used[slot])
		return -ENOENT;
	v = calloc(dp->ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(dp->env.counters_fd, &slot, v)) {
		free(v);
		return -errno;
	}
	*packets = dp->cnt_init[slot].packets;
	*bytes = dp->cnt_init[slot].bytes;
	for (i = 0; i < dp->ncpus; i++) {
		*packets += v[i].packets;
		*bytes += v[i].bytes;
	}
	/* grown by a prepare not published yet: the live walkers count in
	 * the old map */
	if (dp->grown && dp->old.counters_fd != dp->env.counters_fd &&
	    slot < dp->old.counters_cap &&
	    !bpf_map_lookup_elem(dp->old.counters_fd, &slot, v))
		for (i = 0; i < dp->ncpus; i++) {
			*packets += v[i].packets;
			*bytes += v[i].bytes;
		}
	free(v);
	return 0;
}

uint32_t dataplane_set_id(struct net *net, const struct set *s)
{
	struct dataplane *dp = net->dataplane;

	return dp && !dp->prepared ? dp_sets_id(dp->sets, s) : 0;
}

bool dataplane_set_dynamic(struct net *net, const struct set *s)
{
	struct dataplane *dp = net->dataplane;

	return dp && !dp->prepared && dp_sets_dynamic(dp->sets, s);
}

int dataplane_set_read(struct net *net, const struct set *s,
		       int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
				 uint64_t expires, const uint8_t *data),
		       void *arg)
{
	struct dataplane *dp = net->dataplane;
	uint64_t now;
	int ret;

	if (!dp || dp->prepared)
		return -ENOENT;
	ret = dataplane_jiffies(&now);
	if (ret)
		return ret;
	return dp_sets_read(dp->sets, s, net->gencursor, now, fn, arg);
}

int dataplane_state_read(struct net *net, uint32_t slot, uint64_t *val)
{
	struct dataplane *dp = net->dataplane;
	const uint64_t *mem;

	if (!dp || !slot || slot >= dp->states.max ||
	    slot >= dp->state_cap || !dp->states.used[slot])
		return -ENOENT;
	/* grown by a prepare not published yet: the live walkers update
	 * the old map */
	mem = dp->grown && dp->old.state_mem && slot < dp->old.state_cap ?
	      dp->old.state_mem : dp->state_mem;
	*val = __atomic_load_n(&mem[slot], __ATOMIC_RELAXED);
	return 0;
}

void dataplane_elem_gc(struct net *net, struct set *s, const struct set_elem *e)
{
	struct dataplane *dp = net ? net->dataplane : NULL;

	if (dp)
		dp_sets_gc(dp->sets, &dp->env, s, e);
}

void dataplane_stats(const struct net *net, struct dp_stats *st)
{
	const struct dataplane *dp = net->dataplane;

	if (!dp) {
		memset(st, 0, sizeof(*st));
		return;
	}
	*st = dp->stats;
	st->set_entries_written = dp_sets_written(dp->sets);
}

int offload_log_read(struct net *net,
		     void (*fn)(void *arg, const struct codegen_log_rec *rec,
				const char *prefix, bool allowed),
		     void *arg)
{
	struct dataplane *dp = net->dataplane;

	if (!dp)
		return -ENOENT;
	return dp_log_consume(dp->log, fn, arg);
}

int offload_reject_stats(struct net *net, uint64_t *sent, uint64_t *lost)
{
	struct dataplane *dp = net->dataplane;

	if (!dp)
		return -ENOENT;
	dp_reject_stats(dp->reject, sent, lost);
	return 0;
}

int offload_chain_prog(struct net *net, const struct chain *chain, uint32_t pf)
{
	struct dataplane *dp = net->dataplane;
	struct dp_hook *h;

	if (!dp || !chain->base)
		return -ENOENT;
	h = hook_find(dp, pf, chain->base->hooknum,
		      chain_is_nat(chain->base) ?
		      nat_core_prio(chain->base->hooknum) :
		      chain->base->priority, 0);
	return h ? h->tramp_fd : -ENOENT;
}

int offload_dev_prog(struct net *net, uint32_t ifindex, bool egress)
{
	struct dataplane *dp = net->dataplane;
	struct dp_hook *h;

	if (!dp || !ifindex)
		return -ENOENT;
	h = hook_find(dp, NFPROTO_NETDEV, egress ? NF_NETDEV_EGRESS :
		      NF_NETDEV_INGRESS, 0, ifindex);
	return h ? h->tramp_fd : -ENOENT;
}

int64_t offload_rule_index(struct net *net, const struct rule *rule)
{
	struct dataplane *dp = net->dataplane;
	struct dp_rec *r;

	r = dp ? rec_find(dp, REC_RULE, rule->chain->table->handle,
			  rule->uid) : NULL;
	return r ? (int64_t)r->idx : -ENOENT;
}

void offload_map_caps(struct net *net, uint32_t *rules, uint32_t *counters)
{
	struct dataplane *dp = net->dataplane;

	*rules = dp ? dp->rules_cap : 0;
	*counters = dp ? dp->counters_cap : 0;
}

int dataplane_counter_base(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes)
{
	struct dataplane *dp = net->dataplane;

	if (!dp || !slot || slot >= dp->counters.max || slot >= dp->cnt_cap ||
	    !dp->counters.used[slot])
		return -ENOENT;
	*packets = dp->cnt_init[slot].packets;
	*bytes = dp->cnt_init[slot].bytes;
	return 0;
}

uint64_t dataplane_counter_epoch(struct net *net)
{
	struct dataplane *dp = net->dataplane;

	return dp ? dp->cnt_epoch : 0;
}

int dataplane_counter_sub(struct net *net, uint32_t slot, uint64_t packets,
			  uint64_t bytes)
{
	struct dataplane *dp = net->dataplane;

	if (!dp || !slot || slot >= dp->counters.max || slot >= dp->cnt_cap ||
	    !dp->counters.used[slot])
		return -ENOENT;
	/* nft_counter_reset(): what was shown goes, later packets stay */
	dp->cnt_epoch = ++cnt_epochs;
	dp->cnt_init[slot].packets -= packets;
	dp->cnt_init[slot].bytes -= bytes;
	return 0;
}

int dataplane_state_sub(struct net *net, uint32_t slot, uint64_t val)
{
	struct dataplane *dp = net->dataplane;
	uint64_t *mem;

	if (!dp || !slot || slot >= dp->states.max ||
	    slot >= dp->state_cap || !dp->states.used[slot])
		return -ENOENT;
	/* the map the live walkers update, as dataplane_state_read() */
	mem = dp->grown && dp->old.state_mem && slot < dp->old.state_cap ?
	      dp->old.state_mem : dp->state_mem;
	__atomic_fetch_sub(&mem[slot], val, __ATOMIC_RELAXED);
	return 0;
}

/*
 * links_refresh - the hook points of the live generation with its devices
 * looked up again (after link events): attach the tc chains to devices
 * that appeared, drop the hook points of devices that went, as the
 * kernel's netdev notifier does. The generation does not change: walkers
 * of new hook points run the live chains' entries.
 */
static void links_refresh(struct net *net, struct dataplane *dp)
{
	uint32_t g = net->gencursor & 1;
	struct dp_error err = { 0 };
	struct dp_hook *h, *tmp;

	/* (adopted hook points run the earlier nfbpfd's walkers until the
	 * first publish: the live generation is not ours yet) */
	if (dp->prepared || dp->adopted)
		return;
	dp->err = 0;
	prepare_hooks(net, dp, genmask_cur(net), &err);
	if (dp->err) {
		/* keep what runs; what this refresh built goes */
		list_for_each_entry_safe(h, tmp, &dp->hooks, list)
			if (h->fresh)
				hook_free(dp, h);
		walkers_abort(dp);
		fprintf(stderr, "nfbpfd: devices changed, chains not attached: %s\n",
			err.msg ? err.msg : strerror(-dp->err));
		dp->err = 0;
		return;
	}
	/* the walkers first, then the live half of the heads (a new walker
	 * runs the live generation's entries: no new shape) */
	walkers_publish(dp);
	heads_write(dp, g);
	hooks_settle(dp);
	list_for_each_entry_safe(h, tmp, &dp->hooks, list)
		if (!h->seen)
			hook_free(dp, h);
}

int dataplane_link_poll(void)
{
	struct epoll_event evs[16];
	int epfd = dataplane_link_fd(), n, i;
	char buf[8192];

	if (epfd < 0)
		return epfd;
	n = epoll_wait(epfd, evs, 16, 0);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		struct dataplane *dp = evs[i].data.ptr;

		/* which link changed does not matter: every device name of
		 * the live chains is looked up again (an overrun, ENOBUFS,
		 * loses events, not the lookup) */
		while (recv(dp->link_fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		links_refresh(dp->net, dp);
	}
	return n;
}
