/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_REJECT_H
#define NFBPF_EXPR_REJECT_H
#include "expr.h"

/* reject types (uapi enum nft_reject_types) */
#define REJECT_ICMP_UNREACH	0
#define REJECT_TCP_RST		1
#define REJECT_ICMPX_UNREACH	2

/* icmpx codes (uapi enum nft_reject_inet_code) */
#define REJECT_ICMPX_NO_ROUTE		0
#define REJECT_ICMPX_PORT_UNREACH	1
#define REJECT_ICMPX_HOST_UNREACH	2
#define REJECT_ICMPX_ADMIN_PROHIBITED	3
#define REJECT_ICMPX_MAX		3

/**
 * struct expr_reject - drop the packet and answer it (nft_reject.c)
 * @type: REJECT_*
 * @icmp_code: the ICMP/ICMPv6 code (REJECT_ICMP_UNREACH) or the icmpx code
 *	       (REJECT_ICMPX_UNREACH), mapped per family when the reply is
 *	       built; 0 for a TCP reset
 * @family: NFPROTO_* of the table (the kernel registers one reject type
 *	    per family: the ip and ip6 ones ignore icmpx)
 */
struct expr_reject {
	uint8_t type;
	uint8_t icmp_code;
	uint8_t family;
};
#endif
