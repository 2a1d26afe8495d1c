// SPDX-License-Identifier: GPL-2.0-only
/*
 * preload.c - libnfbpf-preload.so: netfilter netlink sockets served by nfbpfd
 *
 * Only socket(AF_NETLINK, SOCK_RAW or SOCK_DGRAM, NETLINK_NETFILTER) is
 * taken over; every other socket goes to libc untouched, and the daemon
 * being unreachable makes socket() fail (never a kernel fall back). The fd
 * handed to the application is a unix SOCK_SEQPACKET connection to nfbpfd
 * (the "data" fd), so poll/select/epoll work natively. The calls below add
 * the netlink semantics on top: sockaddr_nl names, SOL_NETLINK options
 * forwarded on the control channel, a send that returns only once nfbpfd
 * has queued every reply, and NFBPF_CTL_PULL on EAGAIN while nfbpfd may hold
 * output for the socket (NFBPF_REP_MORE). The protocol is
 * include/nfbpf/shim_proto.h; errno values follow the kernel's
 * net/netlink/af_netlink.c.
 *
 * State: one struct nlsock per emulated socket, in a static pool, shared
 * by every fd that refers to it (dup). fd_slot[] maps an fd to its pool
 * entry. Neither takes a lock: a lookup takes a reference with a
 * compare-and-swap that fails on a free entry ("get unless zero"), and the
 * last reference closes the control fd, so close() is async-signal-safe
 * and cannot deadlock. Control exchanges of one socket are serialized by
 * its mutex: the protocol allows one outstanding operation per socket.
 *
 * The hidden control fds are close-on-exec and sit at or above
 * CTL_FD_MIN; close(), close_range() and closefrom() from the application
 * leave them alone while their socket lives.
 */
#undef _FORTIFY_SOURCE		/* we define read(), recv(), ... ourselves */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <linux/netlink.h>

#include "../include/nfbpf/shim_proto.h"

#define MAX_FD		65536	/* fds at or above this are never emulated */
#define MAX_SOCKS	1024	/* emulated sockets alive at once */
#define CTL_FD_MIN	800	/* the hidden control fd goes at or above this */
#define SNDBUF_SLACK	65536	/* headroom when growing SO_SNDBUF */
#define NETNS_PATH	"/proc/thread-self/ns/net"

/* glibc passes socket addresses as transparent unions under _GNU_SOURCE. */
#define SA(a)		((a).__sockaddr__)

/* glibc fortify entry points, declared only under _FORTIFY_SOURCE. */
ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen,
		       int flags, __SOCKADDR_ARG addr, socklen_t *addrlen);
extern void __chk_fail(void) __attribute__((noreturn));

/* The next definitions (libc's), found with dlsym(RTLD_NEXT). */
static struct {
	__typeof__(socket) *socket;
	__typeof__(bind) *bind;
	__typeof__(connect) *connect;
	__typeof__(getsockname) *getsockname;
	__typeof__(getpeername) *getpeername;
	__typeof__(setsockopt) *setsockopt;
	__typeof__(getsockopt) *getsockopt;
	__typeof__(shutdown) *shutdown;
	__typeof__(send) *send;
	__typeof__(sendto) *sendto;
	__typeof__(sendmsg) *sendmsg;
	__typeof__(write) *write;
	__typeof__(writev) *writev;
	__typeof__(recv) *recv;
	__typeof__(recvfrom) *recvfrom;
	__typeof__(recvmsg) *recvmsg;
	__typeof__(read) *read;
	__typeof__(readv) *readv;
	__typeof__(__read_chk) *read_chk;
	__typeof__(__recv_chk) *recv_chk;
	__typeof__(__recvfrom_chk) *recvfrom_chk;
	__typeof__(close) *close;
	__typeof__(close_range) *close_range;
	__typeof__(closefrom) *closefrom;
	__typeof__(dup) *dup;
	__typeof__(dup2) *dup2;
	__typeof__(dup3) *dup3;
	__typeof__(fcntl) *fcntl;
	__typeof__(fcntl64) *fcntl64;
} real;

/* An expression, not a statement: resolves on first use (before init()). */
#define REAL(fn)	(real.fn ? real.fn : (resolve(), real.fn))

/**
 * struct nlsock - one emulated netlink socket, shared by its dup()s
 * @refs: fd_slot[] entries naming it plus calls in progress; 0 = free entry.
 *	Taken with sock_get(), dropped with sock_put(); the last put closes @ctl.
 * @ctl: shim end of the control socketpair (close-on-exec, hidden)
 * @peer: a real, bound NETLINK_NETFILTER socket that only carries the port
 *	id (close-on-exec, hidden, -1 if none): see peer_open()
 * @type: SOCK_RAW or SOCK_DGRAM as created, for SO_TYPE
 * @portid: netlink port id nfbpfd assigned in its HELLO answer
 * @bound: bind(), connect() or a send happened (the kernel autobinds then);
 *	until then getsockname() reports nl_pid 0, as the kernel does
 * @groups: multicast groups 1..32 joined (bind() or NETLINK_ADD_MEMBERSHIP)
 * @has_groups: a group was ever joined (sizes NETLINK_LIST_MEMBERSHIPS)
 * @dst_portid: connect() destination port id, for getpeername()
 * @dst_groups: connect() destination group (as a mask), for getpeername()
 * @lock: serializes control-channel exchanges (one outstanding operation)
 * @more: nfbpfd's last answer said it may hold output for the socket
 *	(NFBPF_REP_MORE): an EAGAIN asks it (NFBPF_CTL_PULL)
 */
struct nlsock {
	atomic_int refs;
	atomic_int ctl;
	int peer;
	int type;
	uint32_t portid;
	atomic_bool bound;
	atomic_uint groups;
	atomic_bool has_groups;
	atomic_uint dst_portid;
	atomic_uint dst_groups;
	pthread_mutex_t lock;
	atomic_bool more;
};

static struct nlsock socks[MAX_SOCKS];
static _Atomic uint16_t fd_slot[MAX_FD];	/* fd -> socks[] index + 1 */
static _Atomic uint16_t ctl_slot[MAX_FD];	/* control fd -> index + 1 */
static atomic_int nsocks;			/* entries with refs > 0 */
static atomic_bool reported;			/* the stderr message is printed once */

static void resolve(void)
{
	real.socket = dlsym(RTLD_NEXT, "socket");
	real.bind = dlsym(RTLD_NEXT, "bind");
	real.connect = dlsym(RTLD_NEXT, "connect");
	real.getsockname = dlsym(RTLD_NEXT, "getsockname");
	real.getpeername = dlsym(RTLD_NEXT, "getpeername");
	real.setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real.getsockopt = dlsym(RTLD_NEXT, "getsockopt");
	real.shutdown = dlsym(RTLD_NEXT, "shutdown");
	real.send = dlsym(RTLD_NEXT, "send");
	real.sendto = dlsym(RTLD_NEXT, "sendto");
	real.sendmsg = dlsym(RTLD_NEXT, "sendmsg");
	real.write = dlsym(RTLD_NEXT, "write");
	real.writev = dlsym(RTLD_NEXT, "writev");
	real.recv = dlsym(RTLD_NEXT, "recv");
	real.recvfrom = dlsym(RTLD_NEXT, "recvfrom");
	real.recvmsg = dlsym(RTLD_NEXT, "recvmsg");
	real.read = dlsym(RTLD_NEXT, "read");
	real.readv = dlsym(RTLD_NEXT, "readv");
	real.read_chk = dlsym(RTLD_NEXT, "__read_chk");
	real.recv_chk = dlsym(RTLD_NEXT, "__recv_chk");
	real.recvfrom_chk = dlsym(RTLD_NEXT, "__recvfrom_chk");
	real.close_range = dlsym(RTLD_NEXT, "close_range");
	real.closefrom = dlsym(RTLD_NEXT, "closefrom");
	real.dup = dlsym(RTLD_NEXT, "dup");
	real.dup2 = dlsym(RTLD_NEXT, "dup2");
	real.dup3 = dlsym(RTLD_NEXT, "dup3");
	real.fcntl = dlsym(RTLD_NEXT, "fcntl");
	real.fcntl64 = dlsym(RTLD_NEXT, "fcntl64");
	/* Last: REAL() tests the field it needs, close is the most used. */
	real.close = dlsym(RTLD_NEXT, "close");
}

/* A child of fork() has one thread: no lock of its sockets can be held. */
static void atfork_child(void)
{
	int i;

	for (i = 0; i < MAX_SOCKS; i++)
		if (atomic_load(&socks[i].refs))
			pthread_mutex_init(&socks[i].lock, NULL);
}

/* A preload library has no other entry point; REAL() covers earlier calls. */
__attribute__((constructor)) static void init(void)
{
	resolve();
	pthread_atfork(NULL, NULL, atfork_child);
}

/* 1. The fd table. */

static void sock_put(struct nlsock *s)
{
	int ctl = atomic_load(&s->ctl);
	int saved;

	if (atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	saved = errno;
	if (ctl >= 0 && ctl < MAX_FD)
		atomic_store(&ctl_slot[ctl], 0);
	REAL(close)(ctl);
	if (s->peer >= 0) {
		if (s->peer < MAX_FD)
			atomic_store(&ctl_slot[s->peer], 0);
		REAL(close)(s->peer);
	}
	atomic_fetch_sub(&nsocks, 1);
	errno = saved;
}

/* Returns the socket behind @fd with a reference held, or NULL. */
static struct nlsock *sock_get(int fd)
{
	struct nlsock *s;
	unsigned int idx;
	int refs;

	if (fd < 0 || fd >= MAX_FD)
		return NULL;
	idx = atomic_load_explicit(&fd_slot[fd], memory_order_acquire);
	if (!idx)
		return NULL;
	s = &socks[idx - 1];
	refs = atomic_load(&s->refs);
	do {
		if (!refs)
			return NULL;
	} while (!atomic_compare_exchange_weak(&s->refs, &refs, refs + 1));
	/* The entry may have been freed and reused meanwhile. */
	if (atomic_load(&fd_slot[fd]) != idx) {
		sock_put(s);
		return NULL;
	}
	return s;
}

/* Returns a free entry with one reference (the caller's), or NULL. */
static struct nlsock *sock_alloc(void)
{
	int i, zero;

	for (i = 0; i < MAX_SOCKS; i++) {
		zero = 0;
		if (atomic_compare_exchange_strong(&socks[i].refs, &zero, 1)) {
			atomic_fetch_add(&nsocks, 1);
			return &socks[i];
		}
	}
	return NULL;
}

/* Points @fd (< MAX_FD) at @s; takes the caller's reference to @s. */
static void fd_install(int fd, struct nlsock *s)
{
	unsigned int old;

	old = atomic_exchange(&fd_slot[fd], (uint16_t)(s - socks + 1));
	if (old)
		sock_put(&socks[old - 1]);
}

/* @fd no longer names an emulated socket (closed or replaced). */
static void fd_forget(int fd)
{
	unsigned int old;

	if (fd < 0 || fd >= MAX_FD || !atomic_load(&fd_slot[fd]))
		return;
	old = atomic_exchange(&fd_slot[fd], 0);
	if (old)
		sock_put(&socks[old - 1]);
}

static bool fd_is_ctl(int fd)
{
	return fd >= 0 && fd < MAX_FD && atomic_load(&ctl_slot[fd]);
}

/* After a dup of an emulated fd: @newfd shares @s (takes its reference). */
static int dup_track(struct nlsock *s, int newfd)
{
	if (!s)
		return newfd;
	if (newfd < 0) {
		sock_put(s);
		return newfd;
	}
	if (newfd >= MAX_FD) {
		REAL(close)(newfd);
		sock_put(s);
		errno = EMFILE;
		return -1;
	}
	fd_install(newfd, s);
	return newfd;
}

/* -errno to the libc convention; errno is left alone on success. */
static ssize_t ret_errno(ssize_t ret, int saved)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	errno = saved;
	return ret;
}

/* 2. The control channel. */

/* Waits for the answer to @op. Returns 0 or -errno (-EIO: protocol error). */
static int ctl_wait(int ctl, uint32_t op, struct nfbpf_ctl_rep *rep)
{
	ssize_t n;

	do
		n = REAL(recv)(ctl, rep, sizeof(*rep), MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ECONNRESET;	/* nfbpfd went away */
	if (n != sizeof(*rep) || rep->op != op)
		return -EIO;
	return 0;
}

/*
 * One request/answer exchange. Returns 0 with *@rep filled (rep->err is
 * the operation's result) or -errno for a transport or protocol error.
 */
static int ctl_call(struct nlsock *s, uint32_t op, uint32_t arg, uint32_t val,
		    struct nfbpf_ctl_rep *rep)
{
	struct nfbpf_ctl_req req = { .op = op, .arg = arg, .val = val };
	int ctl = atomic_load(&s->ctl);
	ssize_t n;
	int err;

	pthread_mutex_lock(&s->lock);
	do
		n = REAL(send)(ctl, &req, sizeof(req), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno == EPIPE ? -ECONNRESET : -errno;
	else if (n != sizeof(req))
		err = -EIO;
	else
		err = ctl_wait(ctl, op, rep);
	if (!err)
		atomic_store(&s->more, !!(rep->flags & NFBPF_REP_MORE));
	pthread_mutex_unlock(&s->lock);
	if (!err && rep->err > 0)
		err = -EIO;
	return err;
}

/* 3. socket(): connect to nfbpfd and say HELLO. */

static void report(const char *what, const char *path, int err)
{
	char msg[512];
	ssize_t r;
	int n;

	if (atomic_exchange(&reported, true))
		return;
	n = snprintf(msg, sizeof(msg), "nfbpf: %s %s: %s\n", what, path,
		     strerror(-err));
	if (n <= 0)
		return;
	if (n >= (int)sizeof(msg))
		n = sizeof(msg) - 1;
	r = REAL(write)(STDERR_FILENO, msg, n);
	(void)r;	/* nothing better to do if stderr is gone */
}

static int daemon_connect(int fd, const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t len = strlen(path);

	if (len >= sizeof(sun.sun_path))
		return -ENAMETOOLONG;
	memcpy(sun.sun_path, path, len);
	while (REAL(connect)(fd, (struct sockaddr *)&sun,
			     offsetof(struct sockaddr_un, sun_path) + len + 1))
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Sends struct nfbpf_hello with SCM_RIGHTS [@ctl_peer, @netns]. */
static int hello_send(int data, int ctl_peer, int netns, uint32_t portid)
{
	struct nfbpf_hello hello = {
		.magic = NFBPF_PROTO_MAGIC,
		.version = NFBPF_PROTO_VERSION,
		.protocol = NETLINK_NETFILTER,
		.portid = portid,
	};
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &hello, .iov_len = sizeof(hello) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	int fds[2] = { ctl_peer, netns };
	struct cmsghdr *c;

	memset(&u, 0, sizeof(u));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	while (REAL(sendmsg)(data, &m, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return errno == EPIPE ? -ECONNRESET : -errno;
	return 0;
}

/* Moves @fd to CTL_FD_MIN or above if it can; returns the fd to use. */
static int fd_move_high(int fd)
{
	int high = REAL(fcntl)(fd, F_DUPFD_CLOEXEC, CTL_FD_MIN);

	if (high < 0)
		return fd;
	REAL(close)(fd);
	return high;
}

/*
 * peer_open - a real NETLINK_NETFILTER socket in the caller's network
 * namespace, autobound by the kernel: its port id becomes the emulated
 * socket's (nfbpfd takes it unless another client has it), so port ids are
 * the kernel's own, unique among real sockets, and tools that map a port id
 * to a process through /proc/net/netlink and /proc/PID/fd (nft's "# progname"
 * of an owned table) find the process. Nothing is ever sent to it (no
 * groups, nobody addresses it). Returns the fd (high, close-on-exec) and
 * sets *@portid, or -1 and 0 (nfbpfd then picks the port id).
 */
static int peer_open(uint32_t *portid)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(nl);
	int fd;

	*portid = 0;
	fd = REAL(socket)(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	if (fd < 0)
		return -1;
	if (REAL(bind)(fd, (struct sockaddr *)&nl, sizeof(nl)) ||
	    REAL(getsockname)(fd, (struct sockaddr *)&nl, &len) ||
	    nl.nl_family != AF_NETLINK) {
		REAL(close)(fd);
		return -1;
	}
	fd = fd_move_high(fd);
	if (fd >= MAX_FD) {
		REAL(close)(fd);
		return -1;
	}
	*portid = nl.nl_pid;
	return fd;
}

/*
 * Opens an emulated socket of @type (with SOCK_CLOEXEC/SOCK_NONBLOCK).
 * Returns the data fd or -errno; if nfbpfd cannot be reached or refuses,
 * says so once on stderr.
 */
static int nl_open(int type)
{
	const char *path = getenv(NFBPF_SOCKET_ENV);
	struct nfbpf_ctl_rep rep;
	const char *what = NULL;
	struct nlsock *s;
	int data, ctl, netns, err, fl, peer;
	uint32_t peer_portid;
	int sp[2];

	if (!path || !*path)
		path = NFBPF_DEFAULT_SOCKET;

	/* 0. Data connection, blocking until the HELLO is answered. */
	data = REAL(socket)(AF_UNIX, SOCK_SEQPACKET | (type & SOCK_CLOEXEC), 0);
	if (data < 0)
		return -errno;
	if (data >= MAX_FD) {
		err = -EMFILE;
		goto out_close_data;
	}
	err = daemon_connect(data, path);
	if (err) {
		what = "cannot reach nfbpfd at";
		goto out_close_data;
	}

	/* 1. Control channel: our end at a high close-on-exec fd, blocking. */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp)) {
		err = -errno;
		goto out_close_data;
	}
	ctl = fd_move_high(sp[0]);

	/* 2. HELLO with [nfbpfd's control end, our network namespace]. */
	netns = open(NETNS_PATH, O_RDONLY | O_CLOEXEC);
	if (netns < 0) {
		err = -errno;
		REAL(close)(sp[1]);
		what = "cannot open";
		path = NETNS_PATH;
		goto out_close_ctl;
	}
	peer = peer_open(&peer_portid);
	err = hello_send(data, sp[1], netns, peer_portid);
	REAL(close)(netns);
	REAL(close)(sp[1]);
	if (!err)
		err = ctl_wait(ctl, NFBPF_CTL_HELLO, &rep);
	if (!err && rep.err)
		err = rep.err < 0 ? rep.err : -EIO;
	if (peer >= 0 && (err || rep.val != peer_portid)) {
		REAL(close)(peer);	/* nfbpfd gave another port id */
		peer = -1;
	}
	if (err) {
		what = "cannot reach nfbpfd at";
		goto out_close_ctl;
	}
	if (type & SOCK_NONBLOCK) {
		fl = REAL(fcntl)(data, F_GETFL);
		if (fl < 0 || REAL(fcntl)(data, F_SETFL, fl | O_NONBLOCK) < 0) {
			err = -errno;
			goto out_close_peer;
		}
	}

	/* 3. State shared by every dup of the fd. */
	s = sock_alloc();
	if (!s) {
		err = -EMFILE;
		goto out_close_peer;
	}
	atomic_store(&s->ctl, ctl);
	s->peer = peer;
	if (peer >= 0)
		atomic_store(&ctl_slot[peer], (uint16_t)(s - socks + 1));
	s->type = type & ~(SOCK_CLOEXEC | SOCK_NONBLOCK);
	s->portid = rep.val;
	atomic_store(&s->bound, false);
	atomic_store(&s->groups, 0);
	atomic_store(&s->has_groups, false);
	atomic_store(&s->dst_portid, 0);
	atomic_store(&s->dst_groups, 0);
	atomic_store(&s->more, !!(rep.flags & NFBPF_REP_MORE));
	pthread_mutex_init(&s->lock, NULL);
	if (ctl < MAX_FD)
		atomic_store(&ctl_slot[ctl], (uint16_t)(s - socks + 1));
	fd_install(data, s);
	return data;

out_close_peer:
	if (peer >= 0)
		REAL(close)(peer);
out_close_ctl:
	REAL(close)(ctl);
out_close_data:
	REAL(close)(data);
	if (what)
		report(what, path, err);
	return err;
}

/* 4. Names and options. */

/* Stores a sockaddr_nl with the kernel's move_addr_to_user() rules. */
static int name_put(void *addr, socklen_t *lenp, uint32_t pid, uint32_t groups)
{
	struct sockaddr_nl nl = {
		.nl_family = AF_NETLINK, .nl_pid = pid, .nl_groups = groups,
	};
	int len;

	if (!lenp)
		return -EFAULT;
	len = (int)*lenp;
	if (len < 0)
		return -EINVAL;
	if ((size_t)len > sizeof(nl))
		len = sizeof(nl);
	if (len) {
		if (!addr)
			return -EFAULT;
		memcpy(addr, &nl, len);
	}
	*lenp = sizeof(nl);
	return 0;
}

static int nl_bind(struct nlsock *s, const struct sockaddr *addr, socklen_t len)
{
	const struct sockaddr_nl *nl = (const struct sockaddr_nl *)addr;
	struct nfbpf_ctl_rep rep;
	uint32_t groups;
	int err;

	/* 0. Validate as the syscall and netlink_bind() do. */
	if (len > sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (len && !addr)
		return -EFAULT;
	if (len < sizeof(*nl) || nl->nl_family != AF_NETLINK)
		return -EINVAL;
	/*
	 * nfbpfd assigned the port id at HELLO: once bound, the kernel only
	 * accepts that port id; before, it would take any free one, which
	 * the protocol cannot ask for.
	 */
	if (nl->nl_pid != s->portid &&
	    (nl->nl_pid || atomic_load(&s->bound)))
		return -EINVAL;

	/* 1. nl_groups replaces groups 1..32, so binding 0 leaves them. */
	groups = nl->nl_groups;
	if (groups || atomic_load(&s->groups)) {
		err = ctl_call(s, NFBPF_CTL_BIND, 0, groups, &rep);
		if (err)
			return err;
		if (rep.err)
			return rep.err;
		atomic_store(&s->groups, groups);
		if (groups)
			atomic_store(&s->has_groups, true);
	}
	atomic_store(&s->bound, true);
	return 0;
}

static int nl_connect(struct nlsock *s, const struct sockaddr *addr,
		      socklen_t len)
{
	const struct sockaddr_nl *nl = (const struct sockaddr_nl *)addr;

	if (len > sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (len && !addr)
		return -EFAULT;
	if (len < sizeof(sa_family_t))
		return -EINVAL;
	if (addr->sa_family == AF_UNSPEC) {
		atomic_store(&s->dst_portid, 0);
		atomic_store(&s->dst_groups, 0);
		return 0;
	}
	if (addr->sa_family != AF_NETLINK || len < sizeof(*nl))
		return -EINVAL;
	/* Sends still go to nfbpfd: only getpeername() sees the peer. */
	atomic_store(&s->bound, true);
	atomic_store(&s->dst_portid, nl->nl_pid);
	atomic_store(&s->dst_groups,
		     nl->nl_groups ? 1u << (ffs(nl->nl_groups) - 1) : 0);
	return 0;
}

static int nl_setsockopt(struct nlsock *s, int fd, int level, int name,
			 const void *val, socklen_t len)
{
	struct nfbpf_ctl_rep rep;
	uint32_t v = 0, bit;
	int err;

	if (level == SOL_SOCKET)
		return REAL(setsockopt)(fd, level, name, val, len) ? -errno : 0;
	if (level != SOL_NETLINK)
		return -ENOPROTOOPT;
	/* netlink_setsockopt(): a value shorter than an int reads as 0. */
	if (len >= sizeof(int)) {
		if (!val)
			return -EFAULT;
		memcpy(&v, val, sizeof(v));
	}
	err = ctl_call(s, NFBPF_CTL_SETOPT, (uint32_t)name, v, &rep);
	if (err)
		return err;
	if (name != NETLINK_ADD_MEMBERSHIP && name != NETLINK_DROP_MEMBERSHIP)
		return rep.err;
	/* The kernel sizes the group bitmap before it checks the group. */
	if (rep.err != -EPERM)
		atomic_store(&s->has_groups, true);
	if (rep.err)
		return rep.err;
	bit = v >= 1 && v <= 32 ? 1u << (v - 1) : 0;
	if (name == NETLINK_ADD_MEMBERSHIP)
		atomic_fetch_or(&s->groups, bit);
	else
		atomic_fetch_and(&s->groups, ~bit);
	return 0;
}

/* An int option, truncated to the caller's length as sock_getsockopt(). */
static int opt_put_trunc(void *val, socklen_t *lenp, int v)
{
	int len;

	if (!lenp)
		return -EFAULT;
	len = (int)*lenp;
	if (len < 0)
		return -EINVAL;
	if ((size_t)len > sizeof(v))
		len = sizeof(v);
	if (len) {
		if (!val)
			return -EFAULT;
		memcpy(val, &v, len);
	}
	*lenp = len;
	return 0;
}

static int nl_getsockopt(struct nlsock *s, int fd, int level, int name,
			 void *val, socklen_t *lenp)
{
	struct nfbpf_ctl_rep rep;
	uint32_t groups;
	int err, len;

	if (level == SOL_SOCKET) {
		switch (name) {
		case SO_PROTOCOL:
			return opt_put_trunc(val, lenp, NETLINK_NETFILTER);
		case SO_DOMAIN:
			return opt_put_trunc(val, lenp, AF_NETLINK);
		case SO_TYPE:
			return opt_put_trunc(val, lenp, s->type);
		default:
			return REAL(getsockopt)(fd, level, name, val, lenp) ?
			       -errno : 0;
		}
	}
	if (level != SOL_NETLINK)
		return -ENOPROTOOPT;
	if (!lenp)
		return -EFAULT;
	len = (int)*lenp;
	if (len < 0)
		return -EINVAL;

	if (name == NETLINK_LIST_MEMBERSHIPS) {
		/* A u32 bitmap of the 32 groups, once any was joined. */
		if (!atomic_load(&s->has_groups)) {
			*lenp = 0;
			return 0;
		}
		if (len >= (int)sizeof(groups)) {
			if (!val)
				return -EFAULT;
			groups = atomic_load(&s->groups);
			memcpy(val, &groups, sizeof(groups));
		}
		*lenp = sizeof(groups);
		return 0;
	}

	/* nfbpfd knows the options; a short buffer is EINVAL after that. */
	err = ctl_call(s, NFBPF_CTL_GETOPT, (uint32_t)name, 0, &rep);
	if (err)
		return err;
	if (rep.err)
		return rep.err;
	if (len < (int)sizeof(int))
		return -EINVAL;
	if (!val)
		return -EFAULT;
	memcpy(val, &rep.val, sizeof(int));
	*lenp = sizeof(int);
	return 0;
}

/* 5. Data: sends are synchronous, receives pull. */

static int iov_len(const struct iovec *iov, size_t n, size_t *lenp)
{
	size_t len = 0, i;

	if (n > IOV_MAX)
		return -EMSGSIZE;
	if (n && !iov)
		return -EFAULT;
	for (i = 0; i < n; i++) {
		if (iov[i].iov_len > SSIZE_MAX - len)
			return -EINVAL;
		len += iov[i].iov_len;
	}
	*lenp = len;
	return 0;
}

/* Lets one datagram of @len bytes through: unix wants len <= sndbuf - 32. */
static void sndbuf_fit(int fd, size_t len)
{
	socklen_t sl = sizeof(int);
	int cur, want;

	if (REAL(getsockopt)(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl) == 0 &&
	    cur >= 0 && (size_t)cur >= len + 1024)
		return;
	want = len > INT_MAX / 2 - SNDBUF_SLACK ? INT_MAX / 2 :
	       (int)len + SNDBUF_SLACK;
	if (REAL(setsockopt)(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want,
			     sizeof(want)))
		REAL(setsockopt)(fd, SOL_SOCKET, SO_SNDBUF, &want,
				 sizeof(want));
}

/* Sends @m as one datagram, waiting for room even on an O_NONBLOCK fd. */
static int datagram_send(int fd, const struct msghdr *m)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	for (;;) {
		if (REAL(sendmsg)(fd, m, MSG_NOSIGNAL) >= 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EPIPE)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return -errno;
	}
}

/*
 * Copies the @len bytes of @iov into a sealed memfd for struct
 * nfbpf_bigmsg. Returns the memfd or -errno: EFAULT for a bad buffer (as
 * the kernel's sendmsg()), ENOBUFS when the memfd cannot be had or filled.
 */
static int bigmsg_fill(const struct iovec *iov, size_t iovlen, size_t len)
{
	off_t off = 0;
	size_t i, left;
	const char *p;
	ssize_t w;
	int mfd, err;

	mfd = memfd_create("nfbpf-batch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0)
		return -ENOBUFS;
	if (ftruncate(mfd, (off_t)len)) {
		err = -ENOBUFS;
		goto out_close;
	}
	for (i = 0; i < iovlen; i++) {
		p = iov[i].iov_base;
		left = iov[i].iov_len;
		while (left) {
			w = pwrite(mfd, p, left, off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				err = w < 0 && errno == EFAULT ? -EFAULT : -ENOBUFS;
				goto out_close;
			}
			p += w;
			left -= (size_t)w;
			off += w;
		}
	}
	if (REAL(fcntl)(mfd, F_ADD_SEALS, NFBPF_BIGMSG_SEALS)) {
		err = -ENOBUFS;
		goto out_close;
	}
	return mfd;

out_close:
	REAL(close)(mfd);
	return err;
}

/* Sends struct nfbpf_bigmsg for @len bytes in @mfd, with it attached. */
static int bigmsg_send(int fd, int mfd, size_t len)
{
	struct nfbpf_bigmsg bm = { .magic = NFBPF_BIGMSG_MAGIC, .len = len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &bm, .iov_len = sizeof(bm) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;

	memset(&u, 0, sizeof(u));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &mfd, sizeof(int));
	return datagram_send(fd, &m);
}

/*
 * One application send: one datagram to nfbpfd, then wait for
 * NFBPF_CTL_SENT, so every reply is readable when this returns. Above
 * NFBPF_BIGMSG_THRESHOLD bytes the datagram goes in a memfd (struct
 * nfbpf_bigmsg): unix datagrams cannot be much larger than wmem_max. The
 * destination address is checked (netlink_sendmsg()) but not used.
 * Returns the bytes sent or -errno.
 */
static ssize_t nl_send(struct nlsock *s, int fd, const struct iovec *iov,
		       size_t iovlen, const void *name, socklen_t namelen,
		       int flags)
{
	const struct sockaddr_nl *dst = name;
	struct msghdr m = { .msg_iov = (struct iovec *)iov, .msg_iovlen = iovlen };
	struct nfbpf_ctl_rep rep;
	int err, mfd = -1;
	size_t len;

	/* 0. Validate. */
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	err = iov_len(iov, iovlen, &len);
	if (err)
		return err;
	if (!len)
		return -ENODATA;
	if (name && namelen &&
	    (namelen < sizeof(*dst) || dst->nl_family != AF_NETLINK))
		return -EINVAL;

	/* 1. A large datagram is copied out first, outside the lock. */
	if (len > NFBPF_BIGMSG_THRESHOLD) {
		mfd = bigmsg_fill(iov, iovlen, len);
		if (mfd < 0)
			return mfd;
	}

	/* 2. The datagram, then the daemon's word that it was handled. */
	pthread_mutex_lock(&s->lock);
	if (mfd >= 0) {
		err = bigmsg_send(fd, mfd, len);
	} else {
		sndbuf_fit(fd, len);
		err = datagram_send(fd, &m);
	}
	if (!err)
		err = ctl_wait(atomic_load(&s->ctl), NFBPF_CTL_SENT, &rep);
	if (!err)
		atomic_store(&s->more, !!(rep.flags & NFBPF_REP_MORE));
	pthread_mutex_unlock(&s->lock);
	if (mfd >= 0)
		REAL(close)(mfd);
	if (err)
		return err;
	atomic_store(&s->bound, true);
	if (rep.err)
		return rep.err < 0 ? rep.err : -EIO;
	return len;
}

static bool iov_empty(const struct msghdr *m)
{
	size_t i;

	for (i = 0; i < m->msg_iovlen; i++)
		if (m->msg_iov[i].iov_len)
			return false;
	return true;
}

/*
 * One application receive. MSG_PEEK, MSG_TRUNC and MSG_DONTWAIT work
 * natively on the seqpacket fd; EAGAIN asks nfbpfd for pending output
 * (NFBPF_CTL_PULL) and retries once. The source is the kernel, pid 0.
 * Returns the bytes received (full length with MSG_TRUNC) or -errno.
 */
static ssize_t nl_recv(struct nlsock *s, int fd, struct msghdr *msg, int flags)
{
	struct msghdr m;
	struct nfbpf_ctl_rep rep;
	bool pulled = false;
	ssize_t n;

	if (!msg)
		return -EFAULT;
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	memset(&m, 0, sizeof(m));
	m.msg_iov = msg->msg_iov;
	m.msg_iovlen = msg->msg_iovlen;
	for (;;) {
		n = REAL(recvmsg)(fd, &m, flags);
		if (n >= 0)
			break;
		if ((errno != EAGAIN && errno != EWOULDBLOCK) || pulled)
			return -errno;
		/* The kernel builds dump chunks inside recvmsg(); nfbpfd
		 * holds nothing for the socket if its last answer said so. */
		if (!atomic_load(&s->more))
			return -EAGAIN;
		pulled = true;
		if (ctl_call(s, NFBPF_CTL_PULL, 0, 0, &rep) || rep.err ||
		    !rep.val)
			return -EAGAIN;
	}
	/* 0 bytes for a non-empty buffer is end of file: nfbpfd is gone. */
	if (!n && ((flags & MSG_TRUNC) || !iov_empty(&m)))
		return -ECONNRESET;
	if (msg->msg_name)
		name_put(msg->msg_name, &msg->msg_namelen, 0, 0);
	msg->msg_controllen = 0;
	msg->msg_flags = m.msg_flags & MSG_TRUNC;
	return n;
}

static ssize_t buf_recv(struct nlsock *s, int fd, void *buf, size_t len,
			int flags, struct sockaddr *addr, socklen_t *addrlen)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (addr) {
		if (!addrlen)
			return -EFAULT;
		m.msg_name = addr;
		m.msg_namelen = *addrlen;
	}
	n = nl_recv(s, fd, &m, flags);
	if (n >= 0 && addr)
		*addrlen = m.msg_namelen;
	return n;
}

/* 6. The interposed calls. */

/**
 * socket() - takes over AF_NETLINK/NETLINK_NETFILTER raw and dgram sockets
 * @domain: address family
 * @type: socket type, maybe with SOCK_CLOEXEC and SOCK_NONBLOCK
 * @protocol: protocol
 *
 * Return: an fd connected to nfbpfd (env NFBPF_SOCKET, default
 * NFBPF_DEFAULT_SOCKET), or -1 with errno: the connect() error
 * (ENOENT, ECONNREFUSED, ...) or nfbpfd's refusal (e.g. EPERM), after
 * one "nfbpf: cannot reach nfbpfd at PATH: ..." on stderr; EMFILE when
 * MAX_SOCKS sockets are open. Any other socket is libc's.
 */
int socket(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_CLOEXEC | SOCK_NONBLOCK);
	int saved = errno;

	if (domain != AF_NETLINK || protocol != NETLINK_NETFILTER ||
	    (base != SOCK_RAW && base != SOCK_DGRAM))
		return REAL(socket)(domain, type, protocol);
	return ret_errno(nl_open(type), saved);
}

/**
 * bind() - netlink_bind(): checks the address, forwards nl_groups
 * @fd: socket
 * @addr: struct sockaddr_nl
 * @len: address length
 *
 * Return: 0, or -1 with errno EINVAL (short address, not AF_NETLINK,
 * nl_pid other than the assigned port id) or nfbpfd's NFBPF_CTL_BIND error.
 */
int bind(int fd, __CONST_SOCKADDR_ARG addr, socklen_t len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(bind)(fd, addr, len);
	ret = nl_bind(s, SA(addr), len);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * connect() - netlink_connect(): checks the address, remembers the peer
 * @fd: socket
 * @addr: struct sockaddr_nl, or AF_UNSPEC to disconnect
 * @len: address length
 *
 * Return: 0, or -1 with errno EINVAL. Sends keep going to nfbpfd.
 */
int connect(int fd, __CONST_SOCKADDR_ARG addr, socklen_t len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(connect)(fd, addr, len);
	ret = nl_connect(s, SA(addr), len);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * getsockname() - {AF_NETLINK, port id once bound, groups 1..32}
 * @fd: socket
 * @addr: buffer, filled up to *@len bytes
 * @len: in: buffer size; out: sizeof(struct sockaddr_nl)
 *
 * Return: 0, or -1 with errno EINVAL (negative length) or EFAULT.
 */
int getsockname(int fd, __SOCKADDR_ARG addr, socklen_t *len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(getsockname)(fd, addr, len);
	ret = name_put(SA(addr), len,
		       atomic_load(&s->bound) ? s->portid : 0,
		       atomic_load(&s->groups));
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * getpeername() - {AF_NETLINK, connect()ed pid and group, else 0}
 * @fd: socket
 * @addr: buffer, filled up to *@len bytes
 * @len: in: buffer size; out: sizeof(struct sockaddr_nl)
 *
 * Return: 0, or -1 with errno EINVAL or EFAULT.
 */
int getpeername(int fd, __SOCKADDR_ARG addr, socklen_t *len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(getpeername)(fd, addr, len);
	ret = name_put(SA(addr), len, atomic_load(&s->dst_portid),
		       atomic_load(&s->dst_groups));
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * setsockopt() - SOL_NETLINK to nfbpfd, SOL_SOCKET to the unix socket
 * @fd: socket
 * @level: SOL_NETLINK or SOL_SOCKET (else ENOPROTOOPT, as netlink)
 * @name: option
 * @val: value (an int for SOL_NETLINK; shorter reads as 0, as the kernel)
 * @len: value length
 *
 * SO_*BUF and SO_*BUFFORCE apply to the unix socket with its exact
 * result (EPERM for FORCE without CAP_NET_ADMIN, as netlink).
 *
 * Return: 0, or -1 with errno from nfbpfd (NFBPF_CTL_SETOPT) or the
 * unix socket.
 */
int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(setsockopt)(fd, level, name, val, len);
	ret = nl_setsockopt(s, fd, level, name, val, len);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * getsockopt() - SOL_NETLINK from nfbpfd; SO_PROTOCOL, SO_DOMAIN, SO_TYPE
 * as netlink; other SOL_SOCKET options from the unix socket
 * @fd: socket
 * @level: option level
 * @name: option
 * @val: value buffer
 * @len: in: buffer size; out: value size
 *
 * Return: 0, or -1 with errno EINVAL (SOL_NETLINK buffer shorter than an
 * int), ENOPROTOOPT, or nfbpfd's NFBPF_CTL_GETOPT error.
 */
int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno, ret;

	if (!s)
		return REAL(getsockopt)(fd, level, name, val, len);
	ret = nl_getsockopt(s, fd, level, name, val, len);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * shutdown() - not supported on netlink sockets
 * @fd: socket
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * Return: -1 with errno EOPNOTSUPP for an emulated socket.
 */
int shutdown(int fd, int how)
{
	struct nlsock *s = sock_get(fd);

	if (!s)
		return REAL(shutdown)(fd, how);
	sock_put(s);
	errno = EOPNOTSUPP;
	return -1;
}

/**
 * sendmsg() - one datagram to nfbpfd, returning once it was handled
 * @fd: socket
 * @msg: message; msg_name, if set, must be a sockaddr_nl (it is ignored)
 * @flags: MSG_OOB is EOPNOTSUPP; others ignored, the send always blocks
 *
 * Return: the bytes sent, or -1 with errno: EINVAL (bad address),
 * ENODATA (empty), the error nfbpfd put in NFBPF_CTL_SENT, EIO (protocol
 * error), ECONNRESET (nfbpfd gone), or the unix send error (EMSGSIZE...).
 */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(sendmsg)(fd, msg, flags);
	ret = msg ? nl_send(s, fd, msg->msg_iov, msg->msg_iovlen,
			    msg->msg_name, msg->msg_namelen, flags) : -EFAULT;
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * sendto() - as sendmsg() with one buffer
 * @fd: socket
 * @buf: data
 * @len: data length
 * @flags: as sendmsg()
 * @addr: NULL or a sockaddr_nl (ignored)
 * @alen: address length
 *
 * Return: as sendmsg().
 */
ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       __CONST_SOCKADDR_ARG addr, socklen_t alen)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(sendto)(fd, buf, len, flags, addr, alen);
	if (SA(addr) && alen > sizeof(struct sockaddr_storage))
		ret = -EINVAL;
	else
		ret = nl_send(s, fd, &iov, 1, SA(addr), alen, flags);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * send() - as sendmsg() with one buffer and no address
 * @fd: socket
 * @buf: data
 * @len: data length
 * @flags: as sendmsg()
 *
 * Return: as sendmsg().
 */
ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(send)(fd, buf, len, flags);
	ret = nl_send(s, fd, &iov, 1, NULL, 0, flags);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * write() - send() without flags on an emulated socket, else libc's
 * @fd: file descriptor
 * @buf: data
 * @len: data length
 *
 * Return: as sendmsg().
 */
ssize_t write(int fd, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(write)(fd, buf, len);
	ret = nl_send(s, fd, &iov, 1, NULL, 0, 0);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * writev() - sendmsg() without flags on an emulated socket, else libc's
 * @fd: file descriptor
 * @iov: data
 * @iovcnt: number of buffers
 *
 * Return: as sendmsg().
 */
ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(writev)(fd, iov, iovcnt);
	ret = iovcnt < 0 ? -EINVAL : nl_send(s, fd, iov, iovcnt, NULL, 0, 0);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * recvmsg() - one datagram from nfbpfd, source {AF_NETLINK, 0, 0}
 * @fd: socket
 * @msg: message; msg_namelen becomes sizeof(struct sockaddr_nl)
 *	(libmnl checks it), msg_controllen 0, msg_flags only MSG_TRUNC
 * @flags: MSG_PEEK, MSG_TRUNC, MSG_DONTWAIT...; MSG_OOB is EOPNOTSUPP
 *
 * Return: the bytes received (the datagram's length with MSG_TRUNC), or
 * -1 with errno: EAGAIN (nothing pending even after NFBPF_CTL_PULL),
 * ECONNRESET (nfbpfd gone), EINTR, ...
 */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(recvmsg)(fd, msg, flags);
	ret = nl_recv(s, fd, msg, flags);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * recvfrom() - as recvmsg() with one buffer
 * @fd: socket
 * @buf: buffer
 * @len: buffer size
 * @flags: as recvmsg()
 * @addr: NULL or buffer for the source sockaddr_nl
 * @alen: in: @addr size; out: sizeof(struct sockaddr_nl)
 *
 * Return: as recvmsg().
 */
ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 __SOCKADDR_ARG addr, socklen_t *alen)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(recvfrom)(fd, buf, len, flags, addr, alen);
	ret = buf_recv(s, fd, buf, len, flags, SA(addr), alen);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * recv() - as recvmsg() with one buffer and no address
 * @fd: socket
 * @buf: buffer
 * @len: buffer size
 * @flags: as recvmsg()
 *
 * Return: as recvmsg().
 */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(recv)(fd, buf, len, flags);
	ret = buf_recv(s, fd, buf, len, flags, NULL, NULL);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * read() - recv() without flags on an emulated socket, else libc's
 * @fd: file descriptor
 * @buf: buffer
 * @len: buffer size
 *
 * Return: as recvmsg().
 */
ssize_t read(int fd, void *buf, size_t len)
{
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(read)(fd, buf, len);
	ret = buf_recv(s, fd, buf, len, 0, NULL, NULL);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * readv() - recvmsg() without flags on an emulated socket, else libc's
 * @fd: file descriptor
 * @iov: buffers
 * @iovcnt: number of buffers
 *
 * Return: as recvmsg().
 */
ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	struct msghdr m = { .msg_iov = (struct iovec *)iov };
	struct nlsock *s = sock_get(fd);
	int saved = errno;
	ssize_t ret;

	if (!s)
		return REAL(readv)(fd, iov, iovcnt);
	m.msg_iovlen = iovcnt < 0 ? 0 : iovcnt;
	ret = iovcnt < 0 ? -EINVAL : nl_recv(s, fd, &m, 0);
	sock_put(s);
	return ret_errno(ret, saved);
}

/**
 * __read_chk() - fortified read()
 * @fd: file descriptor
 * @buf: buffer
 * @nbytes: bytes to read
 * @buflen: size of @buf (abort if @nbytes exceeds it)
 *
 * Return: as read().
 */
ssize_t __read_chk(int fd, void *buf, size_t nbytes, size_t buflen)
{
	if (fd >= 0 && fd < MAX_FD && atomic_load(&fd_slot[fd])) {
		if (nbytes > buflen)
			__chk_fail();
		return read(fd, buf, nbytes);
	}
	return REAL(read_chk)(fd, buf, nbytes, buflen);
}

/**
 * __recv_chk() - fortified recv()
 * @fd: socket
 * @buf: buffer
 * @len: bytes to receive
 * @buflen: size of @buf (abort if @len exceeds it)
 * @flags: as recv()
 *
 * Return: as recv().
 */
ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	if (fd >= 0 && fd < MAX_FD && atomic_load(&fd_slot[fd])) {
		if (len > buflen)
			__chk_fail();
		return recv(fd, buf, len, flags);
	}
	return REAL(recv_chk)(fd, buf, len, buflen, flags);
}

/**
 * __recvfrom_chk() - fortified recvfrom()
 * @fd: socket
 * @buf: buffer
 * @len: bytes to receive
 * @buflen: size of @buf (abort if @len exceeds it)
 * @flags: as recvfrom()
 * @addr: as recvfrom()
 * @alen: as recvfrom()
 *
 * Return: as recvfrom().
 */
ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen,
		       int flags, __SOCKADDR_ARG addr, socklen_t *alen)
{
	if (fd >= 0 && fd < MAX_FD && atomic_load(&fd_slot[fd])) {
		if (len > buflen)
			__chk_fail();
		return recvfrom(fd, buf, len, flags, addr, alen);
	}
	return REAL(recvfrom_chk)(fd, buf, len, buflen, flags, addr, alen);
}

/**
 * close() - drops the fd's reference; the last one closes the control fd
 * @fd: file descriptor
 *
 * Async-signal-safe. A hidden control fd of a live socket is left open.
 *
 * Return: as libc close(); 0 for a hidden control fd.
 */
int close(int fd)
{
	unsigned int old = 0;
	int ret;

	if (fd_is_ctl(fd))
		return 0;
	if (fd >= 0 && fd < MAX_FD && atomic_load(&fd_slot[fd]))
		old = atomic_exchange(&fd_slot[fd], 0);
	ret = REAL(close)(fd);
	if (old)
		sock_put(&socks[old - 1]);
	return ret;
}

/* close_range() around the hidden control fds of live sockets. */
static int range_close(unsigned int first, unsigned int last, int flags)
{
	unsigned int fd, lo = first, end;
	int ret = 0;

	if (!atomic_load(&nsocks))
		return REAL(close_range)(first, last, flags);
	end = last < MAX_FD - 1 ? last : MAX_FD - 1;
	for (fd = first; fd <= end && fd >= first; fd++) {
		if (!fd_is_ctl(fd))
			continue;
		if (fd > lo && REAL(close_range)(lo, fd - 1, flags))
			ret = -1;
		lo = fd + 1;
	}
	if (lo <= last && lo >= first && REAL(close_range)(lo, last, flags))
		ret = -1;
	return ret;
}

static void range_forget(unsigned int first, unsigned int last)
{
	unsigned int fd;

	for (fd = first; fd <= last && fd < MAX_FD; fd++)
		fd_forget(fd);
}

/**
 * close_range() - close_range(2), keeping emulated sockets consistent
 * @first: first fd
 * @last: last fd
 * @flags: CLOSE_RANGE_UNSHARE, CLOSE_RANGE_CLOEXEC
 *
 * Return: 0, or -1 with errno as close_range(2).
 */
int close_range(unsigned int first, unsigned int last, int flags)
{
	int saved, ret;

	if (first > last)
		return REAL(close_range)(first, last, flags);
	ret = range_close(first, last, flags);
	if (ret || (flags & CLOSE_RANGE_CLOEXEC))
		return ret;
	saved = errno;
	range_forget(first, last);
	errno = saved;
	return 0;
}

/**
 * closefrom() - closes every fd from @lowfd, keeping emulated sockets
 * consistent
 * @lowfd: first fd
 */
void closefrom(int lowfd)
{
	unsigned int lo = lowfd < 0 ? 0 : lowfd;

	/* Without close_range(2), libc's closefrom() takes the control fds too. */
	if (!atomic_load(&nsocks) || range_close(lo, ~0u, 0))
		REAL(closefrom)(lowfd);
	range_forget(lo, ~0u);
}

/**
 * dup() - the new fd shares the emulated socket
 * @fd: file descriptor
 *
 * Return: as libc dup(); EMFILE if the new fd is >= MAX_FD.
 */
int dup(int fd)
{
	struct nlsock *s = sock_get(fd);

	return dup_track(s, REAL(dup)(fd));
}

/**
 * dup2() - @newfd shares the emulated socket, or stops being one
 * @oldfd: file descriptor
 * @newfd: target fd
 *
 * Return: as libc dup2(); EMFILE if @newfd is >= MAX_FD.
 */
int dup2(int oldfd, int newfd)
{
	struct nlsock *s = sock_get(oldfd);
	int ret = REAL(dup2)(oldfd, newfd);

	if (ret >= 0 && oldfd == newfd) {
		if (s)
			sock_put(s);
		return ret;
	}
	if (ret >= 0 && !s)
		fd_forget(ret);
	return dup_track(s, ret);
}

/**
 * dup3() - as dup2(), with O_CLOEXEC
 * @oldfd: file descriptor
 * @newfd: target fd
 * @flags: 0 or O_CLOEXEC
 *
 * Return: as libc dup3(); EMFILE if @newfd is >= MAX_FD.
 */
int dup3(int oldfd, int newfd, int flags)
{
	struct nlsock *s = sock_get(oldfd);
	int ret = REAL(dup3)(oldfd, newfd, flags);

	if (ret >= 0 && !s)
		fd_forget(ret);
	return dup_track(s, ret);
}

static int fcntl_common(__typeof__(fcntl) *fn, int fd, int cmd, void *arg)
{
	struct nlsock *s;

	if (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC)
		return fn(fd, cmd, arg);
	s = sock_get(fd);
	return dup_track(s, fn(fd, cmd, (int)(intptr_t)arg));
}

/**
 * fcntl() - F_DUPFD and F_DUPFD_CLOEXEC share the emulated socket
 * @fd: file descriptor
 * @cmd: command
 *
 * Return: as libc fcntl().
 */
int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_common(REAL(fcntl), fd, cmd, arg);
}

/**
 * fcntl64() - as fcntl() (glibc's name under _FILE_OFFSET_BITS=64)
 * @fd: file descriptor
 * @cmd: command
 *
 * Return: as libc fcntl64().
 */
int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_common(REAL(fcntl64), fd, cmd, arg);
}
