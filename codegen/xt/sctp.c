// SPDX-License-Identifier: GPL-2.0-only
/*
 * sctp.c - xt match sctp (xt_sctp.c sctp_mt()), revision 0:
 *
 *	struct xt_sctp_info { u16 dpts[2] @0, spts[2] @4; u32 chunkmap[64]
 *	@8; u32 chunk_match_type @264; { u8 chunktype, flag, flag_mask }
 *	flag_info[4] @268; int flag_count @280; u32 flags @284, invflags
 *	@288 }
 *
 *	a non-first fragment: false; the 12-byte SCTP common header past
 *	the packet: hotdrop; then, in this order and each ^ its inversion,
 *	the source and destination port ranges and the chunk walk
 *	(match_packet()): from thoff + 12, do { the 4-byte chunk header
 *	past the packet or a zero length: hotdrop; offset += SCTP_PAD4(len);
 *	type in chunkmap: ANY: its flags match: true; ALL: its flags match:
 *	clear it in a copy of the map; ONLY: flags don't match: false; type
 *	not in chunkmap: ONLY: false } while (offset < skb->len); then ALL:
 *	the copy is clear, ANY: false, ONLY: true. The flags of a type
 *	match unless the first of flag_info[0, flag_count) with that
 *	chunktype says (flags & flag_mask) != flag.
 *
 * The walk is a bpf_loop (one chunk a step, each step at least 4 bytes,
 * so BPF_MAX_LOOPS steps cover any packet), its context on the shape
 * frame's stack from its dynptr slot on: [fp-88, fp-16), over the key
 * slot and the buffer (the ports are read by then). Offsets are the
 * kernel's from its skb->data, as codegen/expr/sctp.c's walk.
 *
 * Refused: chunk_match_type other than one of ANY, ALL, ONLY with
 * --chunk-types, a flag_count outside [0, 4] (iptables sets neither).
 */
#include <errno.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define SCTP_SRC_PORTS		0x01
#define SCTP_DEST_PORTS		0x02
#define SCTP_CHUNK_TYPES	0x04
#define MATCH_ANY		0x01
#define MATCH_ALL		0x02
#define MATCH_ONLY		0x04
#define LOOP_MAX		(1u << 23)	/* BPF_MAX_LOOPS */

/* the info's fields */
#define I_MAP		8
#define I_TYPE		264
#define I_FLAGINFO	268
#define I_FLAGCOUNT	280
#define I_FLAGS		284
#define I_INVFLAGS	288
#define I_SIZE		292

/* the constants: ports [0, 8), chunkmap bits 0-255 [8, 40), flag_info
 * [40, 52) */
#define K_MAP		8
#define K_FLAGINFO	40
#define K_SIZE		52

/* the walk's context at fp-88: dynptr [0, 16), u64 consts pointer @16,
 * u32 off @24, u32 len @28 (skb->len), 4-byte buffer @32, u32 res @36
 * (ANY/ONLY: the result, 2: hotdrop), ALL's copy of the map @40 (4 u64) */
#define CTX_OFF		SHAPE_DYNPTR_OFF
#define C_K		16
#define C_OFF		24
#define C_LEN		28
#define C_BUF		32
#define C_RES		36
#define C_COPY		40
#define FP(c)		((int16_t)(CTX_OFF + (c)))

static uint32_t u32_at(const struct expr_xt *x, uint32_t off)
{
	uint32_t v;

	memcpy(&v, x->info + off, 4);
	return v;
}

static int sctp_check(const struct expr_xt *x, struct dp_error *err)
{
	uint32_t t = u32_at(x, I_TYPE);
	int32_t fc = (int32_t)u32_at(x, I_FLAGCOUNT);

	if ((u32_at(x, I_FLAGS) & SCTP_CHUNK_TYPES) &&
	    t != MATCH_ANY && t != MATCH_ALL && t != MATCH_ONLY) {
		err->msg = "xt match 'sctp' with a chunk_match_type other than any, all or only is not supported by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	if (fc < 0 || fc > 4) {
		err->msg = "xt match 'sctp' with a flag_count outside 0-4 is not supported by the nfbpf dataplane";
		return -EOPNOTSUPP;
	}
	return 0;
}

/* ALL can never clear chunkmap bits above 255: false after the walk */
static bool high_bits(const struct expr_xt *x)
{
	uint32_t i;

	for (i = 8; i < 64; i++)
		if (u32_at(x, I_MAP + 4 * i))
			return true;
	return false;
}

/* the callback's shape: match type, flag_count */
static uintptr_t cb_arg(const struct expr_xt *x)
{
	return (uintptr_t)(u32_at(x, I_TYPE) << 8 | u32_at(x, I_FLAGCOUNT));
}

static void sctp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint32_t f = u32_at(x, I_FLAGS) & 7;
	uint8_t v[5] = { f, u32_at(x, I_INVFLAGS) & f, 0, 0, 0 };

	if (f & SCTP_CHUNK_TYPES) {
		v[2] = u32_at(x, I_TYPE);
		v[3] = u32_at(x, I_FLAGCOUNT);
		v[4] = high_bits(x);
	}
	codegen_key_put(k, v, sizeof(v));
}

static uint32_t sctp_const_size(const struct expr_xt *x)
{
	(void)x;
	return K_SIZE;
}

static void sctp_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst, x->info, 8);
	memcpy(dst + K_MAP, x->info + I_MAP, 32);
	memcpy(dst + K_FLAGINFO, x->info + I_FLAGINFO, 12);
}

static void ret(struct codegen_prog *p, int v)
{
	codegen_emit(p, INSN_MOV64_IMM(R0, v));
	codegen_emit(p, INSN_EXIT());
}

/*
 * bpf_loop callback cb(index, ctx): one chunk (r6 = ctx, r9 = consts,
 * r4 = type, r5 = flags)
 */
static void emit_cb(struct codegen_prog *p, const struct codegen_env *env,
		    const void *arg)
{
	uint32_t mt = (uint32_t)((uintptr_t)arg >> 8);
	uint32_t fc = (uint32_t)((uintptr_t)arg & 0xff), i;
	uint32_t l_drop = codegen_label_new(p), l_cont = codegen_label_new(p);
	uint32_t l_in = codegen_label_new(p), l_mf = codegen_label_new(p);
	uint32_t l_nomf = codegen_label_new(p), l_end = codegen_label_new(p);

	(void)env;
	/* r6 = ctx; bpf_dynptr_read(ctx + C_BUF, 4, ctx, ctx->off, 0) */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, C_BUF));
	codegen_emit(p, INSN_MOV64_IMM(R2, 4));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R6, C_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_drop);
	/* r3 = ntohs(length); 0: hotdrop; off += SCTP_PAD4(length) */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R6, C_BUF + 2));
	codegen_emit(p, INSN_TO_BE(R3, 16));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_drop);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, ~3));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_OFF));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, C_OFF));
	/* r4 = type, r5 = flags, r9 = consts */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R6, C_BUF));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R6, C_BUF + 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, C_K));
	/* r2 = chunkmap byte type >> 3 >> (type & 7) & 1 */
	codegen_emit(p, INSN_MOV64_REG(R1, R4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R9));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R1, K_MAP));
	codegen_emit(p, INSN_MOV64_REG(R1, R4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 7));
	codegen_emit(p, INSN_ALU64_REG(BPF_RSH, R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_in);
	/* not in the map: ONLY: false (res = 0) */
	if (mt == MATCH_ONLY) {
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, 0));
		ret(p, 1);
	} else {
		codegen_emit_jmp(p, INSN_JA(0), l_cont);
	}
	/* in the map: match_flags(): the first flag_info of this type */
	codegen_label_bind(p, l_in);
	for (i = 0; i < fc; i++) {
		uint32_t l_other = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, K_FLAGINFO + 3 * i));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R4, 0), l_other);
		/* (flags & mask) == flag */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, K_FLAGINFO + 3 * i + 2));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R5));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R9, K_FLAGINFO + 3 * i + 1));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, R1, R2, 0), l_mf);
		codegen_emit_jmp(p, INSN_JA(0), l_nomf);
		codegen_label_bind(p, l_other);
	}
	codegen_label_bind(p, l_mf);
	switch (mt) {
	case MATCH_ANY:
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, 1));
		ret(p, 1);
		break;
	case MATCH_ALL: {
		/* copy[type >> 6] &= ~(1 << (type & 63)) */
		uint32_t w;

		codegen_emit(p, INSN_MOV64_REG(R1, R4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 63));
		codegen_emit(p, INSN_MOV64_IMM(R2, 1));
		codegen_emit(p, INSN_ALU64_REG(BPF_LSH, R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R2, -1));
		codegen_emit(p, INSN_MOV64_REG(R1, R4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 6));
		for (w = 0; w < 4; w++) {
			uint32_t l_nw = codegen_label_new(p);

			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, w, 0), l_nw);
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, C_COPY + 8 * w));
			codegen_emit(p, INSN_ALU64_REG(BPF_AND, R3, R2));
			codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R3, C_COPY + 8 * w));
			codegen_label_bind(p, l_nw);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_cont);
		break;
	}
	default:
		codegen_emit_jmp(p, INSN_JA(0), l_cont);
		break;
	}
	codegen_label_bind(p, l_nomf);
	/* (only reached from a flag_info entry) */
	if (mt == MATCH_ONLY && fc) {
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, 0));
		ret(p, 1);
	}
	/* while (off < len) */
	codegen_label_bind(p, l_cont);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, C_OFF));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, C_LEN));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R1, R2, 0), l_end);
	ret(p, 0);
	codegen_label_bind(p, l_end);
	ret(p, 1);
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, C_RES, 2));
	ret(p, 1);
}

/* the callback's label for @arg (one per shape in a program) */
static uint32_t cb_label(struct codegen_prog *p, uintptr_t arg)
{
	uint32_t i, l;

	for (i = 0; i < p->ndeferred; i++)
		if (p->deferred[i].emit == emit_cb &&
		    (uintptr_t)p->deferred[i].arg == arg)
			return p->deferred[i].label;
	l = codegen_label_new(p);
	codegen_defer_func(p, l, emit_cb, (const void *)arg);
	return l;
}

static void sctp_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t f = u32_at(x, I_FLAGS), inv = u32_at(x, I_INVFLAGS);
	uint32_t mt = u32_at(x, I_TYPE), w, l_cb, l_eg;

	/* fragoff != 0: false; the common header or hotdrop */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	codegen_xt_emit_th(p, ec, 12);
	codegen_emit(p, INSN_MOV64_REG(R4, R0));
	if (f & SCTP_SRC_PORTS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 0));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 4, inv & SCTP_SRC_PORTS);
	}
	if (f & SCTP_DEST_PORTS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 2));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase, inv & SCTP_DEST_PORTS);
	}
	if (!(f & SCTP_CHUNK_TYPES))
		return;
	l_cb = cb_label(p, cb_arg(x));
	/* the packet as the kernel's skb->data (tc egress: the whole skb) */
	if (env->ctx != CODEGEN_CTX_TC_EGRESS) {
		codegen_emit_dynptr(p, env, R8, FP(0));
	} else {
		codegen_emit(p, INSN_MOV64_REG(R1, R8));
		codegen_emit(p, INSN_MOV64_IMM(R2, 0));
		codegen_emit(p, INSN_MOV64_REG(R3, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(0)));
		codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_from_skb));
	}
	/* off = thoff (+ view_off at tc egress) + 12, len = skb->len */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(thoff)));
	if (env->ctx == CODEGEN_CTX_TC_EGRESS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	}
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, 12));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP(C_OFF)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, FP(C_LEN)));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FP(C_RES), mt == MATCH_ONLY));
	codegen_emit(p, INSN_MOV64_REG(R1, R7));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP(C_K)));
	if (mt == MATCH_ALL)
		for (w = 0; w < 4; w++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7,
						     ec->cbase + K_MAP + 8 * w));
			codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, FP(C_COPY + 8 * w)));
		}
	/* bpf_loop(LOOP_MAX, cb, fp-88, 0) */
	codegen_emit(p, INSN_MOV32_IMM(R1, LOOP_MAX));
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, FP(0)));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	/* res 2: hotdrop */
	l_eg = codegen_label_new(p);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, FP(C_RES)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 2, 0), l_eg);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_eg);
	if (mt == MATCH_ALL) {
		/* res = the copy is clear (and no bits above 255) */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP(C_COPY)));
		for (w = 1; w < 4; w++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R10, FP(C_COPY + 8 * w)));
			codegen_emit(p, INSN_ALU64_REG(BPF_OR, R2, R3));
		}
		codegen_emit(p, INSN_MOV64_IMM(R1, !high_bits(x)));
		l_eg = codegen_label_new(p);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_eg);
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_label_bind(p, l_eg);
	}
	/* res ^ inv false: break */
	codegen_emit_jmp(p, INSN_JMP_IMM((inv & SCTP_CHUNK_TYPES) ? BPF_JNE : BPF_JEQ,
					 R1, 0, 0), ec->l_break);
}

const struct codegen_xt_ops codegen_xt_sctp = {
	.name = "sctp", .rev = 0, .minlen = I_SIZE, .check = sctp_check,
	.const_size_of = sctp_const_size, .consts = sctp_consts,
	.shape = sctp_shape, .emit = sctp_emit,
};
