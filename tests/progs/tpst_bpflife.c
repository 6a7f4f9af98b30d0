// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_bpflife: a BPF program's lifetime on a may-sleep tracepoint
 * (tpsleep_class.ko, patches 2 and 3).
 *
 * A raw_tp program that counts its runs in an array map is attached to
 * tpsc_a, a may-sleep tracepoint of the module.  The module's "parker"
 * kthread then does what the tracepoint's iterator does: under
 * rcu_read_lock_trace() it loads the first entry (the BPF probe's, with
 * the program as its data), and parks before the call, as a caller
 * preempted or blocked on a page fault there would.  Meanwhile a thread
 * closes the link and the program's fd: the program's last references.
 * Then the parker is released.  A probe that sleeps (every probe of the
 * six; the BPF probe of a sleepable program in the follow-up) is called
 * with the data the parker loaded, so that data must still be whole.  A
 * probe that does not sleep (the follow-up's probe of this program, from
 * 0013) is called only through its entry in the current array, with
 * preemption disabled, as on any tracepoint (0012): once removed, never.
 *
 *   attached         the program ran for each of 3 events
 *   parked           the parker loaded the BPF probe
 *   link_close       the parked probe sleeps, with "sync" (the six,
 *                    patch 3): closing the link did not return while the
 *                    caller was parked (bpf_probe_unregister() waits for
 *                    it); with "deferred" (follow-up patch 0016), or when
 *                    the probe does not sleep: it returned at once
 *   close_returns    it returned (once the caller was released)
 *   ran              a probe that sleeps: the parked call ran the
 *                    program, still whole (the count went from 3 to 4);
 *                    one that does not: the call skipped the removed
 *                    probe (called=0, the count stays 3)
 *
 * Without the wait (or the deferred put), the program is freed after a
 * plain RCU grace period while the caller still holds it, and the
 * released call runs freed memory (KASAN report or oops on the console);
 * a parker that called the entry it loaded for a probe that does not
 * sleep would do the same.
 *
 * Usage: tpst_bpflife [sync|deferred [sleeps|ordinary]]  (default sync
 * sleeps): the second word is what the kernel's features say the BPF probe
 * must be (the six: every probe sleeps; from 0013: ordinary); "parked"
 * fails when the probe the parker loaded is the other kind.
 *
 * Prints "check NAME ok|fail WHY" lines; exit status 1 if any failed.
 */
#include "tpst_common.h"
#include "bpf_test.h"

#include <pthread.h>
#include <stdint.h>

#define CTL "/proc/tpsleep_class"

static int link_fd, prog_fd;
static volatile int closed;
static long long close_ns;

static void *closer(void *arg)
{
	long long t0 = tpst_now_ns();

	(void)arg;
	close(link_fd);
	close(prog_fd);
	close_ns = tpst_now_ns() - t0;
	__atomic_store_n(&closed, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int ctl_cmd(int fd, const char *cmd, char *res, size_t size)
{
	ssize_t n;

	printf("> %s\n", cmd);
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -errno;
	n = pread(fd, res, size - 1, 0);
	if (n < 0)
		return -errno;
	res[n] = '\0';
	printf("< %s", res);
	fflush(stdout);
	return 0;
}

static uint64_t count(int map_fd)
{
	uint32_t key = 0;
	uint64_t v = 0;

	if (bpf_map_lookup_elem(map_fd, &key, &v))
		tpst_die("map lookup");
	return v;
}

int main(int argc, char **argv)
{
	char res[512], fn[128] = "";
	int fd, map_fd, i, waited, ok, deferred, sleeps, want_sleeps;
	pthread_t t;
	uint64_t c;

	deferred = argc > 1 && !strcmp(argv[1], "deferred");
	want_sleeps = !(argc > 2 && !strcmp(argv[2], "ordinary"));

	fd = open(CTL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		tpst_die("open " CTL);
	map_fd = bpft_array_create(sizeof(uint64_t), 1);
	if (map_fd < 0)
		tpst_die("map create");
	prog_fd = bpft_count_load(BPF_PROG_TYPE_RAW_TRACEPOINT, map_fd, 0);
	if (prog_fd < 0) {
		bpft_print_log();
		tpst_die("prog load");
	}
	link_fd = bpf_raw_tracepoint_open("tpsc_a", prog_fd);
	if (link_fd < 0) {
		tpst_check("attached", 0, "BPF_RAW_TRACEPOINT_OPEN tpsc_a: %s",
			   strerror(errno));
		return 1;
	}
	if (ctl_cmd(fd, "fire 3", res, sizeof(res)))
		tpst_die("fire");
	c = count(map_fd);
	tpst_check("attached", c == 3, "%llu runs for 3 events",
		   (unsigned long long)c);

	if (ctl_cmd(fd, "park", res, sizeof(res)))
		tpst_die("park");
	tpst_str(res, "func", fn, sizeof(fn));
	ok = tpst_num(res, "loaded", 0) == 1 && strstr(fn, "__bpf_trace_");
	sleeps = tpst_num(res, "sleeps", 1) == 1;
	printf("diag the parked BPF probe %s (want: %s)\n",
	       sleeps ? "sleeps" : "does not sleep",
	       want_sleeps ? "sleeps" : "does not sleep");
	tpst_check("parked", ok && sleeps == want_sleeps,
		   "want loaded=1 and the BPF probe, which %s: %s",
		   want_sleeps ? "sleeps" : "does not sleep", res);
	if (!ok) {
		/* Nothing to release: a parker that loaded nothing calls nothing. */
		ctl_cmd(fd, "release", res, sizeof(res));
		return 1;
	}

	if (pthread_create(&t, NULL, closer, NULL))
		tpst_die("pthread_create");
	/* A Tasks Trace grace period takes a few ms without the parker. */
	usleep(500 * 1000);
	waited = !__atomic_load_n(&closed, __ATOMIC_ACQUIRE);
	printf("diag link and prog fds closed while parked: close %s after 500 ms\n",
	       waited ? "still blocked" : "returned");
	if (deferred || !sleeps)
		tpst_check("link_close", !waited,
			   "closing the link was still blocked after 500 ms while a caller held the program");
	else
		tpst_check("link_close", waited,
			   "closing the link returned in %lld us while a caller held the program",
			   close_ns / 1000);

	if (ctl_cmd(fd, "release", res, sizeof(res)))
		tpst_die("release");
	for (i = 0; i < 1000 && !__atomic_load_n(&closed, __ATOMIC_ACQUIRE); i++)
		usleep(10 * 1000);
	tpst_check("close_returns", __atomic_load_n(&closed, __ATOMIC_ACQUIRE),
		   "close still blocked 10 s after the release");
	if (__atomic_load_n(&closed, __ATOMIC_ACQUIRE)) {
		pthread_join(t, NULL);
		printf("diag closing link + prog took %lld ms\n",
		       close_ns / 1000000);
	}
	c = count(map_fd);
	tpst_check("ran", tpst_num(res, "called", -1) == sleeps &&
		   c == 3 + (uint64_t)sleeps,
		   "want called=%d and %d runs, got %llu: %s", sleeps,
		   3 + sleeps, (unsigned long long)c, res);
	return tpst_failed;
}
