// SPDX-License-Identifier: GPL-2.0-only
/*
 * owner.c - xt owner rev 1 (xt_owner.c owner_mt(), output and postrouting):
 * the packet's full socket (skb_to_full_sk(), of this netns) and its file's
 * credentials. struct xt_owner_match_info { u32 uid_min @0, uid_max @4,
 * gid_min @8, gid_max @12; u8 match @16, invert @17 }.
 *
 *	no socket, no sk_socket, another netns: (match ^ invert) == 0
 *	match & invert & SOCKET: false (the socket exists)
 *	no file: ((match ^ invert) & (UID | GID)) == 0
 *	UID: fsuid in [uid_min, uid_max], inverted by invert & UID
 *	GID: fsgid in [gid_min, gid_max], inverted by invert & GID
 *
 * The ids are the initial user namespace's (make_kuid() of a netns owned
 * by it is the identity), as meta skuid reads them. --suppl-groups (the
 * file's supplementary groups, up to NGROUPS_MAX of them) is refused.
 */
#include <errno.h>

#include "codegen/xt/xt.h"

#define OWNER_UID	0x01	/* XT_OWNER_UID */
#define OWNER_GID	0x02	/* XT_OWNER_GID */
#define OWNER_SOCKET	0x04	/* XT_OWNER_SOCKET */
#define OWNER_SUPPL	0x08	/* XT_OWNER_SUPPL_GROUPS */

static int owner_check(const struct expr_xt *x, struct dp_error *err)
{
	if (x->info[16] & OWNER_SUPPL) {
		err->msg = "xt match 'owner' --suppl-groups is not supported by the nfbpf dataplane yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

static void owner_shape(const struct expr_xt *x, struct codegen_key *k)
{
	codegen_key_put(k, &x->info[16], 2);	/* match, invert */
}

static void owner_emit(struct codegen_prog *p, const struct expr_xt *x,
		       const struct codegen_expr_ctx *ec)
{
	const struct codegen_env *env = ec->env;
	uint8_t match = x->info[16], inv = x->info[17];
	uint32_t l_nosock = codegen_label_new(p), l_nofile = codegen_label_new(p);
	uint32_t l_end = codegen_label_new(p);

	codegen_emit_full_sk(p, ec, l_nosock);
	codegen_emit_probe_deref(p, R9, env->off.sk_socket, l_nosock);
	if (match & inv & OWNER_SOCKET) {
		/* ! --socket-exists, and there is one */
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	} else {
		codegen_emit_probe_deref(p, R9, env->off.socket_file, l_nofile);
		codegen_emit_probe_deref(p, R9, env->off.file_cred, ec->l_break);
		if (match & OWNER_UID) {
			codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
			codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, env->off.cred_fsuid);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
			codegen_xt_emit_range(p, ec, ec->cbase, 4, inv & OWNER_UID);
		}
		if (match & OWNER_GID) {
			codegen_emit(p, INSN_ST_MEM(BPF_DW, R6, ST_OFF(scratch), 0));
			codegen_emit_probe_read(p, ST_OFF(scratch), 4, R9, env->off.cred_fsgid);
			codegen_emit(p, INSN_LDX_MEM(BPF_W, R1, R6, ST_OFF(scratch)));
			codegen_xt_emit_range(p, ec, ec->cbase + 8, 4, inv & OWNER_GID);
		}
		codegen_emit_jmp(p, INSN_JA(0), l_end);
		codegen_label_bind(p, l_nofile);
		codegen_emit_jmp(p, INSN_JA(0),
				 ((match ^ inv) & (OWNER_UID | OWNER_GID)) ?
				 ec->l_break : l_end);
	}
	codegen_label_bind(p, l_nosock);
	if (match ^ inv)
		codegen_emit_jmp(p, INSN_JA(0), ec->l_break);
	codegen_label_bind(p, l_end);
}

const struct codegen_xt_ops codegen_xt_owner = {
	.name = "owner", .rev = 1, .minlen = 18, .check = owner_check,
	.const_size = 16, .shape = owner_shape, .emit = owner_emit,
};
