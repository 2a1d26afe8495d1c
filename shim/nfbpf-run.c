// SPDX-License-Identifier: GPL-2.0-only
/*
 * nfbpf-run - run a command with its netfilter netlink sockets served by
 * nfbpfd (libnfbpf-preload.so), e.g. `nfbpf-run nft list ruleset`.
 *
 * A small C program rather than a shell script: it sets the environment
 * and execs the command, so a short `nft` command pays one exec of a tiny
 * binary, not a shell's start-up and PATH walk as well.
 *
 * Environment:
 *   NFBPF_SOCKET   nfbpfd socket (default /run/nfbpf/nfbpf.sock);
 *                  --socket PATH overrides it
 *   NFBPF_PRELOAD  the shim to preload (default
 *                  PKGLIBDIR/libnfbpf-preload.so); from the build tree:
 *                  NFBPF_PRELOAD=$PWD/.libs/libnfbpf-preload.so
 *   LD_PRELOAD     kept, after the shim
 *
 * Exit status: that of CMD; 1 if nfbpfd's socket or the shim is missing;
 * 2 on a usage error; 126/127 if CMD cannot be run / is not found.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../include/nfbpf/shim_proto.h"

#ifndef PKGLIBDIR
#define PKGLIBDIR "/usr/local/lib/nfbpf"
#endif

static const char prog[] = "nfbpf-run";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [--socket PATH] CMD [ARGS...]\n"
		"Run CMD with its netfilter netlink sockets served by nfbpfd.\n"
		"\n"
		"  --socket PATH   nfbpfd socket (default: $NFBPF_SOCKET, else\n"
		"                  %s)\n"
		"  -h, --help      show this help\n"
		"\n"
		"NFBPF_PRELOAD names the shim to preload (default\n"
		"%s/libnfbpf-preload.so).\n",
		prog, NFBPF_DEFAULT_SOCKET, PKGLIBDIR);
}

/* $NAME, or NULL if unset or empty (as the shell's ${NAME:-...}) */
static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int main(int argc, char **argv)
{
	const char *sock = env_nonempty(NFBPF_SOCKET_ENV), *preload, *old;
	struct stat st;
	char *ld;
	int i = 1;

	if (!sock)
		sock = NFBPF_DEFAULT_SOCKET;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--socket")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: --socket needs a PATH\n", prog);
				usage(stderr);
				return 2;
			}
			sock = argv[++i];
		} else if (!strncmp(a, "--socket=", 9)) {
			sock = a + 9;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "%s: unknown option %s\n", prog, a);
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}

	if (stat(sock, &st) || !S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "%s: nfbpfd socket %s not found (is nfbpfd running?)\n",
			prog, sock);
		return 1;
	}
	preload = env_nonempty("NFBPF_PRELOAD");
	if (!preload)
		preload = PKGLIBDIR "/libnfbpf-preload.so";
	if (stat(preload, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s not found (set NFBPF_PRELOAD?)\n", prog,
			preload);
		return 1;
	}

	old = env_nonempty("LD_PRELOAD");
	if (old) {
		ld = malloc(strlen(preload) + 1 + strlen(old) + 1);
		if (!ld) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 1;
		}
		sprintf(ld, "%s:%s", preload, old);
	} else {
		ld = (char *)preload;
	}
	if (setenv(NFBPF_SOCKET_ENV, sock, 1) || setenv("LD_PRELOAD", ld, 1)) {
		fprintf(stderr, "%s: cannot set the environment: %s\n", prog,
			strerror(errno));
		return 1;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "%s: %s: %s\n", prog, argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
