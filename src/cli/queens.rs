//! `backtrack queens` (being built).

use super::{CliError, CliResult};

/// Not available yet.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> CliResult {
    Err(CliError::Failure("`queens` is not available yet".into()))
}

/// Judge-exact solution of this module's BOJ problem.
pub fn boj(_input: &super::Input, _out: &mut dyn std::io::Write) -> Result<(), CliError> {
    Err(CliError::Failure("not available yet".into()))
}
