#!/usr/bin/env bash
# PlayBench desktop bundle for macOS (UNTESTED: written beside the Linux build, which is the
# only one built and tested here; see packaging/README.md). Run from the repository root with
# Python 3.12 (python.org or Homebrew) as python3:
#   bash packaging/macos/build.sh
# Result: dist/PlayBench-<version>-macos-<arch>.dmg holding PlayBench.app (the same
# packaging/playbench.spec as Linux and Windows; on macOS it adds the .app bundle). The app is
# not signed or notarized: Gatekeeper asks the first time (right-click > Open).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=build/bundle
mkdir -p "$work" dist
python3 -m pip wheel -q --no-deps --wheel-dir "$work/wheel" .
wheel="$(ls "$work"/wheel/playbench-*.whl)"
cp "$wheel" dist/
[ -x "$work/env/bin/python" ] || python3 -m venv "$work/env"
"$work/env/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"
uv export --frozen --no-dev --extra build --no-emit-project --format requirements-txt --quiet \
  --output-file "$work/locked-requirements.txt"  # exactly the versions in uv.lock
"$work/env/bin/python" -m pip install -q --no-deps --require-hashes -r "$work/locked-requirements.txt"
# Optional: bundle Playwright's Chromium (about 150 MB more) from ~/Library/Caches/ms-playwright.
if [ "${PLAYBENCH_BUNDLE_BROWSER:-}" = yes ]; then
  "$work/env/bin/python" -m playwright install chromium
fi
"$work/env/bin/python" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$work/app" --workpath "$work/pyinstaller" packaging/playbench.spec
version="$(basename "$wheel" | cut -d- -f2)"
dmg="dist/PlayBench-$version-macos-$(uname -m).dmg"
rm -f "$dmg"
hdiutil create -volname PlayBench -srcfolder "$work/app/PlayBench.app" -ov -format UDZO "$dmg"
echo "$dmg"
