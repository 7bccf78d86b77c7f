//! `backtrack bench` (being built).

use super::{CliError, CliResult};

/// Not available yet.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::Failure("`bench` is not available yet".into()))
}
