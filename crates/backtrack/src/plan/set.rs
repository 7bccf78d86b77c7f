//! The checks that shard reports form one complete set, and sums that refuse to overflow.

use std::fmt;

use super::Shard;

/// Why reports are not one complete set of shards; the message names the report at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetError(pub String);

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetError {}

/// Most shards a set may have.
const MAX_SHARDS: u64 = 1 << 24;

/// Checks that `shards` (each report's name and shard, if it has one) are
/// the shards `0..M` of one `M`, each exactly once; returns `M`. The
/// reports' other fields (what was counted, the plan) are the caller's to
/// compare.
pub fn check_shard_set(shards: &[(&str, Option<Shard>)]) -> Result<u64, SetError> {
    let mut present = Vec::with_capacity(shards.len());
    for &(name, shard) in shards {
        let Some(shard) = shard else {
            return Err(SetError(format!(
                "{name}: not a shard result (no \"shard\" field); produce one with --shard I/M --json"
            )));
        };
        if shard.count == 0 || shard.index >= shard.count {
            return Err(SetError(format!("{name}: corrupt: shard {}/{} does not exist", shard.index, shard.count)));
        }
        present.push((name, shard));
    }
    let Some(&(first_name, first)) = present.first() else {
        return Err(SetError("no shard reports to merge".to_string()));
    };
    for &(name, shard) in &present[1..] {
        if shard.count != first.count {
            return Err(SetError(format!(
                "{name}: shard count {} does not match {first_name}'s {}; these shards are not one set",
                shard.count, first.count
            )));
        }
    }
    let count = first.count;
    if count > MAX_SHARDS {
        return Err(SetError(format!("{first_name}: shard count {count} is too large")));
    }
    let mut seen: Vec<Option<&str>> = vec![None; count as usize];
    for &(name, shard) in &present {
        let slot = &mut seen[shard.index as usize];
        if let Some(other) = slot {
            return Err(SetError(format!("shard {}/{count} appears twice: in {other} and in {name}", shard.index)));
        }
        *slot = Some(name);
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| i.to_string()).take(20).collect();
    if !missing.is_empty() {
        let more = if missing.len() == 20 { ", ..." } else { "" };
        return Err(SetError(format!("incomplete set: shard(s) {}{more} of {count} missing", missing.join(", "))));
    }
    Ok(count)
}

/// The sum of `values`, refused (naming `what` is summed) when it passes
/// the largest count: a damaged report.
pub fn checked_sum<T: Copy + num_add::CheckedAdd>(
    values: impl IntoIterator<Item = T>,
    what: &str,
) -> Result<T, SetError> {
    let mut sum = T::ZERO;
    for value in values {
        sum = sum.checked_add(value).ok_or_else(|| {
            SetError(format!(
                "corrupt set: the {what} add up to more than the largest count ({}); a report is damaged",
                T::MAX_WORDS
            ))
        })?;
    }
    Ok(sum)
}

/// The unsigned integers [`checked_sum`] adds.
pub mod num_add {
    /// An unsigned integer with a checked addition.
    pub trait CheckedAdd: Sized {
        /// Zero.
        const ZERO: Self;
        /// The largest value, in words.
        const MAX_WORDS: &'static str;
        /// `self + other`, or `None` on overflow.
        fn checked_add(self, other: Self) -> Option<Self>;
    }

    macro_rules! checked_add {
        ($($t:ty: $bits:literal),*) => {$(
            impl CheckedAdd for $t {
                const ZERO: Self = 0;
                const MAX_WORDS: &'static str = concat!("2^", $bits, " - 1");
                fn checked_add(self, other: Self) -> Option<Self> {
                    <$t>::checked_add(self, other)
                }
            }
        )*};
    }
    checked_add!(u64: 64, u128: 128);
}
