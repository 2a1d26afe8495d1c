/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_FIB_H
#define NFBPF_EXPR_FIB_H
#include "expr.h"

/* results (uapi enum nft_fib_result) */
#define FIB_RESULT_OIF		1
#define FIB_RESULT_OIFNAME	2
#define FIB_RESULT_ADDRTYPE	3

/* flags (uapi enum nft_fib_flags) */
#define FIB_F_SADDR	0x01
#define FIB_F_DADDR	0x02
#define FIB_F_MARK	0x04
#define FIB_F_IIF	0x08
#define FIB_F_OIF	0x10
#define FIB_F_PRESENT	0x20
#define FIB_F_ALL	0x3f

/**
 * struct expr_fib - route lookup (nft_fib.c, nft_fib_ipv4.c, nft_fib_ipv6.c)
 * @result: FIB_RESULT_*
 * @flags: FIB_F_*
 * @dreg: destination slot
 * @family: NFPROTO_* of the table (ip, ip6, inet and netdev each have
 *	    their own fib type in the kernel)
 */
struct expr_fib {
	uint32_t result;
	uint32_t flags;
	uint8_t dreg;
	uint8_t family;
};
#endif
