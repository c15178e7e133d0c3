#!/usr/bin/env bash
# Usage: scripts/python_env.sh VENV_DIR REQUIREMENTS_FILE
# Creates (once) a Python virtual environment and installs the pinned requirements into it;
# used by oracle.sh and interop.sh. Installs Debian's python3-venv when venv is missing.
set -euo pipefail
venv=$1 requirements=$2
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" 2>/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && apt-get install -y -qq python3-venv
    rm -rf "$venv"
    python3 -m venv "$venv"
  }
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
