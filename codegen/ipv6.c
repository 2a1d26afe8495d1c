// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipv6.c - ipv6_find_hdr() (net/ipv6/exthdrs_core.c) as a bpf_loop: the
 * one walk over IPv6 extension headers that the walker's packet info
 * (nft_set_pktinfo_ipv6(): target -1, IP6_FH_F_AUTH), exthdr (a header
 * type) and the ip6tables frag match (NEXTHDR_FRAGMENT) share.
 *
 * The kernel walks while the packet has extension headers, with no count
 * limit (6.18: IP6_MAX_EXT_HDRS_CNT is not in ipv6_find_hdr()). Each step
 * that goes on has read 2 bytes at start and moves start on by 8 bytes or
 * more (options (hdrlen + 1) * 8, AH (hdrlen + 2) * 4 >= 8, fragment 8),
 * so from start 40 a packet of len bytes allows (len - 42) / 8 + 1 such
 * steps and one more that ends the walk: len / 8 + 2 iterations are
 * enough for every packet, and the verifier checks the callback once
 * whatever the count.
 */
#include "codegen/codegen.h"
#include "codegen/insn.h"

enum { NH_HOP = 0, NH_ROUTING = 43, NH_FRAGMENT = 44, NH_AUTH = 51,
       NH_NONE = 59, NH_DEST = 60 };

#define LOOPS_MAX	(1u << 23)	/* BPF_MAX_LOOPS */

_Static_assert(sizeof(struct codegen_ip6walk) - IP6WALK_OFF(nexthdr) <=
	       sizeof(((struct codegen_state *)0)->regs),
	       "the walker's walk overlays st->regs");
_Static_assert(SHAPE_DYNPTR_OFF + (int)sizeof(struct codegen_ip6walk) <= 0,
	       "a shape's walk fits in its frame");

/* if @reg is an extension header other than NEXTHDR_NONE goto @l
 * (ipv6_ext_hdr() without NONE) */
static void emit_if_ext(struct codegen_prog *p, int reg, uint32_t l)
{
	static const int ext[] = { NH_HOP, NH_ROUTING, NH_FRAGMENT, NH_AUTH,
				   NH_DEST };
	unsigned int i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, reg, ext[i], 0), l);
}

/* walk->res = @res; return 1 (stop) */
static void emit_stop(struct codegen_prog *p, int res)
{
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, IP6WALK_OFF(res), res));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
}

/*
 * the bpf_loop callback cb(index, walk): one iteration of
 * ipv6_find_hdr()'s do-while loop. r6 = walk, r7 = nexthdr, r8 = target.
 */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	uint32_t l_ext = codegen_label_new(p), l_found = codegen_label_new(p);
	uint32_t l_enoent = codegen_label_new(p), l_bad = codegen_label_new(p);
	uint32_t l_two = codegen_label_new(p), l_frag = codegen_label_new(p);
	uint32_t l_auth = codegen_label_new(p), l_authlen = codegen_label_new(p);
	uint32_t l_len = codegen_label_new(p), l_later = codegen_label_new(p);
	uint32_t l_fragfound = codegen_label_new(p);

	(void)env;
	(void)arg;
	/* r6 = walk; r7 = nexthdr; r8 = target */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R7, R6, IP6WALK_OFF(nexthdr)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R8, R6, IP6WALK_OFF(target)));
	/* no extension header, or NEXTHDR_NONE: found if target < 0 or
	 * nexthdr == target, else -ENOENT */
	emit_if_ext(p, R7, l_ext);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R8, IP6WALK_ANY, 0), l_found);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R7, R8, 0), l_found);
	codegen_emit_jmp(p, INSN_JA(0), l_enoent);

	/* hp = bpf_dynptr_read(buf, n, view, start, 0), n = 2 (struct
	 * ipv6_opt_hdr), 4 for routing (struct ipv6_rt_hdr) and fragment
	 * (frag_off at +2): past the packet: -EBADMSG */
	codegen_label_bind(p, l_ext);
	codegen_emit(p, INSN_MOV64_IMM(R2, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_ROUTING, 0), l_two);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH_FRAGMENT, 0), l_len);
	codegen_label_bind(p, l_two);
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_label_bind(p, l_len);
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, IP6WALK_OFF(buf)));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, IP6WALK_OFF(start)));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_FRAGMENT, 0), l_frag);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_AUTH, 0), l_auth);
	/* options, routing: r3 = (hp->hdrlen + 1) << 3 */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, IP6WALK_OFF(buf) + 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 3));
	l_len = codegen_label_new(p);
	codegen_emit_jmp(p, INSN_JA(0), l_len);

	/* AH: IP6_FH_F_AUTH and target < 0: found here; else r3 =
	 * (hp->hdrlen + 2) << 2 */
	codegen_label_bind(p, l_auth);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R8, IP6WALK_ANY, 0), l_authlen);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, IP6WALK_OFF(auth)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_found);
	codegen_label_bind(p, l_authlen);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, IP6WALK_OFF(buf) + 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
	codegen_emit_jmp(p, INSN_JA(0), l_len);

	/* fragment: r1 = ntohs(frag_off) & ~7; 0 (first fragment): r3 = 8 */
	codegen_label_bind(p, l_frag);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, IP6WALK_OFF(buf) + 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 8));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, IP6WALK_OFF(buf) + 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xfff8));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_later);
	codegen_emit(p, INSN_MOV64_IMM(R3, 8));
	codegen_emit_jmp(p, INSN_JA(0), l_len);
	/* a non-first fragment: target < 0 and hp->nexthdr no extension
	 * header (or NONE): that is the result, at offset 0 (*offset is
	 * not written); else found only if the fragment header is the
	 * target (6.18; older trees return -ENOENT there: measured on this
	 * kernel, tests/dataplane p22+frag counts 'frag frag-off != 0'),
	 * else -ENOENT */
	codegen_label_bind(p, l_later);
	codegen_emit(p, INSN_STX_MEM(BPF_H, R6, R1, IP6WALK_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R8, IP6WALK_ANY, 0), l_fragfound);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, IP6WALK_OFF(buf)));
	emit_if_ext(p, R2, l_fragfound);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, IP6WALK_OFF(nexthdr)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, IP6WALK_OFF(start), 0));
	emit_stop(p, IP6WALK_FOUND);
	codegen_label_bind(p, l_fragfound);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R7, R8, 0), l_found);
	codegen_emit(p, INSN_ST_MEM(BPF_H, R6, IP6WALK_OFF(fragoff), 0));
	codegen_emit_jmp(p, INSN_JA(0), l_enoent);

	/* found (nexthdr == target): this header; else nexthdr =
	 * hp->nexthdr, start += r3, next step */
	codegen_label_bind(p, l_len);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R7, R8, 0), l_found);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, IP6WALK_OFF(buf)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, IP6WALK_OFF(nexthdr)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, IP6WALK_OFF(start)));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, IP6WALK_OFF(start)));
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());

	codegen_label_bind(p, l_found);
	emit_stop(p, IP6WALK_FOUND);
	codegen_label_bind(p, l_enoent);
	emit_stop(p, IP6WALK_ENOENT);
	codegen_label_bind(p, l_bad);
	emit_stop(p, IP6WALK_EBADMSG);
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

void codegen_emit_ipv6_find_hdr(struct codegen_prog *p,
				const struct codegen_env *env, int16_t fp_off,
				uint32_t target, bool auth)
{
	uint32_t l_cb = cb_label(p), l_cnt = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_loop = codegen_label_new(p);

	/* res = -EBADMSG (also if the loop ran out, which it cannot),
	 * auth, fragoff = 0; target */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, fp_off + IP6WALK_OFF(res),
				    IP6WALK_EBADMSG | (auth ? 1 << 8 : 0)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, fp_off + IP6WALK_OFF(target),
				    target));
	/* nexthdr = ipv6_hdr(skb)->nexthdr (byte 6), start = 40; a view
	 * too short for it: -EBADMSG */
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, fp_off + IP6WALK_OFF(buf)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 1));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, fp_off));
	codegen_emit(p, INSN_MOV64_IMM(R4, 6));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R10, fp_off + IP6WALK_OFF(buf)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, fp_off + IP6WALK_OFF(nexthdr)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, fp_off + IP6WALK_OFF(start), 40));
	/* no extension header (most packets): the first step ends the walk
	 * here, without the loop: found if target < 0 or nexthdr == target,
	 * else -ENOENT */
	emit_if_ext(p, R1, l_loop);
	if (target == IP6WALK_ANY) {
		codegen_emit(p, INSN_ST_MEM(BPF_B, R10, fp_off + IP6WALK_OFF(res),
					    IP6WALK_FOUND));
	} else {
		codegen_emit(p, INSN_ST_MEM(BPF_B, R10, fp_off + IP6WALK_OFF(res),
					    IP6WALK_ENOENT));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, target, 0), l_end);
		codegen_emit(p, INSN_ST_MEM(BPF_B, R10, fp_off + IP6WALK_OFF(res),
					    IP6WALK_FOUND));
	}
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_loop);
	/* bpf_loop(min(view length / 8 + 2, BPF_MAX_LOOPS), cb, walk, 0) */
	codegen_emit_view_len(p, env, R1, R2);
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1, LOOPS_MAX, 0), l_cnt);
	codegen_emit(p, INSN_MOV64_IMM(R1, LOOPS_MAX));
	codegen_label_bind(p, l_cnt);
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, fp_off));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* r0 = res */
	codegen_label_bind(p, l_end);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R0, R10, fp_off + IP6WALK_OFF(res)));
}
