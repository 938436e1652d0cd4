#!/bin/sh
# Container entry: apply migrations (safe to run from several app containers at once: Django takes
# them in a transaction on PostgreSQL), then serve with gunicorn.
#
# gunicorn believes X-Forwarded-Proto (HTTPS or not) only from FORWARDED_ALLOW_IPS, the proxy in front
# (docker-compose sets its network); never a wildcard, or any client reaching gunicorn could claim HTTPS.
# Request lines and headers are bounded here; bodies over MAX_REQUEST_BYTES are refused by the app
# (tournament/infra/middleware.py) before they are read.
# The logger class writes a player's personal link without its secret, in the access log (request
# line, referrer) and in the error log (tournament/infra/logs.py).
# A connection nginx keeps open is closed by nginx first (deploy/nginx.conf: 4 s idle, gunicorn 5 s): were
# gunicorn first, a report sent on the connection as it closed would get a 502 (nginx never resends a POST).
set -e
python manage.py migrate --noinput
exec gunicorn tournament.wsgi:application \
  --bind "${BIND:-0.0.0.0:8000}" \
  --workers "${WEB_CONCURRENCY:-2}" \
  --threads "${GUNICORN_THREADS:-4}" \
  --access-logfile - \
  --logger-class tournament.infra.logs.GunicornLogger \
  --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1,::1}" \
  --limit-request-line 4094 \
  --limit-request-fields 50 \
  --limit-request-field_size 8190 \
  --keep-alive 5 \
  --timeout 60
