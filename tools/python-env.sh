#!/usr/bin/env bash
# A virtual environment under .build/python with lamina-dask and its test tools, from PyPI only;
# made once, and again when lamina-dask/pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python
stamp="$venv/.lamina-dask-$(sha256sum lamina-dask/pyproject.toml | cut -c1-16)"
if [ -f "$stamp" ]; then exit 0; fi
mkdir -p .build
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --editable "./lamina-dask[test]"
touch "$stamp"
