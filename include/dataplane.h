/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dataplane.h - what the control plane (nfnl/, ruleset/) asks of the
 * dataplane (codegen/ + offload/).
 *
 * Commit protocol (nf_tables_commit, transplanted):
 *   1. dataplane_prepare(net): fallible. Reads the ruleset as it will be
 *      in the NEXT generation (objects with active(genmask, genmask_next)),
 *      emits code for new shapes, loads programs, writes map entries for
 *      the next generation. Nothing a packet sees changes yet.
 *   2a. on success, after "cannot fail after this point":
 *      dataplane_publish(net) flips the generation packets see (one word /
 *      prog-array slot), then releases what the old generation alone used.
 *   2b. on failure (or any other reason to abort the batch):
 *      dataplane_abort(net) drops everything prepare built.
 * The control plane calls publish/abort before it flips net->gencursor.
 */
#ifndef NFBPF_DATAPLANE_H
#define NFBPF_DATAPLANE_H

#include <stdint.h>
#include "ruleset.h"

/**
 * struct dp_error - why the dataplane refused
 * @msg: human readable, for the extended ack ("expression 'ct' is not
 *	 supported by the nfbpf dataplane yet"); points to @buf or a literal
 * @buf: storage for a formatted @msg
 */
struct dp_error {
	const char *msg;
	char buf[160];
};

/**
 * dataplane_rule_check - can the dataplane run this rule?
 * @chain: the chain the rule goes into
 * @rule: the parsed rule
 * @err: filled on refusal
 *
 * Called for each NEWRULE before it joins the transaction, so the error
 * is reported on the offending message.
 *
 * Return: 0, or -EOPNOTSUPP with @err->msg naming the expression.
 */
int dataplane_rule_check(const struct chain *chain, const struct rule *rule,
			 struct dp_error *err);

/**
 * dataplane_chain_check - can the dataplane attach this base chain?
 * @table: table of the chain
 * @chain: a base chain (chain->base != NULL)
 * @err: filled on refusal
 *
 * Return: 0, or -EOPNOTSUPP (family/type/hook not supported yet).
 */
int dataplane_chain_check(const struct table *table, const struct chain *chain,
			  struct dp_error *err);

/**
 * dataplane_prepare - build the next generation's dataplane
 * @net: namespace (net->ns_fd is valid; attach there)
 * @err: filled on failure
 *
 * Return: 0 or -errno (-ENOMEM, -EINVAL from the verifier, ...).
 */
int dataplane_prepare(struct net *net, struct dp_error *err);

/**
 * struct dp_delta_elem - a set element one batch adds, deletes or updates
 * (its timeout) (NEWSETELEM/DELSETELEM records)
 */
struct dp_delta_elem {
	struct set *set;
	struct set_elem *elem;
};

/**
 * struct dp_delta - what one batch changes, for dataplane_prepare_delta()
 * @rules: the rules the batch adds or deletes (NEWRULE/DELRULE records)
 * @nrules: count
 * @elems: the set elements the batch adds, deletes or updates
 * @nelems: count
 * @other: the batch changes anything else as well (tables, chains, sets,
 *	   flags, policies)
 */
struct dp_delta {
	struct rule **rules;
	uint32_t nrules;
	struct dp_delta_elem *elems;
	uint32_t nelems;
	bool other;
};

/**
 * dataplane_prepare_delta - dataplane_prepare() told what the batch changes
 * @net: namespace
 * @delta: the batch's changes; NULL = unknown (a full prepare)
 * @err: filled on failure
 *
 * A batch that adds or deletes rules and elements of exact (not interval)
 * sets only is prepared from the records of those rules and elements alone
 * (and of what the last published batch, of any kind, changed): no walk
 * over chains, rules or set elements, so its cost does not grow with the
 * ruleset. Anything else (or a prepare after an abort) reads the whole
 * model.
 *
 * Return: as dataplane_prepare().
 */
int dataplane_prepare_delta(struct net *net, const struct dp_delta *delta,
			    struct dp_error *err);

/**
 * dataplane_elem_gc - @e of @s is about to be freed outside any batch (set
 * garbage collection of an expired element): the next prepare drops its
 * entry (packets skip it already: it expired). Cannot fail (out of memory:
 * the next prepare is a full one).
 */
void dataplane_elem_gc(struct net *net, struct set *s, const struct set_elem *e);

/** dataplane_publish - make the prepared generation live. Cannot fail. */
void dataplane_publish(struct net *net);

/** dataplane_abort - drop what dataplane_prepare() built. Cannot fail. */
void dataplane_abort(struct net *net);

/**
 * dataplane_net_free - free everything of @net; its pins go too (so the
 * links detach), unless dataplane_pins_keep() was called: then what is
 * pinned stays attached and keeps filtering.
 */
void dataplane_net_free(struct net *net);

/**
 * dataplane_pin_init - pin every dataplane under @root/<netns inode>/
 * (NULL: no pins, the default). A @root under /sys/fs/bpf mounts bpffs
 * there if it is not mounted.
 * Return: 0, or -errno with *@msg saying why (@root not on a bpffs:
 * -ENOTSUP).
 */
int dataplane_pin_init(const char *root, const char **msg);

/**
 * dataplane_pins_keep - the daemon stops: dataplane_net_free() keeps the
 * pins (the firewalls stay up and a restarted nfbpfd adopts them).
 */
void dataplane_pins_keep(void);

/**
 * dataplane_net_unpin - remove every pin of @net's namespace (its links
 * detach once nfbpfd closes its own fds; a pinned netfilter link holds
 * its namespace alive). The one function that removes a namespace's
 * pins; dataplane_net_free() calls it unless the daemon stops.
 */
void dataplane_net_unpin(struct net *net);

/**
 * dataplane_counter_base - what counter @slot of @net counted before its
 * map entry (the value it started from, less resets): the live value is
 * this plus the map's. For the state file (a restart reads the map).
 * Return: 0 or -ENOENT.
 */
int dataplane_counter_base(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes);

/**
 * dataplane_counter_epoch - bumped whenever a counter base changes for an
 * existing slot (a reset, the maps' growth folding the counter map into
 * the bases): the bases a state file holds are stale then.
 */
uint64_t dataplane_counter_epoch(struct net *net);

/**
 * dataplane_restore_begin - a restart is about to rebuild @net's model:
 * opens the counter map pinned by the earlier nfbpfd (before the rebuild's
 * commit pins ours over it).
 * Return: 0, or -ENOENT if @net's namespace has no pins (then a state file
 * of its inode is of another, older namespace), or -errno.
 */
int dataplane_restore_begin(struct net *net);

/**
 * dataplane_restore_counter - what the earlier nfbpfd's counter map holds
 * in @slot (summed over CPUs); after the rebuild's commit nothing counts
 * there any more. Return: 0 or -errno (-ENOENT: no such slot).
 */
int dataplane_restore_counter(struct net *net, uint32_t slot,
			      uint64_t *packets, uint64_t *bytes);

/**
 * dataplane_restore_word - what the earlier nfbpfd's state map holds in
 * @slot (a quota's consumed bytes, a limit's bucket).
 * Return: 0 or -errno.
 */
int dataplane_restore_word(struct net *net, uint32_t slot, uint64_t *val);

/**
 * dataplane_restore_set - the elements the earlier nfbpfd's exact-match set
 * map holds for its set @id (keys of @klen bytes), live in the generation
 * its packets run and not timed out: @fn(@arg, key, timeout, time left),
 * in ms (0: none). The elements the packet path added are among them.
 * Return: 0, what @fn returned (non-zero stops), or -errno.
 */
int dataplane_restore_set(struct net *net, uint32_t id, uint32_t klen,
			  int (*fn)(void *arg, const uint8_t *key,
				    uint64_t timeout_ms, uint64_t expires_ms),
			  void *arg);

/**
 * dataplane_set_id - the dataplane's id of @s (its key prefix in the set
 * maps), 0 if it has none. For the state file.
 */
uint32_t dataplane_set_id(struct net *net, const struct set *s);

/** dataplane_restore_end - close what dataplane_restore_begin() opened */
void dataplane_restore_end(struct net *net);

/**
 * dataplane_pins_each - @fn(@arg, inode) for each namespace with pins under
 * the pin root (stops at the first non-zero return, which it returns)
 */
int dataplane_pins_each(int (*fn)(void *arg, uint64_t ino), void *arg);

/**
 * dataplane_pins_flush - remove the pins of every namespace under the
 * pin root (nfbpfd --flush-pins). Return: 0 or the first -errno.
 */
int dataplane_pins_flush(void);

/**
 * dataplane_counter_read - live packet/byte count of a counter expression
 * @net: namespace
 * @slot: struct expr_counter.slot
 * @packets: out, sum over CPUs
 * @bytes: out
 *
 * Return: 0, or -ENOENT if the slot is not live.
 */
int dataplane_counter_read(struct net *net, uint32_t slot, uint64_t *packets,
			   uint64_t *bytes);

/*
 * struct codegen_set_half.data of a set (not a map): the element's timeout
 * (jiffies, both halves); an element the packet path added with
 * statements (dynset) keeps their state in half 0, shared by both
 * generations: a limit's token bucket word, a counter's packets and
 * bytes, and SET_STMTS_INLINE in the flags word (SET_STMTS_CONNLIMIT: a
 * "ct count", whose connection list is a value of the connlimit map keyed
 * by CL_SET_TAG | the set's id and the element's key)
 */
#define SET_DATA_TIMEOUT	0
#define SET_DATA_LIMIT		8
#define SET_DATA_PACKETS	16
#define SET_DATA_BYTES		24
#define SET_DATA_FLAGS		32
#define SET_STMTS_INLINE	0x1
#define SET_STMTS_CONNLIMIT	0x2	/* a "ct count": a list under the element's key */

/**
 * dataplane_set_dynamic - does the packet path write @s now (a dynset
 * target)? Cheap: no element is read.
 */
bool dataplane_set_dynamic(struct net *net, const struct set *s);

/**
 * dataplane_set_read - the elements of @s as the packet path left them
 * @net: namespace
 * @s: a set that rules add to or delete from (dynset)
 * @fn: called for each element live in the current generation: its key
 *	(s->klen bytes), timeout and expiry in jiffies (0: none), and
 *	the data of its entry (struct codegen_set_half.data of half 0:
 *	the state of statements the packet path gave it); nonzero stops
 *	the walk and is returned
 * @arg: for @fn
 *
 * Elements that timed out are deleted on the way (garbage collection).
 * Return: 0, -ENOENT if the packet path does not write @s, or -errno.
 */
int dataplane_set_read(struct net *net, const struct set *s,
		       int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
				 uint64_t expires, const uint8_t *data),
		       void *arg);

/**
 * dataplane_set_cl_gc - the garbage collection of a set whose elements the
 * packet path adds with a "ct count" (nft_rhash_gc(): an element whose
 * connection list nf_conncount_gc_list() empties goes; its list too)
 * @net: namespace
 * @s: the set
 *
 * Return: 0, -ENOENT if the packet path does not write @s, or -errno.
 */
int dataplane_set_cl_gc(struct net *net, const struct set *s);

/**
 * dataplane_state_read - live value of a stateful expression's state word
 * @net: namespace
 * @slot: the expression's state slot (struct expr_quota.slot, ...)
 * @val: out: the word as packets left it (quota: consumed bytes)
 *
 * Return: 0, or -ENOENT if the slot is not live.
 */
int dataplane_state_read(struct net *net, uint32_t slot, uint64_t *val);

/**
 * dataplane_counter_sub - take what a reset showed off a counter slot
 * (nft_counter_reset(): packets counted since then stay)
 * @net: namespace
 * @slot: a counter slot (struct object.dp_slot[0] of a counter object)
 * @packets: to subtract
 * @bytes: to subtract
 *
 * Return: 0, or -ENOENT if the slot is not live.
 */
int dataplane_counter_sub(struct net *net, uint32_t slot, uint64_t packets,
			  uint64_t bytes);

/**
 * dataplane_state_sub - take @val off a state word, atomically (a quota
 * object's reset: atomic64_sub() of the consumed bytes it showed)
 * @net: namespace
 * @slot: a state slot
 * @val: to subtract
 *
 * Return: 0, or -ENOENT if the slot is not live.
 */
int dataplane_state_sub(struct net *net, uint32_t slot, uint64_t val);

/**
 * struct dp_stats - observable dataplane work, cumulative per namespace
 * @progs_loaded: BPF programs loaded so far
 * @shapes: distinct rule shapes compiled
 * @rule_entries: rule map entries live
 * @incremental_prepares: prepares that touched only a batch's rules and
 *	elements
 * @set_entries_written: set map entries written or deleted so far
 * @fold_heads: folded runs of rules live (each one hash lookup per packet)
 * @fold_keys_written: fold map keys written or deleted so far
 * @inflight_timeouts: prepares that waited for a generation's packets in
 *		       vain for a second and fell back to an RCU grace period
 * @walker_graces: publishes that waited for an RCU grace period because a
 *		   new walker replaced one packets could still be running
 */
struct dp_stats {
	uint64_t progs_loaded;
	uint64_t shapes;
	uint64_t rule_entries;
	uint64_t incremental_prepares;
	uint64_t fold_heads;
	uint64_t set_entries_written;
	uint64_t inflight_timeouts;
	uint64_t fold_keys_written;
	uint64_t walker_graces;
	uint64_t cl_lists_freed;	/* "ct count" lists of elements gone */
};

/**
 * dataplane_jiffies - the kernel's jiffies now (what set element timeouts
 * count in, on the packet path too)
 * Return: 0 or -errno.
 */
int dataplane_jiffies(uint64_t *now);

/**
 * dataplane_xt_gc - forget what xtables match state has expired in @net
 * (xt hashlimit entries, as htable_gc()); called once a second
 */
void dataplane_xt_gc(struct net *net);

/** dataplane_hz - the kernel's HZ (measured once), 0 if unknown. */
unsigned int dataplane_hz(void);

/** dataplane_stats - read @net's counters (all zero if no dataplane yet). */
void dataplane_stats(const struct net *net, struct dp_stats *st);

/**
 * dataplane_log_fd - one descriptor that polls readable (EPOLLIN) when
 * some namespace's dataplane has log lines waiting. Owned by the dataplane.
 * Return: fd or -errno.
 */
int dataplane_log_fd(void);

/**
 * dataplane_log_poll - hand each waiting log line to @emit, formatted as
 * the kernel's nf_log_syslog prints it (@line without a newline, @level
 * the syslog level 0..7), for the namespaces the kernel would log from
 * (the host's, or all when net.netfilter.nf_log_all_netns is 1).
 * Return: lines emitted, or -errno.
 */
/**
 * struct dp_nflog - one packet for nfnetlink_log (log group, xt NFLOG): what
 * nfulnl_log_packet() reads of the packet, as the dataplane recorded it
 * @group: the rule's group
 * @qthreshold: the rule's queue threshold (0: the instance's)
 * @pf: nf_hook_state.pf
 * @hook: the hook number
 * @protocol: skb->protocol, network order
 * @mark: skb->mark
 * @iif: input device ifindex (0: none)
 * @oif: output device ifindex (0: none)
 * @br_iif: bridge family: @iif's bridge device (@iif is the port:
 *	    NFULA_IFINDEX_PHYSINDEV, this NFULA_IFINDEX_INDEV)
 * @br_oif: ... @oif's
 * @has_hw: an input device and a mac header (NFULA_HWTYPE, HWLEN, HWHEADER)
 * @hwtype: skb->dev->type
 * @hwlen: skb->dev->hard_header_len
 * @hwheader: @hwlen bytes from the mac header (NULL: more than recorded)
 * @hwaddr_len: bytes of NFULA_HWADDR (dev_parse_header()), 0: none
 * @hwaddr: those bytes
 * @has_uid: the skb's full socket has a file: @uid, @gid are its fsuid/fsgid
 * @has_l2: netdev and bridge families with the mac header set
 *	    (nfulnl_put_bridge()): NFULA_VLAN if @vlan_all, NFULA_L2HDR if
 *	    @l2len
 * @vlan_all: skb->vlan_all (vlan_proto network order, vlan_tci << 16)
 * @l2len: skb_mac_header_len() (0: none)
 * @l2hdr: those bytes (NULL: more than recorded: no NFULA_L2HDR)
 * @tstamp_ns: skb_tstamp_cond(skb, true): the skb's stamp or the time of
 *	       day it was logged, ns since the epoch
 * @len: skb->len
 * @caplen: packet bytes recorded at @data (from skb->data)
 * @prefix: the rule's prefix
 */
struct dp_nflog {
	uint16_t group;
	uint16_t qthreshold;
	uint8_t pf;
	uint8_t hook;
	uint16_t protocol;
	uint32_t mark;
	uint32_t iif;
	uint32_t oif;
	uint32_t br_iif;
	uint32_t br_oif;
	bool has_hw;
	uint16_t hwtype;
	uint16_t hwlen;
	const uint8_t *hwheader;
	uint8_t hwaddr_len;
	const uint8_t *hwaddr;
	bool has_uid;
	uint32_t uid;
	uint32_t gid;
	bool has_l2;
	uint32_t vlan_all;
	uint16_t l2len;
	const uint8_t *l2hdr;
	uint64_t tstamp_ns;
	uint32_t len;
	uint32_t caplen;
	const uint8_t *data;
	const char *prefix;
};

/**
 * dataplane_nflog_sync - the programs of @net log NFLOG packets of the
 * groups whose bit is set in @net->nflog_bound only (a group without an
 * nfnetlink_log instance logs nothing): push that bitmap to them
 * (no-op without a dataplane; 0 or -errno)
 */
int dataplane_nflog_sync(struct net *net);

/*
 * ... and each waiting NFLOG packet to @nflog with the namespace it was
 * logged in (NULL @nflog: dropped)
 */
struct net;
int dataplane_log_poll(void (*emit)(void *arg, int level, const char *line),
		       void (*nflog)(void *arg, struct net *net,
				     const struct dp_nflog *pkt),
		       void *arg);

/**
 * dataplane_link_fd - one descriptor that polls readable (EPOLLIN) when a
 * device appeared, went or changed in a namespace with a dataplane (its
 * rtnetlink link events). Owned by the dataplane.
 * Return: fd or -errno.
 */
int dataplane_link_fd(void);

/**
 * dataplane_link_poll - after link events: attach the live netdev and
 * inet ingress chains to the devices they name that exist now, detach
 * those of devices that went (no generation change).
 * Return: namespaces looked at, or -errno.
 */
int dataplane_link_poll(void);

/**
 * dataplane_routes_fd - one descriptor that polls readable (EPOLLIN) when
 * routes, addresses or links changed in a namespace with a dataplane (the
 * route mirror of the fib expression, offload/routes.c). Owned by the
 * dataplane.
 * Return: fd or -errno.
 */
int dataplane_routes_fd(void);

/**
 * dataplane_routes_poll - after such events: bring each changed
 * namespace's route mirror up to date (dump and apply).
 * Return: namespaces looked at, or -errno.
 */
int dataplane_routes_poll(void);

#endif /* NFBPF_DATAPLANE_H */
