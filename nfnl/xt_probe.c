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
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
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
	int *res = arg, fd;
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
#define PROBE_CHAIN	"nfbpf-xt-probe"

/*
 * the batch: BEGIN, NEWTABLE, NEWCHAIN, NEWRULE (no END: abort); returns
 * the NEWRULE's sequence number, 0 if the buffer is too small
 */
static uint32_t build_batch(struct mnl_nlmsg_batch *b, const struct nfnl_xt_query *q)
{
	struct nlmsghdr *nlh;
	struct nlattr *n1, *n2, *n3;

	nlh = put_msg(mnl_nlmsg_batch_current(b), NFNL_MSG_BATCH_BEGIN, 0,
		      AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	mnl_nlmsg_batch_next(b);

	nlh = put_msg(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_NEWTABLE),
		      NLM_F_CREATE | NLM_F_ACK, q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_TABLE_NAME, q->table);
	mnl_attr_put_u32(nlh, NFTA_TABLE_FLAGS, htonl(NFT_TABLE_F_DORMANT));
	mnl_nlmsg_batch_next(b);

	nlh = put_msg(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_NEWCHAIN),
		      NLM_F_CREATE | NLM_F_ACK, q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_TABLE, q->table);
	mnl_attr_put_strz(nlh, NFTA_CHAIN_NAME, PROBE_CHAIN);
	if (q->base) {
		n1 = mnl_attr_nest_start(nlh, NFTA_CHAIN_HOOK);
		mnl_attr_put_u32(nlh, NFTA_HOOK_HOOKNUM, htonl(q->hooknum));
		mnl_attr_put_u32(nlh, NFTA_HOOK_PRIORITY, htonl((uint32_t)q->prio));
		mnl_attr_nest_end(nlh, n1);
		mnl_attr_put_strz(nlh, NFTA_CHAIN_TYPE, q->type);
	}
	mnl_nlmsg_batch_next(b);

	nlh = put_msg(mnl_nlmsg_batch_current(b), NFT_TYPE(NFT_MSG_NEWRULE),
		      NLM_F_CREATE | NLM_F_APPEND | NLM_F_ACK, q->family, 0);
	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, q->table);
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, PROBE_CHAIN);
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
	if (!mnl_nlmsg_batch_next(b))
		return 0;
	return nlh->nlmsg_seq;
}

/* the answer to message @seq (acks and errors come after the whole batch) */
static int read_answer(int fd, uint32_t first, uint32_t seq)
{
	static char buf[16384];
	int chain_err = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;
		int len;

		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		len = (int)n;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			const struct nlmsgerr *e;

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_seq < first || nlh->nlmsg_seq > seq)
				continue;
			e = mnl_nlmsg_get_payload(nlh);
			if (nlh->nlmsg_seq != seq) {
				/* the table or chain itself was refused:
				 * the probe cannot say anything */
				if (e->error)
					chain_err = e->error;
				continue;
			}
			if (chain_err)
				return -EIO;
			return e->error;
		}
	}
}

static int ask_kernel(const struct nfnl_xt_query *q)
{
	size_t cap = 2 * (q->len + q->compat_len + 4096);
	struct mnl_nlmsg_batch *b;
	uint32_t first, seq;
	char *buf;
	int fd, err;

	fd = probe_sock();
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	b = mnl_nlmsg_batch_start(buf, cap / 2);
	if (!b) {
		free(buf);
		return -ENOMEM;
	}
	first = probe_seq + 1;
	seq = build_batch(b, q);
	if (!seq) {
		err = -EMSGSIZE;
		goto out_free;
	}
	if (send(fd, mnl_nlmsg_batch_head(b), mnl_nlmsg_batch_size(b), 0) < 0) {
		err = -errno;
		goto out_free;
	}
	nprobes++;
	err = read_answer(fd, first, seq);
out_free:
	mnl_nlmsg_batch_stop(b);
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
	for (e = cache[h % CACHE_BUCKETS]; e; e = e->next) {
		if (e->hash == h && e->klen == klen && !memcmp(e->key, k, klen)) {
			nhits++;
			free(k);
			return e->err;
		}
	}
	err = ask_kernel(q);
	if (err == -EPERM && probe_open_err) {
		free(k);
		return -EOPNOTSUPP;
	}
	/* only the kernel's answers are kept: not our own failures */
	if (err == -ETIMEDOUT || err == -EIO || err == -ENOMEM ||
	    err == -EMSGSIZE || err == -EAGAIN || err == -ENOBUFS) {
		free(k);
		return err == -EIO ? -EOPNOTSUPP : err;
	}
	if (cache_n >= CACHE_MAX)
		cache_flush();
	e = malloc(sizeof(*e) + klen);
	if (e) {
		e->hash = h;
		e->err = err;
		e->klen = klen;
		memcpy(e->key, k, klen);
		e->next = cache[h % CACHE_BUCKETS];
		cache[h % CACHE_BUCKETS] = e;
		cache_n++;
	}
	free(k);
	return err;
}
