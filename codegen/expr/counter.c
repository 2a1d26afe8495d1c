// SPDX-License-Identifier: GPL-2.0-only
/* counter.c - count packets and bytes in a per-CPU map slot (nft_counter.c). */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/counter.h"

static int counter_check(const struct expr *e, struct dp_error *err)
{
	(void)e;
	(void)err;
	return 0;
}

static uint32_t counter_const_size(const struct expr *e)
{
	(void)e;
	return 4;	/* slot */
}

static void counter_shape(const struct expr *e, struct codegen_key *k)
{
	(void)e;
	(void)k;
}

static void counter_consts(const struct expr *e, uint8_t *dst,
			   const struct codegen_consts_ctx *cc)
{
	const struct expr_counter *c = expr_priv(e);

	(void)cc;
	memcpy(dst, &c->slot, 4);
}

void codegen_emit_counter(struct codegen_prog *p,
			  const struct codegen_expr_ctx *ec)
{
	uint32_t l_skip = codegen_label_new(p);

	/* r0 = &counters[consts.slot]; if r0 == NULL goto skip */
	codegen_emit_slot_lookup(p, ec, ec->env->counters_fd, l_skip);
	/* lock r0->packets += 1; lock r0->bytes += pkt.len */
	codegen_emit(p, INSN_MOV64_IMM(R1, 1));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1,
					offsetof(struct codegen_counter, packets)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_ATOMIC_ADD(BPF_DW, R0, R1,
					offsetof(struct codegen_counter, bytes)));
	codegen_label_bind(p, l_skip);
}

static void counter_emit(struct codegen_prog *p, const struct expr *e,
			 const struct codegen_expr_ctx *ec)
{
	(void)e;
	codegen_emit_counter(p, ec);
}

const struct codegen_expr_ops codegen_expr_counter = {
	.name = "counter",
	.check = counter_check,
	.const_size = counter_const_size,
	.shape = counter_shape,
	.consts = counter_consts,
	.emit = counter_emit,
};
