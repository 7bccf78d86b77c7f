//! The words the tools speak to a person: English, or Korean with the
//! verdict words Baekjoon Online Judge itself shows (맞았습니다!!,
//! 틀렸습니다, 시간 초과, ...).
//!
//! A front end resolves one [`Lang`] at its start, from a flag or from the
//! locale ([`Lang::resolve`]), and asks it for every sentence it prints:
//! each sentence is a [`Message`] (or a [`Detail`] of a verdict), data
//! without words, and [`Lang::say`] gives it in words. Only words change
//! with the language: numbers, positions (line and column), verdict codes
//! in JSON and exit statuses are the same in both.

use std::fmt::Write as _;

use crate::error::ParseError;
use crate::verdict::Verdict;

/// A language of the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Korean, with Baekjoon's verdict words.
    Ko,
}

/// The language codes [`Lang::from_code`] takes, as help texts list them.
pub const CODES: &str = "en, ko";

impl Lang {
    /// The language a code names: `en` or `ko` (any case).
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "ko" => Some(Lang::Ko),
            _ => None,
        }
    }

    /// The language of the messages as the locale names it: the first
    /// non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (POSIX's order), read
    /// through `var`; Korean when it names a `ko` locale (`ko`, `ko_KR`,
    /// `ko_KR.UTF-8`, `ko.UTF-8@euro`...), else English.
    pub fn from_locale(var: impl Fn(&str) -> Option<String>) -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|name| var(name).filter(|v| !v.is_empty()));
        match locale {
            Some(locale) if locale.split(['_', '.', '@']).next() == Some("ko") => Lang::Ko,
            _ => Lang::En,
        }
    }

    /// The flag's language when one was given, else the process locale's
    /// ([`Lang::from_locale`] over the environment).
    pub fn resolve(flag: Option<Lang>) -> Lang {
        flag.unwrap_or_else(|| Lang::from_locale(|name| std::env::var(name).ok()))
    }

    /// The verdict as the judge shows it: the code (`AC`, `WA`, ...) in
    /// English, Baekjoon's own words in Korean.
    pub fn verdict(self, verdict: Verdict) -> &'static str {
        match self {
            Lang::En => verdict.code(),
            Lang::Ko => match verdict {
                Verdict::Accepted => "맞았습니다!!",
                Verdict::WrongAnswer => "틀렸습니다",
                Verdict::TimeLimit => "시간 초과",
                Verdict::MemoryLimit => "메모리 초과",
                Verdict::RuntimeError => "런타임 에러",
                Verdict::OutputLimit => "출력 초과",
            },
        }
    }

    /// A place in the input: `line L, column C` (column 0: the whole line).
    pub fn position(self, line: usize, column: usize) -> String {
        match (self, column) {
            (Lang::En, 0) => format!("line {line}"),
            (Lang::En, _) => format!("line {line}, column {column}"),
            (Lang::Ko, 0) => format!("{line}번째 줄"),
            (Lang::Ko, _) => format!("{line}번째 줄 {column}번째 칸"),
        }
    }

    /// A parse error in this language: the same line and column, the
    /// position's words translated, and the shared token reader's messages
    /// (a missing, malformed, out-of-range or extra word) translated around
    /// the words they quote. Other messages keep their English words.
    pub fn parse_error(self, error: &ParseError) -> String {
        let message = match self {
            Lang::En => error.message.clone(),
            Lang::Ko => korean_token_message(&error.message).unwrap_or_else(|| error.message.clone()),
        };
        format!("{}: {message}", self.position(error.line, error.column))
    }

    /// The line that explains a verdict.
    pub fn detail(self, detail: Detail) -> String {
        use Detail::*;
        match (self, detail) {
            (Lang::En, CpuStopped { seconds, limit }) => {
                format!("stopped at {seconds:.2} s of CPU time (limit {limit} s)")
            }
            (Lang::Ko, CpuStopped { seconds, limit }) => {
                format!("CPU 시간 {seconds:.2} s에서 멈춤 (제한 {limit} s)")
            }
            (Lang::En, WallStopped { wall, limit, cpu }) => format!(
                "stopped at {wall:.2} s of wall-clock time (limit {limit} s) after {cpu:.2} s of CPU time: \
                sleeping or waiting"
            ),
            (Lang::Ko, WallStopped { wall, limit, cpu }) => format!(
                "실제 시간 {wall:.2} s에서 멈춤 (제한 {limit} s), CPU 시간은 {cpu:.2} s: 잠들어 있거나 기다리는 중"
            ),
            (Lang::En, MemoryStopped { mib, limit }) => format!("stopped at {mib:.1} MiB (limit {limit} MiB)"),
            (Lang::Ko, MemoryStopped { mib, limit }) => format!("{mib:.1} MiB에서 멈춤 (제한 {limit} MiB)"),
            (Lang::En, OutputStopped { bytes }) => format!("stopped after {bytes} bytes of output"),
            (Lang::Ko, OutputStopped { bytes }) => format!("출력 {bytes}바이트 뒤에 멈춤"),
            (Lang::En, PeakMemory { mib, limit }) => format!("peak memory {mib:.1} MiB (limit {limit} MiB)"),
            (Lang::Ko, PeakMemory { mib, limit }) => format!("최대 메모리 {mib:.1} MiB (제한 {limit} MiB)"),
            (Lang::En, Signal(signal)) => format!("killed by signal {signal}"),
            (Lang::Ko, Signal(signal)) => format!("시그널 {signal}로 종료됨"),
            (Lang::En, ExitStatus(code)) => format!("exit status {code}"),
            (Lang::Ko, ExitStatus(code)) => format!("종료 코드 {code}"),
            (Lang::En, CpuTime { seconds, limit }) => format!("{seconds:.2} s of CPU time (limit {limit} s)"),
            (Lang::Ko, CpuTime { seconds, limit }) => format!("CPU 시간 {seconds:.2} s (제한 {limit} s)"),
        }
    }

    /// A message in words.
    pub fn say(self, message: Message<'_>) -> String {
        match self {
            Lang::En => english(message),
            Lang::Ko => korean(message),
        }
    }
}

/// Why a run got the verdict it got, as numbers: [`Lang::detail`] gives
/// the words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Detail {
    /// Stopped when its CPU time passed the limit.
    CpuStopped {
        /// CPU seconds used.
        seconds: f64,
        /// The limit, in seconds.
        limit: f64,
    },
    /// Stopped when its wall-clock time passed the limit.
    WallStopped {
        /// Wall-clock seconds.
        wall: f64,
        /// The wall-clock limit, in seconds.
        limit: f64,
        /// CPU seconds used.
        cpu: f64,
    },
    /// Stopped when its memory passed the limit.
    MemoryStopped {
        /// Peak memory, in MiB.
        mib: f64,
        /// The limit, in MiB.
        limit: f64,
    },
    /// Stopped when its output passed the cap.
    OutputStopped {
        /// Bytes of output kept.
        bytes: usize,
    },
    /// Ended with a peak memory over the limit.
    PeakMemory {
        /// Peak memory, in MiB.
        mib: f64,
        /// The limit, in MiB.
        limit: f64,
    },
    /// Ended by this signal.
    Signal(i32),
    /// Exited with this non-zero status.
    ExitStatus(i32),
    /// Ended after more CPU time than the limit.
    CpuTime {
        /// CPU seconds used.
        seconds: f64,
        /// The limit, in seconds.
        limit: f64,
    },
}

/// The sentences the judge, the trace and the `boj` front end print, as
/// data: [`Lang::say`] gives the words.
#[derive(Debug, Clone)]
pub enum Message<'a> {
    /// Malformed input in `source`.
    BadInput {
        /// The input's name (a file, `<stdin>`, `<argument>`).
        source: &'a str,
        /// What is wrong, and where.
        error: &'a ParseError,
    },
    /// `boj` was asked for a problem it does not answer.
    BojUnsupported {
        /// The number asked for.
        id: u32,
        /// The problems it answers, one per line.
        list: &'a str,
    },
    /// `judge` was asked for a problem it has no judge for.
    NoJudge {
        /// The number asked for.
        id: u32,
        /// The problems it judges.
        ids: &'a str,
    },
    /// `--time-limit` out of range.
    TimeLimitRange(f64),
    /// `--memory-limit` out of range.
    MemoryLimitRange(u64),
    /// `--shrink-time` out of range.
    ShrinkTimeRange {
        /// The most it takes.
        most: f64,
        /// What was given.
        found: f64,
    },
    /// `judge` was given no program to test.
    NoProgram,
    /// Interrupted while writing cases.
    InterruptedWriting(usize),
    /// Cases written by `--save` without a program.
    CasesWritten {
        /// How many.
        count: usize,
        /// Where.
        dir: &'a str,
    },
    /// The program cannot be started.
    CannotRun {
        /// The program.
        program: &'a str,
        /// Why.
        error: &'a str,
    },
    /// The judge could not run the program.
    RunFailure(&'a str),
    /// Interrupted while judging.
    InterruptedJudging(usize),
    /// A directory cannot be created.
    CannotCreate {
        /// The directory.
        path: &'a str,
        /// Why.
        error: &'a str,
    },
    /// A file cannot be written.
    CannotWrite {
        /// The file.
        path: &'a str,
        /// Why.
        error: &'a str,
    },
    /// The problem has fewer distinct inputs than the random cases asked for.
    FewerInputs {
        /// The problem.
        id: u32,
        /// Its distinct inputs.
        all: usize,
        /// Whether the hard cases were asked for too.
        hard: bool,
        /// Random cases made.
        count: usize,
        /// Random cases asked for.
        asked: usize,
    },
    /// Many draws gave no new input.
    FewerDraws {
        /// The problem.
        id: u32,
        /// Random cases made.
        count: usize,
        /// Random cases asked for.
        asked: usize,
    },
    /// The judge's summary line.
    Summary {
        /// The problem.
        id: u32,
        /// The verdict of the whole run.
        verdict: Verdict,
        /// Cases judged.
        cases: usize,
        /// How many got each verdict, in verdict order.
        counts: &'a [(Verdict, usize)],
        /// The slowest run, in CPU seconds.
        slowest: f64,
        /// The largest peak memory, in MiB.
        peak: f64,
        /// The time limit, in seconds.
        time_limit: f64,
        /// The memory limit, in MiB.
        memory_limit: f64,
    },
    /// The first line of the report on the shrunk failing case.
    Failing {
        /// Its verdict.
        verdict: Verdict,
        /// The case's name.
        case: &'a str,
        /// Shrinking steps taken.
        steps: usize,
        /// Runs spent shrinking.
        runs: usize,
        /// Whether shrinking finished within its budget.
        complete: bool,
        /// The verdict's explanation.
        detail: &'a str,
    },
    /// A heading of the report: `input:`, `expected:`...
    Heading(Heading),
    /// The report shows nothing: the text is empty.
    Nothing,
    /// Only the first bytes of the output were kept.
    FirstBytes {
        /// Bytes shown.
        kept: usize,
        /// Bytes received.
        total: usize,
    },
    /// Lines left out before the ones shown.
    LinesBefore(usize),
    /// Lines left out after the ones shown.
    LinesAfter(usize),
    /// Where a wrong answer first differs from the expected output.
    FirstDifference {
        /// The first line that differs.
        line: usize,
        /// Lines expected and received, when they differ in number.
        counts: Option<(usize, usize)>,
    },
    /// A blank line in a difference.
    BlankLine,
    /// The output ended before the expected line.
    EndOfOutput,
    /// A second puzzle given to a trace.
    SecondPuzzle {
        /// The input's name.
        source: &'a str,
        /// The line of the second puzzle.
        line: usize,
    },
    /// A trace given no puzzle.
    NoPuzzle {
        /// The input's name.
        source: &'a str,
    },
}

/// The headings of a judge's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heading {
    /// The input of the failing case.
    Input,
    /// The expected output.
    Expected,
    /// One valid answer among several.
    ExpectedOneOf,
    /// The reference program's output, in a stress test.
    ExpectedReference,
    /// The program's output.
    Received,
    /// Where the outputs differ.
    Difference,
    /// The end of the program's standard error.
    StandardError,
    /// A command that reproduces the failure.
    Reproduce,
}

fn english(message: Message<'_>) -> String {
    use Message::*;
    match message {
        BadInput { source, error } => format!("{source}: {error}"),
        BojUnsupported { id, list } => format!("problem {id} is not supported; supported problems:\n{list}"),
        NoJudge { id, ids } => format!("problem {id} has no judge; problems: {ids}"),
        TimeLimitRange(found) => format!("--time-limit must be between 0 and 3600 seconds, found {found}"),
        MemoryLimitRange(found) => format!("--memory-limit must be between 1 and 1048576 MiB, found {found}"),
        ShrinkTimeRange { most, found } => format!("--shrink-time must be between 0 and {most} seconds, found {found}"),
        NoProgram => "give the program to test after `--`, e.g. `backtrack judge 9663 -- ./a.out`".into(),
        InterruptedWriting(written) => format!("interrupted after writing {written} cases"),
        CasesWritten { count, dir } => format!("{count} cases written to {dir}"),
        CannotRun { program, error } => format!("cannot run {program}: {error}"),
        RunFailure(why) => format!("cannot run the program: {why}"),
        InterruptedJudging(done) => format!("interrupted after {done} cases; their verdicts are above"),
        CannotCreate { path, error } => format!("{path}: cannot create: {error}"),
        CannotWrite { path, error } => format!("{path}: cannot write: {error}"),
        FewerInputs { id, all, hard, count, asked } => {
            let taken = if hard { "the samples, edge and hard cases" } else { "the samples and edge cases" };
            format!(
                "note: problem {id} has only {all} distinct inputs, and {taken} take {} of them: \
                {count} random cases, not {asked}",
                all - count
            )
        }
        FewerDraws { id, count, asked } => {
            format!("note: problem {id} gave no new input in many draws: {count} distinct random cases, not {asked}")
        }
        Summary { id, verdict, cases, counts, slowest, peak, time_limit, memory_limit } => {
            let listed: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {}", v.code())).collect();
            format!(
                "{id}: {} ({} of {cases} cases accepted: {}; slowest {slowest:.3} s, peak {peak:.1} MiB; \
                limits {time_limit} s, {memory_limit} MiB)",
                verdict.code(),
                accepted(counts),
                listed.join(", ")
            )
        }
        Failing { verdict, case, steps, runs, complete, detail } => {
            let mut how = if steps == 0 {
                "no smaller case fails the same way".to_string()
            } else {
                format!("shrunk in {steps} steps, {runs} runs")
            };
            if !complete {
                how.push_str("; the shrinking budget ran out");
            }
            format!("{} on {case} ({how}): {detail}", verdict.code())
        }
        Heading(heading) => match heading {
            self::Heading::Input => "input:",
            self::Heading::Expected => "expected:",
            self::Heading::ExpectedOneOf => "expected (one valid answer):",
            self::Heading::ExpectedReference => "expected (the reference's output):",
            self::Heading::Received => "received:",
            self::Heading::Difference => "difference:",
            self::Heading::StandardError => "standard error (end):",
            self::Heading::Reproduce => "reproduce:",
        }
        .into(),
        Nothing => "(nothing)".into(),
        FirstBytes { kept, total } => format!("(the first {kept} of {total} bytes received)"),
        LinesBefore(count) => format!("... {} before", crate::error::Counted(count as u128, "line")),
        LinesAfter(count) => format!("... {}", more_lines(count)),
        FirstDifference { line, counts: None } => format!("first difference at line {line}"),
        FirstDifference { line, counts: Some((want, have)) } => format!(
            "first difference at line {line} (expected {}, received {have})",
            crate::error::Counted(want as u128, "line")
        ),
        BlankLine => "(blank line)".into(),
        EndOfOutput => "(end of output)".into(),
        SecondPuzzle { source, line } => format!("{source}: line {line}: a second puzzle; a trace takes one"),
        NoPuzzle { source } => format!("{source}: line 1: empty input: no puzzle found"),
    }
}

fn korean(message: Message<'_>) -> String {
    use Message::*;
    let ko = Lang::Ko;
    match message {
        BadInput { source, error } => format!("{source}: {}", ko.parse_error(error)),
        BojUnsupported { id, list } => format!("{id}번 문제는 풀 수 없습니다. 풀 수 있는 문제:\n{list}"),
        NoJudge { id, ids } => format!("{id}번 문제는 채점할 수 없습니다. 채점할 수 있는 문제: {ids}"),
        TimeLimitRange(found) => format!("--time-limit는 0초보다 크고 3600초 이하여야 합니다. 받은 값: {found}"),
        MemoryLimitRange(found) => format!("--memory-limit는 1 MiB 이상 1048576 MiB 이하여야 합니다. 받은 값: {found}"),
        ShrinkTimeRange { most, found } => {
            format!("--shrink-time은 0초 이상 {most}초 이하여야 합니다. 받은 값: {found}")
        }
        NoProgram => "채점할 프로그램을 `--` 뒤에 적어 주세요. 예: `backtrack judge 9663 -- ./a.out`".into(),
        InterruptedWriting(written) => format!("케이스 {written}개를 쓴 뒤 중단했습니다"),
        CasesWritten { count, dir } => format!("케이스 {count}개를 {dir}에 썼습니다"),
        CannotRun { program, error } => format!("{program}을(를) 실행할 수 없습니다: {error}"),
        RunFailure(why) => format!("프로그램을 실행할 수 없습니다: {why}"),
        InterruptedJudging(done) => format!("케이스 {done}개를 채점한 뒤 중단했습니다. 채점 결과는 위에 있습니다"),
        CannotCreate { path, error } => format!("{path}: 만들 수 없습니다: {error}"),
        CannotWrite { path, error } => format!("{path}: 쓸 수 없습니다: {error}"),
        FewerInputs { id, all, hard, count, asked } => {
            let taken = if hard { "예제, 경계, 어려운 케이스" } else { "예제와 경계 케이스" };
            format!(
                "참고: {id}번 문제의 서로 다른 입력은 {all}개뿐이고 그중 {}개를 {taken}가 씁니다. \
                랜덤 케이스는 {asked}개가 아니라 {count}개입니다",
                all - count
            )
        }
        FewerDraws { id, count, asked } => format!(
            "참고: {id}번 문제는 여러 번 뽑아도 새 입력이 나오지 않았습니다. \
            서로 다른 랜덤 케이스는 {asked}개가 아니라 {count}개입니다"
        ),
        Summary { id, verdict, cases, counts, slowest, peak, time_limit, memory_limit } => {
            let listed: Vec<String> = counts.iter().map(|(v, n)| format!("{} {n}", ko.verdict(*v))).collect();
            format!(
                "{id}: {} (케이스 {cases}개 중 {}개 맞음: {}; 가장 느린 실행 {slowest:.3} s, 최대 메모리 {peak:.1} MiB; \
                제한 {time_limit} s, {memory_limit} MiB)",
                ko.verdict(verdict),
                accepted(counts),
                listed.join(", ")
            )
        }
        Failing { verdict, case, steps, runs, complete, detail } => {
            let mut how = if steps == 0 {
                "같은 식으로 실패하는 더 작은 케이스가 없습니다".to_string()
            } else {
                format!("{steps}단계, {runs}번 실행해서 줄였습니다")
            };
            if !complete {
                how.push_str("; 줄이는 데 쓸 예산을 다 썼습니다");
            }
            format!("{case}: {} ({how}): {detail}", ko.verdict(verdict))
        }
        Heading(heading) => match heading {
            self::Heading::Input => "입력:",
            self::Heading::Expected => "정답:",
            self::Heading::ExpectedOneOf => "정답 (맞는 답 중 하나):",
            self::Heading::ExpectedReference => "정답 (기준 프로그램의 출력):",
            self::Heading::Received => "받은 출력:",
            self::Heading::Difference => "차이:",
            self::Heading::StandardError => "표준 에러 (끝부분):",
            self::Heading::Reproduce => "재현:",
        }
        .into(),
        Nothing => "(없음)".into(),
        FirstBytes { kept, total } => format!("(받은 {total}바이트 중 앞의 {kept}바이트)"),
        LinesBefore(count) => format!("... 앞의 {count}줄 생략"),
        LinesAfter(count) => format!("... {count}줄 더"),
        FirstDifference { line, counts: None } => format!("{line}번째 줄부터 다릅니다"),
        FirstDifference { line, counts: Some((want, have)) } => {
            format!("{line}번째 줄부터 다릅니다 (정답은 {want}줄, 받은 출력은 {have}줄)")
        }
        BlankLine => "(빈 줄)".into(),
        EndOfOutput => "(출력 끝)".into(),
        SecondPuzzle { source, line } => {
            format!("{source}: {}: 두 번째 퍼즐이 있습니다. 추적은 퍼즐 하나만 받습니다", ko.position(line, 0))
        }
        NoPuzzle { source } => format!("{source}: {}: 입력이 비어 있습니다. 퍼즐이 없습니다", ko.position(1, 0)),
    }
}

/// How many runs were accepted, from the counts per verdict.
/// `N more lines` (or `1 more line`): what a cut listing leaves out.
pub fn more_lines(count: usize) -> String {
    if count == 1 {
        "1 more line".to_string()
    } else {
        format!("{count} more lines")
    }
}

fn accepted(counts: &[(Verdict, usize)]) -> usize {
    counts.iter().find(|(v, _)| *v == Verdict::Accepted).map_or(0, |(_, n)| *n)
}

/// The token reader's messages (see `tokens.rs`) in Korean, with the
/// words they name and quote kept; `None` for any other message.
fn korean_token_message(message: &str) -> Option<String> {
    let mut out = String::new();
    if let Some(what) = message.strip_prefix("expected ").and_then(|m| m.strip_suffix(", found the end of the input")) {
        let _ = write!(out, "{what}이(가) 와야 하는데 입력이 끝났습니다");
    } else if let Some((what, found)) = message.strip_prefix("expected ").and_then(|m| m.split_once(", found `")) {
        let _ = write!(out, "{what}이(가) 와야 하는데 `{found}이(가) 있습니다");
    } else if let Some((what, rest)) = message.split_once(" must be between ") {
        let (range, found) = rest.split_once(", found ")?;
        let (min, max) = range.split_once(" and ")?;
        let _ = write!(out, "{what}은(는) {min} 이상 {max} 이하여야 하는데 {found}입니다");
    } else if let Some(rest) = message.strip_prefix("unexpected `") {
        let (token, after) = rest.rsplit_once("` after ")?;
        let _ = write!(out, "{after} 뒤에 예상하지 못한 `{token}`이(가) 있습니다");
    } else {
        return None;
    }
    Some(out)
}

/// Columns `text` takes on a terminal: two for each Hangul or other wide
/// character, one for the rest; what lines up Korean verdict words.
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

/// `text` followed by spaces up to `width` columns ([`display_width`]).
pub fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(display_width(text))))
}

fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA960..=0xA97F | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Tokens;

    #[test]
    fn locale_names_korean_by_its_language_part() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(Lang::from_locale(env(&[("LANG", "ko_KR.UTF-8")])), Lang::Ko);
        assert_eq!(Lang::from_locale(env(&[("LANG", "ko")])), Lang::Ko);
        assert_eq!(Lang::from_locale(env(&[("LC_MESSAGES", "ko_KR.eucKR"), ("LANG", "C")])), Lang::Ko);
        // LC_ALL comes first; an empty one is skipped.
        assert_eq!(Lang::from_locale(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "ko_KR.UTF-8")])), Lang::En);
        assert_eq!(Lang::from_locale(env(&[("LC_ALL", ""), ("LANG", "ko_KR.UTF-8")])), Lang::Ko);
        // Not a Korean locale: "kok" (Konkani) merely starts with the letters.
        assert_eq!(Lang::from_locale(env(&[("LANG", "kok_IN")])), Lang::En);
        assert_eq!(Lang::from_locale(env(&[])), Lang::En);
        assert_eq!(Lang::from_code("KO"), Some(Lang::Ko));
        assert_eq!(Lang::from_code("fr"), None);
    }

    #[test]
    fn verdict_words_are_baekjoons() {
        let words: Vec<&str> = Verdict::ALL.iter().map(|v| Lang::Ko.verdict(*v)).collect();
        assert_eq!(words, ["맞았습니다!!", "틀렸습니다", "시간 초과", "메모리 초과", "런타임 에러", "출력 초과"]);
        assert_eq!(Lang::En.verdict(Verdict::WrongAnswer), "WA");
        assert_eq!(display_width("맞았습니다!!"), 12);
        assert_eq!(pad("틀렸습니다", 12), "틀렸습니다  ");
    }

    /// Every message of the token reader is translated, with its position
    /// and the words it quotes kept: if a message's English changes, this
    /// test sees it come back untranslated.
    #[test]
    fn token_reader_messages_are_translated_around_their_quotes() {
        type Read = fn(&mut Tokens) -> Result<(), ParseError>;
        let cases: [(&str, Read, &str); 4] = [
            ("", |t| t.number::<u32>("N", 1, 8).map(drop), "1번째 줄 1번째 칸: N이(가) 와야 하는데 입력이 끝났습니다"),
            (
                "\n  x7",
                |t| t.number::<u32>("N", 1, 8).map(drop),
                "2번째 줄 3번째 칸: N이(가) 와야 하는데 `x7`이(가) 있습니다",
            ),
            (
                "9",
                |t| t.number::<u32>("N", 1, 8).map(drop),
                "1번째 줄 1번째 칸: N은(는) 1 이상 8 이하여야 하는데 9입니다",
            ),
            (
                "3 4",
                |t| t.number::<u32>("N", 1, 8).and_then(|_| t.expect_end("N")),
                "1번째 줄 3번째 칸: N 뒤에 예상하지 못한 `4`이(가) 있습니다",
            ),
        ];
        for (text, read, korean) in cases {
            let error = read(&mut Tokens::new(text)).unwrap_err();
            assert_eq!(Lang::Ko.parse_error(&error), korean, "{text:?}");
            assert_eq!(Lang::En.parse_error(&error), error.to_string());
        }
        // A message of another shape keeps its words; its position is translated.
        let other = ParseError::new(4, 0, "a row of 10 cells");
        assert_eq!(Lang::Ko.parse_error(&other), "4번째 줄: a row of 10 cells");
    }
}
