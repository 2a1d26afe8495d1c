// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_nfnl.c - libFuzzer target for nfbpfd's control plane, nfnl_rcv().
 *
 * One struct net lives across inputs, as in a long-lived daemon, so rules,
 * sets and generations accumulate; it is freed and re-allocated every
 * RESET_EVERY inputs (env NFBPF_FUZZ_RESET overrides) to bound memory and
 * to run ruleset_net_free() over whatever state the inputs built.
 *
 * Each input is fed to nfnl_rcv():
 *   1. as-is (one datagram: a batch, GET/dump requests, garbage);
 *   2. if it holds several batches: split, one datagram per batch (cut
 *      after each BATCH_END and before each BATCH_BEGIN), so that a single
 *      input can create objects, then GET/dump/delete them;
 *   3. if shorter than WRAP_MAX: wrapped, to get past the batch framing: a
 *      valid NFNL_MSG_BATCH_BEGIN (no GENID), the input (minus its own
 *      leading BATCH_BEGIN, if any, zero-padded to NLMSG_ALIGNTO), a
 *      BATCH_END.
 * The client is privileged and asked for extended acks.
 * NFBPF_FUZZ_VERBOSE=1 prints the acks of each call (triage).
 *
 * As state carries over, a crash file alone may not reproduce a finding:
 * on a sanitizer report or a failed check, the inputs since the last reset
 * are written to ./fuzz-history-PID/ (or $NFBPF_FUZZ_HISTORY_DIR), to be
 * replayed in order (see hist_dump()). NFBPF_FUZZ_RESET=1 checks whether a
 * crash file reproduces on a fresh namespace.
 *
 * After each call the output is checked (check_out()): every message has
 * nlmsg_len >= NLMSG_HDRLEN and fits, messages are NLMSG_ALIGNed and tile
 * the buffer, datagram ends are increasing, on message boundaries and end
 * at buf.len, and the attributes of every nf_tables message (and the nests
 * the builders emit: rule expressions, set descriptions, set elements, chain
 * hooks) tile their container exactly, with no duplicate top-level
 * attribute. The events handed to nfnl_multicast() get the same message and
 * attribute checks, and so do the nfnetlink_log batches of a packet logged
 * to groups 0-3 after each input (log_packets()). A violation abort()s:
 * that is a finding.
 *
 * FAKE DATAPLANE: the real dataplane (codegen/, offload/) compiles and
 * loads BPF programs. This target links instead the stub below, which
 * accepts every chain and rule and always prepares/publishes successfully,
 * so what is fuzzed is the netlink decoder, the model and its transactions.
 * One deliberate exception, for coverage of the commit-failure path: a
 * batch whose BATCH_BEGIN has (nlmsg_seq & 0xffff) == FAIL_SEQ makes
 * dataplane_prepare() return -ENOMEM (as a verifier/ENOMEM failure would).
 * This stub is a test double for fuzzing only and must NEVER be linked into
 * nfbpfd.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "nfnl.h"
#include "ruleset_api.h"
#include "dataplane.h"

#define RESET_EVERY	500
#define WRAP_MAX	(65536 - 2 * 20)	/* "short" input: wrap it */
#define FAIL_SEQ	0xdb0f

/* ------------------------------------------------------------------ */
/* Fake dataplane: fuzzing only, never linked into nfbpfd (see above).  */

static int dp_fail_next;	/* set by the harness from the BEGIN's seq */

int dataplane_rule_check(const struct chain *chain, const struct rule *rule,
			 struct dp_error *err)
{
	(void)chain; (void)rule; (void)err;
	return 0;
}

int dataplane_chain_check(const struct table *table, const struct chain *chain,
			  struct dp_error *err)
{
	(void)table; (void)chain; (void)err;
	return 0;
}

int dataplane_prepare(struct net *net, struct dp_error *err)
{
	(void)net;
	if (dp_fail_next) {
		err->msg = "fuzz: injected dataplane_prepare() failure";
		return -ENOMEM;
	}
	err->msg = NULL;
	return 0;
}

int dataplane_prepare_delta(struct net *net, const struct dp_delta *delta,
			    struct dp_error *err)
{
	(void)delta;
	return dataplane_prepare(net, err);
}

void dataplane_publish(struct net *net) { (void)net; }
void dataplane_abort(struct net *net) { (void)net; }
void dataplane_elem_gc(struct net *net, struct set *s, const struct set_elem *e)
{
	(void)net;
	(void)s;
	(void)e;
}
void dataplane_net_free(struct net *net) { (void)net; }
int dataplane_nflog_sync(struct net *net) { (void)net; return 0; }
void dataplane_xt_gc(struct net *net) { (void)net; }

int dataplane_counter_read(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes)
{
	(void)net;
	*packets = slot;
	*bytes = (uint64_t)slot * 64;
	return 0;
}

uint64_t dataplane_counter_epoch(struct net *net)
{
	(void)net;
	return 0;
}

/* no packet path: no set it writes, no element it added */
bool dataplane_set_dynamic(struct net *net, const struct set *s)
{
	(void)net;
	(void)s;
	return false;
}

int dataplane_set_cl_gc(struct net *net, const struct set *s)
{
	(void)net;
	(void)s;
	return -ENOENT;
}

int dataplane_set_read(struct net *net, const struct set *s,
		       int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
				 uint64_t expires, const uint8_t *data),
		       void *arg)
{
	(void)net;
	(void)s;
	(void)fn;
	(void)arg;
	return -ENOENT;
}

int dataplane_state_read(struct net *net, uint32_t slot, uint64_t *val)
{
	(void)net;
	*val = (uint64_t)slot * 1000;
	return 0;
}

int dataplane_counter_sub(struct net *net, uint32_t slot, uint64_t packets,
			  uint64_t bytes)
{
	(void)net; (void)slot; (void)packets; (void)bytes;
	return 0;
}

int dataplane_state_sub(struct net *net, uint32_t slot, uint64_t val)
{
	(void)net; (void)slot; (void)val;
	return 0;
}

int dataplane_counter_base(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes)
{
	(void)net; (void)slot;
	*packets = *bytes = 0;
	return -ENOENT;
}

int dataplane_restore_begin(struct net *net)
{
	(void)net;
	return -ENOENT;
}

int dataplane_restore_counter(struct net *net, uint32_t slot,
			      uint64_t *packets, uint64_t *bytes)
{
	(void)net; (void)slot; (void)packets; (void)bytes;
	return -ENOENT;
}

int dataplane_restore_word(struct net *net, uint32_t slot, uint64_t *val)
{
	(void)net; (void)slot; (void)val;
	return -ENOENT;
}

int dataplane_restore_set(struct net *net, uint32_t id, uint32_t klen,
			  int (*fn)(void *arg, const uint8_t *key,
				    uint64_t timeout_ms, uint64_t expires_ms),
			  void *arg)
{
	(void)net; (void)id; (void)klen; (void)fn; (void)arg;
	return -ENOENT;
}

uint32_t dataplane_set_id(struct net *net, const struct set *s)
{
	(void)net; (void)s;
	return 0;
}

void dataplane_restore_end(struct net *net) { (void)net; }
void dataplane_net_unpin(struct net *net) { (void)net; }

void dataplane_stats(const struct net *net, struct dp_stats *st)
{
	(void)net;
	memset(st, 0, sizeof(*st));
}

/* a clock that moves: every read is one jiffy later */
int dataplane_jiffies(uint64_t *now)
{
	static uint64_t j = 4294667296ull;	/* INITIAL_JIFFIES, as 64 bits */

	*now = ++j;
	return 0;
}

unsigned int dataplane_hz(void)
{
	return 250;
}

/* ------------------------------------------------------------------ */
/* Output checks                                                        */

static void hist_dump(void);

#define fail(...) do {							\
	fprintf(stderr, "fuzz_nfnl: malformed output: " __VA_ARGS__);	\
	fputc('\n', stderr);						\
	hist_dump();							\
	abort();							\
} while (0)

/* attr kinds a container holds, for check_attrs() */
enum nest {
	N_FLAT,		/* attributes not looked into */
	N_UNIQUE,	/* not looked into, but no type twice */
	N_TOP_CHAIN,
	N_TOP_RULE,
	N_TOP_SET,
	N_TOP_SETELEM,
	N_CHAIN_HOOK,
	N_EXPR_LIST,	/* NFTA_LIST_ELEM of expressions */
	N_EXPR,		/* NFTA_EXPR_NAME, NFTA_EXPR_DATA */
	N_SET_DESC,
	N_CONCAT_LIST,
	N_ELEM_LIST,	/* NFTA_LIST_ELEM of set elements */
	N_ELEM,
	N_DATA,		/* NFTA_DATA_VALUE / NFTA_DATA_VERDICT */
};

static enum nest child_nest(enum nest n, uint16_t type)
{
	switch (n) {
	case N_TOP_CHAIN:
		return type == NFTA_CHAIN_HOOK ? N_CHAIN_HOOK :
		       type == NFTA_CHAIN_COUNTERS ? N_FLAT : (enum nest)-1;
	case N_CHAIN_HOOK:
		return type == NFTA_HOOK_DEVS ? N_FLAT : (enum nest)-1;
	case N_TOP_RULE:
		return type == NFTA_RULE_EXPRESSIONS ? N_EXPR_LIST : (enum nest)-1;
	case N_EXPR_LIST:
		return N_EXPR;
	case N_EXPR:
		return type == NFTA_EXPR_DATA ? N_UNIQUE : (enum nest)-1;
	case N_TOP_SET:
		return type == NFTA_SET_DESC ? N_SET_DESC : (enum nest)-1;
	case N_SET_DESC:
		return type == NFTA_SET_DESC_CONCAT ? N_CONCAT_LIST : (enum nest)-1;
	case N_CONCAT_LIST:
		return N_FLAT;
	case N_TOP_SETELEM:
		return type == NFTA_SET_ELEM_LIST_ELEMENTS ? N_ELEM_LIST : (enum nest)-1;
	case N_ELEM_LIST:
		return N_ELEM;
	case N_ELEM:
		return type == NFTA_SET_ELEM_KEY || type == NFTA_SET_ELEM_KEY_END ||
		       type == NFTA_SET_ELEM_DATA ? N_DATA : (enum nest)-1;
	case N_DATA:
		return type == NFTA_DATA_VERDICT ? N_UNIQUE : (enum nest)-1;
	default:
		return (enum nest)-1;
	}
}

/* check_attrs - attributes tile [p, p + len) exactly; recurse into nests */
static void check_attrs(const uint8_t *p, size_t len, enum nest n, int depth,
			const char *what)
{
	uint32_t seen[2048 / 32] = { 0 };
	bool lists = n == N_EXPR_LIST || n == N_CONCAT_LIST || n == N_ELEM_LIST ||
		     n == N_FLAT;
	size_t off = 0;

	if (depth > 8)
		fail("%s: nesting deeper than 8", what);
	while (off < len) {
		struct nlattr a;
		uint16_t type;
		enum nest c;

		if (len - off < NLA_HDRLEN)
			fail("%s: %zu trailing bytes at %zu", what, len - off, off);
		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len - off)
			fail("%s: attr type %u len %u at %zu of %zu", what,
			     a.nla_type, a.nla_len, off, len);
		type = a.nla_type & NLA_TYPE_MASK;
		if (!lists && type < 2048) {
			if (seen[type / 32] & (1u << (type % 32)))
				fail("%s: duplicate attr type %u at %zu", what, type, off);
			seen[type / 32] |= 1u << (type % 32);
		}
		c = child_nest(n, type);
		if (c != (enum nest)-1)
			check_attrs(p + off + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, c,
				    depth + 1, what);
		if (NLA_ALIGN(a.nla_len) > len - off)
			fail("%s: attr type %u len %u unpadded at %zu of %zu", what,
			     a.nla_type, a.nla_len, off, len);
		off += NLA_ALIGN(a.nla_len);
	}
}

static enum nest top_nest(uint16_t type)
{
	switch (NFNL_MSG_TYPE(type)) {
	case NFT_MSG_NEWCHAIN: case NFT_MSG_DELCHAIN:
		return N_TOP_CHAIN;
	case NFT_MSG_NEWRULE: case NFT_MSG_DELRULE:
		return N_TOP_RULE;
	case NFT_MSG_NEWSET: case NFT_MSG_DELSET:
		return N_TOP_SET;
	case NFT_MSG_NEWSETELEM: case NFT_MSG_DELSETELEM:
		return N_TOP_SETELEM;
	default:
		return N_UNIQUE;
	}
}

/* check_msgs - netlink messages tile [buf, buf + len) exactly */
static void check_msgs(const uint8_t *buf, size_t len, const size_t *ends,
		       size_t nends, bool cut, const char *what)
{
	size_t off = 0, e = 0;

	if (nends && !ends)
		fail("%s: %zu ends but no array", what, nends);
	for (e = 0; e < nends; e++) {
		if (ends[e] == 0 || ends[e] > len || (e && ends[e] <= ends[e - 1]))
			fail("%s: datagram end %zu = %zu (prev %zu, len %zu)", what, e,
			     ends[e], e ? ends[e - 1] : 0, len);
	}
	if (nends && ends[nends - 1] != len)
		fail("%s: last datagram ends at %zu, buffer holds %zu", what,
		     ends[nends - 1], len);
	if (cut && !nends && len)	/* cl->out: every message is cut */
		fail("%s: %zu bytes in no datagram", what, len);

	e = 0;
	while (off < len) {
		struct nlmsghdr h;

		if (len - off < NLMSG_HDRLEN)
			fail("%s: %zu trailing bytes at %zu", what, len - off, off);
		memcpy(&h, buf + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len - off)
			fail("%s: nlmsg_len %u at %zu of %zu (type 0x%x)", what,
			     h.nlmsg_len, off, len, h.nlmsg_type);
		if (NLMSG_ALIGN(h.nlmsg_len) > len - off)
			fail("%s: nlmsg_len %u unpadded at %zu of %zu", what,
			     h.nlmsg_len, off, len);
		if (h.nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *err = (const void *)(buf + off + NLMSG_HDRLEN);
			size_t pl = sizeof(*err);

			if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(*err))
				fail("%s: NLMSG_ERROR of %u bytes", what, h.nlmsg_len);
			if (!(h.nlmsg_flags & NLM_F_CAPPED))
				pl += NLMSG_ALIGN(err->msg.nlmsg_len - NLMSG_HDRLEN);
			if (err->msg.nlmsg_len < NLMSG_HDRLEN ||
			    NLMSG_HDRLEN + pl > h.nlmsg_len)
				fail("%s: NLMSG_ERROR echoes %u bytes in %u", what,
				     err->msg.nlmsg_len, h.nlmsg_len);
			if (h.nlmsg_flags & NLM_F_ACK_TLVS)
				check_attrs(buf + off + NLMSG_HDRLEN + pl,
					    h.nlmsg_len - NLMSG_HDRLEN - pl, N_UNIQUE, 0,
					    "ack TLVs");
			else if (h.nlmsg_len != NLMSG_HDRLEN + pl)
				fail("%s: NLMSG_ERROR of %u bytes, %zu expected", what,
				     h.nlmsg_len, NLMSG_HDRLEN + pl);
		} else if (NFNL_SUBSYS_ID(h.nlmsg_type) == NFNL_SUBSYS_NFTABLES) {
			size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));

			if (h.nlmsg_len < hl)
				fail("%s: nf_tables message of %u bytes", what, h.nlmsg_len);
			check_attrs(buf + off + hl, h.nlmsg_len - hl,
				    top_nest(h.nlmsg_type), 0, what);
		} else if (NFNL_SUBSYS_ID(h.nlmsg_type) == NFNL_SUBSYS_ULOG) {
			size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));

			if (h.nlmsg_len < hl)
				fail("%s: nfnetlink_log message of %u bytes", what,
				     h.nlmsg_len);
			check_attrs(buf + off + hl, h.nlmsg_len - hl, N_UNIQUE, 0, what);
		}
		off += NLMSG_ALIGN(h.nlmsg_len);
		/* datagram ends fall on message boundaries */
		while (e < nends && ends[e] < off)
			fail("%s: datagram end %zu = %zu inside a message", what, e,
			     ends[e]);
		if (e < nends && ends[e] == off)
			e++;
	}
}

static void check_out(const struct client *cl)
{
	const struct nfnl_out *o = &cl->out;

	if (o->buf.err)		/* sticky ENOMEM: nothing goes out */
		return;
	if (o->buf.len > o->buf.cap)
		fail("out: len %zu > cap %zu", o->buf.len, o->buf.cap);
	if (o->nends > o->cap)
		fail("out: nends %zu > cap %zu", o->nends, o->cap);
	if (o->sent || o->nsent)
		fail("out: sent %zu/%zu without a socket", o->sent, o->nsent);
	check_msgs(o->buf.data, o->buf.len, o->ends, o->nends, true, "out");
}

/* ------------------------------------------------------------------ */
/* Daemon hooks                                                         */

void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude,
		    const void *data, size_t len)
{
	(void)net; (void)exclude;
	if (group != NFNLGRP_NFTABLES)
		fail("multicast to group %u", group);
	if (!len)
		fail("empty multicast datagram");
	check_msgs(data, len, NULL, 0, false, "multicast");
}

/* one listener, so that commits build and send their events */
bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	(void)net;
	return group == NFNLGRP_NFTABLES;
}

/* ------------------------------------------------------------------ */
/* Driver                                                               */

static struct client cl;
static bool verbose;		/* NFBPF_FUZZ_VERBOSE: print the acks */
static unsigned long reset_every = RESET_EVERY;
static unsigned long ninputs;

static void hist_clear(void);
static void hist_free(void);

static void net_reset(void)
{
	nfnl_ulog_release(&cl);	/* nfnetlink_log instances it bound */
	nfnl_out_fini(&cl.out);
	ruleset_net_free(cl.net);
	memset(&cl, 0, sizeof(cl));
	cl.net = ruleset_net_alloc();
	if (!cl.net)
		abort();
	cl.portid = 4242;
	cl.pid = 4242;
	cl.privileged = true;
	cl.nlflags = CLIENT_F_EXT_ACK;
	strcpy(cl.comm, "fuzz");
}

static void cleanup(void)
{
	hist_free();
	nfnl_ulog_release(&cl);
	nfnl_out_fini(&cl.out);
	ruleset_net_free(cl.net);
	cl.net = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *s = getenv("NFBPF_FUZZ_RESET");

	(void)argc; (void)argv;
	verbose = getenv("NFBPF_FUZZ_VERBOSE") != NULL;
	if (s && strtoul(s, NULL, 0))
		reset_every = strtoul(s, NULL, 0);
	net_reset();
	atexit(cleanup);
	return 0;
}

static bool is_fail_begin(const uint8_t *data, size_t size)
{
	struct nlmsghdr h;

	if (size < NLMSG_HDRLEN)
		return false;
	memcpy(&h, data, sizeof(h));
	return h.nlmsg_type == NFNL_MSG_BATCH_BEGIN &&
	       (h.nlmsg_seq & 0xffff) == FAIL_SEQ;
}

static void dump_out(const char *what)
{
	const struct nfnl_out *o = &cl.out;
	size_t off = 0, n = 0;

	fprintf(stderr, "fuzz_nfnl: %s: genid %u, %zu bytes in %zu datagrams\n",
		what, cl.net->base_seq, o->buf.len, o->nends);
	while (off + NLMSG_HDRLEN <= o->buf.len) {
		const struct nlmsghdr *h = (const void *)(o->buf.data + off);

		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);
			const char *msg = "";
			size_t pl = sizeof(*e);

			if (!(h->nlmsg_flags & NLM_F_CAPPED))
				pl += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
			if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
			    NLMSG_HDRLEN + pl + NLA_HDRLEN < h->nlmsg_len &&
			    ((const struct nlattr *)((const char *)h + NLMSG_HDRLEN + pl))->nla_type ==
			    NLMSGERR_ATTR_MSG)
				msg = (const char *)h + NLMSG_HDRLEN + pl + NLA_HDRLEN;
			fprintf(stderr, "  ack seq %u type 0x%x: %d %s\n", h->nlmsg_seq,
				e->msg.nlmsg_type, e->error, msg);
		} else {
			n++;
		}
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
	fprintf(stderr, "  %zu other messages\n", n);
}

static void feed(const uint8_t *data, size_t size, const char *what)
{
	nfnl_rcv(&cl, data, size);
	check_out(&cl);
	if (verbose)
		dump_out(what);
	/* the daemon sends and compacts; here the replies are dropped */
	nfnl_out_fini(&cl.out);
}

/* nfnetlink_log batches (nfnl_unicast_hook): whole, checked messages */
static void ulog_unicast(struct net *net, uint32_t portid, const void *data,
			 size_t len)
{
	if (net != cl.net || portid != cl.portid)
		fail("nflog batch for port %u of another net", portid);
	check_msgs(data, len, NULL, 0, false, "nflog batch");
}

/*
 * log_packets - a packet to groups 0..3 through nfnetlink_log, as the
 * dataplane hands them over: the instances the inputs bound (copy modes,
 * ranges, thresholds, flags) build and flush their batches
 */
static void log_packets(void)
{
	static const uint8_t payload[96] = { 0x45, 0, 0, 96 };
	static const uint8_t mac[14] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0 };
	struct dp_nflog p = {
		.pf = 2, .hook = 1, .protocol = htobe16(0x0800), .mark = 7,
		.iif = 2, .has_hw = true, .hwtype = 1, .hwlen = 14,
		.hwheader = mac, .hwaddr_len = 6, .hwaddr = mac + 6,
		.has_uid = true, .len = 96, .caplen = 96, .data = payload,
		.prefix = "fuzz", .tstamp_ns = 1,
	};
	uint16_t g;

	nfnl_unicast_hook = ulog_unicast;
	for (g = 0; g < 4; g++) {
		p.group = g;
		p.qthreshold = g;
		nfnl_ulog_packet(cl.net, &p);
	}
	nfnl_ulog_run_timers();
}

static size_t put_batch_msg(uint8_t *p, uint16_t type, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)p;
	struct nfgenmsg *nfg = (struct nfgenmsg *)(p + NLMSG_HDRLEN);

	memset(p, 0, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nfg)));
	nlh->nlmsg_len = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*nfg));
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htobe16(NFNL_SUBSYS_NFTABLES);
	return nlh->nlmsg_len;
}

/*
 * feed_copy - feed [data, data + size) from an exact-size heap copy, so that
 * ASan sees any read past the end of the datagram.
 */
static void feed_copy(const uint8_t *data, size_t size, const char *what)
{
	uint8_t *c = malloc(size ? size : 1);

	if (!c)
		return;
	memcpy(c, data, size);
	dp_fail_next = is_fail_begin(c, size);
	feed(c, size, what);
	dp_fail_next = 0;
	free(c);
}

/*
 * feed_split - one datagram per batch: cut the input after each BATCH_END
 * and before each BATCH_BEGIN, so that one input can create objects, then
 * GET/dump/delete them (state across inputs is not in a crash file).
 * Return: false if the input is a single segment (already fed as-is).
 */
static bool feed_split(const uint8_t *data, size_t size)
{
	size_t off = 0, start = 0;
	bool split = false;

	while (size - off >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		size_t next;

		memcpy(&h, data + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > size - off)
			break;
		next = off + NLMSG_ALIGN(h.nlmsg_len);
		if (next > size)
			next = size;
		if (h.nlmsg_type == NFNL_MSG_BATCH_BEGIN && off > start) {
			feed_copy(data + start, off - start, "split");
			start = off;
			split = true;
		}
		if (h.nlmsg_type == NFNL_MSG_BATCH_END && next < size) {
			feed_copy(data + start, next - start, "split");
			start = next;
			split = true;
		}
		off = next;
	}
	if (split && start < size)
		feed_copy(data + start, size - start, "split");
	return split;
}

/*
 * History: the inputs since the last reset, written out when a sanitizer
 * reports an error or a check fails, since a finding may need the state
 * the earlier inputs built. Replay in order, without reset:
 *   NFBPF_FUZZ_RESET=1000000 ./fuzz_nfnl fuzz-history-PID/0*  (shell glob)
 */
static struct { uint8_t *data; size_t len; } *hist;
static size_t nhist;

static void hist_clear(void)
{
	size_t i;

	for (i = 0; i < nhist; i++)
		free(hist[i].data);
	nhist = 0;
}

static void hist_free(void)
{
	hist_clear();
	free(hist);
	hist = NULL;
}

static void hist_add(const uint8_t *data, size_t size)
{
	uint8_t *c;

	if (!hist) {
		hist = calloc(reset_every, sizeof(*hist));
		if (!hist)
			return;
	}
	if (nhist >= reset_every || !(c = malloc(size ? size : 1)))
		return;
	memcpy(c, data, size);
	hist[nhist].data = c;
	hist[nhist++].len = size;
}

static void hist_dump(void)
{
	const char *dir = getenv("NFBPF_FUZZ_HISTORY_DIR");
	char path[4096];
	size_t i;

	if (!nhist || nhist == 1)	/* the crash file says it all */
		return;
	snprintf(path, sizeof(path), "%s/fuzz-history-%d", dir ? dir : ".", (int)getpid());
	if (mkdir(path, 0755) && errno != EEXIST)
		return;
	for (i = 0; i < nhist; i++) {
		char f[4200];
		FILE *fp;

		snprintf(f, sizeof(f), "%s/%06zu", path, i);
		fp = fopen(f, "wb");
		if (!fp)
			return;
		fwrite(hist[i].data, 1, hist[i].len, fp);
		fclose(fp);
	}
	fprintf(stderr, "fuzz_nfnl: %zu inputs since the last reset in %s/ (replay: "
		"NFBPF_FUZZ_RESET=1000000 ./fuzz_nfnl %s/*)\n", nhist, path, path);
}

/* sanitizer hooks, called before the report; libFuzzer keeps its own */
void __asan_on_error(void);
void __asan_on_error(void) { hist_dump(); }
void __ubsan_on_report(void);
void __ubsan_on_report(void) { hist_dump(); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
	const uint8_t *body = data;
	size_t blen = size, len;
	uint8_t *w;

	if (!cl.net)
		LLVMFuzzerInitialize(NULL, NULL);
	if (ninputs && ninputs % reset_every == 0) {
		net_reset();
		hist_clear();
	}
	ninputs++;
	hist_add(data, size);

	/* 1. as-is (libFuzzer's copy is exact-size already) */
	dp_fail_next = is_fail_begin(data, size);
	feed(data, size, "as-is");
	dp_fail_next = 0;
	log_packets();

	/* 2. one datagram per batch, if it holds several */
	feed_split(data, size);

	/* 3. wrapped in BEGIN .. END */
	if (size > WRAP_MAX)
		return 0;
	if (size >= NLMSG_HDRLEN) {
		struct nlmsghdr h;

		memcpy(&h, data, sizeof(h));
		if (h.nlmsg_type == NFNL_MSG_BATCH_BEGIN && h.nlmsg_len >= NLMSG_HDRLEN &&
		    NLMSG_ALIGN(h.nlmsg_len) <= size) {
			body = data + NLMSG_ALIGN(h.nlmsg_len);
			blen = size - NLMSG_ALIGN(h.nlmsg_len);
		}
	}
	/* exact size, so that ASan sees any read past the end */
	len = hl + NLMSG_ALIGN(blen) + hl;
	w = malloc(len);
	if (!w)
		return 0;
	put_batch_msg(w, NFNL_MSG_BATCH_BEGIN, 0x70000000u);
	memcpy(w + hl, body, blen);
	memset(w + hl + blen, 0, NLMSG_ALIGN(blen) - blen);
	put_batch_msg(w + hl + NLMSG_ALIGN(blen), NFNL_MSG_BATCH_END, 0x7fffffffu);
	feed(w, len, "wrapped");
	free(w);
	return 0;
}
