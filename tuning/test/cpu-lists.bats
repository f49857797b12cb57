#!/usr/bin/env bats
# The cpu-list parser of the tuning scripts against the cases it shares with the Java CpuSet
# (fixtures/cpu-lists.txt).

load helpers

setup() {
    # shellcheck source=SCRIPTDIR/../lib/rfmrt-tuning.sh
    source "$TUNING_DIR/lib/rfmrt-tuning.sh"
}

@test "cpu lists: every case of the shared fixture parses as the Java CpuSet parses it" {
    local line input want n=0 failures=()
    while IFS= read -r line; do
        [[ -z $line || $line == \#* ]] && continue
        if ! [[ $line =~ ^\"([^\"]*)\"[[:space:]]+(\"([^\"]*)\"|error)$ ]]; then
            failures+=("malformed fixture line: $line")
            continue
        fi
        input=${BASH_REMATCH[1]}
        want=${BASH_REMATCH[2]}
        n=$((n + 1))
        if [[ $want == error ]]; then
            if cpulist_norm "$input"; then
                failures+=("'$input': accepted as '$REPLY', expected an error")
            elif [[ $CPULIST_ERROR != *"'$input'"* ]]; then
                failures+=("'$input': error '$CPULIST_ERROR' does not quote the list")
            fi
        else
            want=${BASH_REMATCH[3]}
            if ! cpulist_norm "$input"; then
                failures+=("'$input': refused ($CPULIST_ERROR), expected '$want'")
            elif [[ $REPLY != "$want" ]]; then
                failures+=("'$input': got '$REPLY', expected '$want'")
            fi
        fi
    done <"$FIXTURES/cpu-lists.txt"
    ((n > 20)) || failures+=("only $n cases read from $FIXTURES/cpu-lists.txt")
    if ((${#failures[@]} > 0)); then
        printf '%s\n' "${failures[@]}"
        return 1
    fi
}

@test "cpu lists: a list that must name a cpu refuses the empty set, (null) included" {
    run cpulist_nonempty ""
    [ "$status" -eq 1 ]
    cpulist_nonempty "(null)" || true
    [ "$CPULIST_ERROR" = "empty cpu list" ]
    cpulist_nonempty "2-3"
    [ "${CPUS[*]}" = "2 3" ]
}
