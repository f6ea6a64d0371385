#!/usr/bin/env bash
# JupyterLab on 127.0.0.1 with notebooks/ open; it prints the URL to open. The notebooks run on
# the `lockstep` kernel that scripts/setup.sh registers in .venv, which imports the package with
# no environment variable set. Extra arguments go to JupyterLab (the tests start it on a free
# port with a folder of their own: --port=N --notebook-dir=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
root=()
[ "$(id -u)" = 0 ] && root=(--allow-root)
dir=(--notebook-dir=notebooks)
for arg in "$@"; do [[ $arg == --notebook-dir=* ]] && dir=(); done
unset PYTHONPATH
exec .venv/bin/python -m jupyterlab --ip=127.0.0.1 --no-browser "${dir[@]}" "${root[@]}" "$@"
