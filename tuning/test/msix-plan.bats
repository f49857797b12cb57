#!/usr/bin/env bats
# rfmrt-msix-plan on the synthetic 8-cpu RFM node (card 0000:03:00.0, vectors = IRQs 40-43) and on
# the captured VM.

load helpers

MP=rfmrt-msix-plan

setup() {
    PATH=$BIN:$PATH
}

# The plan rows: "VEC IRQ ROLE CURRENT PLANNED NAME" as printed.
row() {
    grep -E "^[0-9-]+ +$1 " <<<"$output" | awk '{ print $1, $2, $3, $4, $5, $6 }'
}

@test "plan spreads the card's first vectors over the ISR cpus and sends the rest to housekeeping" {
    use_fixture node8-rfm
    local before
    before=$(snapshot)
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --sysroot "$ROOT"
    expect_status 0
    expect_line '^MSI-X plan for 0000:03:00.0 \(vendor 0x10b5 device 0x9656\): 4 vectors, ISR cpus 4-5, housekeeping cpus 0-3$'
    [ "$(row 40)" = "0 40 isr 0-7 4 rfm2g0-dma" ]
    [ "$(row 41)" = "1 41 isr 0-7 5 rfm2g0-net" ]
    [ "$(row 42)" = "2 42 aux 0-7 0-3 rfm2g0-err" ]
    [ "$(row 43)" = "3 43 aux 0-7 0-3 rfm2g0-misc" ]
    # other IRQs allowed on cpu 4 or 5 go to housekeeping; managed ones stay
    [ "$(row 34)" = "- 34 other 0-7 0-3 eth0-TxRx-0" ]
    [ "$(row 16)" = "- 16 other 0-7 0-3 ehci_hcd:usb1,i801_smbus" ]
    [ "$(row 29)" = "- 29 other 4 (managed) nvme0q5" ]
    [ "$(row 30)" = "- 30 other 5 (managed) nvme0q6" ]
    # IRQs that never run on cpus 4-5 are not in the plan
    [ -z "$(row 25)" ]
    [ -z "$(row 31)" ]
    [ "$(snapshot)" = "$before" ]
}

@test "isr-vectors chooses how many vectors are ISR vectors, round-robin over the ISR cpus" {
    use_fixture node8-rfm
    run $MP --device 03:00.0 --isr-cpus 4 --isr-vectors 3 --device-only --sysroot "$ROOT"
    expect_status 0
    [ "$(row 40)" = "0 40 isr 0-7 4 rfm2g0-dma" ]
    [ "$(row 41)" = "1 41 isr 0-7 4 rfm2g0-net" ]
    [ "$(row 42)" = "2 42 isr 0-7 4 rfm2g0-err" ]
    [ "$(row 43)" = "3 43 aux 0-7 0-3 rfm2g0-misc" ]
    expect_no_line ' other '
    run $MP --device 03:00.0 --isr-cpus 4-7 --housekeeping 0-1 --sysroot "$ROOT"
    expect_status 0
    [ "$(row 43)" = "3 43 isr 0-7 7 rfm2g0-misc" ]
}

@test "apply sets the plan through rfmrt-irq-affinity and restore undoes it" {
    use_fixture node8-rfm
    local before
    before=$(snapshot)
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --apply --sysroot "$ROOT"
    expect_status 0
    expect_line '^applying with rfmrt-irq-affinity:$'
    [ "$(affinity 40) $(affinity 41) $(affinity 42) $(affinity 43)" = "4 5 0-3 0-3" ]
    [ "$(affinity 34) $(affinity 16) $(affinity 0)" = "0-3 0-3 0-3" ]
    # managed and off-ISR IRQs untouched
    [ "$(affinity 29) $(affinity 30) $(affinity 31) $(affinity 25)" = "4 5 6 0" ]
    local rf
    rf=$(restore_file_of_output)
    [ -f "$rf" ]
    grep -q $'^irq\t40\t0-7$' "$rf"
    refute grep -q $'^irq\t29\t' "$rf"
    run $MP --restore "$rf" --sysroot "$ROOT"
    expect_status 0
    [ "$(snapshot)" = "$before" ]
    # applying an applied plan changes nothing
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --apply --sysroot "$ROOT"
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --apply --sysroot "$ROOT"
    expect_status 0
    expect_line '^nothing to change'
}

@test "apply --dry-run shows the changes and writes nothing" {
    use_fixture node8-rfm
    local before
    before=$(snapshot)
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --apply --dry-run --sysroot "$ROOT"
    expect_status 0
    expect_line 'IRQ 40 rfm2g0-dma +0-7 -> 4 +would change'
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
}

@test "apply reports a refused vector with exit 4 and applies the others" {
    use_fixture node8-rfm
    make_unwritable "$ROOT/proc/irq/41/smp_affinity_list"
    run $MP --device 0000:03:00.0 --isr-cpus 4,5 --device-only --apply --sysroot "$ROOT"
    expect_status 4
    expect_line 'IRQ 41 rfm2g0-net +0-7 -> 5 +FAILED'
    [ "$(affinity 40) $(affinity 41) $(affinity 42)" = "4 0-7 0-3" ]
}

@test "plan on the captured VM: one virtio device, ISR cpu 1, housekeeping 0" {
    use_fixture vm-virtio
    run $MP --device 0000:00:04.0 --isr-cpus 1 --sysroot "$ROOT"
    expect_status 0
    expect_line '4 vectors, ISR cpus 1, housekeeping cpus 0$'
    [ "$(row 40)" = "0 40 isr 0-1 1 virtio3-config" ]
    [ "$(row 41)" = "1 41 aux 0-1 0 virtio3-rx" ]
    [ "$(row 36)" = "- 36 other 0-1 0 virtio1-req.0" ]
}

bad_input() {
    local pattern=$1
    shift
    local before
    before=$(snapshot)
    run $MP --sysroot "$ROOT" "$@"
    expect_one_error_line 2 "^rfmrt-msix-plan: error: $pattern"
    [ "$(snapshot)" = "$before" ]
    [ ! -e "$ROOT/var" ]
}

@test "bad input is one clear line, exit 2, and changes nothing" {
    use_fixture node8-rfm
    bad_input "--device 0000:09:00.0: unknown PCI device" --device 0000:09:00.0 --isr-cpus 4 --apply
    bad_input "--device 0000:00:1f.3 has no MSI-X vectors \(legacy IRQ 16\)" --device 00:1f.3 --isr-cpus 4 --apply
    bad_input "--device 0000:00:1f.0: the device has no interrupt" --device 00:1f.0 --isr-cpus 4
    bad_input "--isr-cpus 8: cpu 8 out of range \(this node has cpus 0-7\)" --device 03:00.0 --isr-cpus 8 --apply
    bad_input "--isr-cpus: bad cpu list '4-'" --device 03:00.0 --isr-cpus 4- --apply
    bad_input "--housekeeping 0-4 overlaps --isr-cpus 4 \(cpu 4\)" --device 03:00.0 --isr-cpus 4 --housekeeping 0-4 --apply
    bad_input "--isr-vectors 5: 0000:03:00.0 has only 4 vectors" --device 03:00.0 --isr-cpus 4 --isr-vectors 5 --apply
    bad_input "--isr-vectors 0: expected a whole number >= 1" --device 03:00.0 --isr-cpus 4 --isr-vectors 0
    bad_input "which cpus run the ISR-wake threads\? --isr-cpus LIST" --device 03:00.0 --apply
    bad_input "which card\? --device BDF" --isr-cpus 4
    bad_input "--save goes with --apply" --device 03:00.0 --isr-cpus 4 --save x
}

@test "no housekeeping cpu left is refused" {
    use_fixture vm-virtio
    bad_input "no housekeeping cpus left \(online 0-1, isolated none, ISR 0-1\): give --housekeeping" --device 00:04.0 --isr-cpus 0-1
}
