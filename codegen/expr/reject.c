// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject.c - drop the packet and have it answered (nft_reject*.c): the
 * program fills a struct codegen_reject_rec in the namespace's reject ring
 * buffer and the verdict is NF_DROP, whatever happens to the record (a full
 * ring buffer loses the reply, never the drop). nfbpfd builds and sends
 * the TCP reset or ICMP error from the record (offload/reject.c, where the
 * design is described). Type, code and table family are rule constants:
 * every reject rule shares one shape.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/reject.h"

#define REC(f)	((int16_t)offsetof(struct codegen_reject_rec, f))
#define NFPROTO_IPV4_	2
#define NFPROTO_IPV6_	10
#define NFPROTO_INET_	1
#define NF_INET_INGRESS_	5

static int reject_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_reject *r = expr_priv(e);

	if (r->family != NFPROTO_IPV4_ && r->family != NFPROTO_IPV6_ &&
	    r->family != NFPROTO_INET_) {
		err->msg = "reject in a netdev table is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t reject_const_size(const struct expr *e)
{
	(void)e;
	return 4;	/* type, code, family, pad */
}

static void reject_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void reject_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_reject *r = expr_priv(e);

	(void)cc;
	dst[0] = r->type;
	dst[1] = r->icmp_code;
	dst[2] = r->family;
	dst[3] = 0;
}

/* rec->@dst = *(size *)(@src + @off) through r1 */
static void copy_field(struct codegen_prog *p, int size, int src, int16_t off,
		       int16_t dst)
{
	codegen_emit(p, INSN_LDX_MEM(size, R1, src, off));
	codegen_emit(p, INSN_STX_MEM(size, R9, R1, dst));
}

/*
 * rec->ctinfo = pkt.nfct & NFCT_INFOMASK; if the packet has an nf_conn:
 * rec->ct = a copy of it (probe read, taken while the packet's skb holds
 * its reference: an unconfirmed entry dies with the dropped packet),
 * rec->ext = its extension area. r9 = rec; r1-r5 clobbered.
 */
static void emit_ct_copy(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_done;

	codegen_emit(p, INSN_ST_MEM(BPF_H, R9, REC(ctinfo), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_MOV64_REG(R1, R3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 7));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R9, R1, REC(ctinfo)));
	if (env->off.ct_size <= 0)
		return;
	l_done = codegen_label_new(p);
	/* r3 = the nf_conn; if !r3 goto done */
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, ~7));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_done);
	/* if probe_read_kernel(rec->ct, ct_size, r3) goto done */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REC(ct)));
	codegen_emit(p, INSN_MOV64_IMM(R2, env->off.ct_size));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_done);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(ct_flags), REJECT_CT_COPIED));
	if (env->off.ext_len < 0 || env->off.ext_len >= REJECT_EXT_SIZE)
		goto out;
	/* r3 = rec->ct.ext; if !r3 goto done */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R9, REC(ct) + env->off.ct_ext));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_done);
	/* the header up to len, then len bytes (len is a u8) */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REC(ext)));
	codegen_emit(p, INSN_MOV64_IMM(R2, env->off.ext_len + 1));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R9, REC(ext) + env->off.ext_len));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 0xff));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R9, REC(ct) + env->off.ct_ext));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REC(ext)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_done);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(ct_flags),
				    REJECT_CT_COPIED | REJECT_CT_EXT));
out:
	codegen_label_bind(p, l_done);
}

void codegen_emit_reject_record(struct codegen_prog *p,
				const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_out = codegen_label_new(p);

	/* 0. scratch = REJECT_SK_ICMP_CTL if skb->sk is a kernel socket of
	 * protocol ICMP or ICMPv6 (the per-CPU sockets icmp_reply() and
	 * icmpv6_echo_reply() send with, their lock held), else 0 */
	if (env->off.sk_protocol >= 0 && env->off.sk_kern_sock >= 0) {
		uint32_t l_no = codegen_label_new(p), l_icmp = codegen_label_new(p);
		uint32_t l_done = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
		codegen_emit_probe_deref(p, R9, env->off.skb_sk, l_no);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
		codegen_emit_probe_read(p, ST_OFF(scratch), 2, R9, env->off.sk_protocol);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 1, 0), l_icmp);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 58, 0), l_no);
		codegen_label_bind(p, l_icmp);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
		codegen_emit_probe_read(p, ST_OFF(scratch), 1, R9, env->off.sk_kern_sock);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, env->off.sk_kern_sock_shift));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_no);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), REJECT_SK_ICMP_CTL));
		codegen_emit_jmp(p, INSN_JA(0), l_done);
		codegen_label_bind(p, l_no);
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
		codegen_label_bind(p, l_done);
	} else {
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	}
	/* r0 = bpf_ringbuf_reserve(reject, sizeof(rec), 0); if !r0 goto out */
	codegen_emit_ld_map(p, R1, env->reject_fd);
	codegen_emit(p, INSN_MOV64_IMM(R2, sizeof(struct codegen_reject_rec)));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_out);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* 1. rule constants: type, code, family */
	copy_field(p, BPF_B, R7, ec->cbase, REC(type));
	copy_field(p, BPF_B, R7, ec->cbase + 1, REC(code));
	copy_field(p, BPF_B, R7, ec->cbase + 2, REC(family));
	/* 2. packet info: rec->hook = ctx->state->hook (tc programs: the
	 * inet ingress hook, the only one of theirs where reject may run;
	 * every program carries every shape, and r8 is the tc context
	 * there); pf, len, mark, devices */
	if (env->ctx == CODEGEN_CTX_NF) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, env->off.ctx_state));
		copy_field(p, BPF_B, R2, env->off.st_hook, REC(hook));
	} else {
		codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(hook), NF_INET_INGRESS_));
	}
	copy_field(p, BPF_B, R6, PKT_OFF(nfproto), REC(pf));
	copy_field(p, BPF_B, R6, PKT_OFF(pkttype), REC(pkttype));
	copy_field(p, BPF_B, R6, PKT_OFF(flags), REC(pktflags));
	copy_field(p, BPF_W, R6, PKT_OFF(len), REC(len));
	copy_field(p, BPF_W, R6, PKT_OFF(mark), REC(mark));
	copy_field(p, BPF_W, R6, PKT_OFF(iif), REC(iif));
	copy_field(p, BPF_W, R6, PKT_OFF(oif), REC(oif));
	copy_field(p, BPF_H, R6, ST_OFF(scratch), REC(sk_flags));
	/* 3. rec->csum = KNOWN | skb->ip_summed | skb->csum_valid << 2 */
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(csum), 0));
	if (env->off.skb_ip_summed >= 0 && env->off.skb_csum_valid >= 0) {
		if (env->ctx == CODEGEN_CTX_NF) {
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, env->off.ctx_skb));
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R2, env->off.skb_ip_summed));
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R2, env->off.skb_csum_valid));
		} else {	/* the two bytes through st->scratch */
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(skb_addr)));
			codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
			codegen_emit_probe_read(p, ST_OFF(scratch), 1, R2, env->off.skb_ip_summed);
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(skb_addr)));
			codegen_emit_probe_read(p, ST_OFF(scratch) + 1, 1, R2,
						env->off.skb_csum_valid);
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R6, ST_OFF(scratch) + 1));
		}
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, env->off.ip_summed_shift));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 3));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R3, env->off.csum_valid_shift));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R3, 2));
		codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R3));
		codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, REJECT_CSUM_KNOWN));
		codegen_emit(p, INSN_STX_MEM(BPF_B, R9, R1, REC(csum)));
	}
	/* rec->ipopt = IPCB(skb)->opt from optlen on (8 bytes; IPv6: unused).
	 * Netfilter programs only: r8 is the tc context in tc programs (every
	 * program carries every shape), and at the inet ingress hook
	 * nft_set_pktinfo_ipv4_ingress() has cleared IPCB: no options */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, REC(ipopt), 0));
	if (env->ctx == CODEGEN_CTX_NF && env->off.ipcb_opt >= 0) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, env->off.ctx_skb));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, env->off.ipcb_opt));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, REC(ipopt)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R2, env->off.ipcb_opt + 4));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, REC(ipopt) + 4));
	}
	/* 4. the conntrack nf_ct_attach() would hand the reply */
	emit_ct_copy(p, env);
	/* 5. packet bytes, 6. bpf_ringbuf_submit(rec, 0) */
	codegen_emit_rec_submit(p, env, REC(caplen), REC(data), REJECT_REC_DATA);
	codegen_label_bind(p, l_out);
}

static void reject_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	(void)e;
	codegen_emit_reject_record(p, ec);
	/* regs->verdict.code = NF_DROP; stop the rule */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
}

const struct codegen_expr_ops codegen_expr_reject = {
	.name = "reject",
	.check = reject_check,
	.const_size = reject_const_size,
	.shape = reject_shape,
	.consts = reject_consts,
	.emit = reject_emit,
};
