/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * codegen.h - from the committed model to BPF instructions.
 *
 * codegen/ never calls bpf(): it fills instruction buffers and rule map
 * values; offload/ loads them. The contract between the two (layout of the
 * rule map value, of the walker state, the environment of fds and BTF ids)
 * is in this header.
 *
 * Execution model ("rules are data", DESIGN.md): every hook point (pf,
 * hook, priority) has one netfilter link and one walker program for the
 * base chains registered there. It builds the packet info once (like
 * nft_set_pktinfo), then bpf_loop()s over rule map entries. Each entry
 * names a shape; shapes are compiled into BTF global functions (up to 32
 * shapes each, verified once each, independently of the callers) that
 * evaluate one rule reading its constants from the entry. The jump stack
 * lives in the walker state.
 */
#ifndef NFBPF_CODEGEN_H
#define NFBPF_CODEGEN_H

#include <stdint.h>
#include <stddef.h>
#include <linux/bpf.h>

#include "expr.h"
#include "ruleset.h"
#include "dataplane.h"

/* kernel verdict codes (uapi linux/netfilter/nf_tables.h, netfilter.h) */
#define VERDICT_DROP		0	/* NF_DROP */
#define VERDICT_ACCEPT		1	/* NF_ACCEPT */
#define VERDICT_STOLEN		2	/* NF_STOLEN: fwd (tc: TCX_REDIRECT) */
#define VERDICT_CONTINUE	(-1)	/* NFT_CONTINUE */
#define VERDICT_BREAK		(-2)	/* NFT_BREAK */
#define VERDICT_JUMP		(-3)	/* NFT_JUMP */
#define VERDICT_GOTO		(-4)	/* NFT_GOTO */
#define VERDICT_RETURN		(-5)	/* NFT_RETURN */

#define JUMP_STACK_SIZE		16	/* NFT_JUMP_STACK_SIZE */
#define WALK_MAX_STEPS		(1u << 23)	/* BPF_MAX_LOOPS */

/**
 * struct codegen_entry - value of one rule map slot
 * @shape: shape id; 0 = no code (chain head, empty rule)
 * @next: index of the successor entry in the same chain, 0 = end of chain
 * @genmask: bit g set = inactive in generation g (nf_tables genmask)
 * @policy: base chain heads only: policy in generation 0 and 1
 * @flags: ENTRY_F_*
 * @consts: the rule's constants, laid out by its shape
 *
 * A fold head (ENTRY_F_FOLD) stands before a run of rules of its @shape
 * whose keys (codegen_rule_fold_key()) are all different: the walker
 * builds the packet's key once, looks (run, key) up in the fold map and
 * goes straight to the one rule of the run that can match, or past the
 * run (see codegen_fold_*). Its consts: FOLD_CONST_RUN, FOLD_CONST_EXIT.
 */
#define ENTRY_CONSTS	240
struct codegen_entry {
	uint32_t shape;
	uint32_t next;
	uint8_t genmask;
	uint8_t policy[2];
	uint8_t flags;
	uint8_t pad[4];
	uint8_t consts[ENTRY_CONSTS];
};
#define ENTRY_F_FOLD		0x1
#define FOLD_CONST_RUN		0	/* u32: run id (fold map key) */
#define FOLD_CONST_EXIT		4	/* u32: entry after the run, 0 = none */
#define ENTRY_CONSTS_OFF	16

/* pkt.flags */
#define PKT_L4PROTO	0x1	/* NFT_PKTINFO_L4PROTO: tprot/thoff valid */
#define PKT_HAS_IN	0x2
#define PKT_HAS_OUT	0x4
#define PKT_LL		0x8	/* mac header set and non-empty */
#define PKT_PKTTYPE	0x10	/* pkttype readable */
#define PKT_L3BAD	0x20	/* tc: an IPv4/IPv6 packet whose header fails
				 * nft_set_pktinfo_ipv{4,6}_validate() */
#define PKT_ARP		0x40	/* tc: a frame the kernel's NF_ARP_IN (ingress:
				 * arp_rcv()) or NF_ARP_OUT (egress: arp_xmit())
				 * would run its hook for (codegen/walker.c
				 * emit_arp()) */
#define PKT_BRVIEW	0x80	/* tc: the input device (and at egress @len)
				 * are those of a bridge hook, not of the tc
				 * hook (codegen/walker.c emit_head_br()) */
#define PKT_HAS_DEV	PKT_L3BAD	/* netfilter programs only: skb->dev
				 * set, iiftype is its type (meta iiftype is
				 * NFT_META_IFTYPE since 5.16); tc programs
				 * always have skb->dev */

/**
 * struct codegen_pkt - packet info, computed once per packet
 * (nft_pktinfo plus the meta keys we serve).
 *
 * Packet offsets (thoff, ll_off, payload loads) count from the start of
 * the packet view: skb->data at netfilter hooks (the network header),
 * the network header in tc programs too (codegen_emit_dynptr() cuts the
 * bytes before it off the dynptr, @view_off of them). @len is the
 * kernel's skb->len at the hook: at netdev egress it counts the link
 * layer header as well (codegen_emit_view_len() gives the view's length).
 */
struct codegen_pkt {
	uint32_t len;
	uint32_t mark;
	uint32_t priority;
	uint32_t iif;
	uint32_t oif;
	uint32_t thoff;
	int32_t ll_off;		/* mac header relative to skb->data */
	uint32_t headlen;	/* skb_headlen(): bytes in the linear area */
	uint64_t ll_addr;	/* kernel address of the mac header */
	uint64_t nfct;		/* skb->_nfct: nf_conn | ctinfo */
	/* kernel addresses for keys read with bpf_probe_read_kernel() */
	uint64_t skb_addr;	/* the sk_buff */
	uint64_t in_dev, out_dev;	/* state->in, state->out (0: none) */
	uint64_t net_addr;	/* state->net */
	uint16_t protocol;	/* skb->protocol, network order */
	uint16_t fragoff;
	uint16_t iiftype;
	uint16_t oiftype;
	uint8_t nfproto;
	uint8_t l4proto;
	uint8_t flags;
	uint8_t pkttype;
	uint8_t nhc_len;	/* bytes of the network header cache */
	uint8_t thc_len;	/* bytes of the transport header cache */
	uint16_t view_off;	/* tc: network header - skb->data (0: netfilter) */
	char iifname[16];
	char oifname[16];
};

/**
 * struct codegen_state - walker state on the walker program's stack
 * @regs: nft_regs data, 32-bit slots REG_DATA_FIRST.. (REG_OFF(); slots
 *	  0..3 are the verdict register, which is @verdict: not stored here)
 * @verdict: verdict code of the current rule
 * @target: jump/goto target (head entry index)
 * @cur: entry being evaluated, 0 = end of current chain
 * @depth: jump stack depth
 * @stack: saved successors
 * @genbit: 1 << current generation
 * @final: NF_DROP/NF_ACCEPT once decided
 * @key: scratch map key
 * @policy: base chain policy in this generation
 * @fold_member: the rule a fold head sent the walker to (0: none); only
 *		 while that rule is evaluated
 * @fold_exit: where to go after it: past its run
 * @slot: the hook point's heads map slot
 * @hk: index of the base chain being walked among the hook point's heads
 * @pkt: packet info
 * @scratch: 16 bytes for shape code (probe reads)
 * @pktc: the prologue's slice buffer; once the prologue is done, the
 *	  packet byte cache: [0, PKT_NHC) the first pkt.nhc_len bytes of the
 *	  network header, [PKT_NHC, PKT_NHC + PKT_THC) the first pkt.thc_len
 *	  bytes of the transport header (payload loads read them instead of
 *	  calling two kfuncs per rule)
 *
 * Shape functions get a pointer to it as plain memory (BTF global function
 * argument), so it holds no pointer and no dynptr.
 */
struct codegen_state {
	uint32_t regs[REG_DATA_END - REG_DATA_FIRST];
	int32_t verdict;
	uint32_t target;
	uint32_t cur;
	uint32_t depth;
	uint32_t stack[JUMP_STACK_SIZE];
	uint32_t genbit;
	uint32_t final;
	uint32_t key;
	uint8_t policy;
	uint8_t hk;
	uint16_t slot;
	uint32_t fold_member;
	uint32_t fold_exit;
	struct codegen_pkt pkt;
	uint8_t scratch[16];
	uint8_t pktc[64];
} __attribute__((aligned(8)));

#define PKT_NHC		40	/* network header bytes cached (IPv6 header) */
#define PKT_THC		24	/* transport header bytes cached */
#define ST_NHC_OFF	ST_OFF(pktc)
#define ST_THC_OFF	((int16_t)(ST_OFF(pktc) + PKT_NHC))

#define ST_SIZE		((int)sizeof(struct codegen_state))

#define ST_OFF(f)	((int16_t)offsetof(struct codegen_state, f))
#define PKT_OFF(f)	((int16_t)(offsetof(struct codegen_state, pkt) + \
				   offsetof(struct codegen_pkt, f)))
#define REG_OFF(slot)	((int16_t)(offsetof(struct codegen_state, regs) + \
				   4 * ((slot) - REG_DATA_FIRST)))

/*
 * Sets (lookup expression). Every set the rules look up has a dataplane id
 * (a rule constant, so element changes never touch code). Its elements
 * live in maps shared by all sets of one key size:
 *  - exact match: HASH set_hash_fd[w], key { u32 id; u8 key[4 * w] }
 *    (w = DIV_ROUND_UP(klen, 4), padding zero);
 *  - NFT_SET_INTERVAL: LPM_TRIE set_lpm_fd[klen], key { u32 prefixlen;
 *    u32 id; u8 key[klen] }, ranges decomposed into prefixes.
 *  - NFT_SET_INTERVAL with concatenations: HASH set_range_fd, key { u32
 *    id; u32 idx }, value struct codegen_set_range; idx SET_RANGE_COUNT
 *    holds the number of slots (start[0..4)), SET_RANGE_CATCHALL the
 *    catchall; a bpf_loop scans slots 0..count-1 (nft_set_pipapo
 *    semantics: every field within [start, end], inclusive).
 * The catchall element (NFT_SET_ELEM_CATCHALL) is the entry with id |
 * SET_CATCHALL_BIT and an all-zero full-length key.
 * Values hold one half per generation (the walker reads the half of
 * st->genbit), so a prepare only writes the next generation's half.
 */
#define SET_KLEN_MAX		DATA_VALUE_MAXLEN
#define SET_KEY_WORDS_MAX	(SET_KLEN_MAX / 4)
#define SET_CATCHALL_BIT	0x80000000u
#define NFT_SET_F_ANONYMOUS	0x1
#define NFT_SET_F_CONSTANT	0x2
#define NFT_SET_F_INTERVAL	0x4
#define NFT_SET_F_MAP		0x8
#define NFT_SET_F_TIMEOUT	0x10
#define NFT_SET_F_EVAL		0x20
#define NFT_SET_F_OBJECT	0x40
#define NFT_SET_F_CONCAT	0x80
#define NFT_SET_F_EXPR		0x100
#define NFT_DATA_VERDICT_TYPE	0xffffff00u
#define SET_ELEM_F_INTERVAL_END	0x1
#define SET_ELEM_F_CATCHALL	0x2


/**
 * struct codegen_set_half - an element as one generation sees it
 * @valid: 1 = present in this generation
 * @code: verdict maps: verdict code
 * @target: verdict maps, jump/goto: head entry index of the chain
 * @counter: counter map slot of the element's counter expression (0:
 *	     none), counted when a lookup matches it (nft_set_elem_update_expr)
 * @expires: kernel jiffies from which the element is gone (0: never)
 * @data: data maps: the value (set->dlen bytes)
 */
struct codegen_set_half {
	uint32_t valid;
	int32_t code;
	uint32_t target;
	uint32_t counter;
	uint64_t expires;
	uint8_t data[DATA_VALUE_MAXLEN];
};

/** struct codegen_set_val - value of a set element map entry */
struct codegen_set_val {
	struct codegen_set_half half[2];
};

#define SET_RANGE_COUNT		0xffffffffu
#define SET_RANGE_CATCHALL	0xfffffffeu

/** struct codegen_set_range - value of an interval concatenation slot */
struct codegen_set_range {
	uint8_t start[SET_KLEN_MAX];
	uint8_t end[SET_KLEN_MAX];
	struct codegen_set_val val;
};

/* codegen_set_ranges - interval set with concatenations (bpf_loop scan)? */
static inline bool codegen_set_ranges(const struct set *s)
{
	return (s->flags & NFT_SET_F_INTERVAL) &&
	       (s->nfields || (s->flags & NFT_SET_F_CONCAT));
}

/*
 * codegen_set_counted - do @s's elements carry a counter (the set's
 * counter statement), so that lookups count the element they match?
 */
static inline bool codegen_set_counted(const struct set *s)
{
	const struct expr *e;

	expr_for_each_in(e, s->exprs, s->exprs_len)
		if (e->type == EXPR_COUNTER)
			return true;
	return false;
}

/* codegen_set_interval - does @s live in an LPM trie (else a hash)? */
static inline bool codegen_set_interval(const struct set *s)
{
	return (s->flags & NFT_SET_F_INTERVAL) && !codegen_set_ranges(s);
}

/*
 * Hook points. Every netfilter hook point (pf, hook, priority) and every
 * tc hook point (device, direction) has a permanent trampoline program
 * behind its link and a slot in the heads map; one walker program per
 * context (netfilter, tc ingress, tc egress) serves them all, so a new
 * shape loads one program, not one per hook point.
 *
 * The trampoline records (ctx, slot) in the per-CPU ring (env->ring_fd)
 * and tail-calls the walker; the walker finds its ctx there, newest entry
 * first. The ctx (netfilter: a struct bpf_nf_ctx on the hook caller's
 * stack; tc: the sk_buff) is unique among the programs in flight on one
 * CPU, so a program interrupted or preempted between the two steps finds
 * its own entry; an entry overwritten by RING_N later ones on one CPU is
 * not found and the packet is dropped (fail closed).
 *
 * The heads map (env->heads_fd, ARRAY[DP_BASES] of struct codegen_heads)
 * holds, per slot and per generation, the head entries of the base chains
 * that run there, in order: a prepare writes the next generation's half,
 * the flip makes it live with the rest of the generation.
 */
#define HOOK_CHAINS_MAX	64	/* base chains sharing one hook point */
#define RING_N		8	/* per-CPU ring entries (a power of 2) */

struct codegen_heads_gen {
	uint32_t n;
	uint32_t head[HOOK_CHAINS_MAX];
	uint8_t pf[HOOK_CHAINS_MAX];	/* tc: HEAD_PF_* of each head */
	uint32_t pad;
};

struct codegen_heads {
	struct codegen_heads_gen gen[2];
};

/*
 * The bridge family's state per CPU (codegen/walker.c emit_bridge()): the
 * bridge's hooks run inside the port's receive path (br_handle_frame()
 * -> prerouting -> forward/postrouting -> dev_queue_xmit() of the output
 * port, or -> input -> netif_receive_skb() of the bridge device) and
 * inside the bridge device's transmit (br_dev_xmit() -> output ->
 * postrouting -> dev_queue_xmit() of the port), synchronously on one CPU.
 * The tc programs on the way leave here what the later ones need:
 * @br_rx_dev, @br_rx_br, @br_rx_ifindex: the port (and its bridge device)
 *	of the last frame that went to the bridge's prerouting hook here;
 * @br_tx_br, @br_tx_head: the bridge device and skb->head (shared with
 *	the clones a flood sends) of the last frame the bridge device sent;
 * @br_class: BRC_* of the packet of the walker running now, @br_in_dev
 *	its bridge hook's input device (BRC_IN_BR, BRC_FWD), @br_dev: its
 *	skb->dev; @br_hook: the NF_BR_* hook of the bridge chain running
 *	now (set at its head: postrouting and forward share BRC_FWD).
 */
struct codegen_ring {
	uint64_t next;		/* entries written (atomic) */
	struct {
		uint64_t ctx;	/* the program's ctx address */
		uint64_t slot;	/* its heads map slot */
	} ent[RING_N];
	uint64_t br_rx_dev;
	uint64_t br_rx_br;
	uint64_t br_tx_br;
	uint64_t br_tx_head;
	uint64_t br_in_dev;
	uint64_t br_dev;
	uint32_t br_rx_ifindex;
	uint8_t br_class;
	uint8_t br_hook;
	uint8_t br_pad[2];
};

/* codegen_ring.br_class: which bridge hook the packet is at */
#define BRC_NONE	0
#define BRC_PRE		1	/* port ingress: br_handle_frame() prerouting */
#define BRC_IN_PORT	2	/* port ingress: a link-local frame's input
				 * hook (br_handle_frame(), in = the port) */
#define BRC_IN_BR	3	/* bridge device ingress: br_pass_frame_up() */
#define BRC_FWD		4	/* port egress: forwarded (then postrouting) */
#define BRC_OUT		5	/* port egress: sent by the bridge device */
#define BRC_HOST	0x80	/* BRC_PRE: destination is the bridge's address
				 * (skb->pkt_type = PACKET_HOST) */

/*
 * Packets in flight per generation parity (per CPU): a walker counts
 * itself in the parity it runs at entry and out at exit, so nfbpfd knows
 * when the packets of the generation before the live one are gone and a
 * prepare may write what they read (codegen/walker.c emit_enter()).
 */
struct codegen_inflight {
	int64_t cnt[2];
};

/* prog array indices of the walkers (env->progs_fd, env->progs_tc_fd) */
#define WALKER_NF		0
#define WALKER_TC_INGRESS	0
#define WALKER_TC_EGRESS	1

/**
 * struct codegen_env - what the emitted code refers to
 * @rules_fd: rule map (ARRAY of struct codegen_entry)
 * @counters_fd: counter map (PERCPU_ARRAY of struct codegen_counter)
 * @state_fd: state map (ARRAY of u64, one slot per stateful expression,
 *	      shared by all CPUs: limit buckets, quota bytes)
 * @gen_fd: generation word (ARRAY, 1 x u32)
 * @progs_fd: prog array of the netfilter walker (index WALKER_NF)
 * @progs_tc_fd: prog array of the tc walkers (WALKER_TC_*: a prog array
 *		 holds programs of one type)
 * @heads_fd: heads map (ARRAY of struct codegen_heads, by slot)
 * @ring_fd: PERCPU_ARRAY of one struct codegen_ring
 * @inflight_fd: PERCPU_ARRAY of one struct codegen_inflight
 * @ctx: CODEGEN_CTX_*: the program being emitted runs at a netfilter
 *	 link or as a tcx program (set per program by offload)
 * @kf_dynptr_from_skb: vmlinux BTF id of kfunc bpf_dynptr_from_skb
 * @kf_dynptr_slice: vmlinux BTF id of kfunc bpf_dynptr_slice
 * @kf_dynptr_adjust: ... of bpf_dynptr_adjust
 * @kf_cast_to_kern_ctx: ... of bpf_cast_to_kern_ctx
 * @kf_dynptr_copy: ... of bpf_dynptr_copy (0: not in this kernel; NFLOG
 *		    records then carry no packet bytes)
 * @kf_rdonly_cast: ... of bpf_rdonly_cast, with @btf_skb and @btf_hook_state
 *		    the vmlinux ids of struct sk_buff and struct nf_hook_state
 *		    (0: the walker reads them through the trusted pointers)
 * @set_hash_fd: exact-match set elements, by key words (0 = not created)
 * @set_lpm_fd: interval set elements, by key bytes (0 = not created)
 * @set_range_fd: interval concatenation elements (0 = not created)
 * @set_scratch_fd: PERCPU_ARRAY of one struct codegen_set_val, where the
 *		    packet path builds an element it adds (0 = not created)
 * @fold_fd: fold map (HASH, struct codegen_fold_key -> u32 entry index)
 * @off: byte offsets of kernel struct members (from vmlinux BTF)
 */
/* what a program's ctx is (struct codegen_env.ctx) */
#define CODEGEN_CTX_NF		0	/* struct bpf_nf_ctx: netfilter link */
#define CODEGEN_CTX_TC_INGRESS	1	/* struct __sk_buff: tcx ingress */
#define CODEGEN_CTX_TC_EGRESS	2	/* struct __sk_buff: tcx egress */

/* per base chain of a tc walker (codegen_walker_emit() @head_pf) */
#define HEAD_PF_NETDEV		5	/* NFPROTO_NETDEV: every packet */
#define HEAD_PF_INET		1	/* NFPROTO_INET ingress: IPv4/IPv6 only */
/* per base chain of a netfilter walker: a nat chain, which runs inside
 * the nat core's hook for a connection's first packet only */
#define HEAD_NF_NAT		2
#define HEAD_PF_ARP		3	/* NFPROTO_ARP: ARP frames only (PKT_ARP) */
/* NFPROTO_BRIDGE chains, by the bridge hook whose frames they see (head pf
 * - HEAD_PF_BR_BASE = BRC_*; postrouting sees BRC_FWD and BRC_OUT) */
#define HEAD_PF_BR_BASE		7
#define HEAD_PF_BR_PRE		(HEAD_PF_BR_BASE + BRC_PRE)
#define HEAD_PF_BR_IN_PORT	(HEAD_PF_BR_BASE + BRC_IN_PORT)
#define HEAD_PF_BR_IN_BR	(HEAD_PF_BR_BASE + BRC_IN_BR)
#define HEAD_PF_BR_FWD		(HEAD_PF_BR_BASE + BRC_FWD)
#define HEAD_PF_BR_OUT		(HEAD_PF_BR_BASE + BRC_OUT)
#define HEAD_PF_BR_POST		(HEAD_PF_BR_BASE + 6)
/* a forward or postrouting chain at the ingress of every device: never
 * runs there, but puts the walker there, whose emit_bridge() leaves the
 * port of each frame the bridge takes for the output port's egress */
#define HEAD_PF_BR_MARK		(HEAD_PF_BR_BASE + 7)

/* tc program verdicts (uapi TCX_*) */
#define TCX_NEXT_		(-1)
#define TCX_DROP_		2
#define TCX_REDIRECT_		7

struct codegen_env {
	int rules_fd;
	int counters_fd;
	int state_fd;
	int gen_fd;
	int progs_fd;
	int progs_tc_fd;
	int heads_fd;
	int ring_fd;
	int inflight_fd;
	uint8_t ctx;
	int32_t kf_dynptr_from_skb;
	int32_t kf_dynptr_slice;
	int32_t kf_dynptr_adjust;
	int32_t kf_cast_to_kern_ctx;
	int32_t kf_dynptr_copy;
	int32_t kf_rdonly_cast;
	int32_t btf_skb;
	int32_t btf_hook_state;
	int set_hash_fd[SET_KEY_WORDS_MAX + 1];
	int set_lpm_fd[SET_KLEN_MAX + 1];
	int set_range_fd;
	int set_scratch_fd;
	int fold_fd;
	struct {
		int16_t ctx_state, ctx_skb;
		int16_t st_hook, st_pf, st_in, st_out;
		int16_t skb_len, skb_protocol, skb_mark, skb_priority;
		int16_t skb_data_len;
		int16_t skb_head, skb_data, skb_mac_header, skb_network_header;
		int16_t skb_pkt_type;	/* byte holding pkt_type */
		uint8_t pkt_type_shift, pkt_type_mask;
		int16_t dev_ifindex, dev_name, dev_type;
		int16_t skb_nfct;
		int16_t st_net;
		/* probe-read members; -1 = not in this kernel (key refused at load) */
		int16_t skb_sk, skb_secmark, dev_group, dev_link_ops, link_ops_kind;
		int16_t sk_state, sk_net, sk_socket, req_listener, socket_file;
		int16_t sk_protocol, sk_kern_sock;	/* -1: unknown */
		uint8_t sk_kern_sock_shift;
		int16_t file_cred, cred_fsuid, cred_fsgid;
		int16_t sk_classid, skb_active_ext;
		int16_t sec_path_bit;	/* SKB_EXT_SEC_PATH */
		/* nf_conn fields; -1 = not in this kernel (keys refused at load) */
		int16_t ct_status, ct_mark;
		int16_t ct_tuple;	/* tuplehash[ORIGINAL].tuple */
		int16_t ct_tuple_stride;	/* to tuplehash[REPLY].tuple */
		/* struct nf_conntrack_tuple members */
		int16_t tup_src_u3, tup_src_u, tup_l3num;
		int16_t tup_dst_u3, tup_dst_u, tup_protonum;
		int16_t dev_hard_header_len, skb_vlan_all, skb_tstamp;
		/* bytes holding the ip_summed and csum_valid bitfields (-1:
		 * not found) and their shifts */
		int16_t skb_ip_summed, skb_csum_valid;
		uint8_t ip_summed_shift, csum_valid_shift;
		int16_t skb_dev, dev_net;	/* sk_buff.dev, net_device.nd_net.net */
		/* net_device members the arp family's frame filter reads */
		int16_t dev_flags, dev_addr_len, dev_rx_handler;
		/* what the bridge family's frame filter reads (-1: not in
		 * this kernel; bridge chains are refused then): net_device
		 * priv_flags (32-bit field), rx_handler_data, dev_addr;
		 * net_bridge_port br, state, group_fwd_mask; net_bridge dev,
		 * options, stp_enabled, group_fwd_mask(_required) */
		int16_t dev_priv_flags, dev_rx_handler_data, dev_dev_addr;
		int16_t nbp_br, nbp_state, nbp_gfm;
		int16_t br_dev, br_options, br_stp_enabled, br_gfm, br_gfm_req;
		/* more nf_conn members (ct zone/expiration/secmark/helper,
		 * extensions); -1 = not in this kernel (keys refused at load) */
		int16_t ct_zone_id, ct_zone_dir, ct_timeout, ct_secmark;
		int16_t ct_master, ct_ext;
		int16_t ext_offset;	/* nf_ct_ext.offset[]; -1 if gen_id */
		int16_t ext_acct, ext_labels, ext_helper;	/* enum nf_ct_ext_id */
		int16_t acct_packets, acct_bytes, acct_stride;	/* nf_conn_acct */
		int16_t help_helper, helper_name;
		int16_t net_fib_custom;	/* net.ipv4.fib_has_custom_rules, -1 */
		int16_t sk_rx_dst_ifindex;	/* -1: not in this kernel */
		int16_t net_fib6_custom;	/* net.ipv6.fib6_has_custom_rules, -1 */
		/* the route (rt expression): sk_buff._skb_refdst, dst_entry
		 * tclassid and xfrm, rtable rt_gw_family and rt_gw4,
		 * rt6_info rt6i_flags, rt6i_gateway, rt6i_dst.addr; -1 =
		 * not in this kernel (the key is refused at load) */
		int16_t skb_refdst, dst_tclassid, dst_xfrm;
		int16_t rt_gw_family, rt_gw4, rt6_flags, rt6_gateway, rt6_dst;
		/* the conntrack a reject carries (REJECT_CT_*): sizeof(struct
		 * nf_conn) (0: unknown or over REJECT_CT_SIZE), nf_ct_ext.len,
		 * sock.__sk_common.skc_cookie; -1 = not in this kernel */
		int16_t ct_size, ext_len, sk_cookie;
		/* sk_buff.cb + inet_skb_parm.opt + ip_options.optlen: the
		 * 8 bytes of struct codegen_reject_rec.ipopt (-1: unknown) */
		int16_t ipcb_opt;
		/* what the xt string match walks (skb_seq_read()'s blocks;
		 * -1: not in this kernel, string rules refused at load):
		 * sk_buff next, end; skb_shared_info nr_frags, frag_list,
		 * frags[0].len; sizeof(skb_frag_t) */
		int16_t skb_next, skb_end, shi_nr_frags, shi_frag_list;
		int16_t shi_frag_len, frag_size;
		/* nf_conn ct_general.use and proto.tcp.state (connlimit) */
		int16_t ct_use, ct_tcp_state;
	} off;
	uint32_t jiffy_msecs;	/* MSEC_PER_SEC / HZ; 0: unknown or not whole */
	int log_fd;
	int nflog_fd;	/* ARRAY, 1 x NFLOG_GROUPS / 8 bytes: groups bound */
	int reject_fd;
	int reject_ct_fd;	/* ARRAY, 1 x struct codegen_reject_ct (-1: none) */
	int fib4_fd;
	int fib6_fd;
	int recent_fd;	/* xt recent tables (-1: none yet) */
	int hl_table_fd;	/* xt hashlimit tables (-1: none yet) */
	int hl_ent_fd;		/* ... their entries */
	int hl_count_fd;	/* ... their entry counts */
	uint32_t recent_n;	/* entries per recent table (ip_list_tot) */
	int string_fd;		/* xt string automata (-1: none yet) */
	int cl_fd;		/* connlimit lists (HASH, key the instance id) */
	int cl_zero_fd;		/* ARRAY of 1: an empty list, to create one */
	int cl_scratch_fd;	/* PERCPU_ARRAY of 1: connlimit working data */
};

/*
 * xt string automata (codegen/xt/string.c). The kernel's textsearch of a
 * pattern (ts_kmp, ts_bm) is a deterministic automaton over the packet's
 * bytes: state q = pattern bytes matched so far, @delta[q][c] the state
 * after byte c (ignoring case when the match does: the kernel compares
 * toupper(c) with the upper-cased pattern), @patlen = found. nfbpfd
 * computes it once per (pattern, case) and keeps it in env->string_fd
 * (HASH, key codegen_string_key()), shared by every rule with that
 * pattern; rules hold the key. States 0..patlen-1 have rows (patlen <=
 * STRING_PATLEN_MAX), so (q << 8 | c) & STRING_DELTA_MASK is in bounds.
 */
#define STRING_PATLEN_MAX	128	/* XT_STRING_MAX_PATTERN_SIZE */
#define STRING_DELTA_SIZE	(STRING_PATLEN_MAX * 256)
#define STRING_DELTA_MASK	(STRING_DELTA_SIZE - 1)

/**
 * struct codegen_string_table - a pattern's automaton
 * @patlen: the final state
 * @delta: next state by (state, byte)
 */
struct codegen_string_table {
	uint32_t patlen;
	uint32_t pad;
	uint8_t delta[STRING_DELTA_SIZE];
};

/*
 * codegen_string_key - the map key of the automaton of @pattern
 * (@patlen bytes), @icase: ignoring case
 */
uint64_t codegen_string_key(const uint8_t *pattern, uint32_t patlen, bool icase);
/*
 * codegen_string_build - fill @t with the automaton of @pattern: the
 * kernel's ts_kmp prefix-function search (lib/ts_kmp.c kmp_find()) as a
 * table. @patlen in [1, STRING_PATLEN_MAX].
 */
void codegen_string_build(struct codegen_string_table *t, const uint8_t *pattern,
			  uint32_t patlen, bool icase);
/* toupper() of the kernel's ctype (lib/ctype.c: Latin-1 letters too) */
uint8_t codegen_kernel_toupper(uint8_t c);

/*
 * xt recent tables (codegen/xt/recent.c). Each table (a name in one
 * namespace, shared by every rule naming it, as the kernel's
 * recent_table) is one value of env->recent_fd (HASH, key the u64
 * codegen_recent_hash() of its name), created by nfbpfd when a rule
 * naming it is added (recent_mt_check()) and deleted when the last one
 * is gone (offload/recent.c). The value is struct codegen_recent_head
 * followed by env->recent_n (the kernel's ip_list_tot) entries: packets
 * run the whole of recent_mt() under the value's bpf_spin_lock, as the
 * kernel does under recent_lock. The kernel's LRU list is the order of
 * @lru (a table-wide sequence number taken on every insert or update):
 * its head is the used entry with the smallest one.
 */
#define RECENT_STAMPS		128	/* timestamps kept per entry */
#define RECENT_ENTRIES_MAX	256	/* ip_list_tot the dataplane runs */

/**
 * struct codegen_recent_head - a recent table
 * @lock: struct bpf_spin_lock
 * @entries: used entries (recent_table.entries)
 * @nstamps_mask: recent_table.nstamps_max_mask
 * @scratch: the program's (index laundering)
 * @mask: the table's address mask (that of the rule that created it)
 * @seq: the last @lru handed out
 */
struct codegen_recent_head {
	uint32_t lock;
	uint32_t entries;
	uint32_t nstamps_mask;
	uint32_t scratch;
	uint8_t mask[16];
	uint64_t seq;
};

/**
 * struct codegen_recent_ent - one address of a recent table
 * @addr: the masked address (IPv4: the first 4 bytes, the rest 0)
 * @family: NFPROTO_IPV4/IPV6, 0: a free entry
 * @ttl: recent_entry.ttl
 * @index: recent_entry.index
 * @nstamps: recent_entry.nstamps
 * @lru: position in the LRU order (smaller: older)
 * @stamps: jiffies of the last packets
 */
struct codegen_recent_ent {
	uint8_t addr[16];
	uint16_t family;
	uint8_t ttl;
	uint8_t index;
	uint16_t nstamps;
	uint16_t pad;
	uint64_t lru;
	uint64_t stamps[RECENT_STAMPS];
};

/*
 * connlimit lists (codegen/expr/connlimit.c): one per instance (a rule's
 * "ct count"), a value of env->cl_fd keyed by the instance id its state
 * word holds (xt connlimit: and the key's address and zone; a dynset's
 * element: CL_SET_TAG | set id and the element's key), created by the
 * first packet from env->cl_zero_fd's empty list. Entries are in the
 * kernel's list order, [0, count).
 */
#define CL_ENTS			64	/* connections a list holds */
#define CL_LISTS_MAX		65536	/* lists per namespace */
#define CL_TUPLE_LEN		40	/* struct nf_conntrack_tuple */
#define CL_ID_TAG		(1ull << 63)	/* in a state word: a list id */

/**
 * struct codegen_cl_ent - one counted connection (nf_conncount_tuple)
 * @ct: the nf_conn it came from (0: the packet had none)
 * @tuple: its original tuple, as the kernel lays it out
 * @zone: its struct nf_conntrack_zone (id, flags, dir)
 * @jiffies: (u32)jiffies when added
 * @cpu: the CPU that added it
 */
struct codegen_cl_ent {
	uint64_t ct;
	uint8_t tuple[CL_TUPLE_LEN];
	uint32_t zone;
	uint32_t jiffies;
	uint32_t cpu;
	uint32_t pad;
};

/**
 * struct codegen_cl_list - nf_conncount_list
 * @count: entries in use
 * @last_gc: (u32)jiffies of the last collection
 * @last_gc_count: @count after it
 * @lock: 1 while a packet works on the list (list->list_lock), taken
 *	  with a compare-and-swap: a bpf_spin_lock cannot be held across
 *	  the helper calls of the scan
 */
struct codegen_cl_list {
	uint32_t count;
	uint32_t last_gc;
	uint32_t last_gc_count;
	uint32_t lock;
	struct codegen_cl_ent ent[CL_ENTS];
};

/**
 * struct codegen_cl_key - a list's key: its instance (a rule's id), and
 * for xt connlimit the masked address and conntrack zone id of the
 * kernel's rbtree key (0 for a rule's "ct count"); for the "ct count" of
 * an element the packet path adds (dynset), CL_SET_TAG | the set's
 * dataplane id and the element's key (zero padded to whole words)
 */
struct codegen_cl_key {
	uint64_t id;
	uint8_t addr[SET_KLEN_MAX];
	uint32_t zone;
	uint32_t pad;
};

#define CL_SET_TAG		(1ull << 62)	/* a key id: an element's list */

/** struct codegen_cl_scratch - per-CPU working data of one evaluation */
struct codegen_cl_scratch {
	struct codegen_cl_key key;
	uint8_t ptuple[CL_TUPLE_LEN];	/* the packet's conntrack's tuple */
	uint32_t pzone;
	uint32_t cpu;
	uint8_t btuple[CL_TUPLE_LEN];	/* read from an entry's nf_conn */
	uint64_t bstatus;
	uint32_t buse;
	uint32_t btimeout;
	uint32_t btcp;
	uint32_t now;
	uint32_t w;
	uint32_t n;
	uint32_t mode;
	uint32_t fresh;		/* a new xt key's list */
	uint32_t elem_new;	/* dynset: a new element, its list starts empty */
	uint32_t pad2;
};

/*
 * codegen_connlimit_id - the id of a new connlimit instance, from @now
 * (CLOCK_MONOTONIC ns): unique, tagged CL_ID_TAG
 */
uint64_t codegen_connlimit_id(uint64_t now);

struct codegen_prog;
struct codegen_expr_ctx;

/**
 * struct codegen_cl_xt - what xt connlimit adds to a list's evaluation
 * @c_mask: offset of the 16-byte mask in the constants
 * @c_flags: offset of the u32 flags (XT_CONNLIMIT_DADDR)
 * @v6: the rule's family is IPv6
 */
struct codegen_cl_xt {
	int16_t c_mask, c_flags;
	bool v6;
};

/*
 * CL_ELEM_SLOT - @c_slot of codegen_emit_conncount() for an element's list:
 * the caller wrote the whole key into the per-CPU scratch (key.id
 * CL_SET_TAG | set id, key.addr the element's key, zone 0) and
 * scratch.elem_new (1: a new element, whose list starts empty as
 * nf_conncount_list_init() leaves it, last_gc = now)
 */
#define CL_ELEM_SLOT		(-1)

/*
 * codegen_emit_conncount - nf_conncount on the list of the instance whose
 * state slot is the u32 constant at @c_slot (and, @xt set, the key of
 * xt_connlimit: masked address and zone, a new key's first connection
 * counted as insert_tree() does); leaves r1 = the count, the list
 * unlocked. A failed add (no tuple, a full or contended list) drops:
 * st->verdict = NF_DROP, goto ec->l_done.
 */
void codegen_emit_conncount(struct codegen_prog *p,
			    const struct codegen_expr_ctx *ec, int16_t c_slot,
			    const struct codegen_cl_xt *xt);

/* codegen_recent_hash - the map key of the recent table named @name */
uint64_t codegen_recent_hash(const char *name);

/*
 * xt hashlimit tables (codegen/xt/hashlimit.c): a table (a name and a
 * family in one namespace, as the kernel's xt_hashlimit_htable) is one
 * value of env->hl_table_fd (HASH, key codegen_hl_key() of name and
 * family), written by nfbpfd from the configuration of the rule that
 * created it (htable_create()); its entries (struct dsthash_ent) are
 * values of env->hl_ent_fd (HASH, key struct codegen_hl_key), each with
 * a bpf_spin_lock, inserted by packets (from the table's template: @prev
 * 0 marks an entry no packet has initialised yet) and removed by nfbpfd's
 * garbage collector once expired (htable_gc()). Entries per table are
 * counted in env->hl_count_fd (ARRAY of u64, slot @slot), checked
 * against @max as dsthash_alloc_init() does.
 */
struct codegen_hl_ent {
	uint32_t lock;
	uint32_t pad;
	uint64_t expires;
	uint64_t prev;
	uint64_t credit;
	uint64_t credit_cap;
	uint64_t cost;
};

/**
 * struct codegen_hl_table - a hashlimit table
 * @mode: the table's cfg.mode (what the key holds, how credit refills)
 * @slot: its entry count slot
 * @max: cfg.max after htable_create()
 * @expire: msecs_to_jiffies(cfg.expire)
 * @cpj: CREDITS_PER_JIFFY of the table's revision
 * @srcmask: the source prefix as a mask (network order)
 * @dstmask: the destination prefix as a mask
 * @tmpl: a new entry: rateinfo_init()'s credit, credit_cap and cost
 */
struct codegen_hl_table {
	uint32_t mode;
	uint32_t slot;
	uint32_t max;
	uint32_t pad;
	uint64_t expire;
	uint64_t cpj;
	uint8_t srcmask[16];
	uint8_t dstmask[16];
	struct codegen_hl_ent tmpl;
};

/** struct codegen_hl_key - key of an entry (struct dsthash_dst) */
struct codegen_hl_key {
	uint64_t table;
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint32_t pad;
};

#define HL_TABLES_MAX	1024

/* codegen_hl_key - the map key of the hashlimit table @name of @family */
uint64_t codegen_hl_key(const char *name, uint8_t family);

/*
 * Reject records (reject expression, xt REJECT). A netfilter program
 * cannot send, so the program drops the packet and fills one record in the
 * ring buffer env->reject_fd with what nf_reject_ipv4/ipv6 read from it;
 * nfbpfd builds the TCP reset or ICMP error and sends it from the packet's
 * namespace (offload/reject.c). A full ring buffer loses the reply, never
 * the drop.
 */
#define REJECT_CSUM_KNOWN	0x80
#define REJECT_SK_ICMP_CTL	0x1
#define REJECT_REC_DATA	1232	/* IPV6_MIN_MTU - ipv6hdr - icmp6hdr: the
				 * longest quote an ICMP error carries */

#define REJECT_CT_SIZE	256	/* nf_conn bytes a record carries */
#define REJECT_EXT_SIZE	256	/* nf_ct_ext bytes (its len is a u8) */
#define REJECT_CT_COPIED	0x1	/* @ct holds the packet's nf_conn */
#define REJECT_CT_EXT		0x2	/* ... and @ext its extension area */

/**
 * struct codegen_reject_rec - one reject record in the ring buffer
 * @type: REJECT_ICMP_UNREACH, REJECT_TCP_RST, REJECT_ICMPX_UNREACH
 * @code: ICMP/ICMPv6 code or icmpx code (per @type)
 * @hook: nf_hook_state.hook
 * @pf: NFPROTO_IPV4/IPV6 of the packet
 * @family: NFPROTO_* of the rule's table (ip/ip6 ignore icmpx)
 * @pkttype: skb->pkt_type (valid with PKT_PKTTYPE in @pktflags)
 * @pktflags: struct codegen_pkt.flags
 * @csum: REJECT_CSUM_KNOWN | skb->ip_summed | skb->csum_valid << 2 (0 if
 *	  this kernel's BTF lacks them: checksums count as verified)
 * @caplen: bytes of @data copied (min(@len, REJECT_REC_DATA))
 * @sk_flags: REJECT_SK_ICMP_CTL: skb->sk is the kernel's own ICMP/ICMPv6
 *	      socket (an echo or timestamp reply of icmp_reply()): the
 *	      kernel's icmp_send() about it finds that socket's per-CPU
 *	      lock taken (icmp_xmit_lock()) and sends nothing
 * @len: skb->len (from the network header)
 * @mark: skb->mark
 * @iif: input ifindex (0: none)
 * @oif: output ifindex (0: none)
 * @ctinfo: skb->_nfct & NFCT_INFOMASK of the packet
 * @ct_flags: REJECT_CT_COPIED, REJECT_CT_EXT
 * @ipopt: IPv4: IPCB(skb)->opt from optlen on (optlen, srr, rr, ts, the
 *	   flag bits is_strictroute 0, rr_needaddr 3, ts_needtime 4,
 *	   ts_needaddr 5, router_alert, cipso, pad): the options the
 *	   kernel compiled on receipt, which icmp_send() echoes; all 0 if
 *	   this kernel's layout differs (env->off.ipcb_opt < 0)
 * @ct: the packet's nf_conn (env->off.ct_size bytes) when skb->_nfct
 *	names one: nf_ct_attach() hands it to the reply, which the walker
 *	then presents as the kernel would (struct codegen_reject_ct)
 * @ext: its extension area (nf_ct_ext.len bytes), ct->ext still the
 *	 kernel's address
 * @data: @caplen bytes from the network header
 */
struct codegen_reject_rec {
	uint8_t type;
	uint8_t code;
	uint8_t hook;
	uint8_t pf;
	uint8_t family;
	uint8_t pkttype;
	uint8_t pktflags;
	uint8_t csum;
	uint16_t caplen;
	uint16_t sk_flags;
	uint32_t len;
	uint32_t mark;
	uint32_t iif;
	uint32_t oif;
	uint8_t ctinfo;
	uint8_t ct_flags;
	uint8_t pad[2];
	uint8_t ipopt[8];
	uint8_t pad2[4];
	uint8_t ct[REJECT_CT_SIZE];
	uint8_t ext[REJECT_EXT_SIZE];
	uint8_t data[REJECT_REC_DATA];
};

/*
 * The conntrack of nfbpfd's own replies. The kernel's nf_send_reset(),
 * icmp_send() and icmp6_send() nf_ct_attach() the rejected packet's
 * conntrack to the reply (IP_CT_RELATED_REPLY if that packet went in the
 * original direction, else IP_CT_RELATED), so nf_conntrack_in() leaves the
 * reply alone and OUTPUT/POSTROUTING rules see the original's entry, in
 * state related. nfbpfd's replies leave through raw sockets instead and
 * get a conntrack of their own. So, while nfbpfd sends a reply whose
 * rejected packet had a conntrack, it fills the one value of
 * env->reject_ct_fd with a copy of that nf_conn (taken by the program
 * that rejected it, while its skb still held it) and sets @active; the
 * walker's prologue, for a packet whose skb->sk has the cookie of one of
 * nfbpfd's reply sockets, then takes pkt.nfct = &@conn | @ctinfo, so the
 * ct keys (probe reads) read the copy. sendmsg() runs the OUTPUT and
 * POSTROUTING hooks before it returns; nfbpfd clears @active after it.
 * A reply to the host itself is matched again by its bytes on lo (@lo_pf).
 */
/**
 * struct codegen_reject_ct - the conntrack of the reply being sent
 * @cookie: SO_COOKIE of nfbpfd's four reply sockets in the namespace
 * @nfct: written by the walker: the kernel address of @conn (a pointer
 *	  stored into the map value reads back as a number)
 * @active: nfbpfd is sending a reply that carries @conn
 * @ctinfo: IP_CT_RELATED or IP_CT_RELATED_REPLY
 * @has_ext: @ext holds the extension area: the walker points the copy's
 *	     ext member at it (else the copy's ext is 0)
 * @lo_pf: NFPROTO_IPV4/IPV6 of the last reply sent with @conn (0: the
 *	   last reply carried none); a reply to the host itself comes back
 *	   in over lo, no longer with its socket: prerouting and input know
 *	   it by iif lo (only this host sends there), @lo_pf, its
 *	   destination @lo_dst (4 or 16 bytes) and its first 16 transport
 *	   bytes @lo_l4 but the third and fourth (an ICMPv6 socket sums
 *	   with the source routing chose): ports, sequence numbers and
 *	   flags; ICMP type, code and the quote's first 8 bytes
 * @conn: the nf_conn copy
 * @ext: the nf_ct_ext copy
 */
struct codegen_reject_ct {
	uint64_t cookie[4];
	uint64_t nfct;
	uint32_t active;
	uint8_t ctinfo;
	uint8_t has_ext;
	uint8_t lo_pf;
	uint8_t pad;
	uint8_t lo_dst[16];
	uint8_t lo_l4[16];
	uint8_t conn[REJECT_CT_SIZE];
	uint8_t ext[REJECT_EXT_SIZE];
};

/*
 * Log records (log expression, syslog form). The program fills one per
 * evaluated log expression in the ring buffer env->log_fd; nfbpfd formats
 * it as nf_log_syslog would print it. The prefix is a rule constant: an
 * index into the daemon's prefix table, so a new prefix loads no program.
 */
#define LOG_REC_MAC	32	/* mac header bytes copied */
#define LOG_REC_DATA	512	/* packet bytes copied from the network header */
#define LOG_BROPT_NF_CALL_IPTABLES	(1u << 2)	/* BROPT_NF_CALL_IPTABLES */
#define LOG_BROPT_NF_CALL_IP6TABLES	(1u << 3)	/* BROPT_NF_CALL_IP6TABLES */
/* not bridge options: nfbpfd's own bits in @br_opts, from the netns'
 * bridge-nf-filter-vlan-tagged and bridge-nf-filter-pppoe-tagged */
#define LOG_BR_FILTER_VLAN		(1u << 30)
#define LOG_BR_FILTER_PPPOE		(1u << 31)
/*
 * NFLOG records (log group, xt NFLOG) are struct codegen_log_rec up to
 * @data (LOG_NFLOG_HDR bytes) followed by @caplen packet bytes: reserved
 * with bpf_ringbuf_reserve_dynptr() at their own size, copied with
 * bpf_dynptr_copy(). @caplen is min(skb->len, the rule's snaplen if any,
 * LOG_NFLOG_DATA); nfbpfd cuts it to the listener's copy range.
 */
#define LOG_NFLOG_DATA	65531	/* NFULNL_COPY_RANGE_MAX: the kernel's own cap */
#define LOG_NFLOG_HDR	((uint32_t)offsetof(struct codegen_log_rec, data))

/**
 * struct codegen_log_rec - one log record in the ring buffer
 * @prefix_id: struct expr_log.prefix_id
 * @level: syslog level 0..7
 * @logflags: LOG_F_*
 * @hook: nf_hook_state.hook (tc: netdev ingress/egress, arp in/out,
 *	  NF_INET_INGRESS, a bridge chain's NF_BR_*)
 * @pf: nf_hook_state.pf (NFPROTO_IPV4/IPV6; tc: NETDEV, ARP, BRIDGE too)
 * @len: skb->len at the hook (from skb->data there: the network header
 *	 but at netdev egress and arp output, see @nhoff)
 * @mark: skb->mark
 * @caplen: bytes of @data copied (min(len, LOG_REC_DATA))
 * @pktflags: struct codegen_pkt.flags (PKT_HAS_IN, PKT_LL, ...)
 * @has_dev: @dev_type/@hard_header_len are set: netfilter programs:
 *	     the input device's (none at output hooks); tc programs: always,
 *	     skb->dev's (nf_log_syslog and nfnetlink_log read skb->dev: at
 *	     netdev egress and the bridge's forward/output/postrouting hooks
 *	     the output device)
 * @dev_type: that device's type (ARPHRD_*)
 * @hard_header_len: that device's hard_header_len
 * @mac_hdr_len: network header - mac header (with PKT_LL)
 * @vlan_all: skb->vlan_all (proto << 0 | tci << 16, as in memory)
 * @has_uid: LOG_F_UID and the skb's socket has a file: @uid/@gid are set
 * @uid: its file's fsuid (nf_log_dump_sk_uid_gid())
 * @gid: its file's fsgid
 * @group: NFLOG: nfnetlink_log group
 * @qthreshold: NFLOG: the rule's queue threshold (0: the instance's)
 * @iif: NFLOG: input ifindex (with PKT_HAS_IN)
 * @oif: NFLOG: output ifindex (with PKT_HAS_OUT)
 * @protocol: skb->protocol, network order (nf_log_netdev_packet() picks
 *	      the format by it)
 * @nflog: 1: an NFLOG record of LOG_NFLOG_HDR + @caplen bytes (UID/GID
 *	   read without LOG_F_UID nor the netns check, as nfnetlink_log)
 * @ebt: syslog records: 1: ebtables' log watcher's own line
 *	 (ebt_log.c ebt_log_packet(): @logflags are its EBT_LOG_* bits),
 *	 0: nf_log_syslog's
 * @nhoff: skb_network_offset() at the hook: 0 but at netdev egress and
 *	   arp output (tc egress outside a bridge chain's view), where
 *	   skb->data is the link layer header
 * @tstamp: NFLOG: skb->tstamp (0: none)
 * @tai_ns: NFLOG: bpf_ktime_get_tai_ns() when logged (skb_tstamp_cond()
 *	    takes the time of day when the skb has no stamp)
 * @br_iif: NFLOG, bridge family: the input port's bridge device's ifindex
 *	     (NFULA_IFINDEX_INDEV; the port is @iif: NFULA_IFINDEX_PHYSINDEV)
 * @br_oif: ... of the output port (NFULA_IFINDEX_OUTDEV)
 * @br_opts: with @physin: the bridge's options (net_bridge.options, low
 *	      32 bits: BROPT_NF_CALL_IPTABLES/IP6TABLES); nfbpfd ORs in the
 *	      netns' bridge-nf-call-iptables/ip6tables (same bits) and
 *	      bridge-nf-filter-vlan/pppoe-tagged (LOG_BR_FILTER_*)
 * @physin: bridge postrouting of a forwarded frame: the input port's name
 *	    (br_netfilter's physindev, if br_nf_pre_routing() took the frame:
 *	    nf_log_dump_packet_common() prints it as PHYSIN= there)
 * @in: input device name
 * @out: output device name
 * @mac: LOG_REC_MAC bytes from the mac header (with PKT_LL)
 * @data: @caplen bytes: syslog: from the network header; NFLOG: from
 *	  skb->data at the hook (nfnetlink_log's payload)
 */
struct codegen_log_rec {
	uint32_t prefix_id;
	uint8_t level;
	uint8_t logflags;
	uint8_t hook;
	uint8_t pf;
	uint32_t len;
	uint32_t mark;
	uint16_t caplen;
	uint8_t pktflags;
	uint8_t has_dev;
	uint16_t dev_type;
	uint16_t hard_header_len;
	int32_t mac_hdr_len;
	uint32_t vlan_all;
	uint32_t has_uid;
	uint32_t uid;
	uint32_t gid;
	uint16_t group;
	uint16_t qthreshold;
	uint32_t iif;
	uint32_t oif;
	uint16_t protocol;
	uint8_t nflog;
	uint8_t ebt;
	uint16_t nhoff;
	uint16_t pad2;
	uint64_t tstamp;
	uint64_t tai_ns;
	uint32_t br_iif;
	uint32_t br_oif;
	uint32_t br_opts;
	char physin[16];
	char in[16];
	char out[16];
	uint8_t mac[LOG_REC_MAC];
	uint8_t data[LOG_REC_DATA];
};

/*
 * Routes (fib expression). A BPF netfilter program cannot look routes up
 * (its helpers are bpf_base_func_proto()'s; no kfunc reaches the FIB), so
 * nfbpfd mirrors what the fib expression reads of each namespace's IPv4
 * routing tables into one LPM trie, env->fib4_fd (offload/routes.c),
 * key struct codegen_fib4_key, value struct codegen_fib4_val:
 *  - FIB4_TABLE_LOCAL: the local table alone, as fib_table_lookup() of
 *    RT_TABLE_LOCAL sees it once policy rules have unmerged the tables;
 *  - FIB4_TABLE_MERGED: local and main together, as the merged trie
 *    holds them while the namespace has no custom rules (local's aliases
 *    first on a prefix both have);
 *  - FIB4_TABLE_STATUS: one entry (prefix length 32: the table alone)
 *    whose flags say what holds for the whole namespace (FIB4_F_TOS).
 * The program picks one by reading net->ipv4.fib_has_custom_rules.
 */
#define FIB4_TABLE_MERGED	0
#define FIB4_TABLE_STATUS	1
#define FIB4_TABLE_LOCAL	255	/* RT_TABLE_LOCAL */
#define FIB4_KEY_BITS		64	/* table (32) + address (32) */
#define FIB4_NH_MAX		8	/* nexthop devices kept per route */

/* codegen_fib4_val.flags */
#define FIB4_F_ERROR	0x1	/* unreachable, blackhole, prohibit, throw...:
				 * fib_table_lookup() fails on it */
#define FIB4_F_INEXACT	0x2	/* a nexthop object, or more than
				 * FIB4_NH_MAX nexthops: a route lookup that
				 * lands here cannot be answered */
#define FIB4_F_TOS	0x4	/* status: local or main hold routes with a
				 * tos (a packet with a DSCP may match them) */

/**
 * struct codegen_fib4_key - LPM key of the route mirror
 * @prefixlen: 32 + the route's prefix length
 * @table: FIB4_TABLE_*
 * @addr: destination, network order
 */
struct codegen_fib4_key {
	uint32_t prefixlen;
	uint32_t table;
	uint8_t addr[4];
};

/**
 * struct codegen_fib4_val - what a lookup of the prefix gets
 * @type: RTN_* of the first usable route of the prefix, as
 *	  __inet_dev_addr_type() answers it: RTN_UNICAST for the error
 *	  types (FIB4_F_ERROR), as fib_table_lookup() failing leaves the
 *	  answer unicast
 * @oif: ifindex of the nexthop fib_table_lookup() picks (the first one
 *	 not dead; 0: none): FIB_RES_DEV()
 * @flags: FIB4_F_*
 * @nh: ifindex of every nexthop's device, dead ones too (what
 *	fib_info_nh_uses_dev() compares), 0 after the last
 * @name: the name of @oif's device
 */
struct codegen_fib4_val {
	uint32_t type;
	uint32_t oif;
	uint32_t flags;
	uint32_t nh[FIB4_NH_MAX];
	char name[16];
};

/*
 * The IPv6 routes (env->fib6_fd, key struct codegen_fib6_key, value
 * struct codegen_fib4_val): what ip6_route_lookup() without custom rules
 * answers nft_fib6_eval() (6.18: fib6_rule_lookup(), the local table
 * first, then main; ip6_pol_route_lookup(): rt6_device_match() at the
 * longest prefix, backtracking to shorter ones when it finds nothing),
 * per prefix:
 *  - FIB6_TABLE_LOCAL/_MAIN: lookups without an output device: the
 *    prefix's first route (FIB4_F_INEXACT if it is dead or multipath:
 *    fib6_select_path() hashes the flow with the kernel's own key);
 *  - FIB6_TABLE_DEV(ifindex, FIB6_TABLE_LOCAL/_MAIN): lookups with
 *    RT6_LOOKUP_F_IFACE and that output device (link-local
 *    destinations): the first route through that device not dead;
 *  - FIB4_TABLE_STATUS: flags for the namespace (FIB6_F_*).
 * @type is the route's RTN_* type (local, anycast, the error types);
 * @oif, @nh[0] and @name its device (rt6i_idev->dev); @flags also carry
 * FIB6_F_GW and the prefix length (FIB6_PLEN_SHIFT), which the address
 * type needs (ipv6_anycast_destination()).
 */
#define FIB6_TABLE_LOCAL	255
#define FIB6_TABLE_MAIN		254
#define FIB6_TABLE_DEV(ifindex, tb)	(((uint32_t)(ifindex) << 8) | (tb))
#define FIB6_KEY_BITS		160	/* table (32) + address (128) */
#define FIB6_F_SUBTREES	0x8	/* status: source-specific routes */
#define FIB6_F_NHOBJ	0x10	/* status: routes with nexthop objects */
#define FIB6_F_GW	0x20	/* the route has a gateway (RTF_GATEWAY) */
#define FIB6_F_TYPE_INEXACT	0x40	/* its first route is dead: which one
					 * ip6_route_output() takes, and so
					 * the address type, is not known */
#define FIB6_PLEN_SHIFT	24	/* flags >> 24: the route's prefix length */

/**
 * struct codegen_fib6_key - LPM key of the IPv6 route mirror
 * @prefixlen: 32 + the route's prefix length
 * @table: FIB6_TABLE_*
 * @addr: destination
 */
struct codegen_fib6_key {
	uint32_t prefixlen;
	uint32_t table;
	uint8_t addr[16];
};

/** struct codegen_counter - value of a counter map slot (per CPU) */
struct codegen_counter {
	uint64_t packets;
	uint64_t bytes;
};

/**
 * struct codegen_prog - instruction buffer with a sticky error
 * @insns: owned
 * @len: instructions emitted
 * @err: first error (-ENOMEM, -ERANGE, -EINVAL), 0 if none
 * @labels: label -> instruction index (UINT32_MAX = unbound)
 * @lused: label -> referenced by a jump/call yet
 * @fix: pending references to labels
 * @funcs: labels starting BPF functions (func_info), in emission order
 *	   (instruction offsets after codegen_prog_finish())
 * @func_global: per function: 1 = BTF global shape function f(ctx, st,
 *		 entry), 0 = static
 */
struct codegen_fixup {
	uint32_t insn;
	uint32_t label;
};

struct codegen_prog {
	struct bpf_insn *insns;
	uint32_t len, cap;
	int err;
	uint32_t *labels;
	uint32_t nlabels, caplabels;
	uint8_t *lused;
	uint32_t caplused;
	struct codegen_fixup *fix;
	uint32_t nfix, capfix;
	uint32_t funcs[256];
	uint8_t func_global[256];
	uint32_t nfuncs;
	struct codegen_deferred {
		uint32_t label;
		void (*emit)(struct codegen_prog *p, const struct codegen_env *env,
			     const void *arg);
		const void *arg;
	} deferred[64];
	uint32_t ndeferred;
};

void codegen_prog_init(struct codegen_prog *p);
void codegen_prog_fini(struct codegen_prog *p);
/* append one instruction */
void codegen_emit(struct codegen_prog *p, struct bpf_insn insn);
/* a new unbound label */
uint32_t codegen_label_new(struct codegen_prog *p);
/* bind @l to the next instruction */
void codegen_label_bind(struct codegen_prog *p, uint32_t l);
/* is @l the target of an emitted jump/call yet? */
bool codegen_label_used(const struct codegen_prog *p, uint32_t l);
/* emit jump @insn whose offset goes to @l */
void codegen_emit_jmp(struct codegen_prog *p, struct bpf_insn insn, uint32_t l);
/* call the BPF function starting at @l */
void codegen_emit_call(struct codegen_prog *p, uint32_t l);
/* dst = &function at @l (for bpf_loop) */
void codegen_emit_ld_func(struct codegen_prog *p, int dst, uint32_t l);
/* dst = map @fd */
void codegen_emit_ld_map(struct codegen_prog *p, int dst, int fd);
/*
 * a static BPF function (e.g. a bpf_loop callback) an emitter needs: @emit
 * emits its body after the shape functions (codegen_emit_deferred()),
 * label @l already bound as its start
 */
void codegen_defer_func(struct codegen_prog *p, uint32_t l,
			void (*emit)(struct codegen_prog *p,
				     const struct codegen_env *env,
				     const void *arg),
			const void *arg);
void codegen_emit_deferred(struct codegen_prog *p, const struct codegen_env *env);
/* bind @l here and record it as the start of a BPF function */
void codegen_func_begin(struct codegen_prog *p, uint32_t l);
/* same, for a BTF global shape function f(ctx, st, entry) */
void codegen_func_begin_global(struct codegen_prog *p, uint32_t l);
/**
 * codegen_prog_finish - resolve labels
 * Return: 0, -ENOMEM, -ERANGE (offset does not fit s16/s32), -EINVAL
 * (unbound label).
 */
int codegen_prog_finish(struct codegen_prog *p);

/**
 * struct codegen_expr_ctx - where an expression's emitter stands
 * @env: fds and BTF offsets
 * @cbase: offset of the expression's constants from the entry (r7)
 * @l_break: label: the rule does not match (NFT_BREAK)
 * @l_done: label: stop evaluating the rule (verdict set)
 *
 * Shapes are BTF global functions f(ctx, st, entry), verified once each.
 * Register use inside a shape: r6 = struct codegen_state *, r7 = struct
 * codegen_entry *, r8 = struct bpf_nf_ctx *; r0-r5, r9 are scratch; the
 * shape frame's stack [fp-64, fp) is a packet buffer, fp-72 a map key,
 * [fp-88, fp-72) a dynptr.
 */
struct codegen_expr_ctx {
	const struct codegen_env *env;
	int16_t cbase;
	uint32_t l_break;
	uint32_t l_done;
};

/*
 * codegen_emit_pkt_refresh - (tc shapes) after the program wrote the
 * packet (bpf_skb_store_bytes() may move skb->head and pull bytes into
 * the linear area): pkt.ll_addr and pkt.headlen again, and the packet
 * byte cache (st->pktc) reread, so the expressions and rules after see
 * the new bytes, as the kernel's do; at egress a bridge device's moved
 * head goes to the ring (struct codegen_ring.br_tx_head). r0-r5 and the
 * shape frame's buffer and key clobbered; nothing for netfilter programs.
 */
void codegen_emit_pkt_refresh(struct codegen_prog *p, const struct codegen_env *env);

#define SHAPE_BUF_OFF	(-64)
#define SHAPE_KEY_OFF	(-72)
#define SHAPE_DYNPTR_OFF (-88)

/**
 * struct codegen_consts_ctx - what writing constants needs to resolve
 * @chain_head: entry index of the head of @chain
 * @set_id: dataplane id of @set
 * @elem_counter: counter slot of a set element's counter expression,
 *		  kept while the element lives (@assign: give one to an
 *		  element that has none yet); 0 if out of slots
 * @set_count: state slot of the count word of a set the packet path adds
 *	       to (codegen/expr/dynset.c)
 * @priv: for @chain_head
 */
struct expr_counter;
struct codegen_consts_ctx {
	uint32_t (*chain_head)(void *priv, const struct chain *chain);
	uint32_t (*set_id)(void *priv, const struct set *set);
	uint32_t (*elem_counter)(void *priv, struct expr_counter *c, bool assign);
	uint32_t (*set_count)(void *priv, const struct set *set);
	void *priv;
};

/**
 * struct codegen_key - growing byte string (shape keys)
 */
struct codegen_key {
	uint8_t *b;
	size_t len, cap;
	int err;
};
void codegen_key_put(struct codegen_key *k, const void *v, size_t len);

/**
 * struct codegen_expr_ops - what codegen does per expression type
 * @name: wire name, for messages
 * @check: can the dataplane run @e? 0 or -EOPNOTSUPP with @err set
 * @const_size: bytes of constants lifted into the rule entry
 * @shape: append what determines the code (not the constants) to @k
 * @consts: write the constants (@const_size bytes) to @dst
 * @emit: emit the code evaluating @e
 * @reads_ct: optional: does @e read skb->_nfct? (then the namespace needs
 *	      the kernel's conntrack on: offload_conntrack_enable())
 * @reads_acct: optional: does @e read conntrack accounting? (then the
 *		namespace needs nf_conntrack_acct on, which the kernel's
 *		nft_ct_get_init() turns on for such keys:
 *		offload_conntrack_acct())
 * @log_prefix: optional: the log prefix @e carries (NUL-terminated, into
 *		*@prefix) and where its prefix id goes (dp_log_rule() interns
 *		it before the constants are written), or NULL if none
 * @state_slot: optional, for expressions with state shared by every CPU
 *		(one u64 of the state map, in a slot the rule owns as long as
 *		it lives, like a counter slot): where the model keeps @e's slot,
 *		NULL if this @e has no state (an xt match without)
 * @state_init: the slot's first value when the rule is created; @now is
 *		CLOCK_MONOTONIC in ns, the clock of bpf_ktime_get_ns()
 */
struct codegen_expr_ops {
	const char *name;
	int (*check)(const struct expr *e, struct dp_error *err);
	uint32_t (*const_size)(const struct expr *e);
	void (*shape)(const struct expr *e, struct codegen_key *k);
	void (*consts)(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc);
	void (*emit)(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec);
	bool (*reads_ct)(const struct expr *e);
	bool (*reads_acct)(const struct expr *e);
	uint32_t *(*log_prefix)(struct expr *e, const char **prefix);
	uint32_t *(*state_slot)(struct expr *e);
	uint64_t (*state_init)(const struct expr *e, uint64_t now);
};

extern const struct codegen_expr_ops *const codegen_expr_ops[__EXPR_MAX];

extern const struct codegen_expr_ops codegen_expr_immediate;
extern const struct codegen_expr_ops codegen_expr_cmp;
extern const struct codegen_expr_ops codegen_expr_payload;
extern const struct codegen_expr_ops codegen_expr_meta;
extern const struct codegen_expr_ops codegen_expr_counter;
extern const struct codegen_expr_ops codegen_expr_bitwise;
extern const struct codegen_expr_ops codegen_expr_lookup;
extern const struct codegen_expr_ops codegen_expr_range;
extern const struct codegen_expr_ops codegen_expr_byteorder;
extern const struct codegen_expr_ops codegen_expr_ct;
extern const struct codegen_expr_ops codegen_expr_exthdr;
extern const struct codegen_expr_ops codegen_expr_log;
extern const struct codegen_expr_ops codegen_expr_numgen;
extern const struct codegen_expr_ops codegen_expr_hash;
extern const struct codegen_expr_ops codegen_expr_objref;
extern const struct codegen_expr_ops codegen_expr_match;
extern const struct codegen_expr_ops codegen_expr_target;
extern const struct codegen_expr_ops codegen_expr_limit;
extern const struct codegen_expr_ops codegen_expr_quota;
extern const struct codegen_expr_ops codegen_expr_reject;

/* --- exthdr sctp chunks (codegen/expr/sctp.c) --- */

struct expr_exthdr;
/*
 * codegen_exthdr_sctp_emit - the get form of an exthdr sctp chunk
 * expression @x (nft_exthdr_sctp_eval()): a bpf_loop walk of the chunks;
 * shape code (r6 = st, r8 = ctx), clobbers r0-r5, r9 and the shape
 * frame's buffer, key and dynptr slots
 */
void codegen_exthdr_sctp_emit(struct codegen_prog *p,
			      const struct expr_exthdr *x,
			      const struct codegen_expr_ctx *ec);

/* --- named objects (codegen/expr/objref.c) --- */

struct object;
struct expr_limit;

/*
 * An object's descriptor: what its code reads, the same bytes as rule
 * constants (objref with a named object) and as object map element data
 * (objref with a map): counter: u32 counter slot; quota: u32 slot of the
 * consumed bytes, u32 slot of the quota word (codegen_obj_quota_word());
 * limit: the limit expression's constants (codegen_limit_fill()), then
 * u32 1 = bytes, 0 = packets.
 */
#define OBJ_DESC_MAX	40

/* is @type one the dataplane runs (counter, quota, limit)? */
bool codegen_obj_type_ok(uint32_t type);
/* descriptor bytes of an object of @type (0: not run) */
uint32_t codegen_obj_desc_size(uint32_t type);
/**
 * codegen_obj_desc - write @obj's descriptor (codegen_obj_desc_size()
 * bytes) to @dst
 * Return: 0, or -ENOENT if @obj has no dataplane slot yet.
 */
int codegen_obj_desc(const struct object *obj, uint8_t *dst);
/* a quota object's quota word: the quota, bit 63 its invert flag */
uint64_t codegen_obj_quota_word(const struct object *obj);
/* a limit object's bucket when it is created (full, as nft_limit_init()) */
uint64_t codegen_obj_limit_init(const struct object *obj, uint64_t now);
/* the limit expression's constants of @l into @dst (32 bytes) */
void codegen_limit_fill(const struct expr_limit *l, uint8_t *dst);
/* their bucket part into @dst (24 bytes): u64 tokens_max, then packets:
 * u64 cost; bytes: u64 nsecs, u64 rate */
void codegen_limit_fill_bucket(const struct expr_limit *l, uint8_t *dst);
/* emitters shared by the expressions and the objects they name: the
 * constants (descriptor) at r7 + ec->cbase */
void codegen_emit_counter(struct codegen_prog *p,
			  const struct codegen_expr_ctx *ec);
void codegen_emit_limit(struct codegen_prog *p,
			const struct codegen_expr_ctx *ec, bool bytes);
/*
 * codegen_emit_limit_bucket - the token bucket of codegen/expr/limit.c on
 * the u64 at r9 + @word; constants at r7: u32 invert at @c_invert, the
 * bucket (codegen_limit_fill_bucket()) at @c_bucket. Over the rate (xor
 * invert): goto @l_break. Scratch: the shape frame's packet buffer;
 * clobbers r0-r5.
 */
void codegen_emit_limit_bucket(struct codegen_prog *p, bool bytes,
			       int16_t word, int16_t c_invert, int16_t c_bucket,
			       uint32_t l_break);
/*
 * r0 = the half of the element of @s (or its catchall) for the key at
 * register @sreg, the set id at r7 + ec->cbase; none: goto ec->l_break
 */
void codegen_emit_set_find(struct codegen_prog *p, const struct set *s,
			   uint8_t sreg, const struct codegen_expr_ctx *ec);
/* what of @s determines the code of codegen_emit_set_find() */
void codegen_lookup_shape_set(const struct set *s, struct codegen_key *k);
/* point *@sp to a copy of the shape fields of the set (for shapes:
 * lookup, objref, dynset) */
int codegen_set_detach(struct set **sp);
/* free the copy codegen_set_detach() made; *@sp = NULL */
void codegen_set_release(struct set **sp);
/* refuse @what of set @s: -EOPNOTSUPP, "set 'name': @what not supported..." */
int codegen_set_refuse(struct dp_error *err, const struct set *s,
		       const char *what);
/* shapes: detach/release an objref's set or object */
int codegen_objref_detach(struct expr *e);
void codegen_objref_release(struct expr *e);
extern const struct codegen_expr_ops codegen_expr_fwd;
extern const struct codegen_expr_ops codegen_expr_dup;
extern const struct codegen_expr_ops codegen_expr_dynset;
extern const struct codegen_expr_ops codegen_expr_fib;
extern const struct codegen_expr_ops codegen_expr_rt;
extern const struct codegen_expr_ops codegen_expr_connlimit;

/* --- shared emit helpers (codegen/emit.c) --- */

/*
 * bpf_probe_read_kernel(st + @dst, @len, @base + @src): a kernel member
 * into the walker state (r6 = st; r0-r5 clobbered). @src < 0 (a member
 * this kernel's BTF lacks) makes the program fail with -EOPNOTSUPP.
 */
void codegen_emit_probe_read(struct codegen_prog *p, int16_t dst, uint32_t len,
			     int base, int16_t src);
/*
 * @reg = *(u64 *)(@reg + @src) through st->scratch (a kernel pointer
 * member of the object at @reg); if it is NULL goto @l_null
 */
void codegen_emit_probe_deref(struct codegen_prog *p, int reg, int16_t src,
			      uint32_t l_null);
/*
 * r9 = skb_to_full_sk(skb) (a request socket stands for its listener) if
 * it is a full socket of this netns, else goto @l_none (codegen/expr/meta.c;
 * nft_meta_get_eval_skugid(), xt_owner's owner_mt())
 */
void codegen_emit_full_sk(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			  uint32_t l_none);
/*
 * regs[@dreg] = ((u64)r0 * modulus >> 32) + offset, with modulus and offset
 * u32 rule constants at r7 + @cmod, r7 + @coff: reciprocal_scale(), the
 * tail of numgen and hash (r0 holds a zero-extended u32)
 */
void codegen_emit_scale(struct codegen_prog *p, int16_t cmod, int16_t coff,
			uint8_t dreg);
/*
 * codegen_emit_ct_state - r3 = the packet's conntrack state bit (as
 * nft_ct_get_eval's NFT_CT_STATE and xt_state/xt_conntrack compute it):
 * 1 << (ctinfo % IP_CT_IS_REPLY + 1) with a conntrack entry, @untracked
 * for IP_CT_UNTRACKED, else the invalid bit (1); r4 = the nf_conn (0 if
 * none); r2 clobbered. Emitted by ct (codegen/expr/ct.c).
 */
void codegen_emit_ct_state(struct codegen_prog *p, uint32_t untracked);
/*
 * codegen_emit_ct_ext_find - r9 = the extension @id (env->off.ext_*) of
 * the nf_conn in r9 (nf_ct_ext_find()); none: goto @l_none. Clobbers
 * r0-r5 and st->scratch.
 */
void codegen_emit_ct_ext_find(struct codegen_prog *p, const struct codegen_env *env,
			      int16_t id, uint32_t l_none);
/* dst = 0 for @len bytes of registers from slot @slot, rounded up to words */
void codegen_emit_reg_zero(struct codegen_prog *p, uint8_t slot, uint32_t len);
/* copy @len bytes from (@src + @soff) to (@dst + @doff) in words, halves
 * and bytes through register @tmp */
void codegen_emit_copy(struct codegen_prog *p, int dst, int16_t doff, int src,
		       int16_t soff, uint32_t len, int tmp);
/* copy @len bytes from (@src + @soff) to the registers at slot @slot,
 * zeroing the rest of the last word (nft_data_copy) */
void codegen_emit_copy_to_reg(struct codegen_prog *p, uint8_t slot, int src,
			      int16_t soff, uint32_t len);
/*
 * compare @len bytes at (r6 + @regoff) with (r7 + @coff) in big-endian
 * unsigned order (memcmp order) and go to @l_lt, @l_eq or @l_gt
 */
void codegen_emit_becmp(struct codegen_prog *p, int16_t regoff, int16_t coff,
			uint32_t len, uint32_t l_lt, uint32_t l_eq, uint32_t l_gt);
/*
 * the same between (@ra + @aoff) and (@rb + @boff), with @ta and @tb as
 * scratch registers (for callers whose r1/r2/r7 hold something else)
 */
void codegen_emit_becmp_at(struct codegen_prog *p, int ra, int16_t aoff,
			   int rb, int16_t boff, int ta, int tb, uint32_t len,
			   uint32_t l_lt, uint32_t l_eq, uint32_t l_gt);
/*
 * codegen_emit_log_record - the log expression's code (codegen/expr/log.c):
 * one struct codegen_log_rec into the namespace's ring buffer, reading
 * the rule constants at @ec->cbase: u32 prefix id, u8 level, u8 flags
 */
void codegen_emit_log_record(struct codegen_prog *p,
			     const struct codegen_expr_ctx *ec);
/* the same record marked @ebt = 1 (ebtables' log watcher: the flags
 * constant is its EBT_LOG_* bitmask) */
void codegen_emit_ebt_log_record(struct codegen_prog *p,
				 const struct codegen_expr_ctx *ec);

/*
 * codegen_emit_nflog_record - the NFLOG form (log group, xt NFLOG): one
 * NFLOG record (LOG_NFLOG_HDR + packet bytes) into the ring buffer, from
 * the rule constants at @ec->cbase written by codegen_nflog_consts()
 */
void codegen_emit_nflog_record(struct codegen_prog *p,
			       const struct codegen_expr_ctx *ec);
#define LOG_NFLOG_ALL	0xffffffffu	/* no snaplen: the whole packet */
/* the 16 bytes of NFLOG constants: u32 prefix id, 2 bytes 0, u16 group,
 * u16 qthreshold, 2 bytes 0, u32 snaplen */
void codegen_nflog_consts(uint8_t *dst, uint32_t prefix_id, uint16_t group,
			  uint16_t qthreshold, uint32_t snaplen);

/*
 * codegen_emit_reject_record - fill a reject record from the rule's
 * constants (u8 type, u8 code, u8 family, u8 pad at r7 + ec->cbase) and
 * the packet (clobbers r0-r5, r9)
 */
void codegen_emit_reject_record(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec);
/*
 * codegen_emit_dynptr - the packet view as a dynptr at (fp + @fp_off):
 * bpf_dynptr_from_skb() of the skb of the ctx in @ctx_reg (netfilter:
 * ctx->skb; tc: ctx itself), in tc programs cut to [pkt.view_off, end)
 * (r6 = st). Clobbers r1-r5.
 */
void codegen_emit_dynptr(struct codegen_prog *p, const struct codegen_env *env,
			 int ctx_reg, int16_t fp_off);
/**
 * struct codegen_ip6walk - ipv6_find_hdr()'s walk over the IPv6 extension
 * headers (codegen_emit_ipv6_find_hdr()), on the caller's stack: the
 * bpf_loop callback's context
 * @view: the packet view's dynptr (the caller makes it)
 * @nexthdr: the next header value; the result's header type when found
 * @start: its offset in the view; found: the result's offset (0 for the
 *	   transport header of a non-first fragment, as *offset stays)
 * @target: the header type looked for, or IP6WALK_ANY (target -1)
 * @res: IP6WALK_FOUND, IP6WALK_ENOENT or IP6WALK_EBADMSG
 * @auth: IP6_FH_F_AUTH (with IP6WALK_ANY: stop at an AH header)
 * @fragoff: found: ntohs(frag_off) & ~7 of a fragment header, else 0
 * @buf: the bytes of the current header's start
 *
 * The walker's main function keeps it at its packet view's dynptr, the
 * members after @view overlaying st->regs (zeroed again after the walk);
 * shape functions at SHAPE_DYNPTR_OFF, over the key slot and the buffer.
 */
struct codegen_ip6walk {
	uint64_t view[2];
	uint32_t nexthdr;
	uint32_t start;
	uint32_t target;
	uint8_t res;
	uint8_t auth;
	uint16_t fragoff;
	uint8_t buf[4];
	uint32_t pad;
};

#define IP6WALK_OFF(f)	((int16_t)offsetof(struct codegen_ip6walk, f))
#define IP6WALK_ANY	0x100	/* target -1: the transport header */
#define IP6WALK_FOUND	1
#define IP6WALK_ENOENT	2
#define IP6WALK_EBADMSG	3

/*
 * codegen_emit_ipv6_find_hdr - ipv6_find_hdr(skb, &offset = 0, @target,
 * &fragoff, &flags = @auth ? IP6_FH_F_AUTH : 0) of the packet view whose
 * dynptr is at (fp + @fp_off), the start of a struct codegen_ip6walk: a
 * bpf_loop of one extension header a step, as many steps as the packet
 * can hold headers (each but the last takes 8 bytes or more), so any
 * number of them. r6 = st; clobbers r0-r5; r0 = the walk's @res.
 */
void codegen_emit_ipv6_find_hdr(struct codegen_prog *p,
				const struct codegen_env *env, int16_t fp_off,
				uint32_t target, bool auth);
/* @dst = bytes in the packet view (r6 = st): pkt.len, less pkt.view_off
 * at tc egress (@tmp clobbered there) */
void codegen_emit_view_len(struct codegen_prog *p, const struct codegen_env *env,
			   int dst, int tmp);
/*
 * codegen_emit_rec_submit - end a ring-buffer record at r9 (log, reject):
 * the u16 at r9 + @caplen_off = 0, then up to @cap bytes of the packet
 * view read to r9 + @data_off with bpf_dynptr_read() and, if that works,
 * their count at @caplen_off; then bpf_ringbuf_submit(r9, 0). The frame's
 * dynptr and key slots are scratch (r8 = ctx, r6 = st); clobbers r0-r5.
 */
void codegen_emit_rec_submit(struct codegen_prog *p, const struct codegen_env *env,
			     int16_t caplen_off, int16_t data_off, uint32_t cap);
/*
 * r0 = bpf_dynptr_slice() of @len packet bytes at offset r2 from
 * skb->data (into the shape frame's buffer if not linear); if that fails
 * (too short) goto @l_fail. Clobbers r1-r5 and r9. Shape functions only.
 */
void codegen_emit_slice(struct codegen_prog *p, const struct codegen_env *env,
			uint32_t len, uint32_t l_fail);
/* is [slot, slot + len) inside the data registers? */
int codegen_reg_ok(uint8_t slot, uint32_t len);
/*
 * r0 = the value of map @fd (counters, state) at the slot of an expression
 * whose slot is the u32 at its constants' start (r1-r5 clobbered); goto
 * @l_null if there is none
 */
void codegen_emit_slot_lookup(struct codegen_prog *p,
			      const struct codegen_expr_ctx *ec, int fd,
			      uint32_t l_null);

/*
 * codegen_emit_addr_type - r2 = inet_dev_addr_type(net, dev, addr) of the
 * IPv4 address at network header offset @addr (12: source, 16:
 * destination), from the route mirror (codegen/expr/fib.c): 0.0.0.0/8
 * and 255.255.255.255 are broadcast, 224.0.0.0/4 multicast, else the
 * type of the route found in the local table (merged with main while the
 * netns has no custom rules), when its device is @dev's
 * (CODEGEN_ADDR_TYPE_IIF/_OIF: the input/output device; 0: any); unicast
 * otherwise. No IPv4 header: goto ec->l_break. Clobbers r0-r5, r9 and
 * the shape frame's packet buffer.
 */
#define CODEGEN_ADDR_TYPE_IIF	1
#define CODEGEN_ADDR_TYPE_OIF	2
void codegen_emit_addr_type(struct codegen_prog *p,
			    const struct codegen_expr_ctx *ec, int16_t addr,
			    int dev);

/*
 * codegen_emit_fib6_route - the route an IPv6 output lookup of the
 * address at r6 + @addr takes, from the IPv6 route mirror
 * (codegen/expr/fib.c): r9 = its struct codegen_fib4_val; none: goto
 * @l_none; what the mirror cannot answer (custom rules, source-specific
 * routes, nexthop objects, a dead first route): goto @l_drop. The tables
 * (@tables, CODEGEN_FIB6_*) are the local and main ones, or those of the
 * device whose ifindex is at r6 + @dev (0: skb->dev).
 * Clobbers r0-r5 and the shape frame's packet buffer.
 */
#define CODEGEN_FIB6_FIB	0	/* nft fib: the device's tables for a
					 * link-local address only */
#define CODEGEN_FIB6_DEV	1	/* always the device's tables */
#define CODEGEN_FIB6_NODEV	2	/* never (local and main) */
void codegen_emit_fib6_route(struct codegen_prog *p,
			     const struct codegen_expr_ctx *ec, int16_t addr,
			     int16_t dev, int tables, uint32_t l_drop,
			     uint32_t l_none);
/* nf_ipv6_chk_addr(net, addr at r6 + @addr, the device whose ifindex is
 * at r6 + @dev, strict): its local /128 route; not: goto @l_no.
 * Clobbers r0-r5 and the packet buffer. */
void codegen_emit_fib6_has_addr(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec, int16_t addr,
				int16_t dev, uint32_t l_no);
/* ipv6_anycast_destination() of the route at r9 and the address at r6 +
 * @addr: an anycast route, or the prefix address of a route without a
 * gateway shorter than /127: goto @l_yes. Clobbers r1-r5. */
void codegen_emit_fib6_anycast(struct codegen_prog *p, int16_t addr,
			       uint32_t l_yes);

/* --- rules and shapes (codegen/shape.c) --- */

/**
 * struct codegen_shape - one compiled rule shape
 * @id: >= 1
 * @key: owned shape key
 * @exprs: owned copy of a sample rule's expressions (emission reads only
 *	   what the key holds)
 * @dlen: bytes in @exprs
 * @foldable: codegen_shape_foldable(), cached by offload
 */
struct codegen_shape {
	uint32_t id;
	struct codegen_key key;
	struct expr *exprs;
	uint32_t dlen;
	bool foldable;
};

/**
 * codegen_expr_reads_ct - does @e read conntrack state (skb->_nfct)?
 */
bool codegen_expr_reads_ct(const struct expr *e);
/**
 * codegen_expr_reads_acct - does @e read conntrack accounting (ct bytes,
 * packets, avgpkt)?
 */
bool codegen_expr_reads_acct(const struct expr *e);
/**
 * codegen_rule_check - can the dataplane run @rule? (every expression)
 * Return: 0 or -EOPNOTSUPP / -E2BIG with @err->msg set.
 */
int codegen_rule_check(const struct rule *rule, struct dp_error *err);
/**
 * codegen_rule_key - the shape key of @rule (into @k, which the caller
 * initialises zeroed and frees). Return: 0 or -ENOMEM.
 */
int codegen_rule_key(const struct rule *rule, struct codegen_key *k);
/* codegen_rule_consts - write @rule's constants into @ent->consts */
void codegen_rule_consts(const struct rule *rule, struct codegen_entry *ent,
			 const struct codegen_consts_ctx *cc);
/*
 * codegen_shape_emit - emit the code of @s: r6 = state, r7 = entry are
 * set; the code ends in exits (return 0) with st->verdict set
 */
void codegen_shape_emit(struct codegen_prog *p, const struct codegen_shape *s,
			const struct codegen_env *env);

/*
 * codegen_shape_detach - make @s->exprs (a copy of a rule's) independent
 * of the model objects they point to (sets): shapes outlive rules.
 * Return: 0 or -ENOMEM (then nothing is left to release).
 * codegen_shape_release - free what codegen_shape_detach() made.
 */
int codegen_shape_detach(struct codegen_shape *s);
void codegen_shape_release(struct codegen_shape *s);
int codegen_lookup_detach(struct expr *e);
void codegen_lookup_release(struct expr *e);
int codegen_dynset_detach(struct expr *e);
void codegen_dynset_release(struct expr *e);

/* --- folded runs (codegen/fold.c) --- */

/*
 * A shape folds if it starts with pure loads (payload, meta) and equality
 * compares of what they loaded, at least one compare: for a given packet
 * such a prefix fails or passes the same way for every rule of the shape
 * except for the compared constants, and has no side effect. The key of a
 * rule is the data of those compares, each padded to 4 bytes; the walker
 * builds the same bytes from the packet.
 */
#define FOLD_KEY_MAX	36

/** struct codegen_fold_key - key of the fold map */
struct codegen_fold_key {
	uint32_t run;
	uint8_t key[FOLD_KEY_MAX];
};

/* codegen_shape_foldable - can runs of shape @s be folded? */
bool codegen_shape_foldable(const struct codegen_shape *s);
/*
 * codegen_rule_fold_key - @rule's key (zero padded to FOLD_KEY_MAX)
 * Return: true if its shape folds.
 */
bool codegen_rule_fold_key(const struct rule *rule, uint8_t key[FOLD_KEY_MAX]);
/*
 * codegen_fold_emit - body of the fold function of @s (r6 = state, r7 =
 * the head entry, r8 = ctx): return the entry index the fold map gives
 * for the packet's key, 0 if none (the packet matches no rule of the run)
 */
void codegen_fold_emit(struct codegen_prog *p, const struct codegen_shape *s,
		       const struct codegen_env *env);
#define FOLD_KEY_FP	(-40)	/* fold function frame: the map key */

/* --- programs (codegen/walker.c) --- */

/**
 * codegen_walker_emit - the walker program of one context (@env->ctx):
 * finds its hook point's slot in the ring, runs the base chains the heads
 * map lists for it in the packet's generation, in order, until one drops
 * @p: initialised, empty
 * @env: fds, BTF
 * @shapes: every shape the rule map may name; shapes[i]->id == i + 1
 * @nshapes: count
 *
 * A tc walker runs the base chains of one device and direction (netdev
 * family, inet ingress) in priority order, as the kernel's per-device
 * hook list: netdev chains see every packet with nfproto NFPROTO_NETDEV;
 * inet ingress chains only IPv4/IPv6 (others go on to the next chain),
 * with nfproto IPv4/IPv6, and drop a packet whose header is invalid
 * (nft_do_chain_inet_ingress). Accept = TCX_NEXT, drop = TCX_DROP.
 *
 * Return: codegen_prog_finish()'s result.
 */
int codegen_walker_emit(struct codegen_prog *p, const struct codegen_env *env,
			struct codegen_shape *const *shapes, uint32_t nshapes);

/**
 * codegen_tramp_emit - the permanent program behind the link of the hook
 * point with heads map slot @slot: records (ctx, @slot) in the ring, then
 * tail-calls the walker of its context; NF_ACCEPT (tc: TCX_NEXT) if there
 * is none (nothing runs in the live generation).
 */
int codegen_tramp_emit(struct codegen_prog *p, const struct codegen_env *env,
		       uint32_t slot);

#endif /* NFBPF_CODEGEN_H */
