#!/usr/bin/env bash
# Add PlayBench to the desktop menu of the current user (after installing the package, e.g.
# with `pipx install dist/playbench-*.whl`, so that `playbench` is on PATH).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
mkdir -p "$apps" "$icons"
cp "$here/playbench.desktop" "$apps/playbench.desktop"
cp "$here/../../resources/icons/playbench.png" "$icons/playbench.png"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" || true
echo "PlayBench added to the application menu"
