#!/usr/bin/env bash
# capture-fixture.sh - copy the /proc and /sys files the rfmrt tuning scripts read into a fixture tree.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: capture-fixture.sh DEST

Copies, as plain files, the parts of /proc, /sys and /etc that rfmrt-irq-affinity, rfmrt-msix-plan
and rfmrt-isolate read, so that they can be run with --sysroot DEST:
  /proc/interrupts, /proc/irq/default_smp_affinity,
  /proc/irq/N/{smp_affinity,smp_affinity_list,effective_affinity,effective_affinity_list,
               affinity_hint,node} (not the empty action directories: git drops them),
  /sys/kernel/irq/N/{actions,chip_name,hwirq,type},
  /sys/bus/pci/devices/BDF/{vendor,device,subsystem_vendor,subsystem_device,class,irq,msi_irqs/N}
    for every PCI device with an interrupt,
  /sys/devices/system/cpu/{online,possible,present,offline,isolated,nohz_full},
  cpufreq policy governors, workqueue cpumasks, transparent_hugepage/enabled,
  /proc/sys/kernel/{sched_rt_runtime_us,timer_migration}, /etc/default/irqbalance (if present).
Not copied: /proc/cmdline and anything else that identifies the host beyond its interrupts.
DEST must not exist yet.
EOF
}

copy_file() {
    local src=$1 dest=$2
    [[ -r $src ]] || return 0
    mkdir -p "$dest$(dirname "$src")"
    # Kernel files report size 0: cat, never cp.
    cat "$src" >"$dest$src" 2>/dev/null || rm -f "$dest$src"
}

capture() {
    local dest=$1 d n f bdf
    copy_file /proc/interrupts "$dest"
    copy_file /proc/irq/default_smp_affinity "$dest"
    for d in /proc/irq/[0-9]*; do
        n=${d##*/}
        for f in smp_affinity smp_affinity_list effective_affinity effective_affinity_list affinity_hint node; do
            copy_file "$d/$f" "$dest"
        done
        for f in actions chip_name hwirq type; do
            copy_file "/sys/kernel/irq/$n/$f" "$dest"
        done
    done
    for d in /sys/bus/pci/devices/*; do
        bdf=${d##*/}
        read -r n <"$d/irq" || n=0
        [[ -d $d/msi_irqs || $n != 0 ]] || continue
        for f in vendor device subsystem_vendor subsystem_device class irq; do
            copy_file "/sys/bus/pci/devices/$bdf/$f" "$dest"
        done
        for f in "$d"/msi_irqs/*; do
            [[ -f $f ]] && copy_file "/sys/bus/pci/devices/$bdf/msi_irqs/${f##*/}" "$dest"
        done
    done
    for f in online possible present offline isolated nohz_full; do
        copy_file "/sys/devices/system/cpu/$f" "$dest"
    done
    for d in /sys/devices/system/cpu/cpufreq/policy*; do
        [[ -d $d ]] || continue
        for f in scaling_governor scaling_available_governors affected_cpus; do
            copy_file "$d/$f" "$dest"
        done
    done
    copy_file /sys/devices/virtual/workqueue/cpumask "$dest"
    copy_file /sys/bus/workqueue/devices/writeback/cpumask "$dest"
    copy_file /sys/kernel/mm/transparent_hugepage/enabled "$dest"
    copy_file /proc/sys/kernel/sched_rt_runtime_us "$dest"
    copy_file /proc/sys/kernel/timer_migration "$dest"
    copy_file /etc/default/irqbalance "$dest"
}

main() {
    case ${1:-} in
    -h | --help) usage; exit 0 ;;
    "") usage >&2; exit 2 ;;
    esac
    (($# == 1)) || { usage >&2; exit 2; }
    [[ ! -e $1 ]] || { echo "capture-fixture.sh: error: $1 exists already" >&2; exit 2; }
    mkdir -p "$1"
    capture "$1"
    echo "captured into $1"
}

main "$@"
