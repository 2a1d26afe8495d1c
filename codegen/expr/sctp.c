// SPDX-License-Identifier: GPL-2.0-only
/*
 * sctp.c - exthdr sctp chunks (nft_exthdr.c nft_exthdr_sctp_eval(), get
 * form), emitted for codegen/expr/exthdr.c:
 *
 *	not SCTP (pkt->tprot): not found. Else the chunks after the
 *	12-byte common header, from offset thoff + 12 on: read the
 *	4-byte chunk header {type, flags, be16 length} (past the packet, or
 *	a length of 0: the walk ends, not found); the first chunk of the
 *	type asked for is the one (present: 1; else the walk ends without
 *	a value unless offset + len <= length and the whole chunk is in the
 *	packet, then len bytes at chunk + offset); else on to the next one
 *	at offset + length rounded up to 4, while offset < skb->len.
 *	Not found: present: 0, else NFT_BREAK.
 *
 * This kernel (6.18) walks later fragments too, from the thoff it gives
 * them: an IPv4 one's data after the IP header, an IPv6 one's skb->data
 * (its thoff is 0) (measured: tests/dataplane p26+frag, n11+frag). The
 * offsets are the kernel's, from its skb->data: the packet view, but the
 * link layer header at tc egress (emit_dynptr_data()).
 *
 * The walk is a bpf_loop (one chunk a step). Each step moves at least 4
 * bytes, so LOOP_MAX steps cover any packet (skb->len < 4 * LOOP_MAX);
 * the step that would read past the packet ends the walk, which makes
 * the kernel's "offset < skb->len" test (a 4-byte read at offset fails
 * there too) implicit.
 */
#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/exthdr.h"

#define IPPROTO_SCTP_	132
#define SCTP_HDR_LEN	12
#define LOOP_MAX	(1u << 23)	/* BPF_MAX_LOOPS */

/* the walk's context, the shape frame's [fp-88, fp-56): the packet from
 * the kernel's skb->data (a dynptr, emit_dynptr_data()), then u32 off (the
 * chunk's offset in it), u32 want (the type asked for), u32 clen (the
 * found chunk's length; 0: none), a 4-byte buffer */
#define CTX_OFF		SHAPE_DYNPTR_OFF
#define C_OFF		16
#define C_WANT		20
#define C_CLEN		24
#define C_BUF		28
#define FP(c)		((int16_t)(CTX_OFF + (c)))

static void ret(struct codegen_prog *p, int v)
{
	codegen_emit(p, INSN_MOV64_IMM(R0, v));
	codegen_emit(p, INSN_EXIT());
}

/*
 * bpf_loop callback cb(index, ctx): one chunk. Its header past the packet
 * or a zero length: stop (clen stays 0); the type asked for: clen =
 * length, stop; else off += SCTP_PAD4(length), on
 */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	uint32_t l_stop = codegen_label_new(p), l_next = codegen_label_new(p);

	(void)env;
	(void)arg;
	/* r6 = ctx; bpf_dynptr_read(ctx + C_BUF, 4, ctx, ctx->off, 0) */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, C_BUF));
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, C_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_stop);
	/* r3 = ntohs(length); 0: stop */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R6, C_BUF + 2));
	codegen_emit(p, INSN_TO_BE(R3, 16));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_stop);
	/* if type != want goto next; clen = length; stop */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, C_BUF));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, C_WANT));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_next);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R3, C_CLEN));
	codegen_label_bind(p, l_stop);
	ret(p, 1);
	/* next: off += (length + 3) & ~3 (no u32 wrap: see above) */
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, ~3));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_OFF));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_OFF));
	ret(p, 0);
}

/* the callback's label (one per program) */
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

/*
 * the packet as the kernel's skb->data sees it, a dynptr at fp-88 (r8 =
 * ctx, r6 = st): the packet view, but at tc egress, where the kernel's
 * skb->data is the link layer header, the whole skb
 */
static void emit_dynptr_data(struct codegen_prog *p,
			     const struct codegen_env *env)
{
	if (env->ctx != CODEGEN_CTX_TC_EGRESS) {
		codegen_emit_dynptr(p, env, R8, FP(0));
		return;
	}
	/* bpf_dynptr_from_skb(ctx, 0, fp-88) */
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(0)));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_from_skb));
}

/*
 * r1 = nft_thoff(pkt) in the frame of emit_dynptr_data(): pkt.thoff; at
 * tc egress pkt.thoff + view_off, but for an IPv6 later fragment, whose
 * thoff is the kernel's 0 (skb->data), 0
 */
static void emit_thoff(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_done = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(thoff)));
	if (env->ctx != CODEGEN_CTX_TC_EGRESS)
		return;
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	codegen_label_bind(p, l_done);
}

void codegen_exthdr_sctp_emit(struct codegen_prog *p,
			      const struct expr_exthdr *x,
			      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_absent = codegen_label_new(p), l_end = codegen_label_new(p);
	uint32_t l_cb = cb_label(p);

	/* not SCTP (pkt->tprot): not found */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, IPPROTO_SCTP_, 0), l_absent);
	/* the packet at fp-88; off = thoff + 12, want = type, clen = 0 */
	emit_dynptr_data(p, env);
	emit_thoff(p, env);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SCTP_HDR_LEN));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP(C_OFF)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FP(C_WANT), x->type));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FP(C_CLEN), 0));
	/* bpf_loop(LOOP_MAX, cb, fp-88, 0) */
	codegen_emit(p, INSN_MOV32_IMM(R1, LOOP_MAX));
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(0)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* r1 = clen; 0: not found */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, FP(C_CLEN)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_absent);
	if (x->flags & EXTHDR_F_PRESENT) {
		/* regs[reg] = 1 */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(x->reg), 1));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	} else {
		/* if offset + len > clen: break */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, x->offset + x->len, 0),
				 ec->l_break);
		/* if off + clen > skb->len: break */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10, FP(C_OFF)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, PKT_OFF(len)));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R3, 0), ec->l_break);
		/* r0 = bpf_dynptr_slice(fp-88, off + offset, buf, len), none:
		 * break; regs[reg..] = r0[0, len) */
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, x->offset));
		codegen_emit(p, INSN_MOV64_REG(R1, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, FP(0)));
		codegen_emit(p, INSN_MOV64_REG(R3, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_BUF_OFF));
		codegen_emit(p, INSN_MOV64_IMM(R4, x->len));
		codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_slice));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), ec->l_break);
		codegen_emit_copy_to_reg(p, x->reg, R0, 0, x->len);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	}
	/* not found: present: regs[reg] = 0; else break */
	codegen_label_bind(p, l_absent);
	if (x->flags & EXTHDR_F_PRESENT)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(x->reg), 0));
	else
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}
