// SPDX-License-Identifier: GPL-2.0-only
/*
 * nflog.c - the NFLOG target (net/netfilter/xt_NFLOG.c nflog_tg): the
 * packet goes to nfnetlink_log exactly as with `log group` (both call
 * nf_log_packet() with an NF_LOG_TYPE_ULOG loginfo of this group, copy
 * length and queue threshold, and this prefix), then XT_CONTINUE.
 * struct xt_nflog_info: u32 len @0, u16 group @4, u16 threshold @6,
 * u16 flags @8 (XT_NFLOG_F_COPY_LEN: len is the snaplen; without it, as
 * --nflog-range sets it, len is ignored), u16 pad, char prefix[64] @12.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define NFLOG_PREFIX_OFF	12
#define NFLOG_PREFIX_LEN	64
#define XT_NFLOG_F_COPY_LEN	0x1

static uint16_t u16_at(const struct expr_xt *x, size_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

/* nflog_tg_check() refuses these; the kernel was asked (xt_probe) */
static int nflog_check(const struct expr_xt *x, struct dp_error *err)
{
	if ((u16_at(x, 8) & ~XT_NFLOG_F_COPY_LEN) ||
	    !memchr(x->info + NFLOG_PREFIX_OFF, '\0', NFLOG_PREFIX_LEN)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt target 'NFLOG' with flags 0x%x is not supported by the nfbpf dataplane",
			 u16_at(x, 8));
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

static void nflog_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

static void nflog_consts(const struct expr_xt *x, uint8_t *dst)
{
	uint32_t len;

	memcpy(&len, x->info, 4);
	codegen_nflog_consts(dst, x->dp_aux, u16_at(x, 4), u16_at(x, 6),
			     (u16_at(x, 8) & XT_NFLOG_F_COPY_LEN) ? len : LOG_NFLOG_ALL);
}

static uint32_t *nflog_prefix(struct expr_xt *x, const char **prefix)
{
	*prefix = (const char *)x->info + NFLOG_PREFIX_OFF;
	return &x->dp_aux;
}

static void nflog_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* nf_log_packet(); return XT_CONTINUE */
	codegen_emit_nflog_record(p, ec);
}

const struct codegen_xt_ops codegen_xt_nflog = {
	.name = "NFLOG", .rev = 0, .minlen = 76, .check = nflog_check,
	.const_size = 16, .consts = nflog_consts, .log_prefix = nflog_prefix,
	.shape = nflog_shape, .emit = nflog_emit,
};
