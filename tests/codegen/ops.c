// SPDX-License-Identifier: GPL-2.0-only
/* ops.c - every expression type has codegen ops; emitter errors stick. */
#include <criterion/criterion.h>
#include <errno.h>
#include "codegen/codegen.h"
#include "codegen/insn.h"

Test(codegen_ops, every_slot_filled)
{
	int i;

	for (i = 0; i < __EXPR_MAX; i++) {
		const struct codegen_expr_ops *o = codegen_expr_ops[i];

		cr_assert_not_null(o, "type %d", i);
		cr_assert(o->name && o->check && o->const_size && o->shape &&
			  o->consts && o->emit, "type %d (%s)", i, o->name);
	}
}

Test(codegen_emit, jump_out_of_s16_is_erange)
{
	struct codegen_prog p;
	uint32_t l;
	int i;

	codegen_prog_init(&p);
	l = codegen_label_new(&p);
	codegen_emit_jmp(&p, INSN_JA(0), l);
	for (i = 0; i < 40000; i++)
		codegen_emit(&p, INSN_MOV64_IMM(R0, 0));
	codegen_label_bind(&p, l);
	codegen_emit(&p, INSN_EXIT());
	cr_assert_eq(codegen_prog_finish(&p), -ERANGE);
	codegen_prog_fini(&p);
}

Test(codegen_emit, unbound_label_is_einval_and_sticky)
{
	struct codegen_prog p;
	uint32_t l;

	codegen_prog_init(&p);
	l = codegen_label_new(&p);
	codegen_emit_jmp(&p, INSN_JA(0), l);
	codegen_emit(&p, INSN_EXIT());
	cr_assert_eq(codegen_prog_finish(&p), -EINVAL);
	codegen_emit(&p, INSN_EXIT());	/* ignored after an error */
	cr_assert_eq(p.len, 2);
	codegen_prog_fini(&p);
}

Test(codegen_emit, jump_offsets_resolved)
{
	struct codegen_prog p;
	uint32_t l;

	codegen_prog_init(&p);
	l = codegen_label_new(&p);
	codegen_emit_jmp(&p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l);
	codegen_emit(&p, INSN_MOV64_IMM(R0, 1));
	codegen_emit(&p, INSN_MOV64_IMM(R0, 2));
	codegen_label_bind(&p, l);
	codegen_emit(&p, INSN_EXIT());
	cr_assert_eq(codegen_prog_finish(&p), 0);
	cr_assert_eq(p.insns[0].off, 2);
	codegen_prog_fini(&p);
}
