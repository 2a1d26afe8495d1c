/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_compat.h - what the 6.1 uapi header and libbpf 1.1 lack for
 * netfilter programs and links (present in the running kernel >= 6.4).
 */
#ifndef NFBPF_OFFLOAD_BPF_COMPAT_H
#define NFBPF_OFFLOAD_BPF_COMPAT_H

#include <stdint.h>
#include <linux/bpf.h>

#define COMPAT_PROG_TYPE_NETFILTER	32	/* BPF_PROG_TYPE_NETFILTER */
#define COMPAT_ATTACH_NETFILTER		45	/* BPF_NETFILTER */
#define COMPAT_LINK_TYPE_NETFILTER	10	/* BPF_LINK_TYPE_NETFILTER */

#define COMPAT_NF_IP_PRI_FIRST		INT32_MIN
#define COMPAT_NF_IP_PRI_LAST		INT32_MAX

/**
 * struct compat_link_create_nf - BPF_LINK_CREATE attr for netfilter
 * (union bpf_attr.link_create with its .netfilter member, kernel >= 6.4)
 */
struct compat_link_create_nf {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint32_t pf;
	uint32_t hooknum;
	int32_t priority;
	uint32_t nf_flags;
};

#endif /* NFBPF_OFFLOAD_BPF_COMPAT_H */
