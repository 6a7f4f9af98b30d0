// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_priv UID: what an unprivileged user may do with the tracers.
 *
 * Run as root: reads the tracepoint ids it needs from tracefs, loads a
 * BPF_PROG_TYPE_RAW_TRACEPOINT and a BPF_PROG_TYPE_TRACEPOINT program (as
 * root, so that their fds can be tried by the unprivileged user), then
 * drops to UID:UID with no supplementary group and no capability
 * (setgroups, setresgid, setresuid; checked in /proc/self/status) and
 * tries each of:
 *
 *   tracefs.*   open tracefs event enable files for writing, the tracefs
 *               root directory
 *   perf.*      perf_event_open() of tracepoint events: per task with and
 *               without exclude_kernel, with raw samples, per CPU; the
 *               syscalls:sys_enter_openat event; PERF_EVENT_IOC_SET_BPF
 *               with root's program on the event the user could open
 *   bpf.*       BPF_PROG_LOAD of raw_tp and tracepoint programs,
 *               BPF_RAW_TRACEPOINT_OPEN with root's program
 *   uffd.*      userfaultfd() handling kernel faults, with
 *               UFFD_USER_MODE_ONLY, /dev/userfaultfd
 *   module.*    the test modules' control files, finit_module()
 *
 * Each prints "diag priv NAME errno=E" (E is 0 on success) and a check
 * that E is the expected value, which is the same on every kernel of the
 * series: the comparison between kernels is done by scripts/stress.sh.
 * Expected (6.1 defaults: tracefs mode 0700, perf_event_paranoid 2,
 * unprivileged_bpf_disabled 2, unprivileged_userfaultfd 0):
 *   EACCES  tracefs files and directory; perf events that include the
 *           kernel (perf_allow_kernel) or are per CPU (perf_allow_cpu);
 *           /dev/userfaultfd (0600) and the modules' control files (0600)
 *   EPERM   BPF_PROG_LOAD, BPF_MAP_CREATE; userfaultfd() handling kernel
 *           faults; finit_module()
 *   0       per-task, exclude_kernel counting or raw sampling of
 *           raw_syscalls:sys_enter and syscalls:sys_enter_openat (syscall
 *           events are TRACE_EVENT_FL_CAP_ANY): an unprivileged user does
 *           attach a perf probe to sys_enter, may-sleep or not; with a
 *           program fd that root handed over, PERF_EVENT_IOC_SET_BPF and
 *           BPF_RAW_TRACEPOINT_OPEN (no capability check of their own);
 *           userfaultfd(UFFD_USER_MODE_ONLY), whose faults from kernel mode
 *           (a probe's copy_from_user()) fail at once instead of blocking
 */
#include "tpst_stress.h"
#include <grp.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBADF: return "EBADF";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(e);
	}
}

/* Record an attempt: @r < 0 means failure with errno. */
static void attempt(const char *name, long r, int want)
{
	int e = r < 0 ? errno : 0;

	printf("diag priv %s errno=%s\n", name, errname(e));
	tpst_check(name, e == want, "errno %s, want %s", errname(e),
		   errname(want));
}

static int open_close(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd;
}

static void show_creds(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int capok = 0;

	if (!f)
		tpst_die("/proc/self/status");
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4) ||
		    !strncmp(line, "Groups:", 7) || !strncmp(line, "Cap", 3))
			printf("  %s", line);
		if (!strcmp(line, "CapEff:\t0000000000000000\n") ||
		    !strcmp(line, "CapPrm:\t0000000000000000\n"))
			capok++;
	}
	fclose(f);
	tpst_check("dropped", capok == 2 && getuid() != 0 && geteuid() != 0 &&
		   getgid() != 0, "uid %d euid %d gid %d, CapEff/CapPrm zero: %d of 2",
		   getuid(), geteuid(), getgid(), capok);
}

/*
 * BPF_PROG_LOAD of "r0 = 0; exit" as a program of @type: the one load the
 * kernel refuses or not.  Two raw instructions on purpose: libbpf's
 * object load would first try programs of its own (feature probes), and
 * the refusal seen would be theirs, whatever @type.
 */
static int bare_prog_load(enum bpf_prog_type type)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, NULL, "GPL", ret0, 2, NULL);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long id_enter, id_openat;
	int uid, map_fd, rawtp_prog, tp_prog, fd, ufd, mfd;
	uint64_t count = 0;

	uid = argc == 2 ? atoi(argv[1]) : 0;
	if (uid <= 0) {
		fprintf(stderr, "usage: tpst_priv UID (run as root)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		fprintf(stderr, "tpst_priv: must start as root\n");
		return 2;
	}
	id_enter = tpss_event_id("raw_syscalls", "sys_enter");
	id_openat = tpss_event_id("syscalls", "sys_enter_openat");
	if (id_enter < 0 || id_openat < 0)
		tpst_die("tracefs event ids");
	map_fd = tpss_map_create(2);
	if (map_fd < 0)
		tpst_die("BPF_MAP_CREATE");
	rawtp_prog = tpss_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, map_fd, 0);
	tp_prog = tpss_prog_load(BPF_PROG_TYPE_TRACEPOINT, map_fd, 1);
	if (rawtp_prog < 0 || tp_prog < 0)
		tpst_die("BPF_PROG_LOAD as root");
	mfd = open("/tests/modules/tpsleep_custom.ko", O_RDONLY | O_CLOEXEC);

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		tpst_die("drop privileges");
	show_creds();

	attempt("tracefs.raw_syscalls_enable",
		open_close(TRACEFS "/events/raw_syscalls/sys_enter/enable", O_WRONLY),
		EACCES);
	attempt("tracefs.syscalls_enable",
		open_close(TRACEFS "/events/syscalls/sys_enter_openat/enable", O_WRONLY),
		EACCES);
	attempt("tracefs.root_dir", open_close(TRACEFS, O_RDONLY | O_DIRECTORY),
		EACCES);

	/* Counting, per task, kernel included: perf_event_paranoid 2. */
	tpss_perf_attr(&attr, id_enter);
	fd = tpss_perf_open(&attr, 0, -1);
	attempt("perf.tp_task", fd, EACCES);
	if (fd >= 0)
		close(fd);
	/* Per CPU, user only. */
	attr.exclude_kernel = 1;
	fd = tpss_perf_open(&attr, -1, 0);
	attempt("perf.tp_cpu", fd, EACCES);
	if (fd >= 0)
		close(fd);
	/* Per task, user only: the syscall events are TRACE_EVENT_FL_CAP_ANY. */
	fd = tpss_perf_open(&attr, 0, -1);
	attempt("perf.tp_task_user", fd, 0);
	if (fd >= 0) {
		int i;

		for (i = 0; i < 10; i++)
			syscall(SYS_getppid);
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			count = 0;
		printf("  raw_syscalls:sys_enter counted %llu of this task's system calls\n",
		       (unsigned long long)count);
		/* root's program on the user's event */
		attempt("perf.set_bpf_root_prog",
			ioctl(fd, PERF_EVENT_IOC_SET_BPF, tp_prog), 0);
		close(fd);
	} else {
		attempt("perf.set_bpf_root_prog", -1, 0);
	}
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	fd = tpss_perf_open(&attr, 0, -1);
	attempt("perf.tp_task_user_raw", fd, 0);
	if (fd >= 0)
		close(fd);
	tpss_perf_attr(&attr, id_openat);
	attr.exclude_kernel = 1;
	fd = tpss_perf_open(&attr, 0, -1);
	attempt("perf.syscall_tp_task_user", fd, 0);
	if (fd >= 0)
		close(fd);

	fd = bare_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT);
	attempt("bpf.prog_load_raw_tp", fd, EPERM);
	if (fd >= 0)
		close(fd);
	fd = bare_prog_load(BPF_PROG_TYPE_TRACEPOINT);
	attempt("bpf.prog_load_tracepoint", fd, EPERM);
	if (fd >= 0)
		close(fd);
	/*
	 * unprivileged_bpf_disabled only gates BPF_PROG_LOAD and
	 * BPF_MAP_CREATE: with root's program fd, the raw tracepoint attach
	 * has no capability check of its own.
	 */
	fd = bpf_raw_tracepoint_open("sys_enter", rawtp_prog);
	attempt("bpf.raw_tp_open_root_prog", fd, 0);
	if (fd >= 0)
		close(fd);
	fd = bpft_array_create(sizeof(uint64_t), 1);
	attempt("bpf.map_create", fd, EPERM);
	if (fd >= 0)
		close(fd);

	ufd = syscall(SYS_userfaultfd, O_CLOEXEC);
	attempt("uffd.kernel_faults", ufd, EPERM);
	if (ufd >= 0)
		close(ufd);
	ufd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	attempt("uffd.user_mode_only", ufd, 0);
	if (ufd >= 0)
		close(ufd);
	attempt("uffd.dev", open_close("/dev/userfaultfd", O_RDWR), EACCES);

	attempt("module.stress_ctl", open_close(TPSS_CTL, O_RDWR), EACCES);
	attempt("module.test_ctl", open_close(TPST_CTL, O_RDWR), EACCES);
	attempt("module.finit_module",
		mfd < 0 ? -1 : syscall(SYS_finit_module, mfd, "", 0), EPERM);
	return tpst_failed;
}
