//! `backtrack queens N`: count or list the solutions of the N-queens puzzle,
//! on every core, resumable, and in pieces for a cluster.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use backtrack::queens::estimate::Forecast;
use backtrack::queens::plan::{CheckpointSaving, Engine, Run, RunError};
use backtrack::queens::{self, Plan, Report, ReportFormat, Shard, WriteError};

use super::progress::{Progress, ProgressMode};
use super::{stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Count the solutions of the N-queens puzzle (or list them with --all).
///
/// Counts every way to place N queens on an N×N board with no two in the same row, column or
/// diagonal (OEIS A000170), using all cores. The search visits one solution per symmetry class
/// and weighs it by the class size; the work is cut into independent subproblems that can be
/// checkpointed, split into shards for a batch scheduler, or handed out over MPI.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    backtrack queens 8                         92\n  \
    backtrack queens 8 --unique                12 (distinct up to rotation and reflection)\n  \
    backtrack queens 6 --all                   every solution, one per line, 1-based columns\n  \
    backtrack queens 12 --threads 2 --json     the count as a JSON object, with timing\n  \
    backtrack queens 20 --checkpoint q20.ckpt  resumable: rerun the same command after a crash\n  \
    backtrack queens 20 --shard 3/16 --json > s3.json   one of 16 pieces (Slurm arrays, GNU parallel)\n  \
    backtrack merge s*.json                    add the pieces up\n  \
    mpirun -n 8 backtrack queens 20 --mpi      master/worker over MPI (build with --features mpi)")]
pub struct Args {
    /// Board size N, from 1 to 32.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=32))]
    pub n: u32,
    /// Print the number of solutions distinct up to rotation and reflection (OEIS A002562).
    #[arg(long)]
    pub unique: bool,
    /// Print every solution, one per line: the 1-based column of each row's queen, in lexicographic order.
    #[arg(long, conflicts_with_all = ["unique", "json", "checkpoint", "shard", "mpi"])]
    pub all: bool,
    /// Worker threads, 1 to 1024 (0 or absent: one per core).
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    pub threads: Option<backtrack::search::Threads>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Show the progress bar even when standard error is not a terminal: one line every ten
    /// seconds (the first at once), for a log. By default it is shown on a terminal only.
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// Print the result as one JSON object: n, solutions, seconds, subproblems, threads and the plan
    /// (plan_subproblems, plan_depth, plan_version); unique only with --unique or --shard, shard only with --shard.
    #[arg(long)]
    pub json: bool,
    /// Save finished subproblems to FILE every few seconds and on Ctrl-C; rerunning the same
    /// command resumes from it.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, requires = "checkpoint")]
    pub checkpoint_interval: f64,
    /// Count only shard I of M (0-based): subproblems I, I+M, I+2M, ... Combine the shards'
    /// --json outputs with `backtrack merge`.
    #[arg(long, value_name = "I/M", value_parser = clap::value_parser!(Shard))]
    pub shard: Option<Shard>,
    /// Count on an NVIDIA GPU: needs its driver, and NVRTC from the CUDA toolkit to compile the
    /// kernel at run time. The counts are the CPU's, subproblem for subproblem, so --checkpoint and
    /// --shard work the same; no progress bar. Without a GPU it says so and exits with status 3.
    #[arg(long, conflicts_with_all = ["all", "mpi", "threads"])]
    pub gpu: bool,
    /// Run as an MPI job: rank 0 hands subproblems out to the other ranks and prints the total
    /// (needs a binary built with `--features mpi`; start it with mpirun).
    #[arg(long, conflicts_with_all = ["checkpoint", "shard"])]
    pub mpi: bool,
}

pub fn run(args: Args) -> CliResult {
    let n = args.n as usize;
    let threads = args.threads.unwrap_or_default();
    if args.all {
        let mut out = stdout();
        let written = queens::par_write_solutions(n, threads, &mut out).map_err(|e| match e {
            WriteError::Size(e) => CliError::Input(e.to_string()),
            WriteError::Io(e) => CliError::from(e),
            WriteError::Threads(e) => CliError::from(e),
        })?;
        out.flush()?;
        return Ok(if written == 0 { EXIT_NO_SOLUTION } else { EXIT_OK });
    }
    if args.mpi {
        return mpi_run(&args);
    }
    if !(args.checkpoint_interval.is_finite() && args.checkpoint_interval >= 0.0) {
        return Err(CliError::Input(format!(
            "--checkpoint-interval must be a number of seconds >= 0, not {}",
            args.checkpoint_interval
        )));
    }
    let plan = Plan::new(n).map_err(|e| CliError::Input(e.to_string()))?;
    // Before any checkpoint is written: a missing GPU changes nothing.
    let gpu_error = |e: queens::gpu::GpuError| match e {
        queens::gpu::GpuError::Setting(_) => CliError::Input(e.to_string()),
        _ => CliError::Failure(e.to_string()),
    };
    let gpu = match args.gpu {
        true => Some(queens::gpu::Gpu::open().map_err(gpu_error)?),
        false => None,
    };
    // The GPU finishes opening while the count makes its first jobs; with a
    // checkpoint to write, it must be known to work first.
    if let (Some(gpu), Some(_)) = (&gpu, &args.checkpoint) {
        gpu.ready().map_err(gpu_error)?;
    }
    let saving = args.checkpoint.as_ref().map(|path| CheckpointSaving {
        path: path.clone(),
        interval: Duration::from_secs_f64(args.checkpoint_interval),
    });
    let run = Run::start(&plan, args.shard, saving).map_err(run_error)?;
    let mode = ProgressMode::new(args.quiet || gpu.is_some(), args.progress);
    // Smaller boards are counted within a second: not worth the calibration.
    let progress = Progress::new(mode, plan.n() >= 16, || {
        let rate = queens::estimate::calibrate()? * threads.get() as f64;
        Ok(Forecast::new(queens::estimate::weights(&plan), |i| run.is_pending(i), rate))
    })?;
    let engine = match &gpu {
        Some(gpu) => Engine::Gpu(gpu),
        None => Engine::Cpu { threads },
    };
    let counted = run.count(engine, &super::interrupt_control(), args.unique, |i| progress.advance(i));
    progress.finish();
    if let (Some(gpu), true) = (&gpu, args.progress) {
        super::diag!("backtrack: counted on {}", gpu.summary());
    }
    print_result(&counted.map_err(run_error)?, args.unique, args.json)
}

/// A run's error as the CLI reports it: a checkpoint that is not one (or
/// of another run) is bad input; a file that cannot be read or written, or
/// a failing GPU, a failure; Ctrl-C an interruption.
fn run_error(e: RunError) -> CliError {
    match e {
        RunError::TooLarge { .. } | RunError::Checkpoint { .. } => CliError::Input(e.to_string()),
        RunError::Read { .. } | RunError::Save { .. } | RunError::Engine(_) => CliError::Failure(e.to_string()),
        RunError::Threads(e) => CliError::from(e),
        RunError::Interrupted { .. } => CliError::Interrupted(e.to_string()),
    }
}

/// Prints the count; the exit status is 1 when the board has no solution
/// (a shard's report is its result even when its share is 0).
fn print_result(report: &Report, unique: bool, json: bool) -> CliResult {
    let mut out = stdout();
    out.write_all(report.render(ReportFormat::new(json, unique)).as_bytes())?;
    out.flush()?;
    Ok(if report.no_solution() { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// `--mpi`: rank 0 hands the plan's subproblems out to the other ranks and
/// prints the total; a job of one process counts alone, on its threads.
#[cfg(not(feature = "mpi"))]
fn mpi_run(_args: &Args) -> CliResult {
    Err(super::mpi::unavailable())
}

/// `--mpi`: rank 0 hands the plan's subproblems out to the other ranks and
/// prints the total; a job of one process counts alone, on its threads.
#[cfg(feature = "mpi")]
fn mpi_run(args: &Args) -> CliResult {
    let mpi = super::mpi::Mpi::init()?;
    let plan = Plan::new(args.n as usize).map_err(|e| CliError::Input(e.to_string()))?;
    let started = std::time::Instant::now();
    let (counts, workers) = if mpi.size() == 1 {
        let mut counts = queens::Counts::default();
        let threads = args.threads.unwrap_or_default();
        queens::count_with(&plan, threads, |_| false, None, |_, c| counts.add(c))?;
        (counts, 1)
    } else {
        match mpi.count(plan.id(), plan.len(), |i| plan.solve(i))? {
            Some(counts) => (counts, mpi.size() as u64 - 1),
            None => return Ok(EXIT_OK),
        }
    };
    let report = Report::new(&plan, None, counts, args.unique, started.elapsed().as_secs_f64(), workers);
    print_result(&report, args.unique, args.json)
}
