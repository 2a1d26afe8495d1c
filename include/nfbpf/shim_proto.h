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
 * emulates the kernel, which produces dump chunks inside recvmsg().
 */
#ifndef NFBPF_SHIM_PROTO_H
#define NFBPF_SHIM_PROTO_H

#include <stdint.h>

#define NFBPF_DEFAULT_SOCKET	"/run/nfbpf/nfbpf.sock"
#define NFBPF_SOCKET_ENV	"NFBPF_SOCKET"
#define NFBPF_PROTO_MAGIC	0x6e666270u	/* "nfbp" */
#define NFBPF_PROTO_VERSION	1

/**
 * struct nfbpf_hello - first datagram on a new data connection
 * @magic: NFBPF_PROTO_MAGIC
 * @version: NFBPF_PROTO_VERSION
 * @protocol: netlink protocol of the emulated socket (NETLINK_NETFILTER)
 * @flags: reserved, 0
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
 */
struct nfbpf_ctl_rep {
	uint32_t op;
	int32_t err;
	uint32_t val;
	uint32_t pad;
};

#endif /* NFBPF_SHIM_PROTO_H */
