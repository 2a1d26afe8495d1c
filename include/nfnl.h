/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfnl.h - netlink side of nfbpfd: attribute policies, extended acks,
 * message builders shared by the object handlers in nfnl/.
 */
#ifndef NFBPF_NFNL_H
#define NFBPF_NFNL_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>

#include "ruleset.h"

/** enum attr_kind - policy types, as the kernel's NLA_* */
enum attr_kind {
	ATTR_UNSPEC = 0,	/* accepted, not checked */
	ATTR_U8,
	ATTR_U16,
	ATTR_U32,
	ATTR_U64,
	ATTR_STRING,		/* NLA_STRING: @len = max length w/o NUL */
	ATTR_NUL_STRING,	/* NLA_NUL_STRING: must hold a NUL */
	ATTR_BINARY,		/* NLA_BINARY: @len = max length (0: any) */
	ATTR_NESTED,
	ATTR_REJECT,		/* present = -EINVAL */
	ATTR_MINLEN,		/* NLA_UNSPEC with a .len: @len = min length */
};

/**
 * struct attr_policy - one attribute of a policy table
 * @kind: enum attr_kind
 * @len: see enum attr_kind
 */
struct attr_policy {
	uint8_t kind;
	uint16_t len;
};

/**
 * struct extack - extended ack for one message
 * @msg: static string or NULL
 * @bad_attr: offending attribute, inside the message being handled
 * @buf: storage for a message that is not a literal (see extack_copy())
 * @own: @msg is @buf (re-point it after copying the struct)
 */
struct extack {
	const char *msg;
	const struct nlattr *bad_attr;
	bool own;
	char buf[160];
};

/* extack_copy - keep a copy of @msg: acks go out after the whole batch */
static inline void extack_copy(struct extack *ext, const char *msg,
			       const struct nlattr *attr)
{
	size_t i;

	if (!ext)
		return;
	for (i = 0; msg && msg[i] && i < sizeof(ext->buf) - 1; i++)
		ext->buf[i] = msg[i];
	ext->buf[i] = '\0';
	ext->msg = msg ? ext->buf : NULL;
	ext->own = msg != NULL;
	ext->bad_attr = attr;
}

static inline void extack_set(struct extack *ext, const char *msg,
			      const struct nlattr *attr)
{
	if (!ext)
		return;
	ext->msg = msg;
	ext->own = false;
	ext->bad_attr = attr;
}

/**
 * nfnl_attr_parse - validate attributes against a policy and index them
 * @buf: first attribute
 * @len: bytes of attributes
 * @maxtype: highest attribute type of the policy
 * @policy: maxtype + 1 entries
 * @tb: out, maxtype + 1 entries, NULL for absent (last duplicate wins)
 * @ext: extended ack, filled on error
 *
 * Attributes above @maxtype are ignored, as the kernel's liberal parse.
 *
 * Return: 0, -EINVAL or -ERANGE as the kernel's nla_parse_deprecated().
 */
int nfnl_attr_parse(const void *buf, size_t len, int maxtype,
		    const struct attr_policy *policy,
		    const struct nlattr **tb, struct extack *ext);

/** nfnl_attr_parse_nested - nfnl_attr_parse() on the payload of @nest. */
int nfnl_attr_parse_nested(const struct nlattr *nest, int maxtype,
			   const struct attr_policy *policy,
			   const struct nlattr **tb, struct extack *ext);

/**
 * nfnl_attr_for_each_nested - iterate the attributes inside @nest, as
 * nla_for_each_nested(): stops at the first malformed one
 * @a: const struct nlattr * cursor
 * @nest: the nesting attribute (already policy-checked as ATTR_NESTED)
 * @left: size_t scratch
 */
#define nfnl_attr_for_each_nested(a, nest, left)				\
	for (a = (const void *)((const char *)(nest) + NLA_HDRLEN),		\
	     left = (nest)->nla_len - NLA_HDRLEN;				\
	     left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&			\
	     (size_t)a->nla_len <= left;					\
	     left -= (size_t)NLA_ALIGN(a->nla_len) < left ?			\
		     (size_t)NLA_ALIGN(a->nla_len) : left,			\
	     a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))

/** nfnl_attr_strcmp - like nla_strcmp(): compare attribute with @s. */
int nfnl_attr_strcmp(const struct nlattr *a, const char *s);
/** nfnl_attr_strdup - copy a string attribute; NULL on ENOMEM. */
char *nfnl_attr_strdup(const struct nlattr *a);
/** nfnl_attr_strlcpy - copy into @dst of @size; returns length copied. */
size_t nfnl_attr_strlcpy(char *dst, const struct nlattr *a, size_t size);
uint8_t nfnl_attr_u8(const struct nlattr *a);
uint16_t nfnl_attr_be16(const struct nlattr *a);
uint32_t nfnl_attr_be32(const struct nlattr *a);
uint64_t nfnl_attr_be64(const struct nlattr *a);
/** nfnl_attr_udata - copy NLA_BINARY user data; -ENOMEM. */
int nfnl_attr_udata(const struct nlattr *a, struct userdata *ud);

/**
 * struct nfnl_buf - a growable output buffer of netlink messages
 * @data: bytes, owned
 * @len: used
 * @cap: allocated
 * @err: sticky -ENOMEM
 */
struct nfnl_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
	int err;
};

void nfnl_buf_init(struct nfnl_buf *b);
void nfnl_buf_fini(struct nfnl_buf *b);
/** nfnl_buf_reserve - make room for @n more bytes; sticky error. */
bool nfnl_buf_reserve(struct nfnl_buf *b, size_t n);

/** Message building on struct nfnl_buf; every put is checked via b->err. */
/**
 * nfnl_msg_start - append a netlink + nfgenmsg header
 *
 * Return: offset of the message in @b (pass it to nfnl_msg_end()).
 */
size_t nfnl_msg_start(struct nfnl_buf *b, uint16_t type, uint16_t flags,
		      uint32_t seq, uint32_t portid, uint8_t family,
		      uint16_t res_id);
/** nfnl_msg_end - set the length of the message started at @off. */
void nfnl_msg_end(struct nfnl_buf *b, size_t off);
/** nfnl_msg_cancel - drop the message started at @off. */
void nfnl_msg_cancel(struct nfnl_buf *b, size_t off);
void nfnl_put(struct nfnl_buf *b, uint16_t type, const void *data, size_t len);
void nfnl_put_str(struct nfnl_buf *b, uint16_t type, const char *s);
void nfnl_put_be16(struct nfnl_buf *b, uint16_t type, uint16_t v);
void nfnl_put_be32(struct nfnl_buf *b, uint16_t type, uint32_t v);
void nfnl_put_be64(struct nfnl_buf *b, uint16_t type, uint64_t v);
void nfnl_put_u8(struct nfnl_buf *b, uint16_t type, uint8_t v);
/** nfnl_nest_start - returns the offset of the nest header in @b. */
size_t nfnl_nest_start(struct nfnl_buf *b, uint16_t type);
void nfnl_nest_end(struct nfnl_buf *b, size_t off);
void nfnl_put_udata(struct nfnl_buf *b, uint16_t type, const struct userdata *ud);

#endif /* NFBPF_NFNL_H */

#ifndef NFBPF_NFNL_CLIENT
#define NFBPF_NFNL_CLIENT
/**
 * struct nfnl_out - replies to one client, cut into datagrams
 * @buf: the bytes of all pending messages
 * @ends: offsets in @buf where a datagram ends
 * @nends: number of entries in @ends
 * @cap: capacity of @ends
 * @sent: bytes of @buf already handed to the socket
 * @nsent: datagrams already handed to the socket
 */
struct nfnl_out {
	struct nfnl_buf buf;
	size_t *ends;
	size_t nends;
	size_t cap;
	size_t sent;
	size_t nsent;
};

#define CLIENT_F_EXT_ACK	0x1
#define CLIENT_F_CAP_ACK	0x2

/**
 * struct client - one emulated netlink socket
 * @net: its network namespace (owned by the daemon)
 * @portid: netlink port id
 * @nlflags: CLIENT_F_*
 * @groups: joined multicast groups, bit (group - 1)
 * @pid: peer process id
 * @comm: peer process name
 * @privileged: peer has CAP_NET_ADMIN
 * @out: pending output
 */
struct client {
	struct net *net;
	uint32_t portid;
	uint32_t nlflags;
	uint32_t groups;
	uint32_t pid;
	char comm[16];
	bool privileged;
	struct nfnl_out out;
	void *restore;		/* nfnl/state.c: a restore batch in flight */
};

/** nfnl_out_cut - end the current datagram (no-op if it is empty). */
void nfnl_out_cut(struct nfnl_out *o);
/** nfnl_out_cut_if - end the current datagram if it holds >= @limit bytes. */
void nfnl_out_cut_if(struct nfnl_out *o, size_t limit);
void nfnl_out_fini(struct nfnl_out *o);
/** nfnl_out_compact - forget what was sent. */
void nfnl_out_compact(struct nfnl_out *o);

/**
 * nfnl_rcv - handle one datagram a client sent
 * @cl: the client
 * @data: netlink messages
 * @len: bytes
 *
 * Replies are appended to @cl->out; multicast events go to other clients
 * through nfnl_multicast().
 */
void nfnl_rcv(struct client *cl, const void *data, size_t len);

/**
 * nfnl_client_release - @cl's socket closed: drop the tables it owns
 * (NFT_TABLE_F_OWNER), as the kernel does on NETLINK_URELEASE
 */
void nfnl_client_release(struct client *cl);

/*
 * state.c - the state directory (NULL: none): nfnl_state_save() writes
 * @net's committed ruleset to <nfnl_state_dir>/<netns inode> (0 or
 * -errno) and empties its journal (nfnl_state_commit() appends a
 * committed batch to it, or calls nfnl_state_save()); nfnl_state_restore() rebuilds a new @net's model from it if the
 * namespace still has the pins of an earlier nfbpfd (0: restored or
 * nothing to restore; -errno with *@msg); nfnl_state_remove() deletes the
 * files (the namespace is released); nfnl_state_handle() is rcv_batch()'s
 * hook for the messages of a restore batch.
 */
extern const char *nfnl_state_dir;
int nfnl_state_save(struct net *net);
int nfnl_state_restore(struct net *net, const char **msg);
void nfnl_state_remove(struct net *net);
struct nlattr;
void nfnl_state_handle(struct client *cl, const struct nlmsghdr *nlh,
		       const struct nlattr *const *cda);

/**
 * struct nfnl_state_note - what a commit made, for the state journal
 * @handles: the handle of each object the commit created (uint64_t each,
 *	     in commit order): a replay must give the same
 * @counters: struct state_counter records of the counters, quotas and
 *	      limits of the rules and objects it created
 */
struct nfnl_state_note {
	struct nfnl_buf handles;
	struct nfnl_buf counters;
};
struct trans;
void nfnl_state_note_init(struct nfnl_state_note *n);
void nfnl_state_note_fini(struct nfnl_state_note *n);
/* nfnl_state_note - a ruleset_tx_commit() notify callback's record @tr */
void nfnl_state_note(struct nfnl_state_note *n, struct net *net,
		     const struct trans *tr);
/**
 * nfnl_state_commit - a client batch committed: append it to the state
 * journal (or write the whole state, see state.c)
 * @net: namespace
 * @n: what the commit made
 * @msgs: the batch's messages between BATCH_BEGIN and BATCH_END
 * @len: their bytes
 * @table_handle: net->table_handle when the batch began
 * @base_seq: net->base_seq when the batch began
 * @owned: a table had NFT_TABLE_F_OWNER when the batch began
 */
int nfnl_state_commit(struct net *net, const struct nfnl_state_note *n,
		      const void *msgs, size_t len, uint64_t table_handle,
		      uint32_t base_seq, bool owned);
/* nfnl_state_replayed - a restore's journal batch committed with @n */
void nfnl_state_replayed(struct client *cl, const struct nfnl_state_note *n);

/**
 * nfnl_multicast - deliver @len bytes of messages as one datagram to every
 * client of @net in @group, but @exclude_portid. Implemented by the daemon.
 */
void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude_portid,
		    const void *data, size_t len);
/** nfnl_has_listeners - does any client of @net listen to @group? */
bool nfnl_has_listeners(struct net *net, unsigned int group);

/**
 * nfnl_unicast_hook - if set, delivers @len bytes of messages as one
 * datagram to the socket @portid of @net, if there is one (the daemon
 * sets it): how nfnetlink_log batches reach their listener
 */
extern void (*nfnl_unicast_hook)(struct net *net, uint32_t portid,
				 const void *data, size_t len);
/*
 * nfnetlink_log (nfnl/ulog.c): nfnl_ulog_rcv() handles one
 * NFNL_SUBSYS_ULOG message (0 or -errno for the ack);
 * nfnl_ulog_release() drops the instances @cl's socket owns;
 * nfnl_ulog_packet() logs one packet of @net to its group's instance (if
 * bound); nfnl_ulog_timeout() is the ms until the next flush timer (-1:
 * none) and nfnl_ulog_run_timers() flushes the batches whose time came.
 */
struct dp_nflog;
int nfnl_ulog_rcv(struct client *cl, const struct nlmsghdr *nlh,
		  struct extack *ext);
void nfnl_ulog_release(struct client *cl);
void nfnl_ulog_packet(struct net *net, const struct dp_nflog *pkt);
int nfnl_ulog_timeout(void);
void nfnl_ulog_run_timers(void);
extern const struct attr_policy nfnl_ulog_cfg_policy[];

/**
 * nfnl_error_hook - if set, called for every error ack (@err < 0) with
 * the request and the extended-ack message (NULL if none): the daemon
 * logs refusals with it (nfbpfd --verbose).
 */
extern void (*nfnl_error_hook)(const struct client *cl,
			       const struct nlmsghdr *nlh, int err,
			       const char *msg);
/**
 * nfnl_sets_gc - the kernel's set garbage collection, run by the daemon
 * about once a second (nft_set_gc_interval): elements of sets with
 * timeouts that expired leave the model, and a dynamic set's map is read
 * back (elements the packet path added join, timed-out entries go, so
 * that they stop counting against the set's size).
 */
void nfnl_sets_gc(struct net *net);

#endif
