#!/usr/bin/env bash
# Installs Debian's chromium for the web UI's headless browser test
# (cmd/icebeam TestUIInChromium, which skips without it) and prints its path.
#
#   ./scripts/chromium.sh && go test ./cmd/icebeam -run TestUIInChromium
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
command -v chromium
