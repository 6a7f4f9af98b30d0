#!/bin/bash
# config.sh VARIANT [FRAGMENT-SET]: tinyconfig + config-fragments/*.config
# merged with the tree's merge_config.sh, then olddefconfig, then a check
# that every requested option took effect.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: config.sh VARIANT}
arch_setup "$VARIANT"
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$tree/.variant-stamp" ] || die "no tree for $VARIANT: run scripts/tree.sh $VARIANT"
# FRAGMENTS: extra fragment files (absolute or relative to config-fragments/)
frags=()
for f in "$TOP"/config-fragments/[0-9]*.config $ARCH_FRAGMENTS ${FRAGMENTS:-}; do
	[ -f "$f" ] || f=$TOP/config-fragments/$f
	[ -f "$f" ] || die "no config fragment $f"
	frags+=("$f")
done
mkdir -p "$obj"
stage "config: $ARCH tinyconfig + $(printf "%s " "${frags[@]##*/}")"
make -s -C "$tree" O="$obj" tinyconfig >/dev/null 2>&1
(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}") >"$obj/merge_config.log" 2>&1 ||
	{ cat "$obj/merge_config.log"; die "merge_config.sh failed"; }
make -s -C "$tree" O="$obj" olddefconfig >/dev/null

# Every option requested by a fragment must be in the final .config; a
# later fragment's request of an option replaces an earlier one's (as in
# merge_config.sh).
declare -A want_of=() from_of=()
order=()
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*} ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
		*) continue ;;
		esac
		[ -n "${want_of[$opt]+set}" ] || order+=("$opt")
		want_of[$opt]=$line
		from_of[$opt]=${f##*/}
	done < "$f"
done
# CONFIG_REQUIRE=extra (make robot's cells): only the options of FRAGMENTS
# must hold; what the cell's options take from the common fragments (e.g.
# lockdep without a preempt count, the BPF options without bpf()) is
# counted, not an error.
extra=" "
for f in ${FRAGMENTS:-}; do extra="$extra${f##*/} "; done
bad=0
fell=0
for opt in "${order[@]}"; do
	want=${want_of[$opt]}
	got=$(grep -E "^($opt=|# $opt is not set)" "$obj/.config" || true)
	if [ "$want" != "$got" ] && ! { [ -z "$got" ] && [ "${want#\# }" != "$want" ]; }; then
		if [ "${CONFIG_REQUIRE:-all}" = extra ] && [ "${extra#* "${from_of[$opt]}" }" = "$extra" ]; then
			fell=$((fell + 1))
			continue
		fi
		echo "config: ${from_of[$opt]}: requested '$want', got '${got:-<absent>}'" >&2
		bad=1
	fi
done
[ "$bad" = 0 ] || die "config options were dropped by Kconfig (see above)"
[ "$fell" = 0 ] || echo "config: $fell options of the common fragments fell with$extra(CONFIG_REQUIRE=extra)"
echo "config: $(grep -c '=y' "$obj/.config") options =y, all requested options present"
