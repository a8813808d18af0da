# PlayBench desktop bundle for Windows (UNTESTED: written beside the Linux build, which is the
# only one built and tested here; see packaging/README.md). Run from the repository root in
# PowerShell with Python 3.12 on PATH:
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
# Result: dist\playbench-<version>-windows-x64.zip holding playbench\playbench.exe and its
# _internal folder (the same packaging\playbench.spec as Linux and macOS).
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")
$work = "build\bundle"
New-Item -ItemType Directory -Force -Path $work, dist | Out-Null

# The wheel, then a fresh virtual environment holding it, its dependencies and PyInstaller.
python -m pip wheel -q --no-deps --wheel-dir "$work\wheel" .
$wheel = (Get-ChildItem "$work\wheel\playbench-*.whl" | Select-Object -First 1).FullName
Copy-Item $wheel dist\
if (-not (Test-Path "$work\env\Scripts\python.exe")) { python -m venv "$work\env" }
& "$work\env\Scripts\python.exe" -m pip install -q --force-reinstall --no-deps $wheel
# Exactly the versions in uv.lock (uv: pip install uv).
uv export --frozen --no-dev --extra build --no-emit-project --format requirements-txt --quiet --output-file "$work\locked-requirements.txt"
& "$work\env\Scripts\python.exe" -m pip install -q --no-deps --require-hashes -r "$work\locked-requirements.txt"
# Optional: bundle Playwright's Chromium (about 150 MB more); the spec takes the revision this
# Playwright expects from %LOCALAPPDATA%\ms-playwright when it is there.
if ($env:PLAYBENCH_BUNDLE_BROWSER -eq "yes") {
  & "$work\env\Scripts\python.exe" -m playwright install chromium
}

& "$work\env\Scripts\python.exe" -m PyInstaller --noconfirm --log-level WARN `
  --distpath "$work\app" --workpath "$work\pyinstaller" packaging\playbench.spec
$version = (Split-Path $wheel -Leaf).Split("-")[1]
Compress-Archive -Force -Path "$work\app\playbench" -DestinationPath "dist\playbench-$version-windows-x64.zip"
Write-Host "dist\playbench-$version-windows-x64.zip"
