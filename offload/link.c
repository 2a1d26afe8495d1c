// SPDX-License-Identifier: GPL-2.0-only
/* link.c - netfilter links, created in the namespace that owns the chain. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/netlink.h>
#include <net/if.h>

#include "offload/bpf_compat.h"
#include "offload/offload.h"

static int link_create_here(int prog_fd, uint32_t pf, uint32_t hooknum,
			    int32_t priority)
{
	union bpf_attr attr;
	struct compat_link_create_nf *nf = (void *)&attr.link_create;
	int fd;

	_Static_assert(sizeof(*nf) <= sizeof(attr.link_create),
		       "link_create attr too small");
	memset(&attr, 0, sizeof(attr));
	nf->prog_fd = prog_fd;
	nf->attach_type = COMPAT_ATTACH_NETFILTER;
	nf->pf = pf;
	nf->hooknum = hooknum;
	nf->priority = priority;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

int offload_rtnl_socket(void *arg)
{
	uint32_t groups = *(const uint32_t *)arg;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC |
			(groups ? SOCK_NONBLOCK : 0), NETLINK_ROUTE), err;

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int offload_epoll(int *epfd)
{
	if (*epfd < 0) {
		*epfd = epoll_create1(EPOLL_CLOEXEC);
		if (*epfd < 0)
			return -errno;
	}
	return *epfd;
}

/* offload_in_netns: see offload.h */
int offload_in_netns(int ns_fd, int (*fn)(void *arg), void *arg)
{
	int self, ret, err;

	if (ns_fd < 0)
		return fn(arg);
	/* 0. remember our netns, 1. enter @ns_fd's, 2. run, 3. return */
	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return -errno;
	if (setns(ns_fd, CLONE_NEWNET)) {
		err = -errno;
		close(self);
		return err;
	}
	ret = fn(arg);
	if (setns(self, CLONE_NEWNET)) {
		/* cannot go home: fail rather than run on in the wrong netns;
		 * an fd @fn returned (ret > 0 by contract) is closed */
		err = -errno;
		if (ret > 0)
			close(ret);
		close(self);
		return err;
	}
	close(self);
	return ret;
}

struct link_args {
	int prog_fd;
	uint32_t pf, hooknum;
	int32_t priority;
};

static int link_create_cb(void *arg)
{
	const struct link_args *a = arg;

	return link_create_here(a->prog_fd, a->pf, a->hooknum, a->priority);
}

int offload_link_create(int prog_fd, uint32_t pf, uint32_t hooknum,
			int32_t priority, int ns_fd)
{
	struct link_args a = { prog_fd, pf, hooknum, priority };

	if (priority == COMPAT_NF_IP_PRI_FIRST || priority == COMPAT_NF_IP_PRI_LAST)
		return -ERANGE;
	return offload_in_netns(ns_fd, link_create_cb, &a);
}

struct tcx_args {
	int prog_fd;
	uint32_t ifindex;
	bool egress;
};

static int tcx_attach_cb(void *arg)
{
	const struct tcx_args *a = arg;
	union bpf_attr attr;
	struct compat_link_create_tcx *tcx = (void *)&attr.link_create;
	int fd;

	_Static_assert(sizeof(*tcx) <= sizeof(attr.link_create),
		       "link_create attr too small");
	memset(&attr, 0, sizeof(attr));
	tcx->prog_fd = a->prog_fd;
	tcx->target_ifindex = a->ifindex;
	tcx->attach_type = a->egress ? COMPAT_ATTACH_TCX_EGRESS :
				       COMPAT_ATTACH_TCX_INGRESS;
	/* no relative program: first (egress) or last (ingress) of all */
	tcx->flags = a->egress ? COMPAT_F_BEFORE : COMPAT_F_AFTER;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

int offload_tcx_attach(int prog_fd, uint32_t ifindex, bool egress, int ns_fd)
{
	struct tcx_args a = { prog_fd, ifindex, egress };

	return offload_in_netns(ns_fd, tcx_attach_cb, &a);
}

struct ifindex_args {
	char *const *names;
	uint32_t n;
	uint32_t *out;
};

static int ifindex_cb(void *arg)
{
	const struct ifindex_args *a = arg;
	uint32_t i;

	for (i = 0; i < a->n; i++)
		a->out[i] = if_nametoindex(a->names[i]);
	return 0;
}

int offload_ifindex(int ns_fd, char *const *names, uint32_t n, uint32_t *out)
{
	struct ifindex_args a = { names, n, out };

	return offload_in_netns(ns_fd, ifindex_cb, &a);
}

struct ifindex_all_args {
	uint32_t *out;
	uint32_t n;
};

static int ifindex_all_cb(void *arg)
{
	struct ifindex_all_args *a = arg;
	struct if_nameindex *ni = if_nameindex(), *it;
	uint32_t n = 0;

	if (!ni)
		return -errno;
	for (it = ni; it->if_index; it++)
		n++;
	a->out = calloc(n ? n : 1, sizeof(*a->out));
	if (!a->out) {
		if_freenameindex(ni);
		return -ENOMEM;
	}
	for (a->n = 0; a->n < n; a->n++)
		a->out[a->n] = ni[a->n].if_index;
	if_freenameindex(ni);
	return 0;
}

int offload_ifindex_all(int ns_fd, uint32_t **out, uint32_t *n)
{
	struct ifindex_all_args a = { NULL, 0 };
	int ret;

	ret = offload_in_netns(ns_fd, ifindex_all_cb, &a);
	if (ret < 0) {
		free(a.out);
		return ret;
	}
	*out = a.out;
	*n = a.n;
	return 0;
}
