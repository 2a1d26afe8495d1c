/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_BITWISE_H
#define NFBPF_EXPR_BITWISE_H
#include "expr.h"

/** enum bitwise_op - as the kernel's nft_bitwise_ops */
enum bitwise_op { BITWISE_BOOL, BITWISE_LSHIFT, BITWISE_RSHIFT };

/**
 * struct expr_bitwise - dreg = (sreg & mask) ^ xor, or a shift
 * @sreg: source slot
 * @dreg: destination slot
 * @len: bytes
 * @op: enum bitwise_op
 * @mask: mask (BOOL)
 * @xor: xor (BOOL)
 * @shift: shift amount in bits (LSHIFT/RSHIFT), < 32
 */
struct expr_bitwise {
	uint8_t sreg;
	uint8_t dreg;
	uint32_t len;
	uint32_t op;
	struct data_value mask;
	struct data_value xor;
	uint32_t shift;
};
#endif
