//! Every ```console block of README.md, run as it stands: each `$ backtrack ...` line runs the
//! binary from the repository root, and what it prints (standard output, then standard error,
//! as one stream) and its exit status (`? N` after the command, 0 when absent) must match. In the
//! expected text, `[..]` stands for the variable part of a line (a timing) and a line `...` for
//! any number of lines. No shell is involved: no pipes, redirections or `#` comments on a
//! command line. `TRYCMD=overwrite cargo test --profile checked --test cli readme` rewrites the blocks
//! from the actual output.

#[test]
fn readme_console_examples() {
    trycmd::TestCases::new().register_bin("backtrack", trycmd::cargo::cargo_bin!("backtrack")).case("README.md");
}
