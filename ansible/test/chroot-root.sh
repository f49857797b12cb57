#!/usr/bin/env bash
# chroot-root.sh: a minimal Debian bookworm root file system for the Ansible converge tests.
#
#   chroot-root.sh create ROOT --cache DIR   fresh ROOT from the debootstrap root cached in DIR (made on first use,
#                                            from the Debian mirror the host's apt sources name); .debs saved in
#                                            DIR/apt-archives are put back into ROOT's apt cache
#   chroot-root.sh mount ROOT                /proc and /sys (read-only), a private /dev (null, zero, full, random,
#                                            urandom, tty) with its own /dev/shm
#   chroot-root.sh umount ROOT               undo mount (whatever of it is mounted)
#   chroot-root.sh save-debs ROOT --cache DIR   keep ROOT's downloaded .debs for the next create
#
# Run as root. Exit codes: 0 ok, 1 error, 2 usage.
set -euo pipefail

usage() {
    sed -n '2,14s/^# \{0,1\}//p' "$0"
}

die() {
    echo "chroot-root.sh: $*" >&2
    exit 1
}

# The first Debian mirror of the host's apt sources that serves bookworm itself (not -security or -updates).
host_mirror() {
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f "$file" ]] || continue
        awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                           if ($(i + 1) == "bookworm") { print $i; exit } }' "$file"
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [[ -f "$file" ]] || continue
        # deb822 stanzas: URIs and Suites of each stanza of Types deb
        awk 'BEGIN { RS = ""; FS = "\n" }
             { uri = ""; suites = ""; deb = 0
               for (i = 1; i <= NF; i++) {
                 if ($i ~ /^Types:.*(^|[ \t])deb([ \t]|$)/) deb = 1
                 if ($i ~ /^URIs:/) { uri = $i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
                 if ($i ~ /^Suites:/) { suites = " " $i " " }
               }
               if (deb && uri != "" && suites ~ /[ \t]bookworm[ \t]/) { print uri; exit } }' "$file"
    done
}

mounted_under() {
    local root=$1
    awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts
}

create() {
    local root=$1 cache=$2 base mirror
    base="$cache/bookworm-minbase"
    [[ -z "$(mounted_under "$root")" ]] || die "$root has file systems mounted; run: $0 umount $root"
    mkdir -p "$cache"
    if [[ ! -f "$base/.rfmrt-complete" ]]; then
        mirror="$(host_mirror | head -n 1)"
        [[ -n "$mirror" ]] || die "no Debian mirror for bookworm in /etc/apt/sources.list*"
        command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
        rm -rf "$base" "$base.tmp"
        echo "chroot-root.sh: debootstrap --variant=minbase bookworm from $mirror (cached in $base)" >&2
        debootstrap --variant=minbase bookworm "$base.tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
            die "debootstrap failed (see $cache/debootstrap.log)"
        touch "$base.tmp/.rfmrt-complete"
        mv "$base.tmp" "$base"
    fi
    rm -rf "$root"
    cp -a "$base" "$root"
    rm -f "$root/.rfmrt-complete"
    if compgen -G "$cache/apt-archives/*.deb" >/dev/null; then
        cp "$cache"/apt-archives/*.deb "$root/var/cache/apt/archives/"
    fi
}

save_debs() {
    local root=$1 cache=$2
    mkdir -p "$cache/apt-archives"
    if compgen -G "$root/var/cache/apt/archives/*.deb" >/dev/null; then
        cp -u "$root"/var/cache/apt/archives/*.deb "$cache/apt-archives/"
    fi
}

do_mount() {
    local root=$1 node major minor
    [[ -d "$root/proc" && -d "$root/sys" && -d "$root/dev" ]] || die "$root is not a root file system"
    mountpoint -q "$root/proc" || mount -t proc -o ro,nosuid,nodev,noexec proc "$root/proc"
    mountpoint -q "$root/sys" || mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
    if ! mountpoint -q "$root/dev"; then
        mount -t tmpfs -o mode=0755,nosuid,size=64m rfmrt-dev "$root/dev"
        for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
            IFS=: read -r node major minor <<<"$node"
            mknod -m 0666 "$root/dev/$node" c "$major" "$minor"
        done
        ln -s /proc/self/fd "$root/dev/fd"
        ln -s /proc/self/fd/0 "$root/dev/stdin"
        ln -s /proc/self/fd/1 "$root/dev/stdout"
        ln -s /proc/self/fd/2 "$root/dev/stderr"
        mkdir -m 1777 "$root/dev/shm"
    fi
    mountpoint -q "$root/dev/shm" || mount -t tmpfs -o mode=1777,nosuid,nodev,size=256m rfmrt-shm "$root/dev/shm"
}

do_umount() {
    local root=$1 point status=0
    for point in dev/shm dev sys proc; do
        if mountpoint -q "$root/$point"; then
            umount "$root/$point" || { echo "chroot-root.sh: cannot unmount $root/$point" >&2; status=1; }
        fi
    done
    return "$status"
}

main() {
    local command=${1:-} root="" cache=""
    case "$command" in
        -h|--help) usage; exit 0 ;;
        create|mount|umount|save-debs) ;;
        *) echo "chroot-root.sh: unknown command '${command}'" >&2; usage >&2; exit 2 ;;
    esac
    shift
    root=${1:-}
    [[ -n "$root" ]] || { echo "chroot-root.sh: $command needs ROOT" >&2; exit 2; }
    shift
    while (($# > 0)); do
        case "$1" in
            --cache) cache=${2:-}; [[ -n "$cache" ]] || { echo "chroot-root.sh: --cache needs a folder" >&2; exit 2; }
                     shift 2 ;;
            *) echo "chroot-root.sh: unknown option '$1'" >&2; exit 2 ;;
        esac
    done
    [[ "$(id -u)" -eq 0 ]] || die "needs root"
    root="$(realpath -m "$root")"
    case "$command" in
        create|save-debs)
            [[ -n "$cache" ]] || { echo "chroot-root.sh: $command needs --cache DIR" >&2; exit 2; }
            cache="$(realpath -m "$cache")"
            if [[ "$command" == create ]]; then create "$root" "$cache"; else save_debs "$root" "$cache"; fi ;;
        mount) do_mount "$root" ;;
        umount) do_umount "$root" ;;
    esac
}

main "$@"
