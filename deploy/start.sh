#!/bin/sh
# Container entry: apply migrations (safe to run from several app containers at once: Django takes
# them in a transaction on PostgreSQL), then serve with gunicorn.
set -e
python manage.py migrate --noinput
exec gunicorn tournament.wsgi:application \
  --bind "${BIND:-0.0.0.0:8000}" \
  --workers "${WEB_CONCURRENCY:-2}" \
  --threads "${GUNICORN_THREADS:-4}" \
  --access-logfile - \
  --forwarded-allow-ips "*"
