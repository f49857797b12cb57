#!/usr/bin/env bash
# capture.sh - copy the /proc, /sys and /etc files that rfmrt check reads into a fixture tree.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: capture.sh DEST

Copies, as plain files, what `rfmrt check --sysroot DEST` reads from a live machine:
  /sys/kernel/realtime, /proc/version, /proc/sys/kernel/{version,osrelease},
  /sys/devices/system/cpu/{online,possible,isolated,nohz_full},
  /sys/devices/system/cpu/cpuN/cpufreq/scaling_governor, cpufreq/policyN/{scaling_governor,affected_cpus},
  /proc/irq/N/{smp_affinity,smp_affinity_list,effective_affinity,effective_affinity_list},
  /sys/kernel/irq/N/actions, /sys/kernel/debug/irq/irqs/N (when debugfs is mounted), /proc/interrupts,
  /proc/PID/comm of irqbalance processes and of this script's shell,
  /etc/default/irqbalance, /etc/sysconfig/irqbalance,
  /sys/kernel/mm/transparent_hugepage/enabled, /proc/sys/kernel/{sched_rt_runtime_us,sched_rt_period_us},
  /proc/self/limits, /proc/swaps, clocksource0/{current,available}_clocksource.
Two files are filtered so that the tree does not identify the host beyond its kernel and devices:
  /proc/cmdline keeps only isolcpus=, nohz_full=, rcu_nocbs and irqaffinity= (may end up empty),
  /proc/self/status keeps only the Cap* lines.
Files that do not exist on the machine are left out. DEST must not exist yet.
USAGE
}

# Kernel files report size 0: cat, never cp.
copy_file() {
    local src=$1 dest=$2
    [[ -f $src && -r $src ]] || return 0
    mkdir -p "$dest$(dirname "$src")"
    cat "$src" >"$dest$src" 2>/dev/null || rm -f "$dest$src"
}

capture_cmdline() {
    local dest=$1 token kept=()
    [[ -r /proc/cmdline ]] || return 0
    for token in $(</proc/cmdline); do
        [[ $token == -- ]] && break
        case $token in
        isolcpus=* | nohz_full=* | rcu_nocbs | rcu_nocbs=* | irqaffinity=*) kept+=("$token") ;;
        esac
    done
    mkdir -p "$dest/proc"
    echo "${kept[*]}" >"$dest/proc/cmdline"
}

capture_processes() {
    local dest=$1 d pid comm
    for d in /proc/[0-9]*; do
        pid=${d##*/}
        comm=$(cat "$d/comm" 2>/dev/null) || continue
        if [[ $comm == irqbalance || $pid == "$$" ]]; then
            copy_file "$d/comm" "$dest"
        fi
    done
}

capture() {
    local dest=$1 d f n
    copy_file /sys/kernel/realtime "$dest"
    copy_file /proc/version "$dest"
    for f in version osrelease sched_rt_runtime_us sched_rt_period_us; do
        copy_file "/proc/sys/kernel/$f" "$dest"
    done
    for f in online possible isolated nohz_full; do
        copy_file "/sys/devices/system/cpu/$f" "$dest"
    done
    for d in /sys/devices/system/cpu/cpu[0-9]*; do
        copy_file "$d/cpufreq/scaling_governor" "$dest"
    done
    for d in /sys/devices/system/cpu/cpufreq/policy[0-9]*; do
        copy_file "$d/scaling_governor" "$dest"
        copy_file "$d/affected_cpus" "$dest"
    done
    capture_cmdline "$dest"
    copy_file /proc/interrupts "$dest"
    for d in /proc/irq/[0-9]*; do
        n=${d##*/}
        for f in smp_affinity smp_affinity_list effective_affinity effective_affinity_list; do
            copy_file "$d/$f" "$dest"
        done
        copy_file "/sys/kernel/irq/$n/actions" "$dest"
        copy_file "/sys/kernel/debug/irq/irqs/$n" "$dest"
    done
    capture_processes "$dest"
    copy_file /etc/default/irqbalance "$dest"
    copy_file /etc/sysconfig/irqbalance "$dest"
    copy_file /sys/kernel/mm/transparent_hugepage/enabled "$dest"
    copy_file /proc/self/limits "$dest"
    if [[ -r /proc/self/status ]]; then
        grep '^Cap' /proc/self/status >"$dest/proc/self/status" || true
    fi
    copy_file /proc/swaps "$dest"
    copy_file /sys/devices/system/clocksource/clocksource0/current_clocksource "$dest"
    copy_file /sys/devices/system/clocksource/clocksource0/available_clocksource "$dest"
}

main() {
    case ${1:-} in
    -h | --help) usage; exit 0 ;;
    "") usage >&2; exit 2 ;;
    esac
    (($# == 1)) || { usage >&2; exit 2; }
    [[ ! -e $1 ]] || { echo "capture.sh: error: $1 exists already" >&2; exit 2; }
    mkdir -p "$1"
    capture "$1"
    echo "captured into $1"
}

main "$@"
