// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcpext.c - matches on TCP header bits and options, the IP ECN field and
 * the DCCP header: ecn (xt_ecn.c ecn_mt4/ecn_mt6), tcpmss (xt_tcpmss.c
 * tcpmss_mt) and dccp (xt_dccp.c dccp_mt). ecn and tcpmss read the TCP
 * header at par->thoff as the kernel does, whatever the fragment offset
 * (the rule's -p tcp is all they ask).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV6_		10
#define TCPOPT_MSS		2
#define TCPOLEN_MSS		4
#define TCP_OPT_MAX		40	/* 15 * 4 - sizeof(struct tcphdr) */
#define OPTLEN_OFF		SHAPE_KEY_OFF	/* a u64 stack slot of our own */

/*
 * ecn: struct xt_ecn_info { u8 operation @0, invert @1, ip_ect @2 }:
 * --ecn-ip-ect: ((tos or traffic class) & 3) == ip_ect ^ inverted;
 * --ecn-tcp-ece / --ecn-tcp-cwr: the TCP flag set (unset if inverted); a
 * TCP header past the packet: false
 */
#define ECN_OP_IP		0x01	/* XT_ECN_OP_MATCH_IP */
#define ECN_OP_ECE		0x10
#define ECN_OP_CWR		0x20
#define TCP_FLAG_ECE		0x40	/* th[13] */
#define TCP_FLAG_CWR		0x80

static void ecn_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { x->info[0], x->info[1] & x->info[0] };

	codegen_key_put(k, v, 2);
}

static void ecn_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	uint8_t op = x->info[0], inv = x->info[1];
	bool v6 = x->family == NFPROTO_IPV6_;

	if (op & ECN_OP_IP) {
		/* r1 = ECN bits of the network header; (r1 == ip_ect) ^ inv */
		codegen_emit(p, INSN_MOV64_IMM(R2, 0));
		codegen_emit_slice(p, ec->env, 2, ec->l_break);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 1));
		if (v6)
			codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 3));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + 2));
		codegen_emit_jmp(p, INSN_JMP_REG((inv & ECN_OP_IP) ? BPF_JEQ : BPF_JNE,
						 R1, R2, 0), ec->l_break);
	}
	if (!(op & (ECN_OP_ECE | ECN_OP_CWR)))
		return;
	/* r1 = th[13] (a short header: false) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit_slice(p, ec->env, 20, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 13));
	if (op & ECN_OP_ECE) {
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, TCP_FLAG_ECE));
		codegen_emit_jmp(p, INSN_JMP_IMM((inv & ECN_OP_ECE) ? BPF_JNE : BPF_JEQ,
						 R2, 0, 0), ec->l_break);
	}
	if (op & ECN_OP_CWR) {
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, TCP_FLAG_CWR));
		codegen_emit_jmp(p, INSN_JMP_IMM((inv & ECN_OP_CWR) ? BPF_JNE : BPF_JEQ,
						 R1, 0, 0), ec->l_break);
	}
}

const struct codegen_xt_ops codegen_xt_ecn4 = {
	.name = "ecn", .rev = 0, .family = 2, .minlen = 3, .const_size = 4,
	.shape = ecn_shape, .emit = ecn_emit,
};

const struct codegen_xt_ops codegen_xt_ecn6 = {
	.name = "ecn", .rev = 0, .family = NFPROTO_IPV6_, .minlen = 3,
	.const_size = 4, .shape = ecn_shape, .emit = ecn_emit,
};

/*
 * tcpmss: struct xt_tcpmss_match_info { u16 mss_min @0, mss_max @2; u8
 * invert @4 }: the first option of kind MSS, length 4, that fits in the
 * options: (mss in [min, max]) ^ invert; none: invert. A header shorter
 * than 20 bytes, doff < 5 or options past the packet: hotdrop. The walk
 * takes one byte for EOL and NOP, else the option's length (0 read as
 * 1): at most 40 steps, unrolled; i in r9, optlen on the stack.
 */
static void tcpmss_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = x->info[4] != 0;

	codegen_key_put(k, &inv, 1);
}

/* r0 = @len bytes at thoff + 20 + r9 of the dynptr; none: goto @l_fail */
static void emit_opt_slice(struct codegen_prog *p, const struct codegen_env *env,
			   uint32_t len, uint32_t l_fail)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 20));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R9));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_slice));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_fail);
}

static void tcpmss_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	bool inv = x->info[4] != 0;
	uint32_t l_drop = codegen_label_new(p), l_out = codegen_label_new(p);
	uint32_t l_found = codegen_label_new(p), l_end = codegen_label_new(p);
	int i;

	/* r1 = doff * 4, >= 20, else hotdrop (as the header past the packet) */
	codegen_xt_emit_th(p, ec, 20);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 12));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 20, 0), l_drop);
	/* optlen = r1 - 20; none: invert */
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 20));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_out);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, OPTLEN_OFF));
	/* thoff + 20 + optlen past the packet: hotdrop */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 20));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R1));
	codegen_emit_view_len(p, env, R3, R4);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_drop);
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	codegen_emit(p, INSN_MOV64_IMM(R9, 0));
	for (i = 0; i < TCP_OPT_MAX; i++) {
		/* i + 1 >= optlen: no MSS option starts here, and the step
		 * past it ends the walk */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, OPTLEN_OFF));
		codegen_emit(p, INSN_MOV64_REG(R3, R9));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, 1));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R3, R1, 0), l_out);
		/* r1 = op[i]; r2 = op[i + 1] */
		emit_opt_slice(p, env, 2, l_out);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R0, 1));
		/* MSS, length 4, optlen - i >= 4: found */
		codegen_emit(p, INSN_JMP_IMM(BPF_JNE, R1, TCPOPT_MSS, 5));
		codegen_emit(p, INSN_JMP_IMM(BPF_JNE, R2, TCPOLEN_MSS, 4));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R10, OPTLEN_OFF));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R3, R9));
		codegen_emit(p, INSN_JMP_IMM(BPF_JLT, R3, TCPOLEN_MSS, 1));
		codegen_emit_jmp(p, INSN_JA(0), l_found);
		/* i += op[i] < 2 ? 1 : op[i + 1] ?: 1 */
		codegen_emit(p, INSN_JMP_IMM(BPF_JGE, R1, 2, 1));
		codegen_emit(p, INSN_MOV64_IMM(R2, 1));
		codegen_emit(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 1));
		codegen_emit(p, INSN_MOV64_IMM(R2, 1));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R2));
	}
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	/* found: r1 = ntohs(mss); (r1 in [min, max]) ^ invert */
	codegen_label_bind(p, l_found);
	emit_opt_slice(p, env, TCPOLEN_MSS, l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R0, 2));
	codegen_emit(p, INSN_TO_BE(R1, 16));
	codegen_xt_emit_port_range(p, ec, ec->cbase, inv);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	/* no MSS option: invert */
	codegen_label_bind(p, l_out);
	if (!inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_tcpmss = {
	.name = "tcpmss", .rev = 0, .minlen = 5, .const_size = 4,
	.shape = tcpmss_shape, .emit = tcpmss_emit,
};

/*
 * dccp: struct xt_dccp_info { u16 dpts[2] @0, spts[2] @4; u16 flags @8,
 * invflags @10; u16 typemask @12; u8 option @14 }: a non-first fragment:
 * false; a DCCP header (12 bytes) past the packet: hotdrop; then each
 * test asked for, ^ its inversion: source and destination port ranges,
 * typemask & (1 << dccph_type) (bits 1-4 of byte 8). --dccp-option walks
 * up to 1020 option bytes: refused.
 */
#define DCCP_SRC_PORTS		0x01
#define DCCP_DEST_PORTS		0x02
#define DCCP_TYPE		0x04
#define DCCP_OPTION		0x08

static uint16_t dccp_u16(const struct expr_xt *x, uint32_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

static int dccp_check(const struct expr_xt *x, struct dp_error *err)
{
	if (!(dccp_u16(x, 8) & DCCP_OPTION))
		return 0;
	err->msg = "xt match 'dccp' with --dccp-option is not supported by the nfbpf dataplane yet";
	return -EOPNOTSUPP;
}

static void dccp_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { dccp_u16(x, 8) & 7, dccp_u16(x, 10) & dccp_u16(x, 8) & 7 };

	codegen_key_put(k, v, 2);
}

static void dccp_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	uint16_t f = dccp_u16(x, 8), inv = dccp_u16(x, 10);

	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), ec->l_break);
	codegen_xt_emit_th(p, ec, 12);
	codegen_emit(p, INSN_MOV64_REG(R4, R0));
	if (f & DCCP_SRC_PORTS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 0));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase + 4, inv & DCCP_SRC_PORTS);
	}
	if (f & DCCP_DEST_PORTS) {
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R4, 2));
		codegen_emit(p, INSN_TO_BE(R1, 16));
		codegen_xt_emit_port_range(p, ec, ec->cbase, inv & DCCP_DEST_PORTS);
	}
	if (f & DCCP_TYPE) {
		/* r3 = typemask & (1 << type) */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R4, 8));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 15));
		codegen_emit(p, INSN_MOV64_IMM(R2, 1));
		codegen_emit(p, INSN_ALU64_REG(BPF_LSH, R2, R1));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R3, R7, ec->cbase + 12));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R3, R2));
		codegen_emit_jmp(p, INSN_JMP_IMM((inv & DCCP_TYPE) ? BPF_JNE : BPF_JEQ,
						 R3, 0, 0), ec->l_break);
	}
}

const struct codegen_xt_ops codegen_xt_dccp = {
	.name = "dccp", .rev = 0, .minlen = 15, .check = dccp_check,
	.const_size = 16, .shape = dccp_shape, .emit = dccp_emit,
};
