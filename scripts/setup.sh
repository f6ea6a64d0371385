#!/usr/bin/env bash
# Sets up a Debian/Ubuntu machine for lockstep: the few Debian packages pip cannot give (the
# compiler, CMake, GoogleTest, Python's headers and venv), then .venv, a plain virtual
# environment from the system's Python (3.11 or newer) with every Python package from PyPI at the
# versions pinned in constraints.txt, and lockstep itself installed editable (README,
# "Dependencies").
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

# Python 3.11 or newer (the package reads TOML with tomllib; the pinned numpy and pandas need it
# too): the system's python3 where it is new enough, else the newest python3.1x installed, else
# python3.11 from the distribution (Ubuntu 22.04's universe has it beside its 3.10).
python=""
for p in python3 python3.13 python3.12 python3.11; do
  if command -v "$p" >/dev/null && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python=$(command -v "$p")
    break
  fi
done
pyname=$(basename "${python:-python3.11}")
# Random123 is in the source tree and Thrust/CUB come from PyPI (nvidia-cuda-cccl) or CUDA.
pkgs=(build-essential cmake libgtest-dev "$pyname" "$pyname-dev" "$pyname-venv")
# The browser tests' headless Chromium and the MP4 export's ffmpeg: for the tests alone.
[ "$profile" = test ] && pkgs+=(chromium chromium-driver ffmpeg)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  # Ubuntu has Chromium only as a snap, which needs snapd (no container has it): without a
  # chromium package the browser tests skip, saying so.
  # (Captured, not piped into grep -q: under pipefail grep's early exit fails apt-cache with
  # SIGPIPE, which read as "no package" on Debian too.)
  policy=$(apt-cache policy chromium 2>/dev/null || true)
  if [[ " ${missing[*]} " == *" chromium "* && $policy != *"Candidate: "[0-9]* ]]; then
    echo "setup: no chromium package here (Ubuntu's is a snap): the browser tests will skip" >&2
    kept=()
    for p in "${missing[@]}"; do [[ $p == chromium* ]] || kept+=("$p"); done
    missing=("${kept[@]}")
  fi
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
      "${missing[@]}"
  fi
fi

# An environment of the old setup, which saw Debian's Python packages, is made anew.
if grep -qs "include-system-site-packages = true" .venv/pyvenv.cfg; then rm -rf .venv; fi
[ -x .venv/bin/python ] || "$(command -v "$pyname")" -m venv .venv
pip=(.venv/bin/python -m pip install -q -c constraints.txt)
"${pip[@]}" pip
# CMake 3.24 or newer: the system's where it is (Debian 12 has 3.25), else PyPI's into .venv,
# where the Makefile looks first (Ubuntu 22.04 has 3.22).
cmake_version=$(cmake --version 2>/dev/null | sed -n 's/^cmake version //p')
printf '3.24\n%s\n' "${cmake_version:-0}" | sort -V -C || "${pip[@]}" cmake
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
