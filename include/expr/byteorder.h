/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_BYTEORDER_H
#define NFBPF_EXPR_BYTEORDER_H
#include "expr.h"

/** enum byteorder_op - as the kernel's nft_byteorder_ops */
enum byteorder_op { BYTEORDER_NTOH, BYTEORDER_HTON };

/**
 * struct expr_byteorder - convert len bytes in units of size (2, 4 or 8)
 * @sreg: source slot
 * @dreg: destination slot
 * @op: enum byteorder_op
 * @len: total bytes
 * @size: element size
 */
struct expr_byteorder {
	uint8_t sreg;
	uint8_t dreg;
	uint8_t op;
	uint32_t len;
	uint32_t size;
};
#endif
