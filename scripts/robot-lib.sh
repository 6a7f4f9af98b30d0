# shellcheck shell=bash
# robot-lib.sh: the comparison of make robot (scripts/robot.sh), sourced
# by it and by scripts/robot-selftest.sh, which tries it on made-up sets
# (make hygiene).  R is the directory of a run's files.

# norm FILE...: warning lines of build logs (and sparse's error lines:
# sparse reports an address-space mismatch such as a bad __rcu access as
# an error, and the build goes on), without the tree's path (absolute, or
# relative to the object directory: ../../trees/SET/, as kbuild names the
# sources of an O= build), line and column numbers, each with its count
# (a second identical warning in a file is an added one; every set of a
# cell checks the same files, the series adds no C file)
norm() {
	grep -hE ': (warning|error):' "$@" 2>/dev/null |
		sed -E "s|^$TREES/[^/]*/||; s|^(\.\./)+trees/[^/]*/||; s|:[0-9]+:[0-9]+:|:|; s|:[0-9]+:|:|" |
		counted
}

# counted: the lines of stdin, each once with its count ("TEXT [xN]"),
# sorted (norm's form, and kdoc_norm's)
counted() {
	sort | uniq -c | sed -E 's/^ *([0-9]+) (.*)$/\2 [x\1]/' | sort
}

# kdoc_norm: what kernel-doc -none -v printed (stdin, robot.sh's kdoc)
# without its "info:" lines and its "N warnings" totals, without line
# numbers, counted.  Every other line is kept (a warning, an error, a
# perl warning): one the series adds fails the run.  Empty lines are
# dropped; no line at all is not a failure (grep's status 1).
kdoc_norm() {
	{ grep -vE '^[^ ]+:[0-9]+: info: |^[0-9]+ (warnings?|errors?)$|^$' || [ $? = 1 ]; } |
		sed -E 's|:[0-9]+:|:|; s|line [0-9]+|line N|g' | counted
}

# added KIND VARIANT BASE: the KIND warnings of VARIANT that BASE has not,
# or has fewer times (norm's "TEXT [xN]" lines; one fewer is not added).
# BASE's lines are those of the first file by name (NR == FNR would take
# VARIANT's for BASE's when BASE has none); a file that cannot be read
# fails.
added() {
	awk 'function parse(line) {
		if (match(line, / \[x[0-9]+\]$/)) {
			text = substr(line, 1, RSTART - 1)
			n = substr(line, RSTART + 3, RLENGTH - 4) + 0
		} else {
			text = line
			n = 1
		}
	}
	FILENAME == ARGV[1] { parse($0); base[text] = n; next }
	{ parse($0); if (n > base[text] + 0) print }' "$R/$3.$1" "$R/$2.$1"
}

# set_ok VARIANT BASE: both built (and checked), nothing added over BASE.
# What is added is written to $R/VARIANT.added.{cc,w1,sparse}, the one
# comparison robot-report.py reports (it does not compare again).
set_ok() {
	local k
	rm -f "$R/$1".added.{cc,w1,sparse}
	grep -q '^result=built' "$R/$1.status" || return 1
	grep -q '^result=built' "$R/$2.status" 2>/dev/null || return 1
	for k in cc w1 sparse; do
		added "$k" "$1" "$2" > "$R/$1.added.$k" || return 1
	done
	! [ -s "$R/$1.added.cc" ] && ! [ -s "$R/$1.added.w1" ] && ! [ -s "$R/$1.added.sparse" ]
}

# kdoc TREE FILE...: kernel-doc -none -v on those FILEs TREE has,
# kdoc_norm's form.  kernel-doc failing (with -none it exits 0 unless
# told -Werror, which KCFLAGS or KDOC_WERROR would) fails it, naming the
# file, on stderr.
kdoc() {
	local t=$1 f out
	shift
	for f; do
		[ -f "$t/$f" ] || continue
		out=$(cd "$t" && env -u KCFLAGS -u KDOC_WERROR perl scripts/kernel-doc -none -v "$f" 2>&1) ||
			{ echo "kernel-doc exits $? on $f: $(tail -n 1 <<< "$out")" >&2; return 1; }
		[ -z "$out" ] || printf '%s\n' "$out"
	done | kdoc_norm
}

# kdoc_compare BASE_TREE TREE FILE...: kernel-doc's warnings on FILE... in
# both ($R/baseline.kdoc, $R/faulting.kdoc) and those TREE adds
# ($R/kdoc.added), or why kernel-doc failed ($R/kdoc.failed, the others
# removed).  Fails when kernel-doc failed or TREE adds a warning.
kdoc_compare() {
	local b=$1 t=$2
	shift 2
	rm -f "$R"/{baseline,faulting}.kdoc "$R"/kdoc.{added,failed}
	if ! { kdoc "$b" "$@" > "$R/baseline.kdoc" && kdoc "$t" "$@" > "$R/faulting.kdoc"; } 2> "$R/kdoc.failed"; then
		rm -f "$R"/{baseline,faulting}.kdoc
		[ -s "$R/kdoc.failed" ] || echo "kernel-doc failed" > "$R/kdoc.failed"
		return 1
	fi
	rm -f "$R/kdoc.failed"
	added kdoc faulting baseline > "$R/kdoc.added" || return 1
	! [ -s "$R/kdoc.added" ]
}
