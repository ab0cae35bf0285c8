#!/usr/bin/env bash
# Reliability checks beyond the test suite, for .ci/run once PostgreSQL and Redis are up and
# DATABASE_URL / CELERY_BROKER_URL are exported (the suite's own reliability tests, including
# the fuzzing and fault tests, run with the rest of pytest).
#
#   1. the issue's load at the default (tournament) pace: bench/load.py for 40 s with 50
#      referees and 200 standings readers against gunicorn + a real Celery worker on loopback,
#      printing the latency table against the goal (hand entry p95 <= 50 ms) and failing if a
#      request errs or an acknowledged hand is missing from the database;
#   2. a 20 s stress smoke test (10 referees, 40 readers, at the stress pace, 4 hands a game:
#      a referee enters a hand every 1-3 s, so each finishes a game every ~10 s and the
#      standings and ratings tasks run under the load; it fails unless at least MIN_FINISHED
#      (5) games were finished and, within 120 s after the load, the standings count every
#      finished game and the ratings took each in, and prints those counts: issue 37), then,
#      against the same live server, bench/fuzz.py:
#      seed data with an object per state-changing operation, one seeded request per operation
#      sent first (so each operation can answer a 2xx), schemathesis' CLI on every operation of
#      /api/schema/ (5 examples each, examples, coverage and fuzzing phases, then the stateful
#      phase through the OpenAPI links in the last quarter, at most FUZZ_MAX_TIME = 120 s), a table of cases / 2xx / 4xx / 5xx per operation and the
#      "2xx reached: N of 79 operations" line, failing on
#      any 5xx.
#
# Runtime: about 6 minutes (hard limits below). Exit status: non-zero on a failed
# check.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
DURATION=${LOAD_DURATION:-20}
GOAL_DURATION=${GOAL_LOAD_DURATION:-40}

if [[ "${DATABASE_URL:-}" != postgres* ]] || [[ -z "${CELERY_BROKER_URL:-}" ]]; then
  echo "ci-reliability: set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) first" >&2
  exit 2
fi

printf '\n==> %s\n' "load at the issue's size (${GOAL_DURATION} s, 50 referees, 200 readers, tournament pace)"
timeout --kill-after=20 $((GOAL_DURATION + 250)) \
  "$PYTHON" bench/load.py --duration "$GOAL_DURATION" --referees 50 --readers 200

printf '\n==> %s\n' "stress smoke test (${DURATION} s, 10 referees, 40 readers, stress pace) + live fuzzing"
FUZZ_MAX_TIME=${FUZZ_MAX_TIME:-120}
timeout --kill-after=20 $((DURATION + FUZZ_MAX_TIME + 450)) \
  "$PYTHON" bench/load.py --duration "$DURATION" --referees 10 --readers 40 --spawn-rate 25 \
  --referee-wait 1,3 --reader-wait 2,5 --hands-per-game 4 --min-finished "${MIN_FINISHED:-5}" \
  --fuzz-examples "${FUZZ_EXAMPLES:-5}" \
  --fuzz-max-time "$FUZZ_MAX_TIME"
