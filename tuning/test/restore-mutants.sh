#!/usr/bin/env bash
# restore-mutants.sh: applies two mutants to the restore code of lib/rfmrt-tuning.sh (the '..' guard on restore
# paths removed; restore applied first change first instead of last first) to a copy of the tuning tree, and
# expects the irq-affinity bats tests to fail on each. Exits non-zero when a mutant survives.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
survived=0
mutant() {
    local name=$1 expr=$2
    rm -rf "$work/tuning"
    cp -a "$here/.." "$work/tuning"
    sed -i "$expr" "$work/tuning/lib/rfmrt-tuning.sh"
    if cmp -s "$here/../lib/rfmrt-tuning.sh" "$work/tuning/lib/rfmrt-tuning.sh"; then
        echo "mutant '$name': the pattern no longer matches lib/rfmrt-tuning.sh" >&2
        survived=1
        return
    fi
    if bats "$work/tuning/test/irq-affinity.bats" >/dev/null 2>&1; then
        echo "mutant '$name': SURVIVED"
        survived=1
    else
        echo "mutant '$name': killed"
    fi
}
# shellcheck disable=SC2016 # sed expressions, not shell ones
mutant "no .. guard on restore paths" 's/ \&\& \$1 != \*\.\.\* \]\]/ ]]/'
# shellcheck disable=SC2016
mutant "restore first change first" 's/for ((i = n - 1; i >= 0; i--)); do/for ((i = 0; i < n; i++)); do/'
exit "$survived"
