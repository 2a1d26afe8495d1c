/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_IMMEDIATE_H
#define NFBPF_EXPR_IMMEDIATE_H
#include "expr.h"

/**
 * struct expr_immediate - load a constant into a register
 * @dreg: destination slot; REG_VERDICT means @verdict is valid, else @data
 * @data: the value (dreg != REG_VERDICT)
 * @verdict: the verdict (dreg == REG_VERDICT)
 */
struct expr_immediate {
	uint8_t dreg;
	struct data_value data;
	struct verdict verdict;
};
#endif
