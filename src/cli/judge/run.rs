//! Running one program on one input under the judge's limits (Linux).
//!
//! The program runs in its own process group with core dumps off. A monitor
//! polls it every few milliseconds and kills the whole group when it passes
//! a limit:
//!
//! - time: CPU time (user + system, from `/proc/PID/stat`) past the limit,
//!   or wall time past five times the limit plus two seconds (a program
//!   that sleeps or waits for input uses no CPU; the margin is for a busy
//!   machine, where a program may get a fraction of a core);
//! - memory: peak resident memory (`VmHWM` in `/proc/PID/status`, summed over
//!   the program and the processes it started) past the limit;
//! - output: more standard output than the cap.
//!
//! Peak resident memory is what a program really uses and what judges
//! report. `VmHWM` is a high-water mark, so a poll that comes late still sees
//! a peak that has passed. A cap on address space (`RLIMIT_AS`) would count
//! memory merely reserved (thread stacks, allocator arenas, language
//! runtimes) and turn the overflow into a failed allocation, which shows up
//! as a crash instead of MLE. After the program ends, `wait4` gives its
//! exact CPU time and peak memory, descendants included. That peak also
//! counts this process's own memory at the moment of the fork, so it is
//! used only when it is above this process's own peak.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use backtrack::judge::{Exit, Limits, Run, Stop};

/// Time between two looks at a running program.
const POLL: Duration = Duration::from_millis(4);
/// Bytes of standard error kept (the last ones).
const STDERR_TAIL: usize = 2048;

/// One run's result: what the judge needs, and standard error's tail to show.
pub struct Outcome {
    /// The run as the library judges it.
    pub run: Run,
    /// The last bytes of standard error.
    pub stderr: String,
}

/// Runs `program` (its path and arguments) on `input`.
/// Fails only when the program cannot be started.
pub fn run(program: &[OsString], input: &[u8], limits: &Limits, output_cap: usize) -> io::Result<Outcome> {
    let mut command = Command::new(&program[0]);
    command.args(&program[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls setrlimit, which is async-signal-safe; the struct lives on the
    // child's stack.
    unsafe {
        command.pre_exec(|| {
            let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;

    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    // A program that stops reading early closes the pipe: not an error of the judge.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let overflow = Arc::new(AtomicBool::new(false));
    let mut stdout = child.stdout.take().expect("piped");
    let full = Arc::clone(&overflow);
    let reader = thread::spawn(move || {
        let mut output = Vec::new();
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            match stdout.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = (output_cap + 1).saturating_sub(output.len());
                    output.extend_from_slice(&chunk[..n.min(room)]);
                    if output.len() > output_cap {
                        full.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
        output
    });
    let mut stderr = child.stderr.take().expect("piped");
    let errors = thread::spawn(move || {
        let mut tail = Vec::new();
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut chunk) {
            tail.extend_from_slice(&chunk[..n]);
            if tail.len() > 2 * STDERR_TAIL {
                tail.drain(..tail.len() - STDERR_TAIL);
            }
        }
        tail
    });

    let wall_limit = limits.time * 5 + Duration::from_secs(2);
    let mut stopped = None;
    let mut peak = 0u64;
    loop {
        if exited(pid) {
            break;
        }
        let (cpu, memory) = usage(pid);
        peak = peak.max(memory);
        stopped = if overflow.load(Ordering::Relaxed) {
            Some(Stop::Output)
        } else if memory > limits.memory {
            Some(Stop::Memory)
        } else if cpu > limits.time || started.elapsed() > wall_limit {
            Some(Stop::Time)
        } else {
            None
        };
        if stopped.is_some() {
            break;
        }
        thread::sleep(POLL);
    }
    // The group leader is not reaped yet, so its id still names this group.
    // SAFETY: kill only sends a signal; no memory is involved.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    let (status, usage) = reap(pid);
    let _ = writer.join();
    let mut output = reader.join().unwrap_or_default();
    output.truncate(output_cap + 1);
    let tail = errors.join().unwrap_or_default();

    let seconds = timeval(usage.ru_utime) + timeval(usage.ru_stime);
    let reported = usage.ru_maxrss.max(0) as u64 * 1024;
    if reported > own_peak() {
        peak = peak.max(reported);
    }
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    if stopped.is_none() && overflow.load(Ordering::Relaxed) {
        stopped = Some(Stop::Output);
    }
    let keep = tail.len().min(STDERR_TAIL);
    let stderr = String::from_utf8_lossy(&tail[tail.len() - keep..]).into_owned();
    // The `Child` was reaped by hand; dropping it does not wait again.
    drop(child);
    Ok(Outcome { run: Run { exit, stopped, seconds, memory: peak, output }, stderr })
}

/// Whether `pid` has ended (it stays a zombie, not reaped, until [`reap`]).
fn exited(pid: libc::pid_t) -> bool {
    // SAFETY: siginfo_t is plain data that waitid fills in; zeroed is a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid, writable siginfo_t for the duration of the call.
    let found = unsafe {
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT)
    };
    // SAFETY: after a successful waitid the pid field is initialised (0 when nothing ended).
    found == 0 && unsafe { info.si_pid() } == pid
}

/// Waits for `pid` and returns its wait status and resource usage.
fn reap(pid: libc::pid_t) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; zeroed is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are valid and writable for the call.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return (status, usage);
        }
    }
}

fn timeval(t: libc::timeval) -> f64 {
    t.tv_sec as f64 + t.tv_usec as f64 / 1e6
}

/// This process's own peak resident memory, in bytes.
fn own_peak() -> u64 {
    // SAFETY: rusage is plain data; getrusage fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is valid and writable for the call.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss.max(0) as u64 * 1024
}

/// CPU time and peak resident memory (bytes) of `pid` and the processes it started, so far.
fn usage(pid: libc::pid_t) -> (Duration, u64) {
    let mut ticks = 0u64;
    let mut memory = 0u64;
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        if let Ok(stat) = fs::read_to_string(format!("/proc/{p}/stat")) {
            // The fields after the command name, which is in parentheses and may hold spaces.
            if let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) {
                let fields: Vec<&str> = rest.split(' ').collect();
                // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
                for i in [11, 12] {
                    ticks += fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
                }
            }
        }
        if let Ok(status) = fs::read_to_string(format!("/proc/{p}/status")) {
            let kib = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            memory += kib.unwrap_or(0) * 1024;
        }
        if let Ok(tasks) = fs::read_dir(format!("/proc/{p}/task")) {
            for task in tasks.flatten() {
                if let Ok(children) = fs::read_to_string(task.path().join("children")) {
                    todo.extend(children.split_whitespace().filter_map(|c| c.parse::<libc::pid_t>().ok()));
                }
            }
        }
    }
    (Duration::from_secs_f64(ticks as f64 / clock_ticks()), memory)
}

/// Clock ticks per second, the unit of `/proc/PID/stat`'s times.
fn clock_ticks() -> f64 {
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}
