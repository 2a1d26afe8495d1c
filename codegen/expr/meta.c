// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta.c - load packet metadata (nft_meta.c, get form). The walker's
 * prologue computes every served key once per packet (struct codegen_pkt);
 * the emitter copies and applies nft_meta_get_eval()'s failure cases.
 */
#include <errno.h>
#include <stdio.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/meta.h"

/* NFT_META_* (uapi, stable numbers) */
enum {
	META_LEN, META_PROTOCOL, META_PRIORITY, META_MARK, META_IIF, META_OIF,
	META_IIFNAME, META_OIFNAME, META_IIFTYPE, META_OIFTYPE, META_SKUID,
	META_SKGID, META_NFTRACE, META_RTCLASSID, META_SECMARK, META_NFPROTO,
	META_L4PROTO, META_BRI_IIFNAME, META_BRI_OIFNAME, META_PKTTYPE,
	META_CPU, META_IIFGROUP, META_OIFGROUP, META_CGROUP, META_PRANDOM,
	META_SECPATH, META_IIFKIND, META_OIFKIND, META_BRI_IIFPVID,
	META_BRI_IIFVPROTO, META_TIME_NS, META_TIME_DAY, META_TIME_HOUR,
	META_SDIF, META_SDIFNAME, META_BRI_BROUTE,
};

static const char *const meta_names[] = {
	"len", "protocol", "priority", "mark", "iif", "oif", "iifname",
	"oifname", "iiftype", "oiftype", "skuid", "skgid", "nftrace",
	"rtclassid", "secmark", "nfproto", "l4proto", "ibrname", "obrname",
	"pkttype", "cpu", "iifgroup", "oifgroup", "cgroup", "random",
	"secpath", "iifkind", "oifkind", "ibrpvid", "ibrvproto", "time",
	"day", "hour", "sdif", "sdifname", "broute",
};

/* bytes in a register, 0 = not served */
static uint32_t meta_len(uint32_t key)
{
	switch (key) {
	case META_LEN: case META_PRIORITY: case META_MARK: case META_IIF:
	case META_OIF: case META_NFPROTO: case META_L4PROTO: case META_PKTTYPE:
	case META_CPU: case META_PRANDOM:
		return 4;
	case META_PROTOCOL: case META_IIFTYPE: case META_OIFTYPE:
		return 4;	/* nft_reg_store16 clears the word */
	case META_IIFNAME: case META_OIFNAME:
		return 16;
	}
	return 0;
}

static int meta_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_meta *m = expr_priv(e);
	const char *name = m->key < sizeof(meta_names) / sizeof(meta_names[0]) ?
			   meta_names[m->key] : NULL;

	if (m->is_set || !meta_len(m->key)) {
		if (name)
			snprintf(err->buf, sizeof(err->buf),
				 "meta %skey '%s' is not supported by the nfbpf dataplane yet",
				 m->is_set ? "set " : "", name);
		else
			snprintf(err->buf, sizeof(err->buf),
				 "meta %skey %u is not supported by the nfbpf dataplane yet",
				 m->is_set ? "set " : "", m->key);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(m->dreg, meta_len(m->key))) {
		err->msg = "meta: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t meta_const_size(const struct expr *e)
{
	(void)e;
	return 0;
}

static void meta_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_meta *m = expr_priv(e);

	codegen_key_put(k, &m->key, 4);
	codegen_key_put(k, &m->dreg, 1);
}

static void meta_consts(const struct expr *e, uint8_t *dst,
			const struct codegen_consts_ctx *cc)
{
	(void)e;
	(void)dst;
	(void)cc;
}

/* if !(pkt.flags & flag) goto break */
static void need_flag(struct codegen_prog *p, uint8_t flag,
		      const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, flag));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
}

static void meta_emit(struct codegen_prog *p, const struct expr *e,
		      const struct codegen_expr_ctx *ec)
{
	const struct expr_meta *m = expr_priv(e);
	int16_t d = REG_OFF(m->dreg);

	switch (m->key) {
	case META_LEN:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(len), 4);
		break;
	case META_MARK:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(mark), 4);
		break;
	case META_PRIORITY:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(priority), 4);
		break;
	case META_IIF:	/* no device: 0 (nft_meta_store_ifindex) */
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iif), 4);
		break;
	case META_OIF:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oif), 4);
		break;
	case META_IIFNAME:	/* no device: "" */
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iifname), 16);
		break;
	case META_OIFNAME:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oifname), 16);
		break;
	case META_PROTOCOL:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(protocol), 2);
		break;
	case META_IIFTYPE:	/* no device: break */
		need_flag(p, PKT_HAS_IN, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iiftype), 2);
		break;
	case META_OIFTYPE:
		need_flag(p, PKT_HAS_OUT, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oiftype), 2);
		break;
	case META_NFPROTO:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(nfproto), 1);
		break;
	case META_L4PROTO:	/* no transport protocol: break */
		need_flag(p, PKT_L4PROTO, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(l4proto), 1);
		break;
	case META_PKTTYPE:
		need_flag(p, PKT_PKTTYPE, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(pkttype), 1);
		break;
	case META_CPU:
		/* regs[dreg] = bpf_get_smp_processor_id() */
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		break;
	case META_PRANDOM:
		/* regs[dreg] = bpf_get_prandom_u32() */
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_prandom_u32));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		break;
	}
}

const struct codegen_expr_ops codegen_expr_meta = {
	.name = "meta",
	.check = meta_check,
	.const_size = meta_const_size,
	.shape = meta_shape,
	.consts = meta_consts,
	.emit = meta_emit,
};
