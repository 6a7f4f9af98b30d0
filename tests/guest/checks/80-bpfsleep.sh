# 80-bpfsleep.sh: sleepable BPF programs on may-sleep tracepoints
# (follow-up patches 0007-0008, 0015-0021) and faultsnoop, the libbpf tool that uses
# them.
#  bpfsleep.refusals.*   tests/progs/bpfsleep_test refusals (see there):
#                        loads, attach/load refusals with their errno and
#                        log line, the kfunc, BPF_LINK_DETACH; on a kernel
#                        without the patches, the kernel's side (6.1 loads
#                        a sleepable tp_btf program for any tracepoint)
#  bpfsleep.uffd.*       a sleepable program blocked on a userfaultfd page:
#                        another task's events on its CPU all counted, no
#                        recursion miss, closing its link returns, closing
#                        a perf event with a program returns (0024), the
#                        fault resolved, the task free to move to CPU 1
#  bpfsleep.tp.*         sleepable tracepoint programs on the syscall
#                        events through perf (0025): load (refused without
#                        the patch), refused on other events, N of N
#                        non-resident openat() paths and getcwd() exits,
#                        a program that does not sleep beside them, the
#                        perf event closed while a run is blocked
#  bpfsleep.pinned.*     runs while 4 threads hop between CPU 0 and 1: all
#                        counted; then CPU 1's offline waits while a run on
#                        it sleeps on a userfaultfd page (migration
#                        disabled), and ends once it is resumed
#  faultsnoop.refuses    without the patches faultsnoop exits non-zero and
#                        says why
#  faultsnoop.openat/.openat2/.execve  N calls of each whose strings and
#                        structs are in pages never touched before the call
#                        (tests/progs/capture_nonres): faultsnoop prints
#                        every one exactly, N of N
#  faultsnoop.misses     its program's recursion misses: 0
# bpftrace's str() on the same kind of calls, at raw_syscalls:sys_enter and
# at syscalls:sys_enter_openat, is a diagnostic line each; the [demo:*]
# lines are make demo's (scripts/demo-report.py).
# Sourced by run-checks.sh after ktap.sh; busybox sh, POSIX only.
set -u

BW=/tmp/bpfsleep-check
N=20
rm -rf $BW
mkdir -p $BW/cap

# bt_mode MODE NAME...: bpfsleep_test MODE with the kernel's features
# (each expectation per the feature of the patch that changes it), its
# output in the log, results bpfsleep.MODE.NAME, its diag: lines
bt_mode() {
	local _m=$1 _st
	shift
	/tests/bin/bpfsleep_test $_m "$(cat /tests/features)" > $BW/$_m.out 2>&1
	_st=$?
	sed 's/^/[bpfsleep] /' $BW/$_m.out
	ktap_check_lines bpfsleep.$_m $BW/$_m.out $_st "$@"
	grep '^diag: ' $BW/$_m.out | while read -r l; do ktap_diag "bpfsleep: ${l#diag: }"; done
}

# --- the refusals
bt_mode refusals \
	rawtp_load rawtp_attach_other rawtp_attach_sys_enter test_run_sleepable \
	prog_array_sleepable prog_array_kprobe tpbtf_other_load tpbtf_sys_enter helper_nonsleepable \
	kfunc_nonsleepable kfunc_sleepable kfunc_null_dst link_detach copy_str_edge \
	copy_str_cut_edge copy_str_long

# --- blocked on a userfaultfd page: a sleepable raw_tp program (0018, 0019)
if has_feature bpfsleep && has_feature bpfsleepload; then
	bt_mode uffd \
		uffd_blocked uffd_other_task uffd_misses uffd_perf_close uffd_close uffd_resolved uffd_hop uffd_copy_word_edge
else
	ktap_skip_all bpfsleep.uffd "no sleepable raw_tp programs on may-sleep tracepoints (patches 0018-0019)" \
		uffd_blocked uffd_other_task uffd_misses uffd_perf_close uffd_close uffd_resolved uffd_hop uffd_copy_word_edge
fi

# --- sleepable tracepoint programs through perf (0025); on the kernels
# without the patch, the load's refusal
bt_mode tp \
	tp_load tp_attach_other tp_ctx_past_args tp_openat tp_mixed tp_enter_nostr tp_exit_getcwd tp_filter tp_uffd_close

# --- faultsnoop
# fs_count CALL: how many expected CALL lines faultsnoop printed exactly
fs_count() {
	local _n=0 _l
	grep "^expect $1 " $BW/cap.out > $BW/want-$1
	while IFS= read -r _l; do
		grep -qF -- "${_l#expect }" $BW/fs.out && _n=$((_n + 1))
	done < $BW/want-$1
	echo $_n
}

if ! has_feature ustrcopy; then
	faultsnoop -d 1 > $BW/fs.out 2> $BW/fs.err
	st=$?
	sed 's/^/[faultsnoop] /' $BW/fs.out $BW/fs.err
	if [ "$st" != 0 ] && grep -q "needs the sleepable tracepoints follow-up series" $BW/fs.err; then
		ktap_pass faultsnoop.refuses
	else
		ktap_fail faultsnoop.refuses "exit status $st: $(tail -n 1 $BW/fs.err)"
	fi
	echo "[demo:faultsnoop] # refused=1 status=$st"
	tail -n 1 $BW/fs.err | sed 's/^/[demo:faultsnoop] /'
	ktap_skip_all faultsnoop "needs the follow-up's sleepable programs (patches 0018-0021)" \
		openat openat2 execve misses
else
	ktap_skip faultsnoop.refuses "the kernel has the follow-up: faultsnoop runs"
	faultsnoop > $BW/fs.out 2> $BW/fs.err &
	fp=$!
	i=0
	while ! grep -q '^PID' $BW/fs.out && kill -0 $fp 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	/tests/bin/capture_nonres $BW/cap $N all > $BW/cap.out 2> $BW/cap.err
	cst=$?
	sleep 1
	kill -INT $fp 2>/dev/null
	wait $fp
	st=$?
	sed 's/^/[faultsnoop] /' $BW/fs.out $BW/fs.err | grep -v ' /bin/busybox \| busybox ' | head -n 80
	sed 's/^/[capture] /' $BW/cap.err
	fs_demo=
	for call in openat openat2 execve; do
		got=$(fs_count $call)
		fs_demo="$fs_demo $call=$got"
		ktap_diag "faultsnoop: $call $got of $N calls with non-resident strings shown exactly"
		if [ "$cst" = 0 ] && [ "$st" = 0 ] && [ "$got" = "$N" ]; then
			ktap_pass faultsnoop.$call
		else
			ktap_fail faultsnoop.$call "$got of $N (faultsnoop status $st, capture status $cst; first missing: $(while IFS= read -r l; do grep -qF -- "${l#expect }" $BW/fs.out || { echo "${l#expect }"; break; }; done < $BW/want-$call))"
		fi
	done
	m=$(sed -n 's/.* \([0-9]*\) recursion misses$/\1/p' $BW/fs.err)
	if [ "$m" = 0 ]; then
		ktap_pass faultsnoop.misses
	else
		ktap_fail faultsnoop.misses "recursion misses '${m:-none}': $(tail -n 1 $BW/fs.err)"
	fi
	ktap_diag "faultsnoop: $(tail -n 1 $BW/fs.err)"
	# make demo: the counts and the first call of each kind (not the
	# capture program's own opens of its image files)
	echo "[demo:faultsnoop] # refused=0 status=$st calls=$N$fs_demo misses=${m:-none}"
	for re in ' openat  .* path="[^"]*/o-[0-9]*-[0-9]*"$' ' openat2 ' ' execve  '; do
		grep " capture_nonres .*$re" $BW/fs.out | head -n 1 | sed 's/^.* capture_nonres *\([a-z]\)/[demo:faultsnoop] \1/'
	done
fi

# --- for comparison: bpftrace's str() on the same kind of calls (openat
# paths, execve filename and argv), a diagnostic, and the side-by-side
# lines of make demo
if command -v bpftrace > /dev/null; then
	mkdir -p $BW/inc/linux $BW/cap2
	cp /tests/bench/bpftrace-types.h $BW/inc/linux/types.h
	# raw_syscalls:sys_enter: the arguments as numbers, nothing faults the
	# strings in.  (syscalls:sys_enter_openat would read the paths on the
	# follow-up: perf's probe of the event records the path, faulting the
	# page in, before the BPF program runs; execve's argv is no string
	# argument, so nothing faults it in there.)  "Attaching" comes before
	# the probes are attached; BEGIN's "ready" is printed once bpftrace
	# reads its perf buffers, after attaching them all: the start signal.
	bpftrace -I $BW/inc -e 'BEGIN { printf("ready\n"); }
	tracepoint:raw_syscalls:sys_enter /comm == "capture_nonres" && args->id == '$NR_OPENAT'/ {
		printf("bt: openat path=\"%s\"\n", str(uptr(args->args[1]))); }
	tracepoint:syscalls:sys_enter_execve /comm == "capture_nonres"/ {
		printf("bt: execve path=\"%s\" argv=", str(args->filename)); join(args->argv, ","); }' \
		> $BW/bt.out 2> $BW/bt.err &
	bp=$!
	i=0
	while ! grep -q '^ready' $BW/bt.out && kill -0 $bp 2>/dev/null && [ $i -lt 900 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	/tests/bin/capture_nonres $BW/cap2 $N all > $BW/cap2.out 2>&1
	sleep 1
	# bpftrace exits on SIGINT, once its handler is in place: until then
	# the SIGINT is lost (a background job of a script starts with
	# SIGINT ignored), which left bpftrace running under load (prefix
	# 15; baseline beside a kernel build).  So SIGINT every second; one
	# still running after 60 s of that is stuck: say where, then kill it,
	# so the rest of the script runs
	i=0
	while kill -0 $bp 2>/dev/null && [ $i -lt 600 ]; do
		[ $((i % 10)) = 0 ] && kill -INT $bp 2>/dev/null
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $bp 2>/dev/null; then
		ktap_fail bpfsleep.bpftrace_exit "bpftrace still running after 60 s of SIGINTs: state $(sed -n 's/^State:[[:space:]]*//p' /proc/$bp/status), wchan $(cat /proc/$bp/wchan 2>/dev/null); $(tail -n 2 $BW/bt.err | tr '\n' ' ')"
		[ -w /proc/sysrq-trigger ] && echo w > /proc/sysrq-trigger
		kill -KILL $bp 2>/dev/null
	fi
	wait $bp
	bst_raw=$?
	grep -q '^ready' $BW/bt.out && ready=1 || ready=0
	n=0
	grep '^expect openat ' $BW/cap2.out > $BW/want2
	while IFS= read -r l; do
		p=${l##*path=}
		grep -qxF "bt: openat path=$p" $BW/bt.out && n=$((n + 1))
	done < $BW/want2
	ne=$(grep -c '^bt: openat path=""$' $BW/bt.out)
	x=0
	grep '^expect execve ' $BW/cap2.out | sed 's/.*"\(cap-[0-9]*-[0-9]*\)".*/\1/' > $BW/wantx
	while IFS= read -r l; do
		grep -q "^bt: execve .*,$l," $BW/bt.out && x=$((x + 1))
	done < $BW/wantx
	ktap_diag "bpftrace str(uptr(args->args[1])) at raw_syscalls:sys_enter for openat: $n of $N non-resident paths read ($ne empty); join(args->argv) at syscalls:sys_enter_execve: $x of $N argv read (ready=$ready, bpftrace status $bst_raw)"
	# make demo: unmodified bpftrace's str() at syscalls:sys_enter_openat,
	# on N more such openat() calls, in a run of its own (on the follow-up
	# that event's probe faults the paths in, for the run above too)
	mkdir -p $BW/cap3
	timeout 120 bpftrace -I $BW/inc -e 'tracepoint:syscalls:sys_enter_openat /pid == cpid && args->flags == 0x80000/ {
		printf("bs: openat path=\"%s\"\n", str(args->filename)); }' \
		-c "/tests/bin/capture_nonres $BW/cap3 $N openat" > $BW/bs.out 2> $BW/bs.err
	bst=$?
	ns=0
	grep '^expect openat ' $BW/bs.out > $BW/want3
	while IFS= read -r l; do
		grep -qxF "bs: openat path=${l##*path=}" $BW/bs.out && ns=$((ns + 1))
	done < $BW/want3
	nse=$(grep -c '^bs: openat path=""$' $BW/bs.out)
	ktap_diag "bpftrace str(args->filename) at syscalls:sys_enter_openat: $ns of $N non-resident paths read ($nse empty; bpftrace status $bst)"
	echo "[demo:bpftrace-sc] # calls=$N read=$ns empty=$nse status=$bst"
	grep -E '^bs: openat path="([^"]*/o-[0-9]+-[0-9]+)?"$' $BW/bs.out | head -n 1 | sed 's/^bs: /[demo:bpftrace-sc] /'
	echo "[demo:bpftrace-raw] # calls=$N read=$n empty=$ne ready=$ready status=$bst_raw"
	grep -E '^bt: openat path="([^"]*/o-[0-9]+-[0-9]+)?"$' $BW/bt.out | head -n 1 | sed 's/^bt: /[demo:bpftrace-raw] /'
	echo "[demo:bpftrace-argv] # calls=$N argv=$x"
	grep '^bt: execve' $BW/bt.out | head -n 1 | sed 's/^bt: /[demo:bpftrace-argv] /'
fi

# --- runs on both CPUs, then CPU 1's hotplug waits for a run pinned there
# (0018-0019; migrate_disable() keeps the count of pinned tasks that the
# offline waits for).  Last: a hotplug that never ends
# keeps the CPU hotplug lock, and every tracepoint attach after it hangs.
if has_feature bpfsleep && has_feature bpfsleepload; then
	# in the background: a hotplug that never ends leaves the program
	# unkillable (uninterruptible) after it wrote its check lines; its
	# exit status follows them when it ends
	( /tests/bin/bpfsleep_test pinned; echo "exit $?" ) > $BW/pinned.out 2>&1 &
	i=0
	while ! grep -qE '^(check pinned_offline |exit )' $BW/pinned.out && [ $i -lt 180 ]; do
		sleep 1
		i=$((i + 1))
	done
	sleep 1
	st=$(sed -n 's/^exit //p' $BW/pinned.out)
	[ -n "$st" ] || st="none: still running after $i s"
	case $st in
	none*)	ktap_diag "bpfsleep: pinned still running: CPU 1's hotplug never ended, the guest is wedged (its attaches and poweroff hang)" ;;
	*)	# an online that failed must not leave CPU 1 offline
		[ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null)" = 0 ] &&
			echo 1 > /sys/devices/system/cpu/cpu1/online ;;
	esac
	sed 's/^/[bpfsleep] /' $BW/pinned.out
	ktap_check_lines bpfsleep.pinned $BW/pinned.out "$st" \
		pinned_runs pinned_offline
	grep '^diag: ' $BW/pinned.out | while read -r l; do ktap_diag "bpfsleep: ${l#diag: }"; done
else
	ktap_skip_all bpfsleep.pinned "no sleepable raw_tp programs on may-sleep tracepoints (patches 0018-0019)" \
		pinned_runs pinned_offline
fi

rm -rf $BW
