#!/usr/bin/env bash
# A virtual environment under .build/python with lamina-dask and its test tools, and Selenium
# for the browser tests, from PyPI only; made once, and again when lamina-dask/pyproject.toml
# or Tests/BrowserTests/requirements.txt changes.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python
stamp="$venv/.lamina-$(cat lamina-dask/pyproject.toml Tests/BrowserTests/requirements.txt | sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then exit 0; fi
mkdir -p .build
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --editable "./lamina-dask[test]" -r Tests/BrowserTests/requirements.txt
touch "$stamp"
