// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - the LOG target (net/netfilter/xt_LOG.c log_tg): the packet is
 * logged exactly as the log expression logs it (both call nf_log_packet()
 * with an NF_LOG_TYPE_LOG loginfo of this level, these flags and this
 * prefix), then XT_CONTINUE. struct ipt_log_info / ip6t_log_info: u8
 * level @0, u8 logflags @1, char prefix[30] @2. The prefix is interned by
 * the dataplane like the log expression's (dp_log_rule()): its id is a
 * rule constant, never code.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codegen/xt/xt.h"

#define LOG_PREFIX_OFF	2
#define LOG_PREFIX_LEN	30
#define XT_LOG_MASK	0x2f	/* the flags nf_log_syslog knows */

static int log_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[0] > 7 || (x->info[1] & ~XT_LOG_MASK) ||
	    !memchr(x->info + LOG_PREFIX_OFF, '\0', LOG_PREFIX_LEN)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt target 'LOG' with level %u flags 0x%x is not supported by the nfbpf dataplane",
			 x->info[0], x->info[1]);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

static void log_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

/* the log expression's constants: prefix id, level, flags, 2 bytes pad */
static void log_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst, &x->dp_aux, 4);
	dst[4] = x->info[0];
	dst[5] = x->info[1];
	dst[6] = dst[7] = 0;
}

static uint32_t *log_prefix(struct expr_xt *x, const char **prefix)
{
	*prefix = (const char *)x->info + LOG_PREFIX_OFF;
	return &x->dp_aux;
}

static void log_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* nf_log_packet(); return XT_CONTINUE */
	codegen_emit_log_record(p, ec);
}

const struct codegen_xt_ops codegen_xt_log = {
	.name = "LOG", .rev = 0, .minlen = 32, .check = log_check,
	.const_size = 8, .consts = log_consts, .log_prefix = log_prefix,
	.shape = log_shape, .emit = log_emit,
};
