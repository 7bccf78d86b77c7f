#!/usr/bin/env bash
# Checks `backtrack queens N --gpu` on a machine with an NVIDIA GPU: the
# counts for N = 4..21 (total and distinct) against OEIS A000170 and
# A002562, the kernel cache (a kernel compiled, then read back, then a
# damaged entry compiled again), a table of times, shards and a
# checkpoint resumed after Ctrl-C.
# It needs only the built binary (the GPU's driver and NVRTC are loaded at
# run time), so it runs where there is no Rust toolchain.
#
#   scripts/gpu-check.sh PATH/TO/backtrack [SECONDS]
#
# SECONDS (default 450) bounds the whole run: each count is time-boxed, and
# N = 21 goes last with whatever time is left. When $OUT is set, the report
# is also written to $OUT/gpu-check.txt.
#
# Exit status: 0 all counts right; 1 a wrong count or a failed run; 2 the
# GPU could not be used (the message says why); 3 no count was wrong but
# some ran out of time.
set -u

bin=${1:?usage: scripts/gpu-check.sh PATH/TO/backtrack [SECONDS]}
budget=${2:-450}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
started=$(now_ms)
report=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say() { printf '%s\n' "$*" | tee -a "$report"; }
# Seconds since the start, with milliseconds; whole seconds of the budget left.
seconds_since() { local ms=$(($(now_ms) - $1)); printf '%d.%03d' $((ms / 1000)) $((ms % 1000)); }
left() { echo $((budget - ($(now_ms) - started) / 1000)); }
finish() {
    say "exit status $1 after $(seconds_since "$started") s"
    [ -n "${OUT:-}" ] && cp "$report" "$OUT/gpu-check.txt"
    exit "$1"
}

# OEIS A000170 and A002562 for N = 0..21 (index N).
total=(1 1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512 95815104 666090624
    4968057848 39029188884 314666222712)
unique=(1 1 0 0 1 2 1 6 12 46 92 341 1787 9233 45752 285053 1846955 11977939 83263591
    621012754 4878666808 39333324973)

say "== machine"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } 2>&1 | tee -a "$report"
{ ls -d /usr/local/cuda* 2>/dev/null; ldconfig -p 2>/dev/null | grep -E 'libcuda\.so|libnvrtc\.so' | head -6; } | tee -a "$report"
say "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) threads"
say "binary: $bin"

say "== first count (N=8)"
out=$("$bin" queens 8 --gpu 2>"$work/err"); status=$?
if [ "$status" -ne 0 ] && grep -q "no GPU compiler" "$work/err" && [ -d /usr/local/cuda/lib64 ]; then
    say "the program's own search missed NVRTC: $(cat "$work/err")"
    say "retrying with LD_LIBRARY_PATH=/usr/local/cuda/lib64"
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    out=$("$bin" queens 8 --gpu 2>"$work/err"); status=$?
fi
say "queens 8 --gpu: exit $status, printed '$out' $(cat "$work/err")"
[ "$status" -eq 0 ] || finish 2
out=$("$bin" queens 8 --gpu --unique 2>&1)
say "queens 8 --gpu --unique: '$out'"

wrong=0
slow=0

say "== kernel cache (N=10 four times: compiled, cached, a damaged entry compiled again, cached)"
cache="$work/cache"
# FNV-1a of a file's bytes as eight little-endian bytes: the check cache.rs
# puts before an image, so that a wrong image behind a right check can be
# stored, which only the driver can reject.
fnv_bytes() {
    local h=-3750763034362895579 b out=''
    for b in $(od -An -v -tu1 "$1"); do h=$(((h ^ b) * 1099511628211)); done
    for _ in 1 2 3 4 5 6 7 8; do out+=$(printf '\\x%02x' $((h & 255))); h=$((h >> 8 & 0x00ffffffffffffff)); done
    printf "$out"
}
for round in compiled cached damaged cached; do
    if [ "$round" = damaged ]; then
        printf 'not a kernel image' >"$work/junk"
        for entry in "$cache"/*.cubin; do { fnv_bytes "$work/junk"; cat "$work/junk"; } >"$entry"; done
    fi
    out=$(BACKTRACK_GPU_CACHE="$cache" "$bin" queens 10 --gpu --progress 2>"$work/err")
    origin=$(grep -o 'compiled by NVRTC [0-9.]*\|read from the cache' "$work/err" | head -1)
    opened=$(grep -o 'opened in [^)]*)' "$work/err" | head -1)
    expect=$([ "$round" = cached ] && echo "read from the cache" || echo "compiled by NVRTC")
    if [ "$out" = "${total[10]}" ] && [ "${origin#"$expect"}" != "$origin" ]; then ok=ok; else ok=WRONG; wrong=1; fi
    say "$round: printed $out, kernel $origin, $opened: $ok"
    [ "$ok" = ok ] || say "   $(head -c 400 "$work/err")"
done
# One count: N, time limit, extra arguments. Prints a table row.
count() {
    local n=$1 limit=$2
    shift 2
    if [ "$limit" -lt 5 ]; then
        say "$(printf '%3s %16s %16s %14s %14s  %-8s %8s' "$n" - "${total[$n]}" - "${unique[$n]}" "no time" -)"
        slow=1
        return
    fi
    local t0 json status solutions distinct seconds ok
    t0=$(now_ms)
    json=$(timeout --signal=INT --kill-after=10 "$limit" "$bin" queens "$n" --gpu --unique --json "$@" 2>"$work/err")
    status=$?
    local wall
    wall=$(seconds_since "$t0")
    solutions=$(sed -n 's/.*"solutions":\([0-9]*\).*/\1/p' <<<"$json")
    distinct=$(sed -n 's/.*"unique":\([0-9]*\).*/\1/p' <<<"$json")
    seconds=$(sed -n 's/.*"seconds":\([0-9.e-]*\).*/\1/p' <<<"$json" | cut -c1-7)
    if [ "$status" -eq 130 ] || [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        ok="timeout"
        slow=1
    elif [ "$status" -eq 0 ] && [ "$solutions" = "${total[$n]}" ] && [ "$distinct" = "${unique[$n]}" ]; then
        ok="ok"
    else
        ok="WRONG"
        wrong=1
        say "   exit $status: $(head -c 400 "$work/err")"
    fi
    say "$(printf '%3s %16s %16s %14s %14s  %-8s %8s %8s' "$n" "${solutions:--}" "${total[$n]}" "${distinct:--}" \
        "${unique[$n]}" "$ok" "${seconds:--}" "$wall")"
}

say "== counts on the GPU (seconds: the program's own count time; wall: with start-up and kernel compile)"
say "$(printf '%3s %16s %16s %14s %14s  %-8s %8s %8s' N solutions expected unique expected ok seconds wall)"
for n in $(seq 4 20); do
    case $n in
        19) cap=90 ;;
        20) cap=120 ;;
        *) cap=60 ;;
    esac
    l=$(left)
    count "$n" "$((l < cap ? l : cap))"
done

say "== shards of N=16 (3 pieces, merged)"
for i in 0 1 2; do
    "$bin" queens 16 --gpu --shard "$i/3" --json >"$work/s$i.json" 2>>"$work/err"
done
merged=$("$bin" merge "$work"/s0.json "$work"/s1.json "$work"/s2.json 2>&1)
if [ "$merged" = "${total[16]}" ]; then say "merged: $merged ok"; else say "merged: $merged WRONG"; wrong=1; fi

say "== checkpoint of N=20: interrupted after 2 s, then resumed"
ckpt="$work/q20.ckpt"
timeout --signal=INT --kill-after=10 2 "$bin" queens 20 --gpu --checkpoint "$ckpt" --checkpoint-interval 0.2 \
    >/dev/null 2>"$work/err"
say "interrupted: exit $? ($(head -c 300 "$work/err"))"
resumed=$(timeout --kill-after=10 120 "$bin" queens 20 --gpu --checkpoint "$ckpt" 2>&1)
if [ "$resumed" = "${total[20]}" ]; then say "resumed: $resumed ok"; else say "resumed: $resumed WRONG"; wrong=1; fi

say "== the CPU on this machine, for comparison"
for n in 17 18; do
    say "queens $n --json (CPU): $(timeout 60 "$bin" queens "$n" --json 2>&1)"
done

say "== N=21 on the GPU, with the time left"
count 21 "$(left)"

if [ "$wrong" -ne 0 ]; then finish 1; fi
if [ "$slow" -ne 0 ]; then finish 3; fi
finish 0
