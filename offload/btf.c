// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf.c - kfunc ids and struct member offsets from vmlinux BTF; BTF
 * func_info for the programs we load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "offload/bpf_compat.h"
#include "offload/offload.h"

static struct btf *vmlinux;

static int vmlinux_get(void)
{
	if (vmlinux)
		return 0;
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		vmlinux = NULL;
		return -errno ? -errno : -ENOENT;
	}
	return 0;
}

/*
 * bit offset of member @name of struct/union @t, searching anonymous
 * members; *@type (if not NULL) = the member's type id
 */
static int member_bits(const struct btf_type *t, const char *name,
		       uint32_t *bits, uint32_t *bitsize, uint32_t *type)
{
	const struct btf_member *m = btf_members(t);
	uint16_t i, n = btf_vlen(t);

	for (i = 0; i < n; i++, m++) {
		const char *mn = btf__name_by_offset(vmlinux, m->name_off);
		uint32_t off = btf_member_bit_offset(t, i);

		if (mn && !strcmp(mn, name)) {
			*bits = off;
			*bitsize = btf_member_bitfield_size(t, i);
			if (type)
				*type = m->type;
			return 0;
		}
		if (!mn || !*mn) {
			const struct btf_type *mt = btf__type_by_id(vmlinux, m->type);

			while (mt && (btf_is_mod(mt) || btf_is_typedef(mt)))
				mt = btf__type_by_id(vmlinux, mt->type);
			if (mt && (btf_is_struct(mt) || btf_is_union(mt)) &&
			    !member_bits(mt, name, bits, bitsize, type)) {
				*bits += off;
				return 0;
			}
		}
	}
	return -ENOENT;
}

static int member_off(const char *sname, const char *mname, int16_t *off)
{
	uint32_t bits, bitsize;
	int id = btf__find_by_name_kind(vmlinux, sname, BTF_KIND_STRUCT);

	if (id < 0)
		return -ENOENT;
	if (member_bits(btf__type_by_id(vmlinux, id), mname, &bits, &bitsize,
			NULL))
		return -ENOENT;
	*off = (int16_t)(bits / 8);
	return 0;
}

/*
 * byte offset of the dotted member path @path ("tuplehash.tuple") inside
 * struct @sname, arrays taken at index 0; *@size = size of the last
 * member (NULL: not wanted). -ENOENT if this kernel lacks it.
 */
static int path_off(const char *sname, const char *path, int16_t *off,
		    uint32_t *size)
{
	const struct btf_type *t;
	uint32_t bits, bitsize, type, total = 0;
	char buf[64], *name, *save = NULL;
	int id = btf__find_by_name_kind(vmlinux, sname, BTF_KIND_STRUCT);

	if (id < 0 || strlen(path) >= sizeof(buf))
		return -ENOENT;
	strcpy(buf, path);
	type = id;
	for (name = strtok_r(buf, ".", &save); name;
	     name = strtok_r(NULL, ".", &save)) {
		t = btf__type_by_id(vmlinux, type);
		while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_array(t)))
			t = btf__type_by_id(vmlinux, btf_is_array(t) ?
					    btf_array(t)->type : t->type);
		if (!t || !(btf_is_struct(t) || btf_is_union(t)) ||
		    member_bits(t, name, &bits, &bitsize, &type) || bitsize)
			return -ENOENT;
		total += bits / 8;
	}
	if (total > INT16_MAX)
		return -ENOENT;
	*off = (int16_t)total;
	if (size) {
		long sz = btf__resolve_size(vmlinux, type);

		if (sz < 0)
			return -ENOENT;
		*size = (uint32_t)sz;
	}
	return 0;
}

/* value of enumerator @name of enum @ename, -1 if this kernel lacks it */
static int16_t enum_val(const char *ename, const char *name)
{
	int id = btf__find_by_name_kind(vmlinux, ename, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	uint16_t i;

	if (id < 0)
		return -1;
	t = btf__type_by_id(vmlinux, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(vmlinux, e->name_off), name))
			return e->val >= 0 && e->val < 8 ? (int16_t)e->val : -1;
	return -1;
}

/* members read with bpf_probe_read_kernel(): -1 when this kernel lacks them */
static int probe_env(struct codegen_env *env)
{
	static const struct {
		const char *s, *path;
		size_t at;
	} opt[] = {
#define O(s, m, f) { s, m, offsetof(struct codegen_env, off.f) }
		O("nf_conn", "status", ct_status),
		O("nf_conn", "mark", ct_mark),
		O("nf_conntrack_tuple", "src.u3", tup_src_u3),
		O("nf_conntrack_tuple", "src.u", tup_src_u),
		O("nf_conntrack_tuple", "src.l3num", tup_l3num),
		O("nf_conntrack_tuple", "dst.u3", tup_dst_u3),
		O("nf_conntrack_tuple", "dst.u", tup_dst_u),
		O("nf_conntrack_tuple", "dst.protonum", tup_protonum),
		O("sk_buff", "sk", skb_sk),
		O("sk_buff", "secmark", skb_secmark),
		O("net_device", "group", dev_group),
		O("net_device", "rtnl_link_ops", dev_link_ops),
		O("rtnl_link_ops", "kind", link_ops_kind),
		O("sock", "__sk_common.skc_state", sk_state),
		O("sock", "__sk_common.skc_net", sk_net),
		O("sock", "sk_socket", sk_socket),
		O("request_sock", "__req_common.skc_listener", req_listener),
		O("socket", "file", socket_file),
		O("file", "f_cred", file_cred),
		O("cred", "fsuid", cred_fsuid),
		O("cred", "fsgid", cred_fsgid),
		O("sock", "sk_cgrp_data.classid", sk_classid),
		O("sk_buff", "active_extensions", skb_active_ext),
		O("nf_conn", "zone.id", ct_zone_id),
		O("nf_conn", "zone.dir", ct_zone_dir),
		O("nf_conn", "timeout", ct_timeout),
		O("nf_conn", "secmark", ct_secmark),
		O("nf_conn", "master", ct_master),
		O("nf_conn", "ext", ct_ext),
		O("nf_ct_ext", "offset", ext_offset),
		O("nf_conn_counter", "packets", acct_packets),
		O("nf_conn_counter", "bytes", acct_bytes),
		O("nf_conn_help", "helper", help_helper),
		O("nf_conntrack_helper", "name", helper_name),
		O("net", "ipv4.fib_has_custom_rules", net_fib_custom),
		O("sock", "sk_rx_dst_ifindex", sk_rx_dst_ifindex),
		O("net", "ipv6.fib6_has_custom_rules", net_fib6_custom),
		O("sk_buff", "_skb_refdst", skb_refdst),
		O("dst_entry", "tclassid", dst_tclassid),
		O("dst_entry", "xfrm", dst_xfrm),
		O("rtable", "rt_gw_family", rt_gw_family),
		O("rtable", "rt_gw4", rt_gw4),
		O("rt6_info", "rt6i_flags", rt6_flags),
		O("rt6_info", "rt6i_gateway", rt6_gateway),
		O("rt6_info", "rt6i_dst.addr", rt6_dst),
		O("nf_ct_ext", "len", ext_len),
		O("sock", "__sk_common.skc_cookie", sk_cookie),
		O("sk_buff", "next", skb_next),
		O("sk_buff", "end", skb_end),
		O("skb_shared_info", "nr_frags", shi_nr_frags),
		O("skb_shared_info", "frag_list", shi_frag_list),
		O("skb_shared_info", "frags.len", shi_frag_len),
		O("nf_conn", "ct_general.use", ct_use),
		O("nf_conn", "proto.tcp.state", ct_tcp_state),
#undef O
	};
	int16_t hash, tuple, counter, genid;
	uint32_t stride;
	struct timespec res;
	size_t i;

	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++) {
		int16_t *o = (int16_t *)((char *)env + opt[i].at);

		if (path_off(opt[i].s, opt[i].path, o, NULL))
			*o = -1;
	}
	env->off.sec_path_bit = enum_val("skb_ext_id", "SKB_EXT_SEC_PATH");
	/* IPCB(skb)->opt for a reject record, if struct ip_options is laid
	 * out as codegen_reject_rec.ipopt says */
	env->off.ipcb_opt = -1;
	{
		static const struct {
			const char *m;
			uint32_t bit;
		} lay[] = {
			{ "optlen", 64 }, { "srr", 72 }, { "rr", 80 },
			{ "ts", 88 }, { "is_strictroute", 96 },
			{ "rr_needaddr", 99 }, { "ts_needtime", 100 },
			{ "ts_needaddr", 101 }, { "cipso", 112 },
		};
		int id = btf__find_by_name_kind(vmlinux, "ip_options",
						BTF_KIND_STRUCT);
		int16_t cb, opt;
		uint32_t bits, bitsize;
		bool ok = id >= 0 && !member_off("sk_buff", "cb", &cb) &&
			  !member_off("inet_skb_parm", "opt", &opt);

		for (i = 0; ok && i < sizeof(lay) / sizeof(lay[0]); i++)
			ok = !member_bits(btf__type_by_id(vmlinux, id), lay[i].m,
					  &bits, &bitsize, NULL) &&
			     bits == lay[i].bit;
		if (ok)
			env->off.ipcb_opt = (int16_t)(cb + opt + 8);
	}
	/* a reject record's copy of the nf_conn: all of it, or none */
	env->off.ct_size = 0;
	{
		int id = btf__find_by_name_kind(vmlinux, "nf_conn",
						BTF_KIND_STRUCT);
		long sz = id < 0 ? -1 : btf__resolve_size(vmlinux, id);

		if (sz > 0 && sz <= REJECT_CT_SIZE && env->off.ct_ext >= 0 &&
		    env->off.ct_ext + 8 <= sz)
			env->off.ct_size = (int16_t)sz;
	}
	env->off.ext_acct = enum_val("nf_ct_ext_id", "NF_CT_EXT_ACCT");
	env->off.ext_labels = enum_val("nf_ct_ext_id", "NF_CT_EXT_LABELS");
	env->off.ext_helper = enum_val("nf_ct_ext_id", "NF_CT_EXT_HELPER");
	/* an extension area with a generation id (nf_ct_ext_find() then
	 * compares it with a global we cannot read): extensions refused */
	if (!path_off("nf_ct_ext", "gen_id", &genid, NULL))
		env->off.ext_offset = -1;
	/* counter[2]: the stride of one direction's nf_conn_counter */
	env->off.acct_stride = -1;
	if (!path_off("nf_conn_acct", "counter", &counter, &stride) &&
	    counter == 0 && stride / 2 <= INT16_MAX)
		env->off.acct_stride = (int16_t)(stride / 2);
	/* HZ: the coarse clocks tick once a jiffy (TICK_NSEC); the kernel's
	 * jiffies_to_msecs() is a multiplication when HZ divides 1000 */
	env->jiffy_msecs = 0;
	if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res) && !res.tv_sec &&
	    res.tv_nsec > 0) {
		long hz = (1000000000L + res.tv_nsec / 2) / res.tv_nsec;

		if (hz > 0 && hz <= 1000 && 1000 % hz == 0)
			env->jiffy_msecs = (uint32_t)(1000 / hz);
	}
	/* sizeof(skb_frag_t): the stride of skb_shared_info.frags[] */
	env->off.frag_size = -1;
	{
		int fid = btf__find_by_name_kind(vmlinux, "skb_frag", BTF_KIND_STRUCT);
		long sz = fid < 0 ? -1 : btf__resolve_size(vmlinux, fid);

		if (sz > 0 && sz <= INT16_MAX)
			env->off.frag_size = (int16_t)sz;
	}
	env->off.ct_tuple = -1;
	if (!path_off("nf_conn", "tuplehash", &hash, NULL) &&
	    !path_off("nf_conntrack_tuple_hash", "tuple", &tuple, NULL) &&
	    !path_off("nf_conn", "tuplehash", &hash, &stride)) {
		/* stride: tuplehash is struct nf_conntrack_tuple_hash[2] */
		env->off.ct_tuple = hash + tuple;
		env->off.ct_tuple_stride = (int16_t)(stride / 2);
	}
	return member_off("sk_buff", "_nfct", &env->off.skb_nfct);
}

/*
 * the bridge family's offsets (codegen/walker.c emit_bridge()), all -1 if
 * one is missing (a kernel without the bridge, or of another layout)
 */
static void bridge_env(struct codegen_env *env)
{
	static const struct {
		const char *s, *m;
		size_t at;
	} offs[] = {
#define O(s, m, f) { s, m, offsetof(struct codegen_env, off.f) }
		O("net_device", "rx_handler_data", dev_rx_handler_data),
		O("net_device", "dev_addr", dev_dev_addr),
		O("net_bridge_port", "br", nbp_br),
		O("net_bridge_port", "state", nbp_state),
		O("net_bridge_port", "group_fwd_mask", nbp_gfm),
		O("net_bridge", "dev", br_dev),
		O("net_bridge", "options", br_options),
		O("net_bridge", "stp_enabled", br_stp_enabled),
		O("net_bridge", "group_fwd_mask", br_gfm),
		O("net_bridge", "group_fwd_mask_required", br_gfm_req),
#undef O
	};
	uint32_t bits, bitsize;
	size_t i;
	int id;

	id = btf__find_by_name_kind(vmlinux, "net_device", BTF_KIND_STRUCT);
	/* priv_flags: 32 bits at a byte boundary (a bitfield since 6.11) */
	if (id < 0 || member_bits(btf__type_by_id(vmlinux, id), "priv_flags",
				  &bits, &bitsize, NULL) || bits % 8 ||
	    (bitsize && bitsize != 32))
		goto out_none;
	env->off.dev_priv_flags = (int16_t)(bits / 8);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		if (member_off(offs[i].s, offs[i].m,
			       (int16_t *)((char *)env + offs[i].at)))
			goto out_none;
	return;
out_none:
	env->off.dev_priv_flags = env->off.dev_rx_handler_data = -1;
	env->off.dev_dev_addr = env->off.nbp_br = env->off.nbp_state = -1;
	env->off.nbp_gfm = env->off.br_dev = env->off.br_options = -1;
	env->off.br_stp_enabled = env->off.br_gfm = env->off.br_gfm_req = -1;
}

bool offload_btf_bridge(void)
{
	struct codegen_env env;

	if (vmlinux_get())
		return false;
	memset(&env, 0, sizeof(env));
	bridge_env(&env);
	return env.off.br_dev >= 0;
}

int offload_btf_env(struct codegen_env *env)
{
	static const struct {
		const char *s, *m;
		size_t at;
	} offs[] = {
#define O(s, m, f) { s, m, offsetof(struct codegen_env, off.f) }
		O("bpf_nf_ctx", "state", ctx_state),
		O("bpf_nf_ctx", "skb", ctx_skb),
		O("nf_hook_state", "hook", st_hook),
		O("nf_hook_state", "pf", st_pf),
		O("nf_hook_state", "in", st_in),
		O("nf_hook_state", "out", st_out),
		O("nf_hook_state", "net", st_net),
		O("sk_buff", "len", skb_len),
		O("sk_buff", "data_len", skb_data_len),
		O("sk_buff", "protocol", skb_protocol),
		O("sk_buff", "mark", skb_mark),
		O("sk_buff", "priority", skb_priority),
		O("sk_buff", "head", skb_head),
		O("sk_buff", "data", skb_data),
		O("sk_buff", "mac_header", skb_mac_header),
		O("sk_buff", "network_header", skb_network_header),
		O("net_device", "ifindex", dev_ifindex),
		O("net_device", "name", dev_name),
		O("net_device", "type", dev_type),
		O("net_device", "hard_header_len", dev_hard_header_len),
		O("sk_buff", "vlan_all", skb_vlan_all),
		O("sk_buff", "tstamp", skb_tstamp),
		O("sk_buff", "dev", skb_dev),
		O("net_device", "flags", dev_flags),
		O("net_device", "addr_len", dev_addr_len),
		O("net_device", "rx_handler", dev_rx_handler),
#undef O
	};
	uint32_t bits, bitsize;
	size_t i;
	int id, err;

	err = vmlinux_get();
	if (err)
		return err;
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		if (member_off(offs[i].s, offs[i].m,
			       (int16_t *)((char *)env + offs[i].at)))
			return -ENOENT;
	id = btf__find_by_name_kind(vmlinux, "sk_buff", BTF_KIND_STRUCT);
	if (id < 0 || member_bits(btf__type_by_id(vmlinux, id), "pkt_type",
				  &bits, &bitsize, NULL) || !bitsize ||
	    (bits % 8) + bitsize > 8)
		return -ENOENT;
	env->off.skb_pkt_type = (int16_t)(bits / 8);
	env->off.pkt_type_shift = bits % 8;	/* little endian bit order */
	env->off.pkt_type_mask = (1u << bitsize) - 1;
	/* ip_summed (2 bits) and csum_valid (1): the reject records say
	 * whether the kernel would verify the checksum; -1 = not known */
	env->off.skb_ip_summed = env->off.skb_csum_valid = -1;
	if (!member_bits(btf__type_by_id(vmlinux, id), "ip_summed", &bits,
			 &bitsize, NULL) && bitsize == 2 && (bits % 8) + 2 <= 8) {
		env->off.skb_ip_summed = (int16_t)(bits / 8);
		env->off.ip_summed_shift = bits % 8;
	}
	if (!member_bits(btf__type_by_id(vmlinux, id), "csum_valid", &bits,
			 &bitsize, NULL) && bitsize == 1) {
		env->off.skb_csum_valid = (int16_t)(bits / 8);
		env->off.csum_valid_shift = bits % 8;
	}
	/* sock: sk_protocol (u16) and the sk_kern_sock bit, for reject
	 * records (REJECT_SK_ICMP_CTL); -1 = not known */
	env->off.sk_protocol = env->off.sk_kern_sock = -1;
	id = btf__find_by_name_kind(vmlinux, "sock", BTF_KIND_STRUCT);
	if (id >= 0 &&
	    !member_bits(btf__type_by_id(vmlinux, id), "sk_protocol", &bits,
			 &bitsize, NULL) && !(bits % 8) &&
	    (!bitsize || bitsize == 16))
		env->off.sk_protocol = (int16_t)(bits / 8);
	if (id >= 0 &&
	    !member_bits(btf__type_by_id(vmlinux, id), "sk_kern_sock", &bits,
			 &bitsize, NULL) && bitsize == 1) {
		env->off.sk_kern_sock = (int16_t)(bits / 8);
		env->off.sk_kern_sock_shift = bits % 8;
	}

	id = btf__find_by_name_kind(vmlinux, "bpf_dynptr_from_skb", BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	env->kf_dynptr_from_skb = id;
	id = btf__find_by_name_kind(vmlinux, "bpf_dynptr_slice", BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	env->kf_dynptr_slice = id;
	/* tc programs: the kernel sk_buff of the ctx, the view's start */
	id = btf__find_by_name_kind(vmlinux, "bpf_dynptr_adjust", BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	env->kf_dynptr_adjust = id;
	id = btf__find_by_name_kind(vmlinux, "bpf_cast_to_kern_ctx", BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	env->kf_cast_to_kern_ctx = id;
	/* NFLOG payloads (6.15+); without it NFLOG records carry no bytes */
	id = btf__find_by_name_kind(vmlinux, "bpf_dynptr_copy", BTF_KIND_FUNC);
	env->kf_dynptr_copy = id < 0 ? 0 : id;
	/* the walker reads the skb and the hook state through read-only
	 * (untrusted) copies of its pointers: the verifier then checks each
	 * pointer field it loads without looking for a "<struct>__safe_*"
	 * type, a linear search of vmlinux BTF per load and per path (half
	 * of a small ruleset's load time); see codegen/walker.c */
	env->kf_rdonly_cast = env->btf_skb = env->btf_hook_state = 0;
	id = btf__find_by_name_kind(vmlinux, "bpf_rdonly_cast", BTF_KIND_FUNC);
	if (id > 0) {
		int skb = btf__find_by_name_kind(vmlinux, "sk_buff", BTF_KIND_STRUCT),
		    st = btf__find_by_name_kind(vmlinux, "nf_hook_state", BTF_KIND_STRUCT);

		if (skb > 0 && st > 0) {
			env->kf_rdonly_cast = id;
			env->btf_skb = skb;
			env->btf_hook_state = st;
		}
	}
	if (path_off("net_device", "nd_net.net", &env->off.dev_net, NULL))
		return -ENOENT;
	bridge_env(env);
	return probe_env(env);
}

/* a struct @name of @size bytes (one u8 array member) */
static int add_blob(struct btf *btf, const char *name, uint32_t size,
		    int u8_id, int idx_id)
{
	int arr = btf__add_array(btf, idx_id, u8_id, size);
	int id = btf__add_struct(btf, name, size);

	if (arr < 0 || id < 0 || btf__add_field(btf, "b", arr, 0, 0))
		return -ENOMEM;
	return id;
}

/*
 * BTF for @p's functions: static ones "int f(void *a, void *b)"; global
 * shape functions "int f(struct bpf_nf_ctx *ctx, struct nfbpf_state *st,
 * struct nfbpf_entry *e)": the kernel verifies those once each, with ctx
 * as the program context and st, e as memory of those sizes.
 */
static int funcs_btf(const struct codegen_prog *p, bool tc, struct btf **out,
		     struct bpf_func_info **fi)
{
	struct btf *btf = btf__new_empty();
	int int_id, u8_id, ptr_id, proto, gproto, nfctx, st, ent, id;
	char name[32];
	uint32_t i;

	if (!btf)
		return -ENOMEM;
	*fi = calloc(p->nfuncs ? p->nfuncs : 1, sizeof(**fi));
	if (!*fi)
		goto out_free_btf;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u8_id = btf__add_int(btf, "unsigned char", 1, 0);
	ptr_id = btf__add_ptr(btf, 0);
	if (int_id < 0 || u8_id < 0 || ptr_id < 0)
		goto out_free_fi;
	proto = btf__add_func_proto(btf, int_id);
	if (proto < 0 || btf__add_func_param(btf, "a", ptr_id) ||
	    btf__add_func_param(btf, "b", ptr_id))
		goto out_free_fi;
	/* the ctx type the kernel expects of the program type */
	if (tc) {
		nfctx = btf__add_struct(btf, "__sk_buff", 0);
		if (nfctx < 0)
			goto out_free_fi;
	} else {
		nfctx = btf__add_struct(btf, "bpf_nf_ctx", 16);
		if (nfctx < 0 || btf__add_field(btf, "state", ptr_id, 0, 0) ||
		    btf__add_field(btf, "skb", ptr_id, 64, 0))
			goto out_free_fi;
	}
	st = add_blob(btf, "nfbpf_state", sizeof(struct codegen_state), u8_id, int_id);
	ent = add_blob(btf, "nfbpf_entry", sizeof(struct codegen_entry), u8_id, int_id);
	if (st < 0 || ent < 0)
		goto out_free_fi;
	nfctx = btf__add_ptr(btf, nfctx);
	st = btf__add_ptr(btf, st);
	ent = btf__add_ptr(btf, ent);
	gproto = btf__add_func_proto(btf, int_id);
	if (nfctx < 0 || st < 0 || ent < 0 || gproto < 0 ||
	    btf__add_func_param(btf, "ctx", nfctx) ||
	    btf__add_func_param(btf, "st", st) ||
	    btf__add_func_param(btf, "e", ent))
		goto out_free_fi;
	for (i = 0; i < p->nfuncs; i++) {
		if (i == 0)
			snprintf(name, sizeof(name), "nfbpf_main");
		else
			snprintf(name, sizeof(name), "nfbpf_f%u", i);
		if (p->func_global[i])
			id = btf__add_func(btf, name, BTF_FUNC_GLOBAL, gproto);
		else
			id = btf__add_func(btf, name, BTF_FUNC_STATIC, proto);
		if (id < 0)
			goto out_free_fi;
		(*fi)[i].insn_off = p->funcs[i];
		(*fi)[i].type_id = id;
	}
	*out = btf;
	return 0;

out_free_fi:
	free(*fi);
	*fi = NULL;
out_free_btf:
	btf__free(btf);
	return -ENOMEM;
}

int offload_prog_load(const struct codegen_prog *p, const char *name,
		      char *log, size_t log_size)
{
	return offload_prog_load_ctx(p, name, CODEGEN_CTX_NF, log, log_size);
}

int offload_prog_load_ctx(const struct codegen_prog *p, const char *name,
			  uint8_t ctx, char *log, size_t log_size)
{
	bool tc = ctx != CODEGEN_CTX_NF;
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct bpf_func_info *fi = NULL;
	struct btf *btf = NULL;
	int fd, err;

	if (p->err)
		return p->err;
	err = funcs_btf(p, tc, &btf, &fi);
	if (err)
		return err;
	err = btf__load_into_kernel(btf);
	if (err) {
		fd = -errno;
		goto out;
	}
	if (!tc)
		opts.expected_attach_type = (enum bpf_attach_type)COMPAT_ATTACH_NETFILTER;
	opts.prog_btf_fd = btf__fd(btf);
	opts.func_info = fi;
	opts.func_info_cnt = p->nfuncs;
	opts.func_info_rec_size = sizeof(*fi);
	/* the verifier's log costs more than the verification (it formats
	 * every instruction it walks) and a log longer than the buffer fails
	 * the load: ask for it only to explain a refusal, or when
	 * NFBPF_VERIFIER_LOG asks for it */
	if (log && log_size)
		log[0] = 0;
	fd = -EINVAL;
	if (!log || !log_size || !getenv("NFBPF_VERIFIER_LOG")) {
		fd = bpf_prog_load(tc ? BPF_PROG_TYPE_SCHED_CLS :
				   (enum bpf_prog_type)COMPAT_PROG_TYPE_NETFILTER,
				   name, "GPL", p->insns, p->len, &opts);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0 && fd != -ENOMEM && log && log_size) {
		opts.log_buf = log;
		opts.log_size = log_size;
		opts.log_level = 1;
		fd = bpf_prog_load(tc ? BPF_PROG_TYPE_SCHED_CLS :
				   (enum bpf_prog_type)COMPAT_PROG_TYPE_NETFILTER,
				   name, "GPL", p->insns, p->len, &opts);
		if (fd < 0)
			fd = -errno;
	}
out:
	btf__free(btf);	/* the program holds its own reference */
	free(fi);
	return fd;
}
