/*
 * Stand-in for the kernel's <linux/types.h>, for bpftrace without BTF:
 * the guests copy it to DIR/linux/types.h and pass -I DIR (bt_types_h in
 * tests/bench/lib.sh and tests/guest/checks/30-bpftrace.sh).  It lands in
 * both guests as /tests/bench/bpftrace-types.h: scripts/initramfs.sh packs
 * tests/bench/, and scripts/bench.sh's overlay copies tests/bench/* again.
 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
typedef signed char s8, __s8;
typedef unsigned char u8, __u8;
typedef short s16, __s16;
typedef unsigned short u16, __u16;
typedef int s32, __s32;
typedef unsigned int u32, __u32;
typedef long long s64, __s64;
typedef unsigned long long u64, __u64;
typedef unsigned short umode_t;
typedef int pid_t;
typedef unsigned int uid_t, gid_t;
#endif
