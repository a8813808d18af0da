#!/usr/bin/env bash
# Build the PlayBench wheel into dist/
#   packaging/build.sh
# Install the wheel anywhere with `pipx install dist/playbench-*.whl` (or pip into a venv);
# packaging/linux/install-desktop-entry.sh then adds PlayBench to the desktop's app menu.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
rm -rf dist build
"$py" -m pip wheel --no-deps --wheel-dir dist . >/dev/null
ls -1 dist
