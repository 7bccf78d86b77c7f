//! Reading a checkpoint file with a bound on its size, and saving one atomically.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// What [`load_bounded`] found.
#[derive(Debug)]
pub enum Loaded {
    /// No file at the path: a run with nothing done yet.
    Missing,
    /// The file's bytes.
    Bytes(Vec<u8>),
    /// The file holds more than the bound: not a checkpoint.
    TooLarge,
}

/// Reads the file at `path`, up to `max` bytes.
pub fn load_bounded(path: &Path, max: u64) -> io::Result<Loaded> {
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Loaded::Missing),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Ok(Loaded::TooLarge);
    }
    Ok(Loaded::Bytes(bytes))
}

/// Writes `text` to `path` atomically: to a temporary file in the same
/// directory, flushed to disk, then renamed over the old one, so a crash at
/// any moment leaves the old file or the new one, whole.
pub fn save_atomic(path: &Path, text: &[u8]) -> io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.tmp{}", std::process::id()));
    let write = || -> io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // Make the rename itself durable (best effort: not every system
        // lets a directory be opened for syncing).
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })
}
