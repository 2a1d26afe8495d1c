// SPDX-License-Identifier: GPL-2.0-only
/*
 * daemon.c - nfbpfd: accepts shim connections (include/nfbpf/shim_proto.h),
 * keeps one nf_tables state per network namespace, and moves datagrams
 * between clients and nfnl_rcv().
 *
 * Single-threaded, one epoll loop: every request is handled to completion
 * before the next, which gives batches the serialisation the kernel gets
 * from its commit mutex.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>

#include "nfbpf/shim_proto.h"
#include "nfnl.h"
#include "nfnl_reach.h"
#include "ruleset_api.h"
#include "dataplane.h"

#define NFBPF_DEFAULT_PIN_DIR	"/sys/fs/bpf/nfbpf"
#define NFBPF_DEFAULT_STATE_DIR	"/var/lib/nfbpf"

#define MAX_CLIENTS	1024
#define MAX_DGRAM	(256u << 20)	/* largest batch accepted: 256 MiB */
#define SNDBUF		(8 << 20)

/**
 * struct conn - one shim socket
 * @list: in the daemon's connection list
 * @fd: data connection (the application's netlink fd)
 * @ctl: control channel, -1 until HELLO
 * @cl: the netlink side
 * @epout: EPOLLOUT is armed on @fd
 */
struct conn {
	struct list_head list;
	int fd;
	int ctl;
	struct client cl;
	bool epout;
	bool unicast;	/* unasked messages came for it (log) */
};

static struct {
	int epfd;
	int lfd;
	const char *sock_path;
	bool foreground;
	bool verbose;
	struct list_head conns;
	struct list_head nets;
	unsigned int nconns;
	int32_t rover;
	volatile sig_atomic_t stop;
} d = { .rover = -4096 };

static void logmsg(int prio, const char *fmt, ...)
{
	va_list ap;

	if (prio == LOG_DEBUG && !d.verbose)
		return;
	va_start(ap, fmt);
	if (d.foreground) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}

/* nfnl_error_hook under --verbose: which request was refused, and why */
static void log_refusal(const struct client *cl, const struct nlmsghdr *nlh,
			int err, const char *msg)
{
	logmsg(LOG_DEBUG, "client pid %u (%s): message type 0x%04x seq %u: %s%s%s",
	       cl->pid, cl->comm, nlh->nlmsg_type, nlh->nlmsg_seq,
	       strerror(-err), msg ? ": " : "", msg ? msg : "");
}

/*
 * Log lines (log expression) go to the kernel log through /dev/kmsg, with
 * the syslog level nf_log_syslog's printk would use. Writers of /dev/kmsg
 * are rate limited per open file (kernel.printk_devkmsg=ratelimit: 10
 * lines per 5 s) while the kernel's own nf_log lines are not, so the file
 * is opened afresh every KMSG_BURST lines: a ruleset that logs too much is
 * throttled by its own `limit` rules, as with the kernel.
 */
#define KMSG_BURST	8

static void kmsg_emit(void *arg, int level, const char *line)
{
	static int fd = -1;
	static unsigned int lines;
	char buf[1100];
	int n;

	(void)arg;
	if (fd >= 0 && ++lines >= KMSG_BURST) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NONBLOCK);
		lines = 0;
		if (fd < 0)
			return;
	}
	n = snprintf(buf, sizeof(buf), "<%d>%s\n", level, line);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (write(fd, buf, n) < 0 && errno != EAGAIN) {
		close(fd);
		fd = -1;
	}
}

/* epoll tag of the log descriptor (dataplane_log_fd()) */
static char log_tag;
/* ... and of the link events descriptor (dataplane_link_fd()) */
static char link_tag;
/* ... and of the route mirror descriptor (dataplane_routes_fd()) */
static char routes_tag;

/* Tag values in epoll data: connections are pointers, the listener is NULL. */
static int ep_mod(struct conn *c, int fd, uint32_t events, int op)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	return epoll_ctl(d.epfd, op, fd, &ev) ? -errno : 0;
}

static void conn_free(struct conn *c)
{
	list_del(&c->list);
	nfnl_client_release(&c->cl);
	epoll_ctl(d.epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->ctl >= 0) {
		epoll_ctl(d.epfd, EPOLL_CTL_DEL, c->ctl, NULL);
		close(c->ctl);
	}
	nfnl_out_fini(&c->cl.out);
	free(c);
	d.nconns--;
}

/* flush - write pending datagrams until the socket is full; count them */
static int flush(struct conn *c, unsigned int *written)
{
	struct nfnl_out *o = &c->cl.out;
	unsigned int n = 0;

	while (o->nsent < o->nends) {
		size_t end = o->ends[o->nsent];
		ssize_t r = send(c->fd, o->buf.data + o->sent, end - o->sent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		o->sent = end;
		o->nsent++;
		n++;
	}
	/* keep a partial datagram being built out of the accounting */
	if (o->nsent == o->nends && o->sent == o->buf.len) {
		o->buf.len = 0;
		o->sent = 0;
		o->nends = 0;
		o->nsent = 0;
	} else if (o->sent > (1u << 20)) {
		nfnl_out_compact(o);
	}
	if (written)
		*written = n;
	if (o->nsent < o->nends && !c->epout) {
		ep_mod(c, c->fd, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
		c->epout = true;
	} else if (o->nsent == o->nends && c->epout) {
		ep_mod(c, c->fd, EPOLLIN, EPOLL_CTL_MOD);
		c->epout = false;
	}
	return 0;
}

static int ctl_reply(struct conn *c, uint32_t op, int32_t err, uint32_t val)
{
	const struct nfnl_out *o = &c->cl.out;
	struct nfbpf_ctl_rep rep = { .op = op, .err = err, .val = val };

	if (o->nsent < o->nends || c->cl.groups || c->unicast)
		rep.flags = NFBPF_REP_MORE;

	if (send(c->ctl, &rep, sizeof(rep), MSG_NOSIGNAL) != sizeof(rep))
		return -errno;
	return 0;
}

static struct net *net_get(int nsfd)
{
	struct stat st;
	struct net *net;

	if (fstat(nsfd, &st))
		return NULL;
	list_for_each_entry(net, &d.nets, list) {
		if (net->ns_dev == st.st_dev && net->ns_ino == st.st_ino)
			return net;
	}
	net = ruleset_net_alloc();
	if (!net)
		return NULL;
	net->ns_dev = st.st_dev;
	net->ns_ino = st.st_ino;
	net->ns_fd = fcntl(nsfd, F_DUPFD_CLOEXEC, 3);
	list_add_tail(&net->list, &d.nets);
	logmsg(LOG_INFO, "new network namespace %lu", (unsigned long)st.st_ino);
	/* an earlier nfbpfd's committed ruleset, if its dataplane is pinned */
	if (!list_empty(&net->tables) || !nfnl_state_dir)
		return net;
	{
		const char *msg;
		int err = nfnl_state_restore(net, &msg);

		if (err)
			logmsg(LOG_ERR, "network namespace %lu: ruleset not restored: %s (%s); the pinned dataplane runs until the next commit",
			       (unsigned long)st.st_ino, msg ? msg : "", strerror(-err));
		else if (!list_empty(&net->tables))
			logmsg(LOG_INFO, "network namespace %lu: ruleset restored from %s",
			       (unsigned long)st.st_ino, nfnl_state_dir);
	}
	return net;
}

static bool portid_used(const struct conn *self, uint32_t portid)
{
	struct conn *c;

	list_for_each_entry(c, &d.conns, list) {
		if (c != self && c->cl.net == self->cl.net && c->cl.portid == portid)
			return true;
	}
	return false;
}

/* peer_info - pid, comm and CAP_NET_ADMIN of the connecting process */
static void peer_info(struct conn *c)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char path[64], line[256];
	FILE *f;

	c->cl.privileged = false;
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return;
	c->cl.pid = cred.pid;
	snprintf(path, sizeof(path), "/proc/%d/comm", cred.pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(c->cl.comm, sizeof(c->cl.comm), f))
			c->cl.comm[strcspn(c->cl.comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", cred.pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			c->cl.privileged = caps & (1ull << 12);	/* CAP_NET_ADMIN */
			break;
		}
	}
	fclose(f);
}

static void handle_hello(struct conn *c)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct nfbpf_hello hello;
	struct iovec iov = { &hello, sizeof(hello) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fds[2] = { -1, -1 }, err = 0;
	ssize_t r;

	r = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC);
	if (r <= 0)
		goto out_drop;
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(2 * sizeof(int)))
		memcpy(fds, CMSG_DATA(cm), sizeof(fds));
	if (fds[0] < 0 || fds[1] < 0 || r != sizeof(hello) ||
	    hello.magic != NFBPF_PROTO_MAGIC || hello.version != NFBPF_PROTO_VERSION)
		goto out_close;
	c->ctl = fds[0];
	fds[0] = -1;
	if (ep_mod(c, c->ctl, EPOLLIN, EPOLL_CTL_ADD))
		goto out_close;
	if (hello.protocol != NETLINK_NETFILTER) {
		err = -EPROTONOSUPPORT;
	} else {
		c->cl.net = net_get(fds[1]);
		if (!c->cl.net)
			err = -ENOMEM;
	}
	close(fds[1]);
	if (!err) {
		peer_info(c);
		/* the kernel's port id of the shim's real socket, if it has
		 * one; else netlink autobind: the pid if free, else -4096,
		 * -4097, ... */
		c->cl.portid = hello.portid ? hello.portid : c->cl.pid;
		while (!c->cl.portid || portid_used(c, c->cl.portid)) {
			c->cl.portid = (uint32_t)d.rover;
			d.rover = d.rover == INT32_MIN ? -4096 : d.rover - 1;
		}
	}
	logmsg(LOG_DEBUG, "client pid %u (%s) port %u: %s", c->cl.pid, c->cl.comm,
	       c->cl.portid, err ? strerror(-err) : "connected");
	ctl_reply(c, NFBPF_CTL_HELLO, err, c->cl.portid);
	if (err)
		conn_free(c);
	return;

out_close:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
out_drop:
	conn_free(c);
}

#define DATA_MAX_FDS	8	/* fds taken per data datagram; more are dropped */

/**
 * struct dgram - one data datagram as received, with the fds it carried
 * @len: its length (recvmsg() result)
 * @fd: the first SCM_RIGHTS fd, or -1; the others are closed on receipt
 * @nfds: fds it carried (those dropped by MSG_CTRUNC not counted)
 * @ctrunc: the kernel dropped control data (MSG_CTRUNC)
 */
struct dgram {
	ssize_t len;
	int fd;
	int nfds;
	bool ctrunc;
};

/*
 * dgram_recv - receives the next data datagram into @buf (@size bytes;
 * NULL/0 discards it), always with a control buffer, so no fd a client
 * attaches stays open behind the caller's back: every fd but the first
 * is closed here, the first is the caller's to use or close.
 */
static void dgram_recv(struct conn *c, void *buf, size_t size, struct dgram *dg)
{
	union {
		char buf[CMSG_SPACE(DATA_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;

	dg->fd = -1;
	dg->nfds = 0;
	dg->ctrunc = false;
	dg->len = recvmsg(c->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (dg->len < 0)
		return;
	dg->ctrunc = msg.msg_flags & MSG_CTRUNC;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t i, n;
		int fd;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(fd));
			if (dg->nfds++)
				close(fd);
			else
				dg->fd = fd;
		}
	}
}

/* A struct nfbpf_bigmsg, or an attempt at one (see shim_proto.h). */
static bool dgram_is_bigmsg(const void *buf, const struct dgram *dg)
{
	uint32_t magic;

	if (dg->len == sizeof(struct nfbpf_bigmsg) && (dg->nfds || dg->ctrunc))
		return true;
	if (dg->len < (ssize_t)sizeof(magic))
		return false;
	memcpy(&magic, buf, sizeof(magic));
	return magic == NFBPF_BIGMSG_MAGIC;
}

/*
 * bigmsg_map - checks a struct nfbpf_bigmsg and maps its memfd read-only
 * (the seals keep the sender from changing or truncating it meanwhile).
 * Returns 0 with *@map, *@len set, or -EINVAL (malformed), -EMSGSIZE
 * (over MAX_DGRAM, as a plain datagram) or -ENOBUFS.
 */
static int bigmsg_map(const void *buf, const struct dgram *dg, void **map,
		      size_t *len)
{
	struct nfbpf_bigmsg bm;
	struct stat st;
	int seals;

	if (dg->len != sizeof(bm) || dg->nfds != 1 || dg->ctrunc)
		return -EINVAL;
	memcpy(&bm, buf, sizeof(bm));
	if (bm.magic != NFBPF_BIGMSG_MAGIC || bm.pad || !bm.len)
		return -EINVAL;
	if (bm.len > MAX_DGRAM)
		return -EMSGSIZE;
	if (fstat(dg->fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != bm.len)
		return -EINVAL;
	seals = fcntl(dg->fd, F_GET_SEALS);
	if (seals < 0 ||
	    (seals & NFBPF_BIGMSG_SEALS_REQ) != NFBPF_BIGMSG_SEALS_REQ)
		return -EINVAL;
	*map = mmap(NULL, bm.len, PROT_READ, MAP_SHARED | MAP_POPULATE,
		    dg->fd, 0);
	if (*map == MAP_FAILED)
		return errno == ENOMEM ? -ENOBUFS : -EINVAL;
	*len = bm.len;
	return 0;
}

static void handle_data(struct conn *c)
{
	struct dgram dg;
	void *buf, *map = NULL;
	size_t maplen = 0;
	ssize_t len;
	int err = 0;

	len = recv(c->fd, NULL, 0, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	if (len < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (len <= 0) {
		conn_free(c);
		return;
	}
	if ((size_t)len > MAX_DGRAM) {
		dgram_recv(c, NULL, 0, &dg);	/* discard */
		if (dg.fd >= 0)
			close(dg.fd);
		ctl_reply(c, NFBPF_CTL_SENT, -EMSGSIZE, 0);
		return;
	}
	buf = malloc(len);
	if (!buf) {
		dgram_recv(c, NULL, 0, &dg);
		if (dg.fd >= 0)
			close(dg.fd);
		ctl_reply(c, NFBPF_CTL_SENT, -ENOBUFS, 0);
		return;
	}
	dgram_recv(c, buf, len, &dg);
	if (dg.len > 0 && dgram_is_bigmsg(buf, &dg)) {
		err = bigmsg_map(buf, &dg, &map, &maplen);
		if (!err) {
			nfnl_rcv(&c->cl, map, maplen);
			munmap(map, maplen);
		}
	} else if (dg.len > 0) {
		nfnl_rcv(&c->cl, buf, dg.len);
	}
	if (dg.fd >= 0)
		close(dg.fd);
	free(buf);
	if (err) {
		ctl_reply(c, NFBPF_CTL_SENT, err, 0);
		return;
	}
	if (c->cl.out.buf.err) {
		/* out of memory while answering: the kernel would drop replies */
		nfnl_out_fini(&c->cl.out);
	}
	nfnl_out_cut(&c->cl.out);
	if (flush(c, NULL))
		err = -EIO;
	ctl_reply(c, NFBPF_CTL_SENT, err, 0);
}

static void handle_ctl(struct conn *c)
{
	struct nfbpf_ctl_req req;
	unsigned int n = 0;
	ssize_t r;
	int err = 0;

	r = recv(c->ctl, &req, sizeof(req), MSG_DONTWAIT);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r != sizeof(req)) {
		conn_free(c);
		return;
	}
	switch (req.op) {
	case NFBPF_CTL_PULL:
		flush(c, &n);
		ctl_reply(c, req.op, 0, n);
		return;
	case NFBPF_CTL_BIND:
		c->cl.groups = req.val;
		break;
	case NFBPF_CTL_SETOPT:
		switch (req.arg) {
		case NETLINK_EXT_ACK:
			c->cl.nlflags = req.val ? c->cl.nlflags | CLIENT_F_EXT_ACK :
						  c->cl.nlflags & ~CLIENT_F_EXT_ACK;
			break;
		case NETLINK_CAP_ACK:
			c->cl.nlflags = req.val ? c->cl.nlflags | CLIENT_F_CAP_ACK :
						  c->cl.nlflags & ~CLIENT_F_CAP_ACK;
			break;
		case NETLINK_ADD_MEMBERSHIP:
		case NETLINK_DROP_MEMBERSHIP:
			if (req.val == 0 || req.val > NFNLGRP_MAX) {
				err = -EINVAL;
				break;
			}
			if (req.arg == NETLINK_ADD_MEMBERSHIP)
				c->cl.groups |= 1u << (req.val - 1);
			else
				c->cl.groups &= ~(1u << (req.val - 1));
			break;
		default:
			break;	/* accepted, no effect on this emulation */
		}
		break;
	case NFBPF_CTL_GETOPT:
		if (req.arg == NETLINK_EXT_ACK)
			n = !!(c->cl.nlflags & CLIENT_F_EXT_ACK);
		else if (req.arg == NETLINK_CAP_ACK)
			n = !!(c->cl.nlflags & CLIENT_F_CAP_ACK);
		else
			err = -ENOPROTOOPT;
		break;
	default:
		err = -EINVAL;
	}
	ctl_reply(c, req.op, err, n);
}

void nfnl_multicast(struct net *net, unsigned int group, uint32_t exclude_portid,
		    const void *data, size_t len)
{
	struct conn *c;

	list_for_each_entry(c, &d.conns, list) {
		struct nfnl_buf *b = &c->cl.out.buf;

		if (c->cl.net != net || !(c->cl.groups & (1u << (group - 1))) ||
		    (exclude_portid && c->cl.portid == exclude_portid))
			continue;
		nfnl_out_cut(&c->cl.out);
		if (!nfnl_buf_reserve(b, len))
			continue;
		memcpy(b->data + b->len, data, len);
		b->len += len;
		nfnl_out_cut(&c->cl.out);
		flush(c, NULL);
	}
}

/*
 * nfnetlink_unicast(): to the socket @portid of @net, if it exists. The
 * kernel drops what the listener's receive buffer cannot take; here a
 * batch is dropped once UNICAST_BACKLOG bytes wait in the daemon beyond
 * what the connection's socket buffers hold.
 */
#define UNICAST_BACKLOG	(4u << 20)

static void unicast(struct net *net, uint32_t portid, const void *data,
		    size_t len)
{
	struct conn *c;

	list_for_each_entry(c, &d.conns, list) {
		struct nfnl_buf *b = &c->cl.out.buf;

		if (c->cl.net != net || c->cl.portid != portid || c->ctl < 0)
			continue;
		c->unicast = true;
		if (b->len - c->cl.out.sent + len > UNICAST_BACKLOG)
			return;
		nfnl_out_cut(&c->cl.out);
		if (!nfnl_buf_reserve(b, len))
			return;
		memcpy(b->data + b->len, data, len);
		b->len += len;
		nfnl_out_cut(&c->cl.out);
		flush(c, NULL);
		return;
	}
}

/* an NFLOG packet from the dataplane: to nfnetlink_log */
static void nflog_emit(void *arg, struct net *net, const struct dp_nflog *pkt)
{
	(void)arg;
	nfnl_ulog_packet(net, pkt);
}

bool nfnl_has_listeners(struct net *net, unsigned int group)
{
	struct conn *c;

	list_for_each_entry(c, &d.conns, list) {
		if (c->cl.net == net && (c->cl.groups & (1u << (group - 1))))
			return true;
	}
	return false;
}

static void handle_accept(void)
{
	struct conn *c;
	int fd, sz = SNDBUF;

	fd = accept4(d.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	if (d.nconns >= MAX_CLIENTS) {
		logmsg(LOG_WARNING, "too many clients, refusing one");
		close(fd);
		return;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->ctl = -1;
	list_add_tail(&c->list, &d.conns);
	d.nconns++;
	if (ep_mod(c, fd, EPOLLIN, EPOLL_CTL_ADD))
		conn_free(c);
}

static int listen_on(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char dir[sizeof(sun.sun_path)];
	char *slash;
	int fd;

	if (strlen(path) >= sizeof(sun.sun_path))
		return -ENAMETOOLONG;
	strcpy(sun.sun_path, path);
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0700);
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    chmod(path, 0600) || listen(fd, 128)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

#define GC_INTERVAL_MS	1000	/* the kernel's default set gc interval */

/* nfnl_sets_gc() of every namespace, once a GC_INTERVAL_MS has passed */
static void gc_tick(void)
{
	static struct timespec last;
	struct timespec now;
	struct net *net;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - last.tv_sec) * 1000 +
	    (now.tv_nsec - last.tv_nsec) / 1000000 < GC_INTERVAL_MS)
		return;
	last = now;
	list_for_each_entry(net, &d.nets, list) {
		nfnl_sets_gc(net);
		dataplane_xt_gc(net);
	}
}

#define REACH_INTERVAL_MS	5000

static bool net_has_conn(const struct net *net)
{
	struct conn *c;

	list_for_each_entry(c, &d.conns, list) {
		if (c->cl.net == net)
			return true;
	}
	return false;
}

/*
 * Every REACH_INTERVAL_MS: free the state of each namespace with no
 * connection that nothing but nfbpfd can reach any more (nfnl/reach.c), so
 * that the kernel destroys it as it would have without nfbpfd.
 */
static void reach_tick(void)
{
	static struct timespec last;
	struct reach_ns *ns = NULL, *grown;
	struct net *net, *nn;
	size_t n = 0, cap = 0, i;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - last.tv_sec) * 1000 +
	    (now.tv_nsec - last.tv_nsec) / 1000000 < REACH_INTERVAL_MS)
		return;
	last = now;
	list_for_each_entry(net, &d.nets, list) {
		if (net->ns_fd < 0 || net_has_conn(net))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(ns, cap * sizeof(*ns));
			if (!grown) {
				free(ns);
				return;		/* try again next tick */
			}
			ns = grown;
		}
		ns[n].ino = (unsigned long)net->ns_ino;
		ns[n].ns_fd = net->ns_fd;
		n++;
	}
	if (n)
		reach_scan(ns, n);
	i = 0;
	list_for_each_entry_safe(net, nn, &d.nets, list) {
		if (net->ns_fd < 0 || net_has_conn(net))
			continue;
		if (!ns[i++].reached) {
			logmsg(LOG_INFO, "network namespace %lu is gone (no task, mount, "
			       "descriptor or socket refers to it): state freed",
			       (unsigned long)net->ns_ino);
			list_del(&net->list);
			/* its state file and (in ruleset_net_free()) its
			 * pins go: they would keep it for a restart */
			nfnl_state_remove(net);
			ruleset_net_free(net);
		}
	}
	free(ns);
}

/*
 * restore_ns - dataplane_pins_each() callback: serve the namespace of inode @ino
 * now if a name in /run/netns or a process in /proc shows it (its model is
 * rebuilt and its pinned dataplane adopted); else at its first client
 */
static int restore_ns(void *arg, uint64_t ino)
{
	static const char *const dirs[] = { "/run/netns", "/proc" };
	char path[300];
	struct dirent *de;
	struct stat st;
	unsigned int i;
	int fd;

	(void)arg;
	for (i = 0; i < 2; i++) {
		DIR *d = opendir(dirs[i]);

		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' ||
			    (i == 1 && (de->d_name[0] < '0' || de->d_name[0] > '9')))
				continue;
			snprintf(path, sizeof(path), i ? "%s/%s/ns/net" : "%s/%s",
				 dirs[i], de->d_name);
			if (stat(path, &st) || st.st_ino != ino)
				continue;
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (net_get(fd))
				logmsg(LOG_INFO, "network namespace %llu: served at startup (%s)",
				       (unsigned long long)ino, path);
			close(fd);
			closedir(d);
			return 0;
		}
		closedir(d);
	}
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	d.stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: nfbpfd [--socket PATH] [--state-dir DIR] [--pin-dir DIR] [--foreground] [--verbose]\n"
		   "       nfbpfd [--pin-dir DIR] --flush-pins\n"
		   "pins (default " NFBPF_DEFAULT_PIN_DIR ", none: no pins) keep each namespace's\n"
		   "firewall up after nfbpfd stops; --flush-pins removes them all (the firewalls\n"
		   "detach) and exits. state (default " NFBPF_DEFAULT_STATE_DIR ", none: no state):\n"
		   "each namespace's committed ruleset, which a restart rebuilds\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ "pin-dir", required_argument, NULL, 'p' },
		{ "flush-pins", no_argument, NULL, 'F' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *state_dir = NFBPF_DEFAULT_STATE_DIR, *pin_dir = NFBPF_DEFAULT_PIN_DIR, *msg = "";
	bool flush_pins = false;
	struct sigaction sa = { .sa_handler = on_signal };
	struct epoll_event ev;
	struct net *net, *nn;
	struct conn *c, *cn;
	int opt;

	d.sock_path = NFBPF_DEFAULT_SOCKET;
	while ((opt = getopt_long(argc, argv, "s:d:p:Ffvh", opts, NULL)) != -1) {
		switch (opt) {
		case 's': d.sock_path = optarg; break;
		case 'd': state_dir = optarg; break;
		case 'p': pin_dir = optarg; break;
		case 'F': flush_pins = true; break;
		case 'f': d.foreground = true; break;
		case 'v': d.verbose = true; nfnl_error_hook = log_refusal; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!strcmp(pin_dir, "none"))
		pin_dir = NULL;	/* no pins: stopping nfbpfd detaches */
	opt = dataplane_pin_init(pin_dir, &msg);
	if (opt) {
		fprintf(stderr, "nfbpfd: %s\n", msg);
		return 1;
	}
	if (flush_pins) {
		opt = dataplane_pins_flush();
		if (opt)
			fprintf(stderr, "nfbpfd: cannot remove every pin under %s: %s\n",
				pin_dir, strerror(-opt));
		return opt ? 1 : 0;
	}
	if (!strcmp(state_dir, "none"))
		state_dir = NULL;	/* no state: nothing to rebuild from */
	if (state_dir && mkdir(state_dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "nfbpfd: cannot create state dir %s: %s\n",
			state_dir, strerror(errno));
		return 1;
	}
	nfnl_state_dir = state_dir;
	list_init(&d.conns);
	list_init(&d.nets);
	nfnl_unicast_hook = unicast;
	d.lfd = listen_on(d.sock_path);
	if (d.lfd < 0) {
		fprintf(stderr, "nfbpfd: cannot listen on %s: %s\n", d.sock_path,
			strerror(-d.lfd));
		return 1;
	}
	if (!d.foreground) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("nfbpfd: fork");
			return 1;
		}
		if (pid > 0)
			return 0;	/* ready: the socket already accepts */
		setsid();
		openlog("nfbpfd", LOG_PID, LOG_DAEMON);
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	d.epfd = epoll_create1(EPOLL_CLOEXEC);
	ev.events = EPOLLIN;
	ev.data.ptr = NULL;
	epoll_ctl(d.epfd, EPOLL_CTL_ADD, d.lfd, &ev);
	if (dataplane_log_fd() >= 0) {
		ev.data.ptr = &log_tag;
		epoll_ctl(d.epfd, EPOLL_CTL_ADD, dataplane_log_fd(), &ev);
	}
	if (dataplane_link_fd() >= 0) {
		ev.data.ptr = &link_tag;
		epoll_ctl(d.epfd, EPOLL_CTL_ADD, dataplane_link_fd(), &ev);
	}
	if (dataplane_routes_fd() >= 0) {
		ev.data.ptr = &routes_tag;
		epoll_ctl(d.epfd, EPOLL_CTL_ADD, dataplane_routes_fd(), &ev);
	}
	logmsg(LOG_INFO, "listening on %s", d.sock_path);
	/* the namespaces an earlier nfbpfd left pinned, where reachable */
	dataplane_pins_each(restore_ns, NULL);

	while (!d.stop) {
		struct epoll_event evs[64];
		int i, n, tmo = nfnl_ulog_timeout();

		n = epoll_wait(d.epfd, evs, 64,
			       tmo >= 0 && tmo < GC_INTERVAL_MS ? tmo : GC_INTERVAL_MS);
		gc_tick();
		reach_tick();
		nfnl_ulog_run_timers();

		for (i = 0; i < n && !d.stop; i++) {
			int fd;

			c = evs[i].data.ptr;
			if (!c) {
				handle_accept();
				continue;
			}
			if ((void *)c == &log_tag) {
				dataplane_log_poll(kmsg_emit, nflog_emit, NULL);
				continue;
			}
			if ((void *)c == &link_tag) {
				dataplane_link_poll();
				continue;
			}
			if ((void *)c == &routes_tag) {
				dataplane_routes_poll();
				continue;
			}
			/* which fd fired: look it up by trying the data fd first */
			fd = -1;
			if (evs[i].events & EPOLLOUT)
				flush(c, NULL);
			if (!(evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
				continue;
			fd = c->fd;
			if (c->ctl < 0) {
				handle_hello(c);
				break;	/* c may be gone: restart the wait */
			}
			{
				char b;
				ssize_t r = recv(c->ctl, &b, 1, MSG_PEEK | MSG_DONTWAIT);

				if (r > 0 || r == 0)
					handle_ctl(c);
				else if (recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) >= 0 ||
					 errno != EAGAIN)
					handle_data(c);
			}
			break;	/* handlers may free connections: re-poll */
		}
	}
	logmsg(LOG_INFO, "stopping");
	/* the pinned dataplanes keep filtering; a restart adopts them */
	dataplane_pins_keep();
	list_for_each_entry_safe(c, cn, &d.conns, list)
		conn_free(c);
	list_for_each_entry_safe(net, nn, &d.nets, list) {
		list_del(&net->list);
		ruleset_net_free(net);
	}
	close(d.lfd);
	unlink(d.sock_path);
	return 0;
}
