//! How long calls run: off the interpreter's lock, on a worker thread that
//! the calling thread watches for Ctrl-C, with Rust panics caught and
//! turned into `backtrack.InternalError`; and how solutions stream to a
//! Python iterator through a bounded channel.
//!
//! Python runs its signal handlers only on the main thread, with the
//! interpreter's lock held, so a search that runs on the calling thread
//! cannot see Ctrl-C. The calling thread therefore waits for the worker in
//! short slices with the lock released, and between slices runs the
//! handlers ([`Python::check_signals`]); on `KeyboardInterrupt` it cancels
//! the worker's [`Control`] and returns at once. The worker, left to
//! itself, stops at its search's next check of the control (or, for the
//! few computations that have none, when it ends) and exits.

use std::any::Any;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use backtrack::search::Control;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors;

/// How often a waiting call looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(20);

/// The text of a panic's payload.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `work` on the calling thread with the interpreter's lock released,
/// a panic becoming `InternalError`: for work that ends in microseconds.
pub fn quick<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work))).map_err(|p| errors::internal(panic_message(p)))
}

/// Starts a thread named `backtrack` running `work`.
fn spawn(work: impl FnOnce() + Send + 'static) -> PyResult<()> {
    std::thread::Builder::new()
        .name("backtrack".into())
        .spawn(work)
        .map(drop)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}")))
}

/// Runs `work` on a worker thread while the calling thread waits with the
/// interpreter's lock released, answering Ctrl-C within [`POLL`]: the
/// worker's control is cancelled and `KeyboardInterrupt` raised. A panic in
/// the worker (or in the threads it starts) becomes `InternalError`.
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&Control) -> T + Send + 'static,
) -> PyResult<T> {
    let control = Control::new();
    let (tx, mut rx) = mpsc::sync_channel(1);
    let worker_control = control.clone();
    spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| work(&worker_control))).map_err(panic_message);
        // The receiver is gone only after Ctrl-C, and then nobody wants the result.
        let _ = tx.send(result);
    })?;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(message)) => return Err(errors::internal(message)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    control.cancel();
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(errors::internal("the worker thread ended without an answer"))
            }
        }
    }
}

/// One solution as the worker hands it over (cells, columns, option or
/// value indices), and what turns it into a Python object.
pub type Item = Vec<u32>;

/// Turns streamed items into Python objects.
pub trait Convert: Send + Sync {
    /// The Python object for one item.
    fn convert<'py>(&self, py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyAny>>;
}

/// Items as tuples of ints.
pub struct Tuples;

impl Convert for Tuples {
    fn convert<'py>(&self, py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, item)?.into_any())
    }
}

/// What the worker sends.
enum Message {
    /// Items, in order.
    Items(Vec<Item>),
    /// The worker panicked.
    Failed(String),
}

/// Items a batch may gather while the reader is busy.
const BATCH: usize = 256;

/// Batches in flight between worker and reader: with [`BATCH`], what bounds
/// the solutions held in memory.
const BATCHES: usize = 4;

/// The worker's end of a stream. Items go out one by one while the reader
/// keeps up, and in batches of up to [`BATCH`] while it does not.
pub struct Feed {
    tx: SyncSender<Message>,
    batch: Vec<Item>,
    control: Control,
}

impl Feed {
    /// Hands on one item; `Break` once the reader has gone (the iterator
    /// was dropped or interrupted), which ends the search.
    pub fn push(&mut self, item: Item) -> ControlFlow<()> {
        if self.control.is_cancelled() {
            return ControlFlow::Break(());
        }
        self.batch.push(item);
        let batch = std::mem::take(&mut self.batch);
        let full = batch.len() >= BATCH;
        let sent = if full {
            self.tx.send(Message::Items(batch)).is_ok()
        } else {
            match self.tx.try_send(Message::Items(batch)) {
                Ok(()) => true,
                Err(TrySendError::Full(Message::Items(batch))) => {
                    self.batch = batch;
                    true
                }
                Err(_) => false,
            }
        };
        if sent {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }

    /// Sends what is left once the search has ended.
    fn finish(mut self) {
        if !self.batch.is_empty() {
            let _ = self.tx.send(Message::Items(std::mem::take(&mut self.batch)));
        }
    }
}

/// An iterator over solutions found by a search on a worker thread. The
/// worker runs ahead by a bounded number of solutions; dropping the
/// iterator (or Ctrl-C while it waits) cancels the search, and the worker
/// thread ends at the search's next check.
#[pyclass(module = "backtrack", name = "Solutions")]
pub struct Solutions {
    /// The worker's channel, until it ends (in a mutex only so that the
    /// iterator may be shared between threads, as Python objects may).
    rx: Mutex<Option<Receiver<Message>>>,
    ready: VecDeque<Item>,
    control: Control,
    convert: Box<dyn Convert>,
}

impl Solutions {
    /// Starts `search` on a worker thread; it hands each solution to the
    /// [`Feed`] and stops when `push` says `Break` or the control is
    /// cancelled.
    pub fn start(
        convert: impl Convert + 'static,
        search: impl FnOnce(&mut Feed, &Control) + Send + 'static,
    ) -> PyResult<Solutions> {
        let (tx, rx) = mpsc::sync_channel(BATCHES);
        let control = Control::new();
        let mut feed = Feed { tx, batch: Vec::new(), control: control.clone() };
        spawn(move || {
            let worker_control = feed.control.clone();
            match catch_unwind(AssertUnwindSafe(|| search(&mut feed, &worker_control))) {
                Ok(()) => feed.finish(),
                Err(payload) => {
                    let _ = feed.tx.send(Message::Failed(panic_message(payload)));
                }
            }
        })?;
        Ok(Solutions { rx: Mutex::new(Some(rx)), ready: VecDeque::new(), control, convert: Box::new(convert) })
    }

    /// Stops the worker and forgets the channel.
    fn stop(&mut self) {
        self.control.cancel();
        *self.channel() = None;
        self.ready.clear();
    }

    fn channel(&mut self) -> &mut Option<Receiver<Message>> {
        self.rx.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        self.control.cancel();
    }
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return self.convert.convert(py, item).map(Some);
            }
            let Some(rx) = self.channel().take() else { return Ok(None) };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(POLL);
                (rx, got)
            });
            *self.channel() = Some(rx);
            match got {
                Ok(Message::Items(items)) => self.ready.extend(items),
                Ok(Message::Failed(message)) => {
                    self.stop();
                    return Err(errors::internal(message));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop();
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    *self.channel() = None;
                    return Ok(None);
                }
            }
        }
    }

    /// Stops the search now; the iterator then ends.
    fn close(&mut self) {
        self.stop();
    }
}
