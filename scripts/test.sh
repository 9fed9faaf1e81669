#!/usr/bin/env bash
# The whole test suite: makes sure the engines the tests talk to are there, builds the browser assets, type-checks,
# runs every test (unit, API, runners, browser, Deno boot), and ends with the plain line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/test-engines.sh || exit 1
npm run build --silent || exit 1
tsc --noEmit || exit 1
rm -f .vitest-results.json
NODE_ENV=test vitest run --reporter=default --reporter=json --outputFile.json=.vitest-results.json "$@"
rc=$?
node -e "
const r = require('./.vitest-results.json');
console.log(r.numPassedTests + ' passed, ' + r.numFailedTests + ' failed');
" || rc=1
exit $rc
