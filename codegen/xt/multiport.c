// SPDX-License-Identifier: GPL-2.0-only
/*
 * multiport.c - the multiport match, revision 1 (net/netfilter/
 * xt_multiport.c: multiport_mt, ports_match_v1). struct xt_multiport_v1:
 * u8 flags @0, u8 count @1, u16 ports[15] @2, u8 pflags[15] @32,
 * u8 invert @47. The port list is unrolled from the shape (flags, count,
 * pflags, invert); the ports themselves are constants. A range starting
 * at the last slot reads ports[15], the two bytes after the array, as the
 * kernel does: the constants are the info bytes, so it reads the same.
 */
#include "codegen/xt/xt.h"

#define MP_SOURCE	0
#define MP_DESTINATION	1
#define MP_EITHER	2
#define MP_PORTS	15

static void multiport_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[0], 2);	/* flags, count */
	codegen_key_put(k, &x->info[32], MP_PORTS + 1);	/* pflags, invert */
}

/* if r1 in [r2, r3] goto @l_hit (r3 == r2 for a single port) */
static void emit_in(struct codegen_prog *p, int port, bool range, uint32_t l_hit)
{
	uint32_t l_no = codegen_label_new(p);

	if (!range) {
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JEQ, port, R2, 0), l_hit);
		return;
	}
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, port, R2, 0), l_no);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, port, R3, 0), l_hit);
	codegen_label_bind(p, l_no);
}

static void multiport_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	uint8_t flags = x->info[0], count = x->info[1], invert = x->info[47];
	uint32_t l_hit = codegen_label_new(p), l_first = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), i;

	/* if pkt.fragoff != 0 return false */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_first);
	codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_first);
	/* r4 = ntohs(ports[0]) (source); r5 = ntohs(ports[1]) (dest) */
	codegen_xt_emit_th(p, ec, 4);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R4, R0, 0));
	codegen_emit(p, INSN_TO_BE(R4, 16));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R5, R0, 2));
	codegen_emit(p, INSN_TO_BE(R5, 16));
	for (i = 0; i < count && i < MP_PORTS; i++) {
		bool range = x->info[32 + i];

		/* r2 = s = ports[i]; r3 = e = ports[++i] for a range */
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R7, ec->cbase + 2 + 2 * i));
		if (range) {
			i++;
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R7,
						     ec->cbase + 2 + 2 * i));
		}
		switch (flags) {
		case MP_SOURCE:
			emit_in(p, R4, range, l_hit);
			break;
		case MP_DESTINATION:
			emit_in(p, R5, range, l_hit);
			break;
		case MP_EITHER:
			emit_in(p, R5, range, l_hit);
			emit_in(p, R4, range, l_hit);
			break;
		}
	}
	/* no port: return invert; a port: return true ^ invert */
	codegen_emit_jmp(p, INSN_JA(0), invert ? l_end : ec->l_break);
	codegen_label_bind(p, l_hit);
	if (invert)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_multiport = {
	.name = "multiport", .rev = 1, .minlen = 48,
	.const_size = 48, .shape = multiport_shape, .emit = multiport_emit,
};
