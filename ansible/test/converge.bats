#!/usr/bin/env bats
# site.yml converged into a real minimal Debian bookworm root (debootstrap, cached under ansible/target/cache) over
# the chroot connection, for one node of a two-node inventory, with the release tarball of this tree's build.
# What is not the real thing, and why:
#   - the RT kernel is a stand-in: an empty package built here with equivs, installed through the role's
#     rt_kernel_deb where a node installs linux-image-rt-amd64 (the real one is large and slow to unpack);
#   - rfmrt_start_services: false (nothing can start in a chroot): units are enabled, never started, and no
#     sysctl is applied to the running kernel (it is this machine's);
#   - udev does not run in the chroot: the test creates /dev/cpu_dma_latency as the role's udev rule says.
# Then: the second run changes nothing, and bad inventories fail in the first assert, naming host, variable, value.

# shellcheck disable=SC2154,SC2030,SC2031  # $status and $output come from bats' run, one per test

setup_file() {
    if [ "$(id -u)" -ne 0 ]; then
        export CONVERGE_SKIP="the converge needs root (debootstrap, chroot, mounts)"
        return 0
    fi
    local tool
    for tool in ansible-playbook debootstrap equivs-build systemd-analyze setpriv; do
        command -v "$tool" >/dev/null || {
            echo "converge: $tool is missing (./run-tests installs ansible, debootstrap, equivs)" >&2
            return 1
        }
    done
    ANSIBLE_DIR="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
    REPO="$(cd "$ANSIBLE_DIR/.." && pwd)"
    BUILD="$ANSIBLE_DIR/target"
    ROOT="$BUILD/root"
    INVENTORY="$BUILD/inventory"
    export ANSIBLE_DIR REPO BUILD ROOT INVENTORY
    export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_CONFIG="$ANSIBLE_DIR/ansible.cfg"
    mkdir -p "$BUILD"

    TARBALL="$("$REPO/deploy/package.sh" --out "$BUILD/dist")"
    export TARBALL

    # the stand-in RT kernel: an empty package named after nothing Debian ships
    mkdir -p "$BUILD/kernel"
    KERNEL_DEB="$BUILD/kernel/rfmrt-test-linux-image-rt_1.0_all.deb"
    export KERNEL_DEB
    if [[ ! -f "$KERNEL_DEB" ]]; then
        cat >"$BUILD/kernel/control" <<'EOF'
Section: kernel
Priority: optional
Standards-Version: 4.6.2
Package: rfmrt-test-linux-image-rt
Version: 1.0
Maintainer: rfmrt tests <rfmrt@localhost>
Architecture: all
Description: stand-in for linux-image-rt-amd64 in the rfmrt Ansible tests
 An empty package: the converge test installs it where a node installs the RT kernel.
EOF
        (cd "$BUILD/kernel" && equivs-build control >equivs.log 2>&1)
    fi

    local start=$SECONDS how="copied from the debootstrap cache"
    [[ -f "$BUILD/cache/bookworm-minbase/.rfmrt-complete" ]] || how="debootstrapped (cached for the next run)"
    "$ANSIBLE_DIR/test/chroot-root.sh" umount "$ROOT"
    "$ANSIBLE_DIR/test/chroot-root.sh" create "$ROOT" --cache "$BUILD/cache"
    "$ANSIBLE_DIR/test/chroot-root.sh" mount "$ROOT"
    echo "# fresh root $how: $((SECONDS - start)) s" >&3

    write_inventory "$INVENTORY" 2 1 "[1]"
    start=$SECONDS
    converge "$INVENTORY" >"$BUILD/converge-1.log" 2>&1 && echo 0 >"$BUILD/converge-1.rc" ||
        echo $? >"$BUILD/converge-1.rc"
    echo "# converge: $(recap "$BUILD/converge-1.log") in $((SECONDS - start)) s" >&3
    start=$SECONDS
    converge "$INVENTORY" >"$BUILD/converge-2.log" 2>&1 && echo 0 >"$BUILD/converge-2.rc" ||
        echo $? >"$BUILD/converge-2.rc"
    echo "# second run: $(recap "$BUILD/converge-2.log") in $((SECONDS - start)) s" >&3
    "$ANSIBLE_DIR/test/chroot-root.sh" save-debs "$ROOT" --cache "$BUILD/cache"
}

setup() {
    if [ -n "${CONVERGE_SKIP:-}" ]; then
        skip "$CONVERGE_SKIP"
    fi
}

teardown_file() {
    if [ -z "${CONVERGE_SKIP:-}" ]; then
        "$ANSIBLE_DIR/test/chroot-root.sh" umount "$ROOT"
    fi
}

# write_inventory DIR ID_A ID_B ISR_CPUS [BRIDGE_A BRIDGE_B]: the chroot node rig-a and a second node rig-b that
# is never contacted; both bridge network lab1 (bridge host ids 1 and 2 unless given)
write_inventory() {
    mkdir -p "$1"
    cat >"$1/hosts.yml" <<EOF
rfmrt_nodes:
  hosts:
    rig-a:
      ansible_connection: community.general.chroot
      ansible_host: $ROOT
      rfmrt_node_id: $2
      rfmrt_isr_cpus: $4
      rfmrt_node_receive_channels: [sensor]
      rfmrt_node_publish_channel: command
      rfmrt_bridge_host_id: ${5:-1}
      rfmrt_bridge_address: 192.0.2.11
      rfmrt_bridge_options: --idle backoff
      rfmrt_exporter_enabled: true
      rfmrt_exporter_listen: 0.0.0.0:9464
    rig-b:
      ansible_host: 192.0.2.12
      rfmrt_node_id: $3
      rfmrt_isr_cpus: [1]
      rfmrt_bridge_host_id: ${6:-2}
  vars:
    rfmrt_network: lab1
    rfmrt_release_tarball: $TARBALL
    rfmrt_housekeeping_cpus: [0]
    rfmrt_isolated_cpus: [1]
    rfmrt_start_services: false
    rt_kernel_package: rfmrt-test-linux-image-rt
    rt_kernel_deb: $KERNEL_DEB
EOF
}

converge() {
    (cd "$ANSIBLE_DIR" && ansible-playbook -i "$1" site.yml --limit rig-a)
}

# the recap line of rig-a, squeezed: "ok=58 changed=12 unreachable=0 failed=0 skipped=16 ..."
recap() {
    grep -E '^rig-a +: ok=' "$1" | tail -n 1 | sed -E 's/^rig-a +: //; s/ +/ /g'
}

# setpriv's form of the unit's AmbientCapabilities: CAP_SYS_NICE CAP_IPC_LOCK -> +sys_nice,+ipc_lock
unit_caps() {
    sed -n 's/^AmbientCapabilities=//p' "$ROOT/etc/systemd/system/rfmrt-node@.service" |
        tr '[:upper:]' '[:lower:]' | sed -E 's/cap_/+/g; s/ +/,/g'
}

# /dev/cpu_dma_latency in the chroot's own /dev, with the group and mode of the role's udev rule
make_cpu_dma_latency() {
    local rule group mode major minor
    rule="$(grep '^KERNEL=="cpu_dma_latency"' "$ROOT/etc/udev/rules.d/60-rfmrt.rules")"
    group="$(sed -E 's/.*GROUP="([^"]+)".*/\1/' <<<"$rule")"
    mode="$(sed -E 's/.*MODE="([0-7]+)".*/\1/' <<<"$rule")"
    read -r major minor < <(stat -c '%t %T' /dev/cpu_dma_latency)
    rm -f "$ROOT/dev/cpu_dma_latency"
    mknod -m "$mode" "$ROOT/dev/cpu_dma_latency" c "$((16#$major))" "$((16#$minor))"
    chroot "$ROOT" chgrp "$group" /dev/cpu_dma_latency
}

@test "converge: site.yml runs to the end in a fresh Debian root" {
    cat "$BUILD/converge-1.log"
    [ "$(cat "$BUILD/converge-1.rc")" -eq 0 ]
    run recap "$BUILD/converge-1.log"
    [[ "$output" =~ ^ok=[0-9]+\ changed=[1-9][0-9]*\ unreachable=0\ failed=0 ]]
    grep -q 'TASK \[Preflight result\]' "$BUILD/converge-1.log"
}

@test "idempotence: the second run changes nothing" {
    [ "$(cat "$BUILD/converge-2.rc")" -eq 0 ]
    run recap "$BUILD/converge-2.log"
    echo "$output"
    [[ "$output" =~ ^ok=[0-9]+\ changed=0\ unreachable=0\ failed=0 ]]
}

@test "the stand-in RT kernel is installed and the grub drop-in holds exactly the boot parameters" {
    run chroot "$ROOT" dpkg-query -W -f "\${Status}" rfmrt-test-linux-image-rt
    [ "$output" = "install ok installed" ]
    local expected='isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0'
    expected+=' intel_idle.max_cstate=0 processor.max_cstate=1'
    run grep -v '^#' "$ROOT/etc/default/grub.d/rfmrt.cfg"
    [ "$output" = "GRUB_CMDLINE_LINUX_DEFAULT=\"\${GRUB_CMDLINE_LINUX_DEFAULT} $expected\"" ]
    # as update-grub sources it after /etc/default/grub
    run sh -c 'GRUB_CMDLINE_LINUX_DEFAULT=quiet; . "$1"; printf %s "$GRUB_CMDLINE_LINUX_DEFAULT"' sh \
        "$ROOT/etc/default/grub.d/rfmrt.cfg"
    [ "$output" = "quiet $expected" ]
}

@test "sysctls and irqbalance: written for the next boot" {
    run grep -v '^#' "$ROOT/etc/sysctl.d/60-rfmrt.conf"
    [ "$output" = $'kernel.sched_rt_runtime_us = -1\nvm.stat_interval = 10\nkernel.timer_migration = 0' ]
    grep -qx 'IRQBALANCE_BANNED_CPULIST=1' "$ROOT/etc/default/irqbalance"
    grep -qx 'LimitRTPRIO=99' "$ROOT/etc/systemd/system/rfmrt-node@.service.d/10-limits.conf"
    grep -qx 'RFMRT_RT_CPUS=1' "$ROOT/etc/rfmrt/tuning.env"
    grep -qx 'RFMRT_ISOLATE_OPTS=--housekeeping 0 --rt-runtime-unlimited' "$ROOT/etc/rfmrt/tuning.env"
}

@test "the units are installed and systemd-analyze verify --root accepts them" {
    cmp "$ROOT/etc/systemd/system/rfmrt-node@.service" "$REPO/deploy/systemd/rfmrt-node@.service"
    cmp "$ROOT/etc/systemd/system/rfmrt-tuning.service" "$REPO/deploy/systemd/rfmrt-tuning.service"
    grep -qx 'CPUAffinity=0 1' "$ROOT/etc/systemd/system/rfmrt-node@node-2.service.d/10-cpus.conf"
    run systemd-analyze verify --root="$ROOT" rfmrt-node@node-2.service rfmrt-tuning.service
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *rfmrt* ]]
}

@test "the bridge of lab1: options from the inventory, the release's unit, verified, enabled, before the node" {
    run grep -v '^#' "$ROOT/etc/rfmrt/bridge-lab1.conf"
    [ "$output" = "RFMRT_BRIDGE_OPTS=--host-id 1 --host-name rig-a --channel aeron:udp?endpoint=192.0.2.11:40456 --peers 2@192.0.2.12:40456 --idle backoff" ]
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /etc/rfmrt/bridge-lab1.conf)" = "root rfmrt 640" ]
    cmp "$ROOT/etc/systemd/system/rfmrt-bridge@.service" "$REPO/deploy/systemd/rfmrt-bridge@.service"
    run systemd-analyze verify --root="$ROOT" rfmrt-bridge@lab1.service
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *rfmrt* ]]
    run systemctl --root="$ROOT" is-enabled rfmrt-bridge@lab1.service
    [ "$output" = enabled ]
    local order="$ROOT/etc/systemd/system/rfmrt-node@node-2.service.d/20-bridge.conf"
    grep -qx 'Wants=rfmrt-bridge@lab1.service' "$order"
    grep -qx 'After=rfmrt-bridge@lab1.service' "$order"
    # the options as the unit's ExecStart splits them are all accepted: the only refusal is the listening address,
    # a documentation address this machine does not have, which `rfmrt bridge` checks after parsing every option
    local opts
    opts="$(sed -n 's/^RFMRT_BRIDGE_OPTS=//p' "$ROOT/etc/rfmrt/bridge-lab1.conf")"
    # shellcheck disable=SC2086  # split as systemd splits $RFMRT_BRIDGE_OPTS
    run timeout 60 chroot "$ROOT" /opt/rfmrt/current/bin/rfmrt bridge --network lab1 --root /tmp/bridge-check \
        $opts --seconds 1
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "rfmrt: --channel 'aeron:udp?endpoint=192.0.2.11:40456': cannot listen on 192.0.2.11:40456: Cannot assign requested address" ]
    [ ! -e "$ROOT/tmp/bridge-check" ]
}

@test "the exporter: its address from the inventory, the release's unit, verified, enabled, a command the release has" {
    run grep -v '^#' "$ROOT/etc/rfmrt/exporter.conf"
    [ "$output" = "RFMRT_EXPORTER_LISTEN=0.0.0.0:9464" ]
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /etc/rfmrt/exporter.conf)" = "root rfmrt 640" ]
    cmp "$ROOT/etc/systemd/system/rfmrt-exporter.service" "$REPO/deploy/systemd/rfmrt-exporter.service"
    run systemd-analyze verify --root="$ROOT" rfmrt-exporter.service
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *rfmrt* ]]
    run systemctl --root="$ROOT" is-enabled rfmrt-exporter.service
    [ "$output" = enabled ]
    # the unit's command line, with the inventory's address, is one the release's rfmrt accepts: a bad port is the
    # only thing wrong with this one
    run timeout 60 chroot "$ROOT" /opt/rfmrt/current/bin/rfmrt exporter --listen 0.0.0.0:99999
    echo "$output"
    [ "$status" -eq 2 ]
    [ "$output" = "rfmrt: --listen '0.0.0.0:99999' is not HOST:PORT (port 0-65535)" ]
}

@test "rfmrt-node@node-2 and rfmrt-tuning are enabled" {
    [ "$(readlink "$ROOT/etc/systemd/system/multi-user.target.wants/rfmrt-node@node-2.service")" = \
        /etc/systemd/system/rfmrt-node@.service ]
    [ "$(readlink "$ROOT/etc/systemd/system/multi-user.target.wants/rfmrt-tuning.service")" = \
        /etc/systemd/system/rfmrt-tuning.service ]
    run systemctl --root="$ROOT" is-enabled rfmrt-node@node-2.service
    [ "$output" = enabled ]
}

@test "the rendered node configuration is valid for the node, a broken copy is not" {
    run chroot "$ROOT" /opt/rfmrt/current/bin/rfmrt node --check-config --config /etc/rfmrt/node-2.yaml
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "rfmrt node: /etc/rfmrt/node-2.yaml is valid (device sim:lab1?node=2&dma=auto&dmaSlots=2048&dmaSlotSize=128)" ]
    grep -qx '  isr: {cpu: 1, priority: 80}' "$ROOT/etc/rfmrt/node-2.yaml"
    grep -qx '  dir: /var/lib/rfmrt/journal/node-2' "$ROOT/etc/rfmrt/node-2.yaml"
    sed 's/priority: 80/priority: 120/' "$ROOT/etc/rfmrt/node-2.yaml" >"$ROOT/tmp/broken.yaml"
    run chroot "$ROOT" /opt/rfmrt/current/bin/rfmrt node --check-config --config /tmp/broken.yaml
    rm -f "$ROOT/tmp/broken.yaml"
    [ "$status" -eq 2 ]
    [ "$output" = "rfmrt: /tmp/broken.yaml: threads.isr.priority 120 is not 0..99" ]
}

@test "the rfmrt command completes in bash from the release's script" {
    [ "$(readlink "$ROOT/usr/share/bash-completion/completions/rfmrt")" = /opt/rfmrt/current/completion/rfmrt.bash ]
    run chroot "$ROOT" bash -c 'source /usr/share/bash-completion/completions/rfmrt && complete -p rfmrt'
    [ "$output" = "complete -o default -F _complete_rfmrt rfmrt" ]
}

@test "the man pages of the release are linked where man finds them" {
    [ "$(readlink "$ROOT/usr/local/share/man/man1/rfmrt-node.1")" = /opt/rfmrt/current/man/man1/rfmrt-node.1 ]
    [ "$(readlink "$ROOT/usr/local/share/man/man1/rfmrt-exporter.1")" = \
        /opt/rfmrt/current/man/man1/rfmrt-exporter.1 ]
    [ -f "$ROOT/opt/rfmrt/current/man/man1/rfmrt.1" ]
}

@test "rfmrt check --json runs in the root with the role's JDK" {
    [[ "$(chroot "$ROOT" readlink -f /usr/bin/java)" == /usr/lib/jvm/java-17-openjdk-amd64/* ]]
    run chroot "$ROOT" /opt/rfmrt/current/bin/rfmrt check --json
    [ "$status" -le 1 ]
    python3 -c 'import json, sys; items = json.load(sys.stdin)["items"]; assert len(items) > 5, items' <<<"$output"
    [[ "$output" == *'"id" : "rt-kernel"'* ]]
}

@test "ownership and modes: the rfmrt group, /etc/rfmrt, the journal folder, the retention rule" {
    grep -q '^rfmrt:x:[0-9]*:[0-9]*:rfmrt node:/var/lib/rfmrt:/usr/sbin/nologin$' "$ROOT/etc/passwd"
    grep -q '^rfmrt:x:[0-9]*:$' "$ROOT/etc/group"
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /etc/rfmrt)" = "root rfmrt 750" ]
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /etc/rfmrt/node-2.yaml)" = "root rfmrt 640" ]
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /var/lib/rfmrt/journal)" = "rfmrt rfmrt 750" ]
    [ "$(chroot "$ROOT" stat -c '%U %G %a' /var/lib/rfmrt/journal/node-2)" = "rfmrt rfmrt 750" ]
    grep -qx 'd /var/lib/rfmrt/journal 0750 rfmrt rfmrt 14d' "$ROOT/etc/tmpfiles.d/rfmrt.conf"
    grep -qx 'KERNEL=="cpu_dma_latency", GROUP="rfmrt", MODE="0660"' "$ROOT/etc/udev/rules.d/60-rfmrt.rules"
    [ "$(readlink "$ROOT/opt/rfmrt/current")" = "$(basename "$TARBALL" .tar.gz | sed 's/^rfmrt-//')" ]
}

@test "the node as user rfmrt with the unit's capabilities gets SCHED_FIFO, mlockall, its cpus, cpu_dma_latency" {
    [ -c /dev/cpu_dma_latency ] || skip "this machine has no /dev/cpu_dma_latency"
    make_cpu_dma_latency
    local caps
    caps="$(unit_caps)"
    [ "$caps" = "+sys_nice,+ipc_lock" ]
    run timeout 120 chroot "$ROOT" setpriv --reuid rfmrt --regid rfmrt --init-groups --inh-caps="$caps" \
        --ambient-caps="$caps" --bounding-set="-all,$caps" --no-new-privs \
        /opt/rfmrt/current/bin/rfmrt node --config /etc/rfmrt/node-2.yaml --seconds 3
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" =~ rfmrt-isr\ +[0-9]+\ +1/1\ +SCHED_FIFO\ +80\ +- ]]
    [[ "$output" =~ rfmrt-consumer\ +[0-9]+\ +1/1\ +SCHED_FIFO\ +70\ +- ]]
    [[ "$output" == *"process: rt cpus 1 (configured), housekeeping cpu 0, mlockall locked, cpu_dma_latency held at 0"* ]]
    # it journaled as rfmrt into its folder
    chroot "$ROOT" find /var/lib/rfmrt/journal/node-2 -name '*.cq4' -user rfmrt | grep -q .
}

@test "without those capabilities the same node is refused SCHED_FIFO and mlockall (the limits here are low)" {
    [[ "$(ulimit -Hr)" == 0 && "$(ulimit -Hl)" != unlimited ]] || skip "this shell's hard limits allow RT anyway"
    run timeout 120 chroot "$ROOT" setpriv --reuid rfmrt --regid rfmrt --init-groups --inh-caps=-all \
        --bounding-set=-all --no-new-privs \
        /opt/rfmrt/current/bin/rfmrt node --config /etc/rfmrt/node-2.yaml --seconds 1
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"SCHED_FIFO 80 refused for rfmrt-isr (EPERM)"* ]]
    [[ "$output" == *"mlockall refused"* ]]
}

@test "every system call of the node is in the unit's SystemCallFilter" {
    command -v strace >/dev/null || skip "strace not installed"
    local filter caps trace
    filter="$(sed -n 's/^SystemCallFilter=//p' "$ROOT/etc/systemd/system/rfmrt-node@.service")"
    [ "$filter" = "@system-service" ]
    caps="$(unit_caps)"
    trace="$BATS_TEST_TMPDIR/trace"
    run timeout 180 strace -f -qq -o "$trace" chroot "$ROOT" setpriv --reuid rfmrt --regid rfmrt --init-groups \
        --inh-caps="$caps" --ambient-caps="$caps" --bounding-set="-all,$caps" --no-new-privs \
        /opt/rfmrt/current/bin/rfmrt node --config /etc/rfmrt/node-2.yaml --seconds 2
    [ "$status" -eq 0 ]
    # from the exec of the launcher on (what the unit's filter sees); chroot and setpriv come before
    awk '/execve\("\/opt\/rfmrt\/current\/bin\/rfmrt"/ { on = 1 }
         on && match($0, /^[0-9]+ +[a-z0-9_]+\(/) { s = substr($0, RSTART, RLENGTH - 1); sub(/^[0-9]+ +/, "", s); print s }' \
        "$trace" | sort -u >"$BATS_TEST_TMPDIR/used"
    [ "$(wc -l <"$BATS_TEST_TMPDIR/used")" -gt 30 ]
    chroot "$ROOT" systemd-analyze syscall-filter | python3 -c '
import sys
groups, current = {}, None
for line in sys.stdin:
    word = line.strip()
    if line.startswith("@"):
        current = groups.setdefault(word, [])
    elif word and not word.startswith("#") and current is not None:
        current.append(word)
def expand(name):
    calls = set()
    for entry in groups.get(name, []):
        calls |= expand(entry) if entry.startswith("@") else {entry}
    return calls
allowed = expand(sys.argv[1])
used = set(open(sys.argv[2]).read().split())
missing = sorted(used - allowed)
print("outside %s: %s" % (sys.argv[1], " ".join(missing) or "none"))
sys.exit(1 if missing else 0)' "$filter" "$BATS_TEST_TMPDIR/used"
}

@test "systemd-analyze security rates the node unit OK or better" {
    run systemd-analyze security --offline=yes --root="$ROOT" rfmrt-node@node-2.service
    local overall
    overall="$(grep 'Overall exposure level' <<<"$output")"
    echo "# $overall" >&3
    [[ "$overall" =~ level\ for\ rfmrt-node@node-2.service:\ ([0-9]+)\.[0-9]\ (PERFECT|SAFE|OK) ]]
    [ "${BASH_REMATCH[1]}" -lt 5 ]
}

# bad_inventory ID_A ID_B ISR_CPUS TASK MESSAGE: the play stops in the named assert with the message, changing nothing
bad_inventory() {
    local inventory="$BATS_TEST_TMPDIR/inventory"
    write_inventory "$inventory" "$1" "$2" "$3" "${6:-}" "${7:-}"
    run converge "$inventory"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"TASK [$4] ***"*"fatal: [rig-a]: FAILED!"* ]]
    [[ "$output" == *"\"msg\": \"$5\""* ]]
    [[ "$output" != *"TASK [rt_kernel"* ]]
    [[ "$(recap <(echo "$output"))" =~ ^ok=[0-9]+\ changed=0\ unreachable=0\ failed=1 ]]
}

@test "bad inventory: node id 0" {
    bad_inventory 0 1 "[1]" "Check the node id (1..255)" "rig-a: rfmrt_node_id = 0 is not a node id 1..255"
}

@test "bad inventory: two nodes with one id" {
    bad_inventory 2 2 "[1]" "Check the node id is unique on its network" \
        "rig-a: rfmrt_node_id = 2 is also the node id of rig-b on network lab1"
}

@test "bad inventory: two bridges with one host id" {
    bad_inventory 2 1 "[1]" "Check the bridge host id is unique on its network and the bridge has peers" \
        "rig-a: rfmrt_bridge_host_id = 1 is also the bridge host id of rig-b on network lab1" 1 1
}

@test "bad inventory: a bridge without peers" {
    bad_inventory 2 1 "[1]" "Check the bridge host id is unique on its network and the bridge has peers" \
        "rig-a: rfmrt_bridge_host_id = 1 has no peer: no other host of network lab1 sets rfmrt_bridge_host_id" 1 0
}

@test "bad inventory: an ISR cpu outside the isolated cpus" {
    bad_inventory 2 1 "[0]" "Check the ISR cpus are isolated cpus" \
        "rig-a: rfmrt_isr_cpus = [0] has cpu(s) [0] outside rfmrt_isolated_cpus = [1]"
}
