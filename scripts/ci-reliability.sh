#!/usr/bin/env bash
# Reliability checks beyond the test suite, for .ci/run once PostgreSQL and Redis are up and
# DATABASE_URL / CELERY_BROKER_URL are exported (the suite's own reliability tests, including
# the fuzzing and fault tests, run with the rest of pytest).
#
#   1. a short load smoke test: bench/load.py for 20 s with 10 referees and 40 standings
#      readers against gunicorn + a real Celery worker on loopback, printing the latency table
#      and failing if a request errs or an acknowledged hand is missing from the database;
#   2. then, against the same live server, schemathesis' CLI on every operation of
#      /api/schema/ (5 examples each, as an organiser), failing on any 5xx.
#
# Runtime: about 2-3 minutes (under 5, hard limit below). Exit status: non-zero on a failed
# check.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
DURATION=${LOAD_DURATION:-20}

if [[ "${DATABASE_URL:-}" != postgres* ]] || [[ -z "${CELERY_BROKER_URL:-}" ]]; then
  echo "ci-reliability: set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) first" >&2
  exit 2
fi

printf '\n==> %s\n' "load smoke test (${DURATION} s, 10 referees, 40 readers) + live fuzzing"
timeout --kill-after=20 $((DURATION + 250)) \
  "$PYTHON" bench/load.py --duration "$DURATION" --referees 10 --readers 40 --spawn-rate 25 \
  --fuzz-examples "${FUZZ_EXAMPLES:-5}"
