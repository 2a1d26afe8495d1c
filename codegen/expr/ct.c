// SPDX-License-Identifier: GPL-2.0-only
/*
 * ct.c - read conntrack keys (nft_ct.c, get form). The walker's prologue
 * keeps skb->_nfct in pkt.nfct: the nf_conn pointer with the ctinfo in its
 * low 3 bits (nf_ct_get()). Fields of the nf_conn are read with
 * bpf_probe_read_kernel() at offsets taken from vmlinux BTF; the ct-set
 * forms write kernel memory, which a netfilter program cannot do.
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/ct.h"

#define CTINFO_MASK		7	/* NFCT_INFOMASK */
#define CT_IS_REPLY		3	/* IP_CT_IS_REPLY */
#define CT_UNTRACKED		7	/* IP_CT_UNTRACKED */
#define STATE_INVALID_BIT	1	/* NF_CT_STATE_INVALID_BIT */
#define STATE_UNTRACKED_BIT	64	/* NF_CT_STATE_UNTRACKED_BIT */
#define L3_IPV4			2
#define L3_IPV6			10

static const char *const ct_names[__CT_KEY_MAX] = {
	"state", "direction", "status", "mark", "secmark", "expiration",
	"helper", "l3proto", "saddr", "daddr", "protocol", "proto-src",
	"proto-dst", "label", "packets", "bytes", "avgpkt", "zone", "event",
	"ip saddr", "ip daddr", "ip6 saddr", "ip6 daddr", "id",
};

/* served keys */
static bool ct_served(uint32_t key)
{
	switch (key) {
	case CT_STATE: case CT_DIRECTION: case CT_STATUS: case CT_MARK:
	case CT_L3PROTOCOL: case CT_PROTOCOL: case CT_SRC: case CT_DST:
	case CT_PROTO_SRC: case CT_PROTO_DST: case CT_SRC_IP: case CT_DST_IP:
	case CT_SRC_IP6: case CT_DST_IP6: case CT_SECMARK: case CT_ZONE:
	case CT_EXPIRATION: case CT_LABELS: case CT_HELPER: case CT_PKTS:
	case CT_BYTES: case CT_AVGPKT:
		return true;
	}
	return false;
}

static int ct_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_ct *c = expr_priv(e);

	if (!c->is_set && c->key == CT_ID) {
		err->msg = "ct 'id' is a siphash under a random key the kernel keeps to itself (nf_ct_get_id()): a BPF program cannot compute it (not supported by nfbpf)";
		return -EOPNOTSUPP;
	}
	if (c->is_set || !ct_served(c->key)) {
		if (c->key < __CT_KEY_MAX)
			snprintf(err->buf, sizeof(err->buf),
				 "ct %s'%s' is not supported by the nfbpf dataplane yet",
				 c->is_set ? "set " : "", ct_names[c->key]);
		else
			snprintf(err->buf, sizeof(err->buf),
				 "ct %skey %u is not supported by the nfbpf dataplane yet",
				 c->is_set ? "set " : "", c->key);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(c->reg, c->len)) {
		err->msg = "ct: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t ct_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void ct_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_ct *c = expr_priv(e);

	codegen_key_put(k, &c->key, 4);
	codegen_key_put(k, &c->dir, 1);
	codegen_key_put(k, &c->reg, 1);
	codegen_key_put(k, &c->len, 4);
}

static void ct_consts(const struct expr *e, uint8_t *dst,
		      const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* r9 = the nf_conn (pkt.nfct & ~NFCT_INFOMASK); if r9 == 0 goto break */
static void emit_conn(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~CTINFO_MASK));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
}

/* a member of the nf_conn in r9 into the state */
static void emit_read(struct codegen_prog *p, int16_t dst, uint32_t len,
		      int16_t src)
{
	codegen_emit_probe_read(p, dst, len, R9, src);
}

/* regs[reg] word = 0 (nft_reg_store8/16 clear the rest of the word) */
static void emit_clear(struct codegen_prog *p, uint8_t reg)
{
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(reg), 0));
}

/* r1 = ct->tuplehash[ORIGINAL].tuple.src.l3num */
static void emit_l3num(struct codegen_prog *p, const struct codegen_env *env)
{
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	emit_read(p, ST_OFF(scratch), 2, env->off.ct_tuple + env->off.tup_l3num);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch)));
}

/* codegen_emit_ct_state: see codegen.h */
void codegen_emit_ct_state(struct codegen_prog *p, uint32_t untracked)
{
	uint32_t l_noct = codegen_label_new(p), l_fwd = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);

	/* r2 = ctinfo; r4 = ct */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_MOV64_REG(R2, R4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, CTINFO_MASK));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R4, ~CTINFO_MASK));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_noct);
	/* r3 = 1 << (ctinfo % IP_CT_IS_REPLY + 1)  (NF_CT_STATE_BIT) */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, CT_IS_REPLY, 0), l_fwd);
	codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R2, CT_IS_REPLY));
	codegen_label_bind(p, l_fwd);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 7));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_emit(p, INSN_ALU64_REG(BPF_LSH, R3, R2));
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	/* no conntrack: untracked if ctinfo == IP_CT_UNTRACKED, else invalid */
	codegen_label_bind(p, l_noct);
	codegen_emit(p, INSN_MOV64_IMM(R3, untracked));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, CT_UNTRACKED, 0), l_end);
	codegen_emit(p, INSN_MOV64_IMM(R3, STATE_INVALID_BIT));
	codegen_label_bind(p, l_end);
}

static void emit_state(struct codegen_prog *p, const struct expr_ct *c)
{
	/* regs[reg] = the packet's state bit */
	codegen_emit_ct_state(p, STATE_UNTRACKED_BIT);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R3, REG_OFF(c->reg)));
}

static void emit_direction(struct codegen_prog *p, const struct expr_ct *c,
			   const struct codegen_expr_ctx *ec)
{
	uint32_t l_store = codegen_label_new(p);

	emit_conn(p, ec);
	/* regs[reg] = ctinfo >= IP_CT_IS_REPLY (CTINFO2DIR) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(nfct)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, CTINFO_MASK));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R2, CT_IS_REPLY, 0), l_store);
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_label_bind(p, l_store);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R3, REG_OFF(c->reg)));
}

/* tuple field of direction @dir: offset from the nf_conn */
static int16_t tuple_off(const struct codegen_env *env, uint8_t dir,
			 int16_t field)
{
	if (env->off.ct_tuple < 0 || field < 0)
		return -1;
	return env->off.ct_tuple + (dir == 1 ? env->off.ct_tuple_stride : 0) +
	       field;
}

/* codegen_emit_ct_ext_find: see codegen.h */
void codegen_emit_ct_ext_find(struct codegen_prog *p, const struct codegen_env *env,
			      int16_t id, uint32_t l_none)
{
	if (id < 0 || env->off.ext_offset < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* r9 = ct->ext; if !r9 goto none */
	codegen_emit_probe_deref(p, R9, env->off.ct_ext, l_none);
	/* r1 = ext->offset[id]; if r1 == 0 goto none; r9 += r1 */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	emit_read(p, ST_OFF(scratch), 1, env->off.ext_offset + id);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_none);
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R9, R1));
}

/* nf_ct_zone_id(): regs[reg] = zone.id if no direction is asked or
 * zone.dir has the direction's bit, else NF_CT_DEFAULT_ZONE_ID (0);
 * nft_reg_store16 */
static void emit_zone(struct codegen_prog *p, const struct expr_ct *c,
		      const struct codegen_env *env)
{
	uint32_t l_store = codegen_label_new(p);

	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	emit_read(p, ST_OFF(scratch), 2, env->off.ct_zone_id);
	if (c->dir < CT_DIR_NONE)
		emit_read(p, ST_OFF(scratch) + 2, 1, env->off.ct_zone_dir);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_OFF(scratch)));
	if (c->dir < CT_DIR_NONE) {
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, ST_OFF(scratch) + 2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R2, 1 << c->dir));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_store);
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	}
	codegen_label_bind(p, l_store);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(c->reg)));
}

/*
 * jiffies_to_msecs(nf_ct_expires(ct)): max((s32)(ct->timeout - (u32)
 * jiffies), 0) * (MSEC_PER_SEC / HZ), in u32 (an unconfirmed entry's
 * timeout is relative, as the kernel reads it too)
 */
static void emit_expiration(struct codegen_prog *p, const struct expr_ct *c,
			    const struct codegen_env *env)
{
	uint32_t l_pos = codegen_label_new(p);

	if (!env->jiffy_msecs) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	emit_read(p, REG_OFF(c->reg), 4, env->off.ct_timeout);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(c->reg)));
	codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R0));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JSGE, R1, 0, 0), l_pos);
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_label_bind(p, l_pos);
	codegen_emit(p, INSN_ALU32_IMM(BPF_MUL, R1, env->jiffy_msecs));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, REG_OFF(c->reg)));
}

/* labels: the 16 bytes of the labels extension, or zeros without one */
static void emit_labels(struct codegen_prog *p, const struct expr_ct *c,
			const struct codegen_env *env, uint32_t l_end)
{
	codegen_emit_reg_zero(p, c->reg, 16);
	codegen_emit_ct_ext_find(p, env, env->off.ext_labels, l_end);
	emit_read(p, REG_OFF(c->reg), 16, 0);
}

/*
 * the helper of the entry's master (an expected connection's), else
 * break: strscpy_pad() of its name, which bpf_probe_read_kernel_str()
 * into zeroed registers is (at most 15 bytes and a NUL, zeros after)
 */
static void emit_helper(struct codegen_prog *p, const struct expr_ct *c,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;

	if (env->off.help_helper < 0 || env->off.helper_name < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	codegen_emit_probe_deref(p, R9, env->off.ct_master, ec->l_break);
	codegen_emit_ct_ext_find(p, env, env->off.ext_helper, ec->l_break);
	codegen_emit_probe_deref(p, R9, env->off.help_helper, ec->l_break);
	codegen_emit_reg_zero(p, c->reg, 16);
	/* probe_read_kernel_str(regs + reg, 16, helper->name) */
	codegen_emit(p, INSN_MOV64_REG(R3, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, env->off.helper_name));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REG_OFF(c->reg)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 16));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel_str));
}

/*
 * the counter @field (acct_packets/acct_bytes offset) of direction @dir,
 * or both summed (nft_ct_get_eval_counter()), into the u64 at st + @dst
 * (r9 = the acct extension; st->scratch clobbered)
 */
static void emit_counter(struct codegen_prog *p, const struct codegen_env *env,
			 uint8_t dir, int16_t field, int16_t dst)
{
	if (env->off.acct_stride < 0 || field < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	if (dir < CT_DIR_NONE) {
		emit_read(p, dst, 8, field + dir * env->off.acct_stride);
		return;
	}
	emit_read(p, dst, 8, field);
	emit_read(p, ST_OFF(scratch), 8, field + env->off.acct_stride);
	/* *dst += scratch */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, dst));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, dst));
}

/*
 * bytes, packets (u64) and avgpkt (bytes / packets, 0 without packets:
 * BPF's division by zero gives 0 too) from the acct extension; 0 without
 * one. The u64 goes to the registers as memcpy() puts it.
 */
static void emit_acct(struct codegen_prog *p, const struct expr_ct *c,
		      const struct codegen_env *env, uint32_t l_end)
{
	int16_t d = REG_OFF(c->reg);

	codegen_emit_reg_zero(p, c->reg, 8);
	codegen_emit_ct_ext_find(p, env, env->off.ext_acct, l_end);
	if (c->key != CT_AVGPKT) {
		emit_counter(p, env, c->dir, c->key == CT_BYTES ?
			     env->off.acct_bytes : env->off.acct_packets, d);
		return;
	}
	/* regs = packets; scratch = bytes; regs = bytes / packets */
	emit_counter(p, env, c->dir, env->off.acct_packets, d);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, d));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, ST_OFF(scratch) + 8));
	emit_counter(p, env, c->dir, env->off.acct_bytes, d);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, d));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, ST_OFF(scratch) + 8));
	codegen_emit(p, INSN_ALU64_REG(BPF_DIV, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, d));
}

static void ct_emit(struct codegen_prog *p, const struct expr *e,
		    const struct codegen_expr_ctx *ec)
{
	const struct expr_ct *c = expr_priv(e);
	const struct codegen_env *env = ec->env;
	int16_t d = REG_OFF(c->reg);
	uint32_t l_v6, l_end = codegen_label_new(p);
	bool src;

	switch (c->key) {
	case CT_STATE:
		emit_state(p, c);
		return;
	case CT_DIRECTION:
		emit_direction(p, c, ec);
		return;
	}
	emit_conn(p, ec);
	switch (c->key) {
	case CT_STATUS:	/* the low 32 bits of unsigned long status */
		emit_read(p, d, 4, env->off.ct_status);
		break;
	case CT_MARK:
		emit_read(p, d, 4, env->off.ct_mark);
		break;
	case CT_SECMARK:
		emit_read(p, d, 4, env->off.ct_secmark);
		break;
	case CT_ZONE:
		emit_zone(p, c, env);
		break;
	case CT_EXPIRATION:
		emit_expiration(p, c, env);
		break;
	case CT_LABELS:
		emit_labels(p, c, env, l_end);
		break;
	case CT_HELPER:
		emit_helper(p, c, ec);
		break;
	case CT_PKTS: case CT_BYTES: case CT_AVGPKT:
		emit_acct(p, c, env, l_end);
		break;
	case CT_L3PROTOCOL:	/* nft_reg_store8(nf_ct_l3num(ct)) */
		emit_clear(p, c->reg);
		emit_read(p, d, 1, tuple_off(env, 0, env->off.tup_l3num));
		break;
	case CT_PROTOCOL:	/* nft_reg_store8(nf_ct_protonum(ct)) */
		emit_clear(p, c->reg);
		emit_read(p, d, 1, tuple_off(env, 0, env->off.tup_protonum));
		break;
	case CT_PROTO_SRC:
	case CT_PROTO_DST:
		emit_clear(p, c->reg);
		emit_read(p, d, 2, tuple_off(env, c->dir, c->key == CT_PROTO_SRC ?
					     env->off.tup_src_u : env->off.tup_dst_u));
		break;
	case CT_SRC_IP: case CT_DST_IP: case CT_SRC_IP6: case CT_DST_IP6:
		/* the address of the family asked for, else break */
		src = c->key == CT_SRC_IP || c->key == CT_SRC_IP6;
		emit_l3num(p, env);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, c->len == 4 ?
						 L3_IPV4 : L3_IPV6, 0), ec->l_break);
		emit_read(p, d, c->len, tuple_off(env, c->dir, src ?
			  env->off.tup_src_u3 : env->off.tup_dst_u3));
		break;
	case CT_SRC: case CT_DST:
		/* memcpy(dest, u3, l3num == IPV4 ? 4 : 16) */
		src = c->key == CT_SRC;
		l_v6 = codegen_label_new(p);
		emit_l3num(p, env);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, L3_IPV4, 0), l_v6);
		emit_read(p, d, 4, tuple_off(env, c->dir, src ?
			  env->off.tup_src_u3 : env->off.tup_dst_u3));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_v6);
		emit_read(p, d, c->len, tuple_off(env, c->dir, src ?
			  env->off.tup_src_u3 : env->off.tup_dst_u3));
		break;
	}
	codegen_label_bind(p, l_end);
}

static bool ct_reads_ct(const struct expr *e)
{
	(void)e;
	return true;
}

static bool ct_reads_acct(const struct expr *e)
{
	const struct expr_ct *c = expr_priv(e);

	return !c->is_set && (c->key == CT_PKTS || c->key == CT_BYTES ||
			      c->key == CT_AVGPKT);
}

const struct codegen_expr_ops codegen_expr_ct = {
	.name = "ct",
	.check = ct_check,
	.const_size = ct_const_size,
	.shape = ct_shape,
	.consts = ct_consts,
	.emit = ct_emit,
	.reads_ct = ct_reads_ct,
	.reads_acct = ct_reads_acct,
};
