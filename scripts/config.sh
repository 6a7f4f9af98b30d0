#!/bin/bash
# config.sh VARIANT [FRAGMENT-SET]: tinyconfig + config-fragments/*.config
# merged with the tree's merge_config.sh, then olddefconfig, then a check
# that every requested option took effect.
. "$(dirname "$0")/lib.sh"
VARIANT=${1:?usage: config.sh VARIANT}
tree=$(tree_of "$VARIANT")
obj=$(obj_of "$VARIANT")
[ -f "$tree/.variant-stamp" ] || die "no tree for $VARIANT: run scripts/tree.sh $VARIANT"
# FRAGMENTS: extra fragment files (absolute or relative to config-fragments/)
frags=()
for f in "$TOP"/config-fragments/[0-9]*.config ${FRAGMENTS:-}; do
	[ -f "$f" ] || f=$TOP/config-fragments/$f
	[ -f "$f" ] || die "no config fragment $f"
	frags+=("$f")
done
mkdir -p "$obj"
stage "config: tinyconfig + $(printf "%s " "${frags[@]##*/}")"
make -s -C "$tree" O="$obj" tinyconfig >/dev/null 2>&1
(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}") >"$obj/merge_config.log" 2>&1 ||
	{ cat "$obj/merge_config.log"; die "merge_config.sh failed"; }
make -s -C "$tree" O="$obj" olddefconfig >/dev/null

# Every option requested by a fragment must be in the final .config.
bad=0
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*}; want=$line ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want=$line ;;
		*) continue ;;
		esac
		got=$(grep -E "^($opt=|# $opt is not set)" "$obj/.config" || true)
		if [ "$want" != "$got" ] && ! { [ -z "$got" ] && [ "${want#\# }" != "$want" ]; }; then
			echo "config: ${f##*/}: requested '$want', got '${got:-<absent>}'" >&2
			bad=1
		fi
	done < "$f"
done
[ "$bad" = 0 ] || die "config options were dropped by Kconfig (see above)"
echo "config: $(grep -c '=y' "$obj/.config") options =y, all requested options present"
