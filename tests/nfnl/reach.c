// SPDX-License-Identifier: GPL-2.0-only
/*
 * reach.c - nfnl/reach.c: a scratch namespace is reached through a task in
 * it, an nsfs bind mount, another process's nsfs fd or a socket another
 * process holds; with only this process's fd of it, it is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <criterion/criterion.h>

#include "nfnl_reach.h"

Test(reach, nsfs_names)
{
	cr_expect_eq(reach_nsfs_ino("net:[4026531840]", 16), 4026531840ul);
	cr_expect_eq(reach_nsfs_ino("net:[]", 6), 0);
	cr_expect_eq(reach_nsfs_ino("mnt:[4026531840]", 16), 0);
	cr_expect_eq(reach_nsfs_ino("net:[12x]", 9), 0);
	cr_expect_eq(reach_nsfs_ino("net:[12]x", 9), 0);
	cr_expect_eq(reach_nsfs_ino("socket:[12]", 11), 0);
}

Test(reach, mountinfo_lines)
{
	cr_expect_eq(reach_mountinfo_line("601 29 0:4 net:[4026532281] /run/netns/x rw "
					  "shared:352 - nsfs nsfs rw\n"), 4026532281ul);
	cr_expect_eq(reach_mountinfo_line("602 29 0:4 net:[4026532282] /tmp/a\\040b rw - "
					  "nsfs nsfs rw\n"), 4026532282ul);
	/* other filesystems, other namespace types, short lines */
	cr_expect_eq(reach_mountinfo_line("22 1 0:21 / /proc rw - proc proc rw\n"), 0);
	cr_expect_eq(reach_mountinfo_line("603 29 0:4 mnt:[4026532283] /m rw - nsfs nsfs rw\n"), 0);
	cr_expect_eq(reach_mountinfo_line("604 29 0:4 net:[4026532284] /m rw - tmpfs t rw\n"), 0);
	cr_expect_eq(reach_mountinfo_line("1 2"), 0);
}

enum hold { IN_NETNS, SOCKET, NSFS_FD, BIND_MOUNT };

/*
 * A child that makes a new netns, then keeps it alive the way @how says
 * while itself living in the netns it started in (except IN_NETNS). Writes
 * the fd it holds (SOCKET, NSFS_FD; else -1) to @ready when set up, then
 * waits for SIGTERM.
 */
static void child(enum hold how, int ready, const char *mnt)
{
	int home = open("/proc/self/ns/net", O_RDONLY), ns, s = -1, held;

	if (home < 0 || unshare(CLONE_NEWNET))
		_exit(1);
	ns = open("/proc/self/ns/net", O_RDONLY);
	if (ns < 0)
		_exit(1);
	switch (how) {
	case IN_NETNS:
		close(ns);
		break;
	case SOCKET:
		s = socket(AF_INET, SOCK_DGRAM, 0);
		if (s < 0 || setns(home, CLONE_NEWNET))
			_exit(1);
		close(ns);
		break;
	case NSFS_FD:
		if (setns(home, CLONE_NEWNET))
			_exit(1);
		break;
	case BIND_MOUNT:
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("/proc/self/ns/net", mnt, NULL, MS_BIND, NULL) ||
		    setns(home, CLONE_NEWNET))
			_exit(1);
		close(ns);
		break;
	}
	held = how == SOCKET ? s : how == NSFS_FD ? ns : -1;
	if (write(ready, &held, sizeof(held)) != sizeof(held))
		_exit(1);
	pause();
	_exit(0);
}

/* the child's netns, as an fd of ours, whichever way the child holds it */
static int child_netns(enum hold how, pid_t pid, int held, const char *mnt)
{
	char path[300];
	int fd, sfd, pfd;

	switch (how) {
	case IN_NETNS:
		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		break;
	case BIND_MOUNT:
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, mnt);
		break;
	case NSFS_FD:
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, held);
		break;
	case SOCKET:
		/* a socket cannot be opened through /proc: take a copy */
		pfd = syscall(SYS_pidfd_open, pid, 0);
		if (pfd < 0)
			return -1;
		sfd = syscall(SYS_pidfd_getfd, pfd, held, 0);
		close(pfd);
		if (sfd < 0)
			return -1;
		fd = ioctl(sfd, SIOCGSKNS);
		close(sfd);
		return fd;
	}
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* reach_scan() of the child's netns while the child holds it, and after */
static void scan_one(enum hold how, bool *before, bool *after)
{
	char mnt[] = "/tmp/nfbpf-reach-XXXXXX";
	struct reach_ns ns = { 0 };
	int p[2], fd, held, status;
	struct stat st;
	pid_t pid;

	cr_assert(!pipe(p));
	if (how == BIND_MOUNT) {
		fd = mkstemp(mnt);
		cr_assert(fd >= 0);
		close(fd);
	}
	pid = fork();
	cr_assert(pid >= 0);
	if (!pid)
		child(how, p[1], mnt);
	cr_assert_eq(read(p[0], &held, sizeof(held)), sizeof(held),
		     "child set-up failed");
	fd = child_netns(how, pid, held, mnt);
	cr_assert(fd >= 0, "the child's netns: %s", strerror(errno));
	cr_assert(!fstat(fd, &st));
	ns.ino = st.st_ino;
	ns.ns_fd = fd;
	reach_scan(&ns, 1);
	*before = ns.reached;
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	reach_scan(&ns, 1);
	*after = ns.reached;
	close(fd);
	close(p[0]);
	close(p[1]);
	if (how == BIND_MOUNT)
		unlink(mnt);
}

Test(reach, task_in_netns)
{
	bool before, after;

	scan_one(IN_NETNS, &before, &after);
	cr_expect(before, "a task lives in it");
	cr_expect(!after, "only our fd is left");
}

Test(reach, foreign_socket)
{
	bool before, after;

	scan_one(SOCKET, &before, &after);
	cr_expect(before, "another process holds a socket of it");
	cr_expect(!after, "only our fd is left");
}

Test(reach, nsfs_fd)
{
	bool before, after;

	scan_one(NSFS_FD, &before, &after);
	cr_expect(before, "another process holds an fd of it");
	cr_expect(!after, "only our fd is left");
}

Test(reach, bind_mount)
{
	bool before, after;

	scan_one(BIND_MOUNT, &before, &after);
	cr_expect(before, "bind-mounted in another mount namespace");
	cr_expect(!after, "the mount went with its namespace");
}

Test(reach, own_socket)
{
	struct reach_ns ns = { 0 };
	int home, fd, s, p[2], held, status;
	struct stat st;
	pid_t pid;

	/* a netns held only by us: our fd and a socket we made in it */
	cr_assert(!pipe(p));
	pid = fork();
	cr_assert(pid >= 0);
	if (!pid)
		child(IN_NETNS, p[1], NULL);
	cr_assert_eq(read(p[0], &held, sizeof(held)), sizeof(held));
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	cr_assert(fd >= 0);
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	cr_assert(!setns(fd, CLONE_NEWNET));
	s = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert(!setns(home, CLONE_NEWNET));
	cr_assert(s >= 0);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	cr_assert(!fstat(fd, &st));
	ns.ino = st.st_ino;
	ns.ns_fd = fd;
	reach_scan(&ns, 1);
	cr_expect(!ns.reached, "our own socket does not count");
	close(s);
	close(fd);
	close(home);
}
