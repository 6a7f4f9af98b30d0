#!/bin/bash
# progress.sh CONSOLE RESULTS TIMEOUT [PID]: what a running guest is doing,
# from the files QEMU fills (the console and the KTAP port), until killed or
# until process PID (default: the parent) is gone.  scripts/boot.sh starts
# it beside QEMU and kills it when the guest is gone.
#
# The stage is the last "tpsleep: === NAME" line of the console (a check
# script of make check, a scenario of make stress, a bench state), the
# counts are those of the KTAP lines so far.  On a terminal: one line,
# rewritten every 2 s.  Elsewhere (a log, CI): a line when a stage starts,
# and one every PROGRESS_EVERY seconds (default 60) while it lasts, so
# that no minute passes in silence; no control characters.
set -uo pipefail
console=${1:?usage: progress.sh CONSOLE RESULTS TIMEOUT}
results=${2:?}
timeout=${3:?}
watch=${4:-$PPID}
every=${PROGRESS_EVERY:-60}
start=$(date +%s)
tty=
[ -t 1 ] && tty=1

# counts: "P F S" of the KTAP lines so far
counts() {
	[ -f "$results" ] || { echo "0 0 0"; return; }
	awk '/^not ok /   { f++; next }
	     /^ok .*# SKIP/ { s++; next }
	     /^ok /       { p++ }
	     END          { printf "%d %d %d\n", p, f, s }' "$results"
}

# stage: the name of the last "tpsleep: === NAME" line, or "boot"
stage() {
	local s=
	[ -f "$console" ] &&
		s=$(grep -a 'tpsleep: === ' "$console" | tail -n 1 | tr -cd '[:print:]' |
			sed -e 's/.*tpsleep: === //' -e 's/ at [0-9.]*s$//')
	echo "${s:-boot}"
}

last_stage=
last_print=0
finish() {
	[ -n "$tty" ] && printf '\n'
	exit 0
}
trap finish TERM INT
while kill -0 "$watch" 2>/dev/null; do
	now=$(date +%s)
	el=$((now - start))
	st=$(stage)
	read -r p f s < <(counts)
	line="guest: $st | $p passed, $f failed, $s skipped | ${el}s of ${timeout}s"
	if [ -n "$tty" ]; then
		printf '\r\033[K%s' "$line"
	elif [ "$st" != "$last_stage" ] || [ $((now - last_print)) -ge "$every" ]; then
		echo "$line"
		last_print=$now
	fi
	last_stage=$st
	sleep 2 &
	wait $!
done
finish
