#!/usr/bin/env bash
# Build PlayBench for Linux: the wheel, then a self-contained desktop bundle made from it.
#
#   packaging/build.sh [--deps-from VENV] [--work DIR] [--out DIR]
#
# 1. dist/playbench-<version>-py3-none-any.whl (pip/pipx installs: packaging/README.md).
# 2. A build environment holding PlayBench installed from that wheel (real copies under
#    playbench/, never the tree's links) and its dependencies. By default a fresh virtual
#    environment in the work directory, filled with exactly the versions in uv.lock (the app
#    and the `build` extra, hashes checked; uv from ./bootstrap's .tools or the PATH).
#    --deps-from VENV borrows the dependencies already installed in VENV instead (fast; VENV's
#    own PlayBench install is not used) - the tests do this with the project's .venv, which
#    ./bootstrap test fills from the same lock.
# 3. PyInstaller with packaging/playbench.spec -> a onedir app (no Python needed to run it).
# 4. dist/playbench-<version>-linux-<arch>.tar.gz: the app, a launcher script and a desktop
#    entry; plus dist/PlayBench-<version>-<arch>.AppImage when `appimagetool` is on PATH.
#
# Heavy steps run under `nice`. PLAYBENCH_BUNDLE_BROWSER=no leaves Playwright's Chromium out
# even when the build machine has it (see the spec).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
py="${PYTHON:-$root/.venv/bin/python}"
deps_from="" work="$root/build/bundle" out="$root/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --deps-from) deps_from="$(cd "$2" && pwd)"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--deps-from VENV] [--work DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$work" "$out"
work="$(cd "$work" && pwd)" out="$(cd "$out" && pwd)"
say() { printf '==> %s\n' "$*" >&2; }

say "building the wheel"
rm -rf "$work/wheel" && mkdir -p "$work/wheel"
nice -n 10 "$py" -m pip wheel -q --no-deps --wheel-dir "$work/wheel" . 2>/dev/null
wheel="$(ls "$work"/wheel/playbench-*.whl)"
cp "$wheel" "$out/"
version="$(basename "$wheel" | cut -d- -f2)"

env_dir="$work/env"
if [ -n "$deps_from" ]; then
  say "build environment: PlayBench from the wheel, dependencies from $deps_from"
  rm -rf "$env_dir"
  "$deps_from/bin/python" -m venv --without-pip "$env_dir"
  site="$("$env_dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  "$deps_from/bin/python" -m pip install -q --no-deps --target "$site" "$wheel"
  # Only the borrowed environment's site-packages directory: its .pth files (an editable
  # PlayBench among them) are not run from here, so the wheel's copy is the one found.
  "$deps_from/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
    > "$site/zz-borrowed-dependencies.pth"
else
  say "build environment: a fresh virtual environment in $env_dir, from uv.lock"
  uv="$root/.tools/bin/uv"
  [ -x "$uv" ] || uv="$(command -v uv)" || {
    echo "build.sh needs uv to read uv.lock: run ./bootstrap app once, or pip install uv" >&2
    exit 1; }
  "$uv" export --frozen --no-dev --extra build --no-emit-project --format requirements-txt \
    --quiet --output-file "$work/locked-requirements.txt"
  [ -x "$env_dir/bin/python" ] || "$py" -m venv "$env_dir"
  nice -n 10 "$env_dir/bin/python" -m pip install -q --no-deps --require-hashes \
    -r "$work/locked-requirements.txt"
  nice -n 10 "$env_dir/bin/python" -m pip install -q --force-reinstall --no-deps "$wheel"
fi

say "freezing with PyInstaller"
rm -rf "$work/app"
nice -n 10 "$env_dir/bin/python" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$work/app" --workpath "$work/pyinstaller" packaging/playbench.spec

say "making the tarball"
arch="$(uname -m)"
name="playbench-$version-linux-$arch"
stage="$work/stage/$name"
rm -rf "$work/stage" && mkdir -p "$stage"
mv "$work/app/playbench" "$stage/lib"
cp packaging/linux/playbench-launcher.sh "$stage/playbench"
cp packaging/linux/install-desktop-entry.sh "$stage/"
cp packaging/linux/playbench.desktop resources/icons/playbench.png "$stage/"
chmod +x "$stage/playbench" "$stage/install-desktop-entry.sh"
tar -C "$work/stage" -czf "$out/$name.tar.gz" "$name"
say "$out/$name.tar.gz ($(du -sh "$stage" | cut -f1) unpacked)"

if command -v appimagetool >/dev/null 2>&1; then
  say "making the AppImage"
  appdir="$work/PlayBench.AppDir"
  rm -rf "$appdir" && cp -a "$stage" "$appdir"
  ln -s playbench "$appdir/AppRun"
  ARCH="$arch" nice -n 10 appimagetool --no-appstream "$appdir" \
    "$out/PlayBench-$version-$arch.AppImage" >/dev/null
  say "$out/PlayBench-$version-$arch.AppImage"
else
  say "appimagetool is not on PATH: tarball only (packaging/README.md)"
fi
# The unpacked bundle stays in the work directory for tests and benchmarks.
echo "$stage"
