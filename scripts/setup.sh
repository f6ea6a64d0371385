#!/usr/bin/env bash
# Installs everything lockstep needs on a Debian/Ubuntu machine: Debian packages (apt) and a
# Python environment (.venv, made from /usr/bin/python3 with the system site packages, since
# every Python dependency comes from Debian). Safe to rerun: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(build-essential cmake librandom123-dev pybind11-dev libgtest-dev python3-dev python3-venv
      python3-numpy python3-pandas python3-matplotlib python3-pytest python3-nbclient
      python3-nbformat python3-ipykernel python3-tomli-w python3-tqdm python3-distributed
      jupyter-notebook chromium chromium-driver python3-selenium python3-networkx ffmpeg
      python3-ipywidgets python3-widgetsnbextension python3-scipy)
# Hypothesis: the property-based tests that fuzz every configuration key
# (tests/python/test_config_fuzz.py).
pkgs+=(python3-hypothesis)
# Thrust/CUB: the CUDA toolkit's own (CCCL) when there is one, else Debian's.
if [ ! -f /usr/local/cuda/include/cccl/thrust/version.h ] &&
   [ ! -f /usr/local/cuda/include/thrust/version.h ]; then
  pkgs+=(libthrust-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  /usr/bin/python3 -m venv --system-site-packages .venv
fi
# The package lives in bindings/ (the compiled _core is built next to it): put it on the path,
# and give the environment a `lockstep` command.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$PWD/bindings" > "$site/lockstep.pth"
cat > .venv/bin/lockstep <<EOS
#!/bin/sh
exec "$PWD/.venv/bin/python" -m lockstep "\$@"
EOS
chmod +x .venv/bin/lockstep
# The notebooks' kernel, `lockstep`: this environment's Python, registered inside .venv (not in
# the user's home), where a Jupyter started from .venv (make notebook) and nbclient find it.
.venv/bin/python -m ipykernel install --prefix "$PWD/.venv" --name lockstep \
  --display-name "Python (lockstep)" >/dev/null
