// SPDX-License-Identifier: GPL-2.0-only
/*
 * xt_probe.c - ask the kernel's nf_tables, in a private network namespace,
 * whether it accepts one xtables match/target expression (see nfnl_xt.h).
 *
 * The probe batch is BEGIN, NEWTABLE (dormant), NEWCHAIN, NEWRULE and no
 * END: the kernel runs every check of the rule (nft_compat select_ops,
 * init with xt_check_match/xt_check_target and the extension's
 * checkentry, validate against the chain's hook), answers each message
 * and aborts. Nothing is ever committed, and the namespace is nfbpfd's
 * own: no client's kernel state is touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>

#include "nfnl_xt.h"

#define PROBE_TIMEOUT_S		5
#define CACHE_BUCKETS		1024
#define CACHE_MAX		8192
#define PROBE_CHUNK		128

/**
 * struct probe_entry - one cached answer
 * @next: bucket chain
 * @hash: of @key
 * @err: the kernel's answer
 * @klen: bytes of @key
 * @key: the query, serialised
 */
struct probe_entry {
	struct probe_entry *next;
	uint32_t hash;
	int err;
	size_t klen;
	uint8_t key[];
};

static struct probe_entry *cache[CACHE_BUCKETS];
static unsigned int cache_n;
static uint64_t nprobes, nhits;
static int probe_fd = -1;
static int probe_open_err;
static uint32_t probe_seq;

void nfnl_xt_stats(uint64_t *probes, uint64_t *hits)
{
	*probes = nprobes;
	*hits = nhits;
}

/* a thread's network namespace is its own: unshare there, keep the socket */
static void *open_in_private_netns(void *arg)
{
	int *res = arg, fd, one = 1, rcvbuf = 4 << 20;
	struct timeval tv = { .tv_sec = PROBE_TIMEOUT_S };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (unshare(CLONE_NEWNET)) {
		*res = -errno;
		return NULL;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	if (fd < 0) {
		*res = -errno;
		return NULL;
	}
	/* acks without the request echoed; room for a whole chunk of them */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		*res = -errno;
		close(fd);
		return NULL;
	}
	*res = fd;
	return NULL;
}

static int probe_sock(void)
{
	pthread_t th;
	int res = -EIO;

	if (probe_fd >= 0)
		return probe_fd;
	if (probe_open_err)
		return probe_open_err;
	if (pthread_create(&th, NULL, open_in_private_netns, &res))
		return -EAGAIN;
	pthread_join(th, NULL);
	if (res < 0) {
		/* no CAP_SYS_ADMIN: remember, do not retry on every rule */
		if (res == -EPERM)
			probe_open_err = res;
		return res;
	}
	probe_fd = res;
	return probe_fd;
}

static struct nlmsghdr *put_msg(char *buf, uint16_t type, uint16_t flags,
				uint8_t family, uint16_t res_id)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *nfg;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++probe_seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = family;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(res_id);
	return nlh;
}

#define NFT_TYPE(msg)	((NFNL_SUBSYS_NFTABLES << 8) | (msg))

/* bytes one query may take in a batch, at most */
static size_t query_room(const struct nfnl_xt_query *q)
{
	return 3 * (NLMSG_HDRLEN + 16) + 3 * (strlen(q->table) + 8) + 256 +
	       q->len + q->compat_len;
}

/*
 * append NEWTABLE (dormant), NEWCHAIN "p<j>" and NEWRULE for query @j at
 * @buf; only the NEWRULE asks for an ack (errors come anyway)
 */
static size_t put_query(char *buf, const struct nfnl_xt_query *q, unsigned int j)
{
	struct nlmsghdr *nlh;
	struct nlattr *n1, *n2, *n3;
	char chain[16];
	size_t off = 0;

	snprintf(chain, sizeof(chain), "p%u", j);
	nlh = put_msg(buf + off, NFT_TYPE(NFT_MSG_NEWTABLE), NLM_F_CREATE,
		      q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, q->table);
	mnl_attr_put_u32(nlh, NFTA_TABLE_FLAGS, htonl(NFT_TABLE_F_DORMANT));
	off += nlh->nlmsg_len;

	nlh = put_msg(buf + off, NFT_TYPE(NFT_MSG_NEWCHAIN), NLM_F_CREATE,
		      q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, q->table);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, chain);
	if (q->base) {
		n1 = mnl_attr_nest_start(nlh, NFTA_CHAIN_HOOK);
		mnl_attr_put_u32(nlh, NFTA_HOOK_HOOKNUM, htonl(q->hooknum));
		mnl_attr_put_u32(nlh, NFTA_HOOK_PRIORITY, htonl((uint32_t)q->prio));
		mnl_attr_nest_end(nlh, n1);
		mnl_attr_put_strz(nlh, NFTA_CHAIN_TYPE, q->type);
	}
	off += nlh->nlmsg_len;

	nlh = put_msg(buf + off, NFT_TYPE(NFT_MSG_NEWRULE),
		      NLM_F_CREATE | NLM_F_APPEND | NLM_F_ACK, q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, q->table);
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, chain);
	if (q->compat)
		mnl_attr_put(nlh, NFTA_RULE_COMPAT | NLA_F_NESTED, q->compat_len,
			     q->compat);
	n1 = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	n2 = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);
	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, q->target ? "target" : "match");
	n3 = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	/* NFTA_MATCH_* and NFTA_TARGET_* have the same numbers */
	mnl_attr_put_strz(nlh, NFTA_MATCH_NAME, q->name);
	mnl_attr_put_u32(nlh, NFTA_MATCH_REV, htonl(q->rev));
	mnl_attr_put(nlh, NFTA_MATCH_INFO, q->len, q->info);
	mnl_attr_nest_end(nlh, n3);
	mnl_attr_nest_end(nlh, n2);
	mnl_attr_nest_end(nlh, n1);
	off += nlh->nlmsg_len;
	return off;
}

/*
 * the answers to a batch of @n queries whose messages start at sequence
 * number @first (3 per query: table, chain, rule): @ans[j] = the rule's
 * errno, @bad[j] = its table or chain was refused (no answer). Acks and
 * errors come in message order after the whole batch.
 */
static int read_answers(int fd, uint32_t first, unsigned int n, int *ans,
			bool *bad)
{
	static char buf[65536];
	uint32_t last = first + 3 * (n - 1) + 2;

	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;
		int len;

		if (r < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		len = (int)r;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			uint32_t k;

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_seq < first || nlh->nlmsg_seq > last)
				continue;
			k = nlh->nlmsg_seq - first;
			if (k % 3 != 2) {
				if (e->error)
					bad[k / 3] = true;
				continue;
			}
			ans[k / 3] = e->error;
			if (nlh->nlmsg_seq == last)
				return 0;
		}
	}
}

/*
 * probe - ask the kernel about @qs[0..n) in one batch (one abort, one
 * RCU grace period for all): fills @ans/@bad, or returns -errno if the
 * kernel could not be asked
 */
static int probe(const struct nfnl_xt_query *const *qs, unsigned int n,
		 int *ans, bool *bad)
{
	struct nlmsghdr *nlh;
	size_t cap = 64, off = 0;
	unsigned int j;
	uint32_t first;
	char *buf;
	int fd, err;

	fd = probe_sock();
	if (fd < 0)
		return fd;
	for (j = 0; j < n; j++)
		cap += query_room(qs[j]);
	buf = calloc(1, cap);
	if (!buf)
		return -ENOMEM;
	nlh = put_msg(buf, NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	off += nlh->nlmsg_len;
	first = probe_seq + 1;
	for (j = 0; j < n; j++) {
		ans[j] = 0;
		bad[j] = false;
		off += put_query(buf + off, qs[j], j);
	}
	/* no BATCH_END: the kernel validates, answers and aborts */
	if (send(fd, buf, off, 0) < 0) {
		err = -errno;
		goto out_free;
	}
	nprobes++;
	err = read_answers(fd, first, n, ans, bad);
out_free:
	free(buf);
	return err;
}

/* --- cache ---------------------------------------------------------- */

static void key_put(uint8_t *k, size_t *off, const void *v, size_t len)
{
	memcpy(k + *off, v, len);
	*off += len;
}

static uint8_t *query_key(const struct nfnl_xt_query *q, size_t *klen)
{
	size_t tl = strlen(q->table) + 1, yl = q->base ? strlen(q->type) + 1 : 0;
	size_t nl = strlen(q->name) + 1, off = 0;
	uint8_t flags = q->base | (q->compat != NULL) << 1 | q->target << 2;
	uint8_t *k = malloc(1 + 1 + 4 + 4 + 4 + 4 + 4 + tl + yl + nl +
			    q->compat_len + q->len);

	if (!k)
		return NULL;
	key_put(k, &off, &q->family, 1);
	key_put(k, &off, &flags, 1);
	key_put(k, &off, &q->hooknum, 4);
	key_put(k, &off, &q->prio, 4);
	key_put(k, &off, &q->compat_len, 4);
	key_put(k, &off, &q->rev, 4);
	key_put(k, &off, &q->len, 4);
	key_put(k, &off, q->table, tl);
	if (yl)
		key_put(k, &off, q->type, yl);
	key_put(k, &off, q->name, nl);
	if (q->compat_len)
		key_put(k, &off, q->compat, q->compat_len);
	key_put(k, &off, q->info, q->len);
	*klen = off;
	return k;
}

static bool query_equal(const struct nfnl_xt_query *a, const struct nfnl_xt_query *b)
{
	size_t la, lb;
	uint8_t *ka = query_key(a, &la), *kb = query_key(b, &lb);
	bool eq = ka && kb && la == lb && !memcmp(ka, kb, la);

	free(ka);
	free(kb);
	return eq;
}

static uint32_t hash(const uint8_t *k, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--)
		h = (h ^ *k++) * 16777619u;
	return h;
}

static void cache_flush(void)
{
	unsigned int i;

	for (i = 0; i < CACHE_BUCKETS; i++) {
		while (cache[i]) {
			struct probe_entry *e = cache[i];

			cache[i] = e->next;
			free(e);
		}
	}
	cache_n = 0;
}

static struct probe_entry *cache_find(const uint8_t *k, size_t klen, uint32_t h)
{
	struct probe_entry *e;

	for (e = cache[h % CACHE_BUCKETS]; e; e = e->next)
		if (e->hash == h && e->klen == klen && !memcmp(e->key, k, klen))
			return e;
	return NULL;
}

static void cache_add(const uint8_t *k, size_t klen, uint32_t h, int err)
{
	struct probe_entry *e;

	if (cache_n >= CACHE_MAX)
		cache_flush();
	e = malloc(sizeof(*e) + klen);
	if (!e)
		return;	/* only a lost cache entry */
	e->hash = h;
	e->err = err;
	e->klen = klen;
	memcpy(e->key, k, klen);
	e->next = cache[h % CACHE_BUCKETS];
	cache[h % CACHE_BUCKETS] = e;
	cache_n++;
}

/* the kernel's answer to each query of one batch, into the cache */
static int probe_chunk(const struct nfnl_xt_query *const *qs, unsigned int n)
{
	int *ans = calloc(n, sizeof(*ans));
	bool *bad = calloc(n, sizeof(*bad));
	unsigned int j, i;
	int err = -ENOMEM;

	if (!ans || !bad)
		goto out_free;
	err = probe(qs, n, ans, bad);
	if (err)
		goto out_free;
	for (j = 0; j < n; j++) {
		bool after_failure = false;
		uint8_t *k;
		size_t klen;

		if (bad[j])
			continue;
		/*
		 * a rule the kernel refused at validation stays in its table
		 * until the abort, and the replay validates the whole table
		 * at each later rule: a later failure in the same table may
		 * be that one's, so it is not kept (asked again alone)
		 */
		for (i = 0; i < j && ans[j]; i++)
			if (ans[i] && qs[i]->family == qs[j]->family &&
			    !strcmp(qs[i]->table, qs[j]->table))
				after_failure = true;
		if (after_failure)
			continue;
		k = query_key(qs[j], &klen);
		if (!k)
			continue;
		if (!cache_find(k, klen, hash(k, klen)))
			cache_add(k, klen, hash(k, klen), ans[j]);
		free(k);
	}
out_free:
	free(ans);
	free(bad);
	return err;
}

int nfnl_xt_prefetch(const struct nfnl_xt_query *qs, size_t n)
{
	const struct nfnl_xt_query *chunk[PROBE_CHUNK];
	unsigned int m = 0;
	size_t i;
	int err = 0;

	for (i = 0; i < n; i++) {
		size_t klen;
		uint8_t *k = query_key(&qs[i], &klen);
		bool known, dup = false;
		unsigned int j;

		if (!k)
			return -ENOMEM;
		known = cache_find(k, klen, hash(k, klen)) != NULL;
		free(k);
		for (j = 0; j < m && !known && !dup; j++)
			dup = query_equal(chunk[j], &qs[i]);
		if (known || dup)
			continue;
		chunk[m++] = &qs[i];
		if (m == PROBE_CHUNK) {
			err = probe_chunk(chunk, m);
			m = 0;
			if (err)
				return err;
		}
	}
	if (m)
		err = probe_chunk(chunk, m);
	return err;
}

int nfnl_xt_check(const struct nfnl_xt_query *q)
{
	struct probe_entry *e;
	size_t klen;
	uint8_t *k;
	uint32_t h;
	int err;

	k = query_key(q, &klen);
	if (!k)
		return -ENOMEM;
	h = hash(k, klen);
	e = cache_find(k, klen, h);
	if (e) {
		nhits++;
		free(k);
		return e->err;
	}
	err = probe_chunk(&q, 1);
	e = err ? NULL : cache_find(k, klen, h);
	free(k);
	if (e)
		return e->err;
	/* the kernel could not be asked: refuse, never accept unchecked */
	return err == -ENOMEM ? err : -ECOMM;
}
