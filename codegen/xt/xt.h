/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xt.h - dataplane of individual xtables match extensions
 * (codegen/xt/X.c), selected by codegen/expr/match.c.
 *
 * Each extension translates its kernel match function (net/netfilter/
 * xt_X.c) exactly, reading its private data (struct expr_xt.info, host
 * byte order, as the kernel keeps it) from the rule's constants: the
 * extension's ->consts copies the bytes it needs, and ->shape names what
 * changes the code (inversion flags, counts), not the values.
 *
 * Emitters follow codegen_expr_ops' conventions (r6 = state, r7 = entry,
 * r8 = ctx; r0-r5, r9 scratch). "false" = goto ec->l_break (NFT_BREAK),
 * "hotdrop" = codegen_xt_emit_hotdrop() (NF_DROP, as nft_match_eval).
 */
#ifndef NFBPF_CODEGEN_XT_H
#define NFBPF_CODEGEN_XT_H

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/xt.h"

/**
 * struct codegen_xt_ops - one match extension
 * @name: extension name
 * @rev: revision
 * @family: NFPROTO_* it is registered for, 0 = any
 * @minlen: bytes of info the code reads (the kernel's matchsize)
 * @check: optional: values the translation does not cover (-EOPNOTSUPP
 *	   with @err set)
 * @reads_ct: the match reads skb->_nfct (the kernel's conntrack must be
 *	      on in the namespace, as the kernel's checkentry turns it on)
 * @reads_acct: the match reads conntrack accounting (the kernel's
 *	        checkentry turns nf_conntrack_acct on)
 * @const_off: where in the info the constants start
 * @const_size: bytes of constants (info[@const_off, +@const_size))
 * @const_size_of: optional: bytes of constants of @x (instead of
 *		   @const_size), for constants laid out by what is asked
 * @consts: optional: write the @const_size bytes of constants (instead of
 *	    the info slice)
 * @log_prefix: optional: see codegen_expr_ops.log_prefix
 * @state_init: optional: the match keeps one u64 of the state map,
 *	        shared by every CPU (the kernel's per-rule master), in a
 *	        slot the rule owns (x->dp_aux; the constants carry it as
 *	        their first u32 for codegen_emit_slot_lookup()); its first
 *	        value (@now: CLOCK_MONOTONIC ns); xt connlimit keeps its
 *	        lists' id there
 * @shape: what determines the code
 * @consts: write @const_size bytes
 * @emit: the code
 */
struct codegen_xt_ops {
	const char *name;
	uint32_t rev;
	uint8_t family;
	uint32_t minlen;
	int (*check)(const struct expr_xt *x, struct dp_error *err);
	bool reads_ct;
	bool reads_acct;
	uint32_t const_off;
	uint32_t const_size;
	uint32_t (*const_size_of)(const struct expr_xt *x);
	void (*consts)(const struct expr_xt *x, uint8_t *dst);
	uint32_t *(*log_prefix)(struct expr_xt *x, const char **prefix);
	uint64_t (*state_init)(const struct expr_xt *x, uint64_t now);
	void (*shape)(const struct expr_xt *x, struct codegen_key *k);
	void (*emit)(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec);
};

extern const struct codegen_xt_ops codegen_xt_comment, codegen_xt_tcp,
	codegen_xt_udp, codegen_xt_udplite, codegen_xt_icmp, codegen_xt_icmp6,
	codegen_xt_multiport, codegen_xt_mark, codegen_xt_iprange,
	codegen_xt_length, codegen_xt_pkttype, codegen_xt_ttl, codegen_xt_hl,
	codegen_xt_dscp, codegen_xt_tos, codegen_xt_state,
	codegen_xt_conntrack1, codegen_xt_conntrack2, codegen_xt_conntrack3,
	codegen_xt_log, codegen_xt_nflog, codegen_xt_reject4, codegen_xt_reject6,
	codegen_xt_mac, codegen_xt_u32, codegen_xt_addrtype,
	codegen_xt_recent0, codegen_xt_recent1, codegen_xt_hashlimit1,
	codegen_xt_hashlimit2, codegen_xt_hashlimit3, codegen_xt_ebt_ip,
	codegen_xt_ebt_vlan, codegen_xt_ebt_arp, codegen_xt_owner,
	codegen_xt_connmark, codegen_xt_connlabel, codegen_xt_helper,
	codegen_xt_connbytes, codegen_xt_statistic, codegen_xt_quota,
	codegen_xt_time, codegen_xt_cpu, codegen_xt_ecn4, codegen_xt_ecn6,
	codegen_xt_tcpmss, codegen_xt_cgroup0, codegen_xt_cgroup2, codegen_xt_mh,
	codegen_xt_dccp, codegen_xt_realm, codegen_xt_connlimit,
	codegen_xt_string, codegen_xt_frag6, codegen_xt_ebt_mark_m,
	codegen_xt_ebt_mark, codegen_xt_ebt_dnat, codegen_xt_ebt_snat,
	codegen_xt_esp, codegen_xt_ipcomp, codegen_xt_ah4, codegen_xt_ah6,
	codegen_xt_rt6, codegen_xt_hbh6, codegen_xt_dst6, codegen_xt_ebt_log,
	codegen_xt_ebt_nflog, codegen_xt_ebt_ip6, codegen_xt_ebt_stp,
	codegen_xt_mark_tg2, codegen_xt_classify, codegen_xt_eui64,
	codegen_xt_ipv6header, codegen_xt_ebt_802_3,
	codegen_xt_arpt_mangle, codegen_xt_ebt_redirect, codegen_xt_sctp;

/*
 * codegen_xt_find - the translation of @x among @ops[0..n): same name and
 * revision, the family it is registered for, enough info bytes; NULL if
 * none (the expression is then refused at commit)
 */
const struct codegen_xt_ops *codegen_xt_find(const struct codegen_xt_ops *const *ops,
					    size_t n, const struct expr_xt *x);

/* st->verdict = NF_DROP; goto done (par->hotdrop) */
/*
 * codegen_xt_shape / codegen_xt_consts - the shape key (extension name,
 * revision, then what @o adds) and the rule constants (@o's own, else
 * @o->const_size info bytes from @o->const_off) of @x, translated by @o:
 * the same for the match and the target expression
 */
void codegen_xt_shape(const struct codegen_xt_ops *o, const struct expr_xt *x,
		      struct codegen_key *k);
void codegen_xt_consts(const struct codegen_xt_ops *o, const struct expr_xt *x,
		       uint8_t *dst);
uint32_t codegen_xt_const_size(const struct codegen_xt_ops *o,
			       const struct expr_xt *x);

static inline void codegen_xt_emit_hotdrop(struct codegen_prog *p,
					   const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

/*
 * r0 = @len bytes at pkt.thoff (par->thoff), or hotdrop if the packet is
 * shorter (skb_header_pointer() failing in the kernel's match functions)
 */
void codegen_xt_emit_th(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			uint32_t len);

/*
 * port_match(): if (r1 in [min, max]) ^ @inv is false goto break, with
 * min/max the u16 constants at r7 + @coff, @coff + 2 (clobbers r2, r3)
 */
void codegen_xt_emit_port_range(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec,
				int16_t coff, bool inv);
/* the same for @size (2 or 4) byte bounds (xt owner's uid/gid ranges) */
void codegen_xt_emit_range(struct codegen_prog *p,
			   const struct codegen_expr_ctx *ec,
			   int16_t coff, uint32_t size, bool inv);

#endif
