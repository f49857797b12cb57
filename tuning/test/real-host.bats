#!/usr/bin/env bats
# The tuning scripts on the running system's real IRQs. Writing tests need root and RFMRT_LIVE_HOST_TESTS=1, and
# restore what they changed (teardown puts the original back even when a test fails half-way).

load helpers

IA=rfmrt-irq-affinity

setup() {
    PATH=$BIN:$PATH
    [[ -r /proc/interrupts && -d /proc/irq ]] || skip "no /proc/interrupts or /proc/irq here"
    export TMPDIR=$BATS_TEST_TMPDIR
    REAL_IRQ=""
    REAL_ORIG=""
    REAL_ISO_RESTORE=""
    REAL_ISO_DONE=""
}

teardown() {
    if [[ -n ${REAL_ISO_RESTORE:-} && -f $REAL_ISO_RESTORE && -z ${REAL_ISO_DONE:-} ]]; then
        "$BIN/rfmrt-isolate" --restore "$REAL_ISO_RESTORE" >/dev/null 2>&1 || true
    fi
    if [[ -n $REAL_IRQ && -n $REAL_ORIG ]] &&
        [[ $(cat "/proc/irq/$REAL_IRQ/smp_affinity_list") != "$REAL_ORIG" ]]; then
        echo "$REAL_ORIG" >"/proc/irq/$REAL_IRQ/smp_affinity_list" || true
    fi
}

# Tests that write this machine's IRQ affinities and tuning (and put them back) are opt-in: ./run-tests as root on a
# production RT node must leave it alone. .ci/run sets RFMRT_LIVE_HOST_TESTS=1 on its throw-away VM.
need_live_host() {
    [[ ${RFMRT_LIVE_HOST_TESTS:-} == 1 ]] ||
        skip "live-host test off: RFMRT_LIVE_HOST_TESTS=1 lets it change this machine's IRQs and tuning (restored after)"
    ((EUID == 0)) || skip "not root: writing /proc/irq needs root"
}

# MSI-X vectors of virtio devices (PCI vendor 0x1af4), one IRQ number per line.
virtio_msix_vectors() {
    local dev v
    for dev in /sys/bus/pci/devices/*; do
        [[ -r $dev/vendor && $(cat "$dev/vendor") == 0x1af4 && -d $dev/msi_irqs ]] || continue
        for v in "$dev"/msi_irqs/*; do
            [[ -f $v && $(cat "$v") == msix ]] && echo "${v##*/}"
        done
    done
    return 0
}

# A virtio MSI-X vector the kernel lets us move (MANAGED "no" from --probe) / refuses ("yes").
virtio_vector_with_managed() {
    local want=$1 irq managed
    for irq in $(virtio_msix_vectors); do
        [[ -w /proc/irq/$irq/smp_affinity_list ]] || continue
        if [[ $want == no && $(cat "/proc/irq/$irq/smp_affinity_list") == 0 ]]; then
            continue   # already on CPU 0 alone: pinning it there would show nothing
        fi
        managed=$($IA --list --probe --irq "$irq" | awk -v i="$irq" '$1 == i { print $4 }')
        if [[ $managed == "$want" ]]; then
            echo "$irq"
            return 0
        fi
    done
    return 0
}

@test "real: pins one virtio MSI-X vector to CPU 0, reads it back, restores the original" {
    need_live_host
    local irq
    irq=$(virtio_vector_with_managed no)
    [[ -n $irq ]] || skip "no movable virtio MSI-X vector (not on CPU 0 alone) on this machine"
    REAL_IRQ=$irq
    REAL_ORIG=$(cat "/proc/irq/$irq/smp_affinity_list")
    run $IA --irq "$irq" --cpus 0 --save "$BATS_TEST_TMPDIR/real.restore"
    expect_status 0
    expect_line "IRQ $irq .* -> 0 +applied"
    [ "$(cat "/proc/irq/$irq/smp_affinity_list")" = 0 ]
    grep -q "^irq"$'\t'"$irq"$'\t'"$REAL_ORIG\$" "$BATS_TEST_TMPDIR/real.restore"
    grep -qx "# sysroot: /" "$BATS_TEST_TMPDIR/real.restore"
    run $IA --restore "$BATS_TEST_TMPDIR/real.restore"
    expect_status 0
    expect_line '^1 restored, 0 already back, 0 failed'
    [ "$(cat "/proc/irq/$irq/smp_affinity_list")" = "$REAL_ORIG" ]
}

@test "real: a managed virtio vector is refused by the kernel, reported, exit 4, unchanged" {
    need_live_host
    local irq before
    irq=$(virtio_vector_with_managed yes)
    [[ -n $irq ]] || skip "no managed virtio MSI-X vector on this machine"
    REAL_IRQ=$irq
    REAL_ORIG=$(cat "/proc/irq/$irq/smp_affinity_list")
    before=$REAL_ORIG
    [[ $before != 0 ]] || skip "managed vector $irq is on CPU 0 alone already"
    run $IA --irq "$irq" --cpus 0 --save "$BATS_TEST_TMPDIR/managed.restore"
    expect_status 4
    expect_line "IRQ $irq .*FAILED: kernel refused \((Operation not permitted|Input/output error)\): managed or unmovable IRQ"
    [ "$(cat "/proc/irq/$irq/smp_affinity_list")" = "$before" ]
    refute grep -q $'^irq\t' "$BATS_TEST_TMPDIR/managed.restore"
}

@test "real: --list shows every IRQ of /proc/interrupts with its live affinity" {
    run $IA --list
    expect_status 0
    local expected got
    expected=$(awk 'NR > 1 && $1 ~ /^[0-9]+:$/ { sub(":", "", $1); print $1 }' /proc/interrupts)
    got=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ && $5 != "-" { print $1 }' <<<"$output")
    [ "$got" = "$expected" ]
    local irq
    for irq in $(virtio_msix_vectors); do
        expect_line "^$irq +$(cat "/proc/irq/$irq/smp_affinity_list") "
    done
}

@test "real: rfmrt-isolate --dry-run on the running system writes nothing" {
    local online last before after
    online=$(cat /sys/devices/system/cpu/online)
    last=${online##*[,-]}
    [[ $last != 0 ]] || skip "one cpu only: nothing to isolate"
    before=$(real_state; ls /var/lib/rfmrt 2>/dev/null || true)
    run rfmrt-isolate --rt-cpus "$last" --dry-run --rt-runtime-unlimited
    expect_status 0
    expect_line "^RT cpus $last, housekeeping cpus "
    expect_line '^dry run: .*nothing written'
    after=$(real_state; ls /var/lib/rfmrt 2>/dev/null || true)
    [ "$after" = "$before" ]
}

# What rfmrt-isolate may change on the running system, one "file value" line each.
real_state() {
    local f
    for f in /proc/irq/default_smp_affinity /proc/irq/*/smp_affinity_list \
        /sys/devices/virtual/workqueue/cpumask /sys/bus/workqueue/devices/writeback/cpumask \
        /proc/sys/kernel/timer_migration /proc/sys/kernel/sched_rt_runtime_us \
        /sys/kernel/mm/transparent_hugepage/enabled /sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do
        [[ -r $f ]] && printf '%s %s\n' "$f" "$(cat "$f")"
    done
    return 0
}

@test "real: rfmrt-isolate applies on the running system and --restore brings every value back" {
    need_live_host
    local online last before during
    online=$(cat /sys/devices/system/cpu/online)
    last=${online##*[,-]}
    [[ $last != 0 ]] || skip "one cpu only: nothing to isolate"
    [[ ! -e /etc/default/irqbalance ]] || skip "irqbalance is configured here: not touching a real irqbalance"
    before=$(real_state)
    REAL_ISO_RESTORE=$BATS_TEST_TMPDIR/isolate.restore
    run rfmrt-isolate --rt-cpus "$last" --rt-runtime-unlimited --skip irqbalance --save "$REAL_ISO_RESTORE"
    # 4 when a managed IRQ stays on the RT cpu
    [[ $status -eq 0 || $status -eq 4 ]] || expect_status 0
    during=$(real_state)
    local irq aff
    for irq in /proc/irq/[0-9]*; do
        irq=${irq##*/}
        aff=$(cat "/proc/irq/$irq/smp_affinity_list" 2>/dev/null) || continue
        # every IRQ is off the RT cpu, or reported as refused
        if list_has_cpu "$aff" "$last"; then
            expect_line "IRQ $irq .*(FAILED|NOT APPLIED)"
        fi
    done
    [ "$(cat /proc/sys/kernel/timer_migration)" = 0 ]
    [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ]
    if [[ -r /sys/kernel/mm/transparent_hugepage/enabled ]]; then
        grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled
    fi
    [ "$during" != "$before" ]
    run rfmrt-isolate --restore "$REAL_ISO_RESTORE"
    expect_status 0
    REAL_ISO_DONE=1
    [ "$(real_state)" = "$before" ]
}

@test "real: rfmrt-msix-plan prints a plan for a virtio device with several vectors" {
    local dev="" d n online last
    online=$(cat /sys/devices/system/cpu/online)
    last=${online##*[,-]}
    [[ $last != 0 ]] || skip "one cpu only"
    for d in /sys/bus/pci/devices/*; do
        [[ -r $d/vendor && $(cat "$d/vendor") == 0x1af4 && -d $d/msi_irqs ]] || continue
        n=$(find "$d/msi_irqs" -mindepth 1 -maxdepth 1 | wc -l)
        if ((n >= 2)); then
            dev=${d##*/}
            break
        fi
    done
    [[ -n $dev ]] || skip "no virtio device with two or more MSI-X vectors"
    run rfmrt-msix-plan --device "$dev" --isr-cpus "$last" --housekeeping 0 --device-only
    expect_status 0
    expect_line "^MSI-X plan for $dev "
    expect_line "^0 +[0-9]+ +isr +[0-9,-]+ +$last "
    expect_line "^1 +[0-9]+ +(isr|aux) "
}

@test "capture-fixture.sh captures a tree on which --list matches the live system" {
    bash "$BATS_TEST_DIRNAME/capture-fixture.sh" "$BATS_TEST_TMPDIR/captured" >/dev/null
    [ -f "$BATS_TEST_TMPDIR/captured/proc/interrupts" ]
    [ ! -e "$BATS_TEST_TMPDIR/captured/proc/cmdline" ]
    local live captured
    live=$($IA --list | awk '{ print $1, $2, $NF }')
    captured=$($IA --list --sysroot "$BATS_TEST_TMPDIR/captured" | awk '{ print $1, $2, $NF }')
    [ "$captured" = "$live" ]
    run bash "$BATS_TEST_DIRNAME/capture-fixture.sh" "$BATS_TEST_TMPDIR/captured"
    expect_one_error_line 2 "exists already"
}
