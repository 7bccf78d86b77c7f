#!/usr/bin/env bash
# A short run of every fuzz target (fuzz/fuzz_targets), so that an input that
# crashes a parser again fails CI. Installs the nightly toolchain and
# cargo-fuzz when missing. Usage: .ci/fuzz.sh [SECONDS_IN_ALL] (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal >/dev/null
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --quiet --locked cargo-fuzz

echo "== cargo fmt --check (fuzz)"
cargo fmt --manifest-path fuzz/Cargo.toml --check

echo "== cargo fuzz build"
cargo +nightly fuzz build

targets=($(cargo +nightly fuzz list))
total=${1:-60}
each=$(( (total + ${#targets[@]} - 1) / ${#targets[@]} ))
for target in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$target"
    seeds=()
    [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
    log=$(mktemp)
    if ! cargo +nightly fuzz run "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$each" -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz target $target failed; the input is under fuzz/artifacts/$target" >&2
        exit 1
    fi
    echo "$target: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') runs in ${each} s"
    rm -f "$log"
done
