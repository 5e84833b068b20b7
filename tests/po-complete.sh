#!/bin/sh
# The German catalog is complete: every source file that marks a string
# (_(), N_(), P_()) is listed in po/POTFILES.in and every listed file
# exists; xgettext over those files (with po/Makevars' options) finds no
# message that po/de.po lacks, leaves fuzzy or untranslated; and the
# German "terminal too small" lines fit in the 40 columns the English
# ones fit in. After adding strings: make -C po update-po, then translate.
set -u

top_srcdir=${top_srcdir:-.}
po="$top_srcdir/po"

for tool in xgettext msgmerge msgattrib msggrep msgexec; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		if [ "${CI:-}" = true ]; then
			echo "FAIL: $tool (gettext) is required under CI" >&2
			exit 1
		fi
		echo "SKIP: $tool not installed" >&2
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlearn-po.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

# 1. POTFILES.in lists exactly the files with marked strings.
grep -v '^#' "$po/POTFILES.in" | sed '/^[[:space:]]*$/d' | sort >"$tmp/listed"
(cd "$top_srcdir" && grep -rlE '(^|[^A-Za-z0-9_])[NP]?_\(' \
	--include='*.c' --include='*.h' src) | sort >"$tmp/marked"
comm -13 "$tmp/listed" "$tmp/marked" >"$tmp/unlisted"
if [ -s "$tmp/unlisted" ]; then
	echo "FAIL: files with translatable strings missing from po/POTFILES.in:" >&2
	sed 's/^/  /' "$tmp/unlisted" >&2
	status=1
fi
while read -r f; do
	[ -f "$top_srcdir/$f" ] || {
		echo "FAIL: po/POTFILES.in lists $f, which does not exist" >&2
		status=1
	}
done <"$tmp/listed"

# 2. xgettext with the options po/Makevars gives it.
opts=$(sed -n '/^XGETTEXT_OPTIONS/,/[^\\]$/p' "$po/Makevars" |
	sed 's/^XGETTEXT_OPTIONS *= *//; s/\\$//' | tr '\n' ' ')
[ -n "$opts" ] || { echo "FAIL: no XGETTEXT_OPTIONS in po/Makevars" >&2; exit 1; }
# shellcheck disable=SC2086
(cd "$top_srcdir" && xgettext $opts -o "$tmp/parlearn.pot" \
	$(cat "$tmp/listed" "$tmp/unlisted")) || {
	echo "FAIL: xgettext failed" >&2
	exit 1
}
n=$(grep -c '^msgid ' "$tmp/parlearn.pot")
[ "$n" -gt 500 ] || { echo "FAIL: only $n messages extracted" >&2; exit 1; }

# 3. Every message translated in de.po, none fuzzy.
msgmerge -q --no-fuzzy-matching "$po/de.po" "$tmp/parlearn.pot" \
	-o "$tmp/de.po" || { echo "FAIL: msgmerge failed" >&2; exit 1; }
msgattrib --untranslated --no-obsolete "$tmp/de.po" -o "$tmp/missing.po"
msgattrib --only-fuzzy --no-obsolete "$tmp/de.po" -o "$tmp/fuzzy.po"
for kind in missing fuzzy; do
	if [ -s "$tmp/$kind.po" ] && grep -q '^msgid "' "$tmp/$kind.po"; then
		echo "FAIL: messages $kind in po/de.po (run 'make -C po update-po' and translate):" >&2
		awk '/^msgid /{on=1} /^msgstr/{on=0} on' "$tmp/$kind.po" |
			sed '1{/^msgid ""$/d}; s/^/  /' >&2
		status=1
	fi
done

# 4. The "terminal too small" message at 40x12 fits 40 columns in German.
for id in "Terminal too small: %dx%d, need %dx%d." \
	"Enlarge the window, or press q to quit."; do
	fmt=$(msggrep --msgid -F -e "$id" "$tmp/de.po" |
		msgexec -i - sh -c '[ -z "$MSGEXEC_MSGID" ] || cat')
	if [ -z "$fmt" ]; then
		echo "FAIL: no German for \"$id\"" >&2
		status=1
		continue
	fi
	# shellcheck disable=SC2059
	line=$(printf "$fmt" 40 12 50 14)
	cols=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)
	if [ "$cols" -gt 40 ]; then
		echo "FAIL: \"$line\" is $cols columns, more than 40" >&2
		status=1
	fi
done

[ $status -eq 0 ] && echo "po/de.po: all $n messages translated"
exit $status
