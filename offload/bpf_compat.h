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

#define COMPAT_ATTACH_TCX_INGRESS	46	/* BPF_TCX_INGRESS (>= 6.6) */
#define COMPAT_ATTACH_TCX_EGRESS	47	/* BPF_TCX_EGRESS */
#define COMPAT_F_BEFORE			(1U << 3)	/* BPF_F_BEFORE */
#define COMPAT_F_AFTER			(1U << 4)	/* BPF_F_AFTER */

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

/**
 * struct compat_link_create_tcx - BPF_LINK_CREATE attr for tcx (union
 * bpf_attr.link_create with its .tcx member, kernel >= 6.6)
 */
struct compat_link_create_tcx {
	uint32_t prog_fd;
	uint32_t target_ifindex;
	uint32_t attach_type;
	uint32_t flags;
	uint32_t relative_fd;
	uint32_t pad;
	uint64_t expected_revision;
};

/**
 * struct compat_link_info_tcx - the start of struct bpf_link_info of a tcx
 * link (its .tcx member, kernel >= 6.6; the union is 8-byte aligned)
 */
struct compat_link_info_tcx {
	uint32_t type;
	uint32_t id;
	uint32_t prog_id;
	uint32_t pad;
	uint32_t ifindex;
	uint32_t attach_type;
};

#endif /* NFBPF_OFFLOAD_BPF_COMPAT_H */
