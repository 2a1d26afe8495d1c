// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta.c - load packet metadata (nft_meta.c, get form). The walker's
 * prologue computes every served key once per packet (struct codegen_pkt);
 * the emitter copies and applies nft_meta_get_eval()'s failure cases.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/meta.h"

/* NFT_META_* (uapi, stable numbers) */
enum {
	META_LEN, META_PROTOCOL, META_PRIORITY, META_MARK, META_IIF, META_OIF,
	META_IIFNAME, META_OIFNAME, META_IIFTYPE, META_OIFTYPE, META_SKUID,
	META_SKGID, META_NFTRACE, META_RTCLASSID, META_SECMARK, META_NFPROTO,
	META_L4PROTO, META_BRI_IIFNAME, META_BRI_OIFNAME, META_PKTTYPE,
	META_CPU, META_IIFGROUP, META_OIFGROUP, META_CGROUP, META_PRANDOM,
	META_SECPATH, META_IIFKIND, META_OIFKIND, META_BRI_IIFPVID,
	META_BRI_IIFVPROTO, META_TIME_NS, META_TIME_DAY, META_TIME_HOUR,
	META_SDIF, META_SDIFNAME, META_BRI_BROUTE,
};

static const char *const meta_names[] = {
	"len", "protocol", "priority", "mark", "iif", "oif", "iifname",
	"oifname", "iiftype", "oiftype", "skuid", "skgid", "nftrace",
	"rtclassid", "secmark", "nfproto", "l4proto", "ibrname", "obrname",
	"pkttype", "cpu", "iifgroup", "oifgroup", "cgroup", "random",
	"secpath", "iifkind", "oifkind", "ibrpvid", "ibrvproto", "time",
	"day", "hour", "sdif", "sdifname", "broute",
};

/* bytes in a register, 0 = not served */
static uint32_t meta_len(uint32_t key)
{
	switch (key) {
	case META_LEN: case META_PRIORITY: case META_MARK: case META_IIF:
	case META_OIF: case META_NFPROTO: case META_L4PROTO: case META_PKTTYPE:
	case META_CPU: case META_PRANDOM: case META_SKUID: case META_SKGID:
	case META_IIFGROUP: case META_OIFGROUP: case META_SECMARK:
	case META_CGROUP: case META_SECPATH: case META_TIME_HOUR:
	case META_TIME_DAY: case META_RTCLASSID:
		return 4;
	case META_TIME_NS:
		return 8;
	case META_PROTOCOL: case META_IIFTYPE: case META_OIFTYPE:
		return 4;	/* nft_reg_store16 clears the word */
	case META_IIFNAME: case META_OIFNAME: case META_IIFKIND:
	case META_OIFKIND:
		return 16;
	}
	return 0;
}

#define NFPROTO_ARP_	3
#define NFPROTO_NETDEV_	5
#define NFPROTO_BRIDGE_	7

/*
 * the set form: skb->mark and skb->priority, in the families nfbpf runs
 * as tc programs (netdev, bridge, arp), which may write them; netfilter
 * programs read the sk_buff only. skb->pkt_type too (bpf_skb_change_type()),
 * where nft_meta_set_validate() allows it in those families: netdev
 * ingress, bridge prerouting.
 */
static bool set_ok(const struct expr_meta *m)
{
	bool tc = m->family == NFPROTO_NETDEV_ || m->family == NFPROTO_BRIDGE_ ||
		  m->family == NFPROTO_ARP_;

	if (m->key == META_PKTTYPE)
		return m->family == NFPROTO_NETDEV_ || m->family == NFPROTO_BRIDGE_;
	return (m->key == META_MARK || m->key == META_PRIORITY) && tc;
}

static int meta_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_meta *m = expr_priv(e);
	const char *name = m->key < sizeof(meta_names) / sizeof(meta_names[0]) ?
			   meta_names[m->key] : NULL;

	if (m->is_set && set_ok(m)) {
		if (!codegen_reg_ok(m->sreg, 4)) {
			err->msg = "meta set: register out of range";
			return -EOPNOTSUPP;
		}
		return 0;
	}
	if (m->is_set && m->key == META_PKTTYPE &&
	    m->family != NFPROTO_ARP_) {
		err->msg = "meta set pkttype in ip, ip6 and inet tables is not supported by the nfbpf dataplane (a netfilter BPF program cannot change skb->pkt_type)";
		return -EOPNOTSUPP;
	}
	if (m->is_set || !meta_len(m->key)) {
		if (name)
			snprintf(err->buf, sizeof(err->buf),
				 "meta %skey '%s' is not supported by the nfbpf dataplane yet",
				 m->is_set ? "set " : "", name);
		else
			snprintf(err->buf, sizeof(err->buf),
				 "meta %skey %u is not supported by the nfbpf dataplane yet",
				 m->is_set ? "set " : "", m->key);
		err->msg = err->buf;
		return -EOPNOTSUPP;
	}
	if (!codegen_reg_ok(m->dreg, meta_len(m->key))) {
		err->msg = "meta: register out of range";
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The clock keys read the realtime clock (ktime_get_real_ns), which BPF
 * reaches as TAI minus the kernel's TAI offset; the day also needs the
 * kernel's timezone (sys_tz). Both are rule constants taken when the rule
 * is written: struct time_consts.
 */
struct time_consts {
	int64_t tai_off_ns;
	int64_t tz_off_s;	/* 60 * sys_tz.tz_minuteswest */
};

static bool is_clock(uint32_t key)
{
	return key == META_TIME_NS || key == META_TIME_DAY || key == META_TIME_HOUR;
}

static uint32_t meta_const_size(const struct expr *e)
{
	const struct expr_meta *m = expr_priv(e);

	return is_clock(m->key) ? sizeof(struct time_consts) : 0;
}

static void meta_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_meta *m = expr_priv(e);

	codegen_key_put(k, &m->key, 4);
	codegen_key_put(k, &m->dreg, 1);
	codegen_key_put(k, &m->is_set, 1);
	codegen_key_put(k, &m->sreg, 1);
}

static void meta_consts(const struct expr *e, uint8_t *dst,
			const struct codegen_consts_ctx *cc)
{
	const struct expr_meta *m = expr_priv(e);
	struct time_consts tc = { 0 };
	struct timex tx = { .modes = 0 };
	struct timezone tz = { 0 };

	(void)cc;
	if (!is_clock(m->key))
		return;
	if (adjtimex(&tx) >= 0)
		tc.tai_off_ns = (int64_t)tx.tai * 1000000000;
	/* the raw syscall: libc's wrapper no longer reports the timezone */
	if (syscall(SYS_gettimeofday, NULL, &tz) == 0)
		tc.tz_off_s = (int64_t)tz.tz_minuteswest * 60;
	memcpy(dst, &tc, sizeof(tc));
}

/* if !(pkt.flags & flag) goto break */
static void need_flag(struct codegen_prog *p, uint8_t flag,
		      const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, flag));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), ec->l_break);
}

#define TCP_TIME_WAIT_		6
#define TCP_NEW_SYN_RECV_	12

/* codegen_emit_full_sk: see codegen.h */
void codegen_emit_full_sk(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
			  uint32_t l_none)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_full = codegen_label_new(p);

	/* r9 = skb->sk; NULL: none */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
	codegen_emit_probe_deref(p, R9, env->off.skb_sk, l_none);
	/* r1 = sk->sk_state; a request socket stands for its listener */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R9, env->off.sk_state);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, TCP_NEW_SYN_RECV_, 0), l_full);
	codegen_emit_probe_deref(p, R9, env->off.req_listener, l_none);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 1, R9, env->off.sk_state);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, ST_OFF(scratch)));
	/* !sk_fullsock(sk): none */
	codegen_label_bind(p, l_full);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_TIME_WAIT_, 0), l_none);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_NEW_SYN_RECV_, 0), l_none);
	/* sock_net(sk) != state->net: none */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, R9, env->off.sk_net);
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R6, PKT_OFF(net_addr)));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R2, 0), l_none);
}

/*
 * skuid/skgid: the full socket's file's fsuid/fsgid, no socket or file:
 * break (the initial user namespace's numbers: from_kuid_munged() there
 * is the identity)
 */
static void emit_skugid(struct codegen_prog *p, const struct expr_meta *m,
			const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;

	codegen_emit_full_sk(p, ec, ec->l_break);
	/* sk->sk_socket->file->f_cred, any NULL: break */
	codegen_emit_probe_deref(p, R9, env->off.sk_socket, ec->l_break);
	codegen_emit_probe_deref(p, R9, env->off.socket_file, ec->l_break);
	codegen_emit_probe_deref(p, R9, env->off.file_cred, ec->l_break);
	codegen_emit_probe_read(p, REG_OFF(m->dreg), 4, R9,
				m->key == META_SKUID ? env->off.cred_fsuid :
						       env->off.cred_fsgid);
}

/* nft_meta_store_ifgroup(): the device's group */
static void emit_ifgroup(struct codegen_prog *p, const struct expr_meta *m,
			 const struct codegen_expr_ctx *ec, int16_t dev)
{
	/* nft_meta_store_ifgroup(): no device: break */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, REG_OFF(m->dreg), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, dev));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
	codegen_emit_probe_read(p, REG_OFF(m->dreg), 4, R9, ec->env->off.dev_group);
}

/* iifkind/oifkind: dev->rtnl_link_ops->kind, padded; no device/ops: break */
static void emit_ifkind(struct codegen_prog *p, const struct expr_meta *m,
			const struct codegen_expr_ctx *ec, int16_t dev)
{
	const struct codegen_env *env = ec->env;

	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, dev));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
	codegen_emit_probe_deref(p, R9, env->off.dev_link_ops, ec->l_break);
	codegen_emit_probe_deref(p, R9, env->off.link_ops_kind, ec->l_break);
	/* regs[dreg..+16) = 0; probe_read_kernel_str(regs[dreg], 16, kind) */
	codegen_emit_reg_zero(p, m->dreg, 16);
	codegen_emit(p, INSN_MOV64_REG(R1, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REG_OFF(m->dreg)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 16));
	codegen_emit(p, INSN_MOV64_REG(R3, R9));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel_str));
}

/* r0 = ktime_get_real_ns() = TAI - the rule's TAI offset */
static void emit_real_ns(struct codegen_prog *p, const struct codegen_expr_ctx *ec)
{
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ktime_get_tai_ns));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase +
				     offsetof(struct time_consts, tai_off_ns)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R0, R1));
}

/* time (ns), day (nft_meta_weekday), hour (seconds into the UTC day) */
static void emit_clock(struct codegen_prog *p, const struct expr_meta *m,
		       const struct codegen_expr_ctx *ec)
{
	int16_t d = REG_OFF(m->dreg);

	emit_real_ns(p, ec);
	if (m->key == META_TIME_NS) {
		/* nft_reg_store64: two words, host order */
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R0, 32));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d + 4));
		return;
	}
	/* r0 = seconds */
	codegen_emit(p, INSN_ALU64_IMM(BPF_DIV, R0, 1000000000));
	if (m->key == META_TIME_HOUR) {
		codegen_emit(p, INSN_ALU64_IMM(BPF_MOD, R0, 86400));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		return;
	}
	/* day: (4 + (u32)((secs - tz) / 86400)) % 7, one byte in a word */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R7, ec->cbase +
				     offsetof(struct time_consts, tz_off_s)));
	codegen_emit(p, INSN_ALU64_REG(BPF_SUB, R0, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_DIV, R0, 86400));
	codegen_emit(p, INSN_MOV32_REG(R0, R0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R0, 4));
	codegen_emit(p, INSN_ALU64_IMM(BPF_MOD, R0, 7));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
}

/*
 * meta set pkttype (nft_meta_set_eval()): the register's first byte v
 * becomes the sk_buff's pkt_type if v and the current pkt_type are both
 * PACKET_HOST..PACKET_OTHERHOST (skb_pkt_type_ok()): exactly what
 * bpf_skb_change_type(ctx, v) checks and does (r8 = ctx). Done: pkt.pkttype
 * = v, what meta pkttype reads in the rules after.
 *
 * Bridge prerouting runs at the port's tc ingress, before br_handle_frame(),
 * which then makes a frame to the bridge's own address PACKET_HOST (the
 * walker's view says so already) and would overwrite any other type set
 * here, where the kernel's hook runs after it and the type stays. So in a
 * bridge table a frame the view calls PACKET_HOST (to the bridge's or the
 * port's address) is dropped (fail closed) when set to another type, not
 * passed up as host; setting host, and any frame of another type, are
 * the kernel's.
 */
#define PACKET_OTHERHOST_	3	/* the last type skb_pkt_type_ok() allows */

static void emit_set_pkttype(struct codegen_prog *p, const struct expr_meta *m,
			     const struct codegen_expr_ctx *ec)
{
	uint32_t l_out = codegen_label_new(p), l_set = codegen_label_new(p);

	if (ec->env->ctx == CODEGEN_CTX_NF)	/* refused by meta_check() */
		return;
	if (m->family == NFPROTO_BRIDGE_) {
		/* if v in 1..3 && pkt.pkttype == PACKET_HOST: drop */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, REG_OFF(m->sreg)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_set);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JGT, R1, PACKET_OTHERHOST_, 0), l_set);
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, PKT_OFF(pkttype)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R2, 0, 0), l_set);
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(verdict), VERDICT_DROP));
		codegen_emit_jmp(p, INSN_JA(0), ec->l_done);
	}
	codegen_label_bind(p, l_set);
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R2, R6, REG_OFF(m->sreg)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_skb_change_type));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, REG_OFF(m->sreg)));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(pkttype)));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_OR, R1, PKT_PKTTYPE));
	codegen_emit(p, INSN_STX_MEM(BPF_B, R6, R1, PKT_OFF(flags)));
	codegen_label_bind(p, l_out);
}

static void meta_emit(struct codegen_prog *p, const struct expr *e,
		      const struct codegen_expr_ctx *ec)
{
	const struct expr_meta *m = expr_priv(e);
	int16_t d = REG_OFF(m->dreg);

	if (m->is_set && m->key == META_PKTTYPE) {
		emit_set_pkttype(p, m, ec);
		return;
	}
	if (m->is_set) {
		/* pkt.mark/priority = regs[sreg]: what later rules read; the
		 * walker writes them to the sk_buff when it is done */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, REG_OFF(m->sreg)));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, m->key == META_MARK ?
					     PKT_OFF(mark) : PKT_OFF(priority)));
		return;
	}
	switch (m->key) {
	case META_LEN:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(len), 4);
		break;
	case META_MARK:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(mark), 4);
		break;
	case META_PRIORITY:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(priority), 4);
		break;
	case META_IIF:	/* no device: 0 (nft_meta_store_ifindex) */
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iif), 4);
		break;
	case META_OIF:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oif), 4);
		break;
	case META_IIFNAME:	/* no device: "" */
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iifname), 16);
		break;
	case META_OIFNAME:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oifname), 16);
		break;
	case META_PROTOCOL:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(protocol), 2);
		break;
	case META_IIFTYPE:	/* skb->dev's type; no skb->dev: break */
		if (ec->env->ctx == CODEGEN_CTX_NF)
			need_flag(p, PKT_HAS_DEV, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(iiftype), 2);
		break;
	case META_OIFTYPE:
		need_flag(p, PKT_HAS_OUT, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(oiftype), 2);
		break;
	case META_NFPROTO:
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(nfproto), 1);
		break;
	case META_L4PROTO:	/* no transport protocol: break */
		need_flag(p, PKT_L4PROTO, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(l4proto), 1);
		break;
	case META_PKTTYPE:
		need_flag(p, PKT_PKTTYPE, ec);
		codegen_emit_copy_to_reg(p, m->dreg, R6, PKT_OFF(pkttype), 1);
		break;
	case META_CPU:
		/* regs[dreg] = bpf_get_smp_processor_id() */
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		break;
	case META_PRANDOM:
		/* regs[dreg] = bpf_get_prandom_u32() */
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_get_prandom_u32));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R0, d));
		break;
	case META_SKUID:
	case META_SKGID:
		emit_skugid(p, m, ec);
		break;
	case META_IIFGROUP:
		emit_ifgroup(p, m, ec, PKT_OFF(in_dev));
		break;
	case META_OIFGROUP:
		emit_ifgroup(p, m, ec, PKT_OFF(out_dev));
		break;
	case META_IIFKIND:
		emit_ifkind(p, m, ec, PKT_OFF(in_dev));
		break;
	case META_OIFKIND:
		emit_ifkind(p, m, ec, PKT_OFF(out_dev));
		break;
	case META_CGROUP:	/* sock_cgroup_classid() of the full socket */
		codegen_emit_full_sk(p, ec, ec->l_break);
		codegen_emit_probe_read(p, d, 4, R9, ec->env->off.sk_classid);
		break;
	case META_SECPATH:	/* secpath_exists(): an skb extension bit */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
		codegen_emit(p, INSN_ST_MEM(BPF_W, R6, d, 0));
		codegen_emit_probe_read(p, d, 1, R9, ec->env->off.skb_active_ext);
		if (ec->env->off.sec_path_bit < 0 && !p->err)
			p->err = -EOPNOTSUPP;
		/* regs[dreg] = (regs[dreg] >> SKB_EXT_SEC_PATH) & 1 */
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, d));
		codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R1, ec->env->off.sec_path_bit & 7));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 1));
		codegen_emit(p, INSN_STX_MEM(BPF_W, R6, R1, d));
		break;
	case META_TIME_NS:
	case META_TIME_DAY:
	case META_TIME_HOUR:
		emit_clock(p, m, ec);
		break;
	case META_RTCLASSID:	/* skb_dst(skb)->tclassid; no dst: break */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
		codegen_emit_probe_deref(p, R9, ec->env->off.skb_refdst, ec->l_break);
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R9, ~1));	/* SKB_DST_NOREF */
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R9, 0, 0), ec->l_break);
		codegen_emit_probe_read(p, d, 4, R9, ec->env->off.dst_tclassid);
		break;
	case META_SECMARK:	/* skb->secmark */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R9, R6, PKT_OFF(skb_addr)));
		codegen_emit_probe_read(p, d, 4, R9, ec->env->off.skb_secmark);
		break;
	}
}

const struct codegen_expr_ops codegen_expr_meta = {
	.name = "meta",
	.check = meta_check,
	.const_size = meta_const_size,
	.shape = meta_shape,
	.consts = meta_consts,
	.emit = meta_emit,
};
