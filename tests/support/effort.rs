//! How hard a stress test tries: a few rounds by default, so that the suite
//! stays quick, and the long version with `BACKTRACK_LONG_TESTS=1` (for
//! example before a release, or to chase a rare failure).

/// Whether `BACKTRACK_LONG_TESTS` is set to `1` or `true`: the long versions run.
#[allow(dead_code)]
pub fn long() -> bool {
    std::env::var("BACKTRACK_LONG_TESTS").is_ok_and(|v| v == "1" || v == "true")
}

/// `quick` rounds by default, `long` when `BACKTRACK_LONG_TESTS` is set to
/// `1` or `true`.
#[allow(dead_code)]
pub fn rounds(quick: usize, long: usize) -> usize {
    if self::long() {
        long
    } else {
        quick
    }
}
