#!/usr/bin/env bash
# Bundles the build and test dependencies that a bare GPU machine with no package registry may
# lack (GoogleTest from this machine's Debian package, mirroring its /usr paths;
# the pure-Python tomli_w and pybind11, its headers and CMake files, from .venv, at
# constraints.txt's versions) into .gpu-deps/ (git-ignored), for scripts/gpu_check.sh to use there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
out=.gpu-deps
rm -rf "$out"
mkdir -p "$out/py"
for pkg in libgtest-dev; do
  dpkg -L "$pkg" | grep -E '^/usr/(include|lib)/' | while read -r f; do
    if [ -f "$f" ]; then mkdir -p "$out$(dirname "$f")" && cp "$f" "$out$f"; fi
  done
done
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
for module in tomli_w pybind11; do cp -r "$site/$module" "$out/py/"; done
find "$out/py" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$out"
