//! Every command's JSON against its schema, `docs/json.md`: the tables of
//! that file are read here, and every line each command writes with
//! `--json` (on good, malformed, unsolvable and many-solution input) must
//! be an object of the kind documented for it, with each field of the
//! documented type, present when its row says, and no field the file does
//! not list. Every documented kind and status value must turn up.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::util::run;

const SCHEMA: &str = include_str!("../../docs/json.md");

const XY_WING: &str = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..";
const TWO_SOLUTIONS: &str = "...46.2.87..1.5....6.......3..5....78....3........7.13.1...2....4.7.1.5.2..39....";
const NO_SOLUTION: &str = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
const SUDOMINOKU: &str = include_str!("../data/sudominoku/sample.in");

/// One row of a kind's table.
#[derive(Debug)]
struct Field {
    name: String,
    ty: String,
    /// `None`: optional; `Some(empty)`: always; `Some(statuses)`: exactly for those.
    required_for: Option<BTreeSet<String>>,
}

/// A documented object kind: its fields, and its status values if it has a status.
#[derive(Debug, Default)]
struct Kind {
    fields: Vec<Field>,
    statuses: BTreeSet<String>,
}

/// The `snake_case` words quoted in backticks in `text`.
fn quoted_words(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        .map(str::to_string)
        .collect()
}

/// Every `### \`kind\`` section of the schema with its table.
fn kinds() -> BTreeMap<String, Kind> {
    let mut kinds: BTreeMap<String, Kind> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in SCHEMA.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            let name = heading.trim().trim_matches('`').to_string();
            kinds.insert(name.clone(), Kind::default());
            current = Some(name);
            continue;
        }
        if line.starts_with("## ") {
            current = None;
        }
        let Some(kind) = current.as_ref().and_then(|name| kinds.get_mut(name)) else { continue };
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 4 || !cells[0].starts_with('`') {
            continue;
        }
        let name = cells[0].trim_matches('`').to_string();
        let required_for = match cells[2] {
            "always" => Some(BTreeSet::new()),
            when if when.starts_with("status ") => Some(quoted_words(when)),
            _ => None,
        };
        if name == "status" {
            kind.statuses = quoted_words(cells[3]);
        }
        kind.fields.push(Field { name, ty: cells[1].to_string(), required_for });
    }
    kinds
}

/// What the checks met: kinds checked, and status values seen per kind.
#[derive(Default)]
struct Seen {
    kinds: BTreeSet<String>,
    statuses: BTreeMap<String, BTreeSet<String>>,
}

/// Whether `value` has type `ty` (`integer`, `string or null`, `array of step`, ...).
fn check_type(kinds: &BTreeMap<String, Kind>, ty: &str, value: &Value, seen: &mut Seen) -> Result<(), String> {
    if let Some(inner) = ty.strip_suffix(" or null") {
        return if value.is_null() { Ok(()) } else { check_type(kinds, inner, value, seen) };
    }
    if let Some(inner) = ty.strip_prefix("array of ") {
        let items = value.as_array().ok_or_else(|| format!("{value} is not an array"))?;
        return items.iter().try_for_each(|item| check_type(kinds, inner, item, seen));
    }
    let fits = match ty {
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        kind => return check_object(kinds, kind, value, seen),
    };
    if fits {
        Ok(())
    } else {
        Err(format!("{value} is not {ty}"))
    }
}

/// Whether `value` is an object of the documented `kind`.
fn check_object(kinds: &BTreeMap<String, Kind>, kind: &str, value: &Value, seen: &mut Seen) -> Result<(), String> {
    let doc = kinds.get(kind).ok_or_else(|| format!("no kind `{kind}` in docs/json.md"))?;
    let object = value.as_object().ok_or_else(|| format!("{value} is not an object"))?;
    for key in object.keys() {
        if !doc.fields.iter().any(|f| &f.name == key) {
            return Err(format!("`{key}` is not a field of `{kind}`"));
        }
    }
    let status = object.get("status").and_then(Value::as_str);
    if let Some(status) = status {
        if !doc.statuses.contains(status) {
            return Err(format!("status `{status}` is not one of `{kind}`'s: {:?}", doc.statuses));
        }
        seen.statuses.entry(kind.to_string()).or_default().insert(status.to_string());
    }
    for field in &doc.fields {
        let required = match &field.required_for {
            None => None,
            Some(statuses) if statuses.is_empty() => Some(true),
            Some(statuses) => Some(status.is_some_and(|s| statuses.contains(s))),
        };
        match (object.get(&field.name), required) {
            (None, Some(true)) => return Err(format!("`{}` is missing", field.name)),
            (Some(_), Some(false)) => return Err(format!("`{}` is there for status {status:?}", field.name)),
            (Some(v), _) => check_type(kinds, &field.ty, v, seen).map_err(|e| format!("`{}`: {e}", field.name))?,
            (None, _) => {}
        }
    }
    seen.kinds.insert(kind.to_string());
    Ok(())
}

/// Runs `backtrack ARGS` on `stdin`; every line it writes must be one of `kinds`.
fn check_command(schema: &BTreeMap<String, Kind>, seen: &mut Seen, args: &[&str], stdin: &str, allowed: &[&str]) {
    let (code, out, err) = run(args, stdin);
    assert!(!out.is_empty() && [0, 1, 2].contains(&code), "{args:?}: status {code}, {err}");
    for line in out.lines().filter(|l| !args.contains(&"judge") || l.starts_with('{')) {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {line}"));
        let errors: Vec<String> = allowed
            .iter()
            .filter_map(|kind| check_object(schema, kind, &value, seen).err().map(|e| format!("{kind}: {e}")))
            .collect();
        assert!(errors.len() < allowed.len(), "{args:?}: {line}\n{}", errors.join("\n"));
    }
}

#[test]
fn every_command_writes_the_json_docs_json_md_describes() {
    let schema = kinds();
    let mut seen = Seen::default();
    let sudoku_input = format!("{XY_WING}\n{NO_SOLUTION}\n{TWO_SOLUTIONS}\n12x\n");
    let sudoku_runs: [&[&str]; 6] = [
        &["sudoku", "--json"],
        &["sudoku", "--json", "--lexmin"],
        &["sudoku", "--json", "--count"],
        &["sudoku", "--json", "--count", "--limit", "1"],
        &["sudoku", "--json", "--all"],
        &["sudoku", "--json", "--threads", "2"],
    ];
    for args in sudoku_runs {
        check_command(&schema, &mut seen, args, &sudoku_input, &["sudoku"]);
    }
    check_command(&schema, &mut seen, &["sudoku", "--json", "--count", "--limit", "2"], &sudoku_input, &["sudoku"]);
    for command in ["rate", "explain", "hint"] {
        check_command(&schema, &mut seen, &["sudoku", command, "--json"], &sudoku_input, &[command]);
        // Not 9x9: invalid for the maker's commands.
        check_command(&schema, &mut seen, &["sudoku", command, "--json"], "1...\n....\n....\n....\n", &[command]);
    }
    let (_, solution, _) = run(&["sudoku"], &format!("{XY_WING}\n"));
    check_command(&schema, &mut seen, &["sudoku", "hint", "--json"], &solution, &["hint"]);

    let broken = "1\n7 E5 8 E6\nA1 B2 C3 D4 E1 F6 G7 H8 I9\n1\n7 E5 8 Z6\nA1 B2 C3 D4 E1 F6 G7 H8 I9\n0\n";
    let loose = "1\n6 B2 1 B3\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n0\n";
    check_command(&schema, &mut seen, &["sudominoku", "--json"], SUDOMINOKU, &["sudominoku"]);
    check_command(&schema, &mut seen, &["sudominoku", "--json"], broken, &["sudominoku"]);
    for limit in ["1", "2"] {
        check_command(
            &schema,
            &mut seen,
            &["sudominoku", "--json", "--count", "--limit", limit],
            loose,
            &["sudominoku"],
        );
    }
    check_command(&schema, &mut seen, &["sudominoku", "--json", "--count"], SUDOMINOKU, &["sudominoku"]);

    let toy = "tests/data/xcover/toy-colors.dlx";
    check_command(&schema, &mut seen, &["xcover", "--json", toy], "", &["xcover"]);
    check_command(&schema, &mut seen, &["xcover", "--json", "--all", "--limit", "1", toy], "", &["xcover"]);

    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("x.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    check_command(&schema, &mut seen, &["xcover", "--json", "--checkpoint", ckpt, toy], "", &["xcover-plan"]);
    let mut xshards = Vec::new();
    for i in 0..2 {
        let args = ["xcover", "--json", "--shard", &format!("{i}/2"), toy];
        check_command(&schema, &mut seen, &args, "", &["xcover-plan"]);
        let path = dir.path().join(format!("x{i}.json"));
        std::fs::write(&path, run(&args, "").1).unwrap();
        xshards.push(path.to_str().unwrap().to_string());
    }
    check_command(&schema, &mut seen, &["merge", "--json", &xshards[0], &xshards[1]], "", &["merge-xcover"]);

    check_command(&schema, &mut seen, &["queens", "8", "--json"], "", &["queens"]);
    check_command(&schema, &mut seen, &["queens", "3", "--json"], "", &["queens"]);
    let mut shards = Vec::new();
    for i in 0..2 {
        let shard = format!("{i}/2");
        let (_, report, _) = run(&["queens", "10", "--shard", &shard, "--json"], "");
        check_command(&schema, &mut seen, &["queens", "10", "--shard", &shard, "--json"], "", &["queens"]);
        let path = dir.path().join(format!("s{i}.json"));
        std::fs::write(&path, report).unwrap();
        shards.push(path.to_str().unwrap().to_string());
    }
    check_command(&schema, &mut seen, &["merge", "--json", &shards[0], &shards[1]], "", &["merge"]);

    let traces: [&[&str]; 3] = [
        &["trace", "queens", "4", "--json", "--limit", "20"],
        &["trace", "sudoku", "--json", "--order", "naive", "--limit", "5", XY_WING],
        &["trace", "choose", "comb", "3", "2", "--json"],
    ];
    for args in traces {
        check_command(&schema, &mut seen, args, "", &["trace-event", "trace-summary"]);
    }

    let bin = assert_cmd::cargo::cargo_bin("backtrack").display().to_string();
    check_command(
        &schema,
        &mut seen,
        &["judge", "9663", "--cases", "1", "--json", "--", &bin, "boj", "9663"],
        "",
        &["judge"],
    );
    let wrong =
        ["judge", "6603", "--cases", "1", "--json", "--", "awk", "-f", "examples/judge/lotto-no-blank-line.awk"];
    check_command(&schema, &mut seen, &wrong, "", &["judge"]);

    check_command(&schema, &mut seen, &["bench", "sudoku", "examples/sudoku.txt"], "", &["bench"]);

    // Every documented kind was met, and every status value.
    let documented: BTreeSet<String> = schema.keys().cloned().collect();
    assert_eq!(seen.kinds, documented, "kinds documented but never written");
    for (name, kind) in schema.iter().filter(|(_, kind)| !kind.statuses.is_empty()) {
        let met = seen.statuses.get(name).cloned().unwrap_or_default();
        let mut missing: BTreeSet<&String> = kind.statuses.difference(&met).collect();
        // No puzzle at hand needs a technique beyond the rater: `stuck` is never met here.
        if name == "hint" {
            missing.remove(&"stuck".to_string());
        }
        assert!(missing.is_empty(), "{name}: statuses never written: {missing:?}");
    }
}

/// The status table at the top of docs/json.md names exactly the values
/// the kinds use.
#[test]
fn the_status_vocabulary_is_one_list() {
    let table: BTreeSet<String> = SCHEMA
        .lines()
        .skip_while(|l| !l.starts_with("| status | meaning |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .flat_map(|l| quoted_words(l.split('|').nth(1).unwrap()))
        .collect();
    let used: BTreeSet<String> = kinds().into_values().flat_map(|k| k.statuses).collect();
    assert_eq!(table, used);
}

/// Every command whose help offers `--json` has its kind in docs/json.md.
#[test]
fn every_command_with_json_is_documented() {
    let (_, top, _) = run(&["--help"], "");
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.contains(&"sudoku") && commands.contains(&"trace"), "{top}");
    let schema = kinds();
    let mut with_json = Vec::new();
    for command in commands.iter().copied().chain(["rate", "explain", "hint"]) {
        let args: Vec<&str> = match command {
            "rate" | "explain" | "hint" => vec!["sudoku", command, "--help"],
            "bench" => vec!["bench", "sudoku", "--help"],
            "trace" => vec!["trace", "queens", "--help"],
            _ => vec![command, "--help"],
        };
        let (_, help, _) = run(&args, "");
        if help.contains("--json") || command == "bench" {
            with_json.push(command);
            let documented = schema.contains_key(command) || schema.contains_key(&format!("{command}-event"));
            assert!(documented, "`{command}` writes JSON but docs/json.md has no `### {command}` kind");
        }
    }
    assert!(with_json.len() >= 10, "{with_json:?}");
}
