#!/bin/sh
# Run by docker-compose.yml's publish-check service before anything else starts (and by .ci/run with plain sh):
# refuses (exit 1, saying why) when the site is published beyond this machine (CUECAST_BIND not a loopback
# address) without ADMIN_TOKEN, since anyone who reaches the site could then create matches. Never prints the token.
bind=${CUECAST_BIND:-127.0.0.1}
case "$bind" in
  127.*|localhost|::1|\[::1\])
    echo "publish-check: the site is published on $bind only (this machine)${ADMIN_TOKEN:+; ADMIN_TOKEN is set}"
    exit 0 ;;
esac
if [ -z "${ADMIN_TOKEN:-}" ]; then
  echo "publish-check: refusing to start: CUECAST_BIND=$bind publishes the site beyond this machine, and ADMIN_TOKEN" \
    "is not set, so anyone who reaches it could create matches. Set ADMIN_TOKEN to a secret" \
    "(e.g. ADMIN_TOKEN=\$(openssl rand -hex 16)), or unset CUECAST_BIND to publish on 127.0.0.1 only." >&2
  exit 1
fi
echo "publish-check: the site is published on $bind, creating matches needs ADMIN_TOKEN"
