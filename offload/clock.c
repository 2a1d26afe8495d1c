// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock.c - the kernel's jiffies, as nf_tables set element timeouts use
 * them. Userspace has no jiffies counter, so a three-instruction
 * BPF_PROG_TYPE_SYSCALL program returns bpf_jiffies64() through its
 * context; HZ is measured once against CLOCK_MONOTONIC.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "dataplane.h"

static int clock_fd = -1;
static unsigned int clock_hz;

static int clock_prog(void)
{
	const struct bpf_insn insns[] = {
		/* r6 = ctx; r0 = bpf_jiffies64(); *(u64 *)ctx = r0; return 0 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_6,
		  .src_reg = BPF_REG_1 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_jiffies64 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_6,
		  .src_reg = BPF_REG_0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);
	int fd;

	if (clock_fd >= 0)
		return 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "nfbpf_jiffies", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return -errno;
	clock_fd = fd;
	return 0;
}

int dataplane_jiffies(uint64_t *now)
{
	uint64_t ctx = 0;
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));
	int err = clock_prog();

	if (err)
		return err;
	if (bpf_prog_test_run_opts(clock_fd, &o))
		return -errno;
	*now = ctx;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned int dataplane_hz(void)
{
	static const unsigned int hzs[] = { 100, 250, 300, 1000 };
	uint64_t j0, j1, t0, t1, rate;
	unsigned int i, best = 0;

	if (clock_hz)
		return clock_hz;
	/* 1. 100 ms of jiffies: HZ candidates are 40+ ticks apart there */
	t0 = mono_ns();
	if (dataplane_jiffies(&j0))
		return 0;
	usleep(100000);
	if (dataplane_jiffies(&j1))
		return 0;
	t1 = mono_ns();
	rate = (j1 - j0) * 1000000000ull / (t1 - t0 ? t1 - t0 : 1);
	/* 2. the nearest HZ the kernel can be built with */
	for (i = 1; i < sizeof(hzs) / sizeof(hzs[0]); i++)
		if ((rate > hzs[i] ? rate - hzs[i] : hzs[i] - rate) <
		    (rate > hzs[best] ? rate - hzs[best] : hzs[best] - rate))
			best = i;
	clock_hz = hzs[best];
	return clock_hz;
}
