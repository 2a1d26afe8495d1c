// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock.c - matches on when and where a packet is processed: time
 * (xt_time.c time_mt) and cpu (xt_cpu.c cpu_mt).
 *
 * time reads the realtime clock as the meta time keys do
 * (codegen/expr/meta.c): TAI minus the kernel's TAI offset, and for
 * --kerneltz the kernel's timezone (sys_tz), both taken when the rule's
 * constants are written. The calendar is localtime_1/2/3()'s: the day's
 * second, the weekday of the days since the epoch, and the day of the
 * month from the year found in the kernel's days_since_epoch[] table,
 * which ends at 2039 (a later date is read as a day of 2039 past its
 * end, as the kernel does; 1 << monthday then shifts by monthday % 32, as
 * the kernel's x86 shift does).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include "codegen/xt/xt.h"

/* struct xt_time_info */
#define I_DATE_START		0
#define I_DAYTIME_START		8
#define I_DAYTIME_STOP		12
#define I_MONTHDAYS		16
#define I_WEEKDAYS		20
#define I_FLAGS			21
#define TIME_LOCAL_TZ		1	/* XT_TIME_LOCAL_TZ */
#define TIME_CONTIGUOUS		2	/* XT_TIME_CONTIGUOUS */
#define TIME_ALL_MONTHDAYS	0xfffffffeu
#define SECONDS_PER_DAY		86400
#define DSE_2039		25202	/* days_since_epoch[0] */

/* the constants */
#define K_TAI_OFF		0	/* s64 ns */
#define K_TZ_OFF		8	/* s64 s: 60 * sys_tz.tz_minuteswest */
#define K_DATE_START		16	/* u32 */
#define K_DATE_STOP		20
#define K_DAYTIME_START		24
#define K_DAYTIME_STOP		28
#define K_MONTHDAYS		32
#define K_WEEKDAYS		36	/* u8, zero extended */

static const uint16_t days_since_year[12] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334,
};
static const uint16_t days_since_leapyear[12] = {
	0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335,
};

static uint32_t u32_at(const struct expr_xt *x, uint32_t off)
{
	uint32_t v;

	memcpy(&v, x->info + off, 4);
	return v;
}

/* what changes the code: flags, daytime order, whether monthdays count */
static void time_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t v[3] = {
		x->info[I_FLAGS],
		u32_at(x, I_DAYTIME_START) < u32_at(x, I_DAYTIME_STOP),
		u32_at(x, I_MONTHDAYS) != TIME_ALL_MONTHDAYS,
	};

	codegen_key_put(k, v, 3);
}

static void time_consts(const struct expr_xt *x, uint8_t *dst)
{
	struct timex tx = { .modes = 0 };
	struct timezone tz = { 0 };
	int64_t tai = 0, tzs = 0;
	uint32_t wd = x->info[I_WEEKDAYS];

	if (adjtimex(&tx) >= 0)
		tai = (int64_t)tx.tai * 1000000000;
	/* the raw syscall: libc's wrapper no longer reports the timezone */
	if (syscall(SYS_gettimeofday, NULL, &tz) == 0)
		tzs = (int64_t)tz.tz_minuteswest * 60;
	memcpy(dst + K_TAI_OFF, &tai, 8);
	memcpy(dst + K_TZ_OFF, &tzs, 8);
	memcpy(dst + K_DATE_START, x->info + I_DATE_START, 20);
	memcpy(dst + K_WEEKDAYS, &wd, 4);
}

/* r4 = monthday of day @r1 of a year, by @tab (localtime_3()'s loop) */
static void emit_monthday(struct codegen_prog *p, const uint16_t *tab)
{
	int i;

	codegen_emit(p, INSN_MOV64_REG(R4, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1));
	for (i = 1; i < 12; i++) {
		/* if w >= tab[i]: monthday = w - tab[i] + 1 */
		codegen_emit(p, INSN_JMP_IMM(BPF_JLT, R1, tab[i], 2));
		codegen_emit(p, INSN_MOV64_REG(R4, R1));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, 1 - tab[i]));
	}
}

static void time_emit(struct codegen_prog *p, const struct expr_xt *x,
		      const struct codegen_expr_ctx *ec)
{
	uint8_t flags = x->info[I_FLAGS];
	bool ordered = u32_at(x, I_DAYTIME_START) < u32_at(x, I_DAYTIME_STOP);
	int16_t c = ec->cbase;

	/* r9 = stamp = ktime_get_real_seconds() [- 60 * tz_minuteswest] */
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ktime_get_tai_ns));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, c + K_TAI_OFF));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R0, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_DIV, R0, 1000000000));
	if (flags & TIME_LOCAL_TZ) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, c + K_TZ_OFF));
		codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R0, R1));
	}
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	/* if stamp < date_start || stamp > date_stop (s64): false */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, c + K_DATE_START));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSLT, R9, R1, 0), ec->l_break);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, c + K_DATE_STOP));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JSGT, R9, R1, 0), ec->l_break);
	/* r2 = packet_time = (u64)stamp % 86400; r3, r4 = daytime start, stop */
	codegen_emit(p, INSN_MOV64_REG(R2, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MOD, R2, SECONDS_PER_DAY));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R3, R7, c + K_DAYTIME_START));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R7, c + K_DAYTIME_STOP));
	if (ordered) {
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLT, R2, R3, 0), ec->l_break);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R4, 0), ec->l_break);
	} else {
		uint32_t l_in = codegen_label_new(p);

		/* false if before start and after stop */
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGE, R2, R3, 0), l_in);
		codegen_emit_jmp(p, INSN_JMP_REG(BPF_JGT, R2, R4, 0), ec->l_break);
		codegen_label_bind(p, l_in);
		if (flags & TIME_CONTIGUOUS) {
			/* the early hours belong to the day before */
			codegen_emit(p, INSN_JMP_REG(BPF_JGT, R2, R4, 1));
			codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R9, SECONDS_PER_DAY));
		}
	}
	/* r1 = dse = (u32)((u64)stamp / 86400); weekday = (3 + dse) % 7 + 1 */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_DIV, R1, SECONDS_PER_DAY));
	codegen_emit(p, INSN_MOV32_REG(R1, R1));
	codegen_emit(p, INSN_MOV32_REG(R2, R1));
	codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R2, 3));
	codegen_emit(p, INSN_ALU32_IMM(BPF_MOD, R2, 7));
	codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R2, 1));
	codegen_emit(p, INSN_MOV64_IMM(R3, 1));
	codegen_emit(p, INSN_ALU32_REG(BPF_LSH, R3, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R4, R7, c + K_WEEKDAYS));
	codegen_emit(p, INSN_ALU64_REG(BPF_AND, R4, R3));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), ec->l_break);
	if (u32_at(x, I_MONTHDAYS) != TIME_ALL_MONTHDAYS) {
		uint32_t l_recent = codegen_label_new(p), l_leap = codegen_label_new(p);
		uint32_t l_md = codegen_label_new(p), l_common = codegen_label_new(p);

		/* r1 = day of the year; 2039 on: days since 2039-01-01 */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLT, R1, DSE_2039, 0), l_recent);
		codegen_emit(p, INSN_ALU64_IMM(BPF_SUB, R1, DSE_2039));
		codegen_emit_jmp(p, INSN_JA(0), l_common);
		codegen_label_bind(p, l_recent);
		/* four-year cycles from 1969 (1972, ..., 2036 leap):
		 * r1 = (dse + 365) % 1461; r2 = year in cycle (0-3) */
		codegen_emit(p, INSN_ALU32_IMM(BPF_ADD, R1, 365));
		codegen_emit(p, INSN_ALU32_IMM(BPF_MOD, R1, 1461));
		codegen_emit(p, INSN_MOV32_REG(R2, R1));
		codegen_emit(p, INSN_ALU32_IMM(BPF_DIV, R2, 365));
		codegen_emit(p, INSN_JMP_IMM(BPF_JNE, R2, 4, 1));
		codegen_emit(p, INSN_MOV32_IMM(R2, 3));
		codegen_emit(p, INSN_MOV32_REG(R3, R2));
		codegen_emit(p, INSN_ALU32_IMM(BPF_MUL, R3, 365));
		codegen_emit(p, INSN_ALU32_REG(BPF_SUB, R1, R3));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 3, 0), l_leap);
		codegen_label_bind(p, l_common);
		emit_monthday(p, days_since_year);
		codegen_emit_jmp(p, INSN_JA(0), l_md);
		codegen_label_bind(p, l_leap);
		emit_monthday(p, days_since_leapyear);
		codegen_label_bind(p, l_md);
		/* if !(monthdays & (1 << monthday)) false */
		codegen_emit(p, INSN_ALU32_IMM(BPF_AND, R4, 31));
		codegen_emit(p, INSN_MOV64_IMM(R3, 1));
		codegen_emit(p, INSN_ALU32_REG(BPF_LSH, R3, R4));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R7, c + K_MONTHDAYS));
		codegen_emit(p, INSN_ALU64_REG(BPF_AND, R5, R3));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R5, 0, 0), ec->l_break);
	}
}

const struct codegen_xt_ops codegen_xt_time = {
	.name = "time", .rev = 0, .minlen = 22, .const_size = 40,
	.consts = time_consts, .shape = time_shape, .emit = time_emit,
};

/*
 * cpu: struct xt_cpu_info { u32 cpu @0; u32 invert @4 }:
 * (cpu == smp_processor_id()) ^ invert
 */
static int cpu_check(const struct expr_xt *x, struct dp_error *err)
{
	if (u32_at(x, 4) <= 1)
		return 0;
	snprintf(err->buf, sizeof(err->buf),
		 "xt match 'cpu' with invert %u is not supported by the nfbpf dataplane",
		 u32_at(x, 4));
	err->msg = err->buf;
	return -EOPNOTSUPP;
}

static void cpu_shape(const struct expr_xt *x, struct codegen_key *k)
{
	uint8_t inv = u32_at(x, 4) != 0;

	codegen_key_put(k, &inv, 1);
}

static void cpu_emit(struct codegen_prog *p, const struct expr_xt *x,
		     const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R7, ec->cbase));
	codegen_emit_jmp(p, INSN_JMP_REG(u32_at(x, 4) ? BPF_JEQ : BPF_JNE, R0, R1, 0),
			 ec->l_break);
}

const struct codegen_xt_ops codegen_xt_cpu = {
	.name = "cpu", .rev = 0, .minlen = 8, .check = cpu_check,
	.const_size = 4, .shape = cpu_shape, .emit = cpu_emit,
};
