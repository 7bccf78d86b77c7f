#!/usr/bin/env bash
# A short run of every fuzz target (fuzz/fuzz_targets), so that an input that
# crashes a parser again fails CI. Installs the nightly toolchain and
# cargo-fuzz when missing.
# Usage: .ci/fuzz.sh [SECONDS_IN_ALL]      build, then run (default 60 s in all)
#        .ci/fuzz.sh build                 build every target only
#        .ci/fuzz.sh run [SECONDS_IN_ALL]  run what `build` built
# The targets are built once, together, with cargo-fuzz's settings (address
# sanitizer, coverage instrumentation); the runs start the built binaries
# directly, as many at once as there are cores, each for its share of the
# seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

stage=all
case "${1:-}" in
    build | run) stage=$1; shift ;;
esac

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal >/dev/null
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --quiet --locked cargo-fuzz

if [ "$stage" != run ]; then
    echo "== cargo fmt --check (fuzz)"
    cargo fmt --manifest-path fuzz/Cargo.toml --check

    echo "== cargo fuzz build"
    cargo +nightly fuzz build
fi
[ "$stage" = build ] && exit 0

# Where `cargo fuzz build` puts the binaries: the target directory (cargo's
# CARGO_TARGET_DIR when set, else fuzz/target), the host's triple, release.
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
bin_dir=${CARGO_TARGET_DIR:-fuzz/target}/$host/release
targets=($(cargo +nightly fuzz list))
for target in "${targets[@]}"; do
    [ -x "$bin_dir/$target" ] || { echo "fuzz target $target is not built: run .ci/fuzz.sh build" >&2; exit 1; }
done
total=${1:-60}
each=$(( (total + ${#targets[@]} - 1) / ${#targets[@]} ))

# One target for its seconds, as `cargo fuzz run` would run it (the corpus,
# then the seeds; artifacts under fuzz/artifacts/TARGET; the sanitizer option
# cargo-fuzz sets). Prints one line, or the log's tail when the target fails.
run_one() {
    local target=$1 each=$2 bin_dir=$3
    mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
    local seeds=()
    [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
    local log
    log=$(mktemp)
    if ! ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_odr_violation=0" \
        "$bin_dir/$target" -artifact_prefix="fuzz/artifacts/$target/" "fuzz/corpus/$target" "${seeds[@]}" \
        -max_total_time="$each" -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz target $target failed; the input is under fuzz/artifacts/$target (cargo +nightly fuzz fmt $target FILE shows it)" >&2
        rm -f "$log"
        return 1
    fi
    echo "$target: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') runs in ${each} s"
    rm -f "$log"
}
export -f run_one
# xargs exits non-zero when any target failed.
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc)" -I{} bash -c 'run_one "$@"' _ {} "$each" "$bin_dir"
