# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154  # globals used by the .bats files; status/output/lines set by run
# Shared setup for the tuning bats tests: fixture copies, snapshots, small assertions.

TUNING_DIR=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
BIN=$TUNING_DIR/bin
FIXTURES=$BATS_TEST_DIRNAME/fixtures
IMMUTABLE=()

# Copy a fixture tree to $ROOT (tests never touch the committed tree) and give the scripts a
# private $TMPDIR.
use_fixture() {
    ROOT=$BATS_TEST_TMPDIR/root
    cp -a "$FIXTURES/$1" "$ROOT"
    export TMPDIR=$BATS_TEST_TMPDIR/tmp
    mkdir -p "$TMPDIR"
}

# Every file of the tree with its content hash (var/ excluded: restore files live there).
snapshot() {
    (cd "$ROOT" && find . -path ./var -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)
}

# Like snapshot, but transparent_hugepage/enabled reduced to its selected word (the kernel prints
# "always [madvise] never", a restore writes "madvise").
snapshot_normalized() {
    snapshot | grep -v 'transparent_hugepage/enabled'
    local thp=$ROOT/sys/kernel/mm/transparent_hugepage/enabled word
    if [[ -f $thp ]]; then
        word=$(cat "$thp")
        [[ $word =~ \[([^]]+)\] ]] && word=${BASH_REMATCH[1]}
        echo "thp $word"
    fi
}

# Make a fixture file refuse writes the way the kernel refuses a managed IRQ: immutable, so that
# even root's write fails with EPERM, as the kernel answers since 6.x (EIO before).
make_unwritable() {
    ((EUID == 0)) || skip "needs root (chattr +i) to make a write fail the way the kernel does"
    chattr +i "$1" 2>/dev/null || skip "chattr +i is not supported on this file system"
    IMMUTABLE+=("$1")
}

release_unwritable() {
    local f
    for f in "${IMMUTABLE[@]}"; do
        chattr -i "$f" 2>/dev/null || true
    done
    IMMUTABLE=()
}

teardown() {
    release_unwritable
    if [[ -n ${UNPRIV_ROOT:-} && $UNPRIV_ROOT == /tmp/rfmrt-tuning-test.* ]]; then
        rm -rf "$UNPRIV_ROOT"
    fi
}

expect_status() {
    if [[ $status -ne $1 ]]; then
        printf 'exit status %s, expected %s; output:\n%s\n' "$status" "$1" "$output" >&2
        return 1
    fi
}

# The output has a line matching the extended regex.
expect_line() {
    if ! grep -Eq -- "$1" <<<"$output"; then
        printf 'no line matching /%s/ in output:\n%s\n' "$1" "$output" >&2
        return 1
    fi
}

expect_no_line() {
    if grep -Eq -- "$1" <<<"$output"; then
        printf 'unexpected line matching /%s/ in output:\n%s\n' "$1" "$output" >&2
        return 1
    fi
}

# A bad-input failure: the given status, exactly one output line, naming the problem.
expect_one_error_line() {
    expect_status "$1"
    if [[ ${#lines[@]} -ne 1 ]]; then
        printf 'expected one line, got %d:\n%s\n' "${#lines[@]}" "$output" >&2
        return 1
    fi
    expect_line "$2"
}

# File content equals the expected text.
expect_file() {
    local got
    got=$(cat "$1")
    if [[ $got != "$2" ]]; then
        printf '%s: got "%s", expected "%s"\n' "$1" "$got" "$2" >&2
        return 1
    fi
}

affinity() {
    cat "$ROOT/proc/irq/$1/smp_affinity_list"
}

# The restore file an apply printed.
restore_file_of_output() {
    sed -n 's/^restore file: //p' <<<"$output"
}

# The command must fail. (A bare "! cmd" never fails a bats test: set -e ignores it.)
refute() {
    if "$@"; then
        printf 'expected to fail: %s\n' "$*" >&2
        return 1
    fi
}

# Does the cpu list (e.g. 0-3,6) contain the cpu?
list_has_cpu() {
    local list=$1 cpu=$2 part lo hi
    local -a parts=()
    IFS=, read -ra parts <<<"$list"
    for part in "${parts[@]}"; do
        lo=${part%-*}
        hi=${part#*-}
        if ((cpu >= lo && cpu <= hi)); then
            return 0
        fi
    done
    return 1
}
