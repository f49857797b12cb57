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

@test "the tarball holds bin, lib, conf, tuning, systemd and completion" {
    run tar -tzf "$TARBALL"
    [ "$status" -eq 0 ]
    name="$(basename "$TARBALL" .tar.gz)"
    for entry in bin/rfmrt conf/jvm.options conf/node-1.yaml conf/layout.yaml systemd/rfmrt-node@.service \
        systemd/rfmrt-tuning.service tuning/bin/rfmrt-isolate tuning/lib/rfmrt-tuning.sh; do
        grep -qx "$name/$entry" <<<"$output" || { echo "missing $entry"; return 1; }
    done
    grep -qx "$name/completion/rfmrt.bash" <<<"$output"
    grep -qx "$name/man/man1/rfmrt.1" <<<"$output"
    grep -qx "$name/man/man1/rfmrt-exporter.1" <<<"$output"
    grep -qx "$name/systemd/rfmrt-exporter.service" <<<"$output"
    grep -qx "$name/grafana/rfmrt-dashboard.json" <<<"$output"
    grep -q "^$name/lib/rfm-driver-.*\.jar$" <<<"$output"
    grep -q "^$name/lib/chronicle-queue-.*\.jar$" <<<"$output"
    [[ "$output" != *"$name/tuning/test/"* ]]
}

@test "the man pages render, one per command, each with its exit codes" {
    mkdir -p "$BATS_TEST_TMPDIR/opt"
    tar -C "$BATS_TEST_TMPDIR/opt" -xzf "$TARBALL"
    man1="$BATS_TEST_TMPDIR/opt/$(basename "$TARBALL" .tar.gz)/man/man1"
    for page in rfmrt rfmrt-node rfmrt-stat rfmrt-exporter rfmrt-rfm-wait; do
        [ -f "$man1/$page.1" ] || { echo "no man page $page.1"; return 1; }
    done
    command -v man >/dev/null || skip "man not installed"
    run env MANWIDTH=100 man -l "$man1/rfmrt-rfm-wait.1"
    [ "$status" -eq 0 ]
    [[ "$output" == *"rfmrt-rfm-wait"* ]]
    [[ "$output" == *"EXIT CODES"* ]]
    [[ "$output" == *"a wait ran out of time"* ]]
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

# complete WORD...: what the release's completion script offers for the last word, as bash would ask it
complete_words() {
    local script="$1"
    shift
    # compopt works only inside a real completion; outside one it has nothing to change
    bash -c 'compopt() { :; }; source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
        _complete_rfmrt; printf "%s\n" "${COMPREPLY[@]}"' bash "$script" "$@"
}

@test "the release's completion script completes commands, subcommands, options and enum values" {
    mkdir -p "$BATS_TEST_TMPDIR/opt"
    tar -C "$BATS_TEST_TMPDIR/opt" -xzf "$TARBALL"
    local script
    script="$BATS_TEST_TMPDIR/opt/$(basename "$TARBALL" .tar.gz)/completion/rfmrt.bash"
    run bash -c 'source "$1" && complete -p rfmrt' bash "$script"
    [ "$output" = "complete -o default -F _complete_rfmrt rfmrt" ]
    # every command the help lists, and none of the hidden child commands
    local listed
    listed="$("$BATS_TEST_TMPDIR/opt/$(basename "$TARBALL" .tar.gz)/bin/rfmrt" --help |
        awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' | sort | tr '\n' ' ')"
    [ -n "$listed" ]
    run complete_words "$script" rfmrt ""
    [ "$(sort <<<"$output" | tr '\n' ' ')" = "$listed" ]
    [[ "$output" != *bench-* && "$output" != *replay-bench* ]]
    run complete_words "$script" rfmrt bridge --host-
    [ "$(tr "\n" " " <<<"$output")" = "--host-id --host-name " ]
    run complete_words "$script" rfmrt rfm wa
    [ "$output" = wait ]
    run complete_words "$script" rfmrt completion ""
    [ "$(tr "\n" " " <<<"$output")" = "bash zsh " ]
}

# The bash block under "## Installing on a node" of the README, exactly as it stands there.
readme_install_steps() {
    awk '/^## Installing on a node/ { section = 1; next }
        /^## / { section = 0 }
        section && /^```bash$/ { block = 1; next }
        block && /^```$/ { exit }
        block' "$REPO/README.md"
}

@test "the README's install steps, verbatim under DESTDIR, install a node that journals under /var/lib/rfmrt" {
    local steps="$BATS_TEST_TMPDIR/install.sh" fake="$BATS_TEST_TMPDIR/fake-bin" root="$BATS_TEST_TMPDIR/root"
    readme_install_steps >"$steps"
    grep -q 'deploy/package.sh' "$steps"
    grep -q 'systemctl enable --now' "$steps"
    # systemctl stands in for systemd: it writes down what it was asked to do and changes nothing
    mkdir -p "$fake" "$root"
    printf '#!/bin/sh\necho "$*" >>"%s/systemctl.log"\n' "$BATS_TEST_TMPDIR" >"$fake/systemctl"
    chmod +x "$fake/systemctl"
    # so does useradd: the service user is the host's business, not this test's
    printf '#!/bin/sh\necho "$*" >>"%s/useradd.log"\n' "$BATS_TEST_TMPDIR" >"$fake/useradd"
    chmod +x "$fake/useradd"
    run env -C "$REPO" DESTDIR="$root" PATH="$fake:$PATH" bash -e "$steps"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -x "$root/opt/rfmrt/bin/rfmrt" ]
    [ -f "$root/opt/rfmrt/conf/jvm.options" ]
    [ -f "$root/etc/rfmrt/node-2.yaml" ] && [ -f "$root/etc/rfmrt/layout.yaml" ]
    [ -f "$root/etc/systemd/system/rfmrt-node@.service" ] && [ -f "$root/etc/systemd/system/rfmrt-tuning.service" ]
    [ "$(readlink "$root/usr/share/bash-completion/completions/rfmrt")" = /opt/rfmrt/completion/rfmrt.bash ]
    [ -s "$root/opt/rfmrt/completion/rfmrt.bash" ]
    [ "$(cat "$BATS_TEST_TMPDIR/systemctl.log")" = "daemon-reload
enable --now rfmrt-tuning.service rfmrt-node@node-2.service" ]
    if ! id -u rfmrt >/dev/null 2>&1; then
        grep -q -- '--system .* rfmrt$' "$BATS_TEST_TMPDIR/useradd.log"
    fi

    # start rfmrt-node@node-2 as systemd would, inside the staging root: the unit's ExecStart, working directory
    # and StateDirectory (systemd creates /var/lib/NAME and passes it as $STATE_DIRECTORY)
    local unit="$root/etc/systemd/system/rfmrt-node@.service" state exec_start arg
    state="/var/lib/$(sed -n 's/^StateDirectory=//p' "$unit")"
    [ "$state" = /var/lib/rfmrt ]
    [ "$(sed -n 's/^WorkingDirectory=//p' "$unit")" = "$state" ]
    exec_start="$(sed -n 's/^ExecStart=//p' "$unit")"
    exec_start="${exec_start//%i/node-2}"
    local -a argv=()
    for arg in $exec_start; do
        [[ $arg == /* ]] && arg="$root$arg"
        argv+=("$arg")
    done
    [ "${argv[*]}" = "$root/opt/rfmrt/bin/rfmrt node --config $root/etc/rfmrt/node-2.yaml" ]
    mkdir -p "$root$state"
    local sim="/dev/shm/rfmrt-deploy-test-$$"
    run env -C "$root$state" STATE_DIRECTORY="$root$state" RFMRT_SIM_ROOT="$sim" \
        RFMRT_JAVA_OPTS="-Xms128m -Xmx128m -XX:CompressedClassSpaceSize=64m" \
        "${argv[@]}" --seconds 2
    rm -rf "$sim"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"journal $root/var/lib/rfmrt/journal/node-2"* ]]
    compgen -G "$root/var/lib/rfmrt/journal/node-2/*.cq4" >/dev/null
    [ ! -e "$root/etc/rfmrt/journal" ]
}

@test "the launcher refuses a folder that is not a release tree" {
    mkdir -p "$BATS_TEST_TMPDIR/broken/bin"
    cp "$REPO/deploy/bin/rfmrt" "$BATS_TEST_TMPDIR/broken/bin/"
    run "$BATS_TEST_TMPDIR/broken/bin/rfmrt" --version
    [ "$status" -eq 1 ]
    [[ "$output" == *"is not a release tree"* ]]
}

@test "systemd-analyze verifies the units in an installed root" {
    command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
    [ -d /lib/systemd/system ] || skip "no system unit library to verify against"
    vroot="$BATS_TEST_TMPDIR/root"
    mkdir -p "$vroot/opt" "$vroot/etc/systemd/system" "$vroot/lib/systemd" "$vroot/bin"
    cp -r /lib/systemd/system "$vroot/lib/systemd/"
    cp /bin/sh "$vroot/bin/sh"
    tar -C "$vroot/opt" -xzf "$TARBALL"
    mv "$vroot/opt/$(basename "$TARBALL" .tar.gz)" "$vroot/opt/rfmrt"
    cp "$vroot"/opt/rfmrt/systemd/*.service "$vroot/etc/systemd/system/"
    run systemd-analyze verify --root="$vroot" rfmrt-tuning.service rfmrt-node@node-2.service \
        rfmrt-bridge@lab.service rfmrt-exporter.service
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" != *rfmrt* ]]
}

@test "the node unit sets the limits an RT node needs" {
    unit="$REPO/deploy/systemd/rfmrt-node@.service"
    grep -qx 'LimitMEMLOCK=infinity' "$unit"
    grep -qx 'LimitRTPRIO=99' "$unit"
    grep -qx 'KillSignal=SIGTERM' "$unit"
    # PrivateNetwork=yes: the node has no network to wait for
    grep -qx 'After=rfmrt-tuning.service' "$unit"
    # ready once armed, and a hung process is restarted (rfmrt node speaks sd_notify: NodeServiceNotifyTest)
    grep -qx 'Type=notify' "$unit"
    grep -qx 'NotifyAccess=main' "$unit"
    grep -qx 'WatchdogSec=10s' "$unit"
    # docs/preflight.md: the check before each start is a report; "-" lets the node start on a FAIL
    grep -qx 'ExecStartPre=-/opt/rfmrt/bin/rfmrt check' "$unit"
    grep -qx 'SuccessExitStatus=4' "$REPO/deploy/systemd/rfmrt-tuning.service"
}

@test "the bridge unit has the node unit's hardening, but for the network" {
    node="$REPO/deploy/systemd/rfmrt-node@.service"
    bridge="$REPO/deploy/systemd/rfmrt-bridge@.service"
    # every hardening line of the node unit is in the bridge unit, but the network: UDP, and netlink for interfaces
    while IFS= read -r line; do
        case "$line" in
            PrivateNetwork=*|RestrictAddressFamilies=*) continue ;;
        esac
        grep -qxF "$line" "$bridge" || { echo "missing in the bridge unit: $line"; return 1; }
    done < <(grep -E '^(User|Group|UMask|AmbientCapabilities|CapabilityBoundingSet|NoNewPrivileges|Protect[A-Za-z]+|Private[A-Za-z]+|Restrict[A-Za-z]+|LockPersonality|SystemCall[A-Za-z]+|Limit[A-Z]+)=' "$node")
    grep -qx 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' "$bridge"
    if grep -q '^PrivateNetwork=' "$bridge"; then
        echo "the bridge unit must reach the network: PrivateNetwork= set"
        return 1
    fi
    # shellcheck disable=SC2016 # the unit's own variable, expanded by systemd
    grep -qx 'ExecStart=/opt/rfmrt/bin/rfmrt bridge --network %i $RFMRT_BRIDGE_OPTS' "$bridge"
    grep -qx 'EnvironmentFile=/etc/rfmrt/bridge-%i.conf' "$bridge"
    # ready once up, and a hung bridge is restarted (rfmrt bridge speaks sd_notify: BridgeServiceNotifyTest)
    grep -qx 'Type=notify' "$bridge"
    grep -qx 'NotifyAccess=main' "$bridge"
    grep -qx 'WatchdogSec=10s' "$bridge"
}

@test "the exporter unit is SCHED_OTHER with no capability, and hardened as the node unit" {
    node="$REPO/deploy/systemd/rfmrt-node@.service"
    exporter="$REPO/deploy/systemd/rfmrt-exporter.service"
    grep -qx 'CPUSchedulingPolicy=other' "$exporter"
    grep -qx 'RestrictRealtime=yes' "$exporter"
    grep -qx 'CapabilityBoundingSet=' "$exporter"
    if grep -qE '^(AmbientCapabilities|LimitRTPRIO|LimitMEMLOCK)=' "$exporter"; then
        echo "the exporter unit must not ask for RT rights"
        return 1
    fi
    # every other hardening line of the node unit is in the exporter unit (it serves on the network)
    while IFS= read -r line; do
        case "$line" in
            PrivateNetwork=*|AmbientCapabilities=*|CapabilityBoundingSet=*|Limit*) continue ;;
        esac
        grep -qxF "$line" "$exporter" || { echo "missing in the exporter unit: $line"; return 1; }
    done < <(grep -E '^(User|Group|UMask|NoNewPrivileges|Protect[A-Za-z]+|Private[A-Za-z]+|Restrict[A-Za-z]+|LockPersonality|SystemCall[A-Za-z]+|Limit[A-Z]+)=' "$node")
    # shellcheck disable=SC2016 # the unit's own variable, expanded by systemd
    grep -qx 'ExecStart=/opt/rfmrt/bin/rfmrt exporter --listen ${RFMRT_EXPORTER_LISTEN}' "$exporter"
}

@test "systemd-analyze security rates the bridge unit OK, as the node unit" {
    command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
    [ -d /lib/systemd/system ] || skip "no system unit library to rate against"
    vroot="$BATS_TEST_TMPDIR/secroot"
    mkdir -p "$vroot/etc/systemd/system" "$vroot/lib/systemd"
    cp -r /lib/systemd/system "$vroot/lib/systemd/"
    cp "$REPO"/deploy/systemd/*.service "$vroot/etc/systemd/system/"
    for unit in rfmrt-node@node-2.service rfmrt-bridge@lab.service rfmrt-exporter.service; do
        run systemd-analyze security --offline=true --root="$vroot" "$unit"
        echo "$output" | tail -1
        [[ "$(echo "$output" | tail -1)" == *"Overall exposure level for $unit: "[0-3].[0-9]" OK"* ]]
    done
}
