#!/usr/bin/env bats
# rfmrt-isolate on the synthetic 8-cpu node (isolcpus 4-7) and the captured VM.

load helpers

ISO=rfmrt-isolate

setup() {
    PATH=$BIN:$PATH
    # A systemctl/sysctl that records any call: under --sysroot neither may run.
    mkdir -p "$BATS_TEST_TMPDIR/fakebin"
    local cmd
    for cmd in systemctl sysctl; do
        printf '#!/bin/sh\necho "%s $*" >>"%s/host-calls"\n' "$cmd" "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/fakebin/$cmd"
        chmod +x "$BATS_TEST_TMPDIR/fakebin/$cmd"
    done
    PATH=$BATS_TEST_TMPDIR/fakebin:$PATH
}

k() {
    cat "$ROOT$1"
}

@test "isolate moves movable IRQs, workqueues and defaults off the RT cpus and sets the kernel knobs" {
    use_fixture node8-rfm
    run $ISO --keep-match '^rfm2g' --sysroot "$ROOT"
    # the managed NVMe queues on cpus 4-7 cannot move: partially applied
    expect_status 4
    expect_line '^RT cpus 4-7, housekeeping cpus 0-3 '
    expect_file "$ROOT/proc/irq/default_smp_affinity" 0f
    local irq
    for irq in 0 1 7 8 9 16 24 33 34 35 36 37; do
        [ "$(affinity $irq)" = 0-3 ]
    done
    # kept on purpose
    for irq in 40 41 42 43; do
        [ "$(affinity $irq)" = 0-7 ]
    done
    expect_line 'IRQ 40 rfm2g0-dma +skipped: kept on RT cpus \(0-7\) by --keep-match'
    # managed: reported, untouched
    [ "$(affinity 29) $(affinity 30) $(affinity 31) $(affinity 32)" = "4 5 6 7" ]
    expect_line 'IRQ 29 nvme0q5 +4 -> 0-3 +NOT APPLIED: managed IRQ'
    expect_line '^managed IRQs stay where the kernel puts them'
    # already off the RT cpus: untouched
    [ "$(affinity 25) $(affinity 28)" = "0 3" ]
    grep -qx 'IRQBALANCE_BANNED_CPULIST="4-7"' "$ROOT/etc/default/irqbalance"
    grep -qx '#IRQBALANCE_ARGS=' "$ROOT/etc/default/irqbalance"
    expect_line 'restart irqbalance +skipped under --sysroot'
    expect_file "$ROOT/sys/devices/virtual/workqueue/cpumask" 0f
    expect_file "$ROOT/sys/bus/workqueue/devices/writeback/cpumask" 0f
    expect_file "$ROOT/proc/sys/kernel/timer_migration" 0
    expect_file "$ROOT/proc/sys/kernel/sched_rt_runtime_us" 950000
    expect_line 'kernel.sched_rt_runtime_us +skipped: left at 950000'
    expect_file "$ROOT/sys/kernel/mm/transparent_hugepage/enabled" never
    local p
    for p in 0 1 2 3 4 5 6 7; do
        expect_file "$ROOT/sys/devices/system/cpu/cpufreq/policy$p/scaling_governor" performance
    done
    expect_line '^  isolcpus=managed_irq,domain,4-7 nohz_full=4-7 rcu_nocbs=4-7 irqaffinity=0-3$'
    expect_line '^  missing or different in /proc/cmdline: irqaffinity=0-3$'
    expect_line '^26 applied, 0 already set, 4 not applied'
    # neither systemctl nor sysctl ran on the host
    [ ! -e "$BATS_TEST_TMPDIR/host-calls" ]
}

@test "restore after isolate brings every file back" {
    use_fixture node8-rfm
    local before
    before=$(snapshot_normalized)
    run $ISO --keep-match '^rfm2g' --rt-runtime-unlimited --sysroot "$ROOT"
    expect_status 4
    expect_file "$ROOT/proc/sys/kernel/sched_rt_runtime_us" -1
    local rf
    rf=$(restore_file_of_output)
    [[ $rf == "$ROOT"/var/lib/rfmrt/rfmrt-isolate-*.restore ]]
    grep -q $'^conf\t/etc/default/irqbalance\tIRQBALANCE_BANNED_CPULIST\tunset$' "$rf"
    grep -q $'^file\t/proc/sys/kernel/sched_rt_runtime_us\t950000$' "$rf"
    grep -q $'^mask\t/proc/irq/default_smp_affinity\t0-7$' "$rf"
    refute grep -q $'^irq\t29\t' "$rf"
    [ "$(snapshot_normalized)" != "$before" ]
    run $ISO --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    expect_line '^27 restored, 0 already back, 0 failed'
    [ "$(snapshot_normalized)" = "$before" ]
    [ ! -e "$BATS_TEST_TMPDIR/host-calls" ]
    # restoring twice finds everything back already
    run $ISO --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    expect_line '^0 restored, 27 already back'
}

@test "dry run changes nothing" {
    use_fixture node8-rfm
    local before
    before=$(snapshot)
    run $ISO --dry-run --rt-runtime-unlimited --sysroot "$ROOT"
    expect_status 0
    expect_line 'IRQ 40 rfm2g0-dma +0-7 -> 0-3 +would change'
    expect_line 'kernel.sched_rt_runtime_us +950000 -> -1 +would change'
    expect_line '^dry run: '
    expect_line 'irqaffinity=0-3'
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
}

@test "an IRQ allowed on RT and housekeeping cpus keeps its housekeeping part" {
    use_fixture node8-rfm
    echo 2,5 >"$ROOT/proc/irq/34/smp_affinity_list"
    echo 6 >"$ROOT/proc/irq/35/smp_affinity_list"
    run $ISO --skip irqbalance,workqueue,thp,governor,timer-migration,default-affinity --sysroot "$ROOT"
    [ "$(affinity 34) $(affinity 35)" = "2 0-3" ]
    # skipped steps untouched
    expect_file "$ROOT/sys/kernel/mm/transparent_hugepage/enabled" "always [madvise] never"
    expect_file "$ROOT/proc/sys/kernel/timer_migration" 1
    expect_file "$ROOT/proc/irq/default_smp_affinity" ff
    refute grep -q '^IRQBALANCE_BANNED_CPULIST' "$ROOT/etc/default/irqbalance"
}

@test "keep by IRQ number, explicit RT and housekeeping cpus" {
    use_fixture node8-rfm
    run $ISO --rt-cpus 6-7 --housekeeping 0-1 --keep 40,41 --skip governor --sysroot "$ROOT"
    expect_status 4
    expect_line '^RT cpus 6-7, housekeeping cpus 0-1 '
    [ "$(affinity 40) $(affinity 41) $(affinity 42)" = "0-7 0-7 0-5" ]
    expect_file "$ROOT/proc/irq/default_smp_affinity" 03
    # managed queues on 6 and 7 reported, the ones on 4 and 5 are not RT here
    expect_line 'IRQ 31 nvme0q7 .*NOT APPLIED'
    expect_no_line 'IRQ 29 nvme0q5'
    expect_line '^  isolcpus=managed_irq,domain,6-7 nohz_full=6-7 rcu_nocbs=6-7 irqaffinity=0-1$'
    expect_line 'missing or different in /proc/cmdline: isolcpus=managed_irq,domain,6-7 \(now isolcpus=managed_irq,domain,4-7\)'
}

@test "an existing irqbalance setting is replaced and restored" {
    use_fixture node8-rfm
    printf 'IRQBALANCE_BANNED_CPULIST=7\nIRQBALANCE_ARGS="--policyscript=/x"\n' >"$ROOT/etc/default/irqbalance"
    local orig
    orig=$(cat "$ROOT/etc/default/irqbalance")
    run $ISO --skip irqs --sysroot "$ROOT"
    expect_status 0
    expect_line 'irqbalance banned cpus +7 -> 4-7 +applied'
    [ "$(cat "$ROOT/etc/default/irqbalance")" = $'IRQBALANCE_BANNED_CPULIST="4-7"\nIRQBALANCE_ARGS="--policyscript=/x"' ]
    run $ISO --restore "$(restore_file_of_output)" --sysroot "$ROOT"
    expect_status 0
    [ "$(cat "$ROOT/etc/default/irqbalance")" = $'IRQBALANCE_BANNED_CPULIST="7"\nIRQBALANCE_ARGS="--policyscript=/x"' ]
    # the restored list is the one that was there before, whatever quoting the file used
    [ "$(sed -n 's/^IRQBALANCE_BANNED_CPULIST=//p' "$ROOT/etc/default/irqbalance" | tr -d '"')" = \
        "$(sed -n 's/^IRQBALANCE_BANNED_CPULIST=//p' <<<"$orig" | tr -d '"')" ]
}

@test "second run finds everything in place and writes no restore file" {
    use_fixture node8-rfm
    run $ISO --keep-match '^rfm2g' --sysroot "$ROOT"
    expect_status 4
    run $ISO --keep-match '^rfm2g' --sysroot "$ROOT"
    expect_status 4
    expect_line '^0 applied, 14 already set, 4 not applied'
    expect_no_line '^restore file:'
    [ "$(find "$ROOT/var/lib/rfmrt" -name '*.restore' | wc -l)" -eq 1 ]
}

@test "on the captured VM with --rt-cpus 1: irqbalance and cpufreq are absent, the rest applies" {
    use_fixture vm-virtio
    run $ISO --rt-cpus 1 --sysroot "$ROOT"
    expect_status 0
    expect_file "$ROOT/proc/irq/default_smp_affinity" 1
    local irq
    for irq in 24 36 41 43; do
        [ "$(affinity $irq)" = 0 ]
    done
    expect_line 'irqbalance banned cpus +skipped: irqbalance not installed'
    expect_line 'cpufreq governor +skipped: no cpufreq on this node'
    expect_file "$ROOT/sys/devices/virtual/workqueue/cpumask" 1
    expect_file "$ROOT/sys/kernel/mm/transparent_hugepage/enabled" never
    expect_line '(no /proc/cmdline to compare with)'
}

bad_input() {
    local pattern=$1
    shift
    local before
    before=$(snapshot)
    run $ISO --sysroot "$ROOT" "$@"
    expect_one_error_line 2 "^rfmrt-isolate: error: $pattern"
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
}

@test "bad input is one clear line, exit 2, and changes nothing" {
    use_fixture node8-rfm
    bad_input "--rt-cpus 4-9: cpu 8 out of range \(this node has cpus 0-7\)" --rt-cpus 4-9
    bad_input "--rt-cpus: bad cpu list '4,,5'" --rt-cpus 4,,5
    bad_input "RT cpus 0-7 cover every online cpu \(0-7\)" --rt-cpus 0-7
    bad_input "--housekeeping 0-4 overlaps the RT cpus 4-7 \(cpu 4\)" --housekeeping 0-4
    bad_input "--keep 40,99: IRQ 99 does not exist" --keep 40,99
    bad_input "--keep-match '\[': not a valid extended regular expression" --keep-match '['
    bad_input "--skip thp,bogus: no step 'bogus'" --skip thp,bogus
    bad_input "--restore takes no other option" --restore x --rt-cpus 4
    bad_input "unknown option '--isolate-harder'" --isolate-harder
}

@test "no isolated cpus and no --rt-cpus is refused" {
    use_fixture vm-virtio
    bad_input "no RT cpus: /sys/devices/system/cpu/isolated is empty" --dry-run
}
