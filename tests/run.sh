#!/usr/bin/env bash
# The kit's test suite (make test). Host-side tests run everywhere; GPU tests run where a
# GPU is present and are reported as skipped elsewhere. Ends with "N passed, N failed,
# N skipped" and a non-zero exit status on any failure.
set -u
cd "$(dirname "$0")/.." || exit 4
scripts/check-tools.sh || exit 1
. tests/lib.sh

for t in tests/test_*.sh; do
    echo "== $t"
    # shellcheck source=/dev/null
    . "$t"
done
summary
