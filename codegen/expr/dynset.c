// SPDX-License-Identifier: GPL-2.0-only
/*
 * dynset.c - add, update and delete set elements from the packet path
 * (nft_dynset.c), in the exact-match set map the lookups read.
 *
 * The key is built as lookup.c builds it ([fp-68] id, [fp-64..] key).
 * An element the packet path adds is present in both generations (the
 * kernel's dynamic elements are active at once and stay so); its value
 * is built in a per-CPU scratch entry. The set's size limit (the kernel's
 * set->nelems against set->size) is the set's count word in the state
 * map: the number of its entries in the set map, kept by both sides.
 *
 *	delete: if map_delete(key) == 0: count -= 1
 *	add/update: e = lookup(key), live in this generation?
 *	  yes: update refreshes e's expiry (both halves); match
 *	  no: if fetch_add(count, 1) >= size: count -= 1, no match
 *	      map_update(key, {valid, expires = now + timeout} x 2); match
 *	      (no entry before: BPF_NOEXIST; another CPU's meanwhile:
 *	      count -= 1, that one matches)
 *	match: invert ? NFT_BREAK : go on; no match: invert ? go on : NFT_BREAK
 *
 * A "ct count" on the elements (nft_connlimit's clone per element): the
 * element's list is a value of env->cl_fd under CL_SET_TAG | the set id
 * and the element's key (codegen_cl_key.addr holds any set key), so no
 * list id has to live in the element. A new element's list starts empty
 * (an old one under the same key, left by an element gone since, is
 * reset); then nf_conncount_add() on it and (count > limit) ^ invert:
 * NFT_BREAK (nft_set_elem_update_expr()). Elements whose list empties are
 * removed by nfbpfd's set garbage collection (offload/sets.c), as the
 * kernel's nft_rhash_gc() does for NFT_SET_EVAL sets.
 */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/dynset.h"
#include "expr/counter.h"
#include "expr/limit.h"
#include "expr/connlimit.h"

#define KEY_OFF		SHAPE_BUF_OFF		/* key bytes */
#define ID_OFF		(SHAPE_BUF_OFF - 4)	/* set id */
#define HALF_SIZE	((int32_t)sizeof(struct codegen_set_half))
#define FOUND_OFF	SHAPE_KEY_OFF		/* an entry was there */
#define MKEY_OFF	(SHAPE_KEY_OFF - 8)	/* count/scratch map key */
#define NEW_OFF		(SHAPE_KEY_OFF - 4)	/* this packet made the element */

/* consts: id, count word slot, size, limit invert, timeout (jiffies),
 * limit: tokens_max, cost (packets) or nsecs and rate (bytes) */
#define C_ID		0
#define C_COUNT		4
#define C_SIZE		8
#define C_INVERT	12
#define C_TIMEOUT	16
#define C_TOKENS_MAX	24	/* codegen_limit_fill_bucket(): 24 bytes */
#define C_CL_LIMIT	48	/* ct count: limit, invert */
#define C_CL_INVERT	52
#define C_SIZE_ALL	56
#define DATA(h, f)	((int16_t)((h) * HALF_SIZE + \
			 offsetof(struct codegen_set_half, data) + (f)))

/*
 * the statements an element the rule adds gets: at most one counter and
 * one limit (@c, @l: NULL if none), or one ct count alone (@cl); -1 for
 * anything else
 */
static int dynset_stmts(const struct expr_dynset *d,
			const struct expr_counter **c,
			const struct expr_limit **l,
			const struct expr_connlimit **cl)
{
	const struct expr *x;

	*c = NULL;
	*l = NULL;
	*cl = NULL;
	expr_for_each_in(x, (const struct expr *)d->exprs, d->exprs_len) {
		if (x->type == EXPR_COUNTER && !*c)
			*c = expr_priv(x);
		else if (x->type == EXPR_LIMIT && !*l)
			*l = expr_priv(x);
		else if (x->type == EXPR_CONNLIMIT && !*cl)
			*cl = expr_priv(x);
		else
			return -1;
	}
	return 0;
}

static int dynset_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_dynset *d = expr_priv(e);
	const struct set *s = d->set;
	const struct expr_counter *c;
	const struct expr_limit *l;
	const struct expr_connlimit *cl;

	if (!s) {
		err->msg = "dynset: no set";
		return -EOPNOTSUPP;
	}
	if (s->flags & (NFT_SET_F_INTERVAL | NFT_SET_F_OBJECT))
		return codegen_set_refuse(err, s, "dynset on interval or object sets is");
	if (s->flags & NFT_SET_F_MAP)
		return codegen_set_refuse(err, s, "dynset on maps ('add @m { key : value }') is");
	if (dynset_stmts(d, &c, &l, &cl))
		return codegen_set_refuse(err, s, "statements other than one counter and "
			      "one limit, or one ct count, on elements the packet path adds are");
	if (cl && (c || l))
		return codegen_set_refuse(err, s, "ct count with other statements on "
			      "elements the packet path adds is");
	if (cl && d->invert)
		return codegen_set_refuse(err, s, "ct count on elements an inverted "
			      "dynset adds is");
	if (d->op > DYNSET_OP_DELETE) {
		err->msg = "dynset: unknown operation";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(d->sreg_key, s->klen) || s->klen > SET_KLEN_MAX) {
		err->msg = "dynset: key register or length out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t dynset_const_size(const struct expr *e)
{
	(void)e;
	return C_SIZE_ALL;
}

/* does an element the rule adds get an expiry? (nft_dynset_init tmpl) */
static bool dynset_timed(const struct expr_dynset *d)
{
	return (d->set->flags & NFT_SET_F_TIMEOUT) &&
	       (d->timeout || d->set->timeout);
}

static void dynset_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_dynset *d = expr_priv(e);
	const struct expr_counter *c;
	const struct expr_limit *l;
	const struct expr_connlimit *cl;
	uint8_t b[8];

	dynset_stmts(d, &c, &l, &cl);
	b[0] = d->op;
	b[1] = d->sreg_key;
	b[2] = d->invert;
	b[3] = dynset_timed(d);
	b[4] = !!c;
	b[5] = !!l;
	b[6] = l && l->bytes;
	b[7] = !!cl;
	codegen_key_put(k, b, sizeof(b));
	codegen_key_put(k, &d->set->klen, sizeof(d->set->klen));
}

static void dynset_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_dynset *d = expr_priv(e);
	uint32_t id = cc->set_id ? cc->set_id(cc->priv, d->set) : 0;
	uint32_t count = cc->set_count ? cc->set_count(cc->priv, d->set) : 0;
	uint32_t size = d->set->size;
	uint64_t timeout = d->timeout ? d->timeout : d->set->timeout;

	const struct expr_counter *c;
	const struct expr_limit *l;
	const struct expr_connlimit *cl;

	memset(dst, 0, C_SIZE_ALL);
	memcpy(dst + C_ID, &id, 4);
	memcpy(dst + C_COUNT, &count, 4);
	memcpy(dst + C_SIZE, &size, 4);
	memcpy(dst + C_TIMEOUT, &timeout, 8);
	dynset_stmts(d, &c, &l, &cl);
	if (l) {
		uint32_t invert = l->invert;

		memcpy(dst + C_INVERT, &invert, 4);
		codegen_limit_fill_bucket(l, dst + C_TOKENS_MAX);
	}
	if (cl) {
		uint32_t invert = cl->invert;

		memcpy(dst + C_CL_LIMIT, &cl->limit, 4);
		memcpy(dst + C_CL_INVERT, &invert, 4);
	}
}

/*
 * r9 = the element's value in the map: its statements, in half 0
 * (nft_set_elem_update_expr); a limit over its rate breaks the rule
 */
static void emit_stmts(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		       const struct expr_counter *c, const struct expr_limit *l)
{
	if (c) {
		/* lock packets += 1; lock bytes += pkt.len */
		codegen_emit(p, INSN_MOV64_IMM(R1, 1));
		codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R9, R1, DATA(0, SET_DATA_PACKETS)));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
		codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R9, R1, DATA(0, SET_DATA_BYTES)));
	}
	if (!l)
		return;
	/* the token bucket of codegen/expr/limit.c on the element's word */
	codegen_emit_limit_bucket(p, l->bytes, DATA(0, SET_DATA_LIMIT),
				  ec->cbase + C_INVERT, ec->cbase + C_TOKENS_MAX,
				  ec->l_break);
}

/* r0 = &state[consts.count]; if r0 == NULL goto @l_null */
static void emit_count(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		       uint32_t l_null)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_COUNT));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, MKEY_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, MKEY_OFF));
	codegen_emit_ld_map(p, R1, ec->env->state_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_null);
}

/*
 * the element's "ct count" (r9 = its value): the list key into the per-CPU
 * scratch (CL_SET_TAG | set id, the key words from the frame, the rest
 * zero), then nf_conncount_add() on the list and (count > limit) ^ invert:
 * NFT_BREAK. A failed add drops (codegen_emit_conncount()).
 */
static void emit_connlimit(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			   uint32_t words)
{
	const int16_t key = (int16_t)offsetof(struct codegen_cl_scratch, key);
	const int16_t addr = key + (int16_t)offsetof(struct codegen_cl_key, addr);
	const int16_t elem_new = (int16_t)offsetof(struct codegen_cl_scratch, elem_new);
	uint32_t l_drop = codegen_label_new(p), l_go = codegen_label_new(p);
	uint32_t i;

	/* r9 = the scratch */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, MKEY_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, MKEY_OFF));
	codegen_emit_ld_map(p, R1, ec->env->cl_scratch_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_go);
	codegen_label_bind(p, l_drop);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	codegen_label_bind(p, l_go);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* key.id = CL_SET_TAG | consts.id */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_ID));
	codegen_emit(p, INSN_MOV64_IMM(R2, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 62));
	codegen_emit(p, INSN_ALU64_REG(BPF_OR, R1, R2));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, key));
	for (i = 0; i < SET_KEY_WORDS_MAX; i++) {
		if (i < words) {
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, KEY_OFF + 4 * i));
			codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, addr + 4 * i));
		} else {
			codegen_emit(p, INSN_ST_MEM(BPF_W, R9, addr + 4 * i, 0));
		}
	}
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, key +
		     (int16_t)offsetof(struct codegen_cl_key, zone), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, NEW_OFF));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, elem_new));
	codegen_emit_conncount(p, ec, CL_ELEM_SLOT, NULL);
	/* (count > limit) ^ invert: NFT_BREAK */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_CL_LIMIT));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R1, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_CL_INVERT));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R2));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 0, 0), ec->l_break);
}

/* r1 = r9->half[h].expires = jiffies + consts.timeout (r9: the value) */
static void emit_expiry_set(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			    bool timed)
{
	uint32_t h;

	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	if (timed) {
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_TIMEOUT));
		codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R0));
	}
	for (h = 0; h < 2; h++)
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, h * HALF_SIZE +
			     (int16_t)offsetof(struct codegen_set_half, expires)));
}

static void dynset_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_dynset *d = expr_priv(e);
	const struct set *s = d->set;
	uint32_t klen = s->klen, words = (klen + 3) / 4;
	int fd = ec->env->set_hash_fd[words];
	uint32_t l_match = codegen_label_new(p), l_nomatch = codegen_label_new(p);
	uint32_t l_new = codegen_label_new(p), l_end = codegen_label_new(p);
	uint32_t l_half = codegen_label_new(p), l_live = codegen_label_new(p);
	uint32_t l_full = codegen_label_new(p), l_half2 = codegen_label_new(p);
	uint32_t l_stmts = codegen_label_new(p);
	const struct expr_counter *c;
	const struct expr_limit *l;
	const struct expr_connlimit *cl;

	dynset_stmts(d, &c, &l, &cl);
	if (fd <= 0 || ec->env->set_scratch_fd <= 0) {
		if (!p->err)
			p->err = -ENOENT;	/* the dataplane creates them first */
		return;
	}
	/* key: id, registers (zero padded) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase + C_ID));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, ID_OFF));
	if (4 * words > klen)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R10, KEY_OFF + 4 * (words - 1), 0));
	codegen_emit_copy(p, R10, KEY_OFF, R6, REG_OFF(d->sreg_key), klen, R1);
	if (d->op == DYNSET_OP_DELETE) {
		/* if map_delete_elem(set, key) == 0: count -= 1 */
		codegen_emit(p, INSN_MOV64_REG(R2, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ID_OFF));
		codegen_emit_ld_map(p, R1, fd);
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_delete_elem));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_end);
		emit_count(p, ec, l_end);
		codegen_emit(p, INSN_MOV64_IMM(R1, -1));
		codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1, 0));
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		goto out;
	}
	/* r0 = map_lookup_elem(set, key); found = r0 != NULL */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FOUND_OFF, 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, NEW_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ID_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_new);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, FOUND_OFF, 1));
	/* r9 = value; r0 = the half of this generation; valid? */
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_half);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, HALF_SIZE));
	codegen_label_bind(p, l_half);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R0,
				     offsetof(struct codegen_set_half, valid)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_new);
	/* timed out (nft_set_elem_expired)? then as if absent */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R0,
				     offsetof(struct codegen_set_half, expires)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_live);
	/* r0 = jiffies; r2 = the half again; if r0 >= r2->expires goto new */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_jiffies64));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(genbit)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, R1, 1, 0), l_half2);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, HALF_SIZE));
	codegen_label_bind(p, l_half2);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R2,
				     offsetof(struct codegen_set_half, expires)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R0, R1, 0), l_new);
	/* live: update restarts its timeout, add leaves it */
	if (d->op == DYNSET_OP_UPDATE && dynset_timed(d))
		emit_expiry_set(p, ec, true);
	codegen_label_bind(p, l_live);
	codegen_emit_jmp(p, INSN_JA(0), l_match);

	/* new: count += 1 unless the set is full (an entry there already
	 * counts) */
	codegen_label_bind(p, l_new);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, FOUND_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_full);
	emit_count(p, ec, l_nomatch);
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + C_SIZE));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R1, R2, 0), l_full);
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1, 0));
	codegen_emit_jmp(p, INSN_JA(0), l_nomatch);
	codegen_label_bind(p, l_full);
	/* r9 = scratch value: valid in both generations, expires */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, MKEY_OFF, 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, MKEY_OFF));
	codegen_emit_ld_map(p, R1, ec->env->set_scratch_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_nomatch);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, offsetof(struct codegen_set_half, valid), 1));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, HALF_SIZE +
				    offsetof(struct codegen_set_half, valid), 1));
	emit_expiry_set(p, ec, dynset_timed(d));
	/* r9->half[h].data = its timeout (dataplane_set_read() lists it) */
	codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	if (dynset_timed(d))
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_TIMEOUT));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, DATA(0, SET_DATA_TIMEOUT)));
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R1, DATA(1, SET_DATA_TIMEOUT)));
	/* its statements' state: counter zero, a full bucket (nft_limit_init),
	 * flags */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, DATA(0, SET_DATA_PACKETS), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, DATA(0, SET_DATA_BYTES), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, DATA(0, SET_DATA_LIMIT), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, DATA(0, SET_DATA_FLAGS),
				    (c || l || cl) ? SET_STMTS_INLINE |
				    (cl ? SET_STMTS_CONNLIMIT : 0) : 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, NEW_OFF, 1));
	if (l) {
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ktime_get_ns));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase + C_TOKENS_MAX));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R0, R1));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R0, DATA(0, SET_DATA_LIMIT)));
	}
	/* map_update_elem(set, key, r9, found ? BPF_ANY : BPF_NOEXIST):
	 * with no entry there, another CPU may add the key first */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R10, FOUND_OFF));
	codegen_emit(p, INSN_ALU64_IMM(BPF_XOR, R4, 1));
	codegen_emit(p, INSN_MOV64_REG(R3, R9));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ID_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_update_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_match);
	/* not added: the count goes back (if this added it); the key another
	 * CPU added meanwhile is the element (nft_rhash_update(): prev), not
	 * a new one; no memory for it: no match */
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, FOUND_OFF));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_nomatch);
	emit_count(p, ec, l_nomatch);
	codegen_emit(p, INSN_MOV64_IMM(R1, -1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1, 0));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R9, -EEXIST, 0), l_nomatch);
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, NEW_OFF, 0));
	codegen_emit_jmp(p, INSN_JA(0), l_match);

	codegen_label_bind(p, l_match);
	if (c || l || cl) {
		/* r9 = the element in the map (a new one: look it up) */
		codegen_emit(p, INSN_MOV64_REG(R2, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ID_OFF));
		codegen_emit_ld_map(p, R1, fd);
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_stmts);
		codegen_emit(p, INSN_MOV64_REG(R9, R0));
		/* an element the control plane added has none (the set's) */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R9, DATA(0, SET_DATA_FLAGS)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, cl ? SET_STMTS_CONNLIMIT :
					       SET_STMTS_INLINE));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_stmts);
		if (cl)
			emit_connlimit(p, ec, words);
		else
			emit_stmts(p, ec, c, l);
		codegen_label_bind(p, l_stmts);
	}
	if (d->invert)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	else
		codegen_emit_jmp(p, INSN_JA(0), l_end);
	codegen_label_bind(p, l_nomatch);
	if (!d->invert)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
out:
	codegen_label_bind(p, l_end);
}

/* a ct count on the elements reads the packet's conntrack */
static bool dynset_reads_ct(const struct expr *e)
{
	const struct expr_dynset *d = expr_priv(e);
	const struct expr *x;

	expr_for_each_in(x, (const struct expr *)d->exprs, d->exprs_len)
		if (x->type == EXPR_CONNLIMIT)
			return true;
	return false;
}

/*
 * shapes outlive the rules and sets they were made from: a shape's copy
 * of the expression points to its own copy of the set's shape fields
 */
int codegen_dynset_detach(struct expr *e)
{
	return codegen_set_detach(&((struct expr_dynset *)expr_priv(e))->set);
}

void codegen_dynset_release(struct expr *e)
{
	codegen_set_release(&((struct expr_dynset *)expr_priv(e))->set);
}

const struct codegen_expr_ops codegen_expr_dynset = {
	.name = "dynset",
	.check = dynset_check,
	.const_size = dynset_const_size,
	.shape = dynset_shape,
	.consts = dynset_consts,
	.emit = dynset_emit,
	.reads_ct = dynset_reads_ct,
};
