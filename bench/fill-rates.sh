#!/usr/bin/env bash
# Fill rates per source format: loads every source fixture into an empty database through
# `ingest --format`, then prints `stats` (coverage per field, per source).
# Usage: DATABASE_URL=postgres://…/scratch bench/fill-rates.sh [--boards]   (the database is emptied first)
#   --boards  also name the Workday boards (--board), so list entries without a detail load, and load
#             the Workday list whose rows embed their details
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a scratch database (its jobs are deleted)}"
psql "$DATABASE_URL" -qc 'DROP SCHEMA public CASCADE; CREATE SCHEMA public;' >/dev/null 2>&1
F=test/fixtures/sources
cli() { npm run -s cli -- "$@" >/dev/null; }
cli ingest --format greenhouse --company 'Lumen Labs' "$F/greenhouse/board.json" "$F/greenhouse/job-pay.json"
cli ingest --format lever "$F/lever/postings.json"
cli ingest --format ashby "$F/ashby/board.json"
cli ingest --format workable "$F/workable/account.json"
cli ingest --format smartrecruiters "$F/smartrecruiters/postings.json"
cli ingest --format recruitee "$F/recruitee/offers.json"
cli ingest --format personio "$F/personio/positions.xml"
if [ "${1:-}" = --boards ]; then
  cli ingest --format workday --board nordkap.wd3/Careers "$F/workday/jobs.json" "$F/workday/detail.json"
  cli ingest --format workday --board grimsby.wd5/External "$F/workday/jobs-embedded.json"
else
  cli ingest --format workday "$F/workday/jobs.json" "$F/workday/detail.json"
fi
cli ingest --format jsonld --source careerboard "$F/jsonld/careerboard-job.html"
cli ingest --format jsonld --source alljobs "$F/jsonld/alljobs-list.html"
npm run -s cli -- stats 2>&1 >/dev/null
