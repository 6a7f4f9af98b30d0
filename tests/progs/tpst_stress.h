/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the stress programs (tpst_storm, tpst_uffd,
 * tpst_badptr, tpst_priv), on top of tpst_common.h: the control file of
 * tpsleep_stress.ko, tracefs event ids, perf_event_open() and a counting
 * BPF program loaded through the bare bpf() syscall (no libbpf).
 */
#ifndef TPST_STRESS_H
#define TPST_STRESS_H

#include "tpst_common.h"
#include <linux/bpf.h>
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

static inline int tpss_open(void)
{
	int fd = open(TPSS_CTL, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		tpst_die("open " TPSS_CTL);
	return fd;
}

/* Write a command and read its result into @buf; -errno or 0. */
static inline int tpss_do(int fd, char *buf, size_t size, const char *fmt, ...)
{
	char cmd[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd)) {
		fprintf(stderr, "command too long\n");
		exit(2);
	}
	if (write(fd, cmd, n) != n) {
		n = -errno;
		snprintf(buf, size, "error=%d\n", n);
		printf("> %s\n< %s", cmd, buf);
		fflush(stdout);
		return n;
	}
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		tpst_die("read " TPSS_CTL);
	buf[n] = '\0';
	printf("> %s\n< %s%s", cmd, buf, n && buf[n - 1] == '\n' ? "" : "\n");
	fflush(stdout);
	return 0;
}

/* The id of tracefs event SYS/NAME, or -1. */
static inline long tpss_event_id(const char *sys, const char *name)
{
	char path[256], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sys, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
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

static inline long tpss_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

#define TPSS_INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

/* An array map of @n u64 counters; -1 with errno on failure. */
static inline int tpss_map_create(unsigned int n)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint64_t);
	attr.max_entries = n;
	return tpss_bpf(BPF_MAP_CREATE, &attr);
}

static inline uint64_t tpss_map_get(int map_fd, uint32_t key)
{
	union bpf_attr attr;
	uint64_t val = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&val;
	if (tpss_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return 0;
	return val;
}

/*
 * A program of @type (BPF_PROG_TYPE_RAW_TRACEPOINT or _TRACEPOINT) that
 * adds 1 to counter @key of @map_fd and returns 0 (does not read its
 * context).  -1 with errno on failure; the verifier log goes to stderr.
 */
static inline int tpss_prog_load(enum bpf_prog_type type, int map_fd,
				 uint32_t key)
{
	struct bpf_insn prog[] = {
		/* *(u32 *)(r10 - 4) = key */
		TPSS_INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, key),
		/* r1 = map (two instructions) */
		TPSS_INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
			  BPF_PSEUDO_MAP_FD, 0, map_fd),
		TPSS_INSN(0, 0, 0, 0, 0),
		/* r2 = r10 - 4 */
		TPSS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		TPSS_INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		TPSS_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		/* if (!r0) goto out */
		TPSS_INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		TPSS_INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		/* lock *(u64 *)(r0 + 0) += r1 */
		TPSS_INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
			  BPF_ADD),
		/* out: return 0 */
		TPSS_INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		TPSS_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static char log[16384];
	union bpf_attr attr;
	int fd, e;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = ARRAY_SIZE(prog);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = tpss_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		e = errno;
		if (e != EPERM && e != EACCES)
			fprintf(stderr, "verifier log:\n%s\n", log);
		errno = e;
	}
	return fd;
}

/* Attach @prog_fd to raw tracepoint @name: the link fd, or -1. */
static inline int tpss_rawtp_open(const char *name, int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return tpss_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
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
