// The N-queens counting kernel, compiled at run time by NVRTC.
//
// Each thread takes jobs (canonical prefixes, see jobs.rs) one at a time
// from a shared counter and walks every completion of its job depth first:
// bit masks for the attacks, an explicit stack in shared memory, no
// recursion. It writes the job's weighted total and its number of classes.
//
// The loop is shaped for the warp, whose 32 threads run one instruction
// stream: a thread whose job is done takes its next job inside the loop
// (so no thread waits for the longest job of its warp), and every turn
// first goes back to a row with columns left if the current row is
// exhausted and then tries the row's next column, with the going back
// written as selects, so that threads going back and threads going on run
// the same instructions. Measured on an H200 (N = 20), these two shapes
// took the count from 6.6 s to 4.2 s.
//
// The stack keeps only rows that have columns left to try, each with its
// attacks as they were (four words): going back is one load to the row to
// resume, however many exhausted rows lie between, where undoing queen by
// queen took a turn per row (a quarter of all turns) and 64-bit attack
// words. On an H100, N = 20: 4.2 s to 3.4 s. A leaf whose class may have
// another visited member (a tie) waits for the warp, which classifies its
// lanes' ties together, a lane per row ([2], [12]), instead of one lane
// running the comparison while 31 wait: 3.4 s to 3.3 s. The warp votes
// once every TURNS_PER_VOTE turns: 3.3 s to 3.1 s. The force row's test as
// selects, and the stack reached by 32-bit shared addresses kept in
// registers: on an H200, side by side, 3.00-3.03 s to 2.83-2.85 s. (Queens
// kept as bytes, so that 9 blocks fit a multiprocessor instead of 7, made
// it slower, 3.16-3.18 s against 3.04-3.08 s: the turn's instructions
// count, not the latency the other warps would hide.)
//
// emulate.rs runs this very loop on the CPU and is tested against the CPU
// counter; keep the two in step, line for line (the comments tagged [n] in
// both files mark the steps that correspond; there a lane classifies its
// own ties at once, to the same weights). The CPU test of this source runs
// it as one warp of 32 threads. The Q_* constants come from
// the host (jobs.rs), passed as -D options.

#if !defined(Q_BLOCK) || !defined(Q_MAX_PREFIX) || !defined(Q_JOB_BYTES) \
    || !defined(Q_HEAD_WORDS) || !defined(Q_HEAD_FORCE_ROW) || !defined(Q_HEAD_TOP)
#error "the host passes the Q_* constants"
#endif

typedef unsigned int u32;
typedef unsigned long long u64;

// The warp votes ([12]: its ties, whether any lane has work) once every
// this many turns, not every turn: the two votes cost more than a lane's
// wait of a few turns for its tie. On an H100, N = 20: 3.3-3.4 s voting
// every turn, 3.04-3.17 s every 16 (every 2, 4, 8 and 32 in between).
#define TURNS_PER_VOTE 16u

// The host C++ build of the tests declares the dynamic shared memory its own way.
#ifndef Q_DYNAMIC_SHARED
#define Q_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
#endif

// A row to come back to: the columns left to try on it and its attacks.
struct alignas(16) Resume {
    u32 a;
    u32 l;
    u32 d;
    u32 r;
};

// The turn's loads and stores of its thread's stack, by 32-bit addresses
// in the block's shared memory (PTX's shared window, taken once at the
// start). Through C++ pointers into the dynamic shared memory the compiler
// rebuilt the window's base at every turn (four instructions, one of them
// a slow special-register read): on an H200, N = 20 took 2.88-2.93 s that
// way and 2.83-2.85 s this way. `volatile` and the memory clobber keep
// them in order with each other and with the rare paths' C++ reads.
// The host C++ build of the tests names an ordinary array instead
// (Q_HOST_SHARED_MEMORY), which its addresses are offsets into.
#ifdef Q_HOST_SHARED_MEMORY
inline Resume load_entry(u32 at) { return *reinterpret_cast<const Resume*>(Q_HOST_SHARED_MEMORY + at); }
inline void store_entry(u32 at, Resume e) { *reinterpret_cast<Resume*>(Q_HOST_SHARED_MEMORY + at) = e; }
inline void store_queen(u32 at, u32 bit) { *reinterpret_cast<u32*>(Q_HOST_SHARED_MEMORY + at) = bit; }
#else
__device__ __forceinline__ Resume load_entry(u32 at) {
    Resume e;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(e.a), "=r"(e.l), "=r"(e.d), "=r"(e.r) : "r"(at) : "memory");
    return e;
}
__device__ __forceinline__ void store_entry(u32 at, Resume e) {
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(e.a), "r"(e.l), "r"(e.d), "r"(e.r) : "memory");
}
__device__ __forceinline__ void store_queen(u32 at, u32 bit) {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(at), "r"(bit) : "memory");
}
#endif

// One job: the attacks on row `start`, the columns of rows 0..start, which
// head (first rows' constraints) it belongs to, and whether the prefix
// already holds an edge queen that may tie (see jobs.rs, Job).
struct Job {
    u32 left;
    u32 down;
    u32 right;
    unsigned char head;
    unsigned char start;
    unsigned char prefix_tie;
    unsigned char pad;
    unsigned char cols[Q_MAX_PREFIX];
};
static_assert(sizeof(Job) == Q_JOB_BYTES, "Job layout differs from the host's");

// [1] Columns row `row` may take: free of attacks and of the head's
// forbidden columns; on the head's force row, one of the side columns
// still empty. The force row's test is written as selects: as a branch,
// taken by the warp whenever any of its lanes stood on its force row, it
// cost 3-4% (H200, N = 20: 3.06-3.10 s with the branch, 2.95-2.98 s without).
__device__ __forceinline__ u32 avail_at(const u32* h, u32 force, u32 mask, u32 side, u32 row, u32 l, u32 d, u32 r) {
    const u32 a = mask & ~(l | d | r | h[row]);
    const u32 missing = side & ~d;
    const u32 forced = missing == side ? 0u : (missing != 0 ? missing : 0xFFFFFFFFu);
    return row == force ? a & forced : a;
}

// [2] The slow path of a leaf whose class may have another visited member,
// taken by the whole warp at once for the tie of lane `t` (every lane
// calls it with the same `t`): lane i holds row i of the placement p (its
// column) and the inverse q (the row of column i), and each of the six
// images that can put their top queen in column `top` is compared with p
// row by row through warp votes. (Image 0, the mirror, puts it in column
// last - top.) A smaller image means another placement is the class's
// representative (weight 0); equal images give the class size. Run by one
// lane for its own tie, this cost a third of the count: the warp waited
// on a long serial path at nearly every twentieth turn.
__device__ __noinline__ u32 classify_tie(const Job* job, const u32* placed_of_t, u32 start, u32 n, u32 lastbit,
                                         unsigned char* inverse) {
    const u32 all = 0xFFFFFFFFu;
    const u32 lane = threadIdx.x & 31u;
    const u32 last = n - 1;
    const bool in = lane < n;
    u32 col = 0;
    if (in) {
        if (lane < start) col = job->cols[lane];
        else if (lane < last) col = (u32)(__ffs(placed_of_t[(lane - start) * Q_BLOCK]) - 1);
        else col = (u32)(__ffs(lastbit) - 1);
    }
    __syncwarp();
    if (in) inverse[col] = (unsigned char)lane;
    __syncwarp();
    const u32 inv = in ? inverse[lane] : 0;
    const u32 col_mirrored = __shfl_sync(all, col, (last - lane) & 31u);
    const u32 inv_mirrored = __shfl_sync(all, inv, (last - lane) & 31u);
    u32 stabilizer = 1;
    for (u32 g = 1; g < 7; g++) {
        u32 v;
        switch (g) {
            case 1: v = col_mirrored; break;
            case 2: v = last - col_mirrored; break;
            case 3: v = inv; break;
            case 4: v = last - inv; break;
            case 5: v = inv_mirrored; break;
            default: v = last - inv_mirrored; break;
        }
        const u32 differ = __ballot_sync(all, in && v != col);
        const u32 smaller = __ballot_sync(all, in && v < col);
        if (differ & 1u) continue;  // not a visited image
        if (differ == 0) {
            stabilizer++;
            continue;
        }
        if ((smaller >> (__ffs(differ) - 1)) & 1u) return 0;
    }
    return 8 / stabilizer;
}

// [3] Whether a full placement's class may have another visited member:
// rows start..n-2 on the stack, the last row's queen in `lastbit`, the top
// queen in column `top` (not a corner: corner classes all weigh the same).
// Only an edge queen at distance `top` from a corner can make a tie.
__device__ __forceinline__ bool may_tie(const u32* placed, u32 start, u32 n, u32 top, u32 side, bool prefix_tie,
                                        u32 lastbit) {
    u32 far = n - 1 - top;
    u32 edge = (1u << top) | (1u << far);
    return prefix_tie || (lastbit & edge) != 0
        || (top >= start && (placed[(top - start) * Q_BLOCK] & side) != 0)
        || (far >= start && (placed[(far - start) * Q_BLOCK] & side) != 0);
}

// [4] The kernel: `counts[2j]` and `counts[2j + 1]` receive job j's
// weighted total and classes. `next` must be 0 at launch. `rows` is the
// longest walk of a job (rows from its start to the second-to-last row);
// the launch gives each thread max(rows - 1, 1) Resume entries and
// max(rows, 4) words of dynamic shared memory (see stack_bytes in jobs.rs). The block is whole warps, and a thread
// stays in the loop until its whole warp is out of jobs (the warp
// classifies ties together).
extern "C" __global__ void __launch_bounds__(Q_BLOCK)
count_jobs(const Job* __restrict__ jobs, u32 job_count, const u32* __restrict__ heads, u32 n, u64* __restrict__ counts,
           u32* next, u32 rows) {
    Q_DYNAMIC_SHARED(stack_memory);
    __shared__ unsigned char inverse_memory[Q_BLOCK];
    const u32 all = 0xFFFFFFFFu;
    const u32 lane = threadIdx.x & 31u;
    const u32 resumes = rows > 1 ? rows - 1 : 1;
    // Entry k of this thread's resume stack lies entry0 + k * entry_row
    // bytes into the shared memory; the queen of row start + i is
    // placed[i * Q_BLOCK]; lane t's are at placed0 + t. The turn reaches
    // them by byte offsets from the shared memory's start (`at`, the
    // stack's top entry; `queen_at`, where row 0's queen would be), kept in
    // registers and moved by additions, instead of pointers whose addresses
    // the compiler rebuilt at every turn.
    const u32 entry_row = Q_BLOCK * sizeof(Resume);
    const u32 queen_row = Q_BLOCK * sizeof(u32);
    const u32 entry0 = __shfl_sync(all, threadIdx.x * (u32)sizeof(Resume), lane);
    const u32 queen0 = resumes * entry_row + threadIdx.x * sizeof(u32);
    const u32* placed = reinterpret_cast<const u32*>(stack_memory + queen0);
    const u32* placed0 = placed - lane;
    unsigned char* inverse = inverse_memory + (threadIdx.x - lane);
    // The board's columns, its side columns, `entry0` above and the shared
    // window below pass through the warp once: the compiler cannot work a
    // shuffle's result out again, so it keeps them in registers instead of
    // recomputing them from `n`, the thread index and the window at every
    // turn. (H200, N = 20: the offsets without the shuffles 3.24-3.28 s,
    // with them 3.04-3.06 s, the pointers 3.08-3.11 s.)
    const u32 mask = __shfl_sync(all, 0xFFFFFFFFu >> (32 - n), 0);
#ifdef Q_HOST_SHARED_MEMORY
    u32 shared_window = 0;
#else
    u32 shared_window;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(shared_window) : "l"(stack_memory));
#endif
    shared_window = __shfl_sync(all, shared_window, 0);
    const u32 side = __shfl_sync(all, 1u | (1u << (n - 1)), 0);
    const u32 last = n - 1;
    const u32 plain = n == 1 ? 1 : 8;
    // The current job and the walk's state: `a` the columns left to try on
    // `row`, the attacks on `row`, `at` the stack's top, the job's sums;
    // `tie` when the last leaf waits for [12], with its last row's queen in
    // `tie_bit`; `done` when no job is left.
    const Job* job = jobs;
    const u32* h = heads;
    u32 top = 0, force = 0, start = 0, row = 0, at = entry0, queen_at = 0, a = 0, d = 0, l = 0, r = 0, tie_bit = 0;
    bool prefix_tie = false, tie = false, done = false;
    u64 total = 0, unique = 0;
    // [3'] A solution whose last row's queen is `lastbit`: counted now,
    // or left to [12] when its class may have another visited member.
    auto solution = [&](u32 lastbit) {
        if (top != 0 && may_tie(placed, start, n, top, side, prefix_tie, lastbit)) {
            tie = true;
            tie_bit = lastbit;
        } else {
            total += top == 0 ? plain : 8;
            unique += 1;
        }
    };
    // [5] Take the next job, if any.
    u32 j = 0;
    auto begin = [&]() {
        j = atomicAdd(next, 1u);
        if (j >= job_count) {
            done = true;
            return;
        }
        job = jobs + j;
        h = heads + (u32)job->head * Q_HEAD_WORDS;
        top = h[Q_HEAD_TOP];
        force = h[Q_HEAD_FORCE_ROW];
        start = job->start;
        prefix_tie = job->prefix_tie != 0;
        total = 0;
        unique = 0;
        l = job->left;
        d = job->down;
        r = job->right;
        row = start;
        at = entry0;
        queen_at = queen0 - start * queen_row;
        a = avail_at(h, force, mask, side, row, l, d, r);
        if (row == last) {
            // [6] Only the last row is left.
            if (a != 0) solution(a);
            a = 0;
        }
    };
    begin();
    for (;;) {
        // [12] The warp classifies its lanes' ties, one after another, before
        // any job's sums go out; then it leaves once no lane has a job.
        for (u32 ties = __ballot_sync(all, tie); ties != 0; ties &= ties - 1) {
            const u32 t = (u32)(__ffs(ties) - 1);
            const Job* t_job = reinterpret_cast<const Job*>(__shfl_sync(all, reinterpret_cast<u64>(job), t));
            const u32 t_start = __shfl_sync(all, start, t);
            const u32 t_bit = __shfl_sync(all, tie_bit, t);
            const u32 w = classify_tie(t_job, placed0 + t, t_start, n, t_bit, inverse);
            if (lane == t) {
                total += w;
                unique += w != 0;
            }
        }
        tie = false;
        if (__all_sync(all, done)) return;
        // Then the turns until the next vote (a lane whose leaf waits for
        // [12] stands still until then).
        for (u32 turn = 0; turn < TURNS_PER_VOTE; turn++) {
            if (tie) continue;
            if (a == 0 && at == entry0) {
                if (!done) {
                    // [7] The job is done: its sums out, the next job in.
                    counts[2 * (u64)j] = total;
                    counts[2 * (u64)j + 1] = unique;
                    begin();
                }
            } else {
                // [8] Row exhausted: resume the nearest row with columns left
                // (as selects; the load is made either way, past the stack's
                // top when not going back, which the launch makes room for).
                const bool back = a == 0;
                const u32 k = at - (back ? entry_row : 0u);
                const Resume e = load_entry(shared_window + k);
                a = back ? e.a : a;
                l = back ? e.l : l;
                d = back ? e.d : d;
                r = back ? e.r : r;
                row = back ? (u32)__popc(d) : row;
                at = k;
                // [9] Place the lowest free column and look at the next row.
                const u32 bit = a & (0u - a);
                a ^= bit;
                const u32 nl = (l | bit) << 1;
                const u32 nd = d | bit;
                const u32 nr = (r | bit) >> 1;
                const u32 na = avail_at(h, force, mask, side, row + 1, nl, nd, nr);
                const bool alive = na != 0;
                const bool at_last = row + 1 == last;
                if (alive) store_queen(shared_window + queen_at + row * queen_row, bit);
                // [10] The last row has one free column: a solution.
                if (alive && at_last) solution(na);
                // [11] Down one row (as selects), keeping this row to come back
                // to if it has columns left.
                const bool down = alive && !at_last;
                if (down && a != 0) {
                    store_entry(shared_window + at, Resume{a, l, d, r});
                    at += entry_row;
                }
                l = down ? nl : l;
                d = down ? nd : d;
                r = down ? nr : r;
                a = down ? na : a;
                row += down ? 1u : 0u;
            }
        }
    }
}
