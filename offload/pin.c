// SPDX-License-Identifier: GPL-2.0-only
/*
 * pin.c - bpffs pins of the dataplanes, so that killing nfbpfd never opens
 * a firewall.
 *
 * Layout: <root>/<netns inode>/<name>, one flat directory per namespace:
 * the links whose close would detach policy (netfilter links "nf_<pf>_
 * <hook>_<priority>_<slot>", tcx links "tc_<ifindex>_<in|out>_<slot>") and
 * the maps a restarted daemon adopts ("progs", "progs_tc", "ring": what the
 * trampolines behind those links use; "rules", "counters", "state": what
 * it reads counters and quota/limit words from). A prog array loses its
 * programs when its last user reference goes, so the walkers stay only
 * because "progs"/"progs_tc" are pinned.
 *
 * A pinned netfilter link holds its namespace (the kernel's link takes a
 * reference on it): dataplane_net_unpin() is the one way nfbpfd removes a
 * namespace's pins; nfbpfd never removes them on a clean stop.
 *
 * Pins are off (every function here a no-op) until dataplane_pin_init():
 * in-process tests never pin.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane.h"
#include "offload/offload.h"
#include "codegen/codegen.h"

#define DEFAULT_BPFFS	"/sys/fs/bpf"

static char *pin_root;		/* NULL: pins off */
static bool pins_keep;		/* the daemon stops: keep every pin */

static bool is_bpffs(const char *path)
{
	struct statfs st;

	return !statfs(path, &st) && st.f_type == BPF_FS_MAGIC;
}

/* mkdir -p @path (0700) */
static int mkdirs(const char *path)
{
	char *p = strdup(path), *s;
	int ret = 0;

	if (!p)
		return -ENOMEM;
	for (s = p + 1; *s && !ret; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			ret = -errno;
		*s = '/';
	}
	if (!ret && mkdir(p, 0700) && errno != EEXIST)
		ret = -errno;
	free(p);
	return ret;
}

int dataplane_pin_init(const char *root, const char **msg)
{
	static char buf[512];
	int ret;

	free(pin_root);
	pin_root = NULL;
	if (!root)
		return 0;
	/* 1. the default place: mount bpffs on /sys/fs/bpf if it is not */
	if (!strncmp(root, DEFAULT_BPFFS "/", sizeof(DEFAULT_BPFFS)) &&
	    !is_bpffs(DEFAULT_BPFFS) &&
	    mount("bpf", DEFAULT_BPFFS, "bpf", 0, "mode=0700")) {
		ret = -errno;
		snprintf(buf, sizeof(buf),
			 "%s is not a bpf filesystem and cannot be mounted: %s",
			 DEFAULT_BPFFS, strerror(-ret));
		*msg = buf;
		return ret;
	}
	/* 2. the root directory, on a bpffs */
	ret = mkdirs(root);
	if (ret) {
		snprintf(buf, sizeof(buf), "cannot create pin directory %s: %s",
			 root, strerror(-ret));
		*msg = buf;
		return ret;
	}
	if (!is_bpffs(root)) {
		snprintf(buf, sizeof(buf),
			 "pin directory %s is not on a bpf filesystem (mount -t bpf bpf DIR)",
			 root);
		*msg = buf;
		return -ENOTSUP;
	}
	pin_root = strdup(root);
	return pin_root ? 0 : -ENOMEM;
}

void dataplane_pins_keep(void)
{
	pins_keep = true;
}

bool offload_pins_kept(void)
{
	return pins_keep;
}

/* @buf = <root>/<ino>[/<name>]; false if pins are off or it is too long */
static bool pin_path(char *buf, size_t len, uint64_t ino, const char *name)
{
	int n;

	if (!pin_root)
		return false;
	n = name ? snprintf(buf, len, "%s/%llu/%s", pin_root,
			    (unsigned long long)ino, name) :
		   snprintf(buf, len, "%s/%llu", pin_root,
			    (unsigned long long)ino);
	return n > 0 && (size_t)n < len;
}

bool offload_pins_on(void)
{
	return pin_root != NULL;
}

int offload_pin(int fd, uint64_t ino, const char *name)
{
	char dir[PATH_MAX], path[PATH_MAX], tmp[2 * PATH_MAX];

	if (!pin_root)
		return 0;
	if (!pin_path(dir, sizeof(dir), ino, NULL) ||
	    !pin_path(path, sizeof(path), ino, name))
		return -ENAMETOOLONG;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	/* pin beside it, then rename over: the old pin (a grown map's
	 * predecessor) is replaced in one step (bpffs names have no dots) */
	snprintf(tmp, sizeof(tmp), "%s/tmp_%s", dir, name);
	unlink(tmp);
	if (bpf_obj_pin(fd, tmp))
		return -errno;
	if (rename(tmp, path)) {
		int err = -errno;

		unlink(tmp);
		return err;
	}
	return 0;
}

void offload_unpin(uint64_t ino, const char *name)
{
	char path[PATH_MAX];

	if (pin_path(path, sizeof(path), ino, name))
		unlink(path);
}

int offload_pin_get(uint64_t ino, const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (!pin_path(path, sizeof(path), ino, name))
		return -ENOENT;
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

int offload_pin_each(uint64_t ino, int (*fn)(void *arg, const char *name),
		     void *arg)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!pin_path(dir, sizeof(dir), ino, NULL))
		return 0;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.')
			ret = fn(arg, de->d_name);
	closedir(d);
	return ret;
}

/* remove @dir and the pins in it (flat: no subdirectories) */
static int rmdir_pins(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path) || unlink(path))
			ret = ret ?: -errno;
	}
	closedir(d);
	if (rmdir(dir))
		ret = ret ?: -errno;
	return ret;
}

int offload_pins_remove_ino(uint64_t ino)
{
	char dir[PATH_MAX];

	if (!pin_path(dir, sizeof(dir), ino, NULL))
		return 0;
	return rmdir_pins(dir);
}

void dataplane_net_unpin(struct net *net)
{
	offload_pins_remove_ino(net->ns_ino);
}

int dataplane_pins_flush(void)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!pin_root)
		return 0;
	d = opendir(pin_root);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(dir, sizeof(dir), "%s/%s", pin_root, de->d_name) >=
		    (int)sizeof(dir))
			continue;
		ret = ret ?: rmdir_pins(dir);
	}
	closedir(d);
	return ret;
}

/* the earlier nfbpfd's counter map while a restart rebuilds a model */
static struct {
	struct net *net;
	int counters_fd;
	int state_fd;
} restore = { NULL, -1, -1 };

int dataplane_restore_begin(struct net *net)
{
	int fd;

	dataplane_restore_end(restore.net);
	if (!pin_root)
		return -ENOENT;
	fd = offload_pin_get(net->ns_ino, "counters");
	if (fd < 0)
		return fd;
	restore.net = net;
	restore.counters_fd = fd;
	fd = offload_pin_get(net->ns_ino, "state");
	restore.state_fd = fd < 0 ? -1 : fd;
	return 0;
}

int dataplane_restore_word(struct net *net, uint32_t slot, uint64_t *val)
{
	if (net != restore.net || restore.state_fd < 0)
		return -ENOENT;
	if (bpf_map_lookup_elem(restore.state_fd, &slot, val))
		return -errno;
	return 0;
}

int dataplane_restore_counter(struct net *net, uint32_t slot,
			      uint64_t *packets, uint64_t *bytes)
{
	struct codegen_counter *v;
	int i, ncpus = libbpf_num_possible_cpus();

	if (net != restore.net || restore.counters_fd < 0 || ncpus <= 0)
		return -ENOENT;
	v = calloc(ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(restore.counters_fd, &slot, v)) {
		free(v);
		return -errno;
	}
	*packets = *bytes = 0;
	for (i = 0; i < ncpus; i++) {
		*packets += v[i].packets;
		*bytes += v[i].bytes;
	}
	free(v);
	return 0;
}

int dataplane_restore_set(struct net *net, uint32_t id, uint32_t klen,
			  int (*fn)(void *arg, const uint8_t *key,
				    uint64_t timeout_ms, uint64_t expires_ms),
			  void *arg)
{
	uint32_t w = (klen + 3) / 4, zero = 0, g, flags;
	uint8_t key[4 + SET_KLEN_MAX], next[4 + SET_KLEN_MAX];
	struct codegen_set_val val;
	unsigned int hz = dataplane_hz();
	uint64_t now, timeout;
	void *prev = NULL;
	char name[32];
	int fd, gfd, ret = 0;

	if (net != restore.net || !id || !w || w > SET_KEY_WORDS_MAX || !hz ||
	    dataplane_jiffies(&now))
		return -ENOENT;
	/* the generation the earlier nfbpfd's packets run */
	gfd = offload_pin_get(net->ns_ino, "gen");
	if (gfd < 0)
		return gfd;
	ret = bpf_map_lookup_elem(gfd, &zero, &g) ? -errno : 0;
	close(gfd);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "sethash_%u", w);
	fd = offload_pin_get(net->ns_ino, name);
	if (fd < 0)
		return fd;
	while (!ret && !bpf_map_get_next_key(fd, prev, next)) {
		const struct codegen_set_half *h;

		memcpy(key, next, 4 + 4 * w);
		prev = key;
		if (memcmp(key, &id, 4) || bpf_map_lookup_elem(fd, key, &val))
			continue;
		h = &val.half[g & 1];
		if (!h->valid || (h->expires && now >= h->expires))
			continue;
		/* an element with a ct count: its list is not carried, so it
		 * is as one whose list emptied (the set's gc takes it; the
		 * next packet of its key makes it anew, its list empty) */
		memcpy(&flags, val.half[0].data + SET_DATA_FLAGS, 4);
		if (flags & SET_STMTS_CONNLIMIT)
			continue;
		memcpy(&timeout, h->data, sizeof(timeout));
		ret = fn(arg, key + 4, timeout * 1000 / hz,
			 h->expires ? (h->expires - now) * 1000 / hz : 0);
	}
	close(fd);
	return ret;
}

void dataplane_restore_end(struct net *net)
{
	if (!net || net != restore.net)
		return;
	if (restore.counters_fd >= 0)
		close(restore.counters_fd);
	if (restore.state_fd >= 0)
		close(restore.state_fd);
	restore.net = NULL;
	restore.counters_fd = restore.state_fd = -1;
}

int dataplane_pins_each(int (*fn)(void *arg, uint64_t ino), void *arg)
{
	struct dirent *de;
	char *end;
	DIR *d;
	int ret = 0;

	if (!pin_root)
		return 0;
	d = opendir(pin_root);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (de = readdir(d))) {
		unsigned long long ino = strtoull(de->d_name, &end, 10);

		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !*end)
			ret = fn(arg, ino);
	}
	closedir(d);
	return ret;
}
