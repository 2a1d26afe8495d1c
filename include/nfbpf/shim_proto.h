/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * shim_proto.h - wire protocol between libnfbpf-preload.so and nfbpfd.
 *
 * The application's netlink fd *is* a unix SOCK_SEQPACKET connection to
 * the daemon (the "data" connection), so read/recv/poll/select/epoll work
 * natively and multicast events are pushed by the daemon straight into it.
 * Netlink messages travel on it unchanged: one sendmsg() of the
 * application = one datagram to the daemon; every reply datagram holds one
 * or more whole netlink messages, exactly as a netlink recvmsg() would.
 *
 * A second, hidden unix SOCK_SEQPACKET socketpair (the "control" channel)
 * carries fixed-size request/response records. The shim keeps one end
 * (placed at a high, close-on-exec fd number) and hands the other to the
 * daemon in the HELLO datagram (SCM_RIGHTS), together with an fd of the
 * caller's network namespace (/proc/thread-self/ns/net).
 *
 * Ordering rule: the shim never has more than one outstanding operation
 * per socket. After sending a data datagram it blocks on the control
 * channel until the daemon answers NFBPF_CTL_SENT; the daemon answers only
 * after it has handled the whole datagram and queued every reply, so the
 * replies are already readable when sendmsg() returns (nft's
 * mnl_batch_talk() polls with a zero timeout).
 *
 * If a reply stream (a long dump) does not fit in the socket buffer, the
 * daemon keeps the rest and writes it as the socket drains. A non-blocking
 * recv that would return EAGAIN sends NFBPF_CTL_PULL first: the daemon
 * writes what it can of its pending output and answers with the number of
 * datagrams written (val); the shim retries the recv if val > 0. This
 * emulates the kernel, which produces dump chunks inside recvmsg(). Every
 * answer says in its flags whether the daemon may hold output for the
 * socket (NFBPF_REP_MORE): while the last answer said no, an EAGAIN is
 * returned without a PULL (a command's replies are all written when SENT
 * answers, so a short exchange costs no PULL round trip).
 *
 * Large sends: a unix datagram cannot exceed the sender's SO_SNDBUF, which
 * net.core.wmem_max caps (SO_SNDBUFFORCE still ends near 4 MiB), while
 * netlink takes a whole `nft -f` batch (tens of MiB) in one sendmsg(). A
 * send of more than NFBPF_BIGMSG_THRESHOLD bytes therefore travels in a
 * sealed memfd, announced by a struct nfbpf_bigmsg datagram; see there.
 */
#ifndef NFBPF_SHIM_PROTO_H
#define NFBPF_SHIM_PROTO_H

#include <stdint.h>

#define NFBPF_DEFAULT_SOCKET	"/run/nfbpf/nfbpf.sock"
#define NFBPF_SOCKET_ENV	"NFBPF_SOCKET"
#define NFBPF_PROTO_MAGIC	0x6e666270u	/* "nfbp" */
#define NFBPF_PROTO_VERSION	4	/* 2: struct nfbpf_bigmsg; 3: hello.portid; 4: NFBPF_REP_MORE */

/**
 * struct nfbpf_hello - first datagram on a new data connection
 * @magic: NFBPF_PROTO_MAGIC
 * @version: NFBPF_PROTO_VERSION
 * @protocol: netlink protocol of the emulated socket (NETLINK_NETFILTER)
 * @flags: reserved, 0
 * @portid: the port id the kernel gave the shim's own bound
 *	NETLINK_NETFILTER socket in the caller's network namespace (0: none);
 *	the daemon assigns it unless another of its clients there has it
 *
 * Sent with SCM_RIGHTS carrying exactly two fds: [0] the daemon's end of
 * the control socketpair, [1] an fd of the caller's network namespace.
 * The daemon answers on the control channel with struct nfbpf_ctl_rep,
 * op = NFBPF_CTL_HELLO, val = the netlink port id assigned to the socket
 * (unique per network namespace, as the kernel's autobind), err = 0 or
 * -errno (e.g. -EPROTONOSUPPORT for another protocol).
 */
struct nfbpf_hello {
	uint32_t magic;
	uint32_t version;
	uint32_t protocol;
	uint32_t flags;
	uint32_t portid;
};

#define NFBPF_BIGMSG_MAGIC	0xffffffffu	/* never a datagram's nlmsg_len */
#define NFBPF_BIGMSG_THRESHOLD	(1u << 20)	/* larger sends use a memfd */
#define NFBPF_BIGMSG_SEALS	0x000fu	/* F_SEAL_SEAL|SHRINK|GROW|WRITE */
#define NFBPF_BIGMSG_SEALS_REQ	0x000au	/* F_SEAL_SHRINK|F_SEAL_WRITE */

/**
 * struct nfbpf_bigmsg - data datagram standing for a larger one in a memfd
 * @magic: NFBPF_BIGMSG_MAGIC; as the nlmsg_len of a first netlink message
 *	it could never fit in a datagram, so no netlink datagram starts so
 * @pad: 0
 * @len: size of the application's datagram, 1..the daemon's limit
 *	(256 MiB in nfbpfd)
 *
 * Sent on the data connection instead of an application datagram longer
 * than NFBPF_BIGMSG_THRESHOLD bytes, with SCM_RIGHTS carrying exactly one
 * fd: a memfd (memfd_create("nfbpf-batch", MFD_CLOEXEC |
 * MFD_ALLOW_SEALING)) holding the datagram's bytes at offset 0, its size
 * exactly @len, sealed with NFBPF_BIGMSG_SEALS. The daemon requires at
 * least NFBPF_BIGMSG_SEALS_REQ, so it can map the file without a copy and
 * without the sender changing or truncating it meanwhile (which also
 * limits the fd to memfd/shmem files). It handles the contents exactly as
 * if they had come as the datagram itself and answers NFBPF_CTL_SENT as
 * usual. The shim closes its memfd once the datagram is sent.
 *
 * A datagram is taken as a bigmsg when it starts with NFBPF_BIGMSG_MAGIC,
 * or when it is sizeof(struct nfbpf_bigmsg) bytes long and carries fds.
 * One that is malformed (other length, not exactly one fd, @pad not 0,
 * @len 0 or not the file's size, missing seals, not mappable) is answered
 * NFBPF_CTL_SENT with err -EINVAL; @len above the daemon's limit with
 * -EMSGSIZE, as an oversized plain datagram. fds arriving with any other
 * datagram are closed unused.
 */
struct nfbpf_bigmsg {
	uint32_t magic;
	uint32_t pad;
	uint64_t len;
};

/* Control operations (struct nfbpf_ctl_req.op). */
enum nfbpf_ctl_op {
	NFBPF_CTL_HELLO = 1,	/* daemon -> shim only: answer to HELLO */
	NFBPF_CTL_SENT,		/* daemon -> shim: a data datagram was handled */
	NFBPF_CTL_PULL,		/* shim -> daemon: flush pending output now */
	NFBPF_CTL_SETOPT,	/* shim -> daemon: SOL_NETLINK option, arg = optname, val = value */
	NFBPF_CTL_GETOPT,	/* shim -> daemon: SOL_NETLINK option, arg = optname; rep val = value */
	NFBPF_CTL_BIND,		/* shim -> daemon: bind groups bitmask in val (nl_groups) */
};

/**
 * struct nfbpf_ctl_req - shim -> daemon control record
 * @op: enum nfbpf_ctl_op
 * @arg: operation argument (SOL_NETLINK optname for SETOPT/GETOPT)
 * @val: operation value (option value, group mask)
 */
struct nfbpf_ctl_req {
	uint32_t op;
	uint32_t arg;
	uint32_t val;
	uint32_t pad;
};

/**
 * struct nfbpf_ctl_rep - daemon -> shim control record
 * @op: enum nfbpf_ctl_op being answered
 * @err: 0 or -errno (for SENT: 0, or -errno the send itself must fail
 *	 with, e.g. -EMSGSIZE; netlink-level errors travel as NLMSG_ERROR)
 * @val: result (HELLO: port id; PULL: datagrams written; GETOPT: value)
 * @flags: NFBPF_REP_MORE: the daemon holds output for the socket it has not
 *	   written yet, or may queue some unasked (the socket is in a
 *	   multicast group or receives unicast log messages): an EAGAIN
 *	   asks it with NFBPF_CTL_PULL. 0: it holds none, the socket's
 *	   replies are all in it.
 */
struct nfbpf_ctl_rep {
	uint32_t op;
	int32_t err;
	uint32_t val;
	uint32_t flags;
};

#define NFBPF_REP_MORE	0x1u

#endif /* NFBPF_SHIM_PROTO_H */
