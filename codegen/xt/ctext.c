// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctext.c - matches on what a conntrack entry carries besides its state:
 * connmark rev 1 (xt_connmark.c connmark_mt), connlabel (xt_connlabel.c
 * connlabel_mt, without --set, which writes the entry) and helper
 * (xt_helper.c helper_mt), reading the nf_conn in pkt.nfct as the ct
 * expression does (codegen/expr/ct.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define CTINFO_MASK		7	/* NFCT_INFOMASK */
#define CONNLABEL_OP_INVERT	1	/* XT_CONNLABEL_OP_INVERT */
#define CONNLABEL_OP_SET	2	/* XT_CONNLABEL_OP_SET */
#define HELPER_NAME_LEN		16	/* NF_CT_HELPER_NAME_LEN */

/* r9 = the nf_conn; none: goto @l_none */
static void emit_conn(struct codegen_prog *p, uint32_t l_none)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~CTINFO_MASK));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), l_none);
}

/*
 * connmark rev 1: struct xt_connmark_mtinfo1 { u32 mark @0, mask @4;
 * u8 invert @8 }: no conntrack: false; else ((ct->mark & mask) == mark)
 * ^ invert, as an int (an invert above 1 makes it always true)
 */
static uint8_t connmark_inv(const struct expr_xt *x)
{
	return x->info[8] > 2 ? 2 : x->info[8];
}

static void connmark_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = connmark_inv(x);

	codegen_key_put(k, &inv, 1);
}

static void connmark_emit(struct codegen_prog *p, const struct expr_xt *x,
			  const struct codegen_expr_ctx *ec)
{
	uint8_t inv = connmark_inv(x);

	emit_conn(p, ec->l_break);
	if (inv > 1)
		return;
	/* r1 = ct->mark & mask; r2 = mark; ((r1 == r2) ^ invert) or break */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, ec->env->off.ct_mark);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(inv ? BPF_JEQ : BPF_JNE, R1, R2, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_connmark = {
	.name = "connmark", .rev = 1, .minlen = 9, .reads_ct = true,
	.const_size = 8, .shape = connmark_shape, .emit = connmark_emit,
};

/*
 * connlabel: struct xt_connlabel_mtinfo { u16 bit @0; u16 options @2 }:
 * no conntrack or no labels extension: invert; else test_bit(bit,
 * labels->bits) ^ invert (bit < 128, checked by the kernel)
 */
static int connlabel_check(const struct expr_xt *x, struct dp_error *err)
{
	uint16_t opt;

	memcpy(&opt, x->info + 2, 2);
	if (!(opt & CONNLABEL_OP_SET))
		return 0;
	err->msg = "xt match 'connlabel' with --set (it writes the conntrack entry) is not supported by the nfbpf dataplane";
	return -EOPNOTSUPP;
}

static bool connlabel_inv(const struct expr_xt *x)
{
	uint16_t opt;

	memcpy(&opt, x->info + 2, 2);
	return opt & CONNLABEL_OP_INVERT;
}

static void connlabel_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = connlabel_inv(x);

	codegen_key_put(k, &inv, 1);
}

/* constants: u32 byte of the bit in the bitmap, u32 its mask */
static void connlabel_consts(const struct expr_xt *x, uint8_t *dst)
{
	uint16_t bit;
	uint32_t byte, mask;

	memcpy(&bit, x->info, 2);
	byte = (bit / 8) & 15;
	mask = 1u << (bit % 8);
	memcpy(dst, &byte, 4);
	memcpy(dst + 4, &mask, 4);
}

static void connlabel_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	bool inv = connlabel_inv(x);
	uint32_t l_unset = inv ? codegen_label_new(p) : ec->l_break;
	uint32_t i;

	emit_conn(p, l_unset);
	codegen_emit_ct_ext_find(p, ec->env, ec->env->off.ext_labels, l_unset);
	/* scratch = the 16 bytes of labels->bits (little endian longs) */
	codegen_emit_probe_read(p, ST_OFF(scratch), 16, R9, 0);
	/* r1 = scratch[byte] (unrolled: the verifier wants constant offsets) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase));
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	for (i = 0; i < 16; i++) {
		codegen_emit(p, INSN_JMP_IMM(BPF_JNE, R2, i, 1));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch) + i));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 4));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_unset);
	if (inv) {
		/* set: !invert = false; unset: invert = true */
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
		codegen_label_bind(p, l_unset);
	}
}

const struct codegen_xt_ops codegen_xt_connlabel = {
	.name = "connlabel", .rev = 0, .minlen = 4, .reads_ct = true,
	.check = connlabel_check, .const_size = 8, .consts = connlabel_consts,
	.shape = connlabel_shape, .emit = connlabel_emit,
};

/*
 * helper: struct xt_helper_info { int invert @0; char name[30] @4 }:
 * ret = invert; without a conntrack, a master, its help extension or a
 * helper: ret; an empty name: !ret; else ret ^ !strncmp(helper->name,
 * name, strlen(helper->name)) (the rule's name starts with the helper's)
 */
static void helper_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[2] = { 0, x->info[4] == 0 };
	int32_t inv;

	memcpy(&inv, x->info, 4);
	v[0] = inv != 0;
	codegen_key_put(k, v, 2);
}

static void helper_emit(struct codegen_prog *p, const struct expr_xt *x,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	int32_t inv;
	uint32_t l_ret = codegen_label_new(p), l_found = codegen_label_new(p);
	uint32_t l_eq = codegen_label_new(p), l_ne = codegen_label_new(p);
	uint32_t i;

	memcpy(&inv, x->info, 4);
	if (env->off.help_helper < 0 || env->off.helper_name < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	emit_conn(p, l_ret);
	codegen_emit_probe_deref(p, R9, env->off.ct_master, l_ret);
	codegen_emit_ct_ext_find(p, env, env->off.ext_helper, l_ret);
	codegen_emit_probe_deref(p, R9, env->off.help_helper, l_ret);
	if (x->info[4] == 0) {
		/* !ret */
		codegen_emit_jmp(p, INSN_JA(0), inv ? ec->l_break : l_found);
	} else {
		/* scratch = helper->name; compare up to its NUL */
		codegen_emit_probe_read(p, ST_OFF(scratch), HELPER_NAME_LEN, R9,
					env->off.helper_name);
		for (i = 0; i < HELPER_NAME_LEN; i++) {
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch) + i));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_eq);
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R7, ec->cbase + i));
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_ne);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_eq);
		/* equal: ret ^ 1; different: ret */
		codegen_label_bind(p, l_eq);
		codegen_emit_jmp(p, INSN_JA(0), inv ? ec->l_break : l_found);
		codegen_label_bind(p, l_ne);
		codegen_emit_jmp(p, INSN_JA(0), l_ret);
	}
	/* ret = invert */
	codegen_label_bind(p, l_ret);
	if (!inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_found);
}

const struct codegen_xt_ops codegen_xt_helper = {
	.name = "helper", .rev = 0, .minlen = 34, .reads_ct = true,
	.const_off = 4, .const_size = HELPER_NAME_LEN, .shape = helper_shape,
	.emit = helper_emit,
};

/*
 * connbytes: struct xt_connbytes_info { u64 from @0, to @8; u8 what @16,
 * direction @17 }: no conntrack or no acct extension: false; else the
 * packets, bytes or bytes / packets (0 without packets) of the original,
 * reply or both directions, in [from, to], or, if to < from, outside
 * [to, from]. Its checkentry turns conntrack accounting on, as the ct
 * expression's packets/bytes keys do (reads_acct).
 */
#define CB_PKTS		0	/* XT_CONNBYTES_PKTS */
#define CB_BYTES	1
#define CB_AVGPKT	2
#define CB_DIR_ORIG	0	/* XT_CONNBYTES_DIR_ORIGINAL */
#define CB_DIR_REPLY	1
#define CB_DIR_BOTH	2

static int connbytes_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[16] <= CB_AVGPKT && x->info[17] <= CB_DIR_BOTH)
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'connbytes' mode %u direction %u is not supported by the nfbpf dataplane",
		 x->info[16], x->info[17]);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static bool connbytes_inverted(const struct expr_xt *x)
{
	uint64_t from, to;

	memcpy(&from, x->info, 8);
	memcpy(&to, x->info + 8, 8);
	return to < from;
}

static void connbytes_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[3] = { x->info[16], x->info[17], connbytes_inverted(x) };

	codegen_key_put(k, v, 3);
}

/*
 * r1 = the counter at acct (r9) + @field of the direction(s) asked
 * (both: summed), through the stack slots at @fp, @fp + 8
 */
static void emit_acct_counter(struct codegen_prog *p, const struct codegen_env *env,
			      uint8_t dir, int16_t field, int16_t fp)
{
	uint32_t n = dir == CB_DIR_BOTH ? 2 : 1, i;

	if (field < 0 || env->off.acct_stride < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	for (i = 0; i < n; i++) {
		int16_t src = field + ((dir == CB_DIR_REPLY || i) ? env->off.acct_stride : 0);

		codegen_emit_probe_read(p, ST_OFF(scratch), 8, R9, src);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, fp + 8 * i));
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, fp));
	if (n == 2) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, fp + 8));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	}
}

static void connbytes_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint8_t what = x->info[16], dir = x->info[17];
	uint32_t l_in = codegen_label_new(p);

	emit_conn(p, ec->l_break);
	codegen_emit_ct_ext_find(p, env, env->off.ext_acct, ec->l_break);
	if (what == CB_AVGPKT) {
		/* bytes / packets: BPF's division by zero is 0, as the
		 * kernel's what stays 0 without packets */
		emit_acct_counter(p, env, dir, env->off.acct_bytes, SHAPE_BUF_OFF);
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, SHAPE_BUF_OFF + 16));
		emit_acct_counter(p, env, dir, env->off.acct_packets, SHAPE_BUF_OFF);
		codegen_emit(p, INSN_MOV64_REG(R2, R1));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, SHAPE_BUF_OFF + 16));
		codegen_emit(p, INSN_ALU64_REG(BPF_DIV, R1, R2));
	} else {
		emit_acct_counter(p, env, dir, what == CB_BYTES ? env->off.acct_bytes :
				  env->off.acct_packets, SHAPE_BUF_OFF);
	}
	/* r2 = from; r3 = to */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R7, ec->cbase));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R7, ec->cbase + 8));
	if (!connbytes_inverted(x)) {
		/* from <= what <= to */
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), ec->l_break);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R1, R3, 0), ec->l_break);
	} else {
		/* what < to || what > from */
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R3, 0), l_in);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R1, R2, 0), ec->l_break);
	}
	codegen_label_bind(p, l_in);
}

const struct codegen_xt_ops codegen_xt_connbytes = {
	.name = "connbytes", .rev = 0, .minlen = 18, .reads_ct = true,
	.reads_acct = true, .check = connbytes_check, .const_size = 16,
	.shape = connbytes_shape, .emit = connbytes_emit,
};
