/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_CMP_H
#define NFBPF_EXPR_CMP_H
#include "expr.h"

/**
 * enum cmp_op - comparison (same order as the kernel's nft_cmp_ops)
 */
enum cmp_op { CMP_EQ, CMP_NEQ, CMP_LT, CMP_LTE, CMP_GT, CMP_GTE };

/**
 * struct expr_cmp - compare a register with a constant; break on mismatch
 * @sreg: source slot
 * @op: enum cmp_op
 * @data: constant; data.len bytes are compared (memcmp order for
 *	  EQ/NEQ, big-endian unsigned order for the others, as the kernel)
 */
struct expr_cmp {
	uint8_t sreg;
	uint8_t op;
	struct data_value data;
};
#endif
