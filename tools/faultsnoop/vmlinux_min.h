/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types faultsnoop.bpf.c reads, for CO-RE: libbpf relocates
 * each field access against the running kernel's BTF, so only the names
 * matter here, not the layout (as with a vmlinux.h from bpftool, without
 * tying the build to one kernel's BTF).
 */
#ifndef VMLINUX_MIN_H
#define VMLINUX_MIN_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;

enum {
	false = 0,
	true = 1,
};

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PROG_ARRAY = 3,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
};

/*
 * Per target architecture (-D__TARGET_ARCH_x86 or _arm64, as libbpf's
 * bpf_tracing.h): the registers of a system call's struct pt_regs, the
 * system call numbers the programs compare sys_enter's id with, and
 * SC_ARGn(regs), the n-th argument of the call as sys_enter's probes see
 * it (BPF_CORE_READ(): the includer has bpf/bpf_core_read.h).
 */
#if defined(__TARGET_ARCH_x86)
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
} __attribute__((preserve_access_index));

#define NR_execve	59
#define NR_getppid	110
#define NR_openat	257
#define NR_openat2	437
#define SC_ARG0(regs)	BPF_CORE_READ(regs, di)
#define SC_ARG1(regs)	BPF_CORE_READ(regs, si)
#define SC_ARG2(regs)	BPF_CORE_READ(regs, dx)
#define SC_ARG3(regs)	BPF_CORE_READ(regs, r10)
#elif defined(__TARGET_ARCH_arm64)
/* regs[] and sp..pstate are an anonymous struct in a union there */
struct pt_regs {
	__u64 regs[31];
	__u64 sp, pc, pstate;
	__u64 orig_x0;
} __attribute__((preserve_access_index));

#define NR_openat	56
#define NR_getppid	173
#define NR_execve	221
#define NR_openat2	437
/* x0 is the return value after the call: the first argument is orig_x0 */
#define SC_ARG0(regs)	BPF_CORE_READ(regs, orig_x0)
#define SC_ARG1(regs)	BPF_CORE_READ(regs, regs[1])
#define SC_ARG2(regs)	BPF_CORE_READ(regs, regs[2])
#define SC_ARG3(regs)	BPF_CORE_READ(regs, regs[3])
#else
#error "vmlinux_min.h: -D__TARGET_ARCH_x86 or -D__TARGET_ARCH_arm64"
#endif

struct open_how {
	__u64 flags;
	__u64 mode;
	__u64 resolve;
};

#endif /* VMLINUX_MIN_H */
