#!/bin/bash
# check-log.sh CONSOLE-LOG: fail, naming the line, on any kernel splat.
. "$(dirname "$0")/lib.sh"
log=${1:?usage: check-log.sh CONSOLE-LOG}
[ -s "$log" ] || die "empty console log $log"
pat='Kernel panic|Oops|BUG:|WARNING:|INFO: (possible|task .* blocked|rcu_(preempt|sched|tasks)|suspicious RCU)|possible (circular|recursive) locking|inconsistent lock state|lockdep is turned off|KASAN|UBSAN|sleeping function called from invalid context|rcu: INFO|self-detected stall|soft lockup|hard LOCKUP|general protection fault|Call Trace:|invalid opcode'

# The one expected splat.  On a kernel whose sys_enter/sys_exit are
# may-sleep (0005, feature syscalls) without 0012 (tpmode), i.e. the six,
# LTTng's ordinary tracepoint_probe_register() is refused with -EINVAL;
# lttng-modules 2.13.9 warns (WARN_ON_ONCE(ret) in
# lttng_tracepoint_probe_register()), goes on without its probe and, at
# session teardown, unregisters it: the kernel finds no such probe,
# WARN_ON_ONCE(IS_ERR(old)) in tracepoint_remove_func() (inlined into
# tracepoint_probe_unregister(), which the WARNING line names then), and
# lttng-modules warns again (WARN_ON_ONCE(ret) in
# lttng_tracepoint_probe_unregister()).  tests/guest/checks/90-lttng.sh
# asserts them (KTAP lttng.warn) and writes "tpsleep-lttng: expect-warn
# begin" and "... end" to /dev/kmsg around its session on such a kernel.
# Accepted here: on a variant of these features only (the variant the
# guest names on the console, its features from series), between those two
# markers, at most one WARNING line of each of the three, the kernel's with
# lttng_tracepoint_probe_unregister [lttng_tracer] in its call trace; the
# WARNING line and its block's Call Trace line.  Any other splat line, a
# second one of a kind, one outside the markers or on another variant
# still fails.
expected=
variant=$(sed -n 's/\r$//; /tpsleep: guest up at /{s/.*, variant \([^ ]*\)$/\1/p;q}' "$log")
if [ -n "$variant" ] && grep -q 'tpsleep-lttng: expect-warn begin' "$log" &&
   grep -q 'tpsleep-lttng: expect-warn end' "$log"; then
	feats=$(series_patches "$variant" 2>/dev/null | while read -r p; do
		sed -n "s/^${p}[[:space:]]*#[[:space:]]*feature=\([a-z]*\).*/\1/p" "$TOP/series"
	done || true)
	if grep -qx syscalls <<<"$feats" && ! grep -qx tpmode <<<"$feats"; then
		# the accepted line numbers, one a line
		expected=$(awk '
			{ sub(/\r$/, "") }
			function flush() {
				if (kind != "" && (kind != "kernel" || caller) && !seen[kind]++) {
					print wline
					if (cline) print cline
				}
				kind = ""
			}
			/tpsleep-lttng: expect-warn begin/ { if (!done) win = 1; next }
			/tpsleep-lttng: expect-warn end/ { flush(); if (win) done = 1; win = 0; next }
			/WARNING: CPU: [0-9]+ PID: [0-9]+ at / {
				flush()
				if (!win) next
				if ($0 ~ / at ([^ ]*\/)?kernel\/tracepoint\.c:[0-9]+ (tracepoint_remove_func|tracepoint_probe_unregister)\+/)
					kind = "kernel"
				else if ($0 ~ / at [^ ]*lttng-tracepoint\.c:[0-9]+ lttng_tracepoint_probe_register\+[^ ]* \[lttng_tracer\]/)
					kind = "lttng-register"
				else if ($0 ~ / at [^ ]*lttng-tracepoint\.c:[0-9]+ lttng_tracepoint_probe_unregister\+[^ ]* \[lttng_tracer\]/)
					kind = "lttng-unregister"
				wline = NR; cline = ""; caller = 0
				next
			}
			kind != "" && !cline && /Call Trace:/ { cline = NR; next }
			kind != "" && cline && / lttng_tracepoint_probe_unregister\+[^ ]* \[lttng_tracer\]/ { caller = 1; next }
			kind != "" && /---\[ end trace / { flush() }
		' "$log")
	fi
fi
accepted=$(echo "$expected" | grep -E '^[0-9]+$' || true)
if grep -nE "$pat" "$log" > "$log.splats.all"; then
	if [ -n "$accepted" ]; then
		awk -F: 'NR == FNR { ok[$1] = 1; next } !($1 in ok)' <(echo "$accepted") "$log.splats.all" > "$log.splats" || true
	else
		cp "$log.splats.all" "$log.splats"
	fi
else
	: > "$log.splats"
fi
rm -f "$log.splats.all"
if [ -s "$log.splats" ]; then
	echo "Kernel splat in $log:" >&2
	head -n 20 "$log.splats" | sed 's/^/  line /' >&2
	die "$(wc -l < "$log.splats") splat line(s) in the console log, first at line $(head -n1 "$log.splats" | cut -d: -f1)"
fi
grep -q 'tpsleep: checks done' "$log" || die "the guest never finished its checks ($log)"
rm -f "$log.splats"
if [ -n "$accepted" ]; then
	echo "console log $log: no splat but the expected ones, lines $(echo "$accepted" | tr '\n' ' ')(variant $variant: LTTng's ordinary probe refused by the may-sleep sys_enter/sys_exit; tests/guest/checks/90-lttng.sh, KTAP lttng.warn)"
else
	echo "console log $log: no splat"
fi
