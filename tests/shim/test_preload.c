// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_preload.c - libnfbpf-preload.so against a fake nfbpfd
 *
 * shim/preload.c is compiled into this binary, so its socket(), sendmsg(),
 * ... interpose libc for the tests themselves. Each test forks a fake
 * daemon speaking include/nfbpf/shim_proto.h on a temporary socket: it
 * answers HELLO with port id FAKE_PORTID (+1 per connection), answers
 * every data datagram with one NLMSG_ERROR ack on the data fd and then
 * NFBPF_CTL_SENT (a struct nfbpf_bigmsg is read from its memfd and logged
 * with a checksum first), keeps SOL_NETLINK options and groups, and logs each
 * event as one line the tests read back (logged before answering, so the
 * line is there when the shim call returns). A few nlmsg_type values
 * (FAKE_T_*) make it misbehave on purpose.
 *
 * The "oracle" test runs the same calls on a kernel NETLINK_NETFILTER
 * socket (syscall(SYS_socket), around the shim) and compares results.
 *
 * Build and run:
 *   gcc tests/shim/test_preload.c -o t $(pkg-config --cflags --libs criterion)
 * The same file is a standalone fake daemon logging to stderr, for manual
 * runs of nft or libnftables under the shim:
 *   gcc -DFAKE_NFBPFD_MAIN tests/shim/test_preload.c -o fake-nfbpfd
 *   ./fake-nfbpfd /tmp/fake.sock
 */
#ifdef FAKE_NFBPFD_MAIN
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/netlink.h>
#include "../../include/nfbpf/shim_proto.h"
#else
#include "../../shim/preload.c"
#include <criterion/criterion.h>
#endif

#include <netinet/in.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#define FAKE_PORTID	0x4242
#define FAKE_BUFSZ	(8 << 20)
#define FAKE_T_DEFER	0x7f01	/* ack held back until NFBPF_CTL_PULL */
#define FAKE_T_FAIL	0x7f02	/* no ack; SENT carries -EMSGSIZE */
#define FAKE_T_BADOP	0x7f03	/* SENT answered with op NFBPF_CTL_PULL */
#define FAKE_T_SLOW	0x7f04	/* SENT 300 ms after the ack */

enum fake_mode { FAKE_SERVE, FAKE_REFUSE, FAKE_TAKE /* the shim's port id */ };

static int fake_log_fd = STDERR_FILENO;

static void fake_log(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	ssize_t r;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	r = write(fake_log_fd, line, n);
	(void)r;
}

/* the fake holds output for the socket (FAKE_T_DEFER): NFBPF_REP_MORE */
static bool fake_more;

static void fake_ctl_send(int ctl, uint32_t op, int32_t err, uint32_t val)
{
	struct nfbpf_ctl_rep rep = { .op = op, .err = err, .val = val,
				     .flags = fake_more ? NFBPF_REP_MORE : 0 };

	if (send(ctl, &rep, sizeof(rep), MSG_NOSIGNAL) != sizeof(rep))
		_exit(3);
}

/* FNV-1a, 64 bits: the checksum logged for a bigmsg's contents. */
static uint64_t fake_sum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

/*
 * One data datagram into @buf, fds and all. A struct nfbpf_bigmsg with
 * its memfd is replaced by the memfd's contents (mapped: *@map, *@maplen
 * to unmap), logged as "bigmsg len=N fds=F seals=S sum=X" first. Returns
 * the datagram's length, or -1 (end of file or error).
 */
static ssize_t fake_data_recv(int data, char *buf, char **dgram, void **map,
			      size_t *maplen)
{
	union {
		char buf[CMSG_SPACE(8 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = FAKE_BUFSZ };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct nfbpf_bigmsg bm;
	struct cmsghdr *c;
	int fds[8], nfds = 0, seals, i;
	struct stat st;
	ssize_t n;

	*dgram = buf;
	*map = NULL;
	n = recvmsg(data, &m, MSG_CMSG_CLOEXEC);
	if (n <= 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int)); i++)
			if (nfds < 8)
				memcpy(&fds[nfds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
	}
	memcpy(&bm, buf, sizeof(bm));
	if (n == sizeof(bm) && bm.magic == NFBPF_BIGMSG_MAGIC) {
		seals = nfds == 1 ? fcntl(fds[0], F_GET_SEALS) : -1;
		if (nfds != 1 || fstat(fds[0], &st) || (uint64_t)st.st_size != bm.len ||
		    (seals & NFBPF_BIGMSG_SEALS_REQ) != NFBPF_BIGMSG_SEALS_REQ)
			_exit(5);
		*map = mmap(NULL, bm.len, PROT_READ, MAP_SHARED, fds[0], 0);
		if (*map == MAP_FAILED)
			_exit(6);
		*maplen = bm.len;
		*dgram = *map;
		n = bm.len;
		fake_log("bigmsg len=%zd fds=%d seals=%#x sum=%016llx", n, nfds, seals,
			 (unsigned long long)fake_sum(*dgram, n));
	}
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	return n;
}

/* Kernel SOL_NETLINK options nfbpfd must know (net/netlink/af_netlink.c). */
static bool fake_setopt_known(uint32_t opt)
{
	return (opt >= NETLINK_ADD_MEMBERSHIP && opt <= NETLINK_NO_ENOBUFS) ||
	       opt == NETLINK_LISTEN_ALL_NSID ||
	       (opt >= NETLINK_CAP_ACK && opt <= NETLINK_GET_STRICT_CHK);
}

static bool fake_getopt_known(uint32_t opt)
{
	return opt == NETLINK_PKTINFO || opt == NETLINK_BROADCAST_ERROR ||
	       opt == NETLINK_NO_ENOBUFS || opt == NETLINK_CAP_ACK ||
	       opt == NETLINK_EXT_ACK || opt == NETLINK_GET_STRICT_CHK;
}

/* One connection: HELLO, then data datagrams and control requests. */
static void fake_serve(int data, uint32_t portid, enum fake_mode mode)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct nfbpf_hello hello = { 0 };
	struct iovec iov = { .iov_base = &hello, .iov_len = sizeof(hello) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack, pending;
	uint32_t opts[64] = { 0 }, groups = 0;
	struct stat ns_got, ns_mine;
	bool have_pending = false;
	struct nfbpf_ctl_req req;
	struct nlmsghdr *nlh, first;
	struct cmsghdr *c;
	int fds[4], nfds = 0, ctl, msgs, rest;
	char *buf, *dgram;
	size_t maplen = 0;
	void *map;
	ssize_t n;

	/* 0. HELLO */
	n = recvmsg(data, &m, MSG_CMSG_CLOEXEC);
	c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
		nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds, CMSG_DATA(c), nfds * sizeof(int));
	}
	if (nfds != 2)
		_exit(2);
	ctl = fds[0];
	fstat(fds[1], &ns_got);
	stat("/proc/self/ns/net", &ns_mine);
	close(fds[1]);
	fake_log("hello len=%zd magic=%#x version=%u protocol=%u flags=%u portid=%s fds=%d netns=%s",
		 n, hello.magic, hello.version, hello.protocol, hello.flags,
		 hello.portid ? "set" : "0", nfds,
		 ns_got.st_ino == ns_mine.st_ino &&
		 ns_got.st_dev == ns_mine.st_dev ? "same" : "other");
	if (mode == FAKE_TAKE && hello.portid)
		portid = hello.portid;
	if (mode == FAKE_REFUSE) {
		fake_ctl_send(ctl, NFBPF_CTL_HELLO, -EPERM, 0);
		_exit(0);
	}
	fake_ctl_send(ctl, NFBPF_CTL_HELLO, 0, portid);

	buf = malloc(FAKE_BUFSZ);
	if (!buf)
		_exit(4);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = data, .events = POLLIN },
			{ .fd = ctl, .events = POLLIN },
		};

		if (poll(pfd, 2, -1) < 0)
			continue;
		/* 1. A data datagram: log it, ack it, then SENT. */
		if (pfd[0].revents) {
			n = fake_data_recv(data, buf, &dgram, &map, &maplen);
			if (n <= 0) {
				fake_log("eof");
				_exit(0);
			}
			memset(&first, 0, sizeof(first));
			memcpy(&first, dgram, n < (ssize_t)sizeof(first) ? n : (ssize_t)sizeof(first));
			msgs = 0;
			rest = n;
			for (nlh = (void *)dgram; NLMSG_OK(nlh, rest); nlh = NLMSG_NEXT(nlh, rest))
				msgs++;
			if (map)
				munmap(map, maplen);
			fake_log("data len=%zd type=%#x flags=%#x seq=%u pid=%u msgs=%d",
				 n, first.nlmsg_type, first.nlmsg_flags,
				 first.nlmsg_seq, first.nlmsg_pid, msgs);
			memset(&ack, 0, sizeof(ack));
			ack.h.nlmsg_len = sizeof(ack);
			ack.h.nlmsg_type = NLMSG_ERROR;
			ack.h.nlmsg_flags = NLM_F_CAPPED;
			ack.h.nlmsg_seq = first.nlmsg_seq;
			ack.h.nlmsg_pid = portid;
			ack.e.msg = first;
			switch (first.nlmsg_type) {
			case FAKE_T_DEFER:
				pending = ack;
				have_pending = fake_more = true;
				fake_ctl_send(ctl, NFBPF_CTL_SENT, 0, 0);
				break;
			case FAKE_T_FAIL:
				fake_ctl_send(ctl, NFBPF_CTL_SENT, -EMSGSIZE, 0);
				break;
			case FAKE_T_BADOP:
				fake_ctl_send(ctl, NFBPF_CTL_PULL, 0, 0);
				break;
			default:
				send(data, &ack, sizeof(ack), MSG_NOSIGNAL);
				if (first.nlmsg_type == FAKE_T_SLOW)
					usleep(300 * 1000);
				fake_ctl_send(ctl, NFBPF_CTL_SENT, 0, 0);
			}
		}
		/* 2. A control request. */
		if (pfd[1].revents) {
			n = recv(ctl, &req, sizeof(req), 0);
			if (n != sizeof(req)) {
				fake_log("ctl eof");
				_exit(0);
			}
			fake_log("ctl op=%u arg=%u val=%u", req.op, req.arg, req.val);
			switch (req.op) {
			case NFBPF_CTL_SETOPT:
				if (!fake_setopt_known(req.arg))
					fake_ctl_send(ctl, req.op, -ENOPROTOOPT, 0);
				else if ((req.arg == NETLINK_ADD_MEMBERSHIP ||
					  req.arg == NETLINK_DROP_MEMBERSHIP) &&
					 (!req.val || req.val > 32))
					fake_ctl_send(ctl, req.op, -EINVAL, 0);
				else {
					opts[req.arg] = req.val;
					fake_ctl_send(ctl, req.op, 0, 0);
				}
				break;
			case NFBPF_CTL_GETOPT:
				if (!fake_getopt_known(req.arg))
					fake_ctl_send(ctl, req.op, -ENOPROTOOPT, 0);
				else
					fake_ctl_send(ctl, req.op, 0, opts[req.arg]);
				break;
			case NFBPF_CTL_BIND:
				groups = req.val;
				fake_ctl_send(ctl, req.op, 0, groups);
				break;
			case NFBPF_CTL_PULL:
				if (have_pending)
					send(data, &pending, sizeof(pending), MSG_NOSIGNAL);
				fake_more = false;
				fake_ctl_send(ctl, req.op, 0, have_pending);
				have_pending = false;
				break;
			default:
				fake_ctl_send(ctl, req.op, -EOPNOTSUPP, 0);
			}
		}
	}
}

/* Accepts forever, one child per connection. */
static void fake_run(int lfd, enum fake_mode mode)
{
	uint32_t portid = FAKE_PORTID;
	pid_t pid;
	int c;

	signal(SIGCHLD, SIG_IGN);
	for (;;) {
		c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			_exit(1);
		}
		pid = fork();
		if (pid == 0) {
			close(lfd);
			fake_serve(c, portid, mode);
			_exit(0);
		}
		close(c);
		portid++;
	}
}

static int fake_listen(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (lfd < 0)
		return -1;
	strncpy(sun.sun_path, path, sizeof(sun.sun_path) - 1);
	unlink(path);
	if (bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) || listen(lfd, 16)) {
		close(lfd);
		return -1;
	}
	return lfd;
}

#ifdef FAKE_NFBPFD_MAIN
int main(int argc, char **argv)
{
	int lfd;

	if (argc != 2 && !(argc == 3 && !strcmp(argv[2], "--refuse"))) {
		fprintf(stderr, "usage: %s SOCKET [--refuse]\n", argv[0]);
		return 2;
	}
	lfd = fake_listen(argv[1]);
	if (lfd < 0) {
		perror(argv[1]);
		return 1;
	}
	fake_run(lfd, argc == 3 ? FAKE_REFUSE : FAKE_SERVE);
	return 0;
}
#else

/* --- test side -------------------------------------------------------- */

static struct {
	char dir[64];
	char sock[128];
	char log[128];
	pid_t pid;
} fk;

static void fake_start(enum fake_mode mode)
{
	int lfd;

	strcpy(fk.dir, "/tmp/nfbpf-shim-XXXXXX");
	cr_assert_not_null(mkdtemp(fk.dir));
	snprintf(fk.sock, sizeof(fk.sock), "%s/nfbpf.sock", fk.dir);
	snprintf(fk.log, sizeof(fk.log), "%s/log", fk.dir);
	lfd = fake_listen(fk.sock);
	cr_assert_geq(lfd, 0, "listen %s: %s", fk.sock, strerror(errno));
	fk.pid = fork();
	cr_assert_geq(fk.pid, 0);
	if (fk.pid == 0) {
		setpgid(0, 0);
		fake_log_fd = open(fk.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		fake_run(lfd, mode);
		_exit(0);
	}
	setpgid(fk.pid, fk.pid);
	close(lfd);
	setenv(NFBPF_SOCKET_ENV, fk.sock, 1);
}

static void fake_serving(void)
{
	fake_start(FAKE_SERVE);
}

static void fake_refusing(void)
{
	fake_start(FAKE_REFUSE);
}

static void fake_taking(void)
{
	fake_start(FAKE_TAKE);
}

static void fake_kill(void)
{
	if (fk.pid > 0) {
		kill(-fk.pid, SIGKILL);
		kill(fk.pid, SIGKILL);
		waitpid(fk.pid, NULL, 0);
		fk.pid = 0;
	}
}

static void fake_stop(void)
{
	fake_kill();
	unlink(fk.sock);
	unlink(fk.log);
	rmdir(fk.dir);
}

/* The daemon's log, read whole (static buffer). */
static const char *fake_log_read(void)
{
	static char text[1 << 16];
	ssize_t n;
	int fd;

	text[0] = 0;
	fd = open(fk.log, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return text;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = 0;
	return text;
}

static int log_count(const char *line)
{
	const char *p = fake_log_read();
	size_t len = strlen(line);
	int n = 0;

	while (*p) {
		if (!strncmp(p, line, len) && p[len] == '\n')
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static int log_lines(void)
{
	const char *p = fake_log_read();
	int n = 0;

	for (; *p; p++)
		n += *p == '\n';
	return n;
}

/* For what the daemon logs on its own time (end of file): up to 2 s. */
static int log_wait(const char *line)
{
	int i, n = 0;

	for (i = 0; i < 200 && !(n = log_count(line)); i++)
		usleep(10 * 1000);
	return n;
}

#define cr_assert_logged(line) \
	cr_assert_eq(log_count(line), 1, "log lacks \"%s\":\n%s", line, fake_log_read())

static int nl_socket(int type)
{
	int fd = socket(AF_NETLINK, type, NETLINK_NETFILTER);

	cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
	return fd;
}

static struct nlsock *state_of(int fd)
{
	cr_assert(fd >= 0 && fd < MAX_FD && fd_slot[fd], "fd %d is not emulated", fd);
	return &socks[fd_slot[fd] - 1];
}

struct req {
	struct nlmsghdr h;
	uint32_t body;
};

static struct req req_make(uint16_t type, uint32_t seq)
{
	struct req r = {
		.h = { .nlmsg_len = sizeof(r), .nlmsg_type = type,
		       .nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = seq },
	};
	return r;
}

/* Receives one datagram now (no wait) and checks it is the ack of @seq. */
static void ack_expect(int fd, uint32_t seq)
{
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack;
	struct sockaddr_nl from;
	struct iovec iov = { .iov_base = &ack, .iov_len = sizeof(ack) };
	struct msghdr m = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = (void *)&from, .msg_controllen = 4,
		.msg_flags = -1,
	};
	ssize_t n;

	memset(&from, 0xff, sizeof(from));
	n = recvmsg(fd, &m, MSG_DONTWAIT);
	cr_assert_eq(n, (ssize_t)sizeof(ack), "recvmsg: %zd %s", n, strerror(errno));
	cr_assert_eq(m.msg_namelen, sizeof(struct sockaddr_nl));
	cr_assert_eq(from.nl_family, AF_NETLINK);
	cr_assert_eq(from.nl_pad, 0);
	cr_assert_eq(from.nl_pid, 0);
	cr_assert_eq(from.nl_groups, 0);
	cr_assert_eq(m.msg_controllen, 0);
	cr_assert_eq(m.msg_flags, 0);
	cr_assert_eq(ack.h.nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(ack.h.nlmsg_seq, seq);
	cr_assert_eq(ack.e.error, 0);
}

static void stderr_to(const char *path, int *saved)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	cr_assert_geq(fd, 0);
	*saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

static const char *stderr_back(const char *path, int saved)
{
	static char text[1024];
	ssize_t n;
	int fd;

	dup2(saved, STDERR_FILENO);
	close(saved);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	unlink(path);
	text[n > 0 ? n : 0] = 0;
	return text;
}

/* --- socket() ----------------------------------------------------------- */

Test(socket, hello_and_fds, .init = fake_serving, .fini = fake_stop)
{
	struct nlsock *s;
	int fd, ctl;

	errno = 4242;
	fd = nl_socket(SOCK_RAW);
	cr_assert_eq(errno, 4242, "errno clobbered on success");
	cr_assert_logged("hello len=20 magic=0x6e666270 version=4 protocol=12 flags=0 portid=set fds=2 netns=same");
	s = state_of(fd);
	ctl = s->ctl;
	cr_assert_eq(s->portid, FAKE_PORTID);
	cr_assert_eq(s->peer, -1, "the real socket has another port id: closed");
	cr_assert_geq(ctl, CTL_FD_MIN);
	cr_assert_eq(fcntl(ctl, F_GETFD), FD_CLOEXEC);
	cr_assert_eq(fcntl(ctl, F_GETFL) & O_NONBLOCK, 0);
	cr_assert_eq(fcntl(fd, F_GETFD), 0);
	cr_assert_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	cr_assert_eq(close(fd), 0);
	cr_assert_eq(fcntl(ctl, F_GETFD), -1, "control fd survived the last close");
	cr_assert_eq(errno, EBADF);
}

/* the daemon took the port id of the shim's real socket: it stays open,
 * hidden, bound to that id (as /proc/net/netlink shows it), until the last
 * close of the emulated socket */
Test(socket, real_socket_carries_the_port_id, .init = fake_taking, .fini = fake_stop)
{
	struct sockaddr_nl nl;
	socklen_t len = sizeof(nl);
	struct nlsock *s;
	int fd, dup_fd, peer, proto = 0;

	fd = nl_socket(SOCK_RAW);
	s = state_of(fd);
	peer = s->peer;
	cr_assert_geq(peer, CTL_FD_MIN);
	cr_assert_eq(fcntl(peer, F_GETFD), FD_CLOEXEC);
	cr_assert_eq(getsockname(peer, (struct sockaddr *)&nl, &len), 0);
	cr_assert_eq(nl.nl_pid, s->portid);
	len = sizeof(proto);
	cr_assert_eq(getsockopt(peer, SOL_SOCKET, SO_PROTOCOL, &proto, &len), 0);
	cr_assert_eq(proto, NETLINK_NETFILTER);
	cr_assert_eq(close(peer), 0, "the application cannot close it");
	cr_assert_eq(fcntl(peer, F_GETFD), FD_CLOEXEC);
	dup_fd = dup(fd);
	cr_assert_eq(close(fd), 0);
	cr_assert_eq(fcntl(peer, F_GETFD), FD_CLOEXEC, "closed before the last close");
	cr_assert_eq(close(dup_fd), 0);
	cr_assert_eq(fcntl(peer, F_GETFD), -1, "survived the last close");
}

Test(socket, flags_apply_to_data_fd_only, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC);
	struct nlsock *s = state_of(fd);

	cr_assert_eq(fcntl(fd, F_GETFD), FD_CLOEXEC);
	cr_assert_neq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	cr_assert_eq(fcntl(s->ctl, F_GETFL) & O_NONBLOCK, 0);
	cr_assert_eq(s->type, SOCK_DGRAM);
	close(fd);
}

Test(socket, others_untouched, .init = fake_serving, .fini = fake_stop)
{
	int proto = -1, fd;
	socklen_t len = sizeof(proto);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fd_slot[fd], 0);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len), 0);
	cr_assert_eq(proto, NETLINK_ROUTE);
	close(fd);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fd_slot[fd], 0);
	close(fd);
	/* A bad type is the kernel's to refuse, as without the shim. */
	cr_assert_eq(socket(AF_NETLINK, SOCK_STREAM, NETLINK_NETFILTER), -1);
	cr_assert_eq(errno, ESOCKTNOSUPPORT);
	cr_assert_eq(log_lines(), 0, "daemon contacted:\n%s", fake_log_read());
}

Test(socket, unreachable_says_so_once, .init = fake_serving, .fini = fake_stop)
{
	char none[160], out[160], want[320];
	const char *text;
	int saved;

	snprintf(none, sizeof(none), "%s/none", fk.dir);
	snprintf(out, sizeof(out), "%s/stderr", fk.dir);
	setenv(NFBPF_SOCKET_ENV, none, 1);
	stderr_to(out, &saved);
	errno = 0;
	cr_assert_eq(socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER), -1);
	cr_assert_eq(errno, ENOENT);
	cr_assert_eq(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER), -1);
	cr_assert_eq(errno, ENOENT);
	text = stderr_back(out, saved);
	snprintf(want, sizeof(want),
		 "nfbpf: cannot reach nfbpfd at %s: No such file or directory\n", none);
	cr_assert_str_eq(text, want);
	/* Connection refused: a socket file nobody listens on. */
	unlink(fk.sock);
	cr_assert_eq(mknod(fk.sock, S_IFSOCK | 0600, 0), 0);
	setenv(NFBPF_SOCKET_ENV, fk.sock, 1);
	cr_assert_eq(socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER), -1);
	cr_assert_eq(errno, ECONNREFUSED);
}

Test(socket, refused, .init = fake_refusing, .fini = fake_stop)
{
	char out[160], want[320];
	const char *text;
	int saved;

	snprintf(out, sizeof(out), "%s/stderr", fk.dir);
	stderr_to(out, &saved);
	cr_assert_eq(socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER), -1);
	cr_assert_eq(errno, EPERM);
	text = stderr_back(out, saved);
	snprintf(want, sizeof(want),
		 "nfbpf: cannot reach nfbpfd at %s: Operation not permitted\n", fk.sock);
	cr_assert_str_eq(text, want);
}

/* --- kernel oracle --------------------------------------------------------- */

#define ORACLE_MAX 64

/* Results of one call: return value, errno, and a few output values. */
struct outcome {
	long ret, err, a, b, c;
};

struct probe {
	struct outcome o[ORACLE_MAX];
	int n;
};

static void note(struct probe *p, long ret, long a, long b, long c)
{
	p->o[p->n++] = (struct outcome){ ret, ret < 0 ? errno : 0, a, b, c };
}

/* The same sequence on a kernel socket and on an emulated one. */
static void probe_run(int fd, struct probe *p)
{
	struct sockaddr_nl nl, nl2 = { .nl_family = AF_NETLINK };
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t len;
	uint32_t u32;
	char buf[64];
	int v;

	memset(p, 0, sizeof(*p));
#define NAME(call, n)	(memset(&nl, 0xff, sizeof(nl)), len = (n), \
			 note(p, call(fd, (struct sockaddr *)&nl, &len), len, \
			      (n) >= 12 ? (long)nl.nl_groups : nl.nl_family, \
			      (n) >= 8 ? nl.nl_pid != 0 : nl.nl_pad))
#define GETOPT(lvl, opt, n) (v = -1, len = (n), \
			 note(p, getsockopt(fd, lvl, opt, &v, &len), v, len, 0))
#define SETOPT(lvl, opt, val, n) (v = (val), \
			 note(p, setsockopt(fd, lvl, opt, &v, n), 0, 0, 0))

	NAME(getsockname, 12);
	NAME(getsockname, 4);
	NAME(getsockname, -1);
	NAME(getpeername, 12);
	SETOPT(SOL_NETLINK, NETLINK_EXT_ACK, 1, 2);
	GETOPT(SOL_NETLINK, NETLINK_EXT_ACK, 2);
	GETOPT(SOL_NETLINK, NETLINK_EXT_ACK, 4);
	SETOPT(SOL_NETLINK, NETLINK_EXT_ACK, 1, 4);
	GETOPT(SOL_NETLINK, NETLINK_EXT_ACK, 4);
	GETOPT(SOL_NETLINK, 999, 4);
	GETOPT(SOL_NETLINK, 999, 2);
	GETOPT(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, 4);
	GETOPT(0, 1, 4);
	SETOPT(0, 1, 1, 4);
	SETOPT(SOL_NETLINK, 999, 1, 4);
	SETOPT(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, 3, 2);
	SETOPT(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, 33, 4);
	u32 = 0x1234, len = 4;
	note(p, getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, &u32, &len), u32, len, 0);
	SETOPT(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, 3, 4);
	SETOPT(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, 10, 4);
	u32 = 0x1234, len = 4;
	note(p, getsockopt(fd, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, &u32, &len), u32, len, 0);
	SETOPT(SOL_NETLINK, NETLINK_DROP_MEMBERSHIP, 10, 4);
	NAME(getsockname, 12);
	GETOPT(SOL_SOCKET, SO_TYPE, 4);
	GETOPT(SOL_SOCKET, SO_TYPE, 2);
	GETOPT(SOL_SOCKET, SO_PROTOCOL, 4);
	GETOPT(SOL_SOCKET, SO_DOMAIN, 4);
	note(p, bind(fd, (struct sockaddr *)&nl2, 11), 0, 0, 0);
	note(p, bind(fd, (struct sockaddr *)&in, sizeof(nl2)), 0, 0, 0);
	note(p, bind(fd, (struct sockaddr *)&nl2, sizeof(nl2)), 0, 0, 0);
	NAME(getsockname, 12);
	note(p, bind(fd, (struct sockaddr *)&nl2, sizeof(nl2)), 0, 0, 0);
	note(p, connect(fd, (struct sockaddr *)&nl2, 1), 0, 0, 0);
	note(p, connect(fd, (struct sockaddr *)&nl2, 11), 0, 0, 0);
	note(p, connect(fd, (struct sockaddr *)&in, sizeof(in)), 0, 0, 0);
	nl2.nl_pid = 7;
	nl2.nl_groups = 0x6;
	note(p, connect(fd, (struct sockaddr *)&nl2, sizeof(nl2)), 0, 0, 0);
	memset(&nl, 0, sizeof(nl)), len = sizeof(nl);
	note(p, getpeername(fd, (struct sockaddr *)&nl, &len), nl.nl_pid, nl.nl_groups, len);
	nl2.nl_family = AF_UNSPEC;
	note(p, connect(fd, (struct sockaddr *)&nl2, sizeof(nl2)), 0, 0, 0);
	NAME(getpeername, 12);
	nl2 = (struct sockaddr_nl){ .nl_family = AF_NETLINK };
	note(p, sendto(fd, buf, 0, 0, NULL, 0), 0, 0, 0);
	note(p, sendto(fd, buf, 16, 0, (struct sockaddr *)&nl2, 11), 0, 0, 0);
	note(p, sendto(fd, buf, 16, 0, (struct sockaddr *)&nl2, 200), 0, 0, 0);
	note(p, sendto(fd, buf, 16, 0, (struct sockaddr *)&in, sizeof(in)), 0, 0, 0);
	note(p, send(fd, buf, 16, MSG_OOB), 0, 0, 0);
	note(p, recv(fd, buf, sizeof(buf), MSG_OOB | MSG_DONTWAIT), 0, 0, 0);
	note(p, recv(fd, buf, sizeof(buf), MSG_DONTWAIT), 0, 0, 0);
	note(p, shutdown(fd, SHUT_RDWR), 0, 0, 0);
#undef NAME
#undef GETOPT
#undef SETOPT
}

Test(oracle, same_as_kernel, .init = fake_serving, .fini = fake_stop)
{
	struct probe kern, shim;
	int kfd, sfd, i;

	kfd = syscall(SYS_socket, AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	cr_assert_geq(kfd, 0, "kernel netlink socket: %s", strerror(errno));
	cr_assert_eq(fd_slot[kfd], 0);
	sfd = nl_socket(SOCK_RAW);
	probe_run(kfd, &kern);
	probe_run(sfd, &shim);
	cr_assert_eq(kern.n, shim.n);
	for (i = 0; i < kern.n; i++) {
		struct outcome *k = &kern.o[i], *s = &shim.o[i];

		cr_expect(k->ret == s->ret && k->err == s->err && k->a == s->a &&
			  k->b == s->b && k->c == s->c,
			  "call %d: kernel {%ld %s %#lx %#lx %#lx} shim {%ld %s %#lx %#lx %#lx}",
			  i, k->ret, strerror(k->err), k->a, k->b, k->c,
			  s->ret, strerror(s->err), s->a, s->b, s->c);
	}
	close(kfd);
	close(sfd);
}

/* --- names and options -------------------------------------------------- */

Test(names, bind_groups_and_getsockname, .init = fake_serving, .fini = fake_stop)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = 0x5 };
	socklen_t len = sizeof(nl);
	int fd = nl_socket(SOCK_RAW);

	cr_assert_eq(bind(fd, (struct sockaddr *)&nl, sizeof(nl)), 0);
	cr_assert_logged("ctl op=6 arg=0 val=5");
	memset(&nl, 0, sizeof(nl));
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&nl, &len), 0);
	cr_assert_eq(len, sizeof(nl));
	cr_assert_eq(nl.nl_family, AF_NETLINK);
	cr_assert_eq(nl.nl_pid, FAKE_PORTID);
	cr_assert_eq(nl.nl_groups, 0x5);
	/* Rebinding needs the assigned port id; groups 0 leaves them all. */
	nl = (struct sockaddr_nl){ .nl_family = AF_NETLINK, .nl_pid = FAKE_PORTID };
	cr_assert_eq(bind(fd, (struct sockaddr *)&nl, sizeof(nl)), 0);
	cr_assert_logged("ctl op=6 arg=0 val=0");
	len = sizeof(nl);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&nl, &len), 0);
	cr_assert_eq(nl.nl_groups, 0);
	/* No groups before or after: nothing to tell the daemon. */
	cr_assert_eq(bind(fd, (struct sockaddr *)&nl, sizeof(nl)), 0);
	cr_assert_eq(log_count("ctl op=6 arg=0 val=0"), 1);
	close(fd);
}

Test(names, second_socket_gets_next_portid, .init = fake_serving, .fini = fake_stop)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(nl);
	int a = nl_socket(SOCK_RAW), b = nl_socket(SOCK_RAW);

	cr_assert_eq(bind(b, (struct sockaddr *)&nl, sizeof(nl)), 0);
	cr_assert_eq(getsockname(b, (struct sockaddr *)&nl, &len), 0);
	cr_assert_eq(nl.nl_pid, FAKE_PORTID + 1);
	close(a);
	close(b);
}

Test(opts, netlink_options_go_to_daemon, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_RAW), v = 1, one = 1, lines;
	socklen_t len = sizeof(v);

	errno = 4242;
	cr_assert_eq(setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)), 0);
	cr_assert_eq(errno, 4242);
	cr_assert_logged("ctl op=4 arg=11 val=1");
	cr_assert_eq(setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one)), 0);
	cr_assert_logged("ctl op=4 arg=12 val=1");
	v = 0;
	cr_assert_eq(getsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &v, &len), 0);
	cr_assert_logged("ctl op=5 arg=11 val=0");
	cr_assert_eq(v, 1);
	cr_assert_eq(len, sizeof(int));
	/* Levels netlink does not have never reach the daemon. */
	lines = log_lines();
	cr_assert_eq(setsockopt(fd, IPPROTO_TCP, 1, &one, sizeof(one)), -1);
	cr_assert_eq(errno, ENOPROTOOPT);
	cr_assert_eq(log_lines(), lines);
	close(fd);
}

Test(opts, socket_level, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_DGRAM), v, want = 100000;
	socklen_t len = sizeof(v);

	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len), 0);
	cr_assert_eq(v, SOCK_DGRAM);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len), 0);
	cr_assert_eq(v, NETLINK_NETFILTER);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len), 0);
	cr_assert_eq(v, AF_NETLINK);
	/* Buffer sizes are the unix socket's, doubled as the kernel does. */
	cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)), 0);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len), 0);
	cr_assert_eq(v, 2 * want);
	cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)), 0);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len), 0);
	cr_assert_eq(v, 2 * want);
	cr_assert_eq(log_lines(), 1, "daemon contacted:\n%s", fake_log_read());
	close(fd);
}

/* --- data --------------------------------------------------------------- */

Test(data, send_is_synchronous, .init = fake_serving, .fini = fake_stop)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct req r = req_make(0xa10, 77);
	int fd = nl_socket(SOCK_RAW);
	struct sockaddr_nl nl;
	socklen_t len = sizeof(nl);
	char buf[64];

	errno = 4242;
	cr_assert_eq(sendto(fd, &r, sizeof(r), 0, (struct sockaddr *)&kernel,
			    sizeof(kernel)), (ssize_t)sizeof(r));
	cr_assert_eq(errno, 4242);
	cr_assert_logged("data len=20 type=0xa10 flags=0x1 seq=77 pid=0 msgs=1");
	ack_expect(fd, 77);
	/* Nothing more: EAGAIN; the daemon said it holds nothing (no
	 * NFBPF_REP_MORE), so it is not asked (no PULL round trip). */
	cr_assert_eq(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	cr_assert_eq(errno, EAGAIN);
	cr_assert_eq(log_count("ctl op=3 arg=0 val=0"), 0);
	/* A send autobinds, as in the kernel. */
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&nl, &len), 0);
	cr_assert_eq(nl.nl_pid, FAKE_PORTID);
	close(fd);
}

Test(data, iov_is_one_datagram, .init = fake_serving, .fini = fake_stop)
{
	struct req a = req_make(0x10, 1), b = req_make(0xa00, 2), c = req_make(0x11, 3);
	struct iovec iov[3] = {
		{ &a, sizeof(a) }, { &b, sizeof(b) }, { &c, sizeof(c) },
	};
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 3 };
	int fd = nl_socket(SOCK_RAW);

	cr_assert_eq(sendmsg(fd, &m, 0), 60);
	cr_assert_logged("data len=60 type=0x10 flags=0x1 seq=1 pid=0 msgs=3");
	ack_expect(fd, 1);
	cr_assert_eq(writev(fd, iov, 2), 40);
	cr_assert_logged("data len=40 type=0x10 flags=0x1 seq=1 pid=0 msgs=2");
	ack_expect(fd, 1);
	close(fd);
}

Test(data, peek_and_trunc, .init = fake_serving, .fini = fake_stop)
{
	struct req r = req_make(0xa10, 5);
	int fd = nl_socket(SOCK_RAW);
	char small[10];
	struct iovec iov = { small, sizeof(small) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	cr_assert_eq(send(fd, &r, sizeof(r), 0), (ssize_t)sizeof(r));
	/* Sizing as nft's mnl_nft_recv and libnl do. */
	cr_assert_eq(recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC), 36);
	cr_assert_eq(recvmsg(fd, &m, MSG_PEEK), 10);
	cr_assert_eq(m.msg_flags, MSG_TRUNC);
	ack_expect(fd, 5);
	cr_assert_eq(send(fd, &r, sizeof(r), 0), (ssize_t)sizeof(r));
	cr_assert_eq(recvmsg(fd, &m, MSG_TRUNC), 36);
	cr_assert_eq(m.msg_flags, MSG_TRUNC);
	cr_assert_eq(recv(fd, small, sizeof(small), MSG_DONTWAIT), -1);
	cr_assert_eq(errno, EAGAIN);
	close(fd);
}

Test(data, write_read_recvfrom, .init = fake_serving, .fini = fake_stop)
{
	struct req r = req_make(0xa10, 9);
	int fd = nl_socket(SOCK_RAW);
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack;
	struct sockaddr_nl from;
	socklen_t len = 4;

	cr_assert_eq(write(fd, &r, sizeof(r)), (ssize_t)sizeof(r));
	cr_assert_eq(read(fd, &ack, sizeof(ack)), (ssize_t)sizeof(ack));
	cr_assert_eq(ack.h.nlmsg_seq, 9);
	cr_assert_eq(write(fd, &r, sizeof(r)), (ssize_t)sizeof(r));
	memset(&from, 0xff, sizeof(from));
	cr_assert_eq(recvfrom(fd, &ack, sizeof(ack), 0, (struct sockaddr *)&from, &len),
		     (ssize_t)sizeof(ack));
	cr_assert_eq(len, sizeof(struct sockaddr_nl));
	cr_assert_eq(from.nl_family, AF_NETLINK);
	cr_assert_eq(from.nl_pid, 0xffffffff, "wrote past the given length");
	close(fd);
}

Test(data, large_datagram, .init = fake_serving, .fini = fake_stop)
{
	size_t size = NFBPF_BIGMSG_THRESHOLD;	/* the largest plain datagram */
	struct nlmsghdr *h = calloc(1, size);
	int fd = nl_socket(SOCK_RAW), sndbuf;
	socklen_t len = sizeof(sndbuf);
	char line[96];

	h->nlmsg_len = size;
	h->nlmsg_type = 0x10;
	h->nlmsg_seq = 3;
	cr_assert_eq(send(fd, h, size, 0), (ssize_t)size, "send: %s", strerror(errno));
	snprintf(line, sizeof(line), "data len=%zu type=0x10 flags=0 seq=3 pid=0 msgs=1", size);
	cr_assert_logged(line);
	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len), 0);
	cr_assert_geq((size_t)sndbuf, size);
	ack_expect(fd, 3);
	cr_assert_null(strstr(fake_log_read(), "bigmsg"), "%s", fake_log_read());
	free(h);
	close(fd);
}

static int fds_open(void)
{
	char path[64];
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += access(path, F_OK) == 0;
	}
	return n;
}

/* An `nft -f` batch of 20 MiB, far beyond any unix datagram: via a memfd. */
Test(data, huge_datagram_via_memfd, .init = fake_serving, .fini = fake_stop)
{
	size_t size = 20 << 20, msg = 4096, off, cut1 = 12345, cut2 = 7 << 20;
	unsigned char *buf = malloc(size);
	int fd = nl_socket(SOCK_RAW), before, lines;
	struct iovec iov[3] = {
		{ buf, cut1 }, { buf + cut1, cut2 - cut1 }, { buf + cut2, size - cut2 },
	};
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 3 };
	struct nlmsghdr *h;
	uint32_t x = 1;
	char line[128];

	cr_assert_not_null(buf);
	for (off = 0; off < size; off++) {
		x = x * 1103515245 + 12345;
		buf[off] = x >> 16;
	}
	for (off = 0; off < size; off += msg) {
		h = (struct nlmsghdr *)(buf + off);
		h->nlmsg_len = msg;
		h->nlmsg_type = 0x10;
		h->nlmsg_flags = NLM_F_REQUEST;
		h->nlmsg_seq = off ? 1000 : 1;
		h->nlmsg_pid = 0;
	}
	before = fds_open();
	cr_assert_eq(sendmsg(fd, &m, 0), (ssize_t)size, "sendmsg: %s", strerror(errno));
	snprintf(line, sizeof(line), "bigmsg len=%zu fds=1 seals=%#x sum=%016llx",
		 size, NFBPF_BIGMSG_SEALS, (unsigned long long)fake_sum(buf, size));
	cr_assert_logged(line);
	snprintf(line, sizeof(line), "data len=%zu type=0x10 flags=0x1 seq=1 pid=0 msgs=%zu",
		 size, size / msg);
	cr_assert_logged(line);
	ack_expect(fd, 1);
	cr_assert_eq(fds_open(), before, "the memfd was left open");
	/* A bad buffer fails as the kernel's send, before nfbpfd sees it. */
	lines = log_lines();
	cr_assert_eq(send(fd, NULL, size, 0), -1);
	cr_assert_eq(errno, EFAULT);
	cr_assert_eq(fds_open(), before);
	cr_assert_eq(log_lines(), lines, "%s", fake_log_read());
	free(buf);
	close(fd);
}

Test(data, sent_error_and_protocol_error, .init = fake_serving, .fini = fake_stop)
{
	struct req fail = req_make(FAKE_T_FAIL, 1), bad = req_make(FAKE_T_BADOP, 2);
	int fd = nl_socket(SOCK_RAW);

	cr_assert_eq(send(fd, &fail, sizeof(fail), 0), -1);
	cr_assert_eq(errno, EMSGSIZE);
	cr_assert_eq(send(fd, &bad, sizeof(bad), 0), -1);
	cr_assert_eq(errno, EIO);
	close(fd);
}

Test(data, pull_on_eagain, .init = fake_serving, .fini = fake_stop)
{
	struct req r = req_make(FAKE_T_DEFER, 21);
	int fd = nl_socket(SOCK_RAW | SOCK_NONBLOCK);
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack;

	/* O_NONBLOCK does not make the send asynchronous. */
	cr_assert_eq(send(fd, &r, sizeof(r), 0), (ssize_t)sizeof(r));
	cr_assert_eq(log_count("ctl op=3 arg=0 val=0"), 0);
	/* Non-blocking fd, no flags: nothing queued, PULL brings the ack. */
	cr_assert_eq(recv(fd, &ack, sizeof(ack), 0), (ssize_t)sizeof(ack));
	cr_assert_logged("ctl op=3 arg=0 val=0");
	cr_assert_eq(ack.h.nlmsg_seq, 21);
	/* The PULL's answer said nothing more: EAGAIN without asking. */
	cr_assert_eq(recv(fd, &ack, sizeof(ack), 0), -1);
	cr_assert_eq(errno, EAGAIN);
	cr_assert_eq(log_count("ctl op=3 arg=0 val=0"), 1);
	close(fd);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

Test(data, signal_during_send, .init = fake_serving, .fini = fake_stop)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 50 * 1000 } };
	struct req r = req_make(FAKE_T_SLOW, 31);
	int fd = nl_socket(SOCK_RAW);

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	cr_assert_eq(send(fd, &r, sizeof(r), 0), (ssize_t)sizeof(r),
		     "send: %s", strerror(errno));
	cr_assert_eq(alarms, 1);
	ack_expect(fd, 31);
	close(fd);
}

Test(data, daemon_gone, .init = fake_serving, .fini = fake_stop)
{
	struct req r = req_make(0xa10, 1);
	int fd = nl_socket(SOCK_RAW);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[64];

	fake_kill();
	cr_assert_eq(poll(&pfd, 1, 5000), 1);
	cr_assert_eq(recv(fd, buf, sizeof(buf), 0), -1);
	cr_assert_eq(errno, ECONNRESET);
	cr_assert_eq(send(fd, &r, sizeof(r), 0), -1);
	cr_assert_eq(errno, ECONNRESET);
	close(fd);
}

struct hammer {
	int fd, id, ok;
};

static void *hammer_run(void *arg)
{
	struct hammer *h = arg;
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack;
	struct req r;
	int i;

	for (i = 0; i < 200; i++) {
		r = req_make(0xa10, h->id * 1000 + i);
		if (send(h->fd, &r, sizeof(r), 0) != sizeof(r))
			return NULL;
		/* Some thread's ack: every send queued one before returning. */
		if (recv(h->fd, &ack, sizeof(ack), MSG_DONTWAIT) != sizeof(ack) ||
		    ack.h.nlmsg_type != NLMSG_ERROR)
			return NULL;
	}
	h->ok = 1;
	return NULL;
}

Test(data, threads_share_a_socket, .init = fake_serving, .fini = fake_stop)
{
	struct hammer h[4];
	pthread_t t[4];
	int fd = nl_socket(SOCK_RAW), i;
	char buf[64];

	for (i = 0; i < 4; i++) {
		h[i] = (struct hammer){ .fd = fd, .id = i };
		pthread_create(&t[i], NULL, hammer_run, &h[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		cr_expect(h[i].ok, "thread %d failed: %s", i, strerror(errno));
	}
	cr_assert_eq(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	cr_assert_eq(errno, EAGAIN);
	close(fd);
}

/* --- fds --------------------------------------------------------------- */

static void roundtrip(int fd, uint32_t seq)
{
	struct req r = req_make(0xa10, seq);

	cr_assert_eq(send(fd, &r, sizeof(r), 0), (ssize_t)sizeof(r),
		     "fd %d: %s", fd, strerror(errno));
	ack_expect(fd, seq);
}

Test(fds, dups_share_the_socket, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_RAW), ctl = state_of(fd)->ctl;
	int a, b, c, d, e;

	a = dup(fd);
	b = dup2(fd, 900);
	c = dup3(fd, 901, O_CLOEXEC);
	d = fcntl(fd, F_DUPFD, 950);
	e = fcntl(fd, F_DUPFD_CLOEXEC, 960);
	cr_assert(a >= 0 && b == 900 && c == 901 && d >= 950 && e >= 960);
	cr_assert_eq(fcntl(c, F_GETFD), FD_CLOEXEC);
	cr_assert_eq(state_of(e), state_of(fd));
	cr_assert_eq(atomic_load(&state_of(fd)->refs), 6);
	close(fd);
	roundtrip(a, 1);
	roundtrip(b, 2);
	close(a);
	close(b);
	roundtrip(c, 3);
	/* dup2 of another file over an emulated fd: no longer emulated. */
	cr_assert_eq(dup2(STDIN_FILENO, c), c);
	cr_assert_eq(fd_slot[c], 0);
	close(c);
	roundtrip(d, 4);
	close(d);
	cr_assert_eq(fcntl(ctl, F_GETFD), FD_CLOEXEC);
	roundtrip(e, 5);
	close(e);
	cr_assert_eq(fcntl(ctl, F_GETFD), -1);
	cr_assert_eq(log_wait("eof"), 1, "no end of file:\n%s", fake_log_read());
}

Test(fds, control_fd_is_hidden, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_RAW), ctl = state_of(fd)->ctl;

	cr_assert_eq(close(ctl), 0);
	cr_assert_eq(close_range(ctl, ctl, 0), 0);
	closefrom(ctl);
	cr_assert_eq(fcntl(ctl, F_GETFD), FD_CLOEXEC);
	roundtrip(fd, 1);
	cr_assert_eq(close_range(fd, fd, 0), 0);
	cr_assert_eq(fd_slot[fd], 0);
	cr_assert_eq(fcntl(ctl, F_GETFD), -1);
}

Test(fds, fork_child_uses_its_copy, .init = fake_serving, .fini = fake_stop)
{
	int fd = nl_socket(SOCK_RAW), status;
	struct req r = req_make(0xa10, 41);
	char buf[64];
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (send(fd, &r, sizeof(r), 0) != sizeof(r) ||
		    recv(fd, buf, sizeof(buf), MSG_DONTWAIT) != 36)
			_exit(1);
		close(fd);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	roundtrip(fd, 42);
	close(fd);
}

#endif /* FAKE_NFBPFD_MAIN */
