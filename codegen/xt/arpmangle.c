// SPDX-License-Identifier: GPL-2.0-only
/*
 * arpmangle.c - arptables' mangle target (net/ipv4/netfilter/arpt_mangle.c
 * target()), as arptables-nft sends it through nft_compat. Arp family
 * chains run in tc programs (codegen/walker.c), which write the frame
 * with bpf_skb_store_bytes() at offsets from skb->data (the network
 * header is pkt.view_off bytes in), then refresh what the walker keeps
 * (codegen_emit_pkt_refresh()) so later rules see the new bytes.
 *
 * struct arpt_mangle { u8 src_devaddr[16] @0, tgt_devaddr[16] @16;
 * be32 src_ip @32, tgt_ip @36; u8 flags @40; int target @44 }: the
 * addresses are the rule's constants, flags and target its shape.
 *
 * After the 8 byte arphdr: sender hw (ar_hln bytes), sender proto
 * (ar_pln), target hw (ar_hln), target proto (ar_pln). A field whose flag
 * is set is overwritten with the first ar_hln (ar_pln) bytes of the
 * constant; an ar_hln over 16 or an ar_pln over 4, or a field past the
 * end of the packet, drops (the kernel's NF_DROP; a failing
 * bpf_skb_store_bytes(), which checks the same bound, too). Then the
 * verdict: NF_ACCEPT, NF_DROP or XT_CONTINUE (on with the rule).
 */
#include <errno.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define NFPROTO_ARP_		3
#define ARPT_MANGLE_SDEV_	0x01
#define ARPT_MANGLE_TDEV_	0x02
#define ARPT_MANGLE_SIP_	0x04
#define ARPT_MANGLE_TIP_	0x08
#define ARPT_MANGLE_MASK_	0x0f
#define ARPT_DEV_ADDR_LEN_MAX_	16
#define ARPT_MANGLE_ADDR_LEN_MAX_ 4
#define NF_DROP_		0
#define NF_ACCEPT_		1
#define XT_CONTINUE_		(-1)
#define AM_SCR			ST_OFF(scratch)	/* the arphdr (8 bytes) */
#define AM_HLN			((int16_t)(AM_SCR + 4))
#define AM_PLN			((int16_t)(AM_SCR + 5))

static uint8_t am_flags(const struct expr_xt *x)
{
	return x->info[40];
}

static int32_t am_target(const struct expr_xt *x)
{
	int32_t t;

	memcpy(&t, x->info + 44, 4);
	return t;
}

/* checkentry(): flags within the mask and some; the verdict one of three */
static int am_check(const struct expr_xt *x, struct dp_error *err)
{
	uint8_t f = am_flags(x);
	int32_t t = am_target(x);

	if ((f & ~ARPT_MANGLE_MASK_) || !(f & ARPT_MANGLE_MASK_)) {
		err->msg = "arptables mangle target: invalid flags";
		return -EOPNOTSUPP;
	}
	if (t != NF_DROP_ && t != NF_ACCEPT_ && t != XT_CONTINUE_) {
		err->msg = "arptables mangle target: invalid verdict";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void am_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t f = am_flags(x);
	int32_t t = am_target(x);

	codegen_key_put(k, &f, 1);
	codegen_key_put(k, &t, 4);
}

/*
 * if the flag is set: the field of @len_off's length (<= @max, else drop)
 * at r9 from the constant at r7 + @coff; then r9 += that length
 */
static void am_field(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		     bool set, int16_t len_off, uint32_t max, int16_t coff)
{
	uint32_t l_skip = codegen_label_new(p), l_drop = codegen_label_new(p);

	if (set) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R6, len_off));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R4, max, 0), l_drop);
		/* a zero length copies nothing */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R4, 1, 0), l_skip);
		codegen_emit(p, INSN_MOV64_REG(R2, R9));
		codegen_emit(p, INSN_MOV64_REG(R1, R8));
		codegen_emit(p, INSN_MOV64_REG(R3, R7));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, coff));
		codegen_emit(p, INSN_MOV64_IMM(R5, 0));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_store_bytes));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_skip);
		codegen_label_bind(p, l_drop);
		codegen_xt_emit_hotdrop(p, ec);
	}
	codegen_label_bind(p, l_skip);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, len_off));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
}

static void am_emit(struct codegen_prog *p, const struct expr_xt *x,
		    const struct codegen_expr_ctx *ec)
{
	uint8_t f = am_flags(x);
	int32_t t = am_target(x), v;
	int16_t c = ec->cbase;
	uint32_t l_ok = codegen_label_new(p);

	if (ec->env->ctx == CODEGEN_CTX_NF) {
		/* (never: arp chains run in tc programs) a conditional jump
		 * keeps what follows reachable for the verifier's CFG check */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_done);
		return;
	}
	/* the arphdr at the network header, to the scratch */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, AM_SCR, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R9, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_MOV64_REG(R3, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, AM_SCR));
	codegen_emit(p, INSN_MOV64_IMM(R4, 8));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_load_bytes));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_ok);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_ok);
	/* r9 = arpptr: the sender hardware address */
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R9, 8));
	am_field(p, ec, f & ARPT_MANGLE_SDEV_, AM_HLN, ARPT_DEV_ADDR_LEN_MAX_, c + 0);
	am_field(p, ec, f & ARPT_MANGLE_SIP_, AM_PLN, ARPT_MANGLE_ADDR_LEN_MAX_, c + 32);
	am_field(p, ec, f & ARPT_MANGLE_TDEV_, AM_HLN, ARPT_DEV_ADDR_LEN_MAX_, c + 16);
	am_field(p, ec, f & ARPT_MANGLE_TIP_, AM_PLN, ARPT_MANGLE_ADDR_LEN_MAX_, c + 36);
	codegen_emit_pkt_refresh(p, ec->env);
	/* nft_target_eval_xt(): XT_CONTINUE goes on, else the verdict */
	if (t == XT_CONTINUE_)
		return;
	v = t == NF_ACCEPT_ ? VERDICT_ACCEPT : VERDICT_DROP;
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), v));
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_done);
}

const struct codegen_xt_ops codegen_xt_arpt_mangle = {
	.name = "mangle", .rev = 0, .family = NFPROTO_ARP_, .minlen = 48,
	.check = am_check, .const_off = 0, .const_size = 40,
	.shape = am_shape, .emit = am_emit,
};
