// SPDX-License-Identifier: GPL-2.0-only
/*
 * hashlimit.c - the hashlimit match (xt_hashlimit.c hashlimit_mt_common),
 * revisions 1, 2 and 3, the token bucket counting packets. Byte mode
 * (--hashlimit-above 1kb/s: a bucket refilled whole every second, whose
 * outcome depends on when packets come within the second, which no
 * differential test pins down) and the rate match mode of revision 3
 * (--hashlimit-rate-match) are refused.
 *
 * As in the kernel, the table (codegen.h: struct codegen_hl_table) has
 * the configuration of the rule that created it: it decides what the key
 * holds (addresses under the table's prefixes, ports), how an entry's
 * credit refills (rateinfo_recalc() with the table's mode) and a new
 * entry's credit (rateinfo_init()); the rule's own mode decides how a
 * packet is charged (bytes or packets) and the inversion.
 *
 *	key = dsthash_dst of the packet (failing: hotdrop)
 *	e = the entry of key, or a new one (hotdrop if the table holds
 *	    cfg.max entries); under e's lock: a new entry starts at now,
 *	    an old one refills; e->expires = now + expire
 *	cost = e->cost
 *	credit >= cost: credit -= cost, match = !invert; else invert
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/netfilter/xt_hashlimit.h>
#include "codegen/xt/xt.h"

#define NFPROTO_IPV6_	10

/* constants: u64 table key */
#define C_KEY		0

/* the shape frame: the entry key, then the count pointer, the table */
#define FP_KEY		SHAPE_BUF_OFF
#define FP_COUNT	(SHAPE_BUF_OFF + 48)
#define FP_TABLE	(SHAPE_BUF_OFF + 56)
/* st->scratch: the ports (before the key is built), then now */
#define ST_PORTS	ST_OFF(scratch)
#define ST_NOW		((int16_t)(ST_OFF(scratch) + 8))

#define T(f)	((int16_t)offsetof(struct codegen_hl_table, f))
#define E(f)	((int16_t)offsetof(struct codegen_hl_ent, f))
#define K(f)	((int16_t)(FP_KEY + offsetof(struct codegen_hl_key, f)))

uint64_t codegen_hl_key(const char *name, uint8_t family)
{
	return codegen_recent_hash(name) ^ ((uint64_t)family << 56) ^ 0x484c;
}

/* the rule's own cfg.mode and name */
static uint32_t hl_mode(const struct expr_xt *x)
{
	uint32_t mode;

	if (x->rev == 1)
		memcpy(&mode, x->info + offsetof(struct xt_hashlimit_mtinfo1, cfg.mode), 4);
	else if (x->rev == 2)
		memcpy(&mode, x->info + offsetof(struct xt_hashlimit_mtinfo2, cfg.mode), 4);
	else
		memcpy(&mode, x->info + offsetof(struct xt_hashlimit_mtinfo3, cfg.mode), 4);
	return mode;
}

static int hl_check(const struct expr_xt *x, struct dp_error *err)
{
	uint32_t mode = hl_mode(x);

	if (!(mode & (XT_HASHLIMIT_RATE_MATCH | XT_HASHLIMIT_BYTES)))
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'hashlimit' in %s mode is not supported by the nfbpf dataplane",
		 mode & XT_HASHLIMIT_RATE_MATCH ? "rate match" : "byte");
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static void hl_consts(const struct expr_xt *x, uint8_t *dst)
{
	char name[NAME_MAX + 1] = { 0 };
	uint64_t key;

	memcpy(name, x->info, x->rev == 1 ? IFNAMSIZ : NAME_MAX);
	name[x->rev == 1 ? IFNAMSIZ - 1 : NAME_MAX] = 0;
	key = codegen_hl_key(name, x->family);
	memcpy(dst + C_KEY, &key, 8);
}

static void hl_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint32_t mode = hl_mode(x) & XT_HASHLIMIT_INVERT;
	codegen_key_put(k, &x->family, 1);
	codegen_key_put(k, &mode, 4);
}

#define SKIP_MAX	16	/* extension headers after an AH header */
#define ST_OFFS		((int16_t)(ST_OFF(scratch) + 4))
#define ST_CUR		((int16_t)(ST_OFF(scratch) + 8))

/*
 * r1 = the protocol, r2 = its offset as ipv6_skip_exthdr() finds them,
 * from r1/r2 = nft's (ipv6_find_hdr() with IP6_FH_F_AUTH stops at an AH
 * header, ipv6_skip_exthdr() goes on through it and the headers after).
 * A non-first fragment's header: goto @l_none (no ports); no upper header
 * or a truncated one: goto @l_drop; more than SKIP_MAX headers after the
 * AH one: @l_drop as well (not exact: the kernel goes on).
 */
static void emit_skip_auth(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			   uint32_t l_none, uint32_t l_drop)
{
	uint32_t l_proto = codegen_label_new(p);
	int i;

	/* nft stops at "no next header" too, ipv6_skip_exthdr() fails */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 59, 0), l_drop);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 51, 0), l_proto);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFFS));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R1, ST_CUR));
	for (i = 0; i < SKIP_MAX; i++) {
		uint32_t l_auth = codegen_label_new(p), l_opt = codegen_label_new(p);
		uint32_t l_frag = codegen_label_new(p), l_adv = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_CUR));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 51, 0), l_auth);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_opt);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 43, 0), l_opt);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 60, 0), l_opt);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 44, 0), l_frag);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 59, 0), l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFFS));
		codegen_emit_jmp(p, INSN_JA(0), l_proto);
		/* AH: (hdrlen + 2) << 2 */
		codegen_label_bind(p, l_auth);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFFS));
		codegen_emit_slice(p, ec->env, 2, l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R0, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 2));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R4, 2));
		codegen_emit_jmp(p, INSN_JA(0), l_adv);
		/* options, routing: (hdrlen + 1) << 3 */
		codegen_label_bind(p, l_opt);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFFS));
		codegen_emit_slice(p, ec->env, 2, l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R4, R0, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R4, 3));
		codegen_emit_jmp(p, INSN_JA(0), l_adv);
		/* fragment: a non-first one ends the walk there; else 8 */
		codegen_label_bind(p, l_frag);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFFS));
		codegen_emit_slice(p, ec->env, 4, l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R4, R0, 2));
		codegen_emit(p, INSN_TO_BE(R4, 16));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R4, 0xfff8));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R4, 0, 0), l_none);
		codegen_emit(p, INSN_MOV64_IMM(R4, 8));
		/* off += len; cur = next */
		codegen_label_bind(p, l_adv);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, ST_OFFS));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R2, R4));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFFS));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R3, ST_CUR));
	}
	codegen_emit_jmp(p, INSN_JA(0), l_drop);
	codegen_label_bind(p, l_proto);
}

/*
 * ST_PORTS = the 4 bytes of ports hashlimit_init_dst() reads (0 for a
 * protocol without), or hotdrop. r9 = the table.
 */
static void emit_ports(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	static const uint8_t at0[] = { 6, 17, 33, 50, 132, 136 };
	bool v6 = x->family == NFPROTO_IPV6_;
	uint32_t l_none = codegen_label_new(p), l_done = codegen_label_new(p);
	uint32_t l_read = codegen_label_new(p), l_drop = codegen_label_new(p);
	size_t i;

	/* the network header is in the packet cache (whole: 20 or 40 bytes
	 * of a valid header at these hooks) */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nhc_len)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, v6 ? 40 : 20, 0), ec->l_break);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_PORTS, 0));
	/* no port in the key: nothing to read */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, T(mode)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, XT_HASHLIMIT_HASH_DPT |
					     XT_HASHLIMIT_HASH_SPT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_done);
	if (v6) {
		/* ipv6_skip_exthdr() failing (no upper header, truncated):
		 * hotdrop; stopping at a non-first fragment's header: no
		 * ports */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_L4PROTO));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_drop);
		codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, PKT_OFF(fragoff)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_done);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(l4proto)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
		emit_skip_auth(p, ec, l_none, l_drop);
	} else {
		/* ip_hdr(skb)->protocol */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_NHC_OFF + 9));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(thoff)));
	}
	/* r2 = thoff + proto_ports_offset(proto) */
	for (i = 0; i < sizeof(at0); i++)
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, at0[i], 0), l_read);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 51, 0), l_none);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, 4));
	codegen_label_bind(p, l_read);
	codegen_emit_slice(p, ec->env, 4, l_drop);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_PORTS));
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_none);
	codegen_label_bind(p, l_done);
}

/* the key's address at @koff: the header's at @hoff & the mask at @moff */
static void emit_addr(struct codegen_prog *p, bool v6, int16_t koff,
		      int16_t hoff, int16_t moff)
{
	uint32_t i, n = v6 ? 4 : 1;

	for (i = 0; i < n; i++) {
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_NHC_OFF + hoff + 4 * i));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, moff + 4 * i));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R1, R2));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, koff + 4 * i));
	}
}

static void emit_key(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	bool v6 = x->family == NFPROTO_IPV6_;
	uint32_t l_nosip = codegen_label_new(p), l_nodip = codegen_label_new(p);
	uint32_t l_nospt = codegen_label_new(p), l_nodpt = codegen_label_new(p);
	int16_t off;

	/* the key: table, zeros */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_KEY));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, K(table)));
	for (off = K(src); off < FP_KEY + 48; off += 8)
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, off, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, T(mode)));
	codegen_emit(p, INSN_MOV64_REG(R4, R3));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R4, XT_HASHLIMIT_HASH_DIP));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_nodip);
	emit_addr(p, v6, K(dst), v6 ? 24 : 16, T(dstmask));
	codegen_label_bind(p, l_nodip);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, T(mode)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, XT_HASHLIMIT_HASH_SIP));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_nosip);
	emit_addr(p, v6, K(src), v6 ? 8 : 12, T(srcmask));
	codegen_label_bind(p, l_nosip);
	/* ports */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, T(mode)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, XT_HASHLIMIT_HASH_SPT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_nospt);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_PORTS));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R10, R1, K(sport)));
	codegen_label_bind(p, l_nospt);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R9, T(mode)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, XT_HASHLIMIT_HASH_DPT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_nodpt);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R6, ST_PORTS + 2));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R10, R1, K(dport)));
	codegen_label_bind(p, l_nodpt);
}

/* under the lock, r9 = the entry, r5 = the table: rateinfo_recalc() with
 * the table's mode, or a new entry's start */
static void emit_recalc(struct codegen_prog *p)
{
	uint32_t l_old = codegen_label_new(p), l_done = codegen_label_new(p);

	/* r0 = now; r1 = prev; new (prev 0): prev = now */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R6, ST_NOW));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, E(prev)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_old);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R0, E(prev)));
	codegen_emit_jmp(p, INSN_JA(0), l_done);
	codegen_label_bind(p, l_old);
	/* r2 = delta = now - prev; if 0: nothing; prev = now */
	codegen_emit(p, INSN_MOV64_REG(R2, R0));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R2, R1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_done);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R0, E(prev)));
	/* credit += delta * cpj; credit = min(credit, credit_cap) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R5, T(cpj)));
	codegen_emit(p, INSN_ALU64_REG(BPF_MUL, R3, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, E(credit)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R1));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R9, E(credit_cap)));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R3, R4, 1));
	codegen_emit(p, INSN_MOV64_REG(R3, R4));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R3, E(credit)));
	codegen_label_bind(p, l_done);
	/* e->expires = now + expire */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R5, T(expire)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, E(expires)));
}

static void hl_emit(struct codegen_prog *p, const struct expr_xt *x,
		    const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t mode = hl_mode(x);
	bool inv = mode & XT_HASHLIMIT_INVERT;
	uint32_t l_table = codegen_label_new(p), l_drop = codegen_label_new(p);
	uint32_t l_have = codegen_label_new(p), l_cnt = codegen_label_new(p);
	uint32_t l_ins = codegen_label_new(p), l_cost = codegen_label_new(p);
	uint32_t l_over = codegen_label_new(p), l_end = codegen_label_new(p);

	if (env->hl_table_fd < 0 || env->hl_ent_fd < 0 || env->hl_count_fd < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* 1. r9 = the table (none: hotdrop; a packet racing its removal) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_KEY));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R1, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, env->hl_table_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_table);
	codegen_label_bind(p, l_drop);
	codegen_xt_emit_hotdrop(p, ec);
	codegen_label_bind(p, l_table);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R9, FP_TABLE));
	/* 2. the key (ports first: reading them may use the frame) */
	emit_ports(p, x, ec);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R10, FP_TABLE));
	emit_key(p, x, ec);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R6, R0, ST_NOW));
	/* 3. r0 = the entry */
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FP_KEY));
	codegen_emit_ld_map(p, R1, env->hl_ent_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_have);
	/* none: count it (cfg.max reached: undo, hotdrop) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R10, FP_TABLE));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, T(slot)));
	codegen_emit_ld_map(p, R1, env->hl_count_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R0, FP_COUNT));
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R10, FP_TABLE));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R9, T(max)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_ins);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R10, FP_COUNT));
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1, 0));
	codegen_emit_jmp(p, INSN_JA(0), l_drop);
	/* insert the table's template (BPF_NOEXIST); lost a race: uncount */
	codegen_label_bind(p, l_ins);
	codegen_emit(p, INSN_MOV64_REG(R3, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, T(tmpl)));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FP_KEY));
	codegen_emit(p, INSN_MOV64_IMM(R4, BPF_NOEXIST));
	codegen_emit_ld_map(p, R1, env->hl_ent_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_update_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_cnt);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R0, R10, FP_COUNT));
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1, 0));
	codegen_label_bind(p, l_cnt);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, FP_KEY));
	codegen_emit_ld_map(p, R1, env->hl_ent_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_drop);
	/* 4. lock; refill; charge */
	codegen_label_bind(p, l_have);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_spin_lock));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R5, R10, FP_TABLE));
	emit_recalc(p);
	/* cost = e->cost */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R9, E(cost)));
	codegen_label_bind(p, l_cost);
	/* credit >= cost: credit -= cost, r0 = !invert; else r0 = invert */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9, E(credit)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R3, 0), l_over);
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R1, R3));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, E(credit)));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_COUNT, !inv));
	codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_over);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R10, FP_COUNT, inv));
	codegen_label_bind(p, l_end);
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_spin_unlock));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R10, FP_COUNT));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
}

const struct codegen_xt_ops codegen_xt_hashlimit1 = {
	.name = "hashlimit", .rev = 1,
	.minlen = offsetof(struct xt_hashlimit_mtinfo1, hinfo),
	.check = hl_check, .const_size = 8, .consts = hl_consts,
	.shape = hl_shape, .emit = hl_emit,
};

const struct codegen_xt_ops codegen_xt_hashlimit2 = {
	.name = "hashlimit", .rev = 2,
	.minlen = offsetof(struct xt_hashlimit_mtinfo2, hinfo),
	.check = hl_check, .const_size = 8, .consts = hl_consts,
	.shape = hl_shape, .emit = hl_emit,
};

const struct codegen_xt_ops codegen_xt_hashlimit3 = {
	.name = "hashlimit", .rev = 3,
	.minlen = offsetof(struct xt_hashlimit_mtinfo3, hinfo),
	.check = hl_check, .const_size = 8, .consts = hl_consts,
	.shape = hl_shape, .emit = hl_emit,
};
