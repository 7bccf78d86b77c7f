//! `backtrack queens N`: count or list the solutions of the N-queens puzzle,
//! on every core, resumable, and in pieces for a cluster.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use backtrack::queens::estimate::Forecast;
use backtrack::queens::{self, Checkpoint, CheckpointError, Plan, Report, Shard, WriteError, PLAN_VERSION};
use backtrack::search::{ThreadStartError, Threads};

use backtrack::error::Counted;

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
    backtrack queens 16 --threads 2 --json     the count as a JSON object, with timing\n  \
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
    let gpu = match args.gpu {
        true => Some(queens::gpu::Gpu::open().map_err(|e| CliError::Failure(e.to_string()))?),
        false => None,
    };
    let started = Instant::now();
    let in_shard = |i: usize| args.shard.is_none_or(|s| s.contains(i));
    let mut state = match &args.checkpoint {
        Some(path) => load_checkpoint(path, &plan, args.shard)?,
        None => Checkpoint::new(&plan, args.shard),
    };
    let covered = (0..plan.len()).filter(|&i| in_shard(i)).count() as u64;

    let control = super::interrupt_control();

    let mode = match (args.quiet || gpu.is_some(), args.progress) {
        (true, _) => ProgressMode::Quiet,
        (_, true) => ProgressMode::Forced,
        _ => ProgressMode::Auto,
    };
    let progress = Progress::new(&plan, |i| in_shard(i) && !state.is_done(i), threads, mode)?;
    let interval = Duration::from_secs_f64(args.checkpoint_interval);
    let mut last_save = Instant::now();
    let mut save_error: Option<CliError> = None;
    if let Some(path) = &args.checkpoint {
        // Write it at once, so that a refused or unwritable path shows up
        // before any work is done.
        save_checkpoint(&state, path)?;
    }
    // Fixed before the run starts: the subproblems finished earlier and
    // those of other shards.
    let skip: Vec<bool> = (0..plan.len()).map(|i| !in_shard(i) || state.is_done(i)).collect();
    let finished = |i, counts| {
        state.record(i, counts);
        progress.advance(i);
        if let Some(path) = &args.checkpoint {
            if last_save.elapsed() >= interval {
                if let Err(e) = save_checkpoint(&state, path) {
                    save_error.get_or_insert(e);
                    control.cancel();
                }
                last_save = Instant::now();
            }
        }
    };
    let gpu_error = match &gpu {
        Some(gpu) => {
            gpu.count_with(&plan, |i| skip[i], Some(&control), finished).err().map(|e| CliError::Failure(e.to_string()))
        }
        None => queens::count_with(&plan, threads, |i| skip[i], Some(&control), finished).err().map(CliError::from),
    };
    progress.finish();
    if let Some(path) = &args.checkpoint {
        save_checkpoint(&state, path)?;
    }
    if let Some(e) = save_error {
        return Err(e);
    }
    if let Some(e) = gpu_error {
        return Err(e);
    }
    if control.is_cancelled() {
        let finished = (0..plan.len()).filter(|&i| in_shard(i) && state.is_done(i)).count();
        let so_far = format!(
            "interrupted after {finished} of {}: {} so far (not a complete count)",
            Counted(covered as u128, "subproblem"),
            Counted(state.counts().total, "solution")
        );
        return Err(CliError::Interrupted(match &args.checkpoint {
            Some(path) => {
                format!("{so_far}; they are saved in {}: rerun the same command to resume", path.display())
            }
            None => so_far,
        }));
    }
    let report = Report {
        n: args.n,
        solutions: state.counts().total,
        unique: (args.unique || args.shard.is_some()).then_some(state.counts().unique),
        seconds: started.elapsed().as_secs_f64(),
        subproblems: covered,
        threads: if gpu.is_some() { 1 } else { threads.get() as u64 },
        shard: args.shard,
        plan_subproblems: plan.len() as u64,
        plan_depth: plan.depth() as u64,
        plan_version: PLAN_VERSION,
    };
    print_result(&report, args.unique, args.json)
}

/// Prints the count; the exit status is 1 when the board has no solution
/// (a shard's report is its result even when its share is 0).
fn print_result(report: &Report, unique: bool, json: bool) -> CliResult {
    let mut out = stdout();
    if json {
        let text = serde_json::to_string(report).map_err(|e| CliError::Failure(e.to_string()))?;
        writeln!(out, "{text}")?;
    } else if unique {
        writeln!(out, "{}", report.unique.unwrap_or_default())?;
    } else {
        writeln!(out, "{}", report.solutions)?;
    }
    out.flush()?;
    Ok(if report.solutions == 0 && report.shard.is_none() { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// A progress bar on standard error, on a terminal (or everywhere with
/// `--progress`), with an estimate from the first second of the run on, not
/// only once a subproblem ends: its position and time left come from a
/// [`Forecast`] (the subproblems' estimated work, [`queens::estimate`], and
/// the counting rate measured on a small board), redrawn by a timer, so that
/// they mean something even while the first, big subproblems are running.
struct Progress {
    shown: Option<Shown>,
}

/// The parts of a [`Progress`] that is shown.
struct Shown {
    bar: indicatif::ProgressBar,
    forecast: Arc<Mutex<Forecast>>,
    /// Tells the redrawing thread to stop.
    stop: mpsc::Sender<()>,
    redraw: Option<std::thread::JoinHandle<()>>,
}

/// Units of the bar: its length.
const PROGRESS_UNITS: u64 = 1_000_000;

impl Progress {
    fn new(
        plan: &Plan,
        todo: impl Fn(usize) -> bool,
        threads: Threads,
        mode: ProgressMode,
    ) -> Result<Self, ThreadStartError> {
        let terminal = io::stderr().is_terminal();
        let target = match mode {
            ProgressMode::Quiet => return Ok(Progress { shown: None }),
            // Smaller boards are counted within a second: not worth the calibration.
            ProgressMode::Auto if !terminal || plan.n() < 16 => return Ok(Progress { shown: None }),
            ProgressMode::Forced if !terminal => {
                indicatif::ProgressDrawTarget::term_like_with_hz(Box::new(LogLines::default()), 1)
            }
            _ => indicatif::ProgressDrawTarget::stderr(),
        };
        let rate = queens::estimate::calibrate()? * threads.get() as f64;
        let forecast = Arc::new(Mutex::new(Forecast::new(queens::estimate::weights(plan), todo, rate)));
        let started = Instant::now();
        let estimate = {
            let forecast = forecast.clone();
            move || lock(&forecast).at(started.elapsed().as_secs_f64())
        };
        // The words are worked out at each drawing, so the first line already
        // carries the estimate.
        let words = {
            let estimate = estimate.clone();
            move |_: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                let (fraction, left) = estimate();
                let _ = write!(
                    out,
                    "{:.1}% of the estimated work, about {} left (estimate)",
                    fraction * 100.0,
                    duration_words(left)
                );
            }
        };
        let bar =
            indicatif::ProgressBar::with_draw_target(Some(PROGRESS_UNITS), indicatif::ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {estimate}") {
            bar.set_style(style.with_key("estimate", words).progress_chars("=> "));
        }
        bar.set_draw_target(target);
        bar.tick();
        // Then a redraw every half second on a terminal, every ten seconds in a log.
        let every = Duration::from_millis(if terminal { 500 } else { 10_000 });
        let (stop, stopped) = mpsc::channel::<()>();
        let redraw = {
            let bar = bar.clone();
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || {
                    while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                        bar.set_position((estimate().0 * PROGRESS_UNITS as f64) as u64);
                    }
                })
                .ok()
        };
        Ok(Progress { shown: Some(Shown { bar, forecast, stop, redraw }) })
    }

    fn advance(&self, index: usize) {
        if let Some(shown) = &self.shown {
            lock(&shown.forecast).finished(index);
        }
    }

    fn finish(self) {
        if let Some(mut shown) = self.shown {
            let _ = shown.stop.send(());
            if let Some(redraw) = shown.redraw.take() {
                let _ = redraw.join();
            }
            shown.bar.finish_and_clear();
        }
    }
}

/// Whether to show the progress bar.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ProgressMode {
    /// Never (`--quiet`).
    Quiet,
    /// On a terminal only.
    Auto,
    /// Also when standard error is not a terminal (`--progress`).
    Forced,
}

fn lock(forecast: &Mutex<Forecast>) -> std::sync::MutexGuard<'_, Forecast> {
    forecast.lock().unwrap_or_else(|e| e.into_inner())
}

/// `seconds` in words a person reads at a glance: "45s", "12m 05s", "3h 20m", "4d 07h".
fn duration_words(seconds: f64) -> String {
    let s = seconds.clamp(0.0, 1e12).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        3600..=86_399 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

/// Where the bar goes when standard error is not a terminal: each drawing
/// as one line of its own, for a log, instead of redrawing in place.
#[derive(Debug, Default)]
struct LogLines {
    line: Mutex<String>,
}

impl indicatif::TermLike for LogLines {
    fn width(&self) -> u16 {
        100
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)?;
        self.flush()
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.line.lock().unwrap_or_else(|e| e.into_inner()).push_str(s);
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        let line = std::mem::take(&mut *self.line.lock().unwrap_or_else(|e| e.into_inner()));
        let line = line.trim_matches(|c: char| c == '\r' || c.is_whitespace());
        if line.is_empty() {
            return Ok(());
        }
        super::diag!("{line}");
        Ok(())
    }
}

/// Largest checkpoint file read back (a real one holds a few kilobytes).
const MAX_CHECKPOINT: u64 = super::MAX_WHOLE_INPUT;

/// Reads the checkpoint at `path` if it exists and belongs to this very run
/// (same board, plan and shard); a missing file starts afresh.
fn load_checkpoint(path: &Path, plan: &Plan, shard: Option<Shard>) -> Result<Checkpoint, CliError> {
    let name = path.display();
    let bytes = match super::read_file_capped(path, MAX_CHECKPOINT) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(Checkpoint::new(plan, shard)),
        Err(super::Capped::Io(e)) => return Err(CliError::Failure(format!("checkpoint {name}: cannot read: {e}"))),
        Err(super::Capped::TooLong) => {
            return Err(CliError::Input(format!(
                "checkpoint {name}: more than {} MiB, the most a checkpoint may hold: not a checkpoint",
                MAX_CHECKPOINT >> 20
            )))
        }
    };
    Checkpoint::from_json(&bytes, plan, shard).map_err(|e| match e {
        CheckpointError::Malformed { .. } => CliError::Input(format!("checkpoint {name}: {e}")),
        CheckpointError::Refused(_) => {
            CliError::Input(format!("checkpoint {name}: {e}; use another file or delete it"))
        }
    })
}

/// Writes the checkpoint atomically: a temporary file in the same
/// directory, flushed to disk, then renamed over the old one, so a crash at
/// any moment leaves either the old or the new checkpoint.
fn save_checkpoint(state: &Checkpoint, path: &Path) -> Result<(), CliError> {
    let text = state.to_json();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.tmp{}", std::process::id()));
    let write = || -> io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&text)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // Make the rename itself durable (best effort: not every system
        // lets a directory be opened for syncing).
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        CliError::Failure(format!("checkpoint {}: cannot save: {e}", path.display()))
    })
}

#[cfg(not(feature = "mpi"))]
fn mpi_run(_args: &Args) -> CliResult {
    Err(CliError::Input(
        "--mpi needs a backtrack built with MPI support: install OpenMPI and libclang \
         (e.g. apt-get install libopenmpi-dev openmpi-bin clang libclang-dev), then \
         cargo build --release --features mpi"
            .into(),
    ))
}

#[cfg(feature = "mpi")]
fn mpi_run(args: &Args) -> CliResult {
    mpi_master_worker::run(args)
}

/// Master/worker counting over MPI. Rank 0 owns the plan's queue: each worker
/// asks for work, gets one subproblem index at a time, and sends back its
/// counts with the next request, so fast and slow nodes balance themselves.
/// Every rank builds the same plan, so an index is all a message carries.
#[cfg(feature = "mpi")]
mod mpi_master_worker {
    use std::time::Instant;

    use backtrack::queens::{Counts, Plan};
    use mpi::traits::*;

    use super::{print_result, Args, Report, PLAN_VERSION};
    use crate::cli::{CliError, CliResult, EXIT_OK};

    /// Worker -> master: `[index or NONE, total low, total high, unique low, unique high]`.
    const RESULT_TAG: i32 = 1;
    /// Master -> worker: `[index]`, or `[NONE]` to stop.
    const WORK_TAG: i32 = 2;
    const NONE: u64 = u64::MAX;

    pub fn run(args: &Args) -> CliResult {
        let universe = mpi::initialize().ok_or_else(|| CliError::Failure("MPI was already initialised".into()))?;
        let world = universe.world();
        let rank = world.rank();
        let size = world.size();
        let plan = Plan::new(args.n as usize).map_err(|e| CliError::Input(e.to_string()))?;
        let threads = args.threads.unwrap_or_default();
        let started = Instant::now();
        if size == 1 {
            // Alone: count here, on this process's threads.
            let mut counts = Counts::default();
            backtrack::queens::count_with(&plan, threads, |_| false, None, |_, c| counts.add(c))?;
            return finish(args, &plan, counts, started, 1);
        }
        if rank != 0 {
            let master = world.process_at_rank(0);
            let mut message = [NONE, 0, 0, 0, 0];
            loop {
                master.send_with_tag(&message[..], RESULT_TAG);
                let mut work = [NONE];
                master.receive_into_with_tag(&mut work[..], WORK_TAG);
                let index = work[0];
                if index == NONE || index >= plan.len() as u64 {
                    return Ok(EXIT_OK);
                }
                let counts = plan.solve(index as usize);
                message = [
                    index,
                    counts.total as u64,
                    (counts.total >> 64) as u64,
                    counts.unique as u64,
                    (counts.unique >> 64) as u64,
                ];
            }
        }
        let mut next = 0usize;
        let mut stopped = 0;
        let mut counts = Counts::default();
        let mut received = 0usize;
        while stopped < size - 1 {
            let mut message = [0u64; 5];
            let status = world.any_process().receive_into_with_tag(&mut message[..], RESULT_TAG);
            if message[0] != NONE {
                received += 1;
                counts.add(Counts {
                    total: message[1] as u128 | (message[2] as u128) << 64,
                    unique: message[3] as u128 | (message[4] as u128) << 64,
                });
            }
            let worker = world.process_at_rank(status.source_rank());
            if next < plan.len() {
                worker.send_with_tag(&[next as u64][..], WORK_TAG);
                next += 1;
            } else {
                worker.send_with_tag(&[NONE][..], WORK_TAG);
                stopped += 1;
            }
        }
        if received != plan.len() {
            return Err(CliError::Failure(format!(
                "MPI run incomplete: {received} of {} subproblems reported",
                plan.len()
            )));
        }
        finish(args, &plan, counts, started, (size - 1) as u64)
    }

    fn finish(args: &Args, plan: &Plan, counts: Counts, started: Instant, workers: u64) -> CliResult {
        let report = Report {
            n: args.n,
            solutions: counts.total,
            unique: args.unique.then_some(counts.unique),
            seconds: started.elapsed().as_secs_f64(),
            subproblems: plan.len() as u64,
            threads: workers,
            shard: None,
            plan_subproblems: plan.len() as u64,
            plan_depth: plan.depth() as u64,
            plan_version: PLAN_VERSION,
        };
        print_result(&report, args.unique, args.json)
    }
}
