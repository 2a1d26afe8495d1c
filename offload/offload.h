/* SPDX-License-Identifier: GPL-2.0-only */
/* offload.h - offload/ internals shared by its files and its tests. */
#ifndef NFBPF_OFFLOAD_H
#define NFBPF_OFFLOAD_H

#include <stdint.h>
#include <stdbool.h>
#include "codegen/codegen.h"

/**
 * offload_btf_env - fill @env's kfunc ids and struct offsets from the
 * running kernel's BTF (/sys/kernel/btf/vmlinux, parsed once).
 * Return: 0, -ENOENT (a kfunc or member is missing), -errno.
 */
int offload_btf_env(struct codegen_env *env);

/*
 * offload_btf_bridge - does this kernel's BTF describe the bridge (struct
 * net_bridge, net_bridge_port, net_device priv_flags) as the bridge
 * family's tc programs read it?
 */
bool offload_btf_bridge(void);

/**
 * offload_prog_load - load @p (a finished codegen_prog) as a netfilter
 * program, with BTF func_info for its functions.
 * @p: instructions, p->funcs gives function starts
 * @name: program name
 * @log: verifier log buffer (may be NULL)
 * @log_size: its size
 *
 * Return: program fd, or -errno (verifier refusal: -EINVAL/-EACCES with
 * the reason in @log).
 */
int offload_prog_load(const struct codegen_prog *p, const char *name,
		      char *log, size_t log_size);
/* the same for a program whose ctx is @ctx (CODEGEN_CTX_*): tc programs
 * load as BPF_PROG_TYPE_SCHED_CLS */
int offload_prog_load_ctx(const struct codegen_prog *p, const char *name,
			  uint8_t ctx, char *log, size_t log_size);

/**
 * offload_link_create - netfilter link of @prog_fd at (@pf, @hooknum,
 * @priority) in the netns of @ns_fd (-1: the caller's).
 * Return: link fd, or -errno (-EBUSY: that priority is taken, -ERANGE:
 * NF_IP_PRI_FIRST/LAST refused by the kernel).
 */
int offload_link_create(int prog_fd, uint32_t pf, uint32_t hooknum,
			int32_t priority, int ns_fd);

/**
 * offload_tcx_attach - tcx link of @prog_fd (BPF_PROG_TYPE_SCHED_CLS) on
 * device @ifindex of the netns of @ns_fd, ingress or egress: last of
 * the device's ingress programs (netfilter's ingress hook runs after
 * tc's), first of its egress ones (nf_hook_egress() runs before tc's).
 * Return: link fd, or -errno (-ENODEV: no such device).
 */
int offload_tcx_attach(int prog_fd, uint32_t ifindex, bool egress, int ns_fd);

/**
 * offload_ifindex - ifindex of each device name of @names in the netns
 * of @ns_fd (0: no such device) into @out.
 * Return: 0 or -errno of entering the netns.
 */
int offload_ifindex(int ns_fd, char *const *names, uint32_t n, uint32_t *out);

/*
 * offload_ifindex_all - the ifindex of every device in the netns @ns_fd
 * (-1: ours) into *@out (malloc'ed, *@n of them); -errno
 */
int offload_ifindex_all(int ns_fd, uint32_t **out, uint32_t *n);

/**
 * offload_in_netns - run @fn(@arg) with this thread in the netns of @ns_fd
 * (-1: where it is), then come back.
 * Return: what @fn returned (an fd if > 0: closed if the way back fails),
 * or -errno of open()/setns().
 */
int offload_in_netns(int ns_fd, int (*fn)(void *arg), void *arg);

/**
 * offload_rtnl_socket - an offload_in_netns() callback: an rtnetlink
 * socket of the netns it runs in, bound to the multicast groups *@arg (a
 * uint32_t; 0: none, a blocking socket for requests; else non-blocking).
 * Return: fd or -errno.
 */
int offload_rtnl_socket(void *arg);

/**
 * offload_epoll - *@epfd, an epoll instance created on first use.
 * Return: the fd or -errno.
 */
int offload_epoll(int *epfd);

/**
 * offload_conntrack_enable - make the kernel track connections of @family
 * (NFPROTO_IPV4 or NFPROTO_IPV6) in the netns of @ns_fd, as nf_tables does
 * for a table of that family that uses ct (conntrack hooks are registered
 * per netns and family on demand, nf_ct_netns_get()). No BPF interface
 * does this, so nfbpfd holds an inert kernel object whose only effect is
 * that reference: a dormant table "nfbpf_conntrack" of @family with one ct
 * expectation object and no chain or rule.
 * Return: 0 or -errno (the kernel's answer).
 */
int offload_conntrack_enable(int ns_fd, uint8_t family);

/** offload_conntrack_disable - drop @family's table (best effort). */
void offload_conntrack_disable(int ns_fd, uint8_t family);

/**
 * offload_conntrack_acct - turn conntrack accounting on in the netns of
 * @ns_fd (net.netfilter.nf_conntrack_acct = 1), as the kernel's
 * nft_ct_get_init() does for ct bytes, packets and avgpkt (nf_ct_set_acct();
 * nothing turns it off again).
 * Return: 0 or -errno.
 */
int offload_conntrack_acct(int ns_fd);

/**
 * struct offload_ct_tuple - where struct nf_conntrack_tuple keeps what
 * a conntrack lookup by tuple needs (codegen_env.off.tup_*)
 * @src_u3: src.u3 (address), @src_u: src.u (port, ICMP id),
 * @l3num: src.l3num, @dst_u3: dst.u3, @dst_u: dst.u (port, ICMP type and
 * code), @protonum: dst.protonum
 */
struct offload_ct_tuple {
	int16_t src_u3, src_u, l3num, dst_u3, dst_u, protonum;
};

/**
 * offload_conntrack_socket - a ctnetlink socket in the netns of @ns_fd
 * Return: the fd or -errno.
 */
int offload_conntrack_socket(int ns_fd);

/**
 * offload_conntrack_get - is a conntrack with original tuple @tuple (the
 * kernel's struct nf_conntrack_tuple bytes, laid out as @off says) in
 * zone @zone_id in the table (nf_conntrack_find_get())? Asked over
 * ctnetlink (IPCTNL_MSG_CT_GET) on @fd.
 * @tcp_state: out: its TCP state (enum tcp_conntrack), 0xff if not TCP
 * Return: 1 found, 0 not found, -errno (not known).
 */
int offload_conntrack_get(int fd, const struct offload_ct_tuple *off,
			  const uint8_t *tuple, uint16_t zone_id,
			  uint8_t *tcp_state);

/*
 * grace.c - RCU grace periods after generation flips.
 * offload_grace_request() after a flip returns its ticket (never fails);
 * offload_grace_wait(ticket) returns once every BPF program that was
 * running when the ticket was taken has finished (0), or -errno if the
 * kernel could not be asked. Ticket 0 is over already.
 */
uint64_t offload_grace_request(void);
int offload_grace_wait(uint64_t ticket);

struct net;
struct chain;
/* offload_map_caps - entries of @net's rule map and counter map (0: none) */
void offload_map_caps(struct net *net, uint32_t *rules, uint32_t *counters);

struct rule;
/* offload_rule_index - rule map index of @rule's entry, -ENOENT if none */
int64_t offload_rule_index(struct net *net, const struct rule *rule);

/**
 * offload_chain_prog - the program behind the netfilter link of @chain's
 * hook point for @pf, for BPF_PROG_TEST_RUN.
 * Return: fd (owned by the dataplane) or -ENOENT.
 */
int offload_chain_prog(struct net *net, const struct chain *chain, uint32_t pf);

/**
 * offload_dev_prog - the program behind the tcx link of device @ifindex
 * (ingress or egress): netdev and inet ingress chains, for
 * BPF_PROG_TEST_RUN.
 * Return: fd (owned by the dataplane) or -ENOENT.
 */
int offload_dev_prog(struct net *net, uint32_t ifindex, bool egress);

/*
 * sets.c - elements of the sets rules look up, in the shared set maps.
 * dp_sets_prepare() (after the chain heads exist, before rule constants
 * ask dp_sets_id()) writes both generations' halves of every entry;
 * dp_sets_drop_unseen() after a successful prepare, dp_sets_abort() /
 * dp_sets_publish() with the dataplane's.
 */
struct dp_sets;
struct dp_error;
struct dp_sets *dp_sets_new(void);
/* free @ss (may be NULL) and close @env's set maps (if @env) */
void dp_sets_free(struct dp_sets *ss, struct codegen_env *env);
int dp_sets_prepare(struct dp_sets *ss, struct net *net,
		    struct codegen_env *env,
		    const struct codegen_consts_ctx *cc, struct dp_error *err);
/* dataplane id of @s, 0 if it has none */
uint32_t dp_sets_id(struct dp_sets *ss, const struct set *s);
/**
 * struct dp_sets_ops - the state words of the count of dynamic sets
 * @count_get: a state slot holding @init (0: none left)
 * @count_add: add @d to the word in @slot (atomic: packets add too)
 * @count_put: give @slot back
 */
struct dp_sets_ops {
	uint32_t (*count_get)(void *priv, uint64_t init);
	void (*count_add)(void *priv, uint32_t slot, int64_t d);
	void (*count_put)(void *priv, uint32_t slot);
	/* the "ct count" list of the element of set @id with map key
	 * words @key (@klen bytes): would the kernel's collection empty it
	 * now (nf_conncount_gc_list() true)? / free it */
	bool (*cl_dead)(void *priv, uint32_t id, const uint8_t *key, uint32_t klen);
	void (*cl_free)(void *priv, uint32_t id, const uint8_t *key, uint32_t klen);
	void *priv;
};
void dp_sets_set_ops(struct dp_sets *ss, const struct dp_sets_ops *ops);
/* state slot of the count word of @s (a dynset target), 0 if none */
uint32_t dp_sets_count(struct dp_sets *ss, const struct set *s);
/* does the packet path write @s (a dynset target with a map)? */
bool dp_sets_dynamic(struct dp_sets *ss, const struct set *s);
/*
 * dp_sets_read - the entries of @s in its map (a set the packet path adds
 * to), live in the current generation @g: @fn(arg, key, timeout,
 * expires); entries timed out are deleted. An entry no prepare wrote is
 * left to the packet path until the model holds its element: the first
 * write of that element counts with what the entry held.
 * Return: 0, -ENOENT if the packet path does not add to @s, or -errno.
 */
int dp_sets_read(struct dp_sets *ss, const struct set *s, uint32_t g,
		 uint64_t now,
		 int (*fn)(void *arg, const uint8_t *key, uint64_t timeout,
			   uint64_t expires, const uint8_t *data),
		 void *arg);
/*
 * dp_sets_cl_gc - the set garbage collection of elements with a "ct
 * count" (nft_rhash_gc() with nft_rhash_expr_needs_gc_run(), NFT_SET_EVAL
 * sets): entries of @s live in generation @g whose list ops.cl_dead()
 * finds emptied are deleted, with their lists.
 * Return: 0, -ENOENT if the packet path does not add to @s, or -errno.
 */
int dp_sets_cl_gc(struct dp_sets *ss, const struct set *s, uint32_t g,
		  uint64_t now);
/*
 * dp_sets_cl_sweep - delete the lists of @cl_fd that belong to elements
 * no set map holds in generation @g any more (deleted or flushed by the
 * control plane),
 * or to sets @set_live(arg, table handle, set handle) says are gone.
 * Return: the lists deleted.
 */
uint32_t dp_sets_cl_sweep(struct dp_sets *ss, int cl_fd, uint32_t g,
			  bool (*set_live)(void *arg, uint64_t table, uint64_t handle),
			  void *arg);
void dp_sets_drop_unseen(struct dp_sets *ss);
void dp_sets_abort(struct dp_sets *ss);
void dp_sets_publish(struct dp_sets *ss);
/*
 * Delta prepares (batches of rules and elements): dp_sets_delta_ok() says
 * whether a change of element @e of @s (both NULL: none) can be prepared
 * alone (the last prepare left its settle list complete, @s is exact or
 * has no dataplane id); dp_sets_prepare_delta() then settles the entries
 * the last prepare changed and writes the next half of the entries of
 * @d's elements only. dp_sets_abort() puts those next halves back.
 */
struct dp_delta;
bool dp_sets_delta_ok(struct dp_sets *ss, const struct set *s,
		      const struct set_elem *e);
/*
 * may a rule batch's rule expression @e be prepared incrementally, as far
 * as its set goes? A full prepare refuses a set both looked up and added
 * to with statements from the packet path (use_set()): false when @e
 * would make one so (the full prepare refuses it then), from what the
 * last full prepare found and what rule batches since added (it notes
 * @e's use: the flags only grow until the next full prepare)
 */
bool dp_sets_delta_expr_ok(struct dp_sets *ss, const struct expr *e);
int dp_sets_prepare_delta(struct dp_sets *ss, struct net *net,
			  struct codegen_env *env,
			  const struct codegen_consts_ctx *cc,
			  const struct dp_delta *d, struct dp_error *err);
/* dataplane_elem_gc() */
void dp_sets_gc(struct dp_sets *ss, struct codegen_env *env, struct set *s,
		const struct set_elem *e);
/* set map entries written or deleted so far */
uint64_t dp_sets_written(const struct dp_sets *ss);

/*
 * log.c - log records (log expression, syslog and NFLOG). dp_log_new()
 * makes the ring buffer of a namespace (its fd into *@map_fd, owned by the
 * dp_log) and its bound NFLOG groups map (*@nflog_fd), and joins the ring
 * to dataplane_log_fd(); dp_log_rule() gives each log expression
 * of @rule its prefix id (0 or -ENOMEM/-ENOSPC); dp_log_consume() hands
 * every waiting record to @fn with its prefix and whether the kernel would
 * log it (nf_log_allowed()), returning the count or -errno.
 */
struct dp_log;
struct rule;
struct codegen_log_rec;
struct dp_log *dp_log_new(int ns_fd, struct net *net, int *map_fd,
			  int *nflog_fd);
/* dp_log_nflog_sync - the bound NFLOG groups (NFLOG_GROUPS bits, NULL:
 * none) into the map of *@nflog_fd (0 or -errno) */
int dp_log_nflog_sync(struct dp_log *lg, const uint8_t *bound);
/* the namespace of @lg's records (dp_log_new()'s @net) */
struct net *dp_log_net(const struct dp_log *lg);
void dp_log_free(struct dp_log *lg);
int dp_log_rule(struct dp_log *lg, struct rule *rule);
int dp_log_consume(struct dp_log *lg,
		   void (*fn)(void *arg, const struct codegen_log_rec *rec,
			      const char *prefix, bool allowed),
		   void *arg);
/*
 * dp_log_add_ring - have dp_log_consume() (and so dataplane_log_poll())
 * also drain ring buffer @map_fd, handing each record to @fn(@ctx, ...)
 * (0 or -errno)
 */
int dp_log_add_ring(struct dp_log *lg, int map_fd,
		    int (*fn)(void *ctx, void *data, size_t size), void *ctx);

/*
 * reject.c - reject records (reject expression, xt REJECT): see the
 * design note there. dp_reject_new() makes the ring buffer of a namespace
 * (its fd into *@map_fd, owned by the dp_reject) drained with @lg's, and
 * the map of the conntrack its replies carry (struct codegen_reject_ct,
 * fd into *@ct_fd, owned likewise);
 * each record is answered in the namespace of @ns_fd (dup'ed).
 */
/*
 * routes.c - the route mirror of the fib expression (see the design note
 * there): dp_routes_new() makes the LPM tries of the namespace of @ns_fd
 * (their fds into *@map_fd and *@map6_fd, owned by the dp_routes), fills
 * them and follows
 * the namespace's changes on dataplane_routes_fd(). NULL on failure.
 */
struct dp_routes;
struct dp_routes *dp_routes_new(int ns_fd, int *map_fd, int *map6_fd);
void dp_routes_free(struct dp_routes *rt);
/*
 * dp_routes_rules_check - 0 if the namespace of @ns_fd has only the
 * default policy routing rules of the families asked (@v4, @v6), else
 * -EOPNOTSUPP with *@msg saying so (route lookups cannot be answered
 * there), or another -errno if the rules cannot be dumped
 */
int dp_routes_rules_check(int ns_fd, bool v4, bool v6, const char **msg);

/*
 * recent.c - the tables of the xt recent match of one namespace (see the
 * design note there). dp_recent_rule() creates (or flushes) the tables
 * a new rule names (recent_mt_check()), making the map on first use and
 * pointing @env at it; dp_recent_sweep() deletes the tables no rule
 * active in @genmask names.
 */
struct dp_recent;
/*
 * offload_lock_map_create - a HASH map (BPF_F_NO_PREALLOC) whose values
 * start with a struct bpf_spin_lock (described in its BTF)
 * Return: the map fd or -errno.
 */
int offload_lock_map_create(const char *name, uint32_t ksize, uint32_t vsize,
			    uint32_t max);
struct dp_recent *dp_recent_new(void);
void dp_recent_free(struct dp_recent *rc);
int dp_recent_rule(struct dp_recent *rc, const struct rule *rule,
		   struct codegen_env *env, struct dp_error *err);
void dp_recent_sweep(struct dp_recent *rc, struct net *net, uint8_t genmask);

/*
 * hashlimit.c - the tables of the xt hashlimit match of one namespace
 * (see the design note there), the same way: dp_hl_rule() at prepare,
 * dp_hl_sweep() after a publish or an abort; dp_hl_gc() forgets expired
 * entries (htable_gc()).
 */
struct dp_hl;
struct dp_hl *dp_hl_new(void);
void dp_hl_free(struct dp_hl *hl);
int dp_hl_rule(struct dp_hl *hl, const struct rule *rule,
	       struct codegen_env *env, struct dp_error *err);
void dp_hl_sweep(struct dp_hl *hl, struct net *net, uint8_t genmask);
void dp_hl_gc(struct dp_hl *hl);

/*
 * string.c - the automata of the xt string match of one namespace (see
 * the design note there): dp_string_rule() at prepare, dp_string_sweep()
 * after a publish or an abort.
 */
struct dp_string;
struct dp_string *dp_string_new(void);
void dp_string_free(struct dp_string *ds);
int dp_string_rule(struct dp_string *ds, const struct rule *rule,
		   struct codegen_env *env, struct dp_error *err);
void dp_string_sweep(struct dp_string *ds, struct net *net, uint8_t genmask);

struct dp_reject;
struct codegen_reject_rec;
struct dp_reject *dp_reject_new(struct dp_log *lg, int ns_fd, int *map_fd,
			       int *ct_fd);
void dp_reject_free(struct dp_reject *rj);
/* dp_reject_stats - replies sent and replies lost to socket errors */
void dp_reject_stats(const struct dp_reject *rj, uint64_t *sent,
		     uint64_t *lost);

/** offload_reject_stats - dp_reject_stats() of @net (-ENOENT: none) */
int offload_reject_stats(struct net *net, uint64_t *sent, uint64_t *lost);

/**
 * struct reject_reply - the reply offload_reject_build() makes
 * @pf: NFPROTO_IPV4 or NFPROTO_IPV6
 * @proto: IPPROTO_TCP, IPPROTO_ICMP or IPPROTO_ICMPV6
 * @tos: IPv4 TOS of the reply
 * @src_fixed: @src is the reply's source (RST); else it is the source only
 *	       if it is one of the namespace's addresses (ICMP errors)
 * @scope: ifindex for a link-local IPv6 @dst or @src (0: none)
 * @src: source address (4 or 16 bytes)
 * @dst: destination address
 * @len: bytes of @msg
 * @optlen: bytes of @opts (0: none)
 * @opts: IPv4 options of the reply in the form a socket gives them
 *	  (IP_RETOPTS: see offload_reject_ipopt_echo())
 * @msg: the transport header (with its checksum) and the ICMP quote
 */
struct reject_reply {
	uint8_t pf;
	uint8_t proto;
	uint8_t tos;
	bool src_fixed;
	uint32_t scope;
	uint32_t iif;
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t len;
	uint8_t optlen;
	uint8_t opts[40];
	uint8_t msg[8 + REJECT_REC_DATA];
};

/**
 * struct saddr6_cand - an IPv6 address of the namespace (RTM_GETADDR)
 * @flags: IFA_F_*
 */
struct saddr6_cand {
	uint8_t addr[16];
	uint32_t ifindex;
	uint8_t plen;
	uint32_t flags;
};

/** struct saddr6_label - an address label policy entry (RTM_GETADDRLABEL) */
struct saddr6_label {
	uint8_t prefix[16];
	uint8_t plen;
	uint32_t ifindex;
	uint32_t label;
};

/**
 * offload_saddr6_select - ipv6_dev_get_saddr(): the source address the
 * kernel selects among @c (@n addresses in dump order) for destination
 * @daddr when the outgoing device is @dst_ifindex (0: none), with the
 * label table @lb (@nl entries, in the kernel's order). Return: 0 with
 * the address in @out, or -EADDRNOTAVAIL.
 */
int offload_saddr6_select(const struct saddr6_cand *c, size_t n,
			  const struct saddr6_label *lb, size_t nl,
			  const uint8_t *daddr, uint32_t dst_ifindex,
			  uint8_t *out);

/**
 * offload_saddr6_pick - the source icmp6_send() gives an error to @daddr
 * about a packet that came in on @in_ifindex and was not for us, asked of
 * the namespace through the rtnetlink socket @rtnl. Return: 1 with the
 * address in @out; 0 when routing picks it (the route has a preferred
 * source, no input device, no candidate); -errno.
 */
int offload_saddr6_pick(int rtnl, const uint8_t *daddr, uint32_t in_ifindex,
			uint8_t *out);

/**
 * offload_reject_ipopt_echo - __ip_options_echo() of the IPv4 header @iph
 * (@hlen bytes) whose compiled options are @sopt (codegen_reject_rec
 * ipopt): the options icmp_send() puts in its error, in the form
 * IP_OPTIONS/IP_RETOPTS take them into @opts (ip_options_compile()
 * without an skb turns that form into the echo: a source route's first
 * hop in front, RR and TS pointers before the slots ip_options_build()
 * fills). Return: the length of @opts (0: none; a multiple of 4, at most
 * 40), or -EINVAL when the kernel's echo fails (icmp_send() then sends
 * nothing).
 */
int offload_reject_ipopt_echo(const uint8_t *iph, uint32_t hlen,
			      const uint8_t *sopt, uint8_t *opts);

/**
 * offload_reject_build - the reply the kernel would send for @rec
 * (nf_send_reset*(), nf_send_unreach*(): icmp_send(), icmp6_send())
 * Return: 1 with @r filled, 0 if the kernel sends nothing.
 */
int offload_reject_build(const struct codegen_reject_rec *rec,
			 struct reject_reply *r);

/** offload_log_read - dp_log_consume() on @net's dataplane (-ENOENT: none) */
int offload_log_read(struct net *net,
		     void (*fn)(void *arg, const struct codegen_log_rec *rec,
				const char *prefix, bool allowed),
		     void *arg);
/**
 * offload_log_format - the kernel log line of @rec (nf_log_syslog's text,
 * without the level) into @line of @size; returns its length.
 */
size_t offload_log_format(const struct codegen_log_rec *rec, const char *prefix,
			  char *line, size_t size);

/*
 * pin.c - bpffs pins under <root>/<netns inode>/<name> (see there).
 * offload_pins_on(): dataplane_pin_init() gave a root. offload_pin() pins
 * @fd as @name (replacing a pin of that name; 0 when pins are off),
 * offload_unpin() removes one, offload_pin_get() opens one (-ENOENT when
 * pins are off), offload_pin_each() calls @fn with each name there (stops
 * at the first non-zero return), offload_pins_remove_ino() removes the
 * namespace's directory, offload_pins_kept(): dataplane_pins_keep() was
 * called.
 */
bool offload_pins_on(void);
bool offload_pins_kept(void);
int offload_pin(int fd, uint64_t ino, const char *name);
void offload_unpin(uint64_t ino, const char *name);
int offload_pin_get(uint64_t ino, const char *name);
int offload_pin_each(uint64_t ino, int (*fn)(void *arg, const char *name),
		     void *arg);
int offload_pins_remove_ino(uint64_t ino);

#endif /* NFBPF_OFFLOAD_H */
