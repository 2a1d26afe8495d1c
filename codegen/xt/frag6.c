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
 * invflags @13 }. ipv6_find_hdr() is the shared walk over any number of
 * extension headers (codegen/ipv6.c), with its two failures apart:
 * -ENOENT (a header that is no extension header, or NEXTHDR_NONE) and
 * -EBADMSG (a header past the packet). A fragment header behind 12
 * destination options headers is found (measured: tests/dataplane x05).
 */
#include "codegen/xt/xt.h"

#define FRAG_RES	0x04
#define FRAG_FST	0x08
#define FRAG_MF		0x10
#define FRAG_NMF	0x20
#define FRAG_INV_IDS	0x01
#define NH_FRAGMENT	44	/* NEXTHDR_FRAGMENT */

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

static void frag_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_bad = codegen_label_new(p), l_in = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);
	uint8_t flags = x->info[12];
	bool inv = x->info[13] & FRAG_INV_IDS;

	/* the packet view; r0 = ipv6_find_hdr(NEXTHDR_FRAGMENT) (it has
	 * read frag_off); -ENOENT: false; -EBADMSG: hotdrop; r9 = ptr */
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	codegen_emit_ipv6_find_hdr(p, env, SHAPE_DYNPTR_OFF, NH_FRAGMENT, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, IP6WALK_EBADMSG, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R9, R10,
				     SHAPE_DYNPTR_OFF + IP6WALK_OFF(start)));
	/* frag_mt6() reads the 8-byte header at ptr: hotdrop if it cannot */
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
