// SPDX-License-Identifier: GPL-2.0-only
/*
 * frag6.c - the ip6tables frag match (ip6t_frag.c frag_mt6()):
 *
 *	ipv6_find_hdr(skb, &ptr, NEXTHDR_FRAGMENT, NULL, NULL): -ENOENT:
 *	false, any other error: hotdrop; the 8-byte fragment header at ptr
 *	(past the packet: hotdrop); then id in [ids[0], ids[1]] ^ INV_IDS,
 *	--fragres: reserved == 0 and frag_off & 6 == 0, --fragfirst: offset
 *	0, --fragmore: MF set, --fraglast: MF clear.
 *
 * The kernel ignores --fraglen (hdrlen, IP6T_FRAG_LEN): so does this.
 * struct ip6t_frag { u32 ids[2] @0; u32 hdrlen @8; u8 flags @12,
 * invflags @13 }. ipv6_find_hdr() is a bpf_loop (one extension header
 * a step), with its two failures apart: -ENOENT (a header that is no
 * extension header, or NEXTHDR_NONE) and -EBADMSG (a header past the
 * packet). This kernel (6.18) walks any number of extension headers: a
 * fragment header behind 12 destination options headers is found
 * (measured: tests/dataplane x05; IP6_MAX_EXT_HDRS_CNT came later).
 */
#include "codegen/xt/xt.h"

#define FRAG_RES	0x04
#define FRAG_FST	0x08
#define FRAG_MF		0x10
#define FRAG_NMF	0x20
#define FRAG_INV_IDS	0x01

/* the walk's context, the shape frame's [fp-88, fp): the packet view,
 * then u32 nexthdr, u32 start, u32 result, a 4-byte buffer */
#define CTX_OFF		SHAPE_DYNPTR_OFF
#define C_NH		16
#define C_START		20
#define C_RES		24	/* RES_* */
#define C_BUF		28
#define FP(c)		((int16_t)(CTX_OFF + (c)))
#define RES_NONE	0	/* -ENOENT */
#define RES_FOUND	1
#define RES_BAD		2	/* -EBADMSG */
#define LOOP_MAX	(1u << 20)

enum { NH_HOP = 0, NH_ROUTING = 43, NH_FRAGMENT = 44, NH_AUTH = 51,
       NH_DEST = 60 };

static void frag_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[12] & (FRAG_RES | FRAG_FST | FRAG_MF | FRAG_NMF),
			 x->info[13] & FRAG_INV_IDS };

	codegen_key_put(k, v, sizeof(v));
}

/* r0 = @len bytes at offset r2; past the packet: goto @l_fail */
static void slice(struct codegen_prog *p, const struct codegen_env *env,
		  uint32_t len, uint32_t l_fail)
{
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_slice));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_fail);
}

static void ret(struct codegen_prog *p, int v)
{
	codegen_emit(p, INSN_MOV64_IMM(R0, v));
	codegen_emit(p, INSN_EXIT());
}

/*
 * bpf_loop callback cb(index, ctx): one step of ipv6_find_hdr(): the
 * fragment header is found; a header that is no extension header (or
 * NEXTHDR_NONE): -ENOENT; else read its first 2 bytes (routing: 4), past
 * the packet: -EBADMSG; nexthdr = hp->nexthdr, start += its length
 */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	static const int ext[] = { NH_HOP, NH_ROUTING, NH_AUTH, NH_DEST };
	uint32_t l_ext = codegen_label_new(p), l_two = codegen_label_new(p);
	uint32_t l_bad = codegen_label_new(p), l_auth = codegen_label_new(p);
	uint32_t l_len = codegen_label_new(p);
	uint32_t j;

	(void)env;
	(void)arg;
	/* r6 = ctx; r7 = nexthdr */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R7, R6, C_NH));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH_FRAGMENT, 0), l_ext);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, RES_FOUND));
	ret(p, 1);
	codegen_label_bind(p, l_ext);
	for (j = 0; j < sizeof(ext) / sizeof(ext[0]); j++)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, ext[j], 0), l_two);
	ret(p, 1);	/* RES_NONE */
	/* bpf_dynptr_read(buf, routing ? 4 : 2, view, start, 0) */
	codegen_label_bind(p, l_two);
	codegen_emit(p, INSN_MOV64_IMM(R2, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R7, NH_ROUTING, 0), l_len);
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_label_bind(p, l_len);
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, C_BUF));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, C_START));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_bad);
	/* r3 = options: (hdrlen + 1) << 3, auth: (hdrlen + 2) << 2 */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, C_BUF + 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R7, NH_AUTH, 0), l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 3));
	l_len = codegen_label_new(p);
	codegen_emit_jmp(p, INSN_JA(0), l_len);
	codegen_label_bind(p, l_auth);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
	/* nexthdr = hp->nexthdr; start += r3 */
	codegen_label_bind(p, l_len);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, C_BUF));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_NH));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_START));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_START));
	ret(p, 0);
	codegen_label_bind(p, l_bad);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, RES_BAD));
	ret(p, 1);
}

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

static void frag_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_bad = codegen_label_new(p), l_in = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_cb = cb_label(p);
	uint8_t flags = x->info[12];
	bool inv = x->info[13] & FRAG_INV_IDS;

	/* the packet view; nexthdr = ip6h->nexthdr, start = 40, result
	 * -ENOENT; bpf_loop(LOOP_MAX, cb, fp-88, 0) */
	codegen_emit_dynptr(p, env, R8, FP(0));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	slice(p, env, 8, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 6));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP(C_NH)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FP(C_START), 40));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP(C_RES), RES_NONE));
	codegen_emit(p, INSN_MOV32_IMM(R1, LOOP_MAX));
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(0)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* -ENOENT: false; -EBADMSG: hotdrop; r9 = start */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, FP(C_RES)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, RES_BAD, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, RES_FOUND, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R10, FP(C_START)));
	/* found at r9: ipv6_find_hdr() reads frag_off (2 bytes at +2):
	 * -EBADMSG if it cannot; then frag_mt6() reads the 8-byte header:
	 * hotdrop if it cannot */
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 2));
	slice(p, env, 2, l_bad);
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	slice(p, env, 8, l_bad);
	/* r1 = ntohl(id) in [ids[0], ids[1]] ^ inv */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 4));
	codegen_emit(p, INSN_TO_BE(R1, 32));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), inv ? l_in : ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R2, 0), inv ? l_in : ec->l_break);
	if (inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_in);
	/* r1 = ntohs(frag_off) */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 2));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	if (flags & FRAG_RES) {
		/* reserved byte or frag_off & 6 set: false */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R0, 1));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), ec->l_break);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 0x6, 0), ec->l_break);
	}
	if (flags & FRAG_FST)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 0xfff8, 0), ec->l_break);
	if (flags & FRAG_MF) {
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 1));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), ec->l_break);
	}
	if (flags & FRAG_NMF)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), ec->l_break);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_bad);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_frag6 = {
	.name = "frag", .rev = 0, .family = 10 /* NFPROTO_IPV6 */, .minlen = 14,
	.const_size = 8, .shape = frag_shape, .emit = frag_emit,
};
