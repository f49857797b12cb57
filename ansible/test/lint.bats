#!/usr/bin/env bats
# The playbook and roles read clean: ansible-lint (production profile, ansible/.ansible-lint) and a syntax check
# of site.yml with the example inventory.

setup_file() {
    ANSIBLE_DIR="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
    export ANSIBLE_DIR
    export ANSIBLE_NOCOLOR=1
}

@test "ansible-lint (production profile) finds nothing" {
    command -v ansible-lint >/dev/null || skip "ansible-lint not installed (./run-tests installs it as root)"
    cd "$ANSIBLE_DIR"
    run ansible-lint --nocolor
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"Passed with production profile"* ]]
}

@test "site.yml passes the syntax check with the example inventory" {
    command -v ansible-playbook >/dev/null || skip "ansible not installed (./run-tests installs it as root)"
    cd "$ANSIBLE_DIR"
    run ansible-playbook -i inventory/example site.yml --syntax-check
    echo "$output"
    [ "$status" -eq 0 ]
    run ansible-inventory -i inventory/example --host node2
    [ "$status" -eq 0 ]
    [[ "$output" == *'"rfmrt_node_id": 2'* ]]
}

@test "chroot-root.sh is shellcheck clean and answers --help" {
    command -v shellcheck >/dev/null || skip "shellcheck not installed"
    shellcheck "$ANSIBLE_DIR/test/chroot-root.sh" "$ANSIBLE_DIR/test/run-tests.sh"
    shellcheck -s bash "$ANSIBLE_DIR"/test/*.bats
    run "$ANSIBLE_DIR/test/chroot-root.sh" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"chroot-root.sh create ROOT --cache DIR"* ]]
    run "$ANSIBLE_DIR/test/chroot-root.sh" frobnicate
    [ "$status" -eq 2 ]
}
