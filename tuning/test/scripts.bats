#!/usr/bin/env bats
# Every script answers --help and runs from any directory, also through a symlink.

load helpers

@test "--help of every script exits 0 with usage and exit codes" {
    local s
    for s in rfmrt-irq-affinity rfmrt-msix-plan rfmrt-isolate; do
        run "$BIN/$s" --help
        expect_status 0
        expect_line "^Usage:"
        expect_line "$s"
        expect_line "Exit status"
        expect_line "--sysroot DIR"
    done
    run "$BATS_TEST_DIRNAME/capture-fixture.sh" --help
    expect_status 0
    expect_line "^Usage: capture-fixture.sh DEST"
    run "$BATS_TEST_DIRNAME/run-tests.sh" --help
    expect_status 0
    expect_line "^Usage: tuning/test/run-tests.sh"
}

@test "scripts find their library through a symlink (as installed in a bin directory)" {
    use_fixture vm-virtio
    mkdir -p "$BATS_TEST_TMPDIR/usr/local/bin"
    ln -s "$BIN/rfmrt-irq-affinity" "$BATS_TEST_TMPDIR/usr/local/bin/rfmrt-irq-affinity"
    ln -s "$BIN/rfmrt-msix-plan" "$BATS_TEST_TMPDIR/usr/local/bin/rfmrt-msix-plan"
    cd /
    run "$BATS_TEST_TMPDIR/usr/local/bin/rfmrt-irq-affinity" --list --irq 41 --sysroot "$ROOT"
    expect_status 0
    expect_line '^41 +0-1 '
    run "$BATS_TEST_TMPDIR/usr/local/bin/rfmrt-msix-plan" --device 00:04.0 --isr-cpus 1 --apply --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 40)" = 1 ]
}

@test "every script runs under set -euo pipefail" {
    local s
    for s in "$BIN"/* "$BATS_TEST_DIRNAME"/*.sh; do
        grep -qx 'set -euo pipefail' "$s"
    done
}
