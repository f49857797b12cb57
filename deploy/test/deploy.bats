#!/usr/bin/env bats
# The release tarball and the systemd units: built from this tree's Maven build, installed into a scratch root,
# verified with systemd-analyze against the machine's own unit library.

setup_file() {
    REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
    export REPO
    export OUT="$BATS_FILE_TMPDIR/out"
    TARBALL="$("$REPO/deploy/package.sh" --out "$OUT")"
    export TARBALL
}

@test "the tarball holds bin, lib, conf, tuning and systemd" {
    run tar -tzf "$TARBALL"
    [ "$status" -eq 0 ]
    name="$(basename "$TARBALL" .tar.gz)"
    for entry in bin/rfmrt conf/jvm.options conf/node-1.yaml conf/layout.yaml systemd/rfmrt-node@.service \
        systemd/rfmrt-tuning.service tuning/bin/rfmrt-isolate tuning/lib/rfmrt-tuning.sh; do
        grep -qx "$name/$entry" <<<"$output" || { echo "missing $entry"; return 1; }
    done
    grep -q "^$name/lib/rfm-driver-.*\.jar$" <<<"$output"
    grep -q "^$name/lib/chronicle-queue-.*\.jar$" <<<"$output"
    [[ "$output" != *"$name/tuning/test/"* ]]
}

@test "the installed launcher runs the command line" {
    mkdir -p "$BATS_TEST_TMPDIR/opt"
    tar -C "$BATS_TEST_TMPDIR/opt" -xzf "$TARBALL"
    name="$(basename "$TARBALL" .tar.gz)"
    run "$BATS_TEST_TMPDIR/opt/$name/bin/rfmrt" --version
    [ "$status" -eq 0 ]
    [[ "$output" == rfmrt\ * ]]
    # a root of its own: the shared default may belong to another user on a busy machine (and is then refused)
    RFMRT_SIM_ROOT="$BATS_TEST_TMPDIR/shm" run "$BATS_TEST_TMPDIR/opt/$name/bin/rfmrt" rfm status \
        --network no-such-network-here
    [ "$status" -eq 1 ]
    [[ "$output" == *"network 'no-such-network-here' does not exist"* ]]
}

@test "the launcher refuses a folder that is not a release tree" {
    mkdir -p "$BATS_TEST_TMPDIR/broken/bin"
    cp "$REPO/deploy/bin/rfmrt" "$BATS_TEST_TMPDIR/broken/bin/"
    run "$BATS_TEST_TMPDIR/broken/bin/rfmrt" --version
    [ "$status" -eq 1 ]
    [[ "$output" == *"is not a release tree"* ]]
}

@test "systemd-analyze verifies both units in an installed root" {
    command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
    [ -d /lib/systemd/system ] || skip "no system unit library to verify against"
    vroot="$BATS_TEST_TMPDIR/root"
    mkdir -p "$vroot/opt" "$vroot/etc/systemd/system" "$vroot/lib/systemd" "$vroot/bin"
    cp -r /lib/systemd/system "$vroot/lib/systemd/"
    cp /bin/sh "$vroot/bin/sh"
    tar -C "$vroot/opt" -xzf "$TARBALL"
    mv "$vroot/opt/$(basename "$TARBALL" .tar.gz)" "$vroot/opt/rfmrt"
    cp "$vroot"/opt/rfmrt/systemd/*.service "$vroot/etc/systemd/system/"
    run systemd-analyze verify --root="$vroot" rfmrt-tuning.service rfmrt-node@node-2.service
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *rfmrt* ]]
}

@test "the node unit sets the limits an RT node needs" {
    unit="$REPO/deploy/systemd/rfmrt-node@.service"
    grep -qx 'LimitMEMLOCK=infinity' "$unit"
    grep -qx 'LimitRTPRIO=99' "$unit"
    grep -qx 'KillSignal=SIGTERM' "$unit"
    grep -qx 'After=rfmrt-tuning.service network-online.target' "$unit"
    grep -qx 'SuccessExitStatus=4' "$REPO/deploy/systemd/rfmrt-tuning.service"
}
