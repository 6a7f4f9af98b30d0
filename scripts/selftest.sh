#!/bin/bash
# selftest.sh [VARIANT]: show that the harness fails loudly.  Each case
# breaks one thing on purpose and expects the test pipeline to fail with
# the message that names it:
#   fuzz    a patch whose context no longer matches exactly (needs fuzz)
#   reject  a patch that does not apply
#   panic   a guest whose init dies (kernel panic)
#   hang    a guest that never finishes (timeout)
#   warn    a WARN() in the guest's console log
# The kernel cases reuse an already built VARIANT (default baseline).
. "$(dirname "$0")/lib.sh"
VARIANT=${1:-baseline}
fail=0
expect() {	# expect NAME PATTERN CMD...: CMD must fail, its output match PATTERN
	local name=$1 pat=$2 out rc
	shift 2
	set +e
	out=$("$@" 2>&1)
	rc=$?
	set -e
	if [ "$rc" != 0 ] && printf '%s\n' "$out" | grep -qE "$pat"; then
		echo "selftest $name: ok, failed with: $(printf '%s\n' "$out" | grep -E "$pat" | head -n1)"
	else
		echo "selftest $name: NOT OK (status $rc), output ends:"
		printf '%s\n' "$out" | tail -n 8 | sed 's/^/    /'
		fail=1
	fi
}

# Series cases: a scratch copy of the repository with one patch damaged.
first=$(series_patches patched | head -n1)
[ -n "$first" ] || die "selftest needs at least one patch in series"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mk_scratch() {
	rm -rf "$scratch/repo"
	mkdir -p "$scratch/repo"
	cp -r "$TOP/scripts" "$TOP/patches" "$TOP/series" "$scratch/repo/"
}
# offset: move the first hunk 5 lines down in its header: patch still
# applies it (at an offset), which must be refused.
mk_scratch
python3 - "$scratch/repo/patches/$first" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r'^@@ -(\d+),(\d+) \+(\d+),(\d+) @@',
           lambda m: '@@ -%d,%s +%d,%s @@' % (int(m.group(1)) + 5, m.group(2),
                                            int(m.group(3)) + 5, m.group(4)),
           s, count=1, flags=re.M)
open(p, 'w').write(s)
PY
expect offset "applies only with fuzz or offset" env BUILD="$BUILD" "$scratch/repo/scripts/tree.sh" prefix-1
# fuzz: change one context line of the first hunk, so that the patch
# would need fuzz to apply.
mk_scratch
python3 - "$scratch/repo/patches/$first" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split('\n')
start = next(i for i, l in enumerate(lines) if l.startswith('@@'))
for i in range(start + 1, len(lines)):
    if lines[i].startswith(' ') and lines[i].strip():
        lines[i] = ' ' + lines[i][1:] + ' /* selftest */'
        break
open(p, 'w').write('\n'.join(lines))
PY
expect fuzz "patch 1 .* does not apply" env BUILD="$BUILD" "$scratch/repo/scripts/tree.sh" prefix-1
# reject: a hunk whose removed line does not exist in the tree.
mk_scratch
python3 - "$scratch/repo/patches/$first" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
i = s.index('\n-', s.index('\n@@'))
s = s[:i] + '\n-this line is not in the tree (selftest)' + s[i:]
# keep the hunk header counts consistent: one more old line
import re
m = list(re.finditer(r'^@@ -(\d+),(\d+) ', s[:i], re.M))[-1]
s = s[:m.start()] + '@@ -%s,%d ' % (m.group(1), int(m.group(2)) + 1) + s[m.end():]
open(p, 'w').write(s)
PY
expect reject "patch 1 .* does not apply" env BUILD="$BUILD" "$scratch/repo/scripts/tree.sh" prefix-1
# The scratch runs damaged build/trees/prefix-1: drop it, the next use
# derives it again.
rm -rf "$TREES/prefix-1"

# Guest cases, on the built VARIANT.
"$TOP/scripts/initramfs.sh" "$VARIANT" >/dev/null
boot_and_check() {
	"$TOP/scripts/boot.sh" "$VARIANT" && "$TOP/scripts/check-log.sh" "$LOGS/console-$VARIANT.log"
}
expect panic "splat.*console log|Kernel panic" env APPEND=tpsleep.inject=panic TIMEOUT=120 bash -c "$(declare -f boot_and_check); TOP=$TOP LOGS=$LOGS VARIANT=$VARIANT boot_and_check"
expect hang "hung: killed after" env APPEND=tpsleep.inject=hang TIMEOUT=60 bash -c "$(declare -f boot_and_check); TOP=$TOP LOGS=$LOGS VARIANT=$VARIANT boot_and_check"
expect warn "splat.*console log" env APPEND=tpsleep.inject=warn CHECK_TIMEOUT=30 TIMEOUT=900 bash -c "$(declare -f boot_and_check); TOP=$TOP LOGS=$LOGS VARIANT=$VARIANT boot_and_check"
[ "$fail" = 0 ] || die "harness selftest: a deliberate failure went unnoticed"
echo "harness selftest: every deliberate failure was reported"
