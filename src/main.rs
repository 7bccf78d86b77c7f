//! `backtrack`: the command-line front end of the `backtrack` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
