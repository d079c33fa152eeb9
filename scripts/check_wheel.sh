#!/usr/bin/env bash
# Build the wheel, install it (with its dependencies) in a fresh venv, and run
# Django's system checks and the engines from outside the source tree, so the
# installed package, not the checkout, is what is tested: a package or data
# file left out of pyproject.toml fails here.
#   scripts/check_wheel.sh [PYTHON]    (default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-.venv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# setuptools builds in ./build: build from a copy of the files git knows, so the
# checkout is left as it was and nothing untracked slips into the wheel.
mkdir "$tmp/src"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tmp/src"
"$PY" -m pip wheel --no-deps -q -w "$tmp/dist" "$tmp/src"
"$PY" -m venv "$tmp/venv"
# Dependencies from the pip cache when it has them; PyPI otherwise.
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "$tmp"/dist/*.whl
cd "$tmp"
export DJANGO_SETTINGS_MODULE=website.settings
"$tmp/venv/bin/python" - <<'PY'
import importlib.util, sys
spec = importlib.util.find_spec("website")
assert "site-packages" in spec.origin, f"website imported from {spec.origin}, not the installed wheel"
from games.engine.registry import get_engine
for kind in ("dominion", "domaine"):
    for v in get_engine(kind).versions:
        get_engine(kind, v).new_game({}, 2, 1)
print("installed engines load:", sys.prefix)
PY
"$tmp/venv/bin/python" -m django check
