//! `backtrack`: the command-line front end of the `backtrack` library.

// Standard output goes through `cli::stdout` (its errors reported, status 3)
// and standard error through `cli::diag!` (its errors ignored), never through
// the printing macros, which panic when a stream fails.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
