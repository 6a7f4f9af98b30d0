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
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
};

struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
} __attribute__((preserve_access_index));

struct open_how {
	__u64 flags;
	__u64 mode;
	__u64 resolve;
};

#endif /* VMLINUX_MIN_H */
