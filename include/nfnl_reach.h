/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfnl_reach.h - which served network namespaces anyone but nfbpfd can
 * still reach (nfnl/reach.c).
 */
#ifndef NFBPF_NFNL_REACH_H
#define NFBPF_NFNL_REACH_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct reach_ns - one namespace to check
 * @ino: its nsfs inode
 * @ns_fd: nfbpfd's fd of it (to read its socket tables)
 * @reached: out: a task, nsfs mount, nsfs fd or foreign socket refers to it
 */
struct reach_ns {
	unsigned long ino;
	int ns_fd;
	bool reached;
};

/**
 * reach_scan - set @reached of each of @ns[0..@n); anything that cannot be
 * read counts as reached. Returns 0.
 */
int reach_scan(struct reach_ns *ns, size_t n);

/** reach_nsfs_ino - "net:[N]" (@len bytes) -> N; 0 for anything else. */
unsigned long reach_nsfs_ino(const char *s, size_t len);

/** reach_mountinfo_line - the netns of an nsfs mount line; 0 otherwise. */
unsigned long reach_mountinfo_line(const char *line);

#endif /* NFBPF_NFNL_REACH_H */
