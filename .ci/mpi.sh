#!/usr/bin/env bash
# Distributed counts over MPI (queens, xcover): install OpenMPI (and libclang, which the mpi
# crate's bindings need) when missing, build with the `mpi` feature, and check
# that master/worker runs print the single-process counts.
# Usage: .ci/mpi.sh            install what is missing, build, check
#        .ci/mpi.sh install    install what is missing only
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

need=()
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
command -v mpicc >/dev/null 2>&1 || need+=(libopenmpi-dev)
command -v clang >/dev/null 2>&1 || need+=(clang)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || ls /usr/lib/*/libclang*.so* >/dev/null 2>&1 || need+=(libclang-dev)
if ((${#need[@]})); then
    echo "== installing ${need[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
[ "${1:-}" = install ] && exit 0

# `cargo test --workspace --profile checked` builds the library with the
# features that dev-dependencies add to shared dependencies (serde's among
# them). The whole workspace with its examples selected resolves features the
# same way, so after the tests this build reuses their library: it compiles the
# binary with the feature, the MPI crates, and the examples with the few
# dev-dependencies whose proc-macro crates the MPI bindings' build changes.
echo "== cargo build --profile checked --workspace --features backtrack-cli/mpi --bins --examples"
cargo build --profile checked --workspace --features backtrack-cli/mpi --bins --examples

# mpirun refuses to run as root unless told, and a small CI machine may have
# fewer cores than processes.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
mpirun_args=(-n 2 --oversubscribe)
bin=${CARGO_TARGET_DIR:-target}/checked/backtrack

check() { # expected, then the command
    local expected=$1
    shift
    local got
    got=$(timeout 300 "$@") || { echo "FAILED (exit $?): $*" >&2; exit 1; }
    if [ "$got" != "$expected" ]; then
        echo "FAILED: $* printed '$got', expected '$expected'" >&2
        exit 1
    fi
    echo "ok: $* -> $got"
}

echo "== mpirun -n 2 backtrack queens 12 --mpi"
check 14200 mpirun "${mpirun_args[@]}" "$bin" queens 12 --mpi
check 1787 mpirun "${mpirun_args[@]}" "$bin" queens 12 --mpi --unique
json=$(timeout 300 mpirun "${mpirun_args[@]}" "$bin" queens 10 --mpi --json)
case "$json" in
    *'"solutions":724'*) echo "ok: --json -> $json" ;;
    *) echo "FAILED: --mpi --json printed '$json'" >&2; exit 1 ;;
esac
# A single process counts alone.
check 92 mpirun -n 1 "$bin" queens 8 --mpi

echo "== mpirun backtrack xcover --mpi: the totals of a plain count"
data=tests/data/xcover
for file in langford-11 pentomino-5x12 two-per-line-5 toy-bounds; do
    plain=$("$bin" xcover --quiet "$data/$file.dlx" 2>/dev/null)
    check "$plain" mpirun -n 3 --oversubscribe "$bin" xcover --mpi "$data/$file.dlx"
done
check 35584 mpirun "${mpirun_args[@]}" "$bin" xcover --mpi --engine links "$data/langford-11.dlx"
# Rank 0 reads standard input and shares it.
check 2040 sh -c "mpirun ${mpirun_args[*]} $bin xcover --mpi < $data/two-per-line-5.dlx"
json=$(timeout 300 mpirun "${mpirun_args[@]}" "$bin" xcover --mpi --json "$data/langford-11.dlx")
case "$json" in
    *'"solutions":35584,'*'"plan_subproblems":'*) echo "ok: xcover --json -> $json" ;;
    *) echo "FAILED: xcover --mpi --json printed '$json'" >&2; exit 1 ;;
esac
check 2040 mpirun -n 1 "$bin" xcover --mpi "$data/two-per-line-5.dlx"
# Bad input: rank 0 says why, once, and the job exits 2; no count is printed.
printf 'a b\nc\n' > "${TMPDIR:-/tmp}/mpi-bad.dlx"
if out=$(timeout 300 mpirun "${mpirun_args[@]}" "$bin" xcover --mpi "${TMPDIR:-/tmp}/mpi-bad.dlx" 2>&1 >/dev/null); then
    echo "FAILED: a bad input was counted" >&2
    exit 1
fi
case "$out" in
    *"line 2, column 1: unknown item 'c'"*"Exit code:    2"*) echo "ok: bad input refused by rank 0" ;;
    *) echo "FAILED: bad input: '$out'" >&2; exit 1 ;;
esac
[ "$(grep -c "unknown item" <<<"$out")" = 1 ] || { echo "FAILED: the error was printed more than once" >&2; exit 1; }
echo "== MPI checks passed"
