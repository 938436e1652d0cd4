#!/bin/sh
# The worker's entry (docker-compose's `worker`): large pairings run here, off the web request (tournament/jobs/workflow.py),
# from the task queue kept in the database (django-tasks-db). It waits until the app container has applied the
# migrations (deploy/start.sh does that), at most WORKER_WAIT_SECONDS, then runs `manage.py db_worker` with the
# arguments given (`--batch`: the queued jobs, then stop).
#
# Stopped with SIGTERM it finishes the job it is running first (compose gives it stop_grace_period); one killed
# mid-job stores nothing (the pairing is one transaction), and the organiser's page shows the job as stopped
# with "Pair again" once its heartbeat is JOB_STALE_SECONDS old.
set -e
waited=0
until python manage.py migrate --check >/dev/null 2>&1; do
  if [ "$waited" -ge "${WORKER_WAIT_SECONDS:-120}" ]; then
    echo "worker: the database's migrations are still not applied after ${waited} s" >&2
    exit 1
  fi
  sleep 2
  waited=$((waited + 2))
done
exec python manage.py db_worker "$@"
