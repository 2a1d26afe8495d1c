// SPDX-License-Identifier: GPL-2.0-only
/*
 * numgen.c - numgen random (nft_ng_random_eval): reciprocal_scale() of a
 * random u32 into [offset, offset + modulus). Modulus and offset are rule
 * constants. The incremental form needs a counter shared by all CPUs and
 * kept across commits: not built yet, refused.
 */
#include <errno.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/numgen.h"

struct numgen_consts {
	uint32_t modulus;
	uint32_t offset;
};

static int numgen_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_numgen *n = expr_priv(e);

	if (n->type != NUMGEN_RANDOM) {
		err->msg = "numgen inc is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(n->dreg, 4)) {
		err->msg = "numgen: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t numgen_const_size(const struct expr *e)
{
	(void)e;
	return sizeof(struct numgen_consts);
}

static void numgen_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_numgen *n = expr_priv(e);

	codegen_key_put(k, &n->type, 4);
	codegen_key_put(k, &n->dreg, 1);
}

static void numgen_consts(const struct expr *e, uint8_t *dst,
			  const struct codegen_consts_ctx *cc)
{
	const struct expr_numgen *n = expr_priv(e);
	struct numgen_consts c = { n->modulus, n->offset };

	(void)cc;
	memcpy(dst, &c, sizeof(c));
}

static void numgen_emit(struct codegen_prog *p, const struct expr *e,
			const struct codegen_expr_ctx *ec)
{
	const struct expr_numgen *n = expr_priv(e);

	/* r0 = bpf_get_prandom_u32() (zero-extended) */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_prandom_u32));
	codegen_emit(p, INSN_MOV32_REG(R0, R0));
	codegen_emit_scale(p, ec->cbase + offsetof(struct numgen_consts, modulus),
			   ec->cbase + offsetof(struct numgen_consts, offset), n->dreg);
}

const struct codegen_expr_ops codegen_expr_numgen = {
	.name = "numgen",
	.check = numgen_check,
	.const_size = numgen_const_size,
	.shape = numgen_shape,
	.consts = numgen_consts,
	.emit = numgen_emit,
};
