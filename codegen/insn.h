/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * insn.h - BPF instruction initialisers, in the style of the kernel's
 * include/linux/filter.h. Each macro is one struct bpf_insn initialiser;
 * none of them returns, jumps or hides control flow. Prefix INSN_ so no
 * symbol of ours wears a dependency's prefix.
 */
#ifndef NFBPF_CODEGEN_INSN_H
#define NFBPF_CODEGEN_INSN_H

#include <linux/bpf.h>

#define R0	BPF_REG_0
#define R1	BPF_REG_1
#define R2	BPF_REG_2
#define R3	BPF_REG_3
#define R4	BPF_REG_4
#define R5	BPF_REG_5
#define R6	BPF_REG_6
#define R7	BPF_REG_7
#define R8	BPF_REG_8
#define R9	BPF_REG_9
#define R10	BPF_REG_10

/* dst = dst OP src */
#define INSN_ALU64_REG(OP, DST, SRC)					\
	((struct bpf_insn){ .code = BPF_ALU64 | BPF_OP(OP) | BPF_X,	\
			    .dst_reg = DST, .src_reg = SRC })
#define INSN_ALU32_REG(OP, DST, SRC)					\
	((struct bpf_insn){ .code = BPF_ALU | BPF_OP(OP) | BPF_X,	\
			    .dst_reg = DST, .src_reg = SRC })
/* dst = dst OP imm */
#define INSN_ALU64_IMM(OP, DST, IMM)					\
	((struct bpf_insn){ .code = BPF_ALU64 | BPF_OP(OP) | BPF_K,	\
			    .dst_reg = DST, .imm = IMM })
#define INSN_ALU32_IMM(OP, DST, IMM)					\
	((struct bpf_insn){ .code = BPF_ALU | BPF_OP(OP) | BPF_K,	\
			    .dst_reg = DST, .imm = IMM })
/* dst = src */
#define INSN_MOV64_REG(DST, SRC)	INSN_ALU64_REG(BPF_MOV, DST, SRC)
#define INSN_MOV32_REG(DST, SRC)	INSN_ALU32_REG(BPF_MOV, DST, SRC)
/* dst = imm */
#define INSN_MOV64_IMM(DST, IMM)	INSN_ALU64_IMM(BPF_MOV, DST, IMM)
#define INSN_MOV32_IMM(DST, IMM)	INSN_ALU32_IMM(BPF_MOV, DST, IMM)
/* dst = bswapLEN(dst) on a little endian host (htobe) */
#define INSN_TO_BE(DST, LEN)						\
	((struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,	\
			    .dst_reg = DST, .imm = LEN })
/* dst = *(SIZE *)(src + off) */
#define INSN_LDX_MEM(SIZE, DST, SRC, OFF)				\
	((struct bpf_insn){ .code = BPF_LDX | BPF_SIZE(SIZE) | BPF_MEM,	\
			    .dst_reg = DST, .src_reg = SRC, .off = OFF })
/* *(SIZE *)(dst + off) = src */
#define INSN_STX_MEM(SIZE, DST, SRC, OFF)				\
	((struct bpf_insn){ .code = BPF_STX | BPF_SIZE(SIZE) | BPF_MEM,	\
			    .dst_reg = DST, .src_reg = SRC, .off = OFF })
/* *(SIZE *)(dst + off) = imm */
#define INSN_ST_MEM(SIZE, DST, OFF, IMM)				\
	((struct bpf_insn){ .code = BPF_ST | BPF_SIZE(SIZE) | BPF_MEM,	\
			    .dst_reg = DST, .off = OFF, .imm = IMM })
/* lock *(SIZE *)(dst + off) += src */
#define INSN_ATOMIC_ADD(SIZE, DST, SRC, OFF)				\
	((struct bpf_insn){ .code = BPF_STX | BPF_SIZE(SIZE) | BPF_ATOMIC, \
			    .dst_reg = DST, .src_reg = SRC, .off = OFF,	\
			    .imm = BPF_ADD })
/* src = atomic_fetch_add((SIZE *)(dst + off), src) */
#define INSN_ATOMIC_FETCH_ADD(SIZE, DST, SRC, OFF)			\
	((struct bpf_insn){ .code = BPF_STX | BPF_SIZE(SIZE) | BPF_ATOMIC, \
			    .dst_reg = DST, .src_reg = SRC, .off = OFF,	\
			    .imm = BPF_ADD | BPF_FETCH })
/* r0 = atomic_cmpxchg((SIZE *)(dst + off), r0, src) */
#define INSN_ATOMIC_CMPXCHG(SIZE, DST, SRC, OFF)			\
	((struct bpf_insn){ .code = BPF_STX | BPF_SIZE(SIZE) | BPF_ATOMIC, \
			    .dst_reg = DST, .src_reg = SRC, .off = OFF,	\
			    .imm = BPF_CMPXCHG })
/* if (dst OP src) goto pc + off */
#define INSN_JMP_REG(OP, DST, SRC, OFF)					\
	((struct bpf_insn){ .code = BPF_JMP | BPF_OP(OP) | BPF_X,	\
			    .dst_reg = DST, .src_reg = SRC, .off = OFF })
/* if (dst OP imm) goto pc + off */
#define INSN_JMP_IMM(OP, DST, IMM, OFF)					\
	((struct bpf_insn){ .code = BPF_JMP | BPF_OP(OP) | BPF_K,	\
			    .dst_reg = DST, .off = OFF, .imm = IMM })
/* if ((u32)dst OP (u32)imm) goto pc + off */
#define INSN_JMP32_IMM(OP, DST, IMM, OFF)				\
	((struct bpf_insn){ .code = BPF_JMP32 | BPF_OP(OP) | BPF_K,	\
			    .dst_reg = DST, .off = OFF, .imm = IMM })
/* goto pc + off */
#define INSN_JA(OFF)							\
	((struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = OFF })
/* call helper IMM */
#define INSN_CALL_HELPER(IMM)						\
	((struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = IMM })
/* call kfunc with vmlinux BTF id IMM */
#define INSN_CALL_KFUNC(IMM)						\
	((struct bpf_insn){ .code = BPF_JMP | BPF_CALL,			\
			    .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = IMM })
/* call subprogram at pc + 1 + REL */
#define INSN_CALL_REL(REL)						\
	((struct bpf_insn){ .code = BPF_JMP | BPF_CALL,			\
			    .src_reg = BPF_PSEUDO_CALL, .imm = REL })
/* return r0 */
#define INSN_EXIT()	((struct bpf_insn){ .code = BPF_JMP | BPF_EXIT })
/* first/second half of dst = (u64)imm64 with pseudo source SRC */
#define INSN_LD_IMM64_LO(DST, SRC, IMM)					\
	((struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM,		\
			    .dst_reg = DST, .src_reg = SRC, .imm = IMM })
#define INSN_LD_IMM64_HI(IMM)	((struct bpf_insn){ .imm = IMM })

#endif /* NFBPF_CODEGEN_INSN_H */
