#!/usr/bin/env bash
# Fails when a test suite or a test has no time limit: a hung iterator or server then fails its test after the limit
# instead of stalling CI. Every `@Suite` names `.timeLimit`; a file without such a suite (tests in a type without
# `@Suite`, free-standing tests, tests under `#if`) names it on each `@Test`. A comment naming `timeLimit` does not
# count, and tests of a suite declared in another file need a limit of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
limited='@Suite\(.*\.timeLimit\('
# NUL-separated and unquoted: a file name that is not ASCII is listed as it is.
missing=$(git -c core.quotePath=off ls-files -z -- '*.swift' | while IFS= read -r -d '' file; do
    [[ $file =~ (^|/)Tests/ ]] || continue
    code=$(grep -nHvE '^\s*(//|/\*.*\*/\s*$)' "$file" || true)  # file:line:text of each line that is not a comment
    # (Here-strings, not `echo |`: `grep -q` leaves early, and under `pipefail` the `echo` it cut off fails.)
    grep -E '^[^:]+:[0-9]+:\s*(@\w+\s+)*@Suite\b' <<<"$code" | grep -vE "$limited" || true
    # A test at file scope needs its own limit; so does every test of a file without a limited suite.
    grep -E '^[^:]+:[0-9]+:(@\w+\s+)*@Test\b' <<<"$code" | grep -vE '\.timeLimit\(' || true
    if ! grep -qE "$limited" <<<"$code"; then
        grep -E '^[^:]+:[0-9]+:(\s+|[^@]).*@Test\b' <<<"$code" | grep -vE '\.timeLimit\(' || true
    fi
done)
if [ -n "$missing" ]; then
    echo "Tests without a time limit (add .timeLimit(.minutes(1)) to the @Suite or the @Test):"
    echo "$missing"
    exit 1
fi
echo "every test suite has a time limit"
