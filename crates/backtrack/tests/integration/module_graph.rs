//! The modules of the library and of the command line depend on each other
//! without a cycle: a module's `use crate::`, `super::` and `self::` paths
//! (outside comments and `#[cfg(test)]` items) name the modules it builds
//! on, and no chain of those names leads back to where it started. Edges
//! between a module and its own ancestors are left out: a parent declares
//! its children and a child reads its parent's items by nature.
//!
//! A cycle makes a pair of files one idea spread over two: neither can be
//! read, tested or moved without the other. The test names each cycle with
//! the line of every path that closes it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from its crate's root: `["sudoku", "rate"]`.
type Module = Vec<String>;

/// One module's file and the modules its paths name, each with the first
/// line that names it.
struct Source {
    file: PathBuf,
    names: BTreeMap<Module, usize>,
}

#[test]
fn the_library_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let cycles = cycles(&read_crate(&root));
    assert!(cycles.is_empty(), "import cycles in the library:\n{}", cycles.join("\n"));
}

#[test]
fn the_command_line_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src");
    if !root.join("main.rs").exists() {
        return; // the library alone, outside its workspace
    }
    let cycles = cycles(&read_crate(&root));
    assert!(cycles.is_empty(), "import cycles in the command line:\n{}", cycles.join("\n"));
}

/// The test sees a cycle when there is one, through grouped and nested
/// `use` trees, `super::super::` and paths in expressions, and not one
/// through a comment, a test module or a child's use of its parent.
#[test]
fn cycles_are_found_through_every_kind_of_path() {
    let crate_of = |files: &[(&str, &str)]| -> BTreeMap<Module, Source> {
        files.iter().map(|(module, text)| (module_path(module), scan(Path::new(module), text))).collect()
    };
    let grouped = crate_of(&[
        ("a", "use crate::{b::{self, Thing}, c};\nfn f() {}"),
        ("b", "pub struct Thing;\nfn g() { let _ = super::a::f(); }"),
        ("c", "// use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n"),
    ]);
    let found = cycles(&grouped);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("a, b:") && found[0].contains("a -> b (a:1)") && found[0].contains("b -> a (b:2)"));

    let nested = crate_of(&[
        ("x::y::p", "use super::super::super::z::q::*;"),
        ("z::q", "pub(crate) fn h() -> crate::x::y::p::T { self::h() }"),
        ("x", "use self::y::p;"),
    ]);
    assert_eq!(cycles(&nested).len(), 1);

    let tree = crate_of(&[("t", "use self::u::v;"), ("t::u", "use super::w;"), ("t::u::v", "use crate::t;")]);
    assert!(cycles(&tree).is_empty());
}

fn module_path(dotted: &str) -> Module {
    dotted.split("::").map(str::to_string).collect()
}

/// Every `.rs` file under `root`, by its module path.
fn read_crate(root: &Path) -> BTreeMap<Module, Source> {
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut crate_modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(root).unwrap().with_extension("");
        let mut module: Module = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            module.pop();
        }
        let text = std::fs::read_to_string(&file).unwrap();
        crate_modules.insert(module, scan(&file, &text));
    }
    assert!(!crate_modules.is_empty(), "no source under {}", root.display());
    crate_modules
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The paths a file names, relative to nothing yet: each as `crate`,
/// `super` or `self` followed by its segments, with its line.
fn scan(file: &Path, text: &str) -> Source {
    let code = without_tests(&without_comments(text));
    let mut names = BTreeMap::new();
    let bytes = code.as_bytes();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            line += 1;
        }
        let starts_word = i == 0 || !is_word(bytes[i - 1]);
        if starts_word && is_word(bytes[i]) {
            let end = word_end(bytes, i);
            let word = &code[i..end];
            if matches!(word, "crate" | "super" | "self") && code[end..].starts_with("::") {
                let mut paths = Vec::new();
                let after = use_tree(&code, end, vec![word.to_string()], &mut paths);
                for path in paths {
                    names.entry(path).or_insert(line);
                }
                line += code[i..after].matches('\n').count();
                i = after;
                continue;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    Source { file: file.to_path_buf(), names }
}

/// Reads the rest of a path or `use` tree from `at` (just after its first
/// segment, `prefix`): `::name`, `::{a, b::{c, d}}`, `::*`. Pushes every
/// path it names and returns where it ends.
fn use_tree(code: &str, mut at: usize, mut prefix: Vec<String>, paths: &mut Vec<Module>) -> usize {
    let bytes = code.as_bytes();
    loop {
        let rest = &code[at..];
        let trimmed = rest.trim_start();
        if !trimmed.starts_with("::") {
            paths.push(prefix);
            return at;
        }
        at += rest.len() - trimmed.len() + 2;
        at += code[at..].len() - code[at..].trim_start().len();
        match bytes.get(at) {
            Some(b'{') => {
                at += 1;
                loop {
                    at += code[at..].len() - code[at..].trim_start().len();
                    match bytes.get(at) {
                        None => return at,
                        Some(b'}') => return at + 1,
                        Some(b',') => at += 1,
                        Some(c) if is_word(*c) => {
                            let end = word_end(bytes, at);
                            if &code[at..end] == "as" {
                                // `a as b`: the new name is no path.
                                let name = end + code[end..].len() - code[end..].trim_start().len();
                                at = word_end(bytes, name);
                                continue;
                            }
                            let mut inner = prefix.clone();
                            if &code[at..end] != "self" {
                                inner.push(code[at..end].to_string());
                            }
                            at = use_tree(code, end, inner, paths);
                        }
                        Some(_) => at += 1, // `*`
                    }
                }
            }
            Some(c) if is_word(*c) => {
                let end = word_end(bytes, at);
                prefix.push(code[at..end].to_string());
                at = end;
            }
            _ => {
                paths.push(prefix);
                return at;
            }
        }
    }
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

fn word_end(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..].iter().take_while(|b| is_word(**b)).count()
}

/// The text with its `//` and `/* */` comments blanked (newlines kept, so
/// lines still count) and its string literals' insides blanked, so that a
/// path quoted in a string or a comment is not read.
fn without_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let blank = |b: u8| if b == b'\n' { b'\n' } else { b' ' };
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map_or(bytes.len(), |e| i + 2 + e + 2);
            out.extend(bytes[i..end].iter().map(|b| blank(*b)));
            i = end;
        } else if bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\'') {
            // A raw string's `r#"` leaves its hashes behind; its end is the
            // first `"` followed by them.
            let hashes = bytes[..i].iter().rev().take_while(|b| **b == b'#').count();
            let raw = i > hashes && bytes[i - hashes - 1] == b'r';
            out.push(b'"');
            i += 1;
            while i < bytes.len() {
                if !raw && bytes[i] == b'\\' {
                    out.extend([b' ', blank(*bytes.get(i + 1).unwrap_or(&b' '))]);
                    i += 2;
                    continue;
                }
                if bytes[i] == b'"' && bytes[i + 1..].iter().take(hashes).filter(|b| **b == b'#').count() == hashes {
                    break;
                }
                out.push(blank(bytes[i]));
                i += 1;
            }
            if i < bytes.len() {
                out.push(b'"');
                i += 1;
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// The text with every item under `#[cfg(test)]` blanked: a `mod` to its
/// closing brace, a `use` or other item to its `;` or closing brace.
fn without_tests(text: &str) -> String {
    let mut out = text.to_string();
    let mut from = 0;
    while let Some(found) = out[from..].find("#[cfg(test)]") {
        let start = from + found;
        let bytes = out.as_bytes();
        let mut end = start + "#[cfg(test)]".len();
        let mut depth = 0usize;
        while end < bytes.len() {
            match bytes[end] {
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end += 1;
                    break;
                }
                _ => {}
            }
            end += 1;
        }
        let blanked: String = out[start..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(start..end, &blanked);
        from = end;
    }
    out
}

/// The module a path names, relative to the module `from` it is written
/// in: the longest of its prefixes that is a module of the crate.
fn resolve(crate_modules: &BTreeMap<Module, Source>, from: &Module, path: &Module) -> Option<Module> {
    let mut base: Module = match path[0].as_str() {
        "crate" => Vec::new(),
        "super" => from[..from.len().saturating_sub(1)].to_vec(),
        _ => from.clone(),
    };
    let mut segments = &path[1..];
    while segments.first().is_some_and(|s| s == "super") {
        base.pop();
        segments = &segments[1..];
    }
    base.extend(segments.iter().cloned());
    (0..=base.len()).rev().map(|k| base[..k].to_vec()).find(|prefix| crate_modules.contains_key(prefix))
}

/// The crate's import cycles, each as its modules and the lines that close
/// it: `a, b: a -> b (a.rs:3); b -> a (b.rs:9)`.
fn cycles(crate_modules: &BTreeMap<Module, Source>) -> Vec<String> {
    let is_ancestor = |a: &Module, b: &Module| b.starts_with(a);
    let mut edges: BTreeMap<&Module, BTreeMap<Module, usize>> = BTreeMap::new();
    for (module, source) in crate_modules {
        let targets = edges.entry(module).or_default();
        for (path, line) in &source.names {
            if let Some(target) = resolve(crate_modules, module, path) {
                if !is_ancestor(&target, module) && !is_ancestor(module, &target) {
                    targets.entry(target).or_insert(*line);
                }
            }
        }
    }
    let name = |m: &Module| m.join("::");
    let mut found = Vec::new();
    for component in strongly_connected(&edges) {
        let members: BTreeSet<&Module> = component.iter().copied().collect();
        let mut closing = Vec::new();
        for module in &members {
            for (target, line) in &edges[*module] {
                if members.contains(target) {
                    let file = crate_modules[*module].file.display();
                    closing.push(format!("{} -> {} ({file}:{line})", name(module), name(target)));
                }
            }
        }
        let listed: Vec<String> = members.iter().map(|m| name(m)).collect();
        found.push(format!("{}: {}", listed.join(", "), closing.join("; ")));
    }
    found
}

/// The strongly connected components of more than one module (Tarjan's
/// algorithm, iterative).
fn strongly_connected<'a>(edges: &BTreeMap<&'a Module, BTreeMap<Module, usize>>) -> Vec<Vec<&'a Module>> {
    let nodes: Vec<&Module> = edges.keys().copied().collect();
    let index_of: BTreeMap<&Module, usize> = nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let next: Vec<Vec<usize>> =
        nodes.iter().map(|m| edges[m].keys().filter_map(|t| index_of.get(t).copied()).collect()).collect();
    let n = nodes.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut components, mut counter) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut calls = vec![(start, 0)];
        while let Some(&mut (v, ref mut child)) = calls.last_mut() {
            if *child == 0 && index[v] == usize::MAX {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = next[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().unwrap();
                    on_stack[w] = false;
                    component.push(nodes[w]);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    components.push(component);
                }
            }
        }
    }
    components
}
