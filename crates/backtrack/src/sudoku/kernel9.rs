//! The fast 9x9 kernel (being built).
