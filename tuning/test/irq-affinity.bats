#!/usr/bin/env bats
# rfmrt-irq-affinity on fixture trees: vm-virtio (captured from a 2-vCPU virtio VM) and node8-rfm
# (synthetic 8-cpu node, isolcpus=4-7, an RFM card with 4 MSI-X vectors, managed NVMe queues).

load helpers

IA=rfmrt-irq-affinity

setup() {
    PATH=$BIN:$PATH
}

# ---- --list ---------------------------------------------------------------------------------------

@test "list on the captured VM shows every IRQ of /proc/interrupts with affinity, effective cpu, counts and name" {
    use_fixture vm-virtio
    run $IA --list --sysroot "$ROOT"
    expect_status 0
    # One row per numbered line of /proc/interrupts, values read independently with awk.
    local expected got
    expected=$(awk 'NR > 1 && $1 ~ /^[0-9]+:$/ { n = $1; sub(":", "", n); printf "%s 0:%s,1:%s %s\n", n, $2, $3, $NF }' \
        "$ROOT/proc/interrupts")
    got=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1, $5, $6 }' <<<"$output")
    [ "$got" = "$expected" ]
    local irq
    for irq in 24 36 41; do
        expect_line "^$irq +$(affinity $irq) +$(cat "$ROOT/proc/irq/$irq/effective_affinity_list") +\? "
    done
    expect_line '^# MANAGED \?: unknown without debugfs'
}

@test "list --device shows exactly the device's MSI-X vectors" {
    use_fixture vm-virtio
    run $IA --list --device 0000:00:04.0 --sysroot "$ROOT"
    expect_status 0
    [ "$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }' <<<"$output")" = "40 41 42 43 " ]
    expect_line ' virtio3-rx$'
}

@test "list --match selects IRQs by name" {
    use_fixture vm-virtio
    run $IA --list --match 'virtio3-(rx|tx)$' --sysroot "$ROOT"
    expect_status 0
    [ "$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }' <<<"$output")" = "41 42 " ]
}

@test "list reads managed state from debugfs and falls back to /proc/interrupts for names" {
    use_fixture node8-rfm
    run $IA --list --sysroot "$ROOT"
    expect_status 0
    local irq
    for irq in 25 26 27 28 29 30 31 32; do
        expect_line "^$irq +[0-9]+ +[0-9]+ +yes +.* nvme0q$((irq - 24))$"
    done
    expect_line '^24 +0-7 +6 +no +0:0,1:0,2:0,3:0,4:0,5:0,6:77,7:0 +nvme0q0$'
    expect_line '^40 +0-7 +7 +no .* rfm2g0-dma$'
    # no /sys/kernel/irq for IRQ 0: the name comes from /proc/interrupts
    expect_line '^0 +0-7 +0 +no +0:41,1:0,.* timer$'
    # an allocated IRQ without a handler: no counts, no name
    expect_line '^7 +0-7 +0 +no +- +-$'
    expect_line '^16 .* ehci_hcd:usb1,i801_smbus$'
    expect_no_line '^# MANAGED'
}

@test "list --probe marks an IRQ whose affinity write is refused as managed" {
    use_fixture vm-virtio
    make_unwritable "$ROOT/proc/irq/36/smp_affinity_list"
    run $IA --list --probe --device 0000:00:02.0 --sysroot "$ROOT"
    expect_status 0
    expect_line '^36 .* yes +.* virtio1-req\.0$'
    expect_line '^35 .* no +.* virtio1-config$'
    [ "$(affinity 35)" = "0-1" ]
}

# ---- apply and restore ----------------------------------------------------------------------------

@test "device apply pins every MSI-X vector and restore brings the originals back" {
    use_fixture vm-virtio
    local before
    before=$(snapshot)
    run $IA --device 0000:00:04.0 --cpus 1 --sysroot "$ROOT"
    expect_status 0
    local irq
    for irq in 40 41 42 43; do
        expect_file "$ROOT/proc/irq/$irq/smp_affinity_list" 1
    done
    for irq in 24 36 39; do
        expect_file "$ROOT/proc/irq/$irq/smp_affinity_list" 0-1
    done
    expect_line '^4 applied, 0 already set, 0 not applied'
    local rf
    rf=$(restore_file_of_output)
    [[ $rf == "$ROOT"/var/lib/rfmrt/rfmrt-irq-affinity-*.restore ]]
    [ "$(grep -c $'^irq\t' "$rf")" -eq 4 ]
    grep -q $'^irq\t41\t0-1$' "$rf"
    grep -qx "# sysroot: $ROOT" "$rf"

    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    expect_line '^4 restored, 0 already back, 0 failed'
    [ "$(snapshot)" = "$before" ]
}

@test "short BDF form is accepted" {
    use_fixture vm-virtio
    run $IA --device 00:03.0 --cpus 0 --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 37)$(affinity 38)$(affinity 39)" = "000" ]
}

@test "dry run changes nothing and writes no restore file" {
    use_fixture vm-virtio
    local before
    before=$(snapshot)
    run $IA --device 0000:00:04.0 --cpus 0 --dry-run --sysroot "$ROOT"
    expect_status 0
    expect_line 'IRQ 41 virtio3-rx +0-1 -> 0 +would change'
    expect_line '^dry run: 4 to change.*nothing written'
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
    [ -z "$(ls -A "$TMPDIR")" ]
}

@test "match apply moves only the matching IRQs" {
    use_fixture vm-virtio
    run $IA --match '^virtio2-' --cpus 0 --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 37) $(affinity 38) $(affinity 39) $(affinity 40)" = "0 0 0 0-1" ]
}

@test "irq list apply and a second run that finds everything in place" {
    use_fixture vm-virtio
    run $IA --irq 28,30-31 --cpus 1 --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 28) $(affinity 29) $(affinity 30) $(affinity 31)" = "1 0-1 1 1" ]
    run $IA --irq 28,30-31 --cpus 1 --sysroot "$ROOT"
    expect_status 0
    expect_line '^0 applied, 3 already set'
    expect_no_line '^restore file:'
    [ "$(find "$ROOT/var/lib/rfmrt" -name '*.restore' | wc -l)" -eq 1 ]
}

@test "cpu lists are normalised: 1,0 is 0-1 and is already in place" {
    use_fixture vm-virtio
    run $IA --irq 41 --cpus 1,0 --sysroot "$ROOT"
    expect_status 0
    expect_line 'IRQ 41 virtio3-rx +0-1 \(already\)'
}

@test "save writes the restore file where asked" {
    use_fixture vm-virtio
    run $IA --irq 41 --cpus 0 --save "$BATS_TEST_TMPDIR/mine.restore" --sysroot "$ROOT"
    expect_status 0
    expect_line "^restore file: $BATS_TEST_TMPDIR/mine.restore$"
    grep -q $'^irq\t41\t0-1$' "$BATS_TEST_TMPDIR/mine.restore"
}

@test "a restore file that cannot be written stops everything before a change, exit 3" {
    use_fixture vm-virtio
    local before
    before=$(snapshot)
    run $IA --irq 41 --cpus 0 --save "$BATS_TEST_TMPDIR/no/such/dir/x.restore" --sysroot "$ROOT"
    expect_one_error_line 3 "cannot write the restore file $BATS_TEST_TMPDIR/no/such/dir/x.restore; nothing changed"
    [ "$(snapshot)" = "$before" ]
}

@test "restore file falls back to TMPDIR when /var/lib/rfmrt cannot be created" {
    use_fixture vm-virtio
    mkdir -p "$ROOT/var"
    echo "not a directory" >"$ROOT/var/lib"
    run $IA --irq 41 --cpus 0 --sysroot "$ROOT"
    expect_status 0
    local rf
    rf=$(restore_file_of_output)
    [[ $rf == "$TMPDIR"/rfmrt-irq-affinity-*.restore ]]
    [ -f "$rf" ]
}

@test "plan file sets each IRQ to its own cpus; stdin works too" {
    use_fixture node8-rfm
    printf '# vector plan\n40 4\n41 5   # net\n\n42 0-3\n' >"$BATS_TEST_TMPDIR/plan"
    run $IA --plan "$BATS_TEST_TMPDIR/plan" --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 40) $(affinity 41) $(affinity 42) $(affinity 43)" = "4 5 0-3 0-7" ]
    run $IA --plan - --sysroot "$ROOT" <<<"43 6-7"
    expect_status 0
    [ "$(affinity 43)" = "6-7" ]
}

@test "legacy device uses its irq file and warns that the line is shared" {
    use_fixture node8-rfm
    run $IA --device 0000:00:1f.3 --cpus 0 --sysroot "$ROOT"
    expect_status 0
    expect_line 'warning: IRQ 16 of 0000:00:1f.3 is shared \(ehci_hcd:usb1,i801_smbus\)'
    [ "$(affinity 16)" = "0" ]
}

# ---- refused writes: reported, not fatal, exit 4 ---------------------------------------------------

@test "a refused write is reported, the other vectors are applied, exit 4, and the restore file skips it" {
    use_fixture vm-virtio
    make_unwritable "$ROOT/proc/irq/41/smp_affinity_list"
    run $IA --device 0000:00:04.0 --cpus 0 --sysroot "$ROOT"
    expect_status 4
    expect_line 'IRQ 41 virtio3-rx +0-1 -> 0 +FAILED: '
    expect_line '^3 applied, 0 already set, 1 not applied'
    expect_line 'warning: 1 change\(s\) not applied'
    [ "$(affinity 40) $(affinity 41) $(affinity 42) $(affinity 43)" = "0 0-1 0 0" ]
    local rf
    rf=$(restore_file_of_output)
    refute grep -q $'^irq\t41\t' "$rf"
    [ "$(grep -c $'^irq\t' "$rf")" -eq 3 ]
    release_unwritable
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    [ "$(affinity 40) $(affinity 41) $(affinity 42) $(affinity 43)" = "0-1 0-1 0-1 0-1" ]
}

@test "the kernel's EPERM on a managed IRQ is named as such" {
    use_fixture vm-virtio
    make_unwritable "$ROOT/proc/irq/36/smp_affinity_list"
    run $IA --irq 36 --cpus 0 --sysroot "$ROOT"
    expect_status 4
    expect_line 'IRQ 36 virtio1-req\.0 +0-1 -> 0 +FAILED: kernel refused \(Operation not permitted\): managed or unmovable IRQ'
}

@test "managed IRQs known from debugfs are not written, reported, exit 4" {
    use_fixture node8-rfm
    run $IA --device 0000:01:00.0 --cpus 0-3 --sysroot "$ROOT"
    expect_status 4
    expect_line 'IRQ 24 nvme0q0 +0-7 -> 0-3 +applied'
    expect_line 'IRQ 29 nvme0q5 +4 -> 0-3 +NOT APPLIED: managed IRQ \(debugfs: IRQD_AFFINITY_MANAGED\)'
    expect_line '^1 applied, 0 already set, 8 not applied'
    [ "$(affinity 24) $(affinity 29) $(affinity 32)" = "0-3 4 7" ]
    [ "$(grep -c $'^irq\t' "$(restore_file_of_output)")" -eq 1 ]
}

# ---- bad input: one line, exit 2, nothing changed ---------------------------------------------------

bad_input() {
    local pattern=$1
    shift
    local before
    before=$(snapshot)
    run $IA --sysroot "$ROOT" "$@"
    expect_one_error_line 2 "^rfmrt-irq-affinity: error: $pattern"
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
}

@test "bad input is one clear line, exit 2, and changes nothing" {
    use_fixture vm-virtio
    bad_input "--cpus: bad cpu list '1-'" --device 0000:00:04.0 --cpus 1-
    bad_input "--cpus: bad cpu list 'x'" --device 0000:00:04.0 --cpus x
    bad_input "--cpus: bad cpu list '1-0': range 1-0 runs backwards" --device 0000:00:04.0 --cpus 1-0
    bad_input "--cpus 5: cpu 5 out of range \(this node has cpus 0-1\)" --device 0000:00:04.0 --cpus 5
    bad_input "--cpus 0,2: cpu 2 out of range" --irq 41 --cpus 0,2
    bad_input "--device 0000:00:09.0: unknown PCI device" --device 0000:00:09.0 --cpus 0
    bad_input "--device zz: not a PCI address" --device zz --cpus 0
    bad_input "--match 'nosuchirq': no IRQ name matches" --match nosuchirq --cpus 0
    bad_input "--match '\(': not a valid extended regular expression" --match '(' --cpus 0
    bad_input "--irq 41,99: IRQ 99 does not exist" --irq 41,99 --cpus 0
    bad_input "unknown option '--frobnicate'" --frobnicate
    bad_input "say where to: --cpus LIST" --device 0000:00:04.0
    bad_input "give only one of --device, --match, --irq" --device 0000:00:04.0 --match virtio --cpus 0
    bad_input "--cpus cannot be combined with --list" --list --cpus 0
    bad_input "--cpus needs a value" --irq 41 --cpus
}

@test "offline cpu is refused" {
    use_fixture vm-virtio
    echo 0 >"$ROOT/sys/devices/system/cpu/online"
    bad_input "--cpus 1: cpu 1 is offline \(online cpus: 0\)" --irq 41 --cpus 1
}

@test "bad plan line is refused before anything is written" {
    use_fixture node8-rfm
    printf '40 4\n41 five\n' >"$BATS_TEST_TMPDIR/plan"
    bad_input "--plan line 2: cpus: bad cpu list 'five'" --plan "$BATS_TEST_TMPDIR/plan"
    printf '40 4\n40 5\n' >"$BATS_TEST_TMPDIR/plan"
    bad_input "IRQ 40 is given twice" --plan "$BATS_TEST_TMPDIR/plan"
}

@test "cpu out of range on the 8-cpu node" {
    use_fixture node8-rfm
    bad_input "--cpus 4-8: cpu 8 out of range \(this node has cpus 0-7\)" --device 0000:03:00.0 --cpus 4-8
}

# ---- restore files that must not be used -----------------------------------------------------------

@test "a restore file of another sysroot is refused, exit 3" {
    use_fixture vm-virtio
    run $IA --irq 41 --cpus 0 --sysroot "$ROOT"
    expect_status 0
    local rf
    rf=$(restore_file_of_output)
    mkdir -p "$BATS_TEST_TMPDIR/other"
    cp -a "$ROOT/." "$BATS_TEST_TMPDIR/other/"
    run $IA --restore "$rf" --sysroot "$BATS_TEST_TMPDIR/other"
    expect_one_error_line 3 "was written for --sysroot $ROOT"
    [ "$(cat "$BATS_TEST_TMPDIR/other/proc/irq/41/smp_affinity_list")" = 0 ]
    run $IA --restore "$rf"
    expect_one_error_line 3 "was written for --sysroot $ROOT"
}

@test "a restore file path that climbs out with .. is refused and nothing is written" {
    use_fixture vm-virtio
    local rf=$BATS_TEST_TMPDIR/climb.restore before
    mkdir -p "$ROOT/etc"
    echo original >"$ROOT/etc/hostname"
    before=$(snapshot)
    printf '# rfmrt restore file v1\n# sysroot: %s\nfile\t/proc/../etc/hostname\tboom\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "refusing path '/proc/../etc/hostname'"
    [ "$(cat "$ROOT/etc/hostname")" = original ]
    printf '# rfmrt restore file v1\n# sysroot: %s\nmask\t/proc/irq/../../etc/hostname\t0\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "refusing path '/proc/irq/../../etc/hostname'"
    [ "$(snapshot)" = "$before" ]
}

@test "a restore undoes the last change first, so a target changed twice gets its first saved value" {
    use_fixture vm-virtio
    local rf=$BATS_TEST_TMPDIR/twice.restore
    echo 0-1 >"$ROOT/proc/irq/41/smp_affinity_list"
    # IRQ 41 was 0 originally (saved by the first change), then 1 (saved by the second)
    printf '# rfmrt restore file v1\n# sysroot: %s\nirq\t41\t0\nirq\t41\t1\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    [ "$(cat "$ROOT/proc/irq/41/smp_affinity_list")" = 0 ]
}

@test "a broken restore file is refused as a whole before anything is written" {
    use_fixture vm-virtio
    local rf=$BATS_TEST_TMPDIR/bad.restore before
    before=$(snapshot)
    printf '# rfmrt restore file v1\n# sysroot: %s\nirq\t41\t0\nirq\t42\tzz\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "line 4: bad irq entry"
    [ "$(snapshot)" = "$before" ]
    printf '# rfmrt restore file v1\n# sysroot: %s\nfile\t/home/x/.profile\tboom\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "refusing path '/home/x/.profile'"
    printf '# rfmrt restore file v1\n# sysroot: %s\nirq\t99\t0\n' "$ROOT" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "IRQ 99 does not exist"
    echo "hello" >"$rf"
    run $IA --restore "$rf" --sysroot "$ROOT"
    expect_one_error_line 3 "is not an rfmrt restore file"
    run $IA --restore "$BATS_TEST_TMPDIR/none.restore" --sysroot "$ROOT"
    expect_one_error_line 3 "cannot read restore file"
    [ "$(snapshot)" = "$before" ]
}

@test "restore --dry-run shows what it would write and writes nothing" {
    use_fixture vm-virtio
    run $IA --irq 41 --cpus 0 --sysroot "$ROOT"
    local rf
    rf=$(restore_file_of_output)
    run $IA --restore "$rf" --dry-run --sysroot "$ROOT"
    expect_status 0
    expect_line 'IRQ 41 virtio3-rx +0 -> 0-1 +would restore'
    [ "$(affinity 41)" = 0 ]
}

@test "without write permission it stops before changing anything, exit 3" {
    local -a as_user=()
    if ((EUID == 0)); then
        # Run as an unprivileged user on a fixture copy it can read but not write.
        command -v setpriv >/dev/null || skip "no setpriv to switch to an unprivileged user"
        as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
        "${as_user[@]}" test -x "$BIN/$IA" || skip "the scripts are not readable by an unprivileged user here"
        ROOT=$(mktemp -d /tmp/rfmrt-tuning-test.XXXXXX)
        # shellcheck disable=SC2034  # removed by teardown (helpers.bash)
        UNPRIV_ROOT=$ROOT
        cp -a "$FIXTURES/vm-virtio/." "$ROOT/"
        chmod -R a+rX,go-w "$ROOT"
    else
        use_fixture vm-virtio
        find "$ROOT/proc" -type f -exec chmod a-w {} +
    fi
    local before
    before=$(snapshot)
    run "${as_user[@]}" env TMPDIR="$ROOT" "$BIN/$IA" --device 0000:00:04.0 --cpus 0 --sysroot "$ROOT"
    expect_one_error_line 3 "cannot write /proc/irq/40/smp_affinity_list: permission denied \(run as root, or use --dry-run\); nothing changed"
    [ "$(snapshot)" = "$before" ]
    run "${as_user[@]}" "$BIN/$IA" --list --probe --irq 41 --sysroot "$ROOT"
    expect_one_error_line 3 "--probe: cannot write /proc/irq/41/smp_affinity_list \(run as root\)"
    run "${as_user[@]}" "$BIN/$IA" --list --irq 41 --sysroot "$ROOT"
    expect_status 0
    expect_line '^41 +0-1 '
}
