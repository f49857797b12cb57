#!/usr/bin/env bash
# run-tests.sh - shellcheck every tuning script, then run every tuning bats test.
set -euo pipefail

TEST_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TUNING_DIR=$(cd "$TEST_DIR/.." && pwd)
INSTALL=1

usage() {
    cat <<'EOF'
Usage: tuning/test/run-tests.sh [--no-install] [BATS_FILE...]

Runs shellcheck over every script of tuning/ (bin, lib, test, the .bats files), then bats over
tuning/test/*.bats (or the files given) and, with no files given, restore-mutants.sh (each mutant of
the restore code must fail the irq-affinity tests). Installs bats and shellcheck with
"apt-get update && apt-get install -y bats shellcheck" when they are missing (as root; with
--no-install it stops instead). Prints "tuning: N passed, N failed, N skipped" and exits non-zero
on any shellcheck finding or failed test.

The tests in real-host.bats that write this machine's IRQ affinities and tuning (and restore them)
run only as root with RFMRT_LIVE_HOST_TESTS=1 (.ci/run sets it); otherwise they skip, saying why.
EOF
}

ensure_tools() {
    local missing=()
    command -v bats >/dev/null 2>&1 || missing+=(bats)
    command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
    ((${#missing[@]} > 0)) || return 0
    if ((INSTALL == 0)); then
        echo "run-tests.sh: error: missing ${missing[*]} (apt-get install -y bats shellcheck)" >&2
        exit 3
    fi
    if ((EUID != 0)); then
        echo "run-tests.sh: error: missing ${missing[*]}; as root: apt-get update && apt-get install -y bats shellcheck" >&2
        exit 3
    fi
    echo "run-tests.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bats shellcheck >/dev/null
}

run_shellcheck() {
    local -a files=()
    local f
    for f in "$TUNING_DIR"/bin/* "$TUNING_DIR"/lib/*.sh "$TEST_DIR"/*.sh "$TEST_DIR"/*.bash "$TEST_DIR"/*.bats; do
        [[ -f $f ]] && files+=("$f")
    done
    if shellcheck -x "${files[@]}"; then
        echo "tuning: shellcheck clean (${#files[@]} files)"
        return 0
    fi
    echo "tuning: shellcheck found problems" >&2
    return 1
}

run_bats() {
    local -a tests=("$@")
    ((${#tests[@]} > 0)) || tests=("$TEST_DIR"/*.bats)
    local tap rc=0 passed failed skipped
    tap=$(mktemp)
    bats --tap "${tests[@]}" | tee "$tap" || rc=$?
    if (($# == 0)); then
        # the restore code's own mutants must each fail the irq-affinity tests: one more test, in TAP
        local n
        n=$(($(grep -Ec '^(not )?ok [0-9]+' "$tap" || true) + 1))
        if "$TEST_DIR/restore-mutants.sh"; then
            echo "ok $n restore-mutants.sh: every mutant of the restore code killed" | tee -a "$tap"
        else
            echo "not ok $n restore-mutants.sh: a mutant of the restore code survived" | tee -a "$tap"
        fi
    fi
    skipped=$(grep -Ec '^ok [0-9]+ .*# skip' "$tap" || true)
    passed=$(($(grep -Ec '^ok [0-9]+' "$tap" || true) - skipped))
    failed=$(grep -Ec '^not ok [0-9]+' "$tap" || true)
    rm -f "$tap"
    echo "tuning: $passed passed, $failed failed, $skipped skipped"
    if ((rc != 0 || failed > 0 || passed + skipped == 0)); then
        return 1
    fi
}

main() {
    local -a files=()
    while (($#)); do
        case $1 in
        -h | --help) usage; exit 0 ;;
        --no-install) INSTALL=0; shift ;;
        -*) echo "run-tests.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
        esac
    done
    ensure_tools
    if [[ ${RFMRT_LIVE_HOST_TESTS:-} != 1 ]]; then
        echo "tuning: live-host tests off (set RFMRT_LIVE_HOST_TESTS=1 to let real-host.bats change this machine's IRQs and tuning, restored after)"
    fi
    local rc=0
    run_shellcheck || rc=1
    run_bats "${files[@]}" || rc=1
    exit "$rc"
}

main "$@"
