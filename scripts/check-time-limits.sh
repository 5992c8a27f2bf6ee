#!/usr/bin/env bash
# Fails when a test suite or a free-standing test has no time limit: a hung iterator or server then fails its test
# after the limit instead of stalling CI. Every `@Suite` names `.timeLimit`, and so does every `@Test` declared at
# file scope (tests inside a suite inherit the suite's limit).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=$(git ls-files '*.swift' | grep -E '(^|/)Tests/' | xargs grep -nE '@Suite|^@Test|^@MainActor @Test' |
    grep -v 'timeLimit' || true)
if [ -n "$missing" ]; then
    echo "Test suites without a time limit (add .timeLimit(.minutes(1))):"
    echo "$missing"
    exit 1
fi
echo "every test suite has a time limit"
