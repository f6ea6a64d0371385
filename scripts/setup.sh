#!/usr/bin/env bash
# Sets up a Debian/Ubuntu machine for lockstep: the few Debian packages pip cannot give (the
# compiler, CMake, GoogleTest, Python's headers and venv), then .venv, a plain
# virtual environment from /usr/bin/python3 with every Python package from PyPI at the versions
# pinned in constraints.txt, and lockstep itself installed editable (README, "Dependencies").
#   bash scripts/setup.sh [base|notebook|docs|test]
# base: what a sweep needs. notebook: + JupyterLab and ipywidgets (the `notebook` extra) and the
# `lockstep` Jupyter kernel. docs: + Sphinx, myst-nb and Furo (make docs). test: + everything
# the tests use, the site's tools, Chromium with its driver and ffmpeg among them. Safe to
# rerun: apt installs only what is missing, pip only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-base}
case $profile in
  base) extras="" ;;
  notebook) extras="[notebook]" ;;
  docs) extras="[docs]" ;;
  test) extras="[test]" ;;
  *) echo "setup.sh: profile '$profile': allowed base, notebook, docs, test" >&2; exit 2 ;;
esac

# Random123 is in the source tree and Thrust/CUB come from PyPI (nvidia-cuda-cccl) or CUDA.
pkgs=(build-essential cmake libgtest-dev python3-dev python3-venv)
# The browser tests' headless Chromium and the MP4 export's ffmpeg: for the tests alone.
[ "$profile" = test ] && pkgs+=(chromium chromium-driver ffmpeg)
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

# An environment of the old setup, which saw Debian's Python packages, is made anew.
if grep -qs "include-system-site-packages = true" .venv/pyvenv.cfg; then rm -rf .venv; fi
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
pip=(.venv/bin/python -m pip install -q -c constraints.txt)
"${pip[@]}" pip
# The build backend, pybind11 and Thrust's headers (for `make build`'s CMake too), from
# pyproject.toml.
mapfile -t build_requires < <(.venv/bin/python -c \
  'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")')
"${pip[@]}" "${build_requires[@]}"
# Editable, without building: `make build` compiles _core into bindings/lockstep/, which this
# puts on the environment's path, with the `lockstep` command and the package's metadata.
"${pip[@]}" --no-build-isolation -Cwheel.cmake=false -Ceditable.mode=inplace -e ".$extras"

# The notebooks' kernel, `lockstep`: this environment's Python, registered inside .venv (not in
# the user's home), where a Jupyter started from .venv (make notebook) and nbclient find it.
if [ "$profile" != base ]; then
  .venv/bin/python -m ipykernel install --prefix "$PWD/.venv" --name lockstep \
    --display-name "Python (lockstep)" >/dev/null
fi
