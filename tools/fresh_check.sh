#!/usr/bin/env bash
# A new user's first minutes: clone the current HEAD into a temporary directory, make a fresh virtual
# environment with torch==VERSION, run the README's quick-start commands 1 and 2 exactly as written there
# (read from README.md), and print how long each took.
#
#     bash tools/fresh_check.sh 2.13.0      # the lower end of the torch range in pyproject.toml
#     bash tools/fresh_check.sh 2.14.1      # the upper end
#
# Exits non-zero when a command fails. Only committed work is checked (a clone of HEAD).
set -euo pipefail
version=${1:?usage: bash tools/fresh_check.sh TORCH_VERSION}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/tfcompat-fresh.XXXXXX")
trap 'rm -rf "$work"' EXIT

# command N of the README's quick start: the first non-comment line after the `# N.` comment
readme_command() {
    awk -v n="$1" '/^## Quick start/ {q = 1} q && /^```/ {b++} q && b == 1 && $0 ~ "^# " n "\\. " {f = 1; next}
                   f && !/^#/ {print; exit}' "$repo/README.md"
}
cmd1=$(readme_command 1)
cmd2=$(readme_command 2)
[[ -n $cmd1 && -n $cmd2 ]] || { echo "fresh_check: README's quick-start commands 1 and 2 not found" >&2; exit 2; }

git clone -q "$repo" "$work/tfcompat"
cd "$work/tfcompat"
echo "fresh_check: $(git log -1 --format='%h %s' | cut -c1-80)"
python3 -m venv "$work/venv"
# shellcheck disable=SC1091
source "$work/venv/bin/activate"
start=$SECONDS
python3 -m pip install -q "torch==$version"
echo "fresh_check: torch $(python3 -c 'import importlib.metadata as m; print(m.version("torch"))') installed in $((SECONDS - start)) s"

status=0
for n in 1 2; do
    cmd=$([[ $n == 1 ]] && echo "$cmd1" || echo "$cmd2")
    echo "fresh_check: command $n: $cmd"
    start=$SECONDS
    bash -c "$cmd" > "$work/command$n.log" 2>&1 || status=$?
    took=$((SECONDS - start))
    tail -n 3 "$work/command$n.log"
    if [[ $status != 0 ]]; then
        echo "fresh_check: command $n FAILED (exit $status) after $took s; its output:" >&2
        tail -n 60 "$work/command$n.log" >&2
        exit "$status"
    fi
    echo "fresh_check: command $n passed in $took s (torch $version)"
done
