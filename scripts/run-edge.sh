#!/usr/bin/env bash
# make run / make dev: start the edge with everything a newcomer needs and no
# outside accounts. When GOOGLE_CLIENT_ID is unset, the local OpenID provider
# (devtools/cmd/oidcdev, built into edge/bin) is started on loopback and the edge is pointed at it, so
# the Google button signs in (as jane.doe@example.com) through the redirect
# flow. This is development (OMNIBUS_ENV=development): payments run in test
# mode by themselves (no STRIPE_SECRET_KEY), mail stays in the outbox.
# Production never comes through here, and the edge refuses all of that
# without OMNIBUS_ENV=development.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/edge"
export OMNIBUS_ENV=development
echo "run: DEVELOPMENT MODE (OMNIBUS_ENV=development): test-mode payments, local sign-in, mail kept in the outbox. For this machine only; never expose it." >&2
export DATA_DIR="${DATA_DIR:-$root/data}" SSR_DIR="${SSR_DIR:-$root/ssr}"
# Prometheus metrics on their own loopback port (METRICS_ADDR= turns them off).
export METRICS_ADDR="${METRICS_ADDR-127.0.0.1:9090}"
mkdir -p "$DATA_DIR"
oidc_pid=""
if [ -z "${GOOGLE_CLIENT_ID:-}" ]; then
  addr="${OIDCDEV_ADDR:-127.0.0.1:8099}"
  export GOOGLE_CLIENT_ID="dev-client" GOOGLE_CLIENT_SECRET="dev-secret" GOOGLE_ISSUER_URL="http://$addr/oidc" GOOGLE_REDIRECT_ONLY=1
  ./bin/oidcdev -addr "$addr" -client-id "$GOOGLE_CLIENT_ID" -client-secret "$GOOGLE_CLIENT_SECRET" &
  oidc_pid=$!
  trap 'kill "$oidc_pid" 2>/dev/null || true' EXIT
  echo "run: GOOGLE_CLIENT_ID is unset: Google sign-in goes to the local OpenID provider at $GOOGLE_ISSUER_URL (every sign-in is jane.doe@example.com)" >&2
fi
# The studio and the staff page of the visit counts (docs/staff-api.md,
# docs/analytics.md): where they are and how to let yourself in.
# DATABASE_URL is never printed (it may hold a password).
staff_cmd="edge/bin/edge staff grant EMAIL --role publisher"
if [ -n "${DATABASE_URL:-}" ]; then
  staff_cmd="DATABASE_URL=<this edge's> $staff_cmd"
elif [ "$DATA_DIR" != "$root/data" ]; then
  staff_cmd="DATA_DIR=$DATA_DIR $staff_cmd"
fi
echo "run: the studio for staff: sign up on the site, then from the repository's root run: $staff_cmd (viewer, editor, publisher or admin), then enrol a passkey at ${PUBLIC_URL:-http://localhost:8080}/staff/sign-in; visit counts at /staff/insights" >&2
./bin/edge "$@" &
edge_pid=$!
trap 'kill -TERM "$edge_pid" 2>/dev/null; wait "$edge_pid"; [ -n "$oidc_pid" ] && kill "$oidc_pid" 2>/dev/null; exit 0' INT TERM
wait "$edge_pid"
