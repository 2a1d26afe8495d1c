/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NFBPF_EXPR_LOG_H
#define NFBPF_EXPR_LOG_H
#include "expr.h"

#define LOG_PREFIXLEN		128	/* NF_LOG_PREFIXLEN, with the NUL */
#define LOG_LEVEL_AUDIT		8	/* NFT_LOGLEVEL_AUDIT */
#define LOG_LEVEL_WARNING	4	/* the kernel's default level */

/* log flags (uapi nf_log.h NF_LOG_*) */
#define LOG_F_TCPSEQ		0x01
#define LOG_F_TCPOPT		0x02
#define LOG_F_IPOPT		0x04
#define LOG_F_UID		0x08
#define LOG_F_MACDECODE		0x20
#define LOG_F_MASK		0x2f

/**
 * enum expr_log_type - which logger (the kernel's enum nf_log_type)
 * @LOG_TYPE_SYSLOG: kernel log lines (nf_log_syslog)
 * @LOG_TYPE_NFLOG: nfnetlink_log group (NFTA_LOG_GROUP present)
 */
enum expr_log_type {
	LOG_TYPE_SYSLOG,
	LOG_TYPE_NFLOG,
};

/**
 * struct expr_log - log the packet (nft_log.c)
 * @type: enum expr_log_type
 * @has_prefix: NFTA_LOG_PREFIX was given (dumped back even if empty)
 * @has_snaplen: nflog: NFTA_LOG_SNAPLEN was given (NF_LOG_F_COPY_LEN)
 * @level: syslog: 0..LOG_LEVEL_AUDIT (kept as the kernel's u8)
 * @logflags: syslog: LOG_F_* (kept as the kernel's u8)
 * @group: nflog: group
 * @qthreshold: nflog: queue threshold
 * @snaplen: nflog: copy length
 * @prefix_id: dataplane prefix table index, assigned at prepare (0 = none
 *	       yet); the prefix is a rule constant, never code
 * @prefix: NUL-terminated, "" when absent
 */
struct expr_log {
	uint8_t type;
	bool has_prefix;
	bool has_snaplen;
	uint8_t level;
	uint8_t logflags;
	uint16_t group;
	uint16_t qthreshold;
	uint32_t snaplen;
	uint32_t prefix_id;
	char prefix[LOG_PREFIXLEN];
};
#endif
