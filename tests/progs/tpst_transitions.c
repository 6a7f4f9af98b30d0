// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_transitions MODE CYCLES MAXSEC MINCYCLES: probe set transitions
 * under load.
 * Needs tpsleep_test.ko, which registers and unregisters two probes A, B
 * (their data: two distinct cookies) in the sequence
 * {A} -> {A,B} -> {B} -> {} -> {A} (1->2->1->0->1 probes), CYCLES times or
 * for at most MAXSEC seconds, while our worker threads keep the tracepoint
 * busy:
 *
 *   sleepy  sleepable probes on sys_enter (the workers make syscalls);
 *           the probes sometimes sleep
 *   normal  normal probes on sched_switch (the workers yield and sleep)
 *   mixed   on sys_enter, A sleeps and B does not; each cycle is
 *           {} -> {X} -> {A,B} -> {Y} -> {}, X and Y taking turns through
 *           A and B (0->1->2->1->0 in every order)
 *
 *   run          every registration and unregistration succeeded, and
 *                at least MINCYCLES cycles were done (all CYCLES unless
 *                MAXSEC ran out first: grace periods are slow under TCG)
 *   calls        both probes were called
 *   data         no probe was ever called with the other probe's data
 *   preemptible  (sleepy, mixed) the sleepable probes always ran
 *                preemptible, (mixed) the other one never did
 *   call_path    (mixed) the kernel has this architecture's path, the
 *                static call (x86_64) or the generic fallback without
 *                HAVE_STATIC_CALL (arm64), its key selected the sleep
 *                iterator while A was connected, and A was called, only
 *                ever preemptible (under the generic fallback, only the
 *                sleep iterator calls it so), as tpsleep_test.ko reports
 *                (static_call=, sleep_key=, calls_a=, not_preemptible=)
 *
 * Prints "check NAME ok|fail WHY" lines; exit status 1 if any failed.
 */
#include "tpst_common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>

#define NR_WORKERS 3

/* IS_ENABLED(CONFIG_HAVE_STATIC_CALL) of this architecture's kernels */
#if defined(__x86_64__)
#define WANT_STATIC_CALL 1
#else
#define WANT_STATIC_CALL 0
#endif

static char result[4096];
static volatile int stop;
static long worker_calls[NR_WORKERS];

static void *worker(void *arg)
{
	long *calls = arg;
	struct timespec ts = { 0, 20000 };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	/* spread the workers over the CPUs */
	if (ncpu > 1) {
		CPU_ZERO(&set);
		CPU_SET((calls - worker_calls) % ncpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}

	while (!stop) {
		syscall(SYS_getppid);
		sched_yield();
		if (!(++*calls & 15))
			nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t thread[NR_WORKERS];
	long cycles, maxsec, mincycles, done, total = 0;
	int fd, i, sleepy, mixed, r;

	if (argc != 5 || (strcmp(argv[1], "sleepy") && strcmp(argv[1], "normal") &&
			  strcmp(argv[1], "mixed"))) {
		fprintf(stderr, "usage: tpst_transitions sleepy|normal|mixed CYCLES MAXSEC MINCYCLES\n");
		return 2;
	}
	sleepy = strcmp(argv[1], "normal") != 0;
	mixed = !strcmp(argv[1], "mixed");
	cycles = strtol(argv[2], NULL, 10);
	maxsec = strtol(argv[3], NULL, 10);
	mincycles = strtol(argv[4], NULL, 10);
	fd = tpst_open();
	for (i = 0; i < NR_WORKERS; i++)
		if (pthread_create(&thread[i], NULL, worker, &worker_calls[i]))
			tpst_die("pthread_create");
	/* Returns when the module is done with all cycles. */
	r = tpst_cmd(fd, "transitions %s %ld %ld", argv[1], cycles, maxsec);
	stop = 1;
	for (i = 0; i < NR_WORKERS; i++) {
		pthread_join(thread[i], NULL);
		total += worker_calls[i];
	}
	if (r) {
		errno = -r;
		tpst_die("transitions");
	}
	tpst_result(fd, result, sizeof(result));
	done = tpst_num(result, "cycles", -1);
	printf("%ld of %ld cycles in %lld ms, worker loop iterations: %ld\n",
	       done, cycles, tpst_num(result, "ms", -1), total);
	tpst_check("run",
		   tpst_num(result, "err", -1) == 0 &&
		   tpst_num(result, "unreg", -1) == 0 &&
		   done >= mincycles && done <= cycles,
		   "want err=0 unreg=0 cycles=%ld..%ld: %s", mincycles, cycles,
		   result);
	tpst_check("calls",
		   tpst_num(result, "calls_a", 0) > 0 &&
		   tpst_num(result, "calls_b", 0) > 0,
		   "want calls_a > 0 and calls_b > 0: %s", result);
	tpst_check("data",
		   tpst_num(result, "bad_a", -1) == 0 &&
		   tpst_num(result, "bad_b", -1) == 0,
		   "want bad_a=0 bad_b=0: %s", result);
	if (sleepy)
		tpst_check("preemptible",
			   tpst_num(result, "not_preemptible", -1) == 0 &&
			   tpst_num(result, "atomic_preemptible", -1) == 0,
			   "want not_preemptible=0 atomic_preemptible=0: %s",
			   result);
	/*
	 * mixed: the sleeping probe was reached through the call path of
	 * this architecture: the static call on x86_64, the generic fallback
	 * (no HAVE_STATIC_CALL: the key only chooses the sleep iterator) on
	 * arm64; its key selected the sleep iterator while A was connected,
	 * and A ran, never atomically (a fallback that called the other
	 * iterator would call A with preemption disabled).
	 */
	if (mixed)
		tpst_check("call_path",
			   tpst_num(result, "static_call", -1) == WANT_STATIC_CALL &&
			   tpst_num(result, "sleep_key", 0) > 0 &&
			   tpst_num(result, "calls_a", 0) > 0 &&
			   tpst_num(result, "not_preemptible", -1) == 0,
			   "want static_call=%d sleep_key > 0 calls_a > 0 not_preemptible=0: %s",
			   WANT_STATIC_CALL, result);
	return tpst_failed;
}
