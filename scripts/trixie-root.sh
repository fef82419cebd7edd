#!/bin/sh
# scripts/trixie-root.sh [COMMAND...]: the Debian 13 root, now scripts/release-root.sh trixie.
exec "$(dirname "$0")/release-root.sh" trixie "$@"
