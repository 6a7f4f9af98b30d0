// SPDX-License-Identifier: GPL-2.0
/*
 * faultsnoop - trace openat(), openat2() and execve() with the strings and
 * structures they point to, also where they live in user memory that is not
 * resident yet.
 *
 * A sleepable BPF program at the sys_enter tracepoint copies the path, the
 * struct open_how and the whole argv with bpf_copy_from_user() and the
 * bpf_copy_from_user_str() kfunc, which fault the pages in: what
 * opensnoop/execsnoop miss (an empty path or argv) when the page is not
 * resident at the call.  Needs a kernel whose sys_enter is a may-sleep
 * tracepoint that runs sleepable tp_btf programs (the sleepable
 * tracepoints follow-up series); elsewhere it says why and exits non-zero.
 *
 * One line per call:
 *   PID TID COMM CALL DETAILS
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "faultsnoop.h"
#include "faultsnoop.skel.h"

static volatile sig_atomic_t exiting;
static unsigned long long printed;

static struct {
	pid_t pid;
	int duration;
	long max_events;
	int verbose;
} env;

static const char usage[] =
"Usage: faultsnoop [-p PID] [-d SECONDS] [-n EVENTS] [-v]\n"
"Trace openat(), openat2() and execve() at sys_enter with a sleepable BPF\n"
"program that faults the user memory in: paths, struct open_how, argv.\n"
"  -p PID      trace this process only\n"
"  -d SECONDS  stop after SECONDS\n"
"  -n EVENTS   stop after EVENTS lines\n"
"  -v          print libbpf's messages (the verifier log on a load error)\n";

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (level == LIBBPF_DEBUG && env.verbose < 2)
		return 0;
	if (!env.verbose && level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

/* The string for printing: an error, or the string with escapes. */
static void put_str(const char *s, int ret)
{
	const unsigned char *p;

	if (ret < 0) {
		printf("<error %d>", ret);
		return;
	}
	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static int on_event(void *ctx, void *data, size_t size)
{
	const struct fs_event *e = data;
	unsigned int i;

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	printf("%-7u %-7u %-16.16s ", e->pid, e->tid, e->comm);
	switch (e->call) {
	case FS_OPENAT:
		printf("openat  dfd=%d flags=0x%llx mode=0%llo path=", e->dfd,
		       (unsigned long long)e->flags, (unsigned long long)e->mode);
		put_str(e->path, e->path_ret);
		break;
	case FS_OPENAT2:
		printf("openat2 dfd=%d ", e->dfd);
		if (e->how_ret)
			printf("how=<error %d> ", e->how_ret);
		else
			printf("flags=0x%llx mode=0%llo resolve=0x%llx ",
			       (unsigned long long)e->flags,
			       (unsigned long long)e->mode,
			       (unsigned long long)e->resolve);
		printf("path=");
		put_str(e->path, e->path_ret);
		break;
	case FS_EXECVE:
		printf("execve  path=");
		put_str(e->path, e->path_ret);
		printf(" argv=[");
		for (i = 0; i < e->argc && i < FS_MAX_ARGS; i++) {
			if (i)
				printf(", ");
			put_str(e->argv[i], 0);
		}
		if (e->argv_more)
			printf(", ...");
		if (e->argv_ret)
			printf("%s<error %d>", e->argc ? ", " : "", e->argv_ret);
		printf("]");
		break;
	default:
		printf("call %u", e->call);
	}
	putchar('\n');
	fflush(stdout);
	printed++;
	if (env.max_events && printed >= (unsigned long long)env.max_events)
		exiting = 1;
	return 0;
}

/*
 * Before loading anything: a kernel without the follow-up series would
 * refuse the program (no kfunc), or, a 6.1 kernel with the kfunc alone,
 * run a sleepable tp_btf program with preemption disabled.
 */
static int check_kernel(void)
{
	struct btf *vmlinux;
	int id;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "faultsnoop: this kernel has no BTF (/sys/kernel/btf/vmlinux: %s): it needs CONFIG_DEBUG_INFO_BTF\n",
			strerror(errno));
		return -1;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "faultsnoop: cannot read the kernel's BTF: %s\n",
			strerror(errno));
		return -1;
	}
	id = btf__find_by_name_kind(vmlinux, "bpf_copy_from_user_str",
				    BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (id < 0) {
		fprintf(stderr, "faultsnoop: this kernel cannot run sleepable programs at sys_enter: it has no bpf_copy_from_user_str() kfunc (it needs the sleepable tracepoints follow-up series: sys_enter as a may-sleep tracepoint, sleepable tp_btf programs on it)\n");
		return -1;
	}
	return 0;
}

static __u64 recursion_misses(int prog_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

int main(int argc, char **argv)
{
	struct faultsnoop_bpf *skel;
	struct ring_buffer *rb = NULL;
	time_t end = 0;
	__u64 drops = 0;
	__u32 zero = 0;
	int opt, err;

	while ((opt = getopt(argc, argv, "p:d:n:vh")) != -1) {
		switch (opt) {
		case 'p':
			env.pid = atoi(optarg);
			break;
		case 'd':
			env.duration = atoi(optarg);
			break;
		case 'n':
			env.max_events = atol(optarg);
			break;
		case 'v':
			env.verbose++;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	libbpf_set_print(libbpf_print);

	if (check_kernel())
		return 1;

	skel = faultsnoop_bpf__open();
	if (!skel) {
		fprintf(stderr, "faultsnoop: cannot open the BPF object: %s\n",
			strerror(errno));
		return 1;
	}
	skel->rodata->targ_tgid = env.pid;
	skel->rodata->self_tgid = getpid();
	/* libbpf 1.1 knows no "tp_btf.s/" section: set the flag here. */
	bpf_program__set_flags(skel->progs.sys_enter,
			       bpf_program__flags(skel->progs.sys_enter) |
			       BPF_F_SLEEPABLE);

	err = faultsnoop_bpf__load(skel);
	if (err) {
		fprintf(stderr, "faultsnoop: the kernel refused the sleepable program: %s%s\n",
			strerror(-err), env.verbose ? "" : " (-v shows the verifier log)");
		goto out;
	}
	err = faultsnoop_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "faultsnoop: cannot attach the sleepable program to sys_enter: %s (is sys_enter a may-sleep tracepoint here?)\n",
			strerror(-err));
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, NULL, NULL);
	if (!rb) {
		err = -errno;
		fprintf(stderr, "faultsnoop: ring buffer: %s\n", strerror(errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (env.duration)
		end = time(NULL) + env.duration;

	printf("%-7s %-7s %-16s %s\n", "PID", "TID", "COMM", "CALL    DETAILS");
	fflush(stdout);
	while (!exiting) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "faultsnoop: polling: %s\n", strerror(-err));
			goto out;
		}
		if (end && time(NULL) >= end)
			break;
	}
	/* what is left in the ring buffer */
	ring_buffer__consume(rb);
	err = 0;
	bpf_map_lookup_elem(bpf_map__fd(skel->maps.dropped), &zero, &drops);
	fprintf(stderr, "faultsnoop: %llu events, %llu dropped, %llu recursion misses\n",
		printed, (unsigned long long)drops,
		(unsigned long long)recursion_misses(bpf_program__fd(skel->progs.sys_enter)));
out:
	ring_buffer__free(rb);
	faultsnoop_bpf__destroy(skel);
	return err ? 1 : 0;
}
