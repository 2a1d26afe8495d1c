// SPDX-License-Identifier: GPL-2.0-only
/*
 * objref.c - run a named stateful object (nft_objref.c): the one the rule
 * names, or the one an object map gives for a key.
 *
 * Each live counter, quota and limit object owns dataplane slots (the
 * dataplane assigns them at commit, offload/dataplane.c) that every rule
 * and map element naming it shares: a counter slot, like a counter
 * expression's; state slots, like the limit and quota expressions'. What
 * the code reads of an object is its descriptor (codegen.h): the rule's
 * constants for a named object, the element's data for a map. For a map,
 * r7 points at the element's descriptor while the object's code runs (the
 * entry pointer waits on the stack), so the same emitters serve both.
 *
 * Objects that change the connection (ct helper, ct timeout, ct
 * expectation, synproxy) or the packet's security mark are refused: a
 * netfilter BPF program can do neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/limit.h"
#include "expr/objref.h"
#include "object.h"

#define NSEC_PER_SEC		1000000000ull

/* descriptor offsets */
#define OD_SLOT			0	/* counter slot / quota consumed / limit */
#define OD_QWORD		4	/* quota: slot of the quota word */
#define OD_LIMIT_BYTES		32	/* limit: u32 1 = bytes */
#define OD_LIMIT_SIZE		40

#define QUOTA_INV_SHIFT		63

/* where r7 waits while a map element's descriptor stands in for it */
#define FP_SAVED_R7		(-8)

bool codegen_obj_type_ok(uint32_t type)
{
	return type == OBJ_TYPE_COUNTER || type == OBJ_TYPE_QUOTA ||
	       type == OBJ_TYPE_LIMIT;
}

uint32_t codegen_obj_desc_size(uint32_t type)
{
	switch (type) {
	case OBJ_TYPE_COUNTER:
		return 4;
	case OBJ_TYPE_QUOTA:
		return 8;
	case OBJ_TYPE_LIMIT:
		return OD_LIMIT_SIZE;
	}
	return 0;
}

/* nft_limit_init() and nft_limit_pkts_init() of an object's parameters
 * (nfnl/obj/limit.c checked that none of this overflows) */
static void limit_of(const struct obj_limit *o, struct expr_limit *l)
{
	memset(l, 0, sizeof(*l));
	l->rate = o->rate;
	l->nsecs = o->unit * NSEC_PER_SEC;
	l->burst = o->burst;
	l->bytes = o->type == OBJ_LIMIT_PKT_BYTES;
	l->invert = o->flags & OBJ_LIMIT_F_INV;
	if (!l->rate)
		return;
	if (l->bytes) {
		l->tokens_max = l->nsecs * (l->rate + l->burst) / l->rate;
	} else {
		l->tokens_max = l->nsecs / l->rate * l->burst;
		l->cost = l->nsecs / l->rate;
	}
}

int codegen_obj_desc(const struct object *obj, uint8_t *dst)
{
	struct expr_limit l;
	uint32_t bytes;

	if (!obj->dp_slot[0])
		return -ENOENT;
	switch (obj->type) {
	case OBJ_TYPE_COUNTER:
		memcpy(dst + OD_SLOT, &obj->dp_slot[0], 4);
		return 0;
	case OBJ_TYPE_QUOTA:
		if (!obj->dp_slot[1])
			return -ENOENT;
		memcpy(dst + OD_SLOT, &obj->dp_slot[0], 4);
		memcpy(dst + OD_QWORD, &obj->dp_slot[1], 4);
		return 0;
	case OBJ_TYPE_LIMIT:
		limit_of(&obj->data.limit, &l);
		l.slot = obj->dp_slot[0];
		codegen_limit_fill(&l, dst);
		bytes = l.bytes;
		memcpy(dst + OD_LIMIT_BYTES, &bytes, 4);
		return 0;
	}
	return -EOPNOTSUPP;
}

uint64_t codegen_obj_quota_word(const struct object *obj)
{
	const struct obj_quota *q = &obj->data.quota;

	return (q->quota & ~(1ull << QUOTA_INV_SHIFT)) |
	       ((uint64_t)!!(q->flags & OBJ_QUOTA_F_INV) << QUOTA_INV_SHIFT);
}

/* nft_limit_init(): a full bucket (tokens = tokens_max, last = now) */
uint64_t codegen_obj_limit_init(const struct object *obj, uint64_t now)
{
	struct expr_limit l;

	limit_of(&obj->data.limit, &l);
	return now - l.tokens_max;
}

/* why: what the object would do; the whole message fits an extended
 * ack (159 characters) */
#define CANNOT	", which a netfilter BPF program cannot do (not supported by nfbpf)"

static int refuse_type(uint32_t type, struct dp_error *err)
{
	switch (type) {
	case OBJ_TYPE_CT_HELPER:
		err->msg = "expression 'objref': ct helper objects set the "
			   "connection's helper" CANNOT;
		break;
	case OBJ_TYPE_CT_TIMEOUT:
		err->msg = "expression 'objref': ct timeout objects set the "
			   "connection's timeout policy" CANNOT;
		break;
	case OBJ_TYPE_CT_EXPECT:
		err->msg = "expression 'objref': ct expectation objects create "
			   "conntrack expectations" CANNOT;
		break;
	case OBJ_TYPE_SYNPROXY:
		err->msg = "expression 'objref': synproxy objects answer SYNs "
			   "and rewrite the connection" CANNOT;
		break;
	case OBJ_TYPE_SECMARK:
		err->msg = "expression 'objref': secmark objects set the "
			   "packet's security mark" CANNOT;
		break;
	default:
		snprintf(err->buf, sizeof(err->buf),
			 "expression 'objref': object type %u is not supported "
			 "by the nfbpf dataplane", type);
		err->msg = err->buf;
		break;
	}
	return -EOPNOTSUPP;
}

static int objref_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_objref *o = expr_priv(e);
	const struct set *s = o->set;
	const struct expr *x;

	if (!s) {
		if (!o->obj) {
			err->msg = "expression 'objref': no object";
			return -EOPNOTSUPP;
		}
		return codegen_obj_type_ok(o->obj->type) ? 0 :
		       refuse_type(o->obj->type, err);
	}
	if (!codegen_obj_type_ok(s->objtype))
		return refuse_type(s->objtype, err);
	/* element counters: kept and listed (nft_objref_map_eval does not
	 * count the element it finds); other statements refused */
	expr_for_each_in(x, s->exprs, s->exprs_len) {
		if (x->type == EXPR_COUNTER)
			continue;
		snprintf(err->buf, sizeof(err->buf),
			 "set '%.64s': element statements other than counter "
			 "are not supported by the nfbpf dataplane yet",
			 s->name ? s->name : "");
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (codegen_set_ranges(s)) {
		uint32_t i, sum = 0;

		for (i = 0; i < s->nfields && i < SET_FIELDS_MAX; i++)
			sum += (s->field_len[i] + 3u) & ~3u;
		if (!s->nfields || s->nfields > SET_FIELDS_MAX || sum != s->klen) {
			snprintf(err->buf, sizeof(err->buf),
				 "set '%.64s': interval concatenations without "
				 "field lengths are not supported by the nfbpf "
				 "dataplane yet", s->name ? s->name : "");
			err->msg = err->buf;
			return -EOPNOTSUPP;
		}
	}
	if (!codegen_reg_ok(o->sreg, s->klen) || s->klen > SET_KLEN_MAX) {
		err->msg = "objref: key register or length out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t objref_const_size(const struct expr *e)
{
	const struct expr_objref *o = expr_priv(e);

	return o->set ? 4 : codegen_obj_desc_size(o->obj->type);
}

static void objref_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_objref *o = expr_priv(e);
	uint8_t b[3] = { 0 };

	if (o->set) {
		b[0] = 1;
		b[1] = o->sreg;
		codegen_key_put(k, b, sizeof(b));
		codegen_lookup_shape_set(o->set, k);
		return;
	}
	b[1] = (uint8_t)o->obj->type;
	b[2] = o->obj->type == OBJ_TYPE_LIMIT &&
	       o->obj->data.limit.type == OBJ_LIMIT_PKT_BYTES;
	codegen_key_put(k, b, sizeof(b));
}

static void objref_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_objref *o = expr_priv(e);
	uint32_t id;

	if (o->set) {
		id = cc->set_id ? cc->set_id(cc->priv, o->set) : 0;
		memcpy(dst, &id, 4);
		return;
	}
	/* the dataplane gave every object a slot before any rule's
	 * constants: a missing one is a bug, which the zero slot exposes */
	if (codegen_obj_desc(o->obj, dst))
		memset(dst, 0, codegen_obj_desc_size(o->obj->type));
}

/*
 * quota object: nft_quota_do_eval() with the quota and its invert flag
 * in the state word at the descriptor's OD_QWORD slot (an update changes
 * that word, not the rules naming the object)
 */
static void emit_quota(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	struct codegen_expr_ctx qc = *ec;

	/* r0 = &quota word; if NULL goto break; r9 = *r0 */
	qc.cbase = (int16_t)(ec->cbase + OD_QWORD);
	codegen_emit_slot_lookup(p, &qc, ec->env->state_fd, ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R0, 0));
	/* r0 = &consumed; if NULL goto break */
	codegen_emit_slot_lookup(p, ec, ec->env->state_fd, ec->l_break);
	/* r1 = atomic_fetch_add(r0, pkt.len) + pkt.len */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_MOV64_REG(R1, R2));
	codegen_emit(p, INSN_ATOMIC_FETCH_ADD(BPF_DW, R0, R1, 0));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R1, R2));
	/* r2 = quota = r9 << 1 >> 1; r3 = r1 > quota (u64) */
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_LSH, R2, 1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_JMP_REG(BPF_JLE, R1, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	/* if r3 ^ (r9 >> 63) goto break */
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R9, QUOTA_INV_SHIFT));
	codegen_emit(p, INSN_ALU64_REG(BPF_XOR, R3, R9));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R3, 0, 0), ec->l_break);
}

/* the object's code, its descriptor at r7 + ec->cbase */
static void emit_object(struct codegen_prog *p, uint32_t type, int bytes,
			const struct codegen_expr_ctx *ec)
{
	uint32_t l_bytes, l_out;

	switch (type) {
	case OBJ_TYPE_COUNTER:
		codegen_emit_counter(p, ec);
		break;
	case OBJ_TYPE_QUOTA:
		emit_quota(p, ec);
		break;
	case OBJ_TYPE_LIMIT:
		if (bytes >= 0) {
			codegen_emit_limit(p, ec, bytes);
			break;
		}
		/* either kind in one map: if consts.bytes goto bytes */
		l_bytes = codegen_label_new(p);
		l_out = codegen_label_new(p);
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7,
					     ec->cbase + OD_LIMIT_BYTES));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_bytes);
		codegen_emit_limit(p, ec, false);
		codegen_emit_jmp(p, INSN_JA(0), l_out);
		codegen_label_bind(p, l_bytes);
		codegen_emit_limit(p, ec, true);
		codegen_label_bind(p, l_out);
		break;
	default:
		if (!p->err)
			p->err = -EOPNOTSUPP;	/* objref_check() refused it */
		break;
	}
}

static void objref_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_objref *o = expr_priv(e);
	struct codegen_expr_ctx oc = *ec;
	uint32_t l_out, l_brk;

	if (!o->set) {
		emit_object(p, o->obj->type,
			    o->obj->type == OBJ_TYPE_LIMIT &&
			    o->obj->data.limit.type == OBJ_LIMIT_PKT_BYTES, ec);
		return;
	}
	/* 1. r0 = the element's half, or break (nft_objref_map_eval) */
	codegen_emit_set_find(p, o->set, o->sreg, ec);
	/* 2. *(u64 *)(fp - 8) = r7; r7 = &half->data (the descriptor) */
	codegen_emit(p, INSN_STX_MEM(BPF_DW, R10, R7, FP_SAVED_R7));
	codegen_emit(p, INSN_MOV64_REG(R7, R0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R7,
				       offsetof(struct codegen_set_half, data)));
	/* 3. the object's code; r7 back on both ways out */
	l_out = codegen_label_new(p);
	l_brk = codegen_label_new(p);
	oc.cbase = 0;
	oc.l_break = l_brk;
	emit_object(p, o->set->objtype, -1, &oc);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R7, R10, FP_SAVED_R7));
	if (!codegen_label_used(p, l_brk)) {
		codegen_label_bind(p, l_brk);
		codegen_label_bind(p, l_out);
		return;
	}
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	codegen_label_bind(p, l_brk);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R7, R10, FP_SAVED_R7));
	codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_out);
}

/*
 * shapes outlive the rules, sets and objects they were made from: a
 * shape's copy of the expression points to its own copy of what its code
 * depends on (the set's shape fields, the object's type and data)
 */
int codegen_objref_detach(struct expr *e)
{
	struct expr_objref *o = expr_priv(e);
	struct object *c;

	if (o->set)
		return codegen_set_detach(&o->set);
	if (!o->obj)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->type = o->obj->type;
	c->data = o->obj->data;
	o->obj = c;
	return 0;
}

void codegen_objref_release(struct expr *e)
{
	struct expr_objref *o = expr_priv(e);

	if (o->set)
		codegen_set_release(&o->set);
	else
		free(o->obj);
	o->obj = NULL;
}

const struct codegen_expr_ops codegen_expr_objref = {
	.name = "objref",
	.check = objref_check,
	.const_size = objref_const_size,
	.shape = objref_shape,
	.consts = objref_consts,
	.emit = objref_emit,
};
