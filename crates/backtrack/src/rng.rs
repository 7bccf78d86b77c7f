//! The library's one seeded random number generator (SplitMix64), for the
//! puzzle generator, the judges' test cases, the restarts and estimates of
//! the searches, and the tests: the same seed gives the same stream on
//! every platform, so the same `--seed` gives the same puzzles.

/// SplitMix64: a 64-bit state advanced by a constant, then mixed. Fast, and
/// good enough to shuffle cells and digits; not for cryptography.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator for stream `index` of `seed`: streams of one seed are
    /// independent, so work items can be generated in any order.
    pub fn stream(seed: u64, index: u64) -> Rng {
        let mut base = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mixed = base.next_u64() ^ index;
        Rng::new(mixed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`0 < bound < 2³²`), by multiply-shift.
    pub fn below(&mut self, bound: usize) -> usize {
        (((self.next_u64() >> 32) * bound as u64) >> 32) as usize
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 10];
        for _ in 0..10_000 {
            seen[rng.below(10)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|i| Rng::stream(1, i).next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|i| Rng::stream(1, i).next_u64()).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
    }
}
