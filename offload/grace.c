// SPDX-License-Identifier: GPL-2.0-only
/*
 * grace.c - RCU grace periods for the entry maps.
 *
 * A packet reads the generation word once and walks entries that a
 * prepare edits in place: the prepare of generation N+1 only changes what
 * generation N+1 sees, so a packet of generation N is safe while it runs
 * through it. A packet of generation N - 1 is not: a prepare after the
 * flip to N rewrites the genmask bit that generation shares with N + 1,
 * relinks entries and frees indices. The kernel keeps each generation's
 * rule blob immutable and frees it after RCU; nfbpf waits for a grace
 * period after each flip before the next prepare writes anything
 * (netfilter hooks, and so the BPF programs at them, run inside RCU
 * read-side sections).
 *
 * Userspace has no synchronize_rcu(), but updating a map-in-map slot
 * makes the kernel wait for every running BPF program (syscall.c,
 * maybe_wait_bpf_programs()). That takes 8-25 ms on the test VM, so one
 * thread does it in the background: a flip takes a ticket, the next
 * prepare waits for it, and back-to-back commits wait for what is left
 * of one grace period only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <bpf/bpf.h>

#include "offload/offload.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static uint64_t requested;	/* tickets handed out */
static uint64_t done;		/* every ticket up to this one is over */
static int err;			/* sticky: the map update failed */
static bool running;
static int inner_fd = -1, outer_fd = -1;

/* one synchronize_rcu() in the kernel: -errno if the update failed */
static int synchronize(void)
{
	uint32_t zero = 0;

	if (bpf_map_update_elem(outer_fd, &zero, &inner_fd, BPF_ANY))
		return -errno;
	return 0;
}

static void *waiter(void *arg)
{
	uint64_t upto;
	int ret;

	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (done == requested)
			pthread_cond_wait(&cond, &lock);
		/* every ticket taken so far was taken before this grace
		 * period starts: it covers them all */
		upto = requested;
		pthread_mutex_unlock(&lock);
		ret = synchronize();
		pthread_mutex_lock(&lock);
		err = ret;
		if (!ret)
			done = upto;
		pthread_cond_broadcast(&cond);
		if (ret) {
			/* tell the waiters, try again a bit later */
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			pthread_mutex_unlock(&lock);
			nanosleep(&ts, NULL);
			pthread_mutex_lock(&lock);
		}
	}
	return NULL;
}

/* the maps and the thread, once; lock held */
static int start(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	pthread_attr_t attr;
	pthread_t th;
	int ret;

	if (running)
		return 0;
	if (inner_fd < 0) {
		inner_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "nfbpf_grace_in",
					  4, 4, 1, NULL);
		if (inner_fd < 0)
			return -errno;
	}
	if (outer_fd < 0) {
		opts.inner_map_fd = inner_fd;
		outer_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS,
					  "nfbpf_grace", 4, 4, 1, &opts);
		if (outer_fd < 0)
			return -errno;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(&th, &attr, waiter, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	running = true;
	return 0;
}

uint64_t offload_grace_request(void)
{
	uint64_t t;

	pthread_mutex_lock(&lock);
	t = ++requested;
	/* a failure to start is offload_grace_wait()'s to report */
	(void)start();
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return t;
}

int offload_grace_wait(uint64_t ticket)
{
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (done < ticket)
		ret = start();
	while (!ret && done < ticket) {
		pthread_cond_wait(&cond, &lock);
		if (done < ticket && err)
			ret = err;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}
