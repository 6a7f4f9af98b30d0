#!/bin/bash
# robot.sh: the robots' view (make robot).  For each cell of ROBOT_CELLS
# (a configuration, config-fragments/robot/CELL.config on top of ours, or an
# architecture) and each patch set of ROBOT_SETS (baseline, patched: the
# six, faulting: the whole series): tree, config (only the cell's own
# options must hold: CONFIG_REQUIRE=extra), build of the image and the
# modules where the cell has modules, then, on the files the series
# touches (those this cell compiles), sparse (C=2) and a W=1 rebuild.  A
# cell passes when its sets build and neither the six nor the series adds
# a compiler warning, a W=1 warning or a sparse warning that baseline of
# the same cell has not (compared without line numbers).  A set that
# fails is build-bisected over the prefixes of the series in that cell,
# as the kernel test robot does: the first patch whose prefix fails.
# Then every prefix of the series is built, incrementally in one tree, in
# the cells of ROBOT_PREFIX_CELLS.
# build/results/robot.md (a row per cell) and robot.json, the generated
# table of docs/measurements.md and README's row; one build at a
# time (build_lock), one tree and object directory per cell and set,
# ccache shared.
#   ROBOT_CELLS         default: every cell of config-fragments/robot/cells
#                       (a cell named CELL-arm64 is CELL's fragment on
#                       arm64: x86 cannot drop PERF_EVENTS)
#   ROBOT_SETS          default: baseline patched faulting
#   ROBOT_KEEP_OBJS     set: keep the sets' object directories
#   ROBOT_PREFIX_CELLS  cells whose every prefix is built, each one of
#                       ROBOT_CELLS (default: those of preempt-none and
#                       arm64 that are; empty: none)
# Every set and prefix is compared with baseline of its cell built in the
# same run: ROBOT_SETS must hold baseline (the base of a walk alone:
# ROBOT_CELLS=arm64 ROBOT_SETS=baseline ROBOT_PREFIX_CELLS=arm64).
. "$(dirname "$0")/lib.sh"
# norm, counted, kdoc_norm, added, set_ok: the comparison
# (scripts/robot-selftest.sh tries it)
. "$(dirname "$0")/robot-lib.sh"
CELLS_FILE=$TOP/config-fragments/robot/cells
CELLS=${ROBOT_CELLS:-$(awk '{ sub(/#.*/, "") } NF { print $1 }' "$CELLS_FILE")}
SETS=${ROBOT_SETS:-baseline patched faulting}
if [ -n "${ROBOT_PREFIX_CELLS+set}" ]; then
	PREFIX_CELLS=$ROBOT_PREFIX_CELLS
else
	PREFIX_CELLS=$(for c in preempt-none arm64; do
		case " $(echo $CELLS) " in *" $c "*) echo "$c" ;; esac; done)
fi
case " $SETS " in
*" baseline "*) ;;
*) die "robot: ROBOT_SETS ($SETS) must hold baseline: each set is compared with baseline of this run" ;;
esac
for c in $PREFIX_CELLS; do
	case " $(echo $CELLS) " in
	*" $c "*) ;;
	*) die "robot: prefix walk cell $c is not one of ROBOT_CELLS ($(echo $CELLS)): its baseline would not be built" ;;
	esac
done
export CONFIG_REQUIRE=extra BUILD_WARNINGS=keep
RESULTS_TARGET=robot
R=$RESULTS/robot
t_start=$(date +%s)
mkdir -p "$R" "$LOGS"
results start
"$TOP/scripts/deps.sh" packages-robot.txt

# cell_fragments CELL: the cell's fragment (none for x86_64 and arm64:
# ours, and ours with config-fragments/arm64; CELL-arm64: CELL's on arm64,
# whose variants' names end in -arm64, see arch_of)
cell_fragments() {
	local c=${1%-arm64}
	case $1 in
	x86_64|arm64) ;;
	debian) echo debian/model.config ;;
	*) [ -f "$TOP/config-fragments/robot/$c.config" ] ||
		die "robot: no cell $1 (config-fragments/robot/$c.config)"
	   echo "robot/$c.config" ;;
	esac
}

# Cells Kconfig cannot give on their architecture (the cells file's
# "unconfigurable"; x86 selects PERF_EVENTS).  Such a cell passes only when
# every set of it is reported not configurable; any other cell that does
# not configure fails.  robot-report.py applies the same rule to the table.
UNCONFIGURABLE=$(awk '{ sub(/#.*/, "") } NF && $2 == "unconfigurable" { print $1 }' "$CELLS_FILE")
for c in $CELLS $PREFIX_CELLS; do
	cell_fragments "$c" > /dev/null	# a misspelled cell stops here
done

touched=$(touched_objs)

# build_set VARIANT CELL: tree, config, build; sparse and W=1 on the
# touched files.  Writes $R/VARIANT.{status,cc,w1,sparse}.
build_set() {
	local v=$1 cell=$2 st=$R/$1.status t0 obj tree objs o
	: > "$st"
	rm -f "$R/$v".{cc,w1,sparse,err} "$R/$v".added.{cc,w1,sparse}
	t0=$(date +%s)
	FRAGMENTS=$(cell_fragments "$cell")
	export FRAGMENTS
	if ! "$TOP/scripts/tree.sh" "$v" > "$R/$v.tree.log" 2>&1; then
		echo "result=noapply" >> "$st"
		grep -m1 -E 'ERROR|does not apply' "$R/$v.tree.log" > "$R/$v.err"
		return 1
	fi
	if ! "$TOP/scripts/config.sh" "$v" > "$R/$v.config.log" 2>&1; then
		echo "result=noconfig" >> "$st"
		grep -E "^config: .*requested" "$R/$v.config.log" | head -n 3 > "$R/$v.err"
		return 1
	fi
	if ! "$TOP/scripts/build.sh" "$v" > "$R/$v.build.log" 2>&1; then
		echo "result=nobuild" >> "$st"
		grep -m1 -E ': error:|Error [0-9]|undefined reference|ERROR:' "$LOGS/build-$v.log" > "$R/$v.err" ||
			tail -n 3 "$R/$v.build.log" > "$R/$v.err"
		echo "seconds=$(( $(date +%s) - t0 ))" >> "$st"
		return 1
	fi
	norm "$LOGS/build-$v.log" > "$R/$v.cc"
	# sparse, then W=1 (which rebuilds them with its flags), on the touched
	# files this configuration compiles
	arch_setup "$v"
	obj=$(obj_of "$v")
	tree=$(tree_of "$v")
	objs=
	for o in $touched; do
		[ ! -f "$obj/$o" ] || objs="$objs $o"
	done
	# (scripts/sparse-cc.sh: sparse with riscv's -march as it can read it).
	# A run that stops (sparse or the W=1 build) fails the set: the
	# warnings it did not get to are not "none added".
	build_lock "robot $v: sparse, W=1"
	# shellcheck disable=SC2086 # lists of objects
	if ! make -C "$tree" O="$obj" -j"$JOBS" CC="$KCC" C=2 CHECK="$TOP/scripts/sparse-cc.sh" $objs > "$R/$v.sparse.log" 2>&1 9>&-; then
		echo "result=nosparse" >> "$st"
		grep -v 'given more than once' "$R/$v.sparse.log" | grep -m1 -E 'error|invalid|Error [0-9]' > "$R/$v.err"
	elif ! make -C "$tree" O="$obj" -j"$JOBS" CC="$KCC" W=1 $objs > "$R/$v.w1.log" 2>&1 9>&-; then
		echo "result=now1" >> "$st"
		grep -m1 -E ': error:|Error [0-9]' "$R/$v.w1.log" > "$R/$v.err"
	fi
	build_unlock
	if grep -q '^result=no' "$st"; then
		echo "seconds=$(( $(date +%s) - t0 ))" >> "$st"
		return 1
	fi
	norm "$R/$v.sparse.log" > "$R/$v.sparse"
	norm "$R/$v.w1.log" > "$R/$v.w1"
	echo "result=built" >> "$st"
	echo "objs=$(echo $objs | wc -w)" >> "$st"
	echo "seconds=$(( $(date +%s) - t0 ))" >> "$st"
}

# first_bad CELL LO HI: the first prefix in LO+1..HI that fails (LO passes,
# HI fails), built in the cell's prefix tree
first_bad() {
	local cell=$1 lo=$2 hi=$3 mid
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(( (lo + hi) / 2 ))
		if build_set "prefix-$mid-robot-$cell" "$cell" >&2 && set_ok "prefix-$mid-robot-$cell" "baseline-robot-$cell"; then
			lo=$mid
		else
			hi=$mid
		fi
	done
	echo "$hi"
}

nsix=$(series_patches patched | wc -l)
nall=$(series_patches faulting | wc -l)
status=0
for cell in $CELLS; do
	VARIANT="robot-$cell"
	stage "robot: cell $cell"
	cst=$R/cell-$cell.status
	: > "$cst"
	for set in $SETS; do
		v=$set-robot-$cell
		VARIANT=$v
		stage "robot: $cell, $set"
		build_set "$v" "$cell" || true
		sed 's/^/  /' "$R/$v.status"
		[ ! -s "$R/$v.err" ] || sed 's/^/  error: /' "$R/$v.err"
	done
	# The sets' object directories go (about 1 GB each: the cells would not
	# fit on this machine's disk), unless ROBOT_KEEP_OBJS is set; what is
	# compared is in $R, and ccache keeps the objects for a rerun.
	if [ -z "${ROBOT_KEEP_OBJS:-}" ]; then
		for set in $SETS; do
			rm -rf "$(obj_of "$set-robot-$cell")"
		done
	fi
	base=baseline-robot-$cell
	if grep -q '^result=noconfig' "$R/$base.status" 2>/dev/null; then
		echo "cell=noconfig" >> "$cst"
		case " $UNCONFIGURABLE " in
		*" $cell "*)
			for set in $SETS; do
				grep -q '^result=noconfig' "$R/$set-robot-$cell.status" || {
					echo "cell=unexpected: $set configures" >> "$cst"; status=1; }
			done ;;
		*) echo "cell=unexpected: its fragment does not hold" >> "$cst"; status=1 ;;
		esac
		continue
	fi
	for set in $SETS; do
		[ "$set" != baseline ] || continue
		v=$set-robot-$cell
		if set_ok "$v" "$base"; then
			echo "$set=ok" >> "$cst"
			continue
		fi
		status=1
		echo "$set=fail" >> "$cst"
		for k in cc w1 sparse; do	# (none when a set was not built)
			[ ! -f "$R/$v.added.$k" ] || sed "s/^/$set.$k: /" "$R/$v.added.$k" >> "$cst"
		done
		# the first failing prefix: the six between 0 and 6, the follow-up
		# between 6 (if the six pass here) and the whole series
		case $set in
		patched) lo=0 hi=$nsix ;;
		*) lo=0 hi=$nall
		   ! grep -q '^patched=ok' "$cst" || lo=$nsix ;;
		esac
		# (any failure but a series that does not apply, when baseline
		# built: a build, configuration, sparse or W=1 failure too)
		if ! grep -q '^result=noapply' "$R/$v.status" && grep -q '^result=built' "$R/$base.status"; then
			VARIANT=prefix-robot-$cell
			bad=$(first_bad "$cell" "$lo" "$hi")
			echo "$set.first_bad=$bad $(series_patches faulting | sed -n "${bad}p")" >> "$cst"
		fi
	done
	# the bisect's objects go too (the prefix walk below starts its own)
	[ -n "${ROBOT_KEEP_OBJS:-}" ] || rm -rf "$(obj_of "prefix-0-robot-$cell")"
done

# Every prefix of the series, built incrementally in the cell's prefix tree.
for cell in $PREFIX_CELLS; do
	pst=$R/prefixes-$cell.status
	: > "$pst"
	t0=$(date +%s)
	for n in $(seq 1 "$nall"); do
		v=prefix-$n-robot-$cell
		VARIANT=$v
		stage "robot: cell $cell, prefix $n of $nall"
		if build_set "$v" "$cell" && set_ok "$v" "baseline-robot-$cell"; then
			echo "$n=ok $(sed -n 's/^seconds=//p' "$R/$v.status")" >> "$pst"
		else
			status=1
			# why: the first error, else the first warning added
			why=$(cat "$R/$v.err" 2>/dev/null || true)
			[ -n "$why" ] || why=$(cat "$R/$v".added.{cc,w1,sparse} 2>/dev/null | head -n 1 || true)
			echo "$n=fail $(printf '%s' "$why" | tr '\n' ' ')" >> "$pst"
		fi
	done
	echo "total_s=$(( $(date +%s) - t0 ))" >> "$pst"
	[ -n "${ROBOT_KEEP_OBJS:-}" ] || rm -rf "$(obj_of "prefix-0-robot-$cell")"
done

# kernel-doc -none -v on every file the series touches (6.1's kernel-doc
# has no -Wall, added in 6.2; -v is its extra warnings): the pristine
# tree against the whole series (the faulting tree of the first cell that
# has one)
VARIANT=robot
stage "robot: kernel-doc -none -v on the touched files"
kfiles=$(series_files '\.[ch]$')
# (kdoc.baseline and kdoc.faulting: an older run's names)
rm -f "$R"/{baseline,faulting}.kdoc "$R"/kdoc.{added,failed,baseline,faulting}
for cell in $CELLS; do
	ft=$(tree_of "faulting-robot-$cell")
	# a whole-series tree this run applied (not one left by an earlier series)
	case " $SETS " in *" faulting "*) ;; *) break ;; esac
	fst=$R/faulting-robot-$cell.status
	if [ -f "$ft/.variant-stamp" ] && [ -s "$fst" ] && ! grep -q '^result=noapply' "$fst"; then
		# shellcheck disable=SC2086 # a list of files
		kdoc_compare "$PRISTINE" "$ft" $kfiles || status=1
		break
	fi
done
# (its figures, failure and added warnings: robot-report.py, below)
[ -f "$R/faulting.kdoc" ] || [ -f "$R/kdoc.failed" ] ||
	echo "kernel-doc: no faulting tree in any cell: not run"

echo "total_s=$(( $(date +%s) - t_start ))" > "$R/total.status"
# shellcheck disable=SC2086 # lists of names
python3 "$TOP/scripts/robot-report.py" "$R" --cells $CELLS --sets $SETS --prefix-cells $PREFIX_CELLS \
	--unconfigurable $UNCONFIGURABLE || status=1
results record --status "$status"
[ "$status" = 0 ] || echo "robot: FAILED" >&2
exit "$status"
