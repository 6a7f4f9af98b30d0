// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_sync MODE MS: unregistration must wait for a sleepable probe that
 * is asleep inside the (may-sleep) sys_enter tracepoint.  Needs
 * tpsleep_test.ko; a second thread calls getppid(), on which the module's
 * sleepable probe records its entry time, sleeps MS ms, records its exit.
 *
 *   sync    the main thread, once the probe is asleep, unregisters it and
 *           calls tracepoint_synchronize_unregister() (in the module):
 *             entered  the probe ran, preemptible
 *             slept    probe exit - entry >= MS
 *             order    unregistration started before the probe's exit and
 *                      tracepoint_synchronize_unregister() returned after it
 *   unload  the main thread, once the probe is asleep, removes the module
 *           (delete_module(2)); module_exit unregisters and synchronizes:
 *             entered  the probe ran, preemptible
 *             rmmod    delete_module() succeeded
 *             waited   delete_module() returned no earlier than probe entry
 *                      + MS, that is after the probe left the module's code
 *
 * Times are CLOCK_MONOTONIC (the module uses ktime_get_ns()).  Prints
 * "check NAME ok|fail WHY" lines; exit status 1 if any failed.
 */
#include "tpst_common.h"
#include <pthread.h>
#include <sys/syscall.h>

static char result[4096];
static long long getppid_ret_ns;

static void *sleeper(void *arg)
{
	(void)arg;
	/* Enters the module's probe, which sleeps MS ms. */
	syscall(SYS_getppid);
	getppid_ret_ns = tpst_now_ns();
	return NULL;
}

static long long ms(long long ns)
{
	return ns / 1000000;
}

int main(int argc, char **argv)
{
	long long enter, exit_ns, start, ret, t0, t1;
	pthread_t thread;
	int fd, unload, r;
	long sleep_ms;

	if (argc != 3 || (strcmp(argv[1], "sync") && strcmp(argv[1], "unload"))) {
		fprintf(stderr, "usage: tpst_sync sync|unload MS\n");
		return 2;
	}
	unload = !strcmp(argv[1], "unload");
	sleep_ms = strtol(argv[2], NULL, 10);
	fd = tpst_open();
	if (tpst_cmd(fd, "sleeper_arm %ld", sleep_ms))
		tpst_die("sleeper_arm");
	tpst_result(fd, result, sizeof(result));
	if (tpst_num(result, "reg", -1) != 0) {
		tpst_check("entered", 0, "could not register: %s", result);
		return 1;
	}
	if (pthread_create(&thread, NULL, sleeper, NULL)) {
		/* Leave nothing behind: the next command unregisters. */
		tpst_cmd(fd, "sleeper_unreg");
		tpst_die("pthread_create");
	}

	if (!unload) {
		/* Waits for the probe's entry, then unregisters + syncs. */
		if (tpst_cmd(fd, "sleeper_unreg"))
			tpst_die("sleeper_unreg");
		tpst_result(fd, result, sizeof(result));
		pthread_join(thread, NULL);
		enter = tpst_num(result, "enter_ns", 0);
		exit_ns = tpst_num(result, "exit_ns", 0);
		start = tpst_num(result, "unreg_start_ns", 0);
		ret = tpst_num(result, "sync_ret_ns", 0);
		if (exit_ns)
			printf("relative to probe entry: probe exit %+lld ms, ",
			       ms(exit_ns - enter));
		else
			printf("relative to probe entry: probe exit NOT YET, ");
		printf("unregister start %+lld ms, synchronize return %+lld ms, getppid return %+lld ms\n",
		       ms(start - enter), ms(ret - enter),
		       ms(getppid_ret_ns - enter));
		tpst_check("entered",
			   tpst_num(result, "entered", 0) == 1 &&
			   tpst_num(result, "preemptible", 0) == 1 &&
			   tpst_num(result, "unreg", -1) == 0,
			   "want entered=1 preemptible=1 unreg=0: %s", result);
		if (!exit_ns)
			tpst_check("slept", 0,
				   "the probe had not returned when tracepoint_synchronize_unregister() did");
		else
			tpst_check("slept", exit_ns - enter >= sleep_ms * 1000000LL,
				   "probe exit - entry = %lld ns, want >= %ld ms",
				   exit_ns - enter, sleep_ms);
		tpst_check("order", exit_ns && start < exit_ns && ret >= exit_ns,
			   "want unreg_start(%lld) < probe_exit(%lld) <= sync_return(%lld)",
			   start, exit_ns, ret);
		return tpst_failed;
	}

	if (tpst_cmd(fd, "sleeper_wait"))
		tpst_die("sleeper_wait");
	tpst_result(fd, result, sizeof(result));
	enter = tpst_num(result, "enter_ns", 0);
	tpst_check("entered",
		   tpst_num(result, "entered", 0) == 1 &&
		   tpst_num(result, "preemptible", 0) == 1,
		   "want entered=1 preemptible=1: %s", result);
	close(fd);
	t0 = tpst_now_ns();
	r = syscall(SYS_delete_module, "tpsleep_test", O_NONBLOCK);
	t1 = tpst_now_ns();
	tpst_check("rmmod", r == 0, "delete_module: %s", strerror(errno));
	pthread_join(thread, NULL);
	printf("relative to probe entry: rmmod start %+lld ms, rmmod return %+lld ms, getppid return %+lld ms\n",
	       ms(t0 - enter), ms(t1 - enter), ms(getppid_ret_ns - enter));
	tpst_check("waited", enter && t1 >= enter + sleep_ms * 1000000LL,
		   "delete_module returned %lld ms after probe entry, want >= %ld",
		   ms(t1 - enter), sleep_ms);
	return tpst_failed;
}
