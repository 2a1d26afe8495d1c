/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_DUP_H
#define NFBPF_EXPR_DUP_H
#include "expr.h"

/**
 * struct expr_dup - send a copy of the packet out of a device
 * (nft_dup_netdev.c, netdev family); the packet itself goes on
 * @sreg_dev: register holding the output ifindex
 */
struct expr_dup {
	uint8_t sreg_dev;
};
#endif
