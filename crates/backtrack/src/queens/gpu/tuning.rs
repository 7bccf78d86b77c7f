//! The knobs of a GPU count, read from the environment: for measuring
//! another block size, batch size or a changed kernel on a GPU machine
//! that has no Rust toolchain. None of them changes a count; the defaults
//! are the ones measured best.
//!
//! - `BACKTRACK_GPU_BLOCK`: threads per block, a multiple of 32 up to
//!   [`MAX_BLOCK`] (each thread owns a column of the block's shared stack).
//! - `BACKTRACK_GPU_BATCH`: jobs per batch, at least 1024.
//! - `BACKTRACK_GPU_KERNEL`: a file to compile instead of the built-in
//!   `kernel.cu` (same entry point, same job and head layouts).
//! - `BACKTRACK_GPU_JOB_DEPTH`: rows each job fixes, from 1 to
//!   [`MAX_PREFIX`] (see [`job_depth`](super::jobs::job_depth), which keeps
//!   it within the board's bounds).
//! - `BACKTRACK_GPU_CACHE`: the folder of compiled kernels kept between
//!   runs, or `off` (see cache.rs; by default `backtrack/gpu` in the
//!   user's cache folder).

use std::ops::RangeInclusive;
use std::path::PathBuf;

use super::jobs::{stack_bytes, MAX_PREFIX, STACK_ROWS};
use super::GpuError;

/// Threads per block by default.
pub(crate) const DEFAULT_BLOCK: usize = 128;

/// Most threads per block: the longest walks' shared stacks must fit the
/// 48 KiB a block may use without asking for more.
pub(crate) const MAX_BLOCK: usize = 48 * 1024 / stack_bytes(STACK_ROWS) / 32 * 32;

/// Jobs per batch by default: 64 MiB of jobs and 32 MiB of counts on the
/// GPU for each of the two batches out at a time, a fraction of a second
/// to a few seconds of work on the large boards.
pub(crate) const DEFAULT_BATCH: usize = 1 << 21;

/// The settings of one GPU count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// Threads per block.
    pub block: usize,
    /// Jobs per batch.
    pub batch: usize,
    /// The kernel source to compile instead of the built-in one: its
    /// file and text.
    pub kernel: Option<(PathBuf, String)>,
    /// Rows each job fixes, instead of the table's.
    pub job_depth: Option<usize>,
    /// The folder of compiled kernels, if any (see cache.rs).
    pub cache: Option<PathBuf>,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { block: DEFAULT_BLOCK, batch: DEFAULT_BATCH, kernel: None, job_depth: None, cache: None }
    }
}

impl Tuning {
    /// The defaults, changed by whichever variables are set.
    #[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
    pub(crate) fn from_env() -> Result<Tuning, GpuError> {
        Tuning::from_lookup(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
    }

    fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Tuning, GpuError> {
        let mut tuning = Tuning::default();
        let number = |name: &str, text: &str| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| GpuError::Setting(format!("{name} must be a number, not {text:?}")))
        };
        if let Some(text) = lookup("BACKTRACK_GPU_BLOCK") {
            let block = number("BACKTRACK_GPU_BLOCK", &text)?;
            if block == 0 || block % 32 != 0 || block > MAX_BLOCK {
                return Err(GpuError::Setting(format!(
                    "BACKTRACK_GPU_BLOCK must be a multiple of 32 from 32 to {MAX_BLOCK}, not {block}"
                )));
            }
            tuning.block = block;
        }
        let ranged = |name: &str, text: &str, range: RangeInclusive<usize>| {
            let value = number(name, text)?;
            match range.contains(&value) {
                true => Ok(value),
                false => Err(GpuError::Setting(format!(
                    "{name} must be from {} to {}, not {value}",
                    range.start(),
                    range.end()
                ))),
            }
        };
        if let Some(text) = lookup("BACKTRACK_GPU_BATCH") {
            tuning.batch = ranged("BACKTRACK_GPU_BATCH", &text, 1024..=1 << 26)?;
        }
        if let Some(text) = lookup("BACKTRACK_GPU_JOB_DEPTH") {
            tuning.job_depth = Some(ranged("BACKTRACK_GPU_JOB_DEPTH", &text, 1..=MAX_PREFIX)?);
        }
        if let Some(path) = lookup("BACKTRACK_GPU_KERNEL").filter(|path| !path.is_empty()).map(PathBuf::from) {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| GpuError::Setting(format!("BACKTRACK_GPU_KERNEL: cannot read {}: {e}", path.display())))?;
            tuning.kernel = Some((path, text));
        }
        tuning.cache = super::cache::folder(&lookup);
        Ok(tuning)
    }

    /// The kernel's source: the built-in one or the file named.
    #[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
    pub(crate) fn source(&self) -> &str {
        match &self.kernel {
            None => super::KERNEL_SOURCE,
            Some((_, text)) => text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuning(vars: &[(&str, &str)]) -> Result<Tuning, GpuError> {
        Tuning::from_lookup(|name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn unset_variables_leave_the_defaults() {
        assert_eq!(tuning(&[]).unwrap(), Tuning::default());
    }

    #[test]
    fn set_variables_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("k.cu");
        std::fs::write(&file, "// a kernel").unwrap();
        let t = tuning(&[
            ("BACKTRACK_GPU_BLOCK", "96"),
            ("BACKTRACK_GPU_BATCH", "4096"),
            ("BACKTRACK_GPU_KERNEL", file.to_str().unwrap()),
            ("BACKTRACK_GPU_JOB_DEPTH", "6"),
        ])
        .unwrap();
        assert_eq!((t.block, t.batch, t.job_depth), (96, 4096, Some(6)));
        assert_eq!(t.kernel, Some((file, "// a kernel".to_string())));
        assert_eq!(t.source(), "// a kernel");
        let cache = tuning(&[("HOME", "/home/q")]).unwrap().cache;
        assert_eq!(cache, Some(PathBuf::from("/home/q/.cache/backtrack/gpu")));
        assert_eq!(tuning(&[("HOME", "/home/q"), ("BACKTRACK_GPU_CACHE", "off")]).unwrap().cache, None);
        for (name, bad) in [
            ("BACKTRACK_GPU_BLOCK", "100"),
            ("BACKTRACK_GPU_BLOCK", "0"),
            ("BACKTRACK_GPU_BLOCK", "4096"),
            ("BACKTRACK_GPU_BLOCK", "many"),
            ("BACKTRACK_GPU_BATCH", "10"),
            ("BACKTRACK_GPU_JOB_DEPTH", "0"),
            ("BACKTRACK_GPU_JOB_DEPTH", "99"),
            ("BACKTRACK_GPU_JOB_DEPTH", "deep"),
        ] {
            let e = tuning(&[(name, bad)]).unwrap_err();
            assert!(matches!(&e, GpuError::Setting(text) if text.starts_with(name)), "{name}={bad}: {e}");
        }
    }

    #[test]
    fn a_missing_kernel_file_is_an_error() {
        let e = tuning(&[("BACKTRACK_GPU_KERNEL", "/nonexistent/kernel.cu")]).unwrap_err();
        assert!(matches!(&e, GpuError::Setting(text) if text.starts_with("BACKTRACK_GPU_KERNEL")), "{e}");
        assert!(Tuning::default().source().contains("count_jobs"));
    }
}
