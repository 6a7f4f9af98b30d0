/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the stress programs (tpst_storm, tpst_uffd,
 * tpst_badptr, tpst_priv), on top of tpst_common.h: the control file of
 * tpsleep_stress.ko, tracefs event ids, perf_event_open() and a counting
 * BPF program (tests/lib/bpf/count.bpf.c, loaded through bpf_test.h).
 */
#ifndef TPST_STRESS_H
#define TPST_STRESS_H

#include "tpst_common.h"
#include "bpf_test.h"
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/syscall.h>

#define TPSS_CTL "/proc/tpsleep_stress"
#define TRACEFS "/sys/kernel/tracing"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Flags shared between threads: set once, polled by another thread. */
static inline int flag_get(int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

static inline void flag_set(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

/* Sleep @ms milliseconds, across signals. */
static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline int tpss_open(void)
{
	return tpst_open_ctl(TPSS_CTL);
}

/* Write a command and read its result into @buf; -errno or 0. */
static inline int __attribute__((format(printf, 4, 5)))
tpss_do(int fd, char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tpst_vcmd(fd, fmt, ap);
	va_end(ap);
	if (n) {
		snprintf(buf, size, "error=%d\n", n);
		printf("< %s", buf);
		fflush(stdout);
		return n;
	}
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		tpst_die("read " TPSS_CTL);
	buf[n] = '\0';
	printf("< %s%s", buf, n && buf[n - 1] == '\n' ? "" : "\n");
	fflush(stdout);
	return 0;
}

/* The id of tracefs event SYS/NAME, or -1. */
static inline long tpss_event_id(const char *sys, const char *name)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sys, name);
	if (tpst_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static inline int tpss_perf_open(struct perf_event_attr *attr, pid_t pid,
				 int cpu)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* A counting tracepoint event: @id from tracefs. */
static inline void tpss_perf_attr(struct perf_event_attr *attr, long id)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
}

/* An array map of @n u64 counters; -errno (errno set) on failure. */
static inline int tpss_map_create(unsigned int n)
{
	return bpft_array_create(sizeof(uint64_t), n);
}

static inline uint64_t tpss_map_get(int map_fd, uint32_t key)
{
	uint64_t val = 0;

	if (bpf_map_lookup_elem(map_fd, &key, &val))
		return 0;
	return val;
}

/*
 * A program of @type (BPF_PROG_TYPE_RAW_TRACEPOINT or _TRACEPOINT) that
 * adds 1 to counter @key of @map_fd and returns 0 (does not read its
 * context).  -errno (errno set) on failure; the verifier log goes to stderr
 * unless the failure is EPERM or EACCES.
 */
static inline int tpss_prog_load(enum bpf_prog_type type, int map_fd,
				 uint32_t key)
{
	int fd = bpft_count_load(type, map_fd, key);

	if (fd < 0 && errno != EPERM && errno != EACCES)
		bpft_print_log();
	return fd;
}

/* Write @val to tracefs file @rel; 0 or -errno. */
static inline int tpss_tracefs_write(const char *rel, const char *val)
{
	char path[256];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

#endif /* TPST_STRESS_H */
