// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - log the packet (nft_log.c): fill a struct codegen_log_rec in
 * the namespace's ring buffer with what nf_log_syslog prints (nfbpfd
 * formats and writes the line, offload/log.c) or, for `log group N`,
 * with what nfnetlink_log puts in its NFULNL_MSG_PACKET and the packet
 * bytes (nfbpfd builds the message for the group's listener, nfnl/ulog.c).
 * Prefix, level, flags, group, snaplen and queue threshold are rule
 * constants: every log rule of one kind shares one shape.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "codegen/codegen.h"
#include "codegen/insn.h"
#include "expr/log.h"

#define REC(f)	((int16_t)offsetof(struct codegen_log_rec, f))
#define TCP_TIME_WAIT		6
#define TCP_NEW_SYN_RECV	12

static int log_check(const struct expr *e, struct dp_error *err)
{
	const struct expr_log *l = expr_priv(e);

	if (l->type == LOG_TYPE_SYSLOG && l->level == LOG_LEVEL_AUDIT) {
		err->msg = "log level audit is not supported by the nfbpf dataplane: "
			   "AUDIT_NETFILTER_PKT records come from the kernel only, userspace may send AUDIT_USER ones";
		return -EOPNOTSUPP;
	}
	return 0;
}

static uint32_t log_const_size(const struct expr *e)
{
	const struct expr_log *l = expr_priv(e);

	/* prefix id, level, flags, 2 bytes pad; nflog: group, qthreshold,
	 * 2 bytes pad, snaplen (LOG_NFLOG_ALL: none) */
	return l->type == LOG_TYPE_NFLOG ? 16 : 8;
}

/* the syslog and the NFLOG record are different code */
static void log_shape(const struct expr *e, struct codegen_key *k)
{
	const struct expr_log *l = expr_priv(e);

	codegen_key_put(k, &l->type, sizeof(l->type));
}

static void log_consts(const struct expr *e, uint8_t *dst,
		       const struct codegen_consts_ctx *cc)
{
	const struct expr_log *l = expr_priv(e);

	(void)cc;
	if (l->type == LOG_TYPE_NFLOG) {
		codegen_nflog_consts(dst, l->prefix_id, l->group, l->qthreshold,
				     l->has_snaplen ? l->snaplen : LOG_NFLOG_ALL);
		return;
	}
	memcpy(dst, &l->prefix_id, 4);
	dst[4] = l->level;
	dst[5] = l->logflags;
	dst[6] = dst[7] = 0;
}

void codegen_nflog_consts(uint8_t *dst, uint32_t prefix_id, uint16_t group,
			  uint16_t qthreshold, uint32_t snaplen)
{
	memset(dst, 0, 16);
	memcpy(dst, &prefix_id, 4);
	memcpy(dst + 6, &group, 2);
	memcpy(dst + 8, &qthreshold, 2);
	memcpy(dst + 12, &snaplen, 4);
}

/*
 * uid_ok - does this kernel have every member the socket owner needs?
 * (offload/btf.c leaves -1 for the ones it lacks; then no UID is logged)
 */
static bool uid_ok(const struct codegen_env *env)
{
	return env->off.st_net >= 0 && env->off.skb_sk >= 0 &&
	       env->off.sk_state >= 0 && env->off.sk_net >= 0 &&
	       env->off.sk_socket >= 0 && env->off.socket_file >= 0 &&
	       env->off.file_cred >= 0 && env->off.cred_fsuid >= 0 &&
	       env->off.cred_fsgid >= 0;
}

/* rec->@dst = *(size *)(@src + @off) through r1 */
static void copy_field(struct codegen_prog *p, int size, int src, int16_t off,
		       int16_t dst)
{
	codegen_emit(p, INSN_LDX_MEM(size, R1, src, off));
	codegen_emit(p, INSN_STX_MEM(size, R9, R1, dst));
}

/* @dst = the kernel sk_buff (BTF pointer): ctx->skb, or tc's ctx cast
 * with bpf_cast_to_kern_ctx() (r8 = ctx; r0-r5 clobbered) */
static void emit_skb(struct codegen_prog *p, const struct codegen_env *env,
		     int dst)
{
	if (env->ctx == CODEGEN_CTX_NF) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, dst, R8, env->off.ctx_skb));
		return;
	}
	codegen_emit(p, INSN_MOV64_REG(R1, R8));
	codegen_emit(p, INSN_CALL_KFUNC(env->kf_cast_to_kern_ctx));
	codegen_emit(p, INSN_MOV64_REG(dst, R0));
}

#define NF_ARP_PF_	3	/* NFPROTO_ARP */
#define NF_BRIDGE_PF_	7	/* NFPROTO_BRIDGE */

/*
 * rec->hook: the hook state's at netfilter hooks; in tc programs netdev
 * ingress/egress (arp: NF_ARP_IN/OUT, the same numbers), NF_INET_INGRESS
 * for an inet chain, a bridge chain's NF_BR_* (the ring's br_hook, which
 * its head set)
 */
static void emit_hook(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_done = codegen_label_new(p), l_br = codegen_label_new(p);

	if (env->ctx == CODEGEN_CTX_NF) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, env->off.ctx_state));
		copy_field(p, BPF_B, R2, env->off.st_hook, REC(hook));
		return;
	}
	/* r1 = pkt.nfproto; if r1 == BRIDGE goto br */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NF_BRIDGE_PF_, 0), l_br);
	if (env->ctx == CODEGEN_CTX_TC_EGRESS) {
		codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(hook), 1));
		codegen_emit_jmp(p, INSN_JA(0), l_done);
	} else {
		/* ingress: NF_NETDEV_INGRESS, NF_ARP_IN (0); NF_INET_INGRESS
		 * (5) if inet */
		codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(hook), 0));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, HEAD_PF_NETDEV, 0), l_done);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, NF_ARP_PF_, 0), l_done);
		codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(hook), 5));
		codegen_emit_jmp(p, INSN_JA(0), l_done);
	}
	/* br: r0 = ring; rec->hook = r0 ? r0->br_hook : 0 */
	codegen_label_bind(p, l_br);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(hook), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(key), 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(key)));
	codegen_emit_ld_map(p, R1, env->ring_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_done);
	copy_field(p, BPF_B, R0, (int16_t)offsetof(struct codegen_ring, br_hook),
		   REC(hook));
	codegen_label_bind(p, l_done);
}

/*
 * rec->@dst = the ifindex of the bridge device of the port whose kernel
 * address is at pkt + @src (br_port_get_rcu(dev)->br->dev->ifindex), 0
 * for none; r1-r5 clobbered, st->scratch used
 */
static void emit_port_master(struct codegen_prog *p,
			     const struct codegen_env *env, int16_t src,
			     int16_t dst)
{
	uint32_t l_none = codegen_label_new(p);

	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, dst, 0));
	/* r4 = dev; r4 = dev->rx_handler_data (the net_bridge_port);
	 * r4 = port->br; r4 = br->dev; each NULL: none */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, src));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_none);
	codegen_emit_probe_deref(p, R4, env->off.dev_rx_handler_data, l_none);
	codegen_emit_probe_deref(p, R4, env->off.nbp_br, l_none);
	codegen_emit_probe_deref(p, R4, env->off.br_dev, l_none);
	/* st->scratch = r4->ifindex; rec->dst = it */
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 4, R4, env->off.dev_ifindex);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, dst));
	codegen_label_bind(p, l_none);
}

/*
 * emit_fill - the record at r9 but its packet bytes: from the rule
 * constants at ec->cbase, the packet info (r6) and the skb. @nflog: the
 * NFLOG fields too, and the socket owner read as nfnetlink_log reads it
 * (always, whatever its netns); else with LOG_F_UID and the netns check of
 * nf_log_dump_sk_uid_gid().
 */
static void emit_fill(struct codegen_prog *p, const struct codegen_expr_ctx *ec,
		      bool nflog, uint8_t ebt)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_nodev = codegen_label_new(p);
	uint32_t l_noll = codegen_label_new(p), l_nouid = codegen_label_new(p);
	int i;

	/* 1. rule constants: prefix id, level, flags (nflog: group, qthreshold) */
	copy_field(p, BPF_W, R7, ec->cbase, REC(prefix_id));
	copy_field(p, BPF_B, R7, ec->cbase + 4, REC(level));
	copy_field(p, BPF_B, R7, ec->cbase + 5, REC(logflags));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(nflog), nflog));
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(ebt), ebt));
	if (nflog) {
		copy_field(p, BPF_H, R7, ec->cbase + 6, REC(group));
		copy_field(p, BPF_H, R7, ec->cbase + 8, REC(qthreshold));
		copy_field(p, BPF_W, R6, PKT_OFF(iif), REC(iif));
		copy_field(p, BPF_W, R6, PKT_OFF(oif), REC(oif));
		/* rec->tstamp = skb->tstamp; rec->tai_ns = bpf_ktime_get_tai_ns() */
		emit_skb(p, env, R2);
		copy_field(p, BPF_DW, R2, env->off.skb_tstamp, REC(tstamp));
		codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ktime_get_tai_ns));
		codegen_emit(p, INSN_STX_MEM(BPF_DW, R9, R0, REC(tai_ns)));
	}
	/* 2. packet info: rec->hook = ctx->state->hook; pf, len, mark, flags */
	emit_hook(p, env);
	if (nflog && env->ctx != CODEGEN_CTX_NF && env->off.br_dev >= 0) {
		uint32_t l_notbr = codegen_label_new(p);

		/* bridge: the ports' bridge device (nfnetlink_log's INDEV,
		 * OUTDEV); if pkt.nfproto != BRIDGE goto notbr */
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, REC(br_iif), 0));
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, NF_BRIDGE_PF_, 0), l_notbr);
		emit_port_master(p, env, PKT_OFF(in_dev), REC(br_iif));
		emit_port_master(p, env, PKT_OFF(out_dev), REC(br_oif));
		codegen_label_bind(p, l_notbr);
	} else if (nflog) {
		codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, REC(br_iif), 0));
	}
	copy_field(p, BPF_B, R6, PKT_OFF(nfproto), REC(pf));
	copy_field(p, BPF_W, R6, PKT_OFF(len), REC(len));
	copy_field(p, BPF_W, R6, PKT_OFF(mark), REC(mark));
	copy_field(p, BPF_B, R6, PKT_OFF(flags), REC(pktflags));
	copy_field(p, BPF_H, R6, PKT_OFF(protocol), REC(protocol));
	/* rec->nhoff = tc egress && !(pkt.flags & PKT_BRVIEW) ? view_off : 0 */
	codegen_emit(p, INSN_ST_MEM(BPF_H, R9, REC(nhoff), 0));
	if (env->ctx == CODEGEN_CTX_TC_EGRESS) {
		uint32_t l_nh = codegen_label_new(p);

		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
		codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_BRVIEW));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_nh);
		copy_field(p, BPF_H, R6, PKT_OFF(view_off), REC(nhoff));
		codegen_label_bind(p, l_nh);
	}
	for (i = 0; i < 16; i += 8) {
		copy_field(p, BPF_DW, R6, PKT_OFF(iifname) + i, REC(in) + i);
		copy_field(p, BPF_DW, R6, PKT_OFF(oifname) + i, REC(out) + i);
	}
	/* rec->vlan_all = skb->vlan_all */
	emit_skb(p, env, R2);
	copy_field(p, BPF_W, R2, env->off.skb_vlan_all, REC(vlan_all));
	/* 3. device: r2 = ctx->state->in (tc: skb->dev, the input device
	 * at ingress, the output device at egress: what nf_log_syslog's
	 * dump_mac_header() and dump_arp_packet() read); if !r2 goto nodev */
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(has_dev), 0));
	if (env->ctx == CODEGEN_CTX_NF) {
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R8, env->off.ctx_state));
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.st_in));
	} else {
		emit_skb(p, env, R2);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.skb_dev));
	}
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_nodev);
	codegen_emit(p, INSN_ST_MEM(BPF_B, R9, REC(has_dev), 1));
	copy_field(p, BPF_H, R2, env->off.dev_type, REC(dev_type));
	copy_field(p, BPF_H, R2, env->off.dev_hard_header_len,
		   REC(hard_header_len));
	codegen_label_bind(p, l_nodev);
	/* 4. socket owner, with LOG_F_UID (nf_log_dump_sk_uid_gid()) or
	 * always (nfnetlink_log) */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, REC(has_uid), 0));
	if (uid_ok(env)) {
		if (!nflog) {
			codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R7, ec->cbase + 5));
			codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, LOG_F_UID));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_nouid);
		}
		/* r2 = skb->sk; if !r2 goto nouid */
		emit_skb(p, env, R2);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.skb_sk));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_nouid);
		/* !sk_fullsock(sk): time-wait and request socks have no owner */
		codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R2, env->off.sk_state));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_TIME_WAIT, 0), l_nouid);
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, TCP_NEW_SYN_RECV, 0), l_nouid);
		if (!nflog) {
			/* if sock_net(sk) != ctx->state->net goto nouid */
			codegen_emit(p, INSN_LDX_MEM(BPF_DW, R1, R2, env->off.sk_net));
			if (env->ctx == CODEGEN_CTX_NF) {
				codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R8, env->off.ctx_state));
				codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R3, env->off.st_net));
			} else {
				codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(net_addr)));
			}
			codegen_emit_jmp(p, INSN_JMP_REG(BPF_JNE, R1, R3, 0), l_nouid);
		}
		/* r2 = sk->sk_socket->file->f_cred, each maybe NULL */
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.sk_socket));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_nouid);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.socket_file));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_nouid);
		codegen_emit(p, INSN_LDX_MEM(BPF_DW, R2, R2, env->off.file_cred));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R2, 0, 0), l_nouid);
		/* rec->uid = cred->fsuid; rec->gid = cred->fsgid; rec->has_uid = 1 */
		copy_field(p, BPF_W, R2, env->off.cred_fsuid, REC(uid));
		copy_field(p, BPF_W, R2, env->off.cred_fsgid, REC(gid));
		codegen_emit(p, INSN_ST_MEM(BPF_W, R9, REC(has_uid), 1));
	}
	codegen_label_bind(p, l_nouid);
	/* 5. mac header: if !(pkt.flags & PKT_LL) goto noll */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, REC(mac_hdr_len), 0));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(flags)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, PKT_LL));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R1, 0, 0), l_noll);
	/* rec->mac_hdr_len = -pkt.ll_off */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(ll_off)));
	codegen_emit(p, INSN_ALU32_IMM(BPF_NEG, R1, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, REC(mac_hdr_len)));
	/* probe_read_kernel(rec->mac, LOG_REC_MAC, pkt.ll_addr) */
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REC(mac)));
	codegen_emit(p, INSN_MOV64_IMM(R2, LOG_REC_MAC));
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R6, PKT_OFF(ll_addr)));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	codegen_label_bind(p, l_noll);
}

/*
 * rec->physin, rec->br_opts: at a bridge postrouting chain (rec->hook 4,
 * tc egress) for a forwarded frame (the ring's class BRC_FWD): the input
 * port's name and its bridge's options (zero otherwise); r0-r5 clobbered
 */
static void emit_physin(struct codegen_prog *p, const struct codegen_env *env)
{
	uint32_t l_done = codegen_label_new(p);

	codegen_emit(p, INSN_ST_MEM(BPF_W, R9, REC(br_opts), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, REC(physin), 0));
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R9, REC(physin) + 8, 0));
	if (env->ctx != CODEGEN_CTX_TC_EGRESS || env->off.br_dev < 0 ||
	    env->off.br_options < 0)
		return;
	/* if pkt.nfproto != BRIDGE || rec->hook != NF_BR_POST_ROUTING goto done */
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R6, PKT_OFF(nfproto)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, NF_BRIDGE_PF_, 0), l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R9, REC(hook)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 4, 0), l_done);
	/* r0 = ring; if (r0->br_class & ~HOST) != FWD goto done */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R6, ST_OFF(key), 0));
	codegen_emit(p, INSN_MOV64_REG(R2, R6));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, ST_OFF(key)));
	codegen_emit_ld_map(p, R1, env->ring_fd);
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_done);
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R1, R0,
				     (int16_t)offsetof(struct codegen_ring, br_class)));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, (uint8_t)~BRC_HOST));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, BRC_FWD, 0), l_done);
	/* r3 = ring->br_in_dev; if !r3 goto done;
	 * probe_read_kernel(rec->physin, 16, r3->name) */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R3, R0,
				     (int16_t)offsetof(struct codegen_ring, br_in_dev)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_done);
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, env->off.dev_name));
	codegen_emit(p, INSN_MOV64_REG(R1, R9));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, REC(physin)));
	codegen_emit(p, INSN_MOV64_IMM(R2, 16));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	/* rec->br_opts = pkt.out_dev->rx_handler_data->br->options */
	codegen_emit(p, INSN_LDX_MEM(BPF_DW, R4, R6, PKT_OFF(out_dev)));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R4, 0, 0), l_done);
	codegen_emit_probe_deref(p, R4, env->off.dev_rx_handler_data, l_done);
	codegen_emit_probe_deref(p, R4, env->off.nbp_br, l_done);
	codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
	codegen_emit_probe_read(p, ST_OFF(scratch), 8, R4, env->off.br_options);
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R9, R1, REC(br_opts)));
	codegen_label_bind(p, l_done);
}

static void emit_log_record(struct codegen_prog *p,
			    const struct codegen_expr_ctx *ec, uint8_t ebt)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_out = codegen_label_new(p);

	/* r0 = bpf_ringbuf_reserve(log, sizeof(rec), 0); if !r0 goto out */
	codegen_emit_ld_map(p, R1, env->log_fd);
	codegen_emit(p, INSN_MOV64_IMM(R2, sizeof(struct codegen_log_rec)));
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_out);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	emit_fill(p, ec, false, ebt);
	emit_physin(p, env);
	/* 6. packet bytes, 7. bpf_ringbuf_submit(rec, 0) */
	codegen_emit_rec_submit(p, env, REC(caplen), REC(data), LOG_REC_DATA);
	codegen_label_bind(p, l_out);
}

void codegen_emit_log_record(struct codegen_prog *p,
			     const struct codegen_expr_ctx *ec)
{
	emit_log_record(p, ec, 0);
}

void codegen_emit_ebt_log_record(struct codegen_prog *p,
				 const struct codegen_expr_ctx *ec)
{
	emit_log_record(p, ec, 1);
}

/*
 * The NFLOG record: its ring buffer dynptr lives in the shape frame's
 * packet buffer (SHAPE_BUF_OFF, 16 of its 64 bytes), the copy length at
 * SHAPE_KEY_OFF, the packet view's dynptr at SHAPE_DYNPTR_OFF.
 */
#define RB_DYNPTR	SHAPE_BUF_OFF

void codegen_emit_nflog_record(struct codegen_prog *p,
			       const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint32_t l_snap = codegen_label_new(p), l_cap = codegen_label_new(p);
	uint32_t l_discard = codegen_label_new(p), l_submit = codegen_label_new(p);
	uint32_t l_out = codegen_label_new(p);

	/* no instance of the group: nothing (nfulnl_log_packet()); r0 =
	 * the bound groups' bitmap; if !(r0[group / 8] >> group % 8 & 1)
	 * goto out */
	codegen_emit(p, INSN_ST_MEM(BPF_W, R10, SHAPE_KEY_OFF, 0));
	codegen_emit_ld_map(p, R1, env->nflog_fd);
	codegen_emit(p, INSN_MOV64_REG(R2, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_out);
	codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R7, ec->cbase + 6));
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_RSH, R2, 3));
	codegen_emit(p, INSN_ALU64_REG(BPF_ADD, R0, R2));
	codegen_emit(p, INSN_LDX_MEM(BPF_B, R3, R0, 0));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R1, 7));
	codegen_emit(p, INSN_ALU64_REG(BPF_RSH, R3, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_AND, R3, 1));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R3, 0, 0), l_out);
	/* r1 = min(pkt.len, the rule's snaplen, LOG_NFLOG_DATA): the payload
	 * is skb_copy_bits(skb, 0, ...): from skb->data at the hook, which
	 * at netdev egress and arp output is the link layer header */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, PKT_OFF(len)));
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R2, R7, ec->cbase + 12));
	codegen_emit_jmp(p, INSN_JMP_REG(BPF_JLE, R1, R2, 0), l_snap);
	codegen_emit(p, INSN_MOV64_REG(R1, R2));
	codegen_label_bind(p, l_snap);
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JLE, R1, LOG_NFLOG_DATA, 0), l_cap);
	codegen_emit(p, INSN_MOV64_IMM(R1, LOG_NFLOG_DATA));
	codegen_label_bind(p, l_cap);
	if (!env->kf_dynptr_copy)
		codegen_emit(p, INSN_MOV64_IMM(R1, 0));
	codegen_emit(p, INSN_STX_MEM(BPF_W, R10, R1, SHAPE_KEY_OFF));
	/* bpf_ringbuf_reserve_dynptr(log, HDR + r1, 0, &rb); if it fails,
	 * the dynptr still has to be discarded */
	codegen_emit(p, INSN_MOV64_REG(R2, R1));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R2, LOG_NFLOG_HDR));
	codegen_emit_ld_map(p, R1, env->log_fd);
	codegen_emit(p, INSN_MOV64_IMM(R3, 0));
	codegen_emit(p, INSN_MOV64_REG(R4, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R4, RB_DYNPTR));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_reserve_dynptr));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R0, 0, 0), l_discard);
	/* r9 = bpf_dynptr_data(&rb, 0, HDR); if !r9 goto discard */
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, RB_DYNPTR));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_MOV64_IMM(R3, LOG_NFLOG_HDR));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_dynptr_data));
	codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_discard);
	codegen_emit(p, INSN_MOV64_REG(R9, R0));
	emit_fill(p, ec, true, 0);
	/* rec->caplen = r1 */
	codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R10, SHAPE_KEY_OFF));
	codegen_emit(p, INSN_STX_MEM(BPF_H, R9, R1, REC(caplen)));
	if (env->kf_dynptr_copy) {
		uint32_t l_src = codegen_label_new(p);

		/* the skb from skb->data (tc: not cut to the view) */
		if (env->ctx == CODEGEN_CTX_NF) {
			codegen_emit_dynptr(p, env, R8, SHAPE_DYNPTR_OFF);
		} else {
			/* bpf_dynptr_from_skb(ctx, 0, &skbp) */
			codegen_emit(p, INSN_MOV64_REG(R1, R8));
			codegen_emit(p, INSN_MOV64_IMM(R2, 0));
			codegen_emit(p, INSN_MOV64_REG(R3, R10));
			codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
			codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_from_skb));
		}
		/* r4 = the hook's skb->data in it: tc ingress (tc pushed the
		 * mac header) and tc egress under a bridge chain's view: the
		 * network header (view_off); netfilter hooks, netdev egress,
		 * arp output: 0 (rec->nhoff says which) */
		codegen_emit(p, INSN_MOV64_IMM(R4, 0));
		if (env->ctx != CODEGEN_CTX_NF) {
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R1, R9, REC(nhoff)));
			codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JNE, R1, 0, 0), l_src);
			codegen_emit(p, INSN_LDX_MEM(BPF_H, R4, R6, PKT_OFF(view_off)));
		}
		codegen_label_bind(p, l_src);
		/* bpf_dynptr_copy(&rb, HDR, &skbp, r4, caplen); if it fails,
		 * rec->caplen = 0 */
		codegen_emit(p, INSN_MOV64_REG(R1, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, RB_DYNPTR));
		codegen_emit(p, INSN_MOV64_IMM(R2, LOG_NFLOG_HDR));
		codegen_emit(p, INSN_MOV64_REG(R3, R10));
		codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R3, SHAPE_DYNPTR_OFF));
		codegen_emit(p, INSN_LDX_MEM(BPF_W, R5, R10, SHAPE_KEY_OFF));
		codegen_emit(p, INSN_CALL_KFUNC(env->kf_dynptr_copy));
		codegen_emit_jmp(p, INSN_JMP_IMM(BPF_JEQ, R0, 0, 0), l_submit);
		codegen_emit(p, INSN_ST_MEM(BPF_H, R9, REC(caplen), 0));
	}
	/* bpf_ringbuf_submit_dynptr(&rb, 0) */
	codegen_label_bind(p, l_submit);
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, RB_DYNPTR));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_submit_dynptr));
	codegen_emit_jmp(p, INSN_JA(0), l_out);
	/* bpf_ringbuf_discard_dynptr(&rb, 0) */
	codegen_label_bind(p, l_discard);
	codegen_emit(p, INSN_MOV64_REG(R1, R10));
	codegen_emit(p, INSN_ALU64_IMM(BPF_ADD, R1, RB_DYNPTR));
	codegen_emit(p, INSN_MOV64_IMM(R2, 0));
	codegen_emit(p, INSN_CALL_HELPER(BPF_FUNC_ringbuf_discard_dynptr));
	codegen_label_bind(p, l_out);
}

static void log_emit(struct codegen_prog *p, const struct expr *e,
		     const struct codegen_expr_ctx *ec)
{
	const struct expr_log *l = expr_priv(e);

	if (l->type == LOG_TYPE_NFLOG)
		codegen_emit_nflog_record(p, ec);
	else
		codegen_emit_log_record(p, ec);
}

static uint32_t *log_prefix(struct expr *e, const char **prefix)
{
	struct expr_log *l = expr_priv(e);

	*prefix = l->prefix;
	return &l->prefix_id;
}

const struct codegen_expr_ops codegen_expr_log = {
	.name = "log",
	.check = log_check,
	.const_size = log_const_size,
	.shape = log_shape,
	.consts = log_consts,
	.emit = log_emit,
	.log_prefix = log_prefix,
};
