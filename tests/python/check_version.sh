#!/usr/bin/env bash
# The version is written once, in the file VERSION: `hifsim --version`, the staged package's
# hifsim.__version__ (build/python/hifsim/_version.py) and pyproject.toml's dynamic version (the
# wheel's metadata, read from VERSION by scikit-build-core's regex provider) all say it, and no
# other file spells a version of hifsim. (python.package checks the installed wheel's metadata.)
#   check_version.sh HIFSIM BUILD_DIR SOURCE_DIR
set -euo pipefail
hifsim="$1" build="$2" src="$3"
want="$(head -1 "$src/VERSION")"
[[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION: '$want' is not MAJOR.MINOR.PATCH" >&2; exit 1; }
fail=0
got="$("$hifsim" --version)"
[[ "$got" == "hifsim $want" ]] || { echo "hifsim --version says '$got', VERSION says $want" >&2; fail=1; }
py="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$build/python/hifsim/_version.py" 2>/dev/null || true)"
[[ "$py" == "$want" ]] || { echo "build/python/hifsim/_version.py says '$py', VERSION says $want" >&2; fail=1; }
grep -q '^dynamic = \["version"\]' "$src/pyproject.toml" || { echo "pyproject.toml: version is not dynamic" >&2; fail=1; }
grep -q '^metadata.version.input = "VERSION"$' "$src/pyproject.toml" || { echo "pyproject.toml: the version is not read from VERSION" >&2; fail=1; }
# No second spelling: a literal version in pyproject.toml, __init__.py or the top CMakeLists.txt.
if grep -nE '^version *=|^__version__ *=|project\(hifsim VERSION [0-9]' "$src/pyproject.toml" "$src/python/hifsim/__init__.py" "$src/CMakeLists.txt"; then
  echo "a version is written outside VERSION (above)" >&2
  fail=1
fi
((fail == 0)) && echo "version $want: hifsim --version, hifsim.__version__ and the wheel metadata read VERSION"
exit "$fail"
