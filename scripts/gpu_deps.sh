#!/usr/bin/env bash
# Bundles the build and test dependencies that a bare GPU machine with no package registry may
# lack (Random123 and GoogleTest from this machine's Debian packages, the tomli_w Python module)
# into .gpu-deps/ (git-ignored), mirroring their /usr paths, for scripts/gpu_check.sh to use there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
out=.gpu-deps
rm -rf "$out"
mkdir -p "$out/py"
for pkg in librandom123-dev libgtest-dev; do
  dpkg -L "$pkg" | grep -E '^/usr/(include|lib)/' | while read -r f; do
    if [ -f "$f" ]; then mkdir -p "$out$(dirname "$f")" && cp "$f" "$out$f"; fi
  done
done
cp -r "$(/usr/bin/python3 -c 'import os, tomli_w; print(os.path.dirname(tomli_w.__file__))')" "$out/py/"
du -sh "$out"
