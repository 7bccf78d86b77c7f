//! `backtrack choose` (being built).

use super::{CliError, CliResult};

/// Not available yet.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::Failure("`choose` is not available yet".into()))
}

/// Judge-exact solution of BOJ problem `id`.
pub fn boj(_id: u32, _input: &super::Input, _out: &mut dyn std::io::Write) -> Result<(), CliError> {
    Err(CliError::Failure("not available yet".into()))
}
