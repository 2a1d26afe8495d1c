/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_EXTHDR_H
#define NFBPF_EXPR_EXTHDR_H
#include "expr.h"

/* NFT_EXTHDR_OP_* (uapi) */
enum { EXTHDR_OP_IPV6, EXTHDR_OP_TCPOPT, EXTHDR_OP_IPV4, EXTHDR_OP_SCTP,
       EXTHDR_OP_DCCP };

/* which form the kernel selected (nft_exthdr_select_ops) */
enum exthdr_form { EXTHDR_GET, EXTHDR_SET, EXTHDR_STRIP };

#define EXTHDR_F_PRESENT	0x1	/* NFT_EXTHDR_F_PRESENT */

/**
 * struct expr_exthdr - IPv6 extension headers, TCP/IPv4 options, SCTP
 * chunks (nft_exthdr.c)
 * @type: header / option / chunk type
 * @offset: byte offset inside it
 * @len: bytes to load (or store)
 * @flags: EXTHDR_F_PRESENT: load 1/0 for present/absent instead
 * @op: EXTHDR_OP_*
 * @form: enum exthdr_form
 * @reg: destination (get) or source (set) slot
 */
struct expr_exthdr {
	uint8_t type;
	uint8_t offset;
	uint8_t len;
	uint8_t flags;
	uint8_t op;
	uint8_t form;
	uint8_t reg;
};
#endif
