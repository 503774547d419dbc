#!/bin/sh
# `make test-install`: installs Pinmint into a temporary folder (DESTDIR,
# PREFIX=/opt/pinmint) and checks that
# - exactly bin/pinmint and the fonts (with their licences and README) went there;
# - the installed binary, run with an empty environment (env -i) from an
#   unrelated folder, takes its fonts from beside itself (`pinmint fonts`
#   says where, and the checkout's path appears nowhere in its listing) and
#   renders a price tag byte for byte as the checkout's build does;
# - where the system lets us (unshare: a user and mount namespace), the same
#   with the checkout made unreachable (an empty tmpfs mounted over it), and
#   a copy of the binary without its share/ folder stops with one line that
#   names each place it looked;
# - `make uninstall` leaves no file behind.
# Usage: tools/test_install.sh MAKE RELEASE_BINARY FONT_FILE... (from the checkout)
set -eu
label=5200萬 badge=成
fail() { echo "test-install: $*" >&2; exit 1; }

# Runs in $stage/work with nothing of the caller's environment.
check_installed() {
    cd "$stage/work"
    fonts=$(env -i "$prefix/bin/pinmint" fonts --no-system) || fail "pinmint fonts failed"
    first=$(echo "$fonts" | head -n 1)
    [ "$first" = "Pinmint's fonts: $prefix/share/pinmint/fonts (installed beside $prefix/bin/pinmint)" ] \
        || fail "pinmint fonts said: $first"
    if echo "$fonts" | grep -qF "$checkout/"; then fail "the installed binary lists fonts from the checkout"; fi
    env -i "$prefix/bin/pinmint" render price-tag --label "$label" --badge "$badge" --scale 2 -o tag.png
    cmp -s tag.png "$stage/checkout-tag.png" || fail "the installed binary's tag.png differs from the checkout's"
    rm tag.png
}

# The same with the checkout hidden; a binary without share/ says where it looked.
check_without_checkout() {
    mount -t tmpfs pinmint-hidden "$checkout"
    [ ! -e "$checkout/Fonts" ] || fail "the checkout is still reachable"
    check_installed
    if message=$(env -i "$stage/lone/bin/pinmint" render price-tag --label 1 -o tag.png 2>&1); then
        fail "a binary without its fonts rendered"
    fi
    [ "$message" = "pinmint: fonts: Pinmint's fonts not found: looked in $stage/lone/share/pinmint/fonts (installed beside $stage/lone/bin/pinmint), $checkout/Fonts (the checkout it was built from); install them with 'make install PREFIX=…' or set PINMINT_FONTS to a folder of fonts" ] \
        || fail "a binary without its fonts said: $message"
    [ ! -e tag.png ] || fail "a binary without its fonts wrote tag.png"
}

# Inside the namespace that unshare made (see below): stage, prefix and checkout come from the environment.
if [ "${1:-}" = --without-checkout ]; then
    check_without_checkout
    exit 0
fi

make_command=$1 checkout_binary=$2
shift 2
checkout=$(pwd)
script=$checkout/tools/test_install.sh
stage=$(mktemp -d "${TMPDIR:-/tmp}/pinmint-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
prefix=$stage/opt/pinmint

$make_command --no-print-directory install DESTDIR="$stage" PREFIX=/opt/pinmint >/dev/null

expected=$(for file in bin/pinmint "$@"; do echo "$file"; done | sed 's|^Fonts/|share/pinmint/fonts/|' | sort)
installed=$(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | sort)
[ "$installed" = "$expected" ] || fail "installed files differ from bin/pinmint and the fonts:
$installed"

"$checkout/$checkout_binary" render price-tag --label "$label" --badge "$badge" --scale 2 -o "$stage/checkout-tag.png"
mkdir "$stage/work" "$stage/lone" "$stage/lone/bin"
cp "$prefix/bin/pinmint" "$stage/lone/bin/pinmint"

check_installed
hidden="checkout hidden: not tried (unshare -rm is not permitted here)"
if unshare -rm true 2>/dev/null; then
    export stage prefix checkout
    unshare -rm sh "$script" --without-checkout
    hidden="checkout hidden: the installed binary rendered the same; a lone copy named where it looked"
fi

$make_command --no-print-directory -C "$checkout" uninstall DESTDIR="$stage" PREFIX=/opt/pinmint >/dev/null
left=$(find "$stage/opt" -type f)
[ -z "$left" ] && [ ! -e "$prefix/share/pinmint" ] || fail "make uninstall left: $left"
echo "test-install: $(echo "$installed" | wc -l) files installed; fonts found beside the binary from $stage/work; tag.png as the checkout's; $hidden; uninstalled"
