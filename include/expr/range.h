/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_RANGE_H
#define NFBPF_EXPR_RANGE_H
#include "expr.h"
#include "expr/cmp.h"

/**
 * struct expr_range - break unless from <= sreg <= to (EQ) or outside (NEQ)
 * @sreg: source slot
 * @op: CMP_EQ or CMP_NEQ
 * @from: lower bound (big-endian order compare)
 * @to: upper bound, same length as @from
 */
struct expr_range {
	uint8_t sreg;
	uint8_t op;
	struct data_value from;
	struct data_value to;
};
#endif
