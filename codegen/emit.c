// SPDX-License-Identifier: GPL-2.0-only
/*
 * emit.c - instruction buffer with a sticky error (libbpf gen_loader.c
 * style): emitters return void, the first -errno is kept in p->err and
 * codegen_prog_finish() reports it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"

#define LABEL_UNBOUND	UINT32_MAX

void codegen_prog_init(struct codegen_prog *p)
{
	memset(p, 0, sizeof(*p));
}

void codegen_prog_fini(struct codegen_prog *p)
{
	free(p->insns);
	free(p->labels);
	free(p->lused);
	free(p->fix);
	p->insns = NULL;
	p->labels = NULL;
	p->lused = NULL;
	p->fix = NULL;
}

static int grow(void **buf, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*buf, (size_t)ncap * elem);
	if (!n)
		return -ENOMEM;
	*buf = n;
	*cap = ncap;
	return 0;
}

static void set_err(struct codegen_prog *p, int err)
{
	if (!p->err)
		p->err = err;
}

void codegen_emit(struct codegen_prog *p, struct bpf_insn insn)
{
	if (p->err)
		return;
	if (p->len >= 1000000) {	/* BPF_COMPLEXITY_LIMIT_INSNS */
		set_err(p, -E2BIG);
		return;
	}
	if (grow((void **)&p->insns, &p->cap, p->len + 1, sizeof(insn))) {
		set_err(p, -ENOMEM);
		return;
	}
	p->insns[p->len++] = insn;
}

uint32_t codegen_label_new(struct codegen_prog *p)
{
	if (grow((void **)&p->labels, &p->caplabels, p->nlabels + 1,
		 sizeof(uint32_t))) {
		set_err(p, -ENOMEM);
		return 0;
	}
	if (grow((void **)&p->lused, &p->caplused, p->nlabels + 1, 1)) {
		set_err(p, -ENOMEM);
		return 0;
	}
	p->labels[p->nlabels] = LABEL_UNBOUND;
	p->lused[p->nlabels] = 0;
	return p->nlabels++;
}

void codegen_label_bind(struct codegen_prog *p, uint32_t l)
{
	if (p->err)
		return;
	if (l >= p->nlabels || p->labels[l] != LABEL_UNBOUND) {
		set_err(p, -EINVAL);
		return;
	}
	p->labels[l] = p->len;
}

static void add_fixup(struct codegen_prog *p, uint32_t l)
{
	if (p->err)
		return;
	if (grow((void **)&p->fix, &p->capfix, p->nfix + 1, sizeof(*p->fix))) {
		set_err(p, -ENOMEM);
		return;
	}
	p->fix[p->nfix].insn = p->len;
	p->fix[p->nfix].label = l;
	p->nfix++;
	if (l < p->nlabels)
		p->lused[l] = 1;
}

void codegen_emit_jmp(struct codegen_prog *p, struct bpf_insn insn, uint32_t l)
{
	add_fixup(p, l);
	codegen_emit(p, insn);
}

void codegen_emit_call(struct codegen_prog *p, uint32_t l)
{
	add_fixup(p, l);
	codegen_emit(p, INSN_CALL_REL(0));
}

void codegen_emit_ld_func(struct codegen_prog *p, int dst, uint32_t l)
{
	add_fixup(p, l);
	codegen_emit(p, INSN_LD_IMM64_LO(dst, BPF_PSEUDO_FUNC, 0));
	codegen_emit(p, INSN_LD_IMM64_HI(0));
}

void codegen_emit_ld_map(struct codegen_prog *p, int dst, int fd)
{
	codegen_emit(p, INSN_LD_IMM64_LO(dst, BPF_PSEUDO_MAP_FD, fd));
	codegen_emit(p, INSN_LD_IMM64_HI(0));
}

static void func_begin(struct codegen_prog *p, uint32_t l, uint8_t global)
{
	if (p->nfuncs >= sizeof(p->funcs) / sizeof(p->funcs[0])) {
		set_err(p, -E2BIG);
		return;
	}
	codegen_label_bind(p, l);
	p->func_global[p->nfuncs] = global;
	p->funcs[p->nfuncs++] = l;
}

void codegen_func_begin(struct codegen_prog *p, uint32_t l)
{
	func_begin(p, l, 0);
}

void codegen_func_begin_global(struct codegen_prog *p, uint32_t l)
{
	func_begin(p, l, 1);
}

void codegen_defer_func(struct codegen_prog *p, uint32_t l,
			void (*emit)(struct codegen_prog *p,
				     const struct codegen_env *env,
				     const void *arg),
			const void *arg)
{
	if (p->ndeferred >= sizeof(p->deferred) / sizeof(p->deferred[0])) {
		set_err(p, -E2BIG);
		return;
	}
	p->deferred[p->ndeferred].label = l;
	p->deferred[p->ndeferred].emit = emit;
	p->deferred[p->ndeferred].arg = arg;
	p->ndeferred++;
}

void codegen_emit_deferred(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t i;

	/* an emitter may defer more functions: ndeferred grows meanwhile */
	for (i = 0; i < p->ndeferred; i++) {
		codegen_func_begin(p, p->deferred[i].label);
		p->deferred[i].emit(p, env, p->deferred[i].arg);
	}
	p->ndeferred = 0;
}

bool codegen_label_used(const struct codegen_prog *p, uint32_t l)
{
	return l < p->nlabels && p->lused[l];
}

int codegen_prog_finish(struct codegen_prog *p)
{
	uint32_t i;

	if (p->err)
		return p->err;
	for (i = 0; i < p->nfix; i++) {
		struct bpf_insn *insn = &p->insns[p->fix[i].insn];
		uint32_t target = p->labels[p->fix[i].label];
		int64_t rel;

		if (target == LABEL_UNBOUND) {
			set_err(p, -EINVAL);
			break;
		}
		rel = (int64_t)target - (int64_t)p->fix[i].insn - 1;
		if (BPF_CLASS(insn->code) == BPF_LD ||
		    (BPF_OP(insn->code) == BPF_CALL &&
		     insn->src_reg == BPF_PSEUDO_CALL)) {
			insn->imm = (int32_t)rel;	/* |rel| < 2^31 */
			continue;
		}
		if (rel < INT16_MIN || rel > INT16_MAX) {
			set_err(p, -ERANGE);
			break;
		}
		insn->off = (int16_t)rel;
	}
	/* function starts, as instruction offsets */
	for (i = 0; !p->err && i < p->nfuncs; i++)
		p->funcs[i] = p->labels[p->funcs[i]];
	p->nfix = 0;
	return p->err;
}

int codegen_reg_ok(uint8_t slot, uint32_t len)
{
	return len >= 1 && len <= DATA_VALUE_MAXLEN && slot >= REG_DATA_FIRST &&
	       slot + (len + 3) / 4 <= REG_DATA_END;
}

void codegen_emit_reg_zero(struct codegen_prog *p, uint8_t slot, uint32_t len)
{
	uint32_t w;

	for (w = 0; w < (len + 3) / 4; w++)
		/* *(u32 *)(st + regs[slot + w]) = 0 */
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(slot + w), 0));
}

void codegen_emit_probe_read(struct codegen_prog *p, int16_t dst, uint32_t len,
			     int base, int16_t src)
{
	if (src < 0) {
		if (!p->err)
			p->err = -EOPNOTSUPP;
		return;
	}
	/* probe_read_kernel(st + dst, len, base + src) */
	codegen_emit(p, INSN_MOV64_REG(R3, base));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, src));
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, dst));
	codegen_emit(p, INSN_MOV64_IMM(R2, len));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
}

void codegen_emit_probe_deref(struct codegen_prog *p, int reg, int16_t src,
			      uint32_t l_null)
{
	/* st->scratch = 0; probe_read(scratch, 8, reg + src) */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, reg, src);
	/* reg = scratch; if reg == 0 goto null */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, reg, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, reg, 0, 0), l_null);
}

/* codegen_emit_scale: see codegen.h */
void codegen_emit_scale(struct codegen_prog *p, int16_t cmod, int16_t coff,
			uint8_t dreg)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, cmod));
	codegen_emit(p, INSN_ALU64_REG(BPF_MUL, R0, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R0, 32));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, coff));
	codegen_emit(p, INSN_ALU32_REG(BPF_ADD, R0, R1));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, REG_OFF(dreg)));
}

void codegen_emit_copy(struct codegen_prog *p, int dst, int16_t doff, int src,
		       int16_t soff, uint32_t len, int tmp)
{
	uint32_t done = 0;

	while (done < len) {
		uint32_t rest = len - done;
		int size = rest >= 4 ? BPF_W : rest >= 2 ? BPF_H : BPF_B;
		uint32_t n = rest >= 4 ? 4 : rest >= 2 ? 2 : 1;

		/* tmp = *(size *)(src + soff + done); *(dst + doff + done) = tmp */
		codegen_emit(p, INSN_LDX_MEM(size, tmp, src, soff + done));
		codegen_emit(p, INSN_STX_MEM(size, dst, tmp, doff + done));
		done += n;
	}
}

void codegen_emit_copy_to_reg(struct codegen_prog *p, uint8_t slot, int src,
			      int16_t soff, uint32_t len)
{
	/* nft_data_copy(): the last partial word is zeroed first */
	if (len % 4)
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(slot + len / 4), 0));
	codegen_emit_copy(p, R6, REG_OFF(slot), src, soff, len,
			  src == R0 ? R1 : R0);
}

void codegen_emit_becmp_at(struct codegen_prog *p, int ra, int16_t aoff,
			   int rb, int16_t boff, int ta, int tb, uint32_t len,
			   uint32_t l_lt, uint32_t l_eq, uint32_t l_gt)
{
	uint32_t done = 0;

	while (done < len) {
		uint32_t rest = len - done;
		int size = rest >= 4 ? BPF_W : rest >= 2 ? BPF_H : BPF_B;
		uint32_t n = rest >= 4 ? 4 : rest >= 2 ? 2 : 1;

		/* ta = be(a chunk); tb = be(b chunk) */
		codegen_emit(p, INSN_LDX_MEM(size, ta, ra, aoff + done));
		codegen_emit(p, INSN_LDX_MEM(size, tb, rb, boff + done));
		if (n > 1) {
			codegen_emit(p, INSN_TO_BE(ta, n * 8));
			codegen_emit(p, INSN_TO_BE(tb, n * 8));
		}
		/* if ta < tb goto lt; if ta > tb goto gt */
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, ta, tb, 0), l_lt);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, ta, tb, 0), l_gt);
		done += n;
	}
	/* goto eq */
	codegen_emit_jmp(p, INSN_JA(0), l_eq);
}

void codegen_emit_becmp(struct codegen_prog *p, int16_t regoff, int16_t coff,
			uint32_t len, uint32_t l_lt, uint32_t l_eq, uint32_t l_gt)
{
	/* registers are at r6 (state), constants at r7 (entry) */
	codegen_emit_becmp_at(p, R6, regoff, R7, coff, R1, R2, len, l_lt, l_eq, l_gt);
}

void codegen_emit_view_len(struct codegen_prog *p, const struct codegen_env *env,
			   int dst, int tmp)
{
	uint32_t l_done;

	/* dst = pkt.len */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, dst, R6, PKT_OFF(len)));
	if (env->ctx != CODEGEN_CTX_TC_EGRESS)
		return;
	/* egress: skb->len counts the link layer header: dst -= view_off,
	 * unless a bridge chain's view already counts from the network
	 * header (PKT_BRVIEW, codegen/walker.c emit_head_br()) */
	l_done = codegen_label_new(p);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, tmp, R6, PKT_OFF(flags)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JSET, tmp, PKT_BRVIEW, 0), l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, tmp, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, dst, tmp));
	codegen_label_bind(p, l_done);
}

void codegen_emit_dynptr(struct codegen_prog *p, const struct codegen_env *env,
			 int ctx_reg, int16_t fp_off)
{
	uint32_t l_ok = codegen_label_new(p);

	/* bpf_dynptr_from_skb(skb, 0, fp + off): netfilter ctx->skb, tc ctx */
	if (env->ctx == CODEGEN_CTX_NF)
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, ctx_reg, env->off.ctx_skb));
	else
		codegen_emit(p, INSN_MOV64_REG(R1, ctx_reg));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, fp_off));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_from_skb));
	if (env->ctx == CODEGEN_CTX_NF)
		return;
	/* tc: r0 = bpf_dynptr_adjust(fp + off, view_off, view_off + view_len) */
	codegen_emit_view_len(p, env, R3, R2);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R2, R6, PKT_OFF(view_off)));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R3, R2));
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, fp_off));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_adjust));
	/* a view the skb does not hold (never): an empty one, every load
	 * fails rather than reading from the wrong place */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_ok);
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, fp_off));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_adjust));
	codegen_label_bind(p, l_ok);
}

void codegen_emit_rec_submit(struct codegen_prog *p, const struct codegen_env *env,
			     int16_t caplen_off, int16_t data_off, uint32_t cap)
{
	uint32_t l_cap = codegen_label_new(p), l_submit = codegen_label_new(p);

	/* rec->caplen = 0; the packet view as a dynptr */
	codegen_emit(p, INSN_ST_MEM(BPF_H, R9, caplen_off, 0));
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	/* r2 = min(view length, cap), kept at SHAPE_KEY_OFF */
	codegen_emit_view_len(p, env, R2, R3);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R2, cap, 0), l_cap);
	codegen_emit(p, INSN_MOV64_IMM(R2, cap));
	codegen_label_bind(p, l_cap);
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R2, SHAPE_KEY_OFF));
	/* r0 = bpf_dynptr_read(rec + data_off, r2, &dynptr, 0, 0) */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, data_off));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, 0));
	codegen_emit(p, INSN_MOV64_IMM(R5, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_read));
	/* if r0 == 0: rec->caplen = r2 */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_submit);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R9, R1, caplen_off));
	/* bpf_ringbuf_submit(rec, 0) */
	codegen_label_bind(p, l_submit);
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_submit));
}

void codegen_emit_slice(struct codegen_prog *p, const struct codegen_env *env,
			uint32_t len, uint32_t l_fail)
{
	/* r9 = offset; the packet view at SHAPE_DYNPTR_OFF */
	codegen_emit(p, INSN_MOV64_REG(R9, R2));
	codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
	/* r0 = bpf_dynptr_slice(&dynptr, r9, buf, len); if !r0 goto fail */
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, SHAPE_DYNPTR_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_MOV64_REG(R3, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_BUF_OFF));
	codegen_emit(p, INSN_MOV64_IMM(R4, len));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_slice));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_fail);
}

void codegen_emit_slot_lookup(struct codegen_prog *p,
			      const struct codegen_expr_ctx *ec, int fd,
			      uint32_t l_null)
{
	/* key = consts.slot; r0 = map_lookup_elem(fd, &key) */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit_ld_map(p, R1, fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	/* if r0 == NULL goto l_null */
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_null);
}
