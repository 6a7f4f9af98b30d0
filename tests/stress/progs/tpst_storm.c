// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_storm SECS FTRACE PERF PERFBPF RAWTP MODCYCLES MODMODE judge|reference
 *
 * Attach/detach storm on the system call tracepoints while NR_LOAD
 * threads hammer system calls with user pointers (openat() and
 * newfstatat() of paths, getppid(), read()).  Concurrently, each tracer
 * does its number of attach/detach cycles (or stops at the SECS deadline):
 *
 *   ftrace   FTRACE cycles: write 1 then 0 to the enable file of one of
 *            raw_syscalls/sys_enter, raw_syscalls/sys_exit,
 *            syscalls/sys_enter_openat, syscalls/sys_exit_newfstatat
 *            (in turn)
 *   perf     PERF cycles: perf_event_open() a counting event on
 *            raw_syscalls:sys_enter or syscalls:sys_enter_openat (in
 *            turn), system wide on each online CPU in turn, read it, close
 *   perfbpf  PERFBPF cycles: the same with a BPF_PROG_TYPE_TRACEPOINT
 *            program attached (PERF_EVENT_IOC_SET_BPF) that counts its runs
 *   rawtp    RAWTP cycles, split between four threads with a program of
 *            their own (distinct probe data): BPF_RAW_TRACEPOINT_OPEN of
 *            sys_enter (and, every fourth cycle, sys_exit), close; with
 *            TPST_SLEEPABLE=1 in the environment (a kernel with the
 *            follow-up's sleepable programs) the programs of threads 0
 *            and 1 are sleepable and fault in 64 bytes of each openat()
 *            path (bpf_copy_from_user()); their recursion misses are
 *            reported
 *   module   MODCYCLES cycles of tpsleep_test's "transitions MODMODE"
 *            (/proc/tpsleep_test): two probes whose data are distinct
 *            cookies go {A}->{A,B}->{B}->{}->{A}, 2 attach/detach cycles
 *            each; sleepable probes on sys_enter ("sleepy") or normal
 *            probes on sched_switch ("normal"); "none" skips it
 *
 * Checks ("check NAME ok|fail WHY"):
 *   load      every load thread made calls, all with the expected result
 *   ftrace, perf, perfbpf, rawtp, module
 *             no error, and all cycles done or, if the deadline stopped
 *             the tracer, at least a quarter of them; perf: the events
 *             counted something; perfbpf, rawtp: the programs ran
 *   sleepable (TPST_SLEEPABLE=1) the sleepable programs ran, with no
 *             recursion miss; skipped otherwise
 *   cookies   (module) no probe was ever called with the other's data, and
 *             sleepable probes always ran preemptible
 *   total     at least 10000 attach/detach cycles in all
 * "reference" (the kernel without the series, for comparison) judges
 * errors, cookies and that every tracer ran, not the counts: its
 * tracepoint_synchronize_unregister() waits for SRCU and RCU under
 * event_mutex and its rate is what it is; "check total skip" then reports
 * the count.  Prints "storm NAME key=value..." lines with the counts.
 */
#include "tpst_stress.h"
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#define NR_LOAD		4
#define NR_RAWTP	4
#define MIN_TOTAL	10000

static int stop_load;
static int judge_counts;
static long long deadline_ns;
static char modmode[16];

struct tracer {
	const char *name;
	long target;
	long cycles;
	long errors;
	int first_errno;
	const char *first_what;
	long long ms;
	uint64_t counted;	/* perf counts, BPF runs */
	int key;		/* BPF counter of this thread */
	int prog_fd;
	pthread_t thread;
};

static struct tracer t_ftrace = { .name = "ftrace" };
static struct tracer t_perf = { .name = "perf" };
static struct tracer t_perfbpf = { .name = "perfbpf", .key = 0 };
static struct tracer t_rawtp[NR_RAWTP] = {
	{ .name = "rawtp", .key = 1 }, { .name = "rawtp", .key = 2 },
	{ .name = "rawtp", .key = 3 }, { .name = "rawtp", .key = 4 },
};
static int map_fd = -1;
static long ev_raw_enter, ev_openat;
static long ncpus = 1;

static void tr_error(struct tracer *t, const char *what, int e)
{
	if (!t->errors++) {
		t->first_errno = e;
		t->first_what = what;
	}
}

static int tr_go_on(struct tracer *t)
{
	return t->cycles < t->target && tpst_now_ns() < deadline_ns;
}

/* ---- load ---- */

struct load {
	pthread_t thread;
	long calls;
	long errors;
};

static struct load load[NR_LOAD];

static void *load_thread(void *arg)
{
	struct load *l = arg;
	char buf[256];
	struct stat st;
	int fd;

	while (!flag_get(&stop_load)) {
		if (syscall(SYS_openat, AT_FDCWD, "/tmp/tpst-storm-nonexistent",
			    O_RDONLY) != -1 || errno != ENOENT)
			l->errors++;
		if (syscall(SYS_newfstatat, AT_FDCWD, "/tests", &st, 0))
			l->errors++;
		syscall(SYS_getppid);
		fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/stat",
			     O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			l->errors++;
		} else {
			if (read(fd, buf, sizeof(buf)) <= 0)
				l->errors++;
			close(fd);
		}
		l->calls += 5;
	}
	return NULL;
}

/* ---- ftrace ---- */

static const char * const ftrace_events[] = {
	"events/raw_syscalls/sys_enter/enable",
	"events/raw_syscalls/sys_exit/enable",
	"events/syscalls/sys_enter_openat/enable",
	"events/syscalls/sys_exit_newfstatat/enable",
};

static void *ftrace_thread(void *arg)
{
	struct tracer *t = arg;
	long long t0 = tpst_now_ns();
	const char *ev;
	int r;

	while (tr_go_on(t)) {
		ev = ftrace_events[t->cycles % 4];
		r = tpss_tracefs_write(ev, "1");
		if (r)
			tr_error(t, ev, -r);
		r = tpss_tracefs_write(ev, "0");
		if (r)
			tr_error(t, ev, -r);
		t->cycles++;
	}
	t->ms = (tpst_now_ns() - t0) / 1000000;
	return NULL;
}

/* ---- perf, with or without BPF ---- */

static void *perf_thread(void *arg)
{
	struct tracer *t = arg;
	long long t0 = tpst_now_ns();
	struct perf_event_attr attr;
	uint64_t count;
	int fd;

	static const char * const what[2] = {
		"perf_event_open raw_syscalls:sys_enter",
		"perf_event_open syscalls:sys_enter_openat",
	};

	while (tr_go_on(t)) {
		tpss_perf_attr(&attr, t->cycles & 1 ? ev_openat : ev_raw_enter);
		fd = tpss_perf_open(&attr, -1, (t->cycles >> 1) % ncpus);
		if (fd < 0) {
			tr_error(t, what[t->cycles & 1], errno);
		} else {
			if (t->prog_fd >= 0 &&
			    ioctl(fd, PERF_EVENT_IOC_SET_BPF, t->prog_fd))
				tr_error(t, "PERF_EVENT_IOC_SET_BPF", errno);
			if (read(fd, &count, sizeof(count)) != sizeof(count))
				tr_error(t, "read", errno);
			else
				t->counted += count;
			close(fd);
		}
		t->cycles++;
	}
	t->ms = (tpst_now_ns() - t0) / 1000000;
	return NULL;
}

/* ---- BPF raw tracepoints ---- */

static void *rawtp_thread(void *arg)
{
	struct tracer *t = arg;
	long long t0 = tpst_now_ns();
	const char *tp;
	int fd;

	while (tr_go_on(t)) {
		tp = (t->cycles & 3) == 3 ? "sys_exit" : "sys_enter";
		fd = bpf_raw_tracepoint_open(tp, t->prog_fd);
		if (fd < 0)
			tr_error(t, "BPF_RAW_TRACEPOINT_OPEN", errno);
		else
			close(fd);
		t->cycles++;
	}
	t->ms = (tpst_now_ns() - t0) / 1000000;
	return NULL;
}

/* ---- the test module's transitions ---- */

static long mod_target, mod_secs;
static char mod_result[4096];
static int mod_rc;
static long long mod_ms;

static void *module_thread(void *arg)
{
	long long t0 = tpst_now_ns();
	int fd;

	(void)arg;
	fd = open(TPST_CTL, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		mod_rc = -errno;
		return NULL;
	}
	mod_rc = tpst_cmd(fd, "transitions %s %ld %ld", modmode, mod_target,
			  mod_secs);
	if (!mod_rc)
		tpst_result(fd, mod_result, sizeof(mod_result));
	close(fd);
	mod_ms = (tpst_now_ns() - t0) / 1000000;
	return NULL;
}

static void report(struct tracer *t, int ok_count)
{
	/* The deadline may stop a tracer early: then a quarter will do. */
	int ok = (!judge_counts || 4 * t->cycles >= t->target) &&
		 t->cycles > 0 && !t->errors && ok_count;

	printf("storm %s cycles=%ld target=%ld errors=%ld counted=%llu ms=%lld",
	       t->name, t->cycles, t->target, t->errors,
	       (unsigned long long)t->counted, t->ms);
	if (t->errors)
		printf(" first_error=%s:%s", t->first_what,
		       strerror(t->first_errno));
	printf("\n");
	tpst_check(t->name, ok,
		   "%ld of %ld cycles in %lld ms, %ld errors (first: %s: %s), counted %llu",
		   t->cycles, t->target, t->ms, t->errors,
		   t->errors ? t->first_what : "-",
		   t->errors ? strerror(t->first_errno) : "-",
		   (unsigned long long)t->counted);
}

int main(int argc, char **argv)
{
	long secs, total = 0, calls = 0, lerr = 0;
	struct tracer rawtp_all = { .name = "rawtp" };
	long long mod_cyc = 0;
	pthread_t mod_thread;
	int i, mod_on, sleepable;

	if (argc != 9 || (strcmp(argv[8], "judge") && strcmp(argv[8], "reference"))) {
		fprintf(stderr, "usage: tpst_storm SECS FTRACE PERF PERFBPF RAWTP MODCYCLES sleepy|normal|none judge|reference\n");
		return 2;
	}
	judge_counts = !strcmp(argv[8], "judge");
	setvbuf(stdout, NULL, _IOLBF, 0);
	secs = strtol(argv[1], NULL, 10);
	t_ftrace.target = strtol(argv[2], NULL, 10);
	t_perf.target = strtol(argv[3], NULL, 10);
	t_perfbpf.target = strtol(argv[4], NULL, 10);
	for (i = 0; i < NR_RAWTP; i++)
		t_rawtp[i].target = strtol(argv[5], NULL, 10) / NR_RAWTP;
	mod_target = strtol(argv[6], NULL, 10);
	snprintf(modmode, sizeof(modmode), "%s", argv[7]);
	mod_on = strcmp(modmode, "none") != 0;
	mod_secs = secs;

	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	ev_raw_enter = tpss_event_id("raw_syscalls", "sys_enter");
	ev_openat = tpss_event_id("syscalls", "sys_enter_openat");
	if (ev_raw_enter < 0 || ev_openat < 0)
		tpst_die("tracefs event ids");
	map_fd = tpss_map_create(1 + NR_RAWTP);
	if (map_fd < 0)
		tpst_die("BPF_MAP_CREATE");
	t_perf.prog_fd = -1;
	t_perfbpf.prog_fd = tpss_prog_load(BPF_PROG_TYPE_TRACEPOINT, map_fd,
					   t_perfbpf.key);
	if (t_perfbpf.prog_fd < 0)
		tpst_die("BPF_PROG_LOAD tracepoint");
	sleepable = getenv("TPST_SLEEPABLE") && !strcmp(getenv("TPST_SLEEPABLE"), "1");
	for (i = 0; i < NR_RAWTP; i++) {
		if (sleepable && i < 2) {
			t_rawtp[i].prog_fd =
				bpft_count_copy_load(map_fd, t_rawtp[i].key);
			if (t_rawtp[i].prog_fd < 0)
				bpft_print_log();
		} else {
			t_rawtp[i].prog_fd = tpss_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT,
							    map_fd, t_rawtp[i].key);
		}
		if (t_rawtp[i].prog_fd < 0)
			tpst_die("BPF_PROG_LOAD raw_tracepoint");
	}
	tpss_tracefs_write("buffer_size_kb", "256");

	printf("storm: %ld CPUs online, %d load threads; for at most %ld s: ftrace %ld, perf %ld, perf+bpf %ld, raw_tp %ld (%d threads), module %s %ld (x2) attach/detach cycles\n",
	       ncpus, NR_LOAD, secs, t_ftrace.target, t_perf.target, t_perfbpf.target,
	       t_rawtp[0].target * NR_RAWTP, NR_RAWTP, modmode,
	       mod_on ? mod_target : 0);
	for (i = 0; i < NR_LOAD; i++)
		if (pthread_create(&load[i].thread, NULL, load_thread, &load[i]))
			tpst_die("pthread_create");
	deadline_ns = tpst_now_ns() + secs * 1000000000LL;
	if (mod_on && pthread_create(&mod_thread, NULL, module_thread, NULL))
		tpst_die("pthread_create");
	if (pthread_create(&t_ftrace.thread, NULL, ftrace_thread, &t_ftrace) ||
	    pthread_create(&t_perf.thread, NULL, perf_thread, &t_perf) ||
	    pthread_create(&t_perfbpf.thread, NULL, perf_thread, &t_perfbpf))
		tpst_die("pthread_create");
	for (i = 0; i < NR_RAWTP; i++)
		if (pthread_create(&t_rawtp[i].thread, NULL, rawtp_thread,
				   &t_rawtp[i]))
			tpst_die("pthread_create");

	pthread_join(t_ftrace.thread, NULL);
	pthread_join(t_perf.thread, NULL);
	pthread_join(t_perfbpf.thread, NULL);
	for (i = 0; i < NR_RAWTP; i++)
		pthread_join(t_rawtp[i].thread, NULL);
	if (mod_on)
		pthread_join(mod_thread, NULL);
	flag_set(&stop_load);
	for (i = 0; i < NR_LOAD; i++) {
		pthread_join(load[i].thread, NULL);
		printf("storm load%d calls=%ld errors=%ld\n", i, load[i].calls,
		       load[i].errors);
		calls += load[i].calls;
		lerr += load[i].errors;
	}
	for (i = 0; i < 4; i++)
		tpss_tracefs_write(ftrace_events[i], "0");
	tpss_tracefs_write("trace", "");

	t_perfbpf.counted = tpss_map_get(map_fd, t_perfbpf.key);
	for (i = 0; i < NR_RAWTP; i++) {
		t_rawtp[i].counted = tpss_map_get(map_fd, t_rawtp[i].key);
		rawtp_all.target += t_rawtp[i].target;
		rawtp_all.cycles += t_rawtp[i].cycles;
		rawtp_all.counted += t_rawtp[i].counted;
		if (t_rawtp[i].errors && !rawtp_all.errors) {
			rawtp_all.first_errno = t_rawtp[i].first_errno;
			rawtp_all.first_what = t_rawtp[i].first_what;
		}
		rawtp_all.errors += t_rawtp[i].errors;
		if (t_rawtp[i].ms > rawtp_all.ms)
			rawtp_all.ms = t_rawtp[i].ms;
		printf("storm rawtp%d cycles=%ld runs=%llu sleepable=%d misses=%llu\n", i,
		       t_rawtp[i].cycles, (unsigned long long)t_rawtp[i].counted,
		       sleepable && i < 2,
		       (unsigned long long)bpft_prog_misses(t_rawtp[i].prog_fd));
	}

	tpst_check("load", calls > 0 && !lerr && load[0].calls && load[1].calls &&
		   load[2].calls && load[3].calls,
		   "%ld calls, %ld with an unexpected result", calls, lerr);
	report(&t_ftrace, 1);
	report(&t_perf, t_perf.counted > 0);
	report(&t_perfbpf, t_perfbpf.counted > 0);
	report(&rawtp_all, rawtp_all.counted > 0);
	if (sleepable) {
		uint64_t runs = t_rawtp[0].counted + t_rawtp[1].counted;
		uint64_t misses = bpft_prog_misses(t_rawtp[0].prog_fd) +
				  bpft_prog_misses(t_rawtp[1].prog_fd);

		tpst_check("sleepable", runs > 0 && misses == 0,
			   "sleepable programs: %llu runs, %llu recursion misses",
			   (unsigned long long)runs, (unsigned long long)misses);
	} else {
		printf("check sleepable skip no sleepable programs on may-sleep tracepoints here (patches 0018-0019)\n");
	}
	total = t_ftrace.cycles + t_perf.cycles + t_perfbpf.cycles +
		rawtp_all.cycles;

	if (mod_on) {
		long long bad_a, bad_b, atomic_calls, ca, cb, err, unreg;

		mod_cyc = tpst_num(mod_result, "cycles", 0);
		err = tpst_num(mod_result, "err", -1);
		unreg = tpst_num(mod_result, "unreg", -1);
		ca = tpst_num(mod_result, "calls_a", 0);
		cb = tpst_num(mod_result, "calls_b", 0);
		bad_a = tpst_num(mod_result, "bad_a", -1);
		bad_b = tpst_num(mod_result, "bad_b", -1);
		atomic_calls = tpst_num(mod_result, "not_preemptible", -1);
		printf("storm module mode=%s cycles=%lld target=%ld attach_detach=%lld calls_a=%lld calls_b=%lld bad_a=%lld bad_b=%lld not_preemptible=%lld ms=%lld\n",
		       modmode, mod_cyc, mod_target, 2 * mod_cyc, ca, cb, bad_a,
		       bad_b, atomic_calls, mod_ms);
		tpst_check("module", !mod_rc && err == 0 && unreg == 0 &&
			   (!judge_counts || 4 * mod_cyc >= mod_target) &&
			   mod_cyc > 0 && ca > 0 && cb > 0,
			   "rc=%d: %s", mod_rc, mod_result);
		tpst_check("cookies", !mod_rc && bad_a == 0 && bad_b == 0 &&
			   atomic_calls == 0,
			   "bad_a=%lld bad_b=%lld not_preemptible=%lld",
			   bad_a, bad_b, atomic_calls);
		total += 2 * mod_cyc;
	}
	printf("storm total attach_detach=%ld load_calls=%ld\n", total, calls);
	if (judge_counts)
		tpst_check("total", total >= MIN_TOTAL,
			   "%ld attach/detach cycles, want >= %d", total,
			   MIN_TOTAL);
	else
		tpst_skip("total", "reference kernel, not judged: %ld attach/detach cycles (%d on the kernel under test)",
			  total, MIN_TOTAL);
	return tpst_failed;
}
