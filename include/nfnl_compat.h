/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfnl_compat.h - uapi values of kernel 6.18 that the build host's
 * linux/netfilter/nf_tables.h (Debian 12: 6.1) may not have yet.
 */
#ifndef NFBPF_NFNL_COMPAT_H
#define NFBPF_NFNL_COMPAT_H

#include <linux/netfilter/nf_tables.h>

/* enum nf_tables_msg_types, after NFT_MSG_DELFLOWTABLE (24) */
#define NFT_MSG_GETRULE_RESET_K		25
#ifndef NFT_MSG_DESTROYTABLE
#define NFT_MSG_DESTROYTABLE		26
#define NFT_MSG_DESTROYCHAIN		27
#define NFT_MSG_DESTROYRULE		28
#define NFT_MSG_DESTROYSET		29
#define NFT_MSG_DESTROYSETELEM		30
#define NFT_MSG_DESTROYOBJ		31
#define NFT_MSG_DESTROYFLOWTABLE	32
#endif

#define NFTA_RULE_CHAIN_ID_K		11	/* NFTA_RULE_CHAIN_ID */
#define NFTA_RULE_MAX_K			11
#define NFTA_CHAIN_MAX_K		12	/* NFTA_CHAIN_USERDATA */

#endif
