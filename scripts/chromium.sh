#!/usr/bin/env bash
# Installs Debian's chromium for the web UI's headless browser tests
# (catalog/webui TestUIInChromium and TestUIKeyboardAndWidth, cmd/icebeam
# TestServeUIFollowsAClicksStream; they skip without it unless
# BROWSER=require) and prints its path.
#
#   ./scripts/chromium.sh && go test ./catalog/webui -run 'Chromium|Keyboard'
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
command -v chromium
