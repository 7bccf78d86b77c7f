//! The progress bar of a planned count (`queens`, `xcover --progress`).

use std::io::{self, IsTerminal};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use backtrack::plan::Forecast;

use super::CliError;

/// A progress bar on standard error, on a terminal (or everywhere with
/// `--progress`), with an estimate from the first second of the run on, not
/// only once a subproblem ends: its position and time left come from a
/// [`Forecast`] (the subproblems' estimated work and the counting rate), redrawn by a timer, so that
/// they mean something even while the first, big subproblems are running.
pub struct Progress {
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
    /// A bar for `mode`, shown on a terminal when the count is `worth` one,
    /// whose estimate is the `forecast` (worked out only for a bar shown).
    pub fn new(
        mode: ProgressMode,
        worth: bool,
        forecast: impl FnOnce() -> Result<Forecast, CliError>,
    ) -> Result<Self, CliError> {
        let terminal = io::stderr().is_terminal();
        let target = match mode {
            ProgressMode::Quiet => return Ok(Progress { shown: None }),
            ProgressMode::Auto if !terminal || !worth => return Ok(Progress { shown: None }),
            ProgressMode::Forced if !terminal => {
                indicatif::ProgressDrawTarget::term_like_with_hz(Box::new(LogLines::default()), 1)
            }
            _ => indicatif::ProgressDrawTarget::stderr(),
        };
        let forecast = Arc::new(Mutex::new(forecast()?));
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

    /// Records that subproblem `index` has finished.
    pub fn advance(&self, index: usize) {
        if let Some(shown) = &self.shown {
            lock(&shown.forecast).finished(index);
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
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
pub enum ProgressMode {
    /// Never (`--quiet`).
    Quiet,
    /// On a terminal only.
    Auto,
    /// Also when standard error is not a terminal (`--progress`).
    Forced,
}

impl ProgressMode {
    /// The mode `--quiet` and `--progress` ask for.
    pub fn new(quiet: bool, progress: bool) -> ProgressMode {
        match (quiet, progress) {
            (true, _) => ProgressMode::Quiet,
            (_, true) => ProgressMode::Forced,
            _ => ProgressMode::Auto,
        }
    }

    /// Whether a bar is shown in this mode, for a count shown by default
    /// when `by_default` (on a terminal).
    pub fn shown(self, by_default: bool) -> bool {
        match self {
            ProgressMode::Quiet => false,
            ProgressMode::Forced => true,
            ProgressMode::Auto => by_default && io::stderr().is_terminal(),
        }
    }
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
