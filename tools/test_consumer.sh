#!/bin/sh
# `make test-consumer`: Pinmint as a dependency by version.
# - The checkout's files (tracked, and new ones that are not ignored, as
#   they are in the working tree) are committed to a temporary git
#   repository and tagged 0.1.0.
# - A copy of Examples/ depends on it with .package(url: "file://…", from:
#   "0.1.0") (PINMINT_PACKAGE_URL, read by Examples/Package.swift), resolves
#   it, builds (debug, in its own .build: nothing is reused from the
#   checkout's) and runs its tests: a Swift Testing and an XCTest golden
#   test, and the check that every Swift snippet of README.md and docs/ is
#   compiled there (against the tagged copy's docs, PINMINT_ROOT).
# Prints how many seconds each step took.
# Usage: tools/test_consumer.sh SWIFT (from the checkout)
set -eu
swift=$1
checkout=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pinmint-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "test-consumer: $*" >&2; exit 1; }

started=$(date +%s)
mkdir "$work/pinmint"
if git -c safe.directory="$checkout" -C "$checkout" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -c safe.directory="$checkout" -C "$checkout" ls-files -z --cached --others --exclude-standard \
        | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$work/pinmint"
else  # a source tarball rather than a clone: everything but build products
    tar --exclude=./.build --exclude=./Examples/.build -cf - . | tar -xf - -C "$work/pinmint"
fi
[ -f "$work/pinmint/Package.swift" ] || fail "the copy of the checkout has no Package.swift"
git -C "$work/pinmint" -c init.defaultBranch=main init -q
git -C "$work/pinmint" add -A
git -C "$work/pinmint" -c user.name=Pinmint -c user.email=pinmint@localhost -c commit.gpgsign=false \
    commit -q -m "Pinmint 0.1.0"
git -C "$work/pinmint" -c tag.gpgsign=false tag 0.1.0
cp -R "$work/pinmint/Examples" "$work/consumer"
cd "$work/consumer"
export PINMINT_PACKAGE_URL="file://$work/pinmint" PINMINT_ROOT="$work/pinmint"
tagged=$(date +%s)

# Runs a step with its output in $work/log, shown when it fails.
step() {
    "$@" > "$work/log" 2>&1 || { grep -E "error:" "$work/log" | sort -u | head -40; tail -n 30 "$work/log"; fail "$* failed"; }
}
step "$swift" package resolve
resolved=$(date +%s)
grep -q '"version" : "0.1.0"' Package.resolved || fail "Package.resolved does not pin Pinmint 0.1.0"
step "$swift" build --build-tests
built=$(date +%s)
step "$swift" test --skip-build
tested=$(date +%s)

# Both frameworks ran something: XCTest's summary, then Swift Testing's.
xctest=$(grep -A1 "^Test Suite 'All tests' passed" "$work/log" | tail -n 1 | sed 's/^[[:space:]]*//')
testing=$(grep -o "Test run with [0-9]* tests\{0,1\} .* passed" "$work/log" || true)
echo "$xctest" | grep -q "Executed [1-9]" || fail "no XCTest test ran: $xctest"
echo "$testing" | grep -q "with [1-9]" || fail "no Swift Testing test ran"
echo "test-consumer: Pinmint 0.1.0 resolved by version from $PINMINT_PACKAGE_URL"
echo "  XCTest: $xctest"
echo "  Swift Testing: $testing"
echo "  seconds: copy and tag $((tagged - started)), resolve $((resolved - tagged)), build $((built - resolved)), test $((tested - built))"
