/* SPDX-License-Identifier: GPL-2.0 */
/* faultsnoop: the record a sleepable program sends for each traced call. */
#ifndef FAULTSNOOP_H
#define FAULTSNOOP_H

#define FS_TASK_COMM_LEN	16
#define FS_PATH_LEN		256
#define FS_MAX_ARGS		16
#define FS_ARG_LEN		128

enum fs_call {
	FS_OPENAT = 1,
	FS_OPENAT2 = 2,
	FS_EXECVE = 3,
};

struct fs_event {
	__u32 pid;		/* thread group */
	__u32 tid;
	__u32 call;		/* enum fs_call */
	__s32 dfd;
	/* bpf_copy_from_user_str() of the path: length with the NUL, or -errno */
	__s32 path_ret;
	/* openat2: bpf_copy_from_user() of struct open_how; argv: the count */
	__s32 how_ret;
	__u32 argc;		/* argv strings copied */
	__u32 argv_more;	/* argv has more than FS_MAX_ARGS entries */
	__s32 argv_ret;		/* first error reading argv, 0 if none */
	__u32 pad;
	__u64 flags;		/* openat flags, or open_how.flags */
	__u64 mode;
	__u64 resolve;		/* open_how.resolve */
	char comm[FS_TASK_COMM_LEN];
	char path[FS_PATH_LEN];
	char argv[FS_MAX_ARGS][FS_ARG_LEN];
};

#endif /* FAULTSNOOP_H */
