#!/usr/bin/env bash
# package.sh: build the release tarball rfmrt-<version>.tar.gz from the Maven build (run `mvn package` or
# ./rfmrt once first): bin/ lib/ conf/ tuning/ systemd/ grafana/ completion/ man/. Prints the tarball's path.
set -euo pipefail

usage() {
    echo "Usage: deploy/package.sh [--out DIR]   (default DIR: deploy/target)"
}

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
out="$root/deploy/target"
while (($# > 0)); do
    case "$1" in
        --out) out="${2:?--out needs a folder}"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "package.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

target="$root/rfmrt-cli/target"
jars=("$target"/rfmrt-cli-*.jar)
if [[ ! -f "${jars[0]}" || ! -d "$target/lib" || ! -f "$target/launcher/jvm.options" || ! -f "$target/man/rfmrt.1" ]]; then
    echo "package.sh: no build in $target (run mvn package first)" >&2
    exit 3
fi
version="$(basename "${jars[0]}" .jar)"
version="${version#rfmrt-cli-}"
name="rfmrt-$version"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage/$name"/{bin,lib,conf,conf/lib,systemd,grafana,completion,man/man1}
cp "$root/deploy/bin/rfmrt" "$stage/$name/bin/"
cp "${jars[0]}" "$target"/lib/*.jar "$stage/$name/lib/"
cp "$target/launcher/jvm.options" "$stage/$name/conf/"
cp "$root"/deploy/conf/*.yaml "$stage/$name/conf/"
cp "$root"/deploy/systemd/*.service "$stage/$name/systemd/"
cp "$root"/deploy/grafana/*.json "$stage/$name/grafana/"
# the man pages the build made from picocli's model of the commands (rfmrt.1, rfmrt-node.1, ...)
cp "$target"/man/*.1 "$stage/$name/man/man1/"
cp -r "$root/tuning" "$stage/$name/tuning"
# the completion script, from the release's own launcher and jars (bash; zsh reads it through bashcompinit)
"$stage/$name/bin/rfmrt" completion bash >"$stage/$name/completion/rfmrt.bash"
rm -rf "$stage/$name/tuning/test"
mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
