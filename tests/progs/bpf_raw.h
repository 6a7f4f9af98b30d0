/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF through the bare bpf() syscall (no libbpf), shared by
 * bpf_rawtp_count, bench_rawtp and the stress programs (tpst_stress.h):
 * instruction macros for hand-assembled programs, array maps, program
 * loading with a verifier log, BPF_RAW_TRACEPOINT_OPEN, and a program
 * that counts its runs in an array map slot.
 *
 * The helpers return what bpf() returns (an fd, 0, or -1 with errno) and
 * print nothing: each caller decides what a failure means.
 */
#ifndef BPF_RAW_H
#define BPF_RAW_H

#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define RSH64_IMM(d, i)		INSN(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define LDX(sz, d, s, o)	INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define ST_IMM(sz, d, o, i)	INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define ATOMIC_ADD64(d, s, o)	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JNE_IMM(d, i, o)	INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JNE_REG(d, s, o)	INSN(BPF_JMP | BPF_JNE | BPF_X, d, s, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* 64-bit immediate load of a map fd: two instructions */
#define LD_MAP_FD(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
	INSN(0, 0, 0, 0, 0)

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* An array map of @n values of @value_size bytes (u32 keys). */
static inline int bpf_raw_array_create(uint32_t value_size, uint32_t n)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = value_size;
	attr.max_entries = n;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static inline int bpf_raw_map_update(int map_fd, const void *key,
				     const void *value, uint64_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	attr.flags = flags;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
}

static inline int bpf_raw_map_lookup(int map_fd, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr);
}

/* The verifier log of the last bpf_raw_prog_load() (log level 1). */
static char bpf_raw_log[65536];

/* Print the verifier log to stderr; errno is left as it was. */
static inline void bpf_raw_print_log(void)
{
	int e = errno;

	fprintf(stderr, "verifier log:\n%s\n", bpf_raw_log);
	errno = e;
}

/*
 * Load @n instructions as a GPL program of @type with BPF_PROG_LOAD
 * @flags (e.g. BPF_F_SLEEPABLE), named @name if not NULL.
 */
static inline int bpf_raw_prog_load_flags(enum bpf_prog_type type,
					  const struct bpf_insn *insns,
					  uint32_t n, const char *name,
					  uint32_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = n;
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = flags;
	attr.log_buf = (uintptr_t)bpf_raw_log;
	attr.log_size = sizeof(bpf_raw_log);
	attr.log_level = 1;
	if (name)
		strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* Load @n instructions as a GPL program of @type, named @name if not NULL. */
static inline int bpf_raw_prog_load(enum bpf_prog_type type,
				    const struct bpf_insn *insns, uint32_t n,
				    const char *name)
{
	return bpf_raw_prog_load_flags(type, insns, n, name, 0);
}

/*
 * A program of @type (BPF_PROG_TYPE_RAW_TRACEPOINT or _TRACEPOINT) that
 * atomically adds 1 to the u64 at @key of array map @map_fd and returns 0
 * (it does not read its context): what bpftrace's "@ = count()" does.
 */
static inline int bpf_raw_count_prog_load(enum bpf_prog_type type, int map_fd,
					  uint32_t key, const char *name)
{
	struct bpf_insn prog[] = {
		ST_IMM(BPF_W, BPF_REG_10, -4, key),	/* key on the stack */
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),		/* no value: out */
		MOV64_IMM(BPF_REG_1, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0),	/* count++ */
		MOV64_IMM(BPF_REG_0, 0),		/* out: */
		EXIT(),
	};

	return bpf_raw_prog_load(type, prog, sizeof(prog) / sizeof(prog[0]),
				 name);
}

/*
 * A sleepable raw_tp program for sys_enter (follow-up patches 0015-0016):
 * adds 1 to the u64 at @key of array map @map_fd, and for openat() copies
 * 64 bytes of the path with bpf_copy_from_user(), faulting them in (a bad
 * or short path fails the copy, which is fine).
 */
static inline int bpf_raw_sleepable_copy_prog_load(int map_fd, uint32_t key)
{
	struct bpf_insn prog[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		ST_IMM(BPF_W, BPF_REG_10, -4, key),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),
		MOV64_IMM(BPF_REG_1, 1),
		ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0),
		LDX(BPF_DW, BPF_REG_7, BPF_REG_6, 8),		/* id */
		JNE_IMM(BPF_REG_7, 257, 11),			/* openat? */
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -16),
		MOV64_IMM(BPF_REG_2, 8),
		LDX(BPF_DW, BPF_REG_3, BPF_REG_6, 0),		/* regs */
		ADD64_IMM(BPF_REG_3, 104),			/* ->si */
		CALL(BPF_FUNC_probe_read_kernel),
		MOV64_REG(BPF_REG_1, BPF_REG_10),
		ADD64_IMM(BPF_REG_1, -80),
		MOV64_IMM(BPF_REG_2, 64),
		LDX(BPF_DW, BPF_REG_3, BPF_REG_10, -16),
		CALL(BPF_FUNC_copy_from_user),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	return bpf_raw_prog_load_flags(BPF_PROG_TYPE_RAW_TRACEPOINT, prog,
				       sizeof(prog) / sizeof(prog[0]), NULL,
				       BPF_F_SLEEPABLE);
}

/* The recursion_misses of program @prog_fd; 0 if it cannot be read. */
static inline uint64_t bpf_raw_prog_misses(int prog_fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return 0;
	return info.recursion_misses;
}

/* Attach @prog_fd to raw tracepoint @name: the link fd (close detaches). */
static inline int bpf_raw_tp_open(const char *name, int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

#endif /* BPF_RAW_H */
