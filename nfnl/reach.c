// SPDX-License-Identifier: GPL-2.0-only
/*
 * reach.c - which of the network namespaces nfbpfd serves can still be
 * reached by anyone but nfbpfd itself.
 *
 * nfbpfd holds an fd of every namespace it serves, and its netfilter links
 * hold a reference on it (nf_bpf_link.c takes one per link), so a namespace
 * whose last process exited stays alive as long as nfbpfd keeps its state:
 * several megabytes of kernel memory each, for ever. The kernel would have
 * destroyed it once nothing else referenced it. This file finds those
 * namespaces: not the netns of any task, not an nsfs bind mount in any
 * mount namespace, not an open nsfs file of any other process, no other
 * process holds a socket made in it (a socket keeps its netns alive: a
 * process may hold one after leaving the namespace), and no socket nfbpfd
 * did not open is left in its tables (orphaned TCP sockets, kernel ones).
 *
 * Conservative by construction: anything unreadable counts as reached, and
 * so do sockets that may not hold a reference (a kernel UDP tunnel socket,
 * an orphaned TCP socket): a namespace kept too long costs memory; one
 * released too early would run without its firewall.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/sockios.h>

#include "nfnl_reach.h"
#include "offload/offload.h"

static void mark(struct reach_ns *ns, size_t n, unsigned long ino)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ns[i].ino == ino)
			ns[i].reached = true;
	}
}

static void mark_all(struct reach_ns *ns, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ns[i].reached = true;
}

static bool all_reached(const struct reach_ns *ns, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!ns[i].reached)
			return false;
	}
	return true;
}

/* "net:[4026531840]" -> 4026531840; 0 if @s is no netns reference */
unsigned long reach_nsfs_ino(const char *s, size_t len)
{
	unsigned long ino = 0;
	size_t i = 5;

	if (len < 7 || strncmp(s, "net:[", 5))
		return 0;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		ino = ino * 10 + (unsigned long)(s[i] - '0');
	return i > 5 && i + 1 == len && s[i] == ']' ? ino : 0;
}

/*
 * reach_mountinfo_line - the netns an nsfs mount of one mountinfo line
 * refers to ("36 35 0:4 net:[4026532281] /run/netns/x rw ... - nsfs nsfs
 * rw"): 0 for any other line.
 */
unsigned long reach_mountinfo_line(const char *line)
{
	const char *p = line, *root, *sep;
	int field;

	/* field 4 is the mount's root within its filesystem */
	for (field = 1; field < 4; field++) {
		p = strchr(p, ' ');
		if (!p)
			return 0;
		p++;
	}
	root = p;
	p = strchr(root, ' ');
	sep = strstr(line, " - ");
	if (!p || !sep || strncmp(sep, " - nsfs ", 8))
		return 0;
	return reach_nsfs_ino(root, (size_t)(p - root));
}

static bool is_pid(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++) {
		if (!isdigit((unsigned char)*name))
			return false;
	}
	return true;
}

static void scan_mounts(const char *pid, struct reach_ns *ns, size_t n,
			unsigned long **seen, size_t *nseen)
{
	char path[300], *line = NULL;
	size_t cap = 0, i;
	struct stat st;
	unsigned long *grown;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/ns/mnt", pid);
	if (stat(path, &st))
		return;
	for (i = 0; i < *nseen; i++) {
		if ((*seen)[i] == st.st_ino)
			return;
	}
	grown = realloc(*seen, (*nseen + 1) * sizeof(**seen));
	if (!grown) {
		mark_all(ns, n);	/* cannot tell: keep everything */
		return;
	}
	*seen = grown;
	(*seen)[(*nseen)++] = st.st_ino;
	snprintf(path, sizeof(path), "/proc/%s/mountinfo", pid);
	f = fopen(path, "re");
	if (!f)
		return;		/* the process exited */
	while (getline(&line, &cap, f) > 0) {
		unsigned long ino = reach_mountinfo_line(line);

		if (ino)
			mark(ns, n, ino);
	}
	free(line);
	fclose(f);
}

static void scan_tasks(const char *pid, struct reach_ns *ns, size_t n)
{
	char path[600];
	struct dirent *de;
	struct stat st;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (!is_pid(de->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task/%s/ns/net", pid,
			 de->d_name);
		if (!stat(path, &st))
			mark(ns, n, st.st_ino);
	}
	closedir(dir);
}

/*
 * The netns a socket another process holds was made in: a copy of the fd
 * (pidfd_getfd, as ptrace would allow) asked with SIOCGSKNS. An unbound
 * socket is in no /proc/net table, yet keeps its netns alive. Anything
 * that fails marks every namespace reached.
 */
static void mark_socket(int *pidfd, const char *pid, int fd,
			struct reach_ns *ns, size_t n)
{
	struct stat st;
	int copy, nsfd;

	if (*pidfd < 0) {
		*pidfd = (int)syscall(SYS_pidfd_open, atoi(pid), 0);
		if (*pidfd < 0) {
			if (errno != ESRCH)
				mark_all(ns, n);
			return;		/* ESRCH: it exited, with its fds */
		}
	}
	copy = (int)syscall(SYS_pidfd_getfd, *pidfd, fd, 0);
	if (copy < 0) {
		if (errno != EBADF && errno != ESRCH)
			mark_all(ns, n);
		return;		/* closed meanwhile */
	}
	nsfd = ioctl(copy, SIOCGSKNS);
	close(copy);
	if (nsfd < 0 || fstat(nsfd, &st))
		mark_all(ns, n);
	else
		mark(ns, n, st.st_ino);
	if (nsfd >= 0)
		close(nsfd);
}

static void scan_fds(const char *pid, struct reach_ns *ns, size_t n)
{
	char path[600], target[64];
	struct dirent *de;
	int pidfd = -1;
	DIR *dir;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) && !all_reached(ns, n)) {
		if (!is_pid(de->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, de->d_name);
		len = readlink(path, target, sizeof(target));
		if (len <= 0 || len >= (ssize_t)sizeof(target))
			continue;
		if (len > 8 && !strncmp(target, "socket:[", 8)) {
			mark_socket(&pidfd, pid, atoi(de->d_name), ns, n);
		} else {
			unsigned long ino = reach_nsfs_ino(target, (size_t)len);

			if (ino)
				mark(ns, n, ino);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	closedir(dir);
}

/* the socket inodes nfbpfd itself holds, sorted */
static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

struct own_sockets {
	unsigned long *ino;
	size_t n;
};

static int own_sockets(struct own_sockets *own)
{
	char path[300], target[64];
	struct dirent *de;
	size_t cap = 0;
	DIR *dir;
	ssize_t len;

	own->ino = NULL;
	own->n = 0;
	dir = opendir("/proc/self/fd");
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		unsigned long *grown;

		if (!is_pid(de->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 8 || strncmp(target, "socket:[", 8))
			continue;
		target[len] = '\0';
		if (own->n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(own->ino, cap * sizeof(*grown));
			if (!grown) {
				closedir(dir);
				free(own->ino);
				own->ino = NULL;
				return -ENOMEM;
			}
			own->ino = grown;
		}
		own->ino[own->n++] = strtoul(target + 8, NULL, 10);
	}
	closedir(dir);
	if (own->n)
		qsort(own->ino, own->n, sizeof(*own->ino), cmp_ul);
	return 0;
}

/*
 * One /proc/net table: which column holds the inode, and which entries
 * never hold a reference on the namespace (kernel netlink sockets: Pid 0;
 * TCP TIME_WAIT and request sockets: state 06, 03 with inode 0).
 */
struct proc_table {
	const char *file;
	unsigned int ino_col;
	unsigned int skip_col;		/* 0: none */
	const char *skip_val[2];
	bool skip_needs_ino0;
};

static const struct proc_table proc_tables[] = {
	{ "tcp", 10, 4, { "06", "03" }, true },
	{ "tcp6", 10, 4, { "06", "03" }, true },
	{ "udp", 10, 0, { NULL }, false },
	{ "udp6", 10, 0, { NULL }, false },
	{ "udplite", 10, 0, { NULL }, false },
	{ "udplite6", 10, 0, { NULL }, false },
	{ "raw", 10, 0, { NULL }, false },
	{ "raw6", 10, 0, { NULL }, false },
	{ "unix", 7, 0, { NULL }, false },
	{ "packet", 9, 0, { NULL }, false },
	{ "netlink", 10, 3, { "0", NULL }, false },
};

/* does one entry (a line's columns) stand for a socket we do not own? */
static bool foreign_entry(const struct proc_table *t, char **col,
			  unsigned int ncol, const struct own_sockets *own)
{
	unsigned long ino;
	unsigned int i;

	if (ncol < t->ino_col)
		return true;	/* unexpected layout: assume a user */
	ino = strtoul(col[t->ino_col - 1], NULL, 10);
	if (t->skip_col && t->skip_col <= ncol &&
	    (!t->skip_needs_ino0 || !ino)) {
		for (i = 0; i < 2 && t->skip_val[i]; i++) {
			if (!strcmp(col[t->skip_col - 1], t->skip_val[i]))
				return false;
		}
	}
	if (ino && own->n &&
	    bsearch(&ino, own->ino, own->n, sizeof(*own->ino), cmp_ul))
		return false;
	return true;
}

/* does @f (a /proc/net table) list a socket nfbpfd does not own? */
static bool table_has_foreign(const struct proc_table *t, FILE *f,
			      const struct own_sockets *own)
{
	char *line = NULL, *col[16], *save;
	size_t cap = 0;
	unsigned int ncol;
	bool header = true, found = false;

	while (!found && getline(&line, &cap, f) > 0) {
		if (header) {
			header = false;
			continue;
		}
		ncol = 0;
		col[0] = strtok_r(line, " \t\n", &save);
		while (col[ncol] && ncol < 15) {
			ncol++;
			col[ncol] = strtok_r(NULL, " \t\n", &save);
		}
		if (ncol)
			found = foreign_entry(t, col, ncol, own);
	}
	free(line);
	return found;
}

struct sockets_arg {
	const struct own_sockets *own;
	bool found;
};

/* an offload_in_netns() callback: reads this thread's netns's tables */
static int sockets_cb(void *arg)
{
	struct sockets_arg *a = arg;
	char path[64];
	size_t i;

	for (i = 0; i < sizeof(proc_tables) / sizeof(proc_tables[0]) && !a->found; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/thread-self/net/%s",
			 proc_tables[i].file);
		f = fopen(path, "re");
		if (!f) {
			/* a protocol not built in has no table: no socket */
			if (errno != ENOENT)
				a->found = true;
			continue;
		}
		a->found = table_has_foreign(&proc_tables[i], f, a->own);
		fclose(f);
	}
	return 0;
}

int reach_scan(struct reach_ns *ns, size_t n)
{
	unsigned long *mnt_seen = NULL;
	size_t nmnt = 0, i;
	struct own_sockets own;
	struct dirent *de;
	char self[32];
	DIR *proc;
	int pass;

	for (i = 0; i < n; i++)
		ns[i].reached = false;
	snprintf(self, sizeof(self), "%d", (int)getpid());
	/* pass 0: tasks' namespaces and nsfs mounts (ours too: a bind mount
	 * in our mount namespace is not ours); pass 1: other processes' fds */
	for (pass = 0; pass < 2 && !all_reached(ns, n); pass++) {
		proc = opendir("/proc");
		if (!proc) {
			mark_all(ns, n);
			break;
		}
		while ((de = readdir(proc)) && !all_reached(ns, n)) {
			if (!is_pid(de->d_name))
				continue;
			if (pass == 0) {
				scan_mounts(de->d_name, ns, n, &mnt_seen, &nmnt);
				if (strcmp(de->d_name, self))
					scan_tasks(de->d_name, ns, n);
			} else if (strcmp(de->d_name, self)) {
				scan_fds(de->d_name, ns, n);
			}
		}
		closedir(proc);
	}
	free(mnt_seen);
	if (all_reached(ns, n))
		return 0;
	/* pass 2: sockets inside each namespace still unreached */
	if (own_sockets(&own)) {
		mark_all(ns, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct sockets_arg a = { .own = &own };

		if (ns[i].reached)
			continue;
		if (offload_in_netns(ns[i].ns_fd, sockets_cb, &a) || a.found)
			ns[i].reached = true;
	}
	free(own.ino);
	return 0;
}
