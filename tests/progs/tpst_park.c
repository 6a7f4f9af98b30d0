// SPDX-License-Identifier: GPL-2.0
/*
 * tpst_park 2to1|1to0to1 ROUNDS: deterministic probe transitions on a
 * may-sleep tracepoint (tpsleep_test.ko "park", see its header).  A caller
 * of tpst_maysleep has loaded the first probe's data (A's cookie) and is
 * parked before the static call while the probes change: A is
 * unregistered from {A, B} (2to1), or unregistered and B registered
 * (1to0to1).  Then the caller goes on.  Per round:
 *
 *   parked       the caller loaded A's cookie, the change succeeded and
 *                the caller made its call, which reached a probe
 *   data         no probe was ever called with the other probe's cookie
 *                (B with A's would be a direct call with stale data)
 *   preemptible  the probes ran preemptible
 *   direct       after the caller left, the static call went straight to
 *                B again (within 5 s: a Tasks Trace grace period)
 *   nonblocking  the change returned before the caller was released: a
 *                transition does not wait for a parked (or faulting)
 *                caller (its duration is printed)
 *
 * Prints "check NAME ok|fail WHY" lines; exit status 1 if any failed.
 */
#include "tpst_common.h"

int main(int argc, char **argv)
{
	int fd, i, rounds, parked = 1, data = 1, pre = 1, direct = 1, nb = 1;
	char res[1024], last[1024] = "";

	if (argc != 3 || (strcmp(argv[1], "2to1") && strcmp(argv[1], "1to0to1"))) {
		fprintf(stderr, "usage: tpst_park 2to1|1to0to1 ROUNDS\n");
		return 2;
	}
	rounds = atoi(argv[2]);
	fd = tpst_open();
	for (i = 0; i < rounds; i++) {
		if (tpst_cmd(fd, "park %s", argv[1]))
			tpst_die("park");
		tpst_result(fd, res, sizeof(res));
		printf("round %d: %s", i, res);
		if (tpst_num(res, "reg", -1) != 0 || tpst_num(res, "unreg", -1) != 0 ||
		    tpst_num(res, "loaded_a", 0) != 1 ||
		    tpst_num(res, "change_ret", -1) != 0 ||
		    tpst_num(res, "called", 0) != 1 ||
		    tpst_num(res, "calls_a", 0) + tpst_num(res, "calls_b", 0) < 1)
			parked = 0;
		if (tpst_num(res, "bad_a", -1) != 0 || tpst_num(res, "bad_b", -1) != 0)
			data = 0;
		if (tpst_num(res, "not_preemptible", -1) != 0)
			pre = 0;
		if (!strstr(res, " target_after=b "))
			direct = 0;
		if (tpst_num(res, "returned_early", 0) != 1)
			nb = 0;
		snprintf(last, sizeof(last), "%s", res);
	}
	tpst_check("parked", parked,
		   "want reg=0 loaded_a=1 change_ret=0 called=1 and a probe call: %s", last);
	tpst_check("data", data, "want bad_a=0 bad_b=0 in every round: %s", last);
	tpst_check("preemptible", pre, "want not_preemptible=0: %s", last);
	tpst_check("direct", direct,
		   "want the static call on B within 5 s after the caller left: %s", last);
	tpst_check("nonblocking", nb,
		   "want the change to return within 300 ms while the caller is parked: %s",
		   last);
	return tpst_failed;
}
