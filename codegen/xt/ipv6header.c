// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipv6header.c - the ip6tables ipv6header match (ip6t_ipv6header.c
 * ipv6header_mt6()): the set of headers a packet carries, as a bitmask
 * built by a walk of its own (not ipv6_find_hdr()'s):
 *
 *	from nexthdr = ipv6_hdr()->nexthdr at ptr 40, while nexthdr is one
 *	of ip6t_ext_hdr()'s (hop-by-hop, routing, fragment, ESP, AH, none,
 *	destination options): NONE: MASK_NONE, stop; fewer than 2 bytes
 *	left (skb->len - ptr): false; ESP: MASK_ESP, stop; read the 2-byte
 *	header at ptr (cannot fail then: hotdrop); its bit; its length
 *	(fragment 8, AH (hdrlen + 2) * 4, others (hdrlen + 1) * 8);
 *	nexthdr = its nexthdr, ptr += length, stop if ptr > skb->len.
 *	Then MASK_PROTO unless nexthdr is NONE or ESP. A non-first
 *	fragment is walked on like any other header.
 *
 *	--soft (modeflag): !((seen ^ matchflags ^ invflags) & matchflags);
 *	else invflags (0 or 0xff, checkentry) ? seen != matchflags : seen ==
 *	matchflags.
 *
 * No limit on the number of headers: a bpf_loop of one header a step,
 * each step that goes on moving ptr by 8 bytes or more, so the view's
 * length / 8 + 2 steps reach the end of any packet (as codegen/ipv6.c).
 * struct ip6t_ipv6header_info { u8 matchflags @0, invflags @1,
 * modeflag @2 }.
 */
#include <stddef.h>
#include "codegen/xt/xt.h"

enum { NH_HOP = 0, NH_ROUTING = 43, NH_FRAGMENT = 44, NH_ESP = 50,
       NH_AUTH = 51, NH_NONE = 59, NH_DEST = 60 };

#define MASK_HOPOPTS	128
#define MASK_DSTOPTS	64
#define MASK_ROUTING	32
#define MASK_FRAGMENT	16
#define MASK_AH		8
#define MASK_ESP	4
#define MASK_NONE	2
#define MASK_PROTO	1

#define LOOPS_MAX	(1u << 23)	/* BPF_MAX_LOOPS */

/* the walk's state, on the shape frame at SHAPE_DYNPTR_OFF (the bpf_loop
 * callback's context) */
struct ip6hdr_walk {
	uint64_t view[2];	/* the packet view's dynptr */
	uint32_t nexthdr;
	uint32_t ptr;
	uint32_t len;		/* skb->len */
	uint8_t seen;		/* the kernel's temp */
	uint8_t res;
	uint8_t buf[2];		/* struct ipv6_opt_hdr */
};
#define W_OFF(f)	((int16_t)offsetof(struct ip6hdr_walk, f))
#define RES_EVAL	0
#define RES_FALSE	1
#define RES_HOTDROP	2

_Static_assert(SHAPE_DYNPTR_OFF + (int)sizeof(struct ip6hdr_walk) <= 0,
	       "the walk fits in the shape frame");

/* walk->seen |= @mask */
static void emit_seen(struct codegen_prog *p, int reg, uint32_t mask)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, reg, R6, W_OFF(seen)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, reg, mask));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, reg, W_OFF(seen)));
}

/* walk->res = @res; return 1 (stop) */
static void emit_stop(struct codegen_prog *p, int res)
{
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, W_OFF(res), res));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
}

/* the bpf_loop callback cb(index, walk): one turn of the kernel's while
 * loop. r6 = walk, r7 = nexthdr */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	static const struct { uint32_t nh, mask; } hdrs[] = {
		{ NH_HOP, MASK_HOPOPTS }, { NH_ROUTING, MASK_ROUTING },
		{ NH_FRAGMENT, MASK_FRAGMENT }, { NH_AUTH, MASK_AH },
		{ NH_DEST, MASK_DSTOPTS },
	};
	uint32_t l_eval = codegen_label_new(p), l_false = codegen_label_new(p);
	uint32_t l_bad = codegen_label_new(p), l_len = codegen_label_new(p);
	uint32_t l_hdr[5], l_auth = codegen_label_new(p);
	uint32_t l_frag = codegen_label_new(p), l_opt = codegen_label_new(p);
	unsigned int i;

	(void)env;
	(void)arg;
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R7, R6, W_OFF(nexthdr)));
	/* NEXTHDR_NONE: MASK_NONE, evaluate */
	l_hdr[0] = codegen_label_new(p);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH_NONE, 0), l_hdr[0]);
	emit_seen(p, R1, MASK_NONE);
	codegen_emit_jmp(p, INSN_JA(0), l_eval);
	codegen_label_bind(p, l_hdr[0]);
	/* no ip6t_ext_hdr(): the loop ends */
	for (i = 0; i < 5; i++) {
		l_hdr[i] = codegen_label_new(p);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, hdrs[i].nh, 0), l_hdr[i]);
	}
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH_ESP, 0), l_eval);
	/* ESP: fewer than 2 bytes left: false; else MASK_ESP, evaluate */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, W_OFF(len)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, W_OFF(ptr)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 2, 0), l_false);
	emit_seen(p, R1, MASK_ESP);
	codegen_emit_jmp(p, INSN_JA(0), l_eval);
	/* the other headers: r9 = their bit */
	for (i = 0; i < 5; i++) {
		codegen_label_bind(p, l_hdr[i]);
		codegen_emit(p, INSN_MOV64_IMM(R9, hdrs[i].mask));
		if (i < 4)
			codegen_emit_jmp(p, INSN_JA(0), l_len);
	}
	codegen_label_bind(p, l_len);
	/* fewer than 2 bytes left (skb->len - ptr, signed): false */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, W_OFF(len)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, W_OFF(ptr)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLT, R1, 2, 0), l_false);
	/* buf = the 2 bytes at ptr (r4) (bpf_dynptr_read); fails: hotdrop */
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, W_OFF(buf)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 2));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_bad);
	/* seen |= r9 */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, W_OFF(seen)));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R9));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, W_OFF(seen)));
	/* r3 = the header's length */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, W_OFF(buf) + 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_FRAGMENT, 0), l_frag);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_AUTH, 0), l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 3));
	codegen_emit_jmp(p, INSN_JA(0), l_opt);
	codegen_label_bind(p, l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
	codegen_emit_jmp(p, INSN_JA(0), l_opt);
	codegen_label_bind(p, l_frag);
	codegen_emit(p, INSN_MOV64_IMM(R3, 8));
	/* nexthdr = hp->nexthdr; ptr += length; ptr > skb->len: evaluate */
	codegen_label_bind(p, l_opt);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, W_OFF(buf)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, W_OFF(nexthdr)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, W_OFF(ptr)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, W_OFF(ptr)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, W_OFF(len)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R2, 0), l_eval);
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());

	codegen_label_bind(p, l_eval);
	emit_stop(p, RES_EVAL);
	codegen_label_bind(p, l_false);
	emit_stop(p, RES_FALSE);
	codegen_label_bind(p, l_bad);
	emit_stop(p, RES_HOTDROP);
}

/* the callback's label, one per program */
static uint32_t cb_label(struct codegen_prog *p)
{
	uint32_t i, l;

	for (i = 0; i < p->ndeferred; i++)
		if (p->deferred[i].emit == emit_cb)
			return p->deferred[i].label;
	l = codegen_label_new(p);
	codegen_defer_func(p, l, emit_cb, NULL);
	return l;
}

static void ipv6header_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[2] != 0, !x->info[2] && x->info[1] };

	codegen_key_put(k, v, sizeof(v));
}

static void ipv6header_emit(struct codegen_prog *p, const struct expr_xt *x,
			    const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	const int16_t w = SHAPE_DYNPTR_OFF;
	uint32_t l_cb = cb_label(p), l_cnt = codegen_label_new(p);
	uint32_t l_bad = codegen_label_new(p), l_end = codegen_label_new(p);
	uint32_t l_noproto = codegen_label_new(p);
	bool soft = x->info[2], inv = x->info[1];

	/* the view; nexthdr = ipv6_hdr()->nexthdr (byte 6), ptr = 40,
	 * len = skb->len (the view's), seen = 0, res = hotdrop (a loop that
	 * ran out, which it cannot) */
	codegen_emit_dynptr(p, env, R8, w);
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, w + W_OFF(buf)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 1));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, w));
	codegen_emit(p, INSN_MOV64_IMM(R4, 6));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, w + W_OFF(buf)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, w + W_OFF(nexthdr)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, w + W_OFF(ptr), 40));
	codegen_emit_view_len(p, env, R1, R2);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, w + W_OFF(len)));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R10, w + W_OFF(seen), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R10, w + W_OFF(res), RES_HOTDROP));
	/* bpf_loop(min(len / 8 + 2, BPF_MAX_LOOPS), cb, walk, 0) */
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1, LOOPS_MAX, 0), l_cnt);
	codegen_emit(p, INSN_MOV64_IMM(R1, LOOPS_MAX));
	codegen_label_bind(p, l_cnt);
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, w));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, w + W_OFF(res)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, RES_FALSE, 0), ec->l_break);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, RES_HOTDROP, 0), l_bad);
	/* r1 = seen, | MASK_PROTO unless nexthdr is NONE or ESP */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, w + W_OFF(seen)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, w + W_OFF(nexthdr)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, NH_NONE, 0), l_noproto);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, NH_ESP, 0), l_noproto);
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, MASK_PROTO));
	codegen_label_bind(p, l_noproto);
	/* r2 = matchflags, r3 = invflags */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase));
	if (soft) {
		/* (seen ^ matchflags ^ invflags) & matchflags: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R7, ec->cbase + 1));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R1, R2));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R1, R3));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	} else {
		/* seen == matchflags, != with invflags */
		codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
				 ec->l_break);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_ipv6header = {
	.name = "ipv6header", .rev = 0, .family = 10 /* NFPROTO_IPV6 */,
	.minlen = 3, .const_size = 2, .shape = ipv6header_shape,
	.emit = ipv6header_emit,
};
