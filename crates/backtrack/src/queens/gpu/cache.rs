//! Compiled kernels kept on disk between runs.
//!
//! NVRTC takes a noticeable part of a short count's start-up to compile
//! the kernel (loading the compiler, then compiling), and the result only
//! depends on the source, the compiler options and the GPU's architecture.
//! So the machine code is written to a cache folder under a name made of
//! those three, and the next run on the same kind of GPU loads it instead
//! of compiling. A cached image that does not load (another driver, a
//! damaged file) is compiled again and replaced: the cache can make a
//! start faster, never a count different.
//!
//! The folder is `$BACKTRACK_GPU_CACHE` when that names one (`off` turns
//! the cache off), else `backtrack/gpu` under `$XDG_CACHE_HOME` or
//! `$HOME/.cache`.

use std::path::{Path, PathBuf};

/// Where the cache lives, from the environment as `lookup` gives it:
/// `None` when it is turned off or there is no home folder.
pub(crate) fn folder(lookup: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    match lookup("BACKTRACK_GPU_CACHE") {
        Some(value) if value == "off" || value.is_empty() => return None,
        Some(value) => return Some(PathBuf::from(value)),
        None => {}
    }
    let base = match lookup("XDG_CACHE_HOME").filter(|v| Path::new(v).is_absolute()) {
        Some(xdg) => PathBuf::from(xdg),
        None => PathBuf::from(lookup("HOME").filter(|v| !v.is_empty())?).join(".cache"),
    };
    Some(base.join("backtrack").join("gpu"))
}

/// FNV-1a over `bytes`, continuing from `hash`: a name for the inputs and
/// a check of the stored bytes, not a defence against forgery (whoever
/// can write the cache folder can run code as this user anyway).
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The file name of the image compiled from `source` with `options` for
/// `arch` (`sm_90`).
pub(crate) fn entry_name(source: &str, options: &[String], arch: &str) -> String {
    let mut hash = fnv1a(FNV_START, source.as_bytes());
    for option in options {
        // The length first, so that option boundaries are part of the name.
        hash = fnv1a(hash, &(option.len() as u64).to_le_bytes());
        hash = fnv1a(hash, option.as_bytes());
    }
    hash = fnv1a(hash, arch.as_bytes());
    format!("count_jobs-{arch}-{hash:016x}.cubin")
}

/// The stored image named `name` in `folder`, if it is there whole: the
/// file is the image's check (eight bytes) and then the image.
pub(crate) fn load(folder: &Path, name: &str) -> Option<Vec<u8>> {
    let bytes = std::fs::read(folder.join(name)).ok()?;
    let (check, image) = bytes.split_at_checked(8)?;
    let whole = !image.is_empty() && check == fnv1a(FNV_START, image).to_le_bytes();
    whole.then(|| image.to_vec())
}

/// Stores `image` as `name` in `folder`, whole or not at all (written
/// aside, then renamed), so that a run reading it at the same time never
/// sees half of it. A failure only means the next run compiles again.
pub(crate) fn store(folder: &Path, name: &str, image: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    let aside = folder.join(format!("{name}.{}.part", std::process::id()));
    let mut bytes = Vec::with_capacity(8 + image.len());
    bytes.extend_from_slice(&fnv1a(FNV_START, image).to_le_bytes());
    bytes.extend_from_slice(image);
    let written = std::fs::write(&aside, &bytes).and_then(|()| std::fs::rename(&aside, folder.join(name)));
    if written.is_err() {
        let _ = std::fs::remove_file(&aside);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_folder_follows_the_environment() {
        let home = [("HOME", "/home/q")];
        assert_eq!(folder(env(&home)), Some(PathBuf::from("/home/q/.cache/backtrack/gpu")));
        let xdg = [("HOME", "/home/q"), ("XDG_CACHE_HOME", "/var/c")];
        assert_eq!(folder(env(&xdg)), Some(PathBuf::from("/var/c/backtrack/gpu")));
        // A relative XDG_CACHE_HOME is invalid by its specification.
        let relative = [("HOME", "/home/q"), ("XDG_CACHE_HOME", "c")];
        assert_eq!(folder(env(&relative)), Some(PathBuf::from("/home/q/.cache/backtrack/gpu")));
        let chosen = [("HOME", "/home/q"), ("BACKTRACK_GPU_CACHE", "/tmp/k")];
        assert_eq!(folder(env(&chosen)), Some(PathBuf::from("/tmp/k")));
        assert_eq!(folder(env(&[("HOME", "/home/q"), ("BACKTRACK_GPU_CACHE", "off")])), None);
        assert_eq!(folder(env(&[])), None);
    }

    #[test]
    fn names_differ_with_source_options_and_architecture() {
        let options = vec!["-DQ_BLOCK=128".to_string(), "--std=c++17".to_string()];
        let name = entry_name("kernel", &options, "sm_90");
        assert!(name.starts_with("count_jobs-sm_90-") && name.ends_with(".cubin"), "{name}");
        assert_eq!(name, entry_name("kernel", &options, "sm_90"));
        assert_ne!(name, entry_name("kernel.", &options, "sm_90"));
        assert_ne!(name, entry_name("kernel", &options[..1], "sm_90"));
        assert_ne!(name, entry_name("kernel", &options, "sm_89"));
        let joined = vec!["-DQ_BLOCK=128--std=c++17".to_string()];
        assert_ne!(name, entry_name("kernel", &joined, "sm_90"));
    }

    #[test]
    fn a_stored_image_loads_back_and_a_damaged_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("a/b");
        let image: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert_eq!(load(&folder, "k.cubin"), None);
        store(&folder, "k.cubin", &image).unwrap();
        assert_eq!(load(&folder, "k.cubin"), Some(image.clone()));
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1, "nothing left aside");
        let path = folder.join("k.cubin");
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 1]).unwrap();
        assert_eq!(load(&folder, "k.cubin"), None, "a cut file");
        let mut flipped = whole.clone();
        flipped[100] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert_eq!(load(&folder, "k.cubin"), None, "a changed byte");
        std::fs::write(&path, &whole[..8]).unwrap();
        assert_eq!(load(&folder, "k.cubin"), None, "no image");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(load(&folder, "k.cubin"), None, "shorter than the check");
    }

    #[test]
    fn storing_where_no_folder_can_be_made_is_an_error_not_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, b"x").unwrap();
        assert!(store(&file.join("sub"), "k.cubin", b"image").is_err());
    }
}
