// SPDX-License-Identifier: GPL-2.0-only
/*
 * exthdr.c - IPv6 extension headers, TCP and IPv4 options (nft_exthdr.c,
 * get forms). The IPv6 walk is ipv6_find_hdr()'s, a bpf_loop over any
 * number of extension headers (codegen/ipv6.c). The TCP walk is unrolled
 * to the kernel's own bound: a TCP header holds at most 40 option bytes,
 * so at most 39 options start below tcphdr_len - 1. The IPv4 option walk
 * (ipv4_find_option(), which runs __ip_options_compile() without an skb)
 * is a bounded loop of at most 40 steps whose state lives in st->scratch,
 * memory the verifier does not track, so its paths meet at the loop head.
 * Type, offset, length and flags are part of the shape.
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/exthdr.h"

#define ETH_P_IPV6_LE	0xdd86	/* htons(ETH_P_IPV6) as a loaded u16 */
#define TCPOPT_STEPS	39
#define HDRLEN_OFF	SHAPE_KEY_OFF	/* a u64 stack slot of our own */

static int exthdr_check(const struct expr *e, struct dp_error *err)
{
	static const char *const ops[] = { "ip6", "tcp option", "ip option",
					   "sctp chunk", "dccp option" };
	const struct expr_exthdr *x = expr_priv(e);

	if (x->form != EXTHDR_GET ||
	    (x->op != EXTHDR_OP_IPV6 && x->op != EXTHDR_OP_TCPOPT &&
	     x->op != EXTHDR_OP_IPV4 && x->op != EXTHDR_OP_SCTP)) {
		snprintf(err->buf, sizeof(err->buf),
			 "exthdr %s%s is not supported by the nfbpf dataplane yet",
			 x->op < 5 ? ops[x->op] : "?",
			 x->form == EXTHDR_SET ? " set" :
			 x->form == EXTHDR_STRIP ? " reset" : "");
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(x->reg, x->len) || x->len > 64) {
		err->msg = "exthdr: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t exthdr_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void exthdr_shape(const struct expr *e, struct codegen_key *k)
{
	codegen_key_put(k, expr_priv(e), sizeof(struct expr_exthdr));
}

static void exthdr_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* the packet view as a dynptr (r8 = ctx, r6 = st) */
static void emit_dynptr(struct codegen_prog *p, const struct codegen_env *env)
{
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
}

/* r0 = bpf_dynptr_slice(&dynptr, r2, buf, @len); if !r0 goto @l_fail */
static void emit_slice(struct codegen_prog *p, const struct codegen_env *env,
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

/*
 * found at packet offset r2 (computed by the caller):
 * present: regs[reg] = 1; else copy len bytes from r2 + offset, a read
 * past the packet breaks (skb_copy_bits)
 */
static void emit_found(struct codegen_prog *p, const struct expr_exthdr *x,
		       const struct codegen_expr_ctx *ec, uint32_t l_end)
{
	if (x->flags & EXTHDR_F_PRESENT) {
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(x->reg), 1));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		return;
	}
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, x->offset));
	emit_slice(p, ec->env, x->len, ec->l_break);
	codegen_emit_copy_to_reg(p, x->reg, R0, 0, x->len);
	codegen_emit_jmp(p, INSN_JA(0), l_end);
}

/* not found: present: regs[reg] = 0; else break */
static void emit_absent(struct codegen_prog *p, const struct expr_exthdr *x,
			const struct codegen_expr_ctx *ec)
{
	if (x->flags & EXTHDR_F_PRESENT)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(x->reg), 0));
	else
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
}

/*
 * nft_exthdr_ipv6_eval(): ipv6_find_hdr(skb, &offset = 0, type, NULL,
 * NULL) over any number of extension headers
 * (codegen_emit_ipv6_find_hdr()); an error: absent
 */
static void emit_ipv6(struct codegen_prog *p, const struct expr_exthdr *x,
		      const struct codegen_expr_ctx *ec)
{
	uint32_t l_absent = codegen_label_new(p), l_end = codegen_label_new(p);
	const struct codegen_env *env = ec->env;

	/* not IPv6 (skb->protocol): break, even for "exists" */
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ETH_P_IPV6_LE, 0), ec->l_break);
	emit_dynptr(p, env);
	/* r0 = ipv6_find_hdr(); found: r2 = its offset */
	codegen_emit_ipv6_find_hdr(p, env, SHAPE_DYNPTR_OFF, x->type, false);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, IP6WALK_FOUND, 0), l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R10,
				     SHAPE_DYNPTR_OFF + IP6WALK_OFF(start)));
	emit_found(p, x, ec, l_end);
	codegen_label_bind(p, l_absent);
	emit_absent(p, x, ec);
	codegen_label_bind(p, l_end);
}

/*
 * nft_exthdr_tcp_eval: the TCP header of tcphdr_len bytes (HDRLEN_OFF),
 * r9 = i = option offset in it, optl computed without branches
 */
static void emit_tcpopt(struct codegen_prog *p, const struct expr_exthdr *x,
			const struct codegen_expr_ctx *ec)
{
	uint32_t l_found = codegen_label_new(p), l_absent = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);
	const struct codegen_env *env = ec->env;
	int i;

	/* not TCP, or a non-first fragment: absent */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 6, 0), l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_absent);
	emit_dynptr(p, env);
	/* tcph = slice(thoff, 20); tcphdr_len = doff * 4, >= 20 */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	emit_slice(p, env, 20, l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 12));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, 20, 0), l_absent);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, HDRLEN_OFF));
	/* the whole header must be in the packet: thoff + len <= skb->len */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R1));
	codegen_emit_view_len(p, env, R3, R4);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R3, 0), l_absent);
	codegen_emit(p, INSN_MOV64_IMM(R9, 20));
	for (i = 0; i < TCPOPT_STEPS; i++) {
		/* if i >= tcphdr_len - 1: not found */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, HDRLEN_OFF));
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 1));
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R9, R1, 0), l_absent);
		/* r0 = opt + i (two bytes) */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R9));
		emit_slice(p, env, 2, l_absent);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R0, 1));
		/* optl (r2) = opt[i] <= NOP || opt[i + 1] == 0 ? 1 : opt[i + 1]:
		 * r3 = -((opt[i] < 2) | (opt[i + 1] == 0)); r2 ^= (r2 ^ 1) & r3 */
		codegen_emit(p, INSN_MOV64_REG(R3, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R3, 2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R3, 63));
		codegen_emit(p, INSN_MOV64_REG(R4, R2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R4, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R4, 63));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R3, R4));
		codegen_emit(p, INSN_ALU64_IMM(BPF_NEG, R3, 0));
		codegen_emit(p, INSN_MOV64_REG(R4, R2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R4, 1));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R4, R3));
		codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R2, R4));
		/* if opt[i] == type goto found; i += optl */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, x->type, 0), l_found);
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R2));
	}
	codegen_emit_jmp(p, INSN_JA(0), l_absent);
	/* found: i + optl <= tcphdr_len and offset + len <= optl, else absent */
	codegen_label_bind(p, l_found);
	codegen_emit(p, INSN_MOV64_REG(R3, R9));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R10, HDRLEN_OFF));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R3, R4, 0), l_absent);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, x->len + x->offset, 0), l_absent);
	/* r2 = thoff + i */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R9));
	emit_found(p, x, ec, l_end);
	codegen_label_bind(p, l_absent);
	emit_absent(p, x, ec);
	codegen_label_bind(p, l_end);
}

/* IPv4 option types and timestamp flags (uapi linux/ip.h) */
#define IPOPT_RR_	7
#define IPOPT_TS_	68
#define IPOPT_LSRR_	131
#define IPOPT_CIPSO_	134
#define IPOPT_SSRR_	137
#define IPOPT_RA_	148
#define TS_TSANDADDR	1
#define TS_PRESPEC	3
#define ETH_P_IP_LE	0x0008	/* htons(ETH_P_IP) as a loaded u16 */
#define IPOPT_STEPS	40	/* each step takes one of at most 40 bytes */

/* the walk's state in st->scratch: plain memory, so what the verifier
 * loads from it is unknown and the paths of a step meet at the loop head */
#define OW_POS		((int16_t)(ST_OFF(scratch) + 0))	/* u8 p */
#define OW_SEEN		((int16_t)(ST_OFF(scratch) + 1))	/* u8 SEEN_* */
#define OW_FOUND	((int16_t)(ST_OFF(scratch) + 2))	/* u8, 0: none */
#define OW_OPTLEN	((int16_t)(ST_OFF(scratch) + 3))	/* u8 */
#define SEEN_SRR	1
#define SEEN_RR		2
#define SEEN_TS		4

/* is @type one ipv4_find_option() looks for (else -EOPNOTSUPP)? */
static bool ipopt_target(uint8_t type)
{
	return type == IPOPT_SSRR_ || type == IPOPT_LSRR_ ||
	       type == IPOPT_RR_ || type == IPOPT_RA_;
}

/*
 * the bytes from the kernel's skb->data at this hook: the packet view,
 * but at tc egress, where the kernel's skb->data is the link layer header
 * (nft_exthdr_ipv4_eval() reads the IPv4 header at offset 0 of it)
 */
static void emit_dynptr_data(struct codegen_prog *p,
			     const struct codegen_env *env)
{
	if (env->ctx != CODEGEN_CTX_TC_EGRESS) {
		emit_dynptr(p, env);
		return;
	}
	/* bpf_dynptr_from_skb(ctx, 0, fp + SHAPE_DYNPTR_OFF) */
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_from_skb));
}

/* seen |= @bit, and if it was set already goto @l_bad (r2, r5 clobbered) */
static void emit_once(struct codegen_prog *p, int bit, uint32_t l_bad)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, OW_SEEN));
	codegen_emit(p, INSN_MOV64_REG(R5, R2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R5, bit));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R5, 0, 0), l_bad);
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R2, bit));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, OW_SEEN));
}

/* found = p + sizeof(struct iphdr): the option's offset from the header */
static void emit_set_found(struct codegen_prog *p)
{
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 20));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R2, OW_FOUND));
}

/*
 * one option that is neither END nor NOOP: r1 = p, r3 = &opt[p], r4 =
 * opt[p], r0 = its length, already checked (2 <= r0 <= optlen - p). The
 * checks __ip_options_compile(net, opt, NULL, &info) makes of it; a
 * failure makes ipv4_find_option() return -EBADMSG (goto @l_bad). r0, r1
 * are kept. Options whose check asks ns_capable(CAP_NET_RAW) of the
 * current task (timestamp flags other than 0, 1 and 3, security, stream
 * id, unknown types) pass: their sender needed that capability to set
 * them. CIPSO fails: cipso_v4_validate() finds no DOI unless NetLabel
 * has one configured.
 */
static void emit_ipopt_one(struct codegen_prog *p, const struct expr_exthdr *x,
			   uint32_t l_bad, uint32_t l_next)
{
	uint32_t l_srr = codegen_label_new(p), l_rr = codegen_label_new(p);
	uint32_t l_ts = codegen_label_new(p), l_ra = codegen_label_new(p);
	uint32_t l_rr_ok = codegen_label_new(p), l_ts_past = codegen_label_new(p);
	uint32_t l_ts_addr = codegen_label_new(p);

	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_SSRR_, 0), l_srr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_LSRR_, 0), l_srr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_RR_, 0), l_rr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_TS_, 0), l_ts);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_RA_, 0), l_ra);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, IPOPT_CIPSO_, 0), l_bad);
	codegen_emit_jmp(p, INSN_JA(0), l_next);

	/* source route: the only one; len >= 3, ptr >= 4 and, without an
	 * skb, ptr == 4, len >= 7, (len - 3) % 4 == 0 */
	codegen_label_bind(p, l_srr);
	emit_once(p, SEEN_SRR, l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R0, 7, 0), l_bad);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R5, 4, 0), l_bad);
	codegen_emit(p, INSN_MOV64_REG(R2, R0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R2, 3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 3));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_bad);
	/* found if it is the kind asked for (is_strictroute) */
	if (x->type == IPOPT_SSRR_ || x->type == IPOPT_LSRR_) {
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R4, x->type, 0), l_next);
		emit_set_found(p);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_next);

	/* record route: the only one; len >= 3, ptr >= 4; a ptr inside the
	 * option leaves room for an address (ptr + 3 <= len) */
	codegen_label_bind(p, l_rr);
	emit_once(p, SEEN_RR, l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R0, 3, 0), l_bad);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R5, 4, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R5, R0, 0), l_rr_ok);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R5, 3));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R5, R0, 0), l_bad);
	codegen_label_bind(p, l_rr_ok);
	if (x->type == IPOPT_RR_)
		emit_set_found(p);
	codegen_emit_jmp(p, INSN_JA(0), l_next);

	/* timestamp: the only one; len >= 4, ptr >= 5; a ptr inside the
	 * option leaves room for a stamp (ptr + 3 <= len), and for flags 1
	 * and 3 an address too (ptr + 7 <= len); past the end, an overflow
	 * count of 15 fails unless flags == 3 */
	codegen_label_bind(p, l_ts);
	emit_once(p, SEEN_TS, l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R0, 4, 0), l_bad);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, 2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R5, 5, 0), l_bad);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R3, 3));
	codegen_emit(p, INSN_MOV64_REG(R2, R4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 0xf));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R5, R0, 0), l_ts_past);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R5, 3));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R5, R0, 0), l_bad);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, TS_TSANDADDR, 0), l_ts_addr);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, TS_PRESPEC, 0), l_ts_addr);
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_ts_addr);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R5, 4));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R5, R0, 0), l_bad);
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	codegen_label_bind(p, l_ts_past);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, TS_PRESPEC, 0), l_next);
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R4, 4));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 15, 0), l_bad);
	codegen_emit_jmp(p, INSN_JA(0), l_next);

	/* router alert: len >= 4; the last one whose value is 0 counts */
	codegen_label_bind(p, l_ra);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R0, 4, 0), l_bad);
	if (x->type == IPOPT_RA_) {
		/* (byte loads: stack accesses must be aligned) */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, 2));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R5, 0, 0), l_next);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R5, R3, 3));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R5, 0, 0), l_next);
		emit_set_found(p);
	}
	codegen_emit_jmp(p, INSN_JA(0), l_next);
}

/*
 * nft_exthdr_ipv4_eval: not IPv4 (skb->protocol): break, even for
 * "exists"; else ipv4_find_option(): the header at offset 0 (20 bytes),
 * its options copied (ihl * 4 - 20 bytes, none: -ENOENT) and walked
 */
static void emit_ipv4(struct codegen_prog *p, const struct expr_exthdr *x,
		      const struct codegen_expr_ctx *ec)
{
	uint32_t l_found = codegen_label_new(p), l_absent = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p), l_loop = codegen_label_new(p);
	uint32_t l_opt = codegen_label_new(p), l_next = codegen_label_new(p);
	uint32_t l_done = codegen_label_new(p);
	const struct codegen_env *env = ec->env;
	int16_t o;

	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(protocol)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, ETH_P_IP_LE, 0), ec->l_break);
	if (!ipopt_target(x->type)) {	/* -EOPNOTSUPP, or an error before */
		codegen_emit_jmp(p, INSN_JA(0), l_absent);
		goto out_absent;
	}
	emit_dynptr_data(p, env);
	/* iph = slice(0, 20); optlen = ihl * 4 - 20; if optlen <= 0: -ENOENT */
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	emit_slice(p, env, 20, l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 0xf));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R1, 2));
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, 20));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSLE, R1, 0, 0), l_absent);
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, OW_OPTLEN));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, OW_POS, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, OW_SEEN, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R6, OW_FOUND, 0));
	/* the buffer zeroed, then bpf_dynptr_read(buf, optlen, &dynptr, 20,
	 * 0): skb_copy_bits() of the options; fails if the packet is short */
	for (o = SHAPE_BUF_OFF; o < 0; o += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, o, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, OW_OPTLEN));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R2, 40, 0), l_absent);
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, 20));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_absent);
	/* for (r9 = 0; r9 < IPOPT_STEPS; r9++): the option at p */
	codegen_emit(p, INSN_MOV64_IMM(R9, 0));
	codegen_label_bind(p, l_loop);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGE, R9, IPOPT_STEPS, 0), l_done);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R9, 1));
	/* r1 = p, r2 = optlen; p >= optlen: the end */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, OW_POS));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, OW_OPTLEN));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R1, R2, 0), l_done);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1, 39, 0), l_done);
	/* r3 = &opt[p], r4 = opt[p]; END: the end; NOOP: p++ */
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R1));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R3, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_done);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R4, 1, 0), l_opt);
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit_jmp(p, INSN_JA(0), l_next);
	/* l = optlen - p >= 2; 2 <= r0 = opt[p + 1] <= l */
	codegen_label_bind(p, l_opt);
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, 2, 0), l_absent);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R0, R3, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R0, 2, 0), l_absent);
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R0, R2, 0), l_absent);
	emit_ipopt_one(p, x, l_absent, l_next);
	/* p += r0 */
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, OW_POS));
	codegen_emit_jmp(p, INSN_JA(0), l_loop);
	/* the walk is over and valid: the option's offset, if found */
	codegen_label_bind(p, l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, OW_FOUND));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_found);
	codegen_emit_jmp(p, INSN_JA(0), l_absent);
	codegen_label_bind(p, l_found);
	emit_found(p, x, ec, l_end);
out_absent:
	codegen_label_bind(p, l_absent);
	emit_absent(p, x, ec);
	codegen_label_bind(p, l_end);
}

static void exthdr_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_exthdr *x = expr_priv(e);

	if (x->op == EXTHDR_OP_TCPOPT)
		emit_tcpopt(p, x, ec);
	else if (x->op == EXTHDR_OP_IPV4)
		emit_ipv4(p, x, ec);
	else if (x->op == EXTHDR_OP_SCTP)
		codegen_exthdr_sctp_emit(p, x, ec);
	else
		emit_ipv6(p, x, ec);
}

const struct codegen_expr_ops codegen_expr_exthdr = {
	.name = "exthdr",
	.check = exthdr_check,
	.const_size = exthdr_const_size,
	.shape = exthdr_shape,
	.consts = exthdr_consts,
	.emit = exthdr_emit,
};
