# shellcheck shell=bash
# shellcheck disable=SC2034  # globals here are read by the scripts that source this file
# rfmrt-tuning.sh - shared code of the rfmrt tuning scripts (tuning/bin/rfmrt-*).
#
# Sourced, never run. Provides: messages and exit codes, --sysroot handling, cpu list and cpu mask
# arithmetic, IRQ discovery (/proc/irq, /proc/interrupts, /sys/kernel/irq, PCI msi_irqs), managed-IRQ
# detection, and the change engine every script uses: plan a list of changes, print them (--dry-run),
# or save the previous values to a restore file, apply, and report what the kernel refused.
#
# Functions that compute a value return it in REPLY (or a named global) instead of printing it, so
# the loops over hundreds of IRQs run without forking a subshell per value.

# Exit codes, the same for every rfmrt tuning script (documented in docs/tuning.md and --help).
readonly EXIT_OK=0       # everything asked for is in place (or would be, with --dry-run)
readonly EXIT_FAIL=1     # unexpected failure (a bug, or a command that should not fail)
readonly EXIT_USAGE=2    # bad option or bad input (cpu list, BDF, regex, ...); nothing was changed
readonly EXIT_ENV=3      # cannot proceed here (missing /proc or /sys files, not writable, bad restore file);
                         # nothing was changed
readonly EXIT_PARTIAL=4  # partially applied: some writes were refused (managed IRQs, ...), the rest applied
                         # and recorded in the restore file

PROG=${PROG:-${0##*/}}
SYSROOT=""          # prefix for /proc, /sys, /etc and /var/lib paths; "" means the running system
DRY_RUN=0
SAVE_FILE=""

# ---------------------------------------------------------------------------------------------------
# Messages

die() {
    local code=$1
    shift
    printf '%s: error: %s\n' "$PROG" "$*" >&2
    exit "$code"
}

# Bad option or bad input: one line naming the problem, exit 2.
usage_error() {
    die "$EXIT_USAGE" "$*"
}

warn() {
    printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

# Options that take a value: fail with a clear line when the value is missing.
need_value() {
    local opt=$1 count=$2
    ((count >= 2)) || usage_error "$opt needs a value (see $PROG --help)"
}

# ---------------------------------------------------------------------------------------------------
# Sysroot

set_sysroot() {
    local dir=$1
    [[ -d $dir ]] || usage_error "--sysroot $dir: no such directory"
    dir=$(cd "$dir" && pwd -P)
    [[ $dir == / ]] && dir=""
    SYSROOT=$dir
}

# The sysroot as written in restore files: "/" for the running system.
sysroot_label() {
    REPLY=${SYSROOT:-/}
}

# Read the first line of a file into REPLY; return 1 when the file cannot be read.
read_line() {
    REPLY=""
    [[ -r $1 ]] || return 1
    IFS= read -r REPLY <"$1" || [[ -n $REPLY ]] || true
    return 0
}

# Write a value to a kernel (or fixture) file. Returns 1 with WRITE_ERROR set to the error text
# ("Operation not permitted", "Input/output error", ...) when the open or the write fails.
WRITE_ERROR=""
write_value() {
    local path=$1 value=$2 err
    if err=$({ printf '%s\n' "$value" >"$path"; } 2>&1); then
        WRITE_ERROR=""
        return 0
    fi
    WRITE_ERROR=${err##*: }
    [[ -n $WRITE_ERROR ]] || WRITE_ERROR="write failed"
    return 1
}

# The kernel refuses affinity changes of managed (and otherwise unmovable) IRQs with EIO (kernels
# before 6.x) or EPERM (since the "return -EPERM" change in kernel/irq/proc.c).
is_refusal() {
    [[ $1 == "Input/output error" || $1 == "Operation not permitted" ]]
}

# ---------------------------------------------------------------------------------------------------
# CPU lists ("0-3,6") and masks ("0f", "00000000,000000ff")

CPULIST_ERROR=""
CPUS=()   # result of cpulist_expand: sorted, unique cpu numbers

# Expand a cpu list into CPUS. Returns 1 with CPULIST_ERROR on bad syntax. The same rule as the
# Java CpuSet (both test suites read test/fixtures/cpu-lists.txt): numbers 0-65535 and ranges
# like 0-3,6; an empty list and "(null)" (how the kernel prints a cpumask it never allocated, e.g.
# nohz_full without nohz_full= at boot) are the empty set. Callers that need at least one cpu check
# with cpulist_nonempty.
cpulist_expand() {
    local list=$1 part lo hi c
    local -a bits=() parts=()
    CPUS=()
    CPULIST_ERROR=""
    if [[ -z $list || $list == "(null)" ]]; then
        return 0
    fi
    if ! [[ $list =~ ^[0-9]{1,5}(-[0-9]{1,5})?(,[0-9]{1,5}(-[0-9]{1,5})?)*$ ]]; then
        CPULIST_ERROR="bad cpu list '$list' (expected numbers and ranges like 0-3,6)"
        return 1
    fi
    IFS=, read -ra parts <<<"$list"
    for part in "${parts[@]}"; do
        lo=$((10#${part%-*}))
        hi=$((10#${part#*-}))
        if ((hi > 65535)); then
            CPULIST_ERROR="bad cpu list '$list': cpu $hi (cpus are 0-65535)"
            return 1
        fi
        if ((lo > hi)); then
            CPULIST_ERROR="bad cpu list '$list': range $part runs backwards"
            return 1
        fi
        for ((c = lo; c <= hi; c++)); do
            bits[c]=1
        done
    done
    CPUS=("${!bits[@]}")
}

# Canonical form of the cpu numbers given as arguments (sorted or not): "0-3,6". REPLY.
cpulist_format() {
    local -a bits=()
    local c out="" start=-1 prev=-2
    for c in "$@"; do
        bits[c]=1
    done
    for c in "${!bits[@]}"; do
        if ((c != prev + 1)); then
            if ((start >= 0)); then
                if ((start == prev)); then out+=",$start"; else out+=",$start-$prev"; fi
            fi
            start=$c
        fi
        prev=$c
    done
    if ((start >= 0)); then
        if ((start == prev)); then out+=",$start"; else out+=",$start-$prev"; fi
    fi
    REPLY=${out#,}
}

# Expand a list that must name at least one cpu (or IRQ) into CPUS. Returns 1 with CPULIST_ERROR
# on bad syntax or an empty list.
cpulist_nonempty() {
    cpulist_expand "$1" || return 1
    if ((${#CPUS[@]} == 0)); then
        CPULIST_ERROR="empty cpu list"
        return 1
    fi
}

# Canonical form of a list (which must be valid). REPLY.
cpulist_norm() {
    cpulist_expand "$1" || return 1
    cpulist_format "${CPUS[@]}"
}

# Set operations on cpu lists; the result (canonical, possibly empty) in REPLY.
cpulist_minus() {
    local -a a=() b=()
    local c
    [[ -n $1 ]] && cpulist_expand "$1" && a=("${CPUS[@]}")
    [[ -n $2 ]] && cpulist_expand "$2" && b=("${CPUS[@]}")
    local -A drop=()
    for c in "${b[@]}"; do drop[$c]=1; done
    local -a keep=()
    for c in "${a[@]}"; do [[ -n ${drop[$c]:-} ]] || keep+=("$c"); done
    cpulist_format "${keep[@]}"
}

cpulist_and() {
    local -a a=() b=()
    local c
    [[ -n $1 ]] && cpulist_expand "$1" && a=("${CPUS[@]}")
    [[ -n $2 ]] && cpulist_expand "$2" && b=("${CPUS[@]}")
    local -A in_b=()
    for c in "${b[@]}"; do in_b[$c]=1; done
    local -a both=()
    for c in "${a[@]}"; do [[ -n ${in_b[$c]:-} ]] && both+=("$c"); done
    cpulist_format "${both[@]}"
}

# Hex cpu mask (as /proc/irq/default_smp_affinity and workqueue cpumask print it) -> list. REPLY.
# Returns 1 when the text is not a mask.
mask_to_list() {
    local mask=${1//,/} i digit bit
    local -a found=()
    [[ $mask =~ ^[0-9a-fA-F]+$ ]] || return 1
    local n=${#mask}
    for ((i = 0; i < n; i++)); do
        digit=$((16#${mask:n-1-i:1}))
        for ((bit = 0; bit < 4; bit++)); do
            ((digit & (1 << bit))) && found+=($((i * 4 + bit)))
        done
    done
    cpulist_format "${found[@]}"
}

# Cpu list -> hex mask in the kernel's format: 32-bit groups separated by commas, padded to the
# number of possible cpus (nr_cpu_ids), e.g. 8 cpus: "0f", 64 cpus: "00000000,0000000f". REPLY.
list_to_mask() {
    local list=$1 ncpus=${2:-0} c g ngroups digits out="" width hex
    local -a groups=()
    cpulist_expand "$list" || return 1
    for c in "${CPUS[@]}"; do
        g=$((c / 32))
        groups[g]=$((${groups[g]:-0} | (1 << (c % 32))))
        ((c + 1 > ncpus)) && ncpus=$((c + 1))
    done
    digits=$(((ncpus + 3) / 4))
    ngroups=$(((digits + 7) / 8))
    for ((g = ngroups - 1; g >= 0; g--)); do
        if ((g == ngroups - 1)); then
            width=$((digits - (ngroups - 1) * 8))
        else
            width=8
        fi
        printf -v hex '%0*x' "$width" "${groups[g]:-0}"
        out+=",$hex"
    done
    REPLY=${out#,}
}

# Online and possible cpus of the node. Sets ONLINE_CPUS / POSSIBLE_CPUS / NR_CPU_IDS.
ONLINE_CPUS=""
POSSIBLE_CPUS=""
NR_CPU_IDS=0
load_cpus() {
    local f=$SYSROOT/sys/devices/system/cpu/online
    read_line "$f" || die "$EXIT_ENV" "cannot read ${f#"$SYSROOT"}: is this Linux with /sys mounted?"
    cpulist_nonempty "$REPLY" || die "$EXIT_ENV" "${f#"$SYSROOT"}: $CPULIST_ERROR"
    cpulist_format "${CPUS[@]}"
    ONLINE_CPUS=$REPLY
    if read_line "$SYSROOT/sys/devices/system/cpu/possible" && cpulist_nonempty "$REPLY" &&
        cpulist_format "${CPUS[@]}"; then
        POSSIBLE_CPUS=$REPLY
    else
        POSSIBLE_CPUS=$ONLINE_CPUS
    fi
    cpulist_expand "$POSSIBLE_CPUS"
    NR_CPU_IDS=$((CPUS[${#CPUS[@]} - 1] + 1))
}

# Isolated cpus as the kernel reports them (isolcpus=); "" when none. REPLY.
isolated_cpus() {
    REPLY=""
    read_line "$SYSROOT/sys/devices/system/cpu/isolated" || return 0
    [[ -n $REPLY ]] && cpulist_norm "$REPLY"
    return 0
}

# Validate a user-given cpu list for option $2: syntax, range, online. Canonical list in REPLY.
validate_cpus() {
    local list=$1 opt=$2 c
    cpulist_nonempty "$list" || usage_error "$opt: $CPULIST_ERROR"
    local -a given=("${CPUS[@]}")
    cpulist_expand "$POSSIBLE_CPUS"
    local -A possible=()
    for c in "${CPUS[@]}"; do possible[$c]=1; done
    cpulist_expand "$ONLINE_CPUS"
    local -A online=()
    for c in "${CPUS[@]}"; do online[$c]=1; done
    for c in "${given[@]}"; do
        [[ -n ${possible[$c]:-} ]] ||
            usage_error "$opt $list: cpu $c out of range (this node has cpus $POSSIBLE_CPUS)"
        [[ -n ${online[$c]:-} ]] ||
            usage_error "$opt $list: cpu $c is offline (online cpus: $ONLINE_CPUS)"
    done
    cpulist_format "${given[@]}"
}

# ---------------------------------------------------------------------------------------------------
# IRQs

IRQS=()                  # every IRQ with a /proc/irq/N directory, ascending
declare -A IRQ_COUNTS=() # IRQ -> "cpu:count,cpu:count" from /proc/interrupts
declare -A IRQ_TOTAL=()  # IRQ -> sum of its counts
declare -A IRQ_DESC=()   # IRQ -> the rest of its /proc/interrupts line (chip, hwirq, names)
INTR_CPUS=()             # cpu numbers of the /proc/interrupts columns

load_irqs() {
    local d n
    local -a nums=()
    [[ -d $SYSROOT/proc/irq ]] || die "$EXIT_ENV" "no /proc/irq${SYSROOT:+ under $SYSROOT}"
    for d in "$SYSROOT"/proc/irq/[0-9]*; do
        n=${d##*/}
        [[ $n =~ ^[0-9]+$ ]] && nums[n]=1
    done
    IRQS=("${!nums[@]}")
    load_interrupts
}

load_interrupts() {
    local f=$SYSROOT/proc/interrupts line irq i ncpu counts total
    local -a tok=()
    INTR_CPUS=()
    [[ -r $f ]] || return 0
    {
        IFS= read -r line || return 0
        read -ra tok <<<"$line"
        for i in "${tok[@]}"; do
            [[ $i =~ ^CPU([0-9]+)$ ]] && INTR_CPUS+=("${BASH_REMATCH[1]}")
        done
        ncpu=${#INTR_CPUS[@]}
        while IFS= read -r line; do
            read -ra tok <<<"$line"
            irq=${tok[0]%:}
            [[ $irq =~ ^[0-9]+$ ]] || continue
            counts=""
            total=0
            for ((i = 0; i < ncpu; i++)); do
                counts+=",${INTR_CPUS[i]}:${tok[i + 1]:-0}"
                total=$((total + ${tok[i + 1]:-0}))
            done
            IRQ_COUNTS[$irq]=${counts#,}
            IRQ_TOTAL[$irq]=$total
            IRQ_DESC[$irq]=${tok[*]:ncpu+1}
        done
    } <"$f"
}

# Name(s) of the handlers of an IRQ: /sys/kernel/irq/N/actions, else the action directories in
# /proc/irq/N/, else the last word of its /proc/interrupts line; "-" when it has none. REPLY.
irq_name() {
    local irq=$1 d names=""
    if read_line "$SYSROOT/sys/kernel/irq/$irq/actions" && [[ -n $REPLY ]]; then
        return 0
    fi
    for d in "$SYSROOT/proc/irq/$irq"/*/; do
        [[ -d $d ]] || continue
        d=${d%/}
        names+=",${d##*/}"
    done
    if [[ -n $names ]]; then
        REPLY=${names#,}
        return 0
    fi
    if [[ -n ${IRQ_DESC[$irq]:-} ]]; then
        REPLY=${IRQ_DESC[$irq]##* }
        return 0
    fi
    REPLY="-"
}

irq_exists() {
    [[ -d $SYSROOT/proc/irq/$1 ]]
}

irq_affinity_file() {
    REPLY=$SYSROOT/proc/irq/$1/smp_affinity_list
}

# Current affinity of an IRQ (canonical list). Returns 1 when it has no smp_affinity_list.
irq_affinity() {
    read_line "$SYSROOT/proc/irq/$1/smp_affinity_list" || return 1
    cpulist_nonempty "$REPLY" || return 1
    cpulist_format "${CPUS[@]}"
}

# Managed state from debugfs (CONFIG_GENERIC_IRQ_DEBUGFS, /sys/kernel/debug mounted):
# REPLY=yes (IRQD_AFFINITY_MANAGED), fixed (per-cpu / no-balancing), no, or "?" without debugfs.
irq_managed_debugfs() {
    local f=$SYSROOT/sys/kernel/debug/irq/irqs/$1 text=""
    if [[ -r $f ]]; then
        IFS= read -r -d '' text <"$f" || true
        case $text in
        *IRQD_AFFINITY_MANAGED*) REPLY=yes ;;
        *IRQD_PER_CPU* | *_IRQ_NO_BALANCING* | *_IRQ_PER_CPU*) REPLY=fixed ;;
        *) REPLY=no ;;
        esac
    else
        REPLY="?"
    fi
}

# PCI devices. A BDF is DDDD:BB:DD.F (the domain may be left out: 00:1f.3 means 0000:00:1f.3).
normalize_bdf() {
    local bdf=${1,,}
    [[ $bdf =~ ^[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$ ]] && bdf=0000:$bdf
    [[ $bdf =~ ^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$ ]] ||
        usage_error "--device $1: not a PCI address (expected DDDD:BB:DD.F, e.g. 0000:03:00.0)"
    [[ -d $SYSROOT/sys/bus/pci/devices/$bdf ]] ||
        usage_error "--device $1: unknown PCI device (no /sys/bus/pci/devices/$bdf)"
    REPLY=$bdf
}

# Interrupts of a PCI device: every MSI/MSI-X vector in msi_irqs, else its legacy (INTx) irq.
# Sets DEV_IRQS (ascending by vector index where the kernel tells it) and DEV_IRQ_KIND
# (msix | msi | legacy). Fails with a usage error when the device has no interrupt at all.
DEV_IRQS=()
DEV_IRQ_KIND=""
device_irqs() {
    local bdf=$1 dir=$SYSROOT/sys/bus/pci/devices/$1 f n idx
    local -a byidx=() byirq=()
    DEV_IRQS=()
    DEV_IRQ_KIND=""
    if [[ -d $dir/msi_irqs ]]; then
        for f in "$dir"/msi_irqs/[0-9]*; do
            [[ -e $f ]] || continue
            n=${f##*/}
            [[ $n =~ ^[0-9]+$ ]] || continue
            read_line "$f" || REPLY=msi
            DEV_IRQ_KIND=$REPLY
            byirq[n]=1
        done
    fi
    if ((${#byirq[@]} > 0)); then
        # Order by the vector index: /sys/kernel/irq/N/hwirq is the MSI-X table index on current
        # kernels and grows with it on older ones; fall back to IRQ number order.
        for n in "${!byirq[@]}"; do
            if read_line "$SYSROOT/sys/kernel/irq/$n/hwirq" && [[ $REPLY =~ ^[0-9]+$ ]] &&
                [[ -z ${byidx[REPLY]:-} ]]; then
                byidx[REPLY]=$n
            else
                byidx=()
                break
            fi
        done
        if ((${#byidx[@]} == ${#byirq[@]})); then
            for idx in "${!byidx[@]}"; do DEV_IRQS+=("${byidx[idx]}"); done
        else
            DEV_IRQS=("${!byirq[@]}")
        fi
        return 0
    fi
    if read_line "$dir/irq" && [[ $REPLY =~ ^[0-9]+$ ]] && ((REPLY > 0)); then
        DEV_IRQS=("$REPLY")
        DEV_IRQ_KIND=legacy
        return 0
    fi
    usage_error "--device $bdf: the device has no interrupt (no msi_irqs, legacy irq 0)"
}

# IRQs whose handler name matches an extended regex. Sets MATCHED_IRQS.
MATCHED_IRQS=()
match_irqs() {
    local regex=$1 irq
    validate_regex "$regex" --match
    MATCHED_IRQS=()
    for irq in "${IRQS[@]}"; do
        irq_name "$irq"
        [[ $REPLY != "-" && $REPLY =~ $regex ]] && MATCHED_IRQS+=("$irq")
    done
    return 0
}

# Validate a regex given for option $2 (bash =~ returns 2 on a malformed pattern).
validate_regex() {
    local rc=0
    # shellcheck disable=SC2319  # $? is the status of [[ =~ ]]: 1 no match, 2 bad regex
    [[ "" =~ $1 ]] || rc=$?
    ((rc != 2)) || usage_error "$2 '$1': not a valid extended regular expression"
}

# ---------------------------------------------------------------------------------------------------
# The change engine
#
# A change is one value to put somewhere. Kinds:
#   irq  TARGET=IRQ number        value = cpu list for /proc/irq/N/smp_affinity_list
#   mask TARGET=path              value = cpu list, written as a hex mask (default_smp_affinity, ...)
#   file TARGET=path              value = a word written as it is (sysctls, THP, governor)
#   conf TARGET=path KEY          value = "set VALUE" or "unset": a KEY=VALUE line of a config file
# Paths are those of the running system (/proc/..., /sys/..., /etc/...); SYSROOT is prefixed on use.
# Status: pending (to write), already (nothing to do), skip:<reason> (cannot, not counted as change),
# refused:<reason> (known in advance to fail, e.g. managed IRQ: counts as not applied).

CH_KIND=()
CH_TARGET=()
CH_KEY=()
CH_OLD=()
CH_NEW=()
CH_LABEL=()
CH_STATUS=()
CH_SERVICE=()   # service to restart after the change was applied (only on the running system)

# add_change KIND TARGET KEY OLD NEW LABEL STATUS [SERVICE]
add_change() {
    CH_KIND+=("$1")
    CH_TARGET+=("$2")
    CH_KEY+=("$3")
    CH_OLD+=("$4")
    CH_NEW+=("$5")
    CH_LABEL+=("$6")
    CH_STATUS+=("$7")
    CH_SERVICE+=("${8:-}")
}

# The file a change writes (with SYSROOT). REPLY.
change_path() {
    local i=$1
    case ${CH_KIND[i]} in
    irq) REPLY=$SYSROOT/proc/irq/${CH_TARGET[i]}/smp_affinity_list ;;
    *) REPLY=$SYSROOT${CH_TARGET[i]} ;;
    esac
}

# Config files: KEY=VALUE lines, shell style. REPLY = value; returns 1 when the key is not set
# (absent or commented out).
conf_get() {
    local path=$1 key=$2 line value
    REPLY=""
    [[ -r $path ]] || return 1
    while IFS= read -r line || [[ -n $line ]]; do
        if [[ $line =~ ^[[:space:]]*(export[[:space:]]+)?${key}=(.*)$ ]]; then
            value=${BASH_REMATCH[2]}
            value=${value%%[[:space:]]#*}
            value=${value%"${value##*[![:space:]]}"}
            [[ $value =~ ^\"(.*)\"$ || $value =~ ^\'(.*)\'$ ]] && value=${BASH_REMATCH[1]}
            REPLY=$value
            return 0
        fi
    done <"$path"
    return 1
}

# Set (VALUE given) or unset (no VALUE) KEY in a config file, keeping every other line.
conf_put() {
    local path=$1 key=$2 line done=0 out=""
    local have_value=0 value=""
    if (($# >= 3)); then
        have_value=1
        value=$3
    fi
    # Unsetting a key of a file that does not exist: nothing to do.
    ((have_value)) || [[ -e $path ]] || return 0
    if [[ -e $path ]]; then
        while IFS= read -r line || [[ -n $line ]]; do
            if [[ $line =~ ^[[:space:]]*(export[[:space:]]+)?${key}= ]]; then
                if ((have_value && !done)); then
                    out+="$key=\"$value\""$'\n'
                    done=1
                fi
                continue
            fi
            out+=$line$'\n'
        done <"$path"
    fi
    if ((have_value && !done)); then
        out+="$key=\"$value\""$'\n'
    fi
    if err=$({ printf '%s' "$out" >"$path"; } 2>&1); then
        return 0
    fi
    WRITE_ERROR=${err##*: }
    return 1
}

# Does the file now hold the new value? (The kernel may print a list or mask differently from how
# it was written, so lists and masks are compared as cpu sets.)
change_verify() {
    local i=$1
    local want=${CH_NEW[i]}
    change_path "$i"
    local path=$REPLY
    case ${CH_KIND[i]} in
    irq)
        read_line "$path" && cpulist_norm "$REPLY" && [[ $REPLY == "$want" ]]
        ;;
    mask)
        read_line "$path" && mask_to_list "$REPLY" && [[ $REPLY == "$want" ]]
        ;;
    file)
        read_line "$path" || return 1
        [[ $REPLY == "$want" || $REPLY == *"[$want]"* ]]
        ;;
    conf)
        if [[ $want == unset ]]; then
            ! conf_get "$path" "${CH_KEY[i]}"
        else
            conf_get "$path" "${CH_KEY[i]}" && [[ "set $REPLY" == "$want" ]]
        fi
        ;;
    esac
}

# Perform one change. Returns 1 with WRITE_ERROR on failure.
change_write() {
    local i=$1
    local value=${CH_NEW[i]}
    change_path "$i"
    local path=$REPLY
    case ${CH_KIND[i]} in
    irq | file) write_value "$path" "$value" || return 1 ;;
    mask)
        if ! list_to_mask "$value" "$NR_CPU_IDS"; then
            WRITE_ERROR="bad cpu list '$value'"
            return 1
        fi
        write_value "$path" "$REPLY" || return 1
        ;;
    conf)
        if [[ $value == unset ]]; then
            conf_put "$path" "${CH_KEY[i]}" || return 1
        else
            conf_put "$path" "${CH_KEY[i]}" "${value#set }" || return 1
        fi
        ;;
    esac
    if ! change_verify "$i"; then
        read_line "$path" || REPLY="?"
        WRITE_ERROR="kernel kept '$REPLY'"
        return 1
    fi
}

show_value() {
    local kind=$1 value=$2
    case $kind in
    conf) if [[ $value == unset ]]; then REPLY="(unset)"; else REPLY=${value#set }; fi ;;
    *) REPLY=${value:-(empty)} ;;
    esac
}

# One report line for change i with status text $2.
report_change() {
    local i=$1 text=$2 old new
    show_value "${CH_KIND[i]}" "${CH_OLD[i]}"
    old=$REPLY
    show_value "${CH_KIND[i]}" "${CH_NEW[i]}"
    new=$REPLY
    if [[ ${CH_STATUS[i]} == already ]]; then
        printf '  %-44s %s (already)\n' "${CH_LABEL[i]}" "$new"
    else
        printf '  %-44s %s -> %s  %s\n' "${CH_LABEL[i]}" "$old" "$new" "$text"
    fi
}

# Before changing anything, when not root: every file to write must be writable, else stop with
# EXIT_ENV. (Root may write every kernel file; what the kernel refuses shows up as a failed write.)
check_writable() {
    local i
    ((EUID != 0)) || return 0
    for i in "${!CH_KIND[@]}"; do
        [[ ${CH_STATUS[i]} == pending ]] || continue
        change_path "$i"
        if [[ ${CH_KIND[i]} == conf && ! -e $REPLY ]]; then
            [[ -w ${REPLY%/*} ]] && continue
        elif [[ -w $REPLY ]]; then
            continue
        fi
        die "$EXIT_ENV" "cannot write ${REPLY#"$SYSROOT"}: permission denied (run as root, or use --dry-run); nothing changed"
    done
}

# Restore files ------------------------------------------------------------------------------------
#
# Text, one change per line, tab-separated, written before anything is changed and rewritten at the
# end with only the changes that were applied:
#   # rfmrt restore file v1 / # tool: / # created: / # sysroot: / # command:
#   irq<TAB>41<TAB>0-1
#   mask<TAB>/proc/irq/default_smp_affinity<TAB>0-7
#   file<TAB>/proc/sys/kernel/timer_migration<TAB>1
#   conf<TAB>/etc/default/irqbalance<TAB>IRQBALANCE_BANNED_CPULIST<TAB>unset
#   service<TAB>irqbalance
# Restoring writes the saved values back, last change first.

RESTORE_PATH=""
RESTORE_HEADER=""

default_restore_path() {
    local tool=$1 dir=$SYSROOT/var/lib/rfmrt stamp
    printf -v stamp '%(%Y%m%dT%H%M%S)T' -1
    if ! { mkdir -p "$dir" 2>/dev/null && [[ -w $dir && -d $dir ]]; }; then
        dir=${TMPDIR:-/tmp}
    fi
    REPLY=$dir/$tool-$stamp-$$.restore
}

# Entries of the changes with the given status, in the restore format, one per line. REPLY.
restore_entries() {
    local want=$1 i out=""
    for i in "${!CH_KIND[@]}"; do
        [[ ${CH_STATUS[i]} == "$want" ]] || continue
        case ${CH_KIND[i]} in
        conf) out+="conf"$'\t'"${CH_TARGET[i]}"$'\t'"${CH_KEY[i]}"$'\t'"${CH_OLD[i]}"$'\n' ;;
        *) out+="${CH_KIND[i]}"$'\t'"${CH_TARGET[i]}"$'\t'"${CH_OLD[i]}"$'\n' ;;
        esac
        [[ -n ${CH_SERVICE[i]} ]] && out+="service"$'\t'"${CH_SERVICE[i]}"$'\n'
    done
    REPLY=$out
}

restore_write() {
    local status=$1
    restore_entries "$status"
    local body=$REPLY err
    if ! err=$({ printf '%s%s' "$RESTORE_HEADER" "$body" >"$RESTORE_PATH.tmp" &&
        mv -f "$RESTORE_PATH.tmp" "$RESTORE_PATH"; } 2>&1); then
        rm -f "$RESTORE_PATH.tmp" 2>/dev/null || true
        return 1
    fi
}

restore_begin() {
    local tool=$1 command=$2 created label
    if [[ -n $SAVE_FILE ]]; then
        RESTORE_PATH=$SAVE_FILE
    else
        default_restore_path "$tool"
        RESTORE_PATH=$REPLY
    fi
    printf -v created '%(%Y-%m-%dT%H:%M:%S%z)T' -1
    sysroot_label
    label=$REPLY
    RESTORE_HEADER="# rfmrt restore file v1"$'\n'"# tool: $tool"$'\n'"# created: $created"$'\n'
    RESTORE_HEADER+="# sysroot: $label"$'\n'"# command: $command"$'\n'
    restore_write pending ||
        die "$EXIT_ENV" "cannot write the restore file $RESTORE_PATH; nothing changed"
}

# Apply the planned changes (or show them with --dry-run). Prints one line per change and a summary;
# returns the exit code: EXIT_OK, or EXIT_PARTIAL when some change was refused.
APPLIED=0
FAILED=0
apply_changes() {
    local tool=$1 command=$2 i pending=0 refused=0 already=0 skipped=0
    for i in "${!CH_KIND[@]}"; do
        case ${CH_STATUS[i]} in
        pending) pending=$((pending + 1)) ;;
        already) already=$((already + 1)) ;;
        refused:*) refused=$((refused + 1)) ;;
        skip:*) skipped=$((skipped + 1)) ;;
        esac
    done
    APPLIED=0
    FAILED=$refused
    if ((DRY_RUN)); then
        for i in "${!CH_KIND[@]}"; do
            case ${CH_STATUS[i]} in
            pending) report_change "$i" "would change" ;;
            refused:*) report_change "$i" "would be refused: ${CH_STATUS[i]#refused:}" ;;
            skip:*) printf '  %-44s skipped: %s\n' "${CH_LABEL[i]}" "${CH_STATUS[i]#skip:}" ;;
            *) report_change "$i" "" ;;
            esac
        done
        printf 'dry run: %d to change, %d already set, %d refused, %d skipped; nothing written\n' \
            "$pending" "$already" "$refused" "$skipped"
        return "$EXIT_OK"
    fi
    if ((pending > 0)); then
        check_writable
        restore_begin "$tool" "$command"
    fi
    local -A restarted=()
    for i in "${!CH_KIND[@]}"; do
        case ${CH_STATUS[i]} in
        pending)
            if change_write "$i"; then
                CH_STATUS[i]=applied
                APPLIED=$((APPLIED + 1))
                report_change "$i" "applied"
                if [[ -n ${CH_SERVICE[i]} && -z ${restarted[${CH_SERVICE[i]}]:-} ]]; then
                    restarted[${CH_SERVICE[i]}]=1
                    restart_service "${CH_SERVICE[i]}"
                fi
            else
                if is_refusal "$WRITE_ERROR" && [[ ${CH_KIND[i]} == irq ]]; then
                    CH_STATUS[i]="refused:kernel refused ($WRITE_ERROR): managed or unmovable IRQ"
                else
                    CH_STATUS[i]="refused:write failed ($WRITE_ERROR)"
                fi
                FAILED=$((FAILED + 1))
                report_change "$i" "FAILED: ${CH_STATUS[i]#refused:}"
            fi
            ;;
        refused:*) report_change "$i" "NOT APPLIED: ${CH_STATUS[i]#refused:}" ;;
        skip:*) printf '  %-44s skipped: %s\n' "${CH_LABEL[i]}" "${CH_STATUS[i]#skip:}" ;;
        *) report_change "$i" "" ;;
        esac
    done
    if ((pending > 0)); then
        restore_write applied || warn "could not rewrite the restore file $RESTORE_PATH (it lists every planned change)"
    fi
    printf '%d applied, %d already set, %d not applied, %d skipped\n' "$APPLIED" "$already" "$FAILED" "$skipped"
    if ((pending > 0)); then
        printf 'restore file: %s\n' "$RESTORE_PATH"
        printf 'undo with: %s --restore %s%s\n' "$tool" "$RESTORE_PATH" "${SYSROOT:+ --sysroot $SYSROOT}"
    fi
    if ((FAILED > 0)); then
        warn "$FAILED change(s) not applied (see FAILED / NOT APPLIED above); exit status $EXIT_PARTIAL"
        return "$EXIT_PARTIAL"
    fi
    return "$EXIT_OK"
}

# The command line as text for the restore file header. REPLY.
command_text() {
    local arg out=""
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./:,=@%+^-]+$ ]]; then
            out+=" $arg"
        else
            printf -v arg '%q' "$arg"
            out+=" $arg"
        fi
    done
    REPLY=${out# }
}

# Restart a service where it runs. Never under --sysroot: a fixture tree is not the running system.
restart_service() {
    local svc=$1
    if [[ -n $SYSROOT ]]; then
        printf '  %-44s skipped under --sysroot (not the running system)\n' "restart $svc"
        return 0
    fi
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$svc" 2>/dev/null; then
        if systemctl restart "$svc"; then
            printf '  %-44s done\n' "restart $svc"
        else
            warn "systemctl restart $svc failed"
        fi
    else
        printf '  %-44s not running, nothing to restart\n' "restart $svc"
    fi
}

# Read a restore file into the change list (new value = the saved one). Validates every line before
# anything is written; a bad file stops with EXIT_ENV.
load_restore_file() {
    local file=$1 line lineno=0 kind a b c saved_root="" label
    local -a f=()
    [[ -f $file && -r $file ]] || die "$EXIT_ENV" "cannot read restore file $file"
    read_line "$file"
    [[ $REPLY == "# rfmrt restore file v1" ]] || die "$EXIT_ENV" "$file is not an rfmrt restore file"
    while IFS= read -r line || [[ -n $line ]]; do
        lineno=$((lineno + 1))
        if [[ $line == "# sysroot: "* ]]; then
            saved_root=${line#"# sysroot: "}
            continue
        fi
        [[ -z $line || $line == \#* ]] && continue
        IFS=$'\t' read -ra f <<<"$line"
        kind=${f[0]}
        a=${f[1]:-}
        b=${f[2]:-}
        c=${f[3]:-}
        case $kind in
        irq)
            if ! [[ $a =~ ^[0-9]+$ ]] || ! cpulist_nonempty "$b" || ! cpulist_norm "$b"; then
                die "$EXIT_ENV" "$file line $lineno: bad irq entry '$line'"
            fi
            irq_exists "$a" || die "$EXIT_ENV" "$file line $lineno: IRQ $a does not exist (any more)"
            local cur="?"
            irq_affinity "$a" && cur=$REPLY
            irq_name "$a"
            add_change irq "$a" "" "$cur" "$b" "IRQ $a $REPLY" pending
            ;;
        mask | file)
            restore_path_ok "$a" || die "$EXIT_ENV" "$file line $lineno: refusing path '$a'"
            if [[ $kind == mask ]] && ! { cpulist_nonempty "$b" && cpulist_norm "$b"; }; then
                die "$EXIT_ENV" "$file line $lineno: bad cpu list '$b'"
            fi
            read_line "$SYSROOT$a" || die "$EXIT_ENV" "$file line $lineno: cannot read $a"
            local now=$REPLY
            if [[ $kind == mask ]]; then mask_to_list "$now" || true; now=$REPLY; fi
            [[ $kind == file && $now =~ \[([^]]+)\] ]] && now=${BASH_REMATCH[1]}
            add_change "$kind" "$a" "" "$now" "$b" "$a" pending
            ;;
        conf)
            if ! restore_path_ok "$a" || ! [[ $b =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
                ! [[ $c == unset || $c == "set "* ]]; then
                die "$EXIT_ENV" "$file line $lineno: bad conf entry '$line'"
            fi
            local now=unset
            conf_get "$SYSROOT$a" "$b" && now="set $REPLY"
            add_change conf "$a" "$b" "$now" "$c" "$a $b" pending
            ;;
        service)
            if ! [[ $a =~ ^[A-Za-z0-9_.@-]+$ ]] || ((${#CH_KIND[@]} == 0)); then
                die "$EXIT_ENV" "$file line $lineno: bad service entry '$line'"
            fi
            CH_SERVICE[${#CH_SERVICE[@]} - 1]=$a
            ;;
        *) die "$EXIT_ENV" "$file line $lineno: unknown entry '$kind'" ;;
        esac
    done <"$file"
    sysroot_label
    label=$REPLY
    [[ -n $saved_root ]] || die "$EXIT_ENV" "$file has no '# sysroot:' line"
    if [[ $saved_root != "$label" ]]; then
        if [[ $saved_root == / ]]; then
            die "$EXIT_ENV" "$file was written for the running system; run without --sysroot"
        fi
        die "$EXIT_ENV" "$file was written for --sysroot $saved_root, not ${label}"
    fi
    # Nothing to do where the value is already back.
    local i
    for i in "${!CH_KIND[@]}"; do
        [[ ${CH_OLD[i]} == "${CH_NEW[i]}" ]] && CH_STATUS[i]=already
    done
    return 0
}

# Restore files may only write kernel and config files.
restore_path_ok() {
    [[ $1 =~ ^/(proc|sys|etc)/[A-Za-z0-9_./:@-]+$ && $1 != *..* ]]
}

# Apply a restore file, last change first. Returns the exit code.
run_restore() {
    local tool=$1 file=$2 i n rc
    load_restore_file "$file"
    # Reverse the list so the last change is undone first.
    local -a k=("${CH_KIND[@]}") t=("${CH_TARGET[@]}") ky=("${CH_KEY[@]}") o=("${CH_OLD[@]}") \
        nw=("${CH_NEW[@]}") l=("${CH_LABEL[@]}") s=("${CH_STATUS[@]}") sv=("${CH_SERVICE[@]}")
    CH_KIND=() CH_TARGET=() CH_KEY=() CH_OLD=() CH_NEW=() CH_LABEL=() CH_STATUS=() CH_SERVICE=()
    n=${#k[@]}
    for ((i = n - 1; i >= 0; i--)); do
        add_change "${k[i]}" "${t[i]}" "${ky[i]}" "${o[i]}" "${nw[i]}" "${l[i]}" "${s[i]}" "${sv[i]}"
    done
    printf 'restoring from %s\n' "$file"
    if ((n == 0)); then
        printf 'nothing recorded: nothing to restore\n'
        return "$EXIT_OK"
    fi
    rc=0
    restore_apply || rc=$?
    return "$rc"
}

# Like apply_changes, without writing a new restore file.
restore_apply() {
    local i pending=0 already=0
    FAILED=0
    APPLIED=0
    for i in "${!CH_KIND[@]}"; do
        [[ ${CH_STATUS[i]} == pending ]] && pending=$((pending + 1))
        [[ ${CH_STATUS[i]} == already ]] && already=$((already + 1))
    done
    if ((DRY_RUN)); then
        for i in "${!CH_KIND[@]}"; do
            if [[ ${CH_STATUS[i]} == pending ]]; then report_change "$i" "would restore"; else report_change "$i" ""; fi
        done
        printf 'dry run: %d to restore, %d already back; nothing written\n' "$pending" "$already"
        return "$EXIT_OK"
    fi
    check_writable
    local -A restarted=()
    for i in "${!CH_KIND[@]}"; do
        if [[ ${CH_STATUS[i]} != pending ]]; then
            report_change "$i" ""
            continue
        fi
        if change_write "$i"; then
            APPLIED=$((APPLIED + 1))
            report_change "$i" "restored"
            if [[ -n ${CH_SERVICE[i]} && -z ${restarted[${CH_SERVICE[i]}]:-} ]]; then
                restarted[${CH_SERVICE[i]}]=1
                restart_service "${CH_SERVICE[i]}"
            fi
        else
            FAILED=$((FAILED + 1))
            report_change "$i" "FAILED: $WRITE_ERROR"
        fi
    done
    printf '%d restored, %d already back, %d failed\n' "$APPLIED" "$already" "$FAILED"
    if ((FAILED > 0)); then
        warn "$FAILED value(s) could not be restored; exit status $EXIT_PARTIAL"
        return "$EXIT_PARTIAL"
    fi
    return "$EXIT_OK"
}
