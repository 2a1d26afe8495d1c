/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_COUNTER_H
#define NFBPF_EXPR_COUNTER_H
#include "expr.h"

/**
 * struct expr_counter - count packets and bytes
 * @packets: initial packets (NFTA_COUNTER_PACKETS), added to the dataplane count
 * @bytes: initial bytes
 * @slot: dataplane counter slot, assigned at commit (0 = none yet)
 */
struct expr_counter {
	uint64_t packets;
	uint64_t bytes;
	uint32_t slot;
};
#endif
