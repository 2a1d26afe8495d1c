// SPDX-License-Identifier: GPL-2.0-only
/*
 * lookup.c - set and map lookups (nft_lookup.c).
 *
 * The set's dataplane id is the rule constant; its elements are in the
 * shared map of its kind and key size (codegen.h, "Sets"). The key is
 * built on the shape frame's stack: [fp-72] prefix length (LPM only),
 * [fp-68] id, [fp-64, fp-64 + klen) the key bytes from the registers.
 * Interval concatenations scan their slots with bpf_loop (a deferred
 * static callback per lookup), context in [fp-88, fp-64).
 *
 *	found = lookup(key) ^ invert
 *	if !found: ext = catchall, or NFT_BREAK if none
 *	maps: data / verdict of ext into dreg
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/lookup.h"

#define KEY_OFF		SHAPE_BUF_OFF		/* key bytes */
#define ID_OFF		(SHAPE_BUF_OFF - 4)	/* set id */
#define PLEN_OFF	(SHAPE_BUF_OFF - 8)	/* LPM prefix length */
#define HALF_SIZE	((int32_t)sizeof(struct codegen_set_half))

int codegen_set_refuse(struct dp_error *err, const struct set *s,
		       const char *what)
{
	snprintf(err->buf, sizeof(err->buf),
		 "set '%.64s': %s not supported by the nfbpf dataplane yet",
		 s->name ? s->name : "", what);
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static int lookup_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_lookup *l = expr_priv(e);
	const struct set *s = l->set;
	const struct expr *x;

	if (!s) {
		err->msg = "lookup: no set";
		return -EOPNOTSUPP;
	}
	if (s->flags & NFT_SET_F_OBJECT)
		return codegen_set_refuse(err, s, "object maps are");
	expr_for_each_in(x, s->exprs, s->exprs_len)
		if (x->type != EXPR_COUNTER)
			return codegen_set_refuse(err, s, "element statements other than counter are");
	if (codegen_set_ranges(s)) {
		uint32_t i, sum = 0;

		for (i = 0; i < s->nfields && i < SET_FIELDS_MAX; i++)
			sum += (s->field_len[i] + 3u) & ~3u;
		if (!s->nfields || s->nfields > SET_FIELDS_MAX || sum != s->klen)
			return codegen_set_refuse(err, s, "interval concatenations without field lengths are");
	}
	if (!codegen_reg_ok(l->sreg, s->klen) || s->klen > SET_KLEN_MAX) {
		err->msg = "lookup: key register or length out of range";
		return -EOPNOTSUPP;
	}
	if (l->has_dreg) {
		if (!(s->flags & NFT_SET_F_MAP) || l->invert) {
			err->msg = "lookup: destination register without a map";
			return -EOPNOTSUPP;
		}
		if (s->dtype == NFT_DATA_VERDICT_TYPE) {
			if (l->dreg != REG_VERDICT) {
				err->msg = "lookup: verdict map into a data register";
				return -EOPNOTSUPP;
			}
		} else if (!codegen_reg_ok(l->dreg, s->dlen)) {
			err->msg = "lookup: data register or length out of range";
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

static uint32_t lookup_const_size(const struct expr *e)
{
	(void)e;
	return 4;	/* set id */
}

static void lookup_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_lookup *l = expr_priv(e);
	const struct set *s = l->set;
	uint8_t b[8] = {
		l->sreg, l->invert, l->has_dreg, l->dreg,
		codegen_set_interval(s),
		l->has_dreg && s->dtype == NFT_DATA_VERDICT_TYPE,
		codegen_set_ranges(s) ? (uint8_t)s->nfields : 0,
		codegen_set_counted(s),
	};
	uint32_t dlen = l->has_dreg ? s->dlen : 0;

	codegen_key_put(k, b, sizeof(b));
	if (codegen_set_ranges(s))
		codegen_key_put(k, s->field_len, s->nfields);
	codegen_key_put(k, &s->klen, sizeof(s->klen));
	codegen_key_put(k, &dlen, sizeof(dlen));
}

static void lookup_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_lookup *l = expr_priv(e);
	uint32_t id = cc->set_id ? cc->set_id(cc->priv, l->set) : 0;

	memcpy(dst, &id, 4);
}

/* zero @len bytes of the stack at @off */
static void emit_stack_zero(struct codegen_prog *p, int16_t off, uint32_t len)
{
	uint32_t done = 0;

	while (done < len) {
		uint32_t rest = len - done;
		int size = rest >= 4 ? BPF_W : rest >= 2 ? BPF_H : BPF_B;

		codegen_emit(p, INSN_ST_MEM(size, R10, off + done, 0));
		done += rest >= 4 ? 4 : rest >= 2 ? 2 : 1;
	}
}

/*
 * r0 = a valid half: if it has timed out (bpf_jiffies64() >= expires, as
 * nft_set_elem_expired()) goto @l_miss (r9 clobbered)
 */
static void emit_expiry(struct codegen_prog *p, uint32_t l_miss)
{
	uint32_t l_live = codegen_label_new(p);

	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0,
				     offsetof(struct codegen_set_half, expires)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_live);
	/* r9 = half; r0 = jiffies; if r0 >= r9->expires goto miss; r0 = r9 */
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R9,
				     offsetof(struct codegen_set_half, expires)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R0, R1, 0), l_miss);
	codegen_emit(p, INSN_MOV64_REG(R0, R9));
	codegen_label_bind(p, l_live);
}

/*
 * r0 = map_lookup_elem(map, key); go to @l_miss unless present in the
 * current generation; else r0 = its half
 */
static void emit_map_lookup(struct codegen_prog *p, int fd, bool lpm,
			    uint32_t l_miss)
{
	uint32_t l_half = codegen_label_new(p);

	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, lpm ? PLEN_OFF : ID_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_miss);
	/* if !(st->genbit & 1) r0 += sizeof(half): generation 1 */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_half);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, HALF_SIZE));
	codegen_label_bind(p, l_half);
	/* if !r0->valid goto miss */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
				     offsetof(struct codegen_set_half, valid)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_miss);
	emit_expiry(p, l_miss);
}

/*
 * interval concatenations: the shape frame's [fp-88, fp) is the loop
 * context: +0 id, +4 slot index (map key with id), +8 matching slot
 * (~0: none), +12 st->genbit, +24 the key bytes (= KEY_OFF)
 */
#define RCTX_OFF	(SHAPE_BUF_OFF - 24)
#define RCTX_ID		0
#define RCTX_IDX	4
#define RCTX_FOUND	8
#define RCTX_GENBIT	12
#define RCTX_KEY	24
#define RANGE_HALF(g)	((int16_t)(offsetof(struct codegen_set_range, val) + \
				   (g) * sizeof(struct codegen_set_half)))

/*
 * bpf_loop callback cb(index, ctx): slot index of the set matches the key
 * in the current generation? then ctx->found = index, stop
 */
static void emit_range_cb(struct codegen_prog *p, const struct codegen_env *env,
			  const void *arg)
{
	const struct set *s = arg;
	uint32_t l_next = codegen_label_new(p), l_h0 = codegen_label_new(p);
	uint32_t i, off = 0;

	/* r6 = ctx; r7 = index; key {ctx->id, index} at fp-8 */
	codegen_emit(p, INSN_MOV64_REG(R6, R2));
	codegen_emit(p, INSN_MOV64_REG(R7, R1));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R6, RCTX_ID));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R3, -8));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R7, -4));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, -8));
	codegen_emit_ld_map(p, R1, env->set_range_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_next);
	/* valid in this generation? */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, RCTX_GENBIT));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0, RANGE_HALF(0)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_h0);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0, RANGE_HALF(1)));
	codegen_label_bind(p, l_h0);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_next);
	/* every field: start <= key <= end */
	for (i = 0; i < s->nfields; i++) {
		uint32_t len = s->field_len[i];
		uint32_t l_ok1 = codegen_label_new(p), l_ok2 = codegen_label_new(p);

		codegen_emit_becmp_at(p, R6, RCTX_KEY + off, R0,
			    offsetof(struct codegen_set_range, start) + off, R4, R5, len,
			    l_next, l_ok1, l_ok1);
		codegen_label_bind(p, l_ok1);
		codegen_emit_becmp_at(p, R6, RCTX_KEY + off, R0,
			    offsetof(struct codegen_set_range, end) + off, R4, R5, len,
			    l_ok2, l_ok2, l_next);
		codegen_label_bind(p, l_ok2);
		off += (len + 3) & ~3u;
	}
	/* ctx->found = index; return 1 (stop) */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R7, RCTX_FOUND));
	codegen_emit(p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(p, INSN_EXIT());
	codegen_label_bind(p, l_next);
	codegen_emit(p, INSN_MOV64_IMM(R0, 0));
	codegen_emit(p, INSN_EXIT());
}

/* r0 = map_lookup_elem(ranges, {id, ctx idx}); half of this generation */
static void emit_range_slot(struct codegen_prog *p, int fd, uint32_t l_miss)
{
	uint32_t l_half = codegen_label_new(p);

	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, RCTX_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_miss);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, RANGE_HALF(0)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_half);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, HALF_SIZE));
	codegen_label_bind(p, l_half);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
				     offsetof(struct codegen_set_half, valid)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_miss);
	emit_expiry(p, l_miss);
}

/* interval concatenation: scan the slots; r0 = the matching half */
static void emit_range_find(struct codegen_prog *p, const struct set *s,
			    uint8_t sreg, const struct codegen_expr_ctx *ec,
			    uint32_t l_miss)
{
	int fd = ec->env->set_range_fd;
	uint32_t l_cnt = codegen_label_new(p), l_cb, l_new = UINT32_MAX, i;
	uint32_t klen = s->klen;

	/* one callback per field layout in a program */
	for (i = 0; i < p->ndeferred; i++) {
		const struct set *o = p->deferred[i].arg;

		if (p->deferred[i].emit == emit_range_cb &&
		    o->nfields == s->nfields &&
		    !memcmp(o->field_len, s->field_len, o->nfields))
			break;
	}
	if (i < p->ndeferred) {
		l_cb = p->deferred[i].label;
	} else {
		l_cb = codegen_label_new(p);
		l_new = l_cb;
	}

	/* ctx: id, key bytes, found = ~0, genbit */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, RCTX_OFF + RCTX_ID));
	codegen_emit_copy(p, R10, KEY_OFF, R6, REG_OFF(sreg), klen, R1);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, RCTX_OFF + RCTX_FOUND, -1));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, RCTX_OFF + RCTX_GENBIT));
	/* r1 = count slot's start[0..4), 0 if none */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, RCTX_OFF + RCTX_IDX, (int32_t)SET_RANGE_COUNT));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, RCTX_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_cnt);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0, 0));
	codegen_label_bind(p, l_cnt);
	/* bpf_loop(count, cb, ctx, 0) */
	codegen_emit_ld_func(p, R2, l_cb);
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, RCTX_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_loop));
	if (l_cb == l_new)
		codegen_defer_func(p, l_cb, emit_range_cb, s);
	/* found? r0 = its half */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, RCTX_OFF + RCTX_FOUND));
	codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JEQ, R1, -1, 0), l_miss);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, RCTX_OFF + RCTX_IDX));
	emit_range_slot(p, fd, l_miss);
}

/*
 * r0 = the matching half: count the packet in its element's counter slot
 * (nft_set_elem_update_expr); r0 is the half again afterwards
 */
static void emit_elem_count(struct codegen_prog *p, int counters_fd)
{
	uint32_t l_none = codegen_label_new(p), l_back = codegen_label_new(p);

	/* r1 = half->counter; if r1 == 0 goto none; r9 = half */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
				     offsetof(struct codegen_set_half, counter)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_none);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* r0 = &counters[r1]; if r0 == NULL goto back */
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, counters_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_back);
	/* lock r0->packets += 1; lock r0->bytes += pkt.len */
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1,
					offsetof(struct codegen_counter, packets)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1,
					offsetof(struct codegen_counter, bytes)));
	codegen_label_bind(p, l_back);
	codegen_emit(p, INSN_MOV64_REG(R0, R9));
	codegen_label_bind(p, l_none);
}

/*
 * the element of @s for the key in @sreg (@invert: none for it), or the
 * catchall: r0 = its half, at the end of what this emits; no element:
 * goto ec->l_break; @invert and not found: goto @l_end
 */
static void emit_find(struct codegen_prog *p, const struct set *s,
		      uint8_t sreg, bool invert,
		      const struct codegen_expr_ctx *ec, uint32_t l_end)
{
	bool ranges = codegen_set_ranges(s);
	bool lpm = codegen_set_interval(s);
	uint32_t klen = s->klen, words = (klen + 3) / 4;
	uint32_t kbytes = lpm ? klen : 4 * words;
	int fd = ranges ? ec->env->set_range_fd :
		 lpm ? ec->env->set_lpm_fd[klen] : ec->env->set_hash_fd[words];
	uint32_t l_nf = codegen_label_new(p), l_hit = codegen_label_new(p);
	uint32_t l_cat = codegen_label_new(p);

	if (fd <= 0) {
		if (!p->err)
			p->err = -ENOENT;	/* the dataplane creates it first */
		return;
	}
	if (ranges) {
		emit_range_find(p, s, sreg, ec, l_nf);
		goto found;
	}
	/* key: [prefixlen,] id, registers (hash: zero padded) */
	if (lpm)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, PLEN_OFF, 32 + 8 * klen));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, ID_OFF));
	if (kbytes > klen)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, KEY_OFF + 4 * (words - 1), 0));
	codegen_emit_copy(p, R10, KEY_OFF, R6, REG_OFF(sreg), klen, R1);
	emit_map_lookup(p, fd, lpm, l_nf);
found:
	/* found: inverted goes on to the catchall, else hit */
	if (invert) {
		codegen_emit_jmp(p, INSN_JA(0), l_cat);
		/* not found, inverted: match */
		codegen_label_bind(p, l_nf);
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	} else {
		codegen_emit_jmp(p, INSN_JA(0), l_hit);
		codegen_label_bind(p, l_nf);
	}
	/* catchall: id | SET_CATCHALL_BIT, zero key; none: break */
	codegen_label_bind(p, l_cat);
	if (ranges) {
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, RCTX_OFF + RCTX_IDX,
					    (int32_t)SET_RANGE_CATCHALL));
		emit_range_slot(p, fd, ec->l_break);
		goto hit;
	}
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, (int32_t)SET_CATCHALL_BIT));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, ID_OFF));
	emit_stack_zero(p, KEY_OFF, kbytes);
	emit_map_lookup(p, fd, lpm, ec->l_break);
hit:
	codegen_label_bind(p, l_hit);
}

static void lookup_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_lookup *l = expr_priv(e);
	const struct set *s = l->set;
	uint32_t l_end = codegen_label_new(p);

	emit_find(p, s, l->sreg, l->invert, ec, l_end);
	/* nft_lookup_eval counts the element it matched (objref maps do not) */
	if (codegen_set_counted(s))
		emit_elem_count(p, ec->env->counters_fd);
	if (l->has_dreg && s->dtype == NFT_DATA_VERDICT_TYPE) {
		/* st->verdict = code; st->target = target */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
					     offsetof(struct codegen_set_half, code)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, ST_OFF(verdict)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R0,
					     offsetof(struct codegen_set_half, target)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R2, ST_OFF(target)));
		codegen_emit_jmp(p, INSN_JMP32_IMM(BPF_JNE, R1, VERDICT_CONTINUE, 0),
				 ec->l_done);
	} else if (l->has_dreg) {
		/* regs[dreg..] = data (nft_data_copy) */
		codegen_emit_copy_to_reg(p, l->dreg, R0,
					 offsetof(struct codegen_set_half, data),
					 s->dlen);
	}
	codegen_label_bind(p, l_end);
}

void codegen_emit_set_find(struct codegen_prog *p, const struct set *s,
			   uint8_t sreg, const struct codegen_expr_ctx *ec)
{
	uint32_t l_end = codegen_label_new(p);

	emit_find(p, s, sreg, false, ec, l_end);
	codegen_label_bind(p, l_end);
}

void codegen_lookup_shape_set(const struct set *s, struct codegen_key *k)
{
	uint8_t b[3] = {
		codegen_set_interval(s),
		codegen_set_ranges(s) ? (uint8_t)s->nfields : 0,
		0,
	};

	codegen_key_put(k, b, sizeof(b));
	if (codegen_set_ranges(s))
		codegen_key_put(k, s->field_len, s->nfields);
	codegen_key_put(k, &s->klen, sizeof(s->klen));
	codegen_key_put(k, &s->objtype, sizeof(s->objtype));
}

int codegen_set_detach(struct set **sp)
{
	const struct set *s = *sp;
	struct set *c;

	if (!s)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->flags = s->flags;
	c->klen = s->klen;
	c->timeout = s->timeout;	/* dynset */
	c->size = s->size;
	c->dtype = s->dtype;
	c->dlen = s->dlen;
	c->objtype = s->objtype;
	c->nfields = s->nfields;
	memcpy(c->field_len, s->field_len, sizeof(c->field_len));
	/* the set's statements: codegen_set_counted() */
	if (s->exprs_len) {
		c->exprs = malloc(s->exprs_len);
		if (!c->exprs) {
			free(c);
			return -ENOMEM;
		}
		memcpy(c->exprs, s->exprs, s->exprs_len);
		c->exprs_len = s->exprs_len;
		c->nexprs = s->nexprs;
	}
	list_init(&c->elems);
	list_init(&c->list);
	*sp = c;
	return 0;
}

/*
 * shapes outlive the rules and sets they were made from: a shape's copy
 * of the expression points to its own copy of the set's shape fields
 */
int codegen_lookup_detach(struct expr *e)
{
	return codegen_set_detach(&((struct expr_lookup *)expr_priv(e))->set);
}

void codegen_set_release(struct set **sp)
{
	if (*sp)
		free((*sp)->exprs);
	free(*sp);
	*sp = NULL;
}

void codegen_lookup_release(struct expr *e)
{
	codegen_set_release(&((struct expr_lookup *)expr_priv(e))->set);
}

const struct codegen_expr_ops codegen_expr_lookup = {
	.name = "lookup",
	.check = lookup_check,
	.const_size = lookup_const_size,
	.shape = lookup_shape,
	.consts = lookup_consts,
	.emit = lookup_emit,
};
