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

/// The help pages: every command path, from `backtrack` down, as its
/// `Commands:` lists them.
fn help_pages() -> Vec<Vec<String>> {
    let mut pages = vec![Vec::new()];
    let mut next = 0;
    while next < pages.len() {
        let page: Vec<String> = pages[next].clone();
        next += 1;
        let (_, help, _) = run(&[page.iter().map(String::as_str).collect::<Vec<_>>(), vec!["--help"]].concat(), "");
        let commands = help.lines().skip_while(|l| *l != "Commands:").skip(1).take_while(|l| !l.is_empty());
        for line in commands {
            let name = line.split_whitespace().next().unwrap_or("");
            if line.starts_with("  ") && !line.starts_with("   ") && name != "help" {
                pages.push([page.clone(), vec![name.to_string()]].concat());
            }
        }
    }
    pages
}

/// The examples of one help text: the lines under `Examples:`, each cut
/// into its command and what the help says it does (after two spaces).
fn examples(help: &str) -> Vec<(String, String)> {
    help.lines()
        .skip_while(|l| *l != "Examples:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|line| match line.trim().split_once("  ") {
            Some((command, said)) => (command.trim().to_string(), said.trim().to_string()),
            None => (line.trim().to_string(), String::new()),
        })
        .collect()
}

/// What each example of the help texts must do: its exit status, and a
/// piece of its standard output where the help shows one.
enum Expect {
    Status(i32, &'static str),
    /// Runs for long: stopped by Ctrl-C once it is running, it exits 130.
    Interrupted,
    /// Needs what these tests do not build (MPI), or serves until stopped.
    Skip(&'static str),
}

const EXPECTED: &[(&str, Expect)] = {
    use Expect::*;
    &[
        ("backtrack sudoku puzzles.txt", Status(0, "")),
        ("backtrack sudoku --count --limit 2 p.txt", Status(0, "1\n")),
        ("backtrack queens 12 --threads 2", Status(0, "14200\n")),
        ("backtrack choose perm 4 2", Status(0, "1 2\n1 3\n")),
        ("backtrack xcover pentomino-6x10.dlx", Status(0, "9356\n")),
        ("echo 8 | backtrack boj 9663", Status(0, "92\n")),
        ("backtrack trace queens 4 --order naive", Status(0, "summary: 2 solutions")),
        ("backtrack web", Skip("serves until stopped")),
        ("backtrack sudoku examples/sudoku.txt", Status(0, "123456789789123645")),
        ("backtrack sudoku --threads 2 puzzles.txt > out.txt", Status(0, "")),
        ("backtrack sudoku --count --limit 2 puzzles.txt", Status(0, "2+\n1\n")),
        ("backtrack sudoku --lexmin board.txt", Status(0, "")),
        ("backtrack sudoku --all board.txt | head", Status(0, "")),
        ("backtrack sudoku --json puzzles.txt", Status(0, "{")),
        ("backtrack sudoku --count --limit 2 killers.txt", Status(0, "1\n1\n1\n")),
        ("backtrack sudoku --candidates variant.txt", Status(0, "# 2+ solutions\n")),
        ("echo 1..4..1.2....3.. | backtrack sudoku --format grid", Status(0, "1234\n3412\n")),
        ("backtrack sudoku generate --count 5 --seed 1", Status(0, "")),
        ("backtrack sudoku generate --count 10 --seed 1", Status(0, "")),
        ("backtrack sudoku generate --symmetry rot180 --minimal", Status(0, "")),
        ("backtrack sudoku generate --size 16 --count 2", Status(0, "")),
        ("backtrack sudoku generate --rating 3.0..4.5 --count 5", Status(0, "")),
        ("backtrack sudoku generate --technique x-wing", Status(0, "")),
        ("backtrack sudoku rate puzzles.txt", Status(0, "4.2/1.2/1.2\n")),
        ("backtrack sudoku rate --json p.txt", Status(0, r#""er":4.2,"ep":1.2,"ed":1.2,"hardest":"XY-Wing","#)),
        ("backtrack sudoku explain puzzle.txt", Status(0, "Rating 4.2/1.2/1.2")),
        ("backtrack sudoku explain --json puzzles.txt", Status(0, r#""status":"explained","er":4.2"#)),
        ("backtrack sudoku hint board.txt", Status(0, "Hidden single")),
        ("backtrack sudoku hint --json board.txt", Status(0, r#""status":"hint","technique":"Hidden Single""#)),
        ("backtrack sudoku hint marks.txt", Status(0, "Hidden single: 9 is the only place for 9 in box 2: r1c6=9")),
        ("backtrack queens 8", Status(0, "92\n")),
        ("backtrack queens 8 --unique", Status(0, "12\n")),
        ("backtrack queens 6 --all", Status(0, "2 4 6 1 3 5\n")),
        ("backtrack queens 12 --threads 2 --json", Status(0, r#"{"n":12,"solutions":14200,"seconds":"#)),
        ("backtrack queens 20 --checkpoint q20.ckpt", Interrupted),
        ("backtrack queens 20 --shard 3/16 --json > s3.json", Interrupted),
        ("backtrack merge s*.json", Status(2, "")),
        ("mpirun -n 8 backtrack queens 20 --mpi", Skip("needs an MPI build and mpirun")),
        ("backtrack choose perm 4 2", Status(0, "")),
        ("backtrack choose comb 5 3", Status(0, "1 2 3\n1 2 4\n")),
        ("backtrack choose perm 3 2 --repeat", Status(0, "1 1\n1 2\n1 3\n2 1\n")),
        ("backtrack choose comb 3 2 --repeat", Status(0, "1 1\n1 2\n1 3\n2 2\n")),
        ("backtrack choose perm 2 --values 9 7 9 1", Status(0, "1 7\n")),
        ("backtrack choose comb 2 --values 9,7,9,1", Status(0, "1 7\n1 9\n7 9\n9 9\n")),
        ("backtrack choose comb 2 --values 9 7 9 1 --distinct", Status(0, "1 7\n1 9\n7 9\n")),
        ("backtrack choose comb 6 --values-from set.txt", Status(0, "1 2 3 4 5 6\n")),
        ("backtrack choose perm 12 12 --count", Status(0, "479001600\n")),
        ("backtrack sudominoku puzzles.txt", Status(0, "Puzzle 1\n")),
        ("backtrack sudominoku --lexmin puzzles.txt", Status(0, "Puzzle 1\n")),
        ("backtrack sudominoku --count --limit 2 p.txt", Status(0, "Puzzle 1: 1\n")),
        ("backtrack sudominoku --json < puzzles.txt", Status(0, "{")),
        ("backtrack xcover --threads 0 queens-13.dlx", Status(0, "73712\n")),
        ("backtrack xcover --all --limit 3 toy.dlx", Status(0, "q x:A\np r x:A y\n")),
        ("backtrack xcover --json puzzle.dlx", Status(0, r#""solutions":92"#)),
        ("backtrack xcover rooks.dlx", Status(0, "2040\n")),
        ("backtrack xcover --min-cost --all jobs.dlx", Status(0, "cost 637\nw1 j4 |405\n")),
        ("backtrack xcover --best 3 jobs.dlx", Status(0, "637\n724\n862\n")),
        ("backtrack xcover --stats toy.dlx", Status(0, "1\n")),
        ("backtrack xcover --print-options toy.dlx", Status(0, "2 4\n")),
        ("backtrack xcover --progress pentomino-6x10.dlx", Status(0, "9356\n")),
        ("backtrack xcover --checkpoint p.ckpt pentomino-6x10.dlx", Status(0, "9356\n")),
        ("backtrack xcover --shard 3/16 --json pentomino-6x10.dlx > s3.json", Status(0, "")),
        ("mpirun -n 8 backtrack xcover --mpi pentomino-6x10.dlx", Skip("needs an MPI build and mpirun")),
        ("printf '4 2\\n' | backtrack boj 15649", Status(0, "1 2\n1 3\n")),
        ("backtrack boj 2580 board.txt", Status(0, "")),
        ("printf '2\\n< >\\n' | backtrack boj 2529", Status(0, "897\n021\n")),
        ("backtrack judge 9663 -- ./queens", Status(0, "9663: AC")),
        ("backtrack judge 2580 --hard -- python3 sudoku.py", Status(0, "2580: AC")),
        ("backtrack judge 6603 --seed 7 --cases 50 -- ./lotto", Status(0, "6603: AC")),
        ("backtrack judge 15649 --json -- ./nm", Status(0, "15649: AC")),
        ("backtrack judge 2239 --save tests/", Status(0, "written to tests/")),
        ("backtrack judge 4574 --gen --seed 3", Status(0, "")),
        ("backtrack judge --gen 'sh gen.sh {seed}' --reference ./brute -- ./mine", Status(0, "stress: AC (100 of 100")),
        ("backtrack bench sudoku puzzles.txt", Status(0, r#"{"file":"puzzles.txt""#)),
        ("backtrack bench sudoku --first --repeat 5 puzzles.txt", Status(0, r#""mode":"first""#)),
        ("backtrack bench sudoku --threads 2 a.txt b.txt", Status(0, r#"{"file":"b.txt""#)),
        ("backtrack bench sudoku --threads 1 killers.txt", Status(0, r#""puzzles":3,"solved":3"#)),
        ("for i in 0 1 2 3; do backtrack queens 12 --shard $i/4 --json > s$i.json; done", Status(0, "")),
        ("backtrack merge s0.json s1.json s2.json s3.json", Status(0, "14200\n")),
        ("cat s*.json | backtrack merge", Status(0, "14200\n")),
        ("for i in 0 1 2; do backtrack xcover --shard $i/3 --json rooks.dlx > x$i.json; done", Status(0, "")),
        ("backtrack merge x0.json x1.json x2.json", Status(0, "2040\n")),
        ("backtrack merge --unique s*.json", Status(0, "1787\n")),
        ("backtrack merge --json s*.json", Status(0, r#""solutions":14200"#)),
        ("backtrack trace queens 8 --limit 30", Status(0, "summary: 92 solutions")),
        ("backtrack trace sudoku --order naive p.txt", Status(0, "summary: 1 solution;")),
        ("backtrack trace sudoku 1..4..1.2....3..", Status(0, "solution 1: 1234341221434321\n")),
        ("backtrack trace choose comb 4 2 --json", Status(0, r#"{"summary":"#)),
        (
            "backtrack trace boj 1987 letters.txt --order naive",
            Status(0, "  reject r1c1=A: A already passed at r1c1\n"),
        ),
        ("backtrack web --port 0", Skip("serves until stopped")),
    ]
};

const XY_WING: &str = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..";

/// The files the examples name, in `dir`, for the help page of `page`;
/// returns the name of the puzzle set it wrote (the same name, the same
/// files).
fn fixtures(dir: &std::path::Path, page: &[String]) -> &'static str {
    let repo = env!("CARGO_MANIFEST_DIR");
    let copy = |from: &str, to: &str| {
        std::fs::copy(format!("{repo}/{from}"), dir.join(to)).unwrap();
    };
    let write = |to: &str, text: &str| std::fs::write(dir.join(to), text).unwrap();
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    copy("examples/sudoku.txt", "examples/sudoku.txt");
    let puzzles = if page.first().is_some_and(|c| c == "sudominoku") {
        copy("tests/data/sudominoku/sample.in", "puzzles.txt");
        copy("tests/data/sudominoku/sample.in", "p.txt");
        "sudominoku"
    } else if page.len() == 2 && ["rate", "explain", "hint"].contains(&page[1].as_str()) {
        // The maker's pages rate puzzles with one solution.
        write("puzzles.txt", &format!("{XY_WING}\n"));
        write("p.txt", &format!("{XY_WING}\n"));
        "maker"
    } else if page.first().is_some_and(|c| c == "bench") {
        copy("tests/data/sudoku/serg_100.txt", "puzzles.txt");
        "bench"
    } else {
        copy("examples/sudoku.txt", "puzzles.txt");
        write("p.txt", &format!("{XY_WING}\n"));
        "sudoku"
    };
    // The same puzzle as nine lines of numbers, 0 for a blank (also `boj 2580`'s input).
    let spaced: String = XY_WING
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&c| if c == b'.' { "0".into() } else { char::from(c).to_string() })
                .collect::<Vec<String>>()
                .join(" ")
                + "\n"
        })
        .collect();
    write("board.txt", &spaced);
    write("puzzle.txt", &format!("{XY_WING}\n"));
    copy("tests/data/sudoku/serg_100.txt", "a.txt");
    copy("tests/data/sudoku/royle_17_clue_200.txt", "b.txt");
    copy("tests/data/xcover/pentomino-6x10.dlx", "pentomino-6x10.dlx");
    copy("tests/data/xcover/queens-13.dlx", "queens-13.dlx");
    copy("tests/data/xcover/toy-colors.dlx", "toy.dlx");
    copy("tests/data/xcover/queens-8.dlx", "puzzle.dlx");
    copy("tests/data/xcover/two-per-line-5.dlx", "rooks.dlx");
    copy("tests/data/xcover/assign-4.dlx", "jobs.dlx");
    write("set.txt", "1 2 3 4 5 6 7\n");
    write("letters.txt", "2 3\nABC\nDEF\n");
    copy("examples/variant.txt", "killers.txt");
    write("marks.txt", &format!("{}\n", super::maker::pencil_marks(XY_WING)));
    copy("examples/variant-candidates.txt", "variant.txt");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    // The learner's programs of the judge's examples: the tool's own answers.
    let program = |name: &str, id: &str| {
        write(name, &format!("#!/bin/sh\nexec backtrack boj {id}\n"));
        let mut permissions = std::fs::metadata(dir.join(name)).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(dir.join(name), permissions).unwrap();
    };
    program("queens", "9663");
    program("lotto", "6603");
    program("nm", "15649");
    // A stress test's generator, reference and program: one number, echoed.
    write("gen.sh", "echo \"$1\"\n");
    for name in ["brute", "mine"] {
        write(name, "#!/bin/sh\nexec cat\n");
        std::fs::set_permissions(dir.join(name), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    // `python3 sudoku.py`: a python3 of the test's own, first on the path.
    program("bin/python3", "2580");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("backtrack"), dir.join("bin/backtrack")).unwrap();
    puzzles
}

/// Waits until the process `pid` is `backtrack` (the shell has run it) and
/// catches Ctrl-C (Linux's `/proc` shows its handler), so SIGINT finds the
/// command running; where `/proc` cannot tell, waits a second.
fn wait_until_it_catches_ctrl_c(pid: u32) {
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(60) {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            std::thread::sleep(std::time::Duration::from_secs(1));
            return;
        };
        let field = |name: &str| status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim);
        let caught = field("SigCgt:").and_then(|mask| u64::from_str_radix(mask, 16).ok());
        // SIGINT is signal 2: bit 1 of the mask.
        if field("Name:") == Some("backtrack") && caught.is_some_and(|mask| mask & 2 != 0) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("process {pid} did not catch Ctrl-C within a minute");
}

/// Runs one example's command line in `dir` with the shell, `backtrack` on the path.
fn spawn_example(dir: &std::path::Path, command: &str) -> std::process::Child {
    let path = format!("{}:{}", dir.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let single = !command.contains('|') && !command.contains(';');
    let script = if single { format!("exec {command}") } else { command.to_string() };
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn every_example_of_every_help_text_runs_as_it_says() {
    let mut seen = Vec::new();
    // The command lines already run with the same files: a line that two
    // help pages show (pentomino-6x10 on two) is run once.
    let mut ran = std::collections::HashSet::new();
    for page in help_pages() {
        let args: Vec<&str> = page.iter().map(String::as_str).chain(["--help"]).collect();
        let (_, help, _) = run(&args, "");
        let dir = tempfile::tempdir().unwrap();
        let puzzles = fixtures(dir.path(), &page);
        for (command, said) in examples(&help) {
            let what = format!("`backtrack {}` example `{command}` ({said})", page.join(" "));
            let expect = EXPECTED.iter().find(|(c, _)| *c == command).map(|(_, e)| e);
            let expect = expect.unwrap_or_else(|| panic!("{what}: not in EXPECTED; add what it must do"));
            seen.push(command.clone());
            let (status, shown) = match expect {
                Expect::Skip(why) => {
                    super::skip::skip(&what, why, false);
                    continue;
                }
                Expect::Interrupted => (130, ""),
                Expect::Status(status, shown) => (*status, *shown),
            };
            if !ran.insert((puzzles, command.clone())) {
                continue;
            }
            let child = spawn_example(dir.path(), &command);
            if let Expect::Interrupted = expect {
                wait_until_it_catches_ctrl_c(child.id());
                let pid = child.id().to_string();
                assert!(std::process::Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
            }
            let output = child.wait_with_output().unwrap();
            let out = String::from_utf8_lossy(&output.stdout);
            let err = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(status), "{what}: {err}");
            assert!(out.contains(shown), "{what}: expected {shown:?} in {out}");
        }
    }
    for (command, _) in EXPECTED {
        assert!(seen.iter().any(|c| c == command), "`{command}` is in EXPECTED but in no help text");
    }
}
