/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xt.h - model of the xtables compat expressions "match" and "target"
 * (kernel nft_compat.c), which iptables-nft, ip6tables-nft, ebtables-nft
 * and arptables-nft use for every extension they cannot express natively.
 */
#ifndef NFBPF_EXPR_XT_H
#define NFBPF_EXPR_XT_H
#include "expr.h"

#define XT_NAME_MAXLEN	29	/* XT_EXTENSION_MAXNAMELEN, with the NUL */
#define XT_ALIGN_(x)	(((x) + 7u) & ~7u)	/* XT_ALIGN on 64-bit hosts */

/**
 * struct expr_xt - one match or target expression
 * @name: extension name, NUL terminated
 * @rev: revision
 * @family: family of the rule's table (the extension's NFPROTO)
 * @dp_aux: the dataplane's: the LOG target's prefix id (dp_log_rule())
 * @len: bytes of @info: XT_ALIGN of the NFTA_*_INFO length, which the
 *	 kernel requires to equal XT_ALIGN(matchsize); the client's bytes,
 *	 zero padded, dumped byte for byte
 * @info: the extension's private data as the client sent it (host order)
 *
 * The record is variable-sized: the private data is
 * sizeof(struct expr_xt) + @len bytes (nfnl_expr_ops.priv_size), the way
 * the kernel sizes each match's ops from its matchsize.
 */
struct expr_xt {
	char name[32];
	uint32_t rev;
	uint8_t family;
	uint32_t dp_aux;
	uint32_t len;
	uint8_t info[] __attribute__((aligned(8)));
};

#endif
