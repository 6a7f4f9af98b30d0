/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF for the test programs: BPF C objects (tests/lib/bpf, tests/progs/bpf,
 * tests/bench/progs/bpf) built with clang, embedded with bpftool gen
 * skeleton and loaded with Debian's libbpf 1.1 (static), as
 * tools/testing/selftests/bpf does.  A check often wants one program of
 * an object, sleepable or not, on maps it made itself: bpft_load_one()
 * loads just that one and hands back its fd.
 *
 * libbpf's messages are kept, not printed: a load that a check expects to
 * fail would otherwise fill its output; bpft_print_log() prints them with
 * the verifier log when a failure is not expected.
 *
 * The helpers return an fd or 0, or a negative errno with errno set, as
 * libbpf 1.x does, and print nothing.
 */
#ifndef BPF_TEST_H
#define BPF_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "count.skel.h"

/* The verifier log of the last bpft_load_one() (log level 1). */
static char bpft_log[65536];
/* libbpf's messages (warnings and info) since the last bpft_load_one(). */
static char bpft_msgs[8192];

static int bpft_keep_msg(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	size_t len = strlen(bpft_msgs);

	if (level != LIBBPF_DEBUG && len < sizeof(bpft_msgs) - 1)
		vsnprintf(bpft_msgs + len, sizeof(bpft_msgs) - len, fmt, ap);
	return 0;
}

/* Print libbpf's messages and the verifier log to stderr; errno kept. */
static inline void bpft_print_log(void)
{
	int e = errno;

	fprintf(stderr, "libbpf:\n%sverifier log:\n%s\n", bpft_msgs, bpft_log);
	errno = e;
}

/*
 * Load program @name of @obj (opened from a skeleton, not loaded yet)
 * alone: the object's other programs are not loaded, @flags (e.g.
 * BPF_F_SLEEPABLE) are its BPF_PROG_LOAD flags, and each map @maps[i]
 * (NULL-terminated) is the caller's @fds[i] instead of a new one (a
 * negative fd: the object's own map).  libbpf takes the caller's map as
 * it is (type, sizes, max_entries: no compatibility check), so the
 * verifier checks the program against the real map.
 * Returns a new fd of the program (close-on-exec, as the kernel's), which
 * outlives the object (the caller destroys the skeleton), or -errno.
 */
static inline int bpft_load_one(struct bpf_object *obj, const char *name,
				uint32_t flags, const char *const *maps,
				const int *fds)
{
	struct bpf_program *prog, *p;
	libbpf_print_fn_t print;
	struct bpf_map *map;
	int err, i;

	bpft_log[0] = 0;
	bpft_msgs[0] = 0;
	prog = bpf_object__find_program_by_name(obj, name);
	if (!prog)
		return -(errno = ENOENT);
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	for (i = 0; maps && maps[i]; i++) {
		map = bpf_object__find_map_by_name(obj, maps[i]);
		if (!map)
			return -(errno = ENOENT);
		err = fds[i] < 0 ? 0 : bpf_map__reuse_fd(map, fds[i]);
		if (err)
			return -(errno = -err);
	}
	bpf_program__set_flags(prog, bpf_program__flags(prog) | flags);
	bpf_program__set_log_buf(prog, bpft_log, sizeof(bpft_log));
	bpf_program__set_log_level(prog, 1);
	print = libbpf_set_print(bpft_keep_msg);
	err = bpf_object__load(obj);
	libbpf_set_print(print);
	if (err)
		return -(errno = -err);
	err = fcntl(bpf_program__fd(prog), F_DUPFD_CLOEXEC, 3);
	return err < 0 ? -errno : err;
}

/* An array map of @n values of @value_size bytes (u32 keys). */
static inline int bpft_array_create(uint32_t value_size, uint32_t n)
{
	return bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, sizeof(uint32_t),
			      value_size, n, NULL);
}

/*
 * tests/lib/bpf/count.bpf.c's program @name, loaded with @flags, adding 1
 * to the u64 at @slot of array map @map_fd.
 */
static inline int bpft_count_prog_load(const char *name, uint32_t flags,
				       int map_fd, uint32_t slot)
{
	static const char *const maps[] = { "counts", NULL };
	struct count_bpf *skel = count_bpf__open();
	int fd;

	if (!skel)
		return -errno;
	skel->rodata->slot = slot;
	fd = bpft_load_one(skel->obj, name, flags, maps, &map_fd);
	count_bpf__destroy(skel);
	return fd < 0 ? -(errno = -fd) : fd;
}

/*
 * A counter of @type: count_raw_tp (BPF_PROG_TYPE_RAW_TRACEPOINT) or
 * count_tracepoint (BPF_PROG_TYPE_TRACEPOINT), what bpftrace's
 * "@ = count()" does.
 */
static inline int bpft_count_load(enum bpf_prog_type type, int map_fd,
				  uint32_t slot)
{
	return bpft_count_prog_load(type == BPF_PROG_TYPE_TRACEPOINT ?
				    "count_tracepoint" : "count_raw_tp", 0,
				    map_fd, slot);
}

/*
 * count_copy: a sleepable raw_tp program for sys_enter that counts and
 * copies openat()'s path with bpf_copy_from_user(), faulting it in.
 */
static inline int bpft_count_copy_load(int map_fd, uint32_t slot)
{
	return bpft_count_prog_load("count_copy", BPF_F_SLEEPABLE, map_fd, slot);
}

/* The recursion_misses of program @prog_fd; 0 if it cannot be read. */
static inline uint64_t bpft_prog_misses(int prog_fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

#endif /* BPF_TEST_H */
