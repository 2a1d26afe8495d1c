// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebtlog.c - ebtables' log and nflog watchers, as ebtables-nft sends them
 * (xt targets "log" and "nflog" of the bridge family through nft_compat).
 *
 * log (net/bridge/netfilter/ebt_log.c ebt_log_tg): struct ebt_log_info
 * { u8 loglevel @0; char prefix[30] @1; u32 bitmask @32 }:
 * ebt_log_packet() prints its own line (the record marked @ebt,
 * offload/log.c formats it), nothing outside the host's netns unless
 * nf_log_all_netns is set (as the formatter's reader checks). Its
 * nf_log_packet() branch (EBT_LOG_NFLOG) cannot be reached: the kernel's
 * checkentry refuses that bit (EBT_LOG_MASK is IP, ARP, IP6), and so does
 * this daemon (xt_probe asks the kernel; ebt_log_check() too).
 *
 * nflog (ebt_nflog.c ebt_nflog_tg): struct ebt_nflog_info { u32 len @0;
 * u16 group @4, threshold @6, flags @8, pad; char prefix[64] @12 }:
 * nf_log_packet() with an NF_LOG_TYPE_ULOG loginfo of this group and
 * threshold and flags 0, so nfnetlink_log ignores len (the instance's
 * copy range alone): the NFLOG record of `log group N queue-threshold T`.
 *
 * Both return EBT_CONTINUE, which nft_target_eval_bridge() makes
 * NFT_CONTINUE: the rule goes on. Level, bitmask, group and threshold
 * are checked by the kernel's checkentry (the daemon asks it); the
 * prefix is interned like the log expression's (a rule constant).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codegen/xt/xt.h"

#define NFPROTO_BRIDGE_		7
#define EBT_LOG_PREFIX_OFF	1
#define EBT_LOG_PREFIX_LEN	30
#define EBT_LOG_BITMASK_OFF	32
#define EBT_LOG_MASK		0x0b	/* IP, ARP, IP6 */
#define EBT_NFLOG_PREFIX_OFF	12
#define EBT_NFLOG_PREFIX_LEN	64

static uint32_t u32_at(const struct expr_xt *x, size_t off)
{
	uint32_t v;

	memcpy(&v, x->info + off, 4);
	return v;
}

static uint16_t u16_at(const struct expr_xt *x, size_t off)
{
	uint16_t v;

	memcpy(&v, x->info + off, 2);
	return v;
}

/*
 * the kernel's checkentry refuses a level above 7 and other bits
 * (EBT_LOG_NFLOG among them); it cuts
 * an unterminated prefix short in its own copy, which this daemon does
 * not rewrite: refused
 */
static int ebt_log_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[0] > 7 || (u32_at(x, EBT_LOG_BITMASK_OFF) & ~EBT_LOG_MASK) ||
	    !memchr(x->info + EBT_LOG_PREFIX_OFF, '\0', EBT_LOG_PREFIX_LEN)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt target 'log' with level %u bitmask 0x%x or an unterminated prefix is not supported by the nfbpf dataplane",
			 x->info[0], u32_at(x, EBT_LOG_BITMASK_OFF));
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

static void ebt_log_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

/* the log record's constants: prefix id, level, flags (the bitmask), pad */
static void ebt_log_consts(const struct expr_xt *x, uint8_t *dst)
{
	memcpy(dst, &x->dp_aux, 4);
	dst[4] = x->info[0];
	dst[5] = (uint8_t)u32_at(x, EBT_LOG_BITMASK_OFF);
	dst[6] = dst[7] = 0;
}

static uint32_t *ebt_log_prefix(struct expr_xt *x, const char **prefix)
{
	*prefix = (const char *)x->info + EBT_LOG_PREFIX_OFF;
	return &x->dp_aux;
}

static void ebt_log_emit(struct codegen_prog *p, const struct expr_xt *x,
			 const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* ebt_log_packet(); EBT_CONTINUE */
	codegen_emit_ebt_log_record(p, ec);
}

const struct codegen_xt_ops codegen_xt_ebt_log = {
	.name = "log", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 36,
	.check = ebt_log_check, .const_size = 8, .consts = ebt_log_consts,
	.log_prefix = ebt_log_prefix, .shape = ebt_log_shape,
	.emit = ebt_log_emit,
};

/* checkentry refuses any flag (EBT_NFLOG_MASK is 0) */
static int ebt_nflog_check(const struct expr_xt *x, struct dp_error *err)
{
	if (u16_at(x, 8) ||
	    !memchr(x->info + EBT_NFLOG_PREFIX_OFF, '\0', EBT_NFLOG_PREFIX_LEN)) {
		snprintf(err->buf, sizeof(err->buf),
			 "xt target 'nflog' with flags 0x%x or an unterminated prefix is not supported by the nfbpf dataplane",
			 u16_at(x, 8));
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	return 0;
}

static void ebt_nflog_shape(const struct expr_xt *x, struct codegen_key *k)
{
	(void)x;
	(void)k;
}

/* flags 0: no copy length, whatever len says */
static void ebt_nflog_consts(const struct expr_xt *x, uint8_t *dst)
{
	codegen_nflog_consts(dst, x->dp_aux, u16_at(x, 4), u16_at(x, 6),
			     LOG_NFLOG_ALL);
}

static uint32_t *ebt_nflog_prefix(struct expr_xt *x, const char **prefix)
{
	*prefix = (const char *)x->info + EBT_NFLOG_PREFIX_OFF;
	return &x->dp_aux;
}

static void ebt_nflog_emit(struct codegen_prog *p, const struct expr_xt *x,
			   const struct codegen_expr_ctx *ec)
{
	(void)x;
	/* nf_log_packet(); EBT_CONTINUE */
	codegen_emit_nflog_record(p, ec);
}

const struct codegen_xt_ops codegen_xt_ebt_nflog = {
	.name = "nflog", .rev = 0, .family = NFPROTO_BRIDGE_, .minlen = 76,
	.check = ebt_nflog_check, .const_size = 16, .consts = ebt_nflog_consts,
	.log_prefix = ebt_nflog_prefix, .shape = ebt_nflog_shape,
	.emit = ebt_nflog_emit,
};
