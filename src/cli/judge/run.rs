//! Running one program on one input under the judge's limits (Linux).
//!
//! Each run goes through a launcher: this executable again, as
//! `backtrack judge 0 --launch -- PROGRAM`, which starts the program in a
//! process group of its own with core dumps off, waits for it, and writes
//! its exit status and resource usage on descriptor 3 ([`launch`]). The
//! kernel's peak resident memory of a process (`ru_maxrss`, from `wait4`) is
//! exact for everything it does, but it also counts the memory of the
//! process it was forked from, at the moment of the fork. Forked from the
//! launcher, which has just started and holds nothing, rather than from the
//! judge, which holds the cases, a program's peak comes out exact above
//! the launcher's own small size, the same on every run.
//!
//! While the program runs, a monitor looks at it every few milliseconds and
//! kills its group when it passes a limit:
//!
//! - CPU time (user + system, from `/proc/PID/stat`, over the program and
//!   the processes it started) past the time limit, or wall-clock time past
//!   [`Limits::wall`] (a program that sleeps or waits uses no CPU);
//! - memory: peak resident memory (`VmHWM` in `/proc/PID/status`, summed
//!   over the program and the processes it started) past the limit;
//! - output: more standard output than the cap.
//!
//! Peak resident memory is what a program really uses and what judges
//! report. A cap on address space (`RLIMIT_AS`) would count memory merely
//! reserved (thread stacks, allocator arenas, language runtimes) and turn
//! the overflow into a failed allocation, which shows up as a crash
//! instead of MLE.
//!
//! Every process group started is listed until it has ended, so that any
//! way the judge ends (Ctrl-C, SIGTERM, SIGHUP, an error, a panic, a closed
//! standard output) kills them first: [`end_all`] runs at exit and on
//! those signals.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Once};
use std::thread;
use std::time::{Duration, Instant};

use backtrack::judge::{Exit, Limits, Run, Stop};

/// Time between two looks at a running program.
const POLL: Duration = Duration::from_millis(4);
/// Bytes of standard error kept (the last ones).
const STDERR_TAIL: usize = 2048;
/// The launcher's descriptor for its report to the judge.
const REPORT_FD: RawFd = 3;

/// One run's result: what the judge needs, and standard error's tail to show.
pub struct Outcome {
    /// The run as the library judges it.
    pub run: Run,
    /// The last bytes of standard error.
    pub stderr: String,
}

/// Why a run gave no outcome.
pub enum RunError {
    /// The program cannot be started.
    Start(io::Error),
    /// The launcher failed (a resource ran out, or something killed it).
    Failure(String),
    /// Ctrl-C, SIGTERM or SIGHUP: the judge is stopping.
    Stopped,
}

/// Most process groups listed at once: a launcher's and a program's for
/// each of up to 1024 runs at once, and room to spare.
const SLOTS: usize = 2 * 1024 + 64;
/// The process groups started and not yet ended (0: a free slot).
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
/// Set once the judge is ending: a group that starts after this is killed at once.
static ENDING: AtomicBool = AtomicBool::new(false);
/// Set by SIGTERM or SIGHUP.
static TERMINATED: AtomicBool = AtomicBool::new(false);

/// A process group on the list, taken off when this is dropped.
struct Group(Option<usize>);

impl Group {
    fn new(pgid: libc::pid_t) -> Group {
        let slot = GROUPS.iter().position(|s| s.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok());
        // Listed first, checked second: either this sees ENDING or end_all sees the slot.
        if slot.is_none() || ENDING.load(Ordering::SeqCst) {
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
        Group(slot)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Some(i) = self.0 {
            GROUPS[i].store(0, Ordering::SeqCst);
        }
    }
}

/// Kills every process group on the list, and from now on every group as it
/// starts. Only atomics and `kill`: safe in a signal handler.
pub fn end_all() {
    ENDING.store(true, Ordering::SeqCst);
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
    }
}

extern "C" fn end_all_at_exit() {
    end_all();
}

extern "C" fn on_terminate(_signal: libc::c_int) {
    TERMINATED.store(true, Ordering::SeqCst);
    end_all();
}

/// Makes every exit of this process kill the groups it started (at exit, and
/// on SIGTERM and SIGHUP, which then stop the judge as Ctrl-C does).
pub fn end_all_on_exit() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: the handlers only use atomics and kill, which are
        // async-signal-safe; the sigaction struct lives across the calls.
        unsafe {
            libc::atexit(end_all_at_exit);
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_terminate as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            for signal in [libc::SIGTERM, libc::SIGHUP] {
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Whether the judge is stopping: Ctrl-C, SIGTERM or SIGHUP.
pub fn stop_requested() -> bool {
    super::super::interrupted() || TERMINATED.load(Ordering::SeqCst)
}

/// In a child between fork and exec: dies with the thread that started it,
/// so that nothing outlives even a judge killed with SIGKILL.
fn die_with_parent(parent: libc::pid_t) -> io::Result<()> {
    // SAFETY: prctl and getppid are async-signal-safe system calls.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != parent {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
    }
    Ok(())
}

/// Runs `program` (its path and arguments) on `input`.
pub fn run(program: &[OsString], input: &[u8], limits: &Limits, output_cap: usize) -> Result<Outcome, RunError> {
    let failure = |what: &str, e: io::Error| RunError::Failure(format!("{what}: {e}"));
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(failure("cannot make a pipe", io::Error::last_os_error()));
    }
    // SAFETY: pipe2 just opened both descriptors, owned by nothing else.
    let (report_read, report_write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let mut command = Command::new("/proc/self/exe");
    command
        .args(["judge", "0", "--launch", "--"])
        .args(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let write_fd = report_write.as_raw_fd();
    // SAFETY: getpid only reads this process's id.
    let judge = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes async-signal-safe system calls (fcntl, dup2, prctl, getppid).
    unsafe {
        command.pre_exec(move || {
            // The report pipe on descriptor 3, kept open across exec.
            let kept = if write_fd == REPORT_FD {
                libc::fcntl(REPORT_FD, libc::F_SETFD, 0)
            } else {
                libc::dup2(write_fd, REPORT_FD)
            };
            if kept < 0 {
                return Err(io::Error::last_os_error());
            }
            die_with_parent(judge)
        });
    }
    let started = Instant::now();
    let mut launcher = command.spawn().map_err(|e| failure("cannot start the launcher", e))?;
    let launcher_group = Group::new(launcher.id() as libc::pid_t);
    drop(report_write);
    let mut report = BufReader::new(File::from(report_read));
    let end_launcher = |launcher: &mut std::process::Child, group: Group| {
        drop(group);
        let _ = launcher.kill();
        let _ = launcher.wait();
    };

    // The launcher's first line: the program's id, or why it cannot start.
    let mut line = String::new();
    let _ = report.read_line(&mut line);
    let pid = match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["pid", pid] => pid.parse::<libc::pid_t>().unwrap_or(0),
        ["error", code] => {
            end_launcher(&mut launcher, launcher_group);
            return Err(RunError::Start(io::Error::from_raw_os_error(code.parse().unwrap_or(libc::EINVAL))));
        }
        _ => 0,
    };
    if pid <= 0 {
        end_launcher(&mut launcher, launcher_group);
        return Err(if stop_requested() {
            RunError::Stopped
        } else {
            RunError::Failure("the launcher ended early".into())
        });
    }
    let program_group = Group::new(pid);

    let mut stdin = launcher.stdin.take().expect("piped");
    let input = input.to_vec();
    // A program that stops reading early closes the pipe: not an error of the judge.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let overflow = Arc::new(AtomicBool::new(false));
    let mut stdout = launcher.stdout.take().expect("piped");
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
    let mut stderr = launcher.stderr.take().expect("piped");
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

    let wall_limit = limits.wall();
    let mut stopped = None;
    let mut interrupted = false;
    let mut peak = 0u64;
    // The report comes once the program has ended and the launcher has reaped it.
    while !readable(report.get_ref().as_raw_fd(), POLL) {
        if stopped.is_some() || interrupted {
            continue;
        }
        let (cpu, memory) = usage(pid);
        peak = peak.max(memory);
        stopped = if overflow.load(Ordering::Relaxed) {
            Some(Stop::Output)
        } else if memory > limits.memory {
            Some(Stop::Memory)
        } else if cpu > limits.time {
            Some(Stop::CpuTime)
        } else if started.elapsed() > wall_limit {
            Some(Stop::WallTime)
        } else {
            None
        };
        interrupted = stopped.is_none() && stop_requested();
        if stopped.is_some() || interrupted {
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
    }
    let wall = started.elapsed().as_secs_f64();
    line.clear();
    let _ = report.read_line(&mut line);
    drop(program_group);
    let ended: Vec<i64> =
        line.strip_prefix("exit ").unwrap_or("").split_whitespace().filter_map(|f| f.parse().ok()).collect();
    end_launcher(&mut launcher, launcher_group);
    let _ = writer.join();
    let mut output = reader.join().unwrap_or_default();
    output.truncate(output_cap + 1);
    let tail = errors.join().unwrap_or_default();
    if interrupted || stop_requested() {
        return Err(RunError::Stopped);
    }
    let [status, user, system, maxrss] = ended[..] else {
        return Err(RunError::Failure("the launcher ended without a report".into()));
    };
    let status = status as i32;
    let seconds = (user + system) as f64 / 1e6;
    peak = peak.max(maxrss.max(0) as u64 * 1024);
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
    Ok(Outcome { run: Run { exit, stopped, seconds, wall, memory: peak, output }, stderr })
}

/// Whether `fd` has something to read (or its writer has gone), waiting up to `wait`.
fn readable(fd: RawFd, wait: Duration) -> bool {
    let mut poll = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    // SAFETY: `poll` is one valid pollfd that lives across the call.
    let ready = unsafe { libc::poll(&mut poll, 1, wait.as_millis() as libc::c_int) };
    ready == 1 && poll.revents != 0
}

/// The launcher (`backtrack judge 0 --launch -- PROGRAM`): starts the
/// program in its own process group, with the standard input, output and
/// error it was given and core dumps off; writes `pid PID` (or
/// `error ERRNO`) on descriptor 3; once the program has ended, kills what
/// is left of its group, reaps it and writes
/// `exit STATUS USER_US SYSTEM_US MAXRSS_KIB`.
pub fn launch(program: &[OsString]) -> Result<i32, super::CliError> {
    // SAFETY: fcntl only reads the descriptor's flags.
    if program.is_empty() || unsafe { libc::fcntl(REPORT_FD, libc::F_GETFD) } < 0 {
        return Err(super::CliError::Input("--launch is the judge's own way to start a program".into()));
    }
    // SAFETY: the judge opened descriptor 3 for this report; nothing else here owns it.
    let mut report = unsafe { File::from_raw_fd(REPORT_FD) };
    let none = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `none` is a valid rlimit that lives across the call.
    unsafe { libc::setrlimit(libc::RLIMIT_CORE, &none) };
    // SAFETY: getpid only reads this process's id.
    let launcher = unsafe { libc::getpid() };
    let mut command = Command::new(&program[0]);
    command.args(&program[1..]).process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes async-signal-safe system calls. It also makes the child a fork,
    // not a vfork that shares (and so counts) this process's memory.
    unsafe { command.pre_exec(move || die_with_parent(launcher)) };
    let pid = match command.spawn() {
        Ok(child) => child.id() as libc::pid_t,
        Err(e) => {
            writeln!(report, "error {}", e.raw_os_error().unwrap_or(libc::EINVAL))?;
            return Ok(super::EXIT_OK);
        }
    };
    writeln!(report, "pid {pid}")?;
    // Hold no end of the program's pipes, so that the judge sees them close
    // when the program's processes have closed them.
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        for fd in 0..3 {
            // SAFETY: dup2 only replaces this process's descriptor `fd` with /dev/null.
            unsafe { libc::dup2(null.as_raw_fd(), fd) };
        }
    }
    wait_exited(pid);
    // The leader is not reaped yet, so its id still names its group: end
    // the processes it left behind.
    // SAFETY: kill only sends a signal.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    let (status, usage) = reap(pid);
    let micros = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    writeln!(report, "exit {status} {} {} {}", micros(usage.ru_utime), micros(usage.ru_stime), usage.ru_maxrss)?;
    Ok(super::EXIT_OK)
}

/// Waits until `pid` has ended, leaving it a zombie (not reaped) until [`reap`].
fn wait_exited(pid: libc::pid_t) {
    loop {
        // SAFETY: siginfo_t is plain data that waitid fills in; zeroed is a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable siginfo_t for the duration of the call.
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
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
