#!/usr/bin/env bash
# run-tests.sh - the Ansible tests: lint and syntax check, then the converge into a Debian chroot.
set -euo pipefail

TEST_DIR=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
INSTALL=1
PACKAGES=(ansible ansible-lint debootstrap equivs strace bats shellcheck)

usage() {
    cat <<'EOF'
Usage: ansible/test/run-tests.sh [--no-install] [BATS_FILE...]

Runs ansible/test/lint.bats (ansible-lint with the production profile, ansible-playbook --syntax-check) and
ansible/test/converge.bats (site.yml into a debootstrapped Debian bookworm root over the chroot connection,
verification inside it, a second run that must change nothing, bad inventories), or the files given.
As root it installs what is missing of: ansible ansible-lint debootstrap equivs strace bats shellcheck
(apt-get; --no-install stops instead). Without root the converge is skipped, saying why.
The debootstrap root is cached in ansible/target/cache (about 200 MB); delete it to start from scratch.
Prints "ansible: N passed, N failed, N skipped" and exits non-zero on any failed test.
EOF
}

ensure_tools() {
    local missing=() tool package i
    local -a tools=(ansible-playbook ansible-lint debootstrap equivs-build strace bats shellcheck)
    for i in "${!tools[@]}"; do
        tool=${tools[$i]}
        package=${PACKAGES[$i]}
        command -v "$tool" >/dev/null 2>&1 || missing+=("$package")
    done
    ((${#missing[@]} > 0)) || return 0
    if ((INSTALL == 0 || EUID != 0)); then
        echo "run-tests.sh: missing ${missing[*]} (as root: apt-get install -y ${missing[*]})" >&2
        command -v bats >/dev/null 2>&1 || exit 3
        return 0
    fi
    echo "run-tests.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

run_bats() {
    local -a tests=("$@")
    ((${#tests[@]} > 0)) || tests=("$TEST_DIR/lint.bats" "$TEST_DIR/converge.bats")
    local tap rc=0 passed failed skipped
    tap=$(mktemp)
    bats --tap "${tests[@]}" | tee "$tap" || rc=$?
    skipped=$(grep -Ec '^ok [0-9]+ .*# skip' "$tap" || true)
    passed=$(($(grep -Ec '^ok [0-9]+' "$tap" || true) - skipped))
    failed=$(grep -Ec '^not ok [0-9]+' "$tap" || true)
    rm -f "$tap"
    echo "ansible: $passed passed, $failed failed, $skipped skipped"
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
    local start=$SECONDS rc=0
    run_bats "${files[@]}" || rc=1
    echo "ansible: tests took $((SECONDS - start)) s"
    exit "$rc"
}

main "$@"
