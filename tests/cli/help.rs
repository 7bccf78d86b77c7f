//! The help texts: a command line without its command prints the whole
//! `--help` text, and argument errors keep clap's words while cutting long
//! tokens short.

use super::util::run;

#[test]
fn a_command_line_without_its_command_prints_the_whole_help_on_standard_error() {
    for args in [&[][..], &["trace"], &["bench"]] {
        let (code, out, err) = run(args, "");
        let (help_code, help, _) = run(&[args, &["--help"]].concat(), "");
        assert_eq!((code, help_code), (2, 0), "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert_eq!(err, help, "{args:?}: the same text as --help, byte for byte");
    }
}

#[test]
fn argument_errors_cut_long_tokens_and_keep_the_rest_of_the_message() {
    let value = "it's a value with an apostrophe, longer than forty characters";
    let (code, out, err) = run(&["sudoku", "--format", value], "");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("error: invalid value 'it's a value with an apostrophe, longer ...' for '--format <FORMAT>'"),
        "{err}"
    );
    assert!(err.contains("[possible values: line, grid, spaced]") && err.contains("try '--help'"), "{err}");
}
