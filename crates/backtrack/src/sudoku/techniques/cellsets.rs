//! Sets of cells as 81-bit masks (bit `c` for cell `c`), for techniques
//! that intersect many peer sets.

/// The 20 peers of each cell (the cells sharing its box, row or column).
pub const PEERS: [u128; 81] = build_peers();

/// Every cell.
pub const GRID: u128 = (1 << 81) - 1;

const fn build_peers() -> [u128; 81] {
    let mut peers = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            if super::sees(a, b) {
                peers[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    peers
}

/// The peers of each cell in three parts, in the order the links list
/// them: its box, then its row outside the box, then its column outside
/// the box (cells increasing within each part, as in [`UNITS`](super::UNITS)).
pub const PEER_PARTS: [[u128; 3]; 81] = build_peer_parts();

const fn build_peer_parts() -> [[u128; 3]; 81] {
    let mut parts = [[0; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let [b, r, c] = super::units_of(cell);
        let own = super::UNIT_CELLS[b];
        parts[cell] = [own & !(1 << cell), super::UNIT_CELLS[r] & !own, super::UNIT_CELLS[c] & !own];
        cell += 1;
    }
    parts
}

/// The cells of a set, increasing.
pub fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let cell = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(cell)
    })
}
