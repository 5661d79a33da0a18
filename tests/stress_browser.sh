#!/usr/bin/env bash
# The browser tests, three times in a row, while two busy processes load both cores: a check that no
# browser test depends on the machine being idle. Passes (exit 0) only when every round ran its tests
# with 0 failures and 0 errors, within the time bound. Not a test itself (pytest does not collect it).
#
#   tests/stress_browser.sh [ROUNDS] [pytest args ...]     (ROUNDS defaults to 3)
#
# The load is `stress-ng --cpu 2` (Debian: apt-get install -y stress-ng), else two Python busy loops.
# Each round runs as `./dev test` does (`./dev test-workers` workers: the cores and one more,
# unless TISCHBLOCK_TEST_WORKERS says; --dist loadfile),
# limited to the tests marked `browser`; with STRESS_TESTS=all, every test (the whole `./dev test`).
# STRESS_LIMIT_S (default 5400) bounds the whole run; a round
# still running then is stopped and counts as failed. Logs, and the screenshot a failed wait takes, go
# to a new /tmp/tischblock-stress-* directory, named at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${TISCHBLOCK_VENV:-.venv}/bin/python"
ROUNDS="${1:-3}"
shift || true
LIMIT_S="${STRESS_LIMIT_S:-5400}"
WORKERS="$(./dev test-workers)"
LOGS="$(mktemp -d /tmp/tischblock-stress-XXXXXX)"
if [ "${STRESS_TESTS:-browser}" = all ]; then
    what="All tests"
    select=()
else
    what="Browser tests"
    select=(-m browser)
fi
export TISCHBLOCK_BROWSER_FAILURES="$LOGS/failed-waits"

load_pids=()
round_pid=""
stop_load() {
    # The round runs in its own process group (timeout's): stop it too when this script is stopped.
    if [ -n "$round_pid" ]; then
        kill -TERM -- "-$round_pid" 2>/dev/null || true
    fi
    for pid in "${load_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${load_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap stop_load EXIT
trap 'exit 130' INT TERM

if command -v stress-ng >/dev/null; then
    load="stress-ng --cpu 2"
    stress-ng --cpu 2 --timeout "${LIMIT_S}s" --quiet &
    load_pids+=("$!")
else
    load="two Python busy loops"
    for _ in 1 2; do
        timeout "${LIMIT_S}s" "$PYTHON" -c "while True: pass" &
        load_pids+=("$!")
    done
fi

started=$(date +%s)
deadline=$((started + LIMIT_S))
failed=0
echo "Load: $load. $what $ROUNDS times, $WORKERS workers, at most ${LIMIT_S}s; logs in $LOGS"
for round in $(seq 1 "$ROUNDS"); do
    left=$((deadline - $(date +%s)))
    if [ "$left" -le 0 ]; then
        echo "round $round: not started, the ${LIMIT_S}s are used up"
        failed=1
        continue
    fi
    round_start=$(date +%s)
    set +e
    timeout --signal=INT --kill-after=60 "$left" \
        "$PYTHON" -m pytest -p no:cacheprovider -q "${select[@]}" -n "$WORKERS" --dist loadfile --no-loadscope-reorder "$@" tests/ \
        >"$LOGS/round-$round.log" 2>&1 &
    round_pid=$!
    wait "$round_pid"
    code=$?
    round_pid=""
    set -e
    summary=$(grep -E "^(=+ )?[0-9]+ (passed|failed|error)|no tests ran" "$LOGS/round-$round.log" | tail -1 || true)
    echo "round $round: exit $code in $(($(date +%s) - round_start))s, load $(cut -d' ' -f1-3 /proc/loadavg): ${summary:-no summary (see the log)}"
    if [ "$code" != 0 ] || ! grep -qE "[0-9]+ passed" <<<"$summary" || grep -qE "[0-9]+ (failed|errors?)\b" <<<"$summary"; then
        failed=1
        grep -E "^(FAILED|ERROR) " "$LOGS/round-$round.log" || true
    fi
done
echo "Total: $(($(date +%s) - started))s, logs in $LOGS"
if [ "$failed" != 0 ]; then
    echo "FAILED: a test failed under load (see the logs above)" >&2
    exit 1
fi
echo "PASSED: $ROUNDS rounds of the ${what,,} with both cores busy, 0 failures"
