//! Counting on an NVIDIA GPU: the same symmetry-reduced count as
//! [`count_with`](super::count_with), subproblem for subproblem, so that
//! checkpoints and shards mean the same with or without a GPU.
//!
//! # How the work is cut
//!
//! The CPU extends each subproblem's prefix a few rows deeper, to a depth
//! chosen for the GPU (millions of jobs on the large boards, so that every
//! thread stays busy to the end), and writes each extension as a 32-byte
//! job: the attacks on its next row, its columns, and which head (the
//! first rows' symmetry constraints, one small table per board) it follows.
//! The jobs go to the GPU in batches of a few million, two batches out at
//! a time: while the GPU counts one batch the CPU makes the next and
//! queues it, so the GPU starts on it as the first batch's last, longest
//! jobs finish.
//!
//! # The kernel
//!
//! `kernel.cu`, compiled at run time by NVRTC for the GPU found, runs one
//! job per thread at a time, taking the next from a shared counter inside
//! its loop (so a thread never idles while the longest job of its warp
//! finishes): a depth-first walk with bit masks, no recursion. Each
//! thread's stack in shared memory holds only the rows it will come back
//! to (those with columns left), each with its attack words, and the
//! queen of every row; going back is one load, however many exhausted
//! rows lie between. Each turn of the loop goes back when the current row
//! is exhausted and then tries the row's next column, with the going back
//! and the step down written as selects, so that the threads of a warp
//! run the same instructions. The stack is sized at launch for the
//! board's longest walk, so smaller boards fit more blocks. The last row
//! is settled in place. At each solution the thread applies the leaf
//! checks of the CPU kernel: a corner class weighs 8; otherwise a class
//! weighs 8 unless another edge queen sits at the top queen's distance
//! from a corner, and then the placement is compared with its images.
//! Each job's weighted total and class count come back as two `u64`s and
//! are added up per subproblem in `u128` on the host.
//!
//! Knobs for measuring another GPU are read from the environment (see
//! `tuning.rs`: block and batch sizes, job depth, a kernel file), and
//! `queens --gpu --progress` prints the GPU, the kernel's registers and
//! the blocks per multiprocessor after the count.
//!
//! The kernel's loop also exists in Rust ([`emulate_with`]), step for step,
//! tested against the CPU counter: a change to the kernel is made in both.
//!
//! # Loading CUDA
//!
//! Nothing of CUDA is needed to build: with the `gpu` feature on Linux, the
//! driver (`libcuda.so.1`) and NVRTC (`libnvrtc.so`) are loaded when
//! [`Gpu::open`] is called, and their absence is an error, not a crash.
//!
//! # Starting fast
//!
//! A count of N = 20 takes about three seconds on a large GPU, and the
//! start used to add 0.3-0.4 s, one step after another: initialising the
//! driver (0.1 s), making the context (0.1 s), compiling the kernel
//! (0.04-0.18 s), making the first batch of jobs (0.1 s). Now
//! [`Gpu::open`] only loads the driver library; a thread of its own
//! initialises the driver and makes the context while NVRTC compiles the
//! kernel on another, and the count makes its first batch meanwhile
//! (`jobs.rs`). The compiled kernel is kept on disk for the next run
//! (`cache.rs`). What is left is the driver's: the thread's 0.2 s where
//! the first batch takes less, and 0.1 s at the end to tear the context
//! down and exit.

#[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
mod cache;
mod emulate;
mod jobs;
mod tuning;

#[cfg(all(feature = "gpu", unix))]
mod cuda;

use std::fmt;

use super::{Counts, Plan};
use crate::search::Control;

/// Jobs handed to the emulation at a time.
const EMULATED_BATCH: usize = 1 << 16;

/// Why the GPU cannot count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuError {
    /// No usable NVIDIA GPU: the driver library is missing, or it reports
    /// no device (the reason in words).
    NotFound(String),
    /// A GPU, but no NVRTC to compile the kernel with.
    NoCompiler(String),
    /// This build has no GPU support (built without the `gpu` feature, or
    /// not for Linux).
    NotBuilt,
    /// A `BACKTRACK_GPU_*` setting is not one (what is wrong with it).
    Setting(String),
    /// NVRTC refused the kernel (its log).
    Compile(String),
    /// A CUDA call failed.
    Cuda {
        /// The driver function.
        call: &'static str,
        /// Its error code.
        code: i32,
        /// The driver's words for it.
        message: String,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NotFound(why) => write!(f, "no GPU found: {why} (--gpu needs an NVIDIA GPU with its driver)"),
            GpuError::NoCompiler(why) => write!(
                f,
                "no GPU compiler found: {why} (--gpu compiles its kernel with NVRTC, part of the CUDA toolkit)"
            ),
            GpuError::NotBuilt => f.write_str(
                "no GPU found: this backtrack was built without GPU support (it needs Linux and the gpu feature)",
            ),
            GpuError::Setting(why) => f.write_str(why),
            GpuError::Compile(log) => write!(f, "NVRTC could not compile the GPU kernel: {log}"),
            GpuError::Cuda { call, code, message } => write!(f, "GPU error in {call} ({code}): {message}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// An NVIDIA GPU with the counting kernel loaded, or being loaded (see
/// [`Gpu::open`]).
pub struct Gpu {
    #[cfg(all(feature = "gpu", unix))]
    device: cuda::Device,
    #[cfg(not(all(feature = "gpu", unix)))]
    never: std::convert::Infallible,
}

impl fmt::Debug for Gpu {
    /// The name once the GPU is open (`None` while it is opening or when
    /// it failed to): formatting never waits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(all(feature = "gpu", unix))]
        return f.debug_struct("Gpu").field("name", &self.device.name_if_open()).finish();
        #[cfg(not(all(feature = "gpu", unix)))]
        {
            let _ = f;
            match self.never {}
        }
    }
}

impl Gpu {
    /// Loads the CUDA driver library and starts opening its first GPU on a
    /// thread of its own: initialising the driver, making the GPU's
    /// context, and compiling the kernel (NVRTC, or the kernel cache)
    /// meanwhile. The first count waits for it once it has its first jobs
    /// ready, so that the two overlap; [`Gpu::ready`] waits for it at once.
    ///
    /// A missing driver library and a bad `BACKTRACK_GPU_*` setting are
    /// errors here; a driver that sees no GPU, or a kernel that does not
    /// compile, are errors of [`Gpu::ready`] and of every count.
    pub fn open() -> Result<Gpu, GpuError> {
        #[cfg(all(feature = "gpu", unix))]
        return Ok(Gpu { device: cuda::Device::open()? });
        #[cfg(not(all(feature = "gpu", unix)))]
        Err(GpuError::NotBuilt)
    }

    /// Waits until the GPU is open and the kernel loaded, or says why it
    /// cannot be: for a caller that must know before it starts work of its
    /// own (a checkpoint file to write, say).
    pub fn ready(&self) -> Result<(), GpuError> {
        #[cfg(all(feature = "gpu", unix))]
        return self.device.ready();
        #[cfg(not(all(feature = "gpu", unix)))]
        match self.never {}
    }

    /// The GPU's name, as the driver gives it (waits for the opening).
    pub fn name(&self) -> Result<&str, GpuError> {
        #[cfg(all(feature = "gpu", unix))]
        return self.device.name();
        #[cfg(not(all(feature = "gpu", unix)))]
        match self.never {}
    }

    /// The GPU and its compiled kernel in one line (compute capability,
    /// registers, blocks per multiprocessor, batch size), for a log.
    pub fn summary(&self) -> String {
        #[cfg(all(feature = "gpu", unix))]
        return self.device.summary();
        #[cfg(not(all(feature = "gpu", unix)))]
        match self.never {}
    }

    /// Counts the subproblems of `plan` for which `skip` is false on the
    /// GPU, calling `done` with each finished subproblem's index and counts
    /// (the same as the CPU's), in plan order. After `control` is
    /// cancelled no new batch starts and unfinished subproblems are not
    /// reported.
    pub fn count_with(
        &self,
        plan: &Plan,
        skip: impl Fn(usize) -> bool,
        control: Option<&Control>,
        mut done: impl FnMut(usize, Counts),
    ) -> Result<(), GpuError> {
        #[cfg(all(feature = "gpu", unix))]
        {
            let heads = jobs::head_table(plan.n());
            let depth = jobs::job_depth(plan.n(), plan.depth(), self.device.job_depth());
            let make_runner = || self.device.runner(plan.n(), jobs::walk_rows(plan, depth), &heads);
            jobs::run_batches(make_runner, plan, depth, skip, control, self.device.batch(), &mut done)
        }
        #[cfg(not(all(feature = "gpu", unix)))]
        {
            let _ = (plan, skip, control, &mut done);
            match self.never {}
        }
    }
}

/// The GPU's count on the CPU: the same jobs, batches and per-thread loop
/// as [`Gpu::count_with`], run by a Rust copy of the kernel on every core.
/// It checks the kernel's logic where there is no GPU; it is slower than
/// [`count_with`](super::count_with).
pub fn emulate_with(
    plan: &Plan,
    skip: impl Fn(usize) -> bool,
    control: Option<&Control>,
    mut done: impl FnMut(usize, Counts),
) {
    emulate_batches(plan, skip, control, EMULATED_BATCH, &mut done);
}

fn emulate_batches(
    plan: &Plan,
    skip: impl Fn(usize) -> bool,
    control: Option<&Control>,
    batch: usize,
    done: &mut dyn FnMut(usize, Counts),
) {
    let heads = jobs::head_table(plan.n());
    let runner = emulate::Emulator { heads: &heads, n: plan.n() as u32, results: Default::default() };
    let depth = jobs::job_depth(plan.n(), plan.depth(), None);
    let Ok(()) = jobs::run_batches(|| Ok(runner), plan, depth, skip, control, batch, done);
}

/// The kernel's CUDA source.
#[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
const KERNEL_SOURCE: &str = include_str!("kernel.cu");

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subproblem of a shard reported once, in plan order, with the
    /// CPU kernel's counts, however the batches cut the subproblems' jobs.
    #[test]
    fn batches_report_each_subproblem_once_with_its_counts() {
        for (n, batch) in [(1, 3), (4, 1), (8, 7), (12, 1000), (13, 1 << 16)] {
            let plan = Plan::new(n).unwrap();
            let skip = |i: usize| i % 3 == 1;
            let mut seen = Vec::new();
            emulate_batches(&plan, skip, None, batch, &mut |i, c| seen.push((i, c)));
            let expected: Vec<(usize, Counts)> =
                (0..plan.len()).filter(|&i| !skip(i)).map(|i| (i, plan.solve_scalar(i, None).unwrap())).collect();
            assert_eq!(seen, expected, "n = {n}, batches of {batch}");
        }
    }

    #[test]
    fn a_cancelled_count_reports_nothing() {
        let plan = Plan::new(10).unwrap();
        let control = Control::new();
        control.cancel();
        let mut reported = 0;
        emulate_with(&plan, |_| false, Some(&control), |_, _| reported += 1);
        assert_eq!(reported, 0);
    }

    /// The runner is made once, after the first batch is ready, and not at
    /// all when there is nothing for it (a cancelled count, or subproblems
    /// settled without a job); an error making it is the count's error,
    /// with nothing reported.
    #[test]
    fn the_runner_is_made_once_and_only_when_there_are_jobs() {
        let made = std::cell::Cell::new(0);
        let count_with_runner = |n: usize, control: Option<&Control>, fail: bool| {
            let plan = Plan::new(n).unwrap();
            let heads = jobs::head_table(n);
            let depth = jobs::job_depth(n, plan.depth(), None);
            let mut reported = Vec::new();
            let make = || {
                made.set(made.get() + 1);
                match fail {
                    true => Err("no runner"),
                    false => Ok(Failing(emulate::Emulator { heads: &heads, n: n as u32, results: Default::default() })),
                }
            };
            let result =
                jobs::run_batches(make, &plan, depth, |_| false, control, 1000, &mut |i, c| reported.push((i, c)));
            (result, reported)
        };
        let (result, reported) = count_with_runner(10, None, false);
        assert_eq!((result, made.get()), (Ok(()), 1));
        assert_eq!(reported.iter().map(|(_, c)| c.total).sum::<u128>(), 724);
        made.set(0);
        let (result, reported) = count_with_runner(1, None, false);
        assert_eq!((result, made.get(), reported.len()), (Ok(()), 0, 1), "the one-square board has no job");
        let cancelled = Control::new();
        cancelled.cancel();
        let (result, reported) = count_with_runner(10, Some(&cancelled), false);
        assert_eq!((result, made.get(), reported.len()), (Ok(()), 0, 0));
        let (result, reported) = count_with_runner(10, None, true);
        assert_eq!((result, made.get(), reported.len()), (Err("no runner"), 1, 0));
    }

    /// The emulator with an error type that can be made.
    struct Failing<'h>(emulate::Emulator<'h>);

    impl jobs::Runner for Failing<'_> {
        type Error = &'static str;
        fn submit(&mut self, slot: usize, jobs: &[jobs::Job]) -> Result<(), &'static str> {
            let Ok(()) = self.0.submit(slot, jobs);
            Ok(())
        }
        fn collect(&mut self, slot: usize, out: &mut Vec<[u64; 2]>) -> Result<(), &'static str> {
            let Ok(()) = self.0.collect(slot, out);
            Ok(())
        }
    }

    #[test]
    fn the_kernel_source_uses_every_shared_constant() {
        for define in jobs::kernel_defines(tuning::DEFAULT_BLOCK) {
            let name = define.trim_start_matches("-D").split('=').next().unwrap();
            assert!(KERNEL_SOURCE.contains(name), "{name} is not used by kernel.cu");
        }
    }

    #[test]
    fn without_a_gpu_opening_one_is_an_error_not_a_crash() {
        // On a machine with an NVIDIA GPU this opens it; elsewhere it must
        // say why not.
        match Gpu::open().and_then(|gpu| gpu.ready().map(|()| gpu)) {
            Ok(gpu) => assert!(!gpu.name().unwrap().is_empty()),
            Err(e) => assert!(e.to_string().starts_with("no GPU"), "{e}"),
        }
    }
}
