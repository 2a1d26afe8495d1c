// SPDX-License-Identifier: GPL-2.0-only
/*
 * udpblast - bounded UDP sender / sink for bench/run.sh (packet path).
 *
 *   udpblast send DST_IPV4 PORT COUNT MAX_SECONDS
 *	connect()ed UDP socket, send() 18-byte datagrams until COUNT were
 *	sent or MAX_SECONDS elapsed (clock checked every 64 packets).
 *	Prints "<sent> <errors> <elapsed_ns>" on stdout.
 *   udpblast sink PORT
 *	binds 0.0.0.0:PORT with a small receive buffer and never reads, so
 *	delivered datagrams end as InDatagrams or RcvbufErrors (no ICMP);
 *	exits after 600 s at the latest.
 *
 * Built by bench/run.sh into its scratch directory (cc -O2); it is a
 * measuring tool only, not part of nfbpf.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int do_send(const char *ip, int port, long long count, double maxsec)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	char payload[18] = "nfbpf-bench-udp!!";
	long long sent = 0, errors = 0, t0, t1, deadline;
	int fd;

	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
		fprintf(stderr, "udpblast: bad address %s\n", ip);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("udpblast: socket/connect");
		return 1;
	}
	t0 = now_ns();
	deadline = t0 + (long long)(maxsec * 1e9);
	t1 = t0;
	while (sent < count) {
		if (send(fd, payload, sizeof(payload), 0) < 0)
			errors++;
		sent++;
		if (!(sent & 63)) {
			t1 = now_ns();
			if (t1 >= deadline)
				break;
		}
	}
	t1 = now_ns();
	printf("%lld %lld %lld\n", sent, errors, t1 - t0);
	close(fd);
	return 0;
}

static int do_sink(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd, rcvbuf = 4096;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("udpblast: socket/bind");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	printf("ready\n");
	fflush(stdout);
	sleep(600);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), atoll(argv[4]), atof(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "sink"))
		return do_sink(atoi(argv[2]));
	fprintf(stderr, "usage: udpblast send DST_IPV4 PORT COUNT MAX_SECONDS | sink PORT\n");
	return 2;
}
