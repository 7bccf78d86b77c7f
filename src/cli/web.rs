//! `backtrack web`: serves the workbench page (the files of `web/` and the
//! library compiled to WebAssembly, both built into the binary) on 127.0.0.1.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use super::{CliError, CliResult, EXIT_OK};

/// The library built for `wasm32-unknown-unknown` by build.rs (empty when it could not be).
const WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/backtrack.wasm"));
/// Why build.rs could not build it.
const WASM_NOTE: &str = env!("BACKTRACK_WASM_NOTE");

/// The page's files: path, content type, bytes.
const FILES: [(&str, &str, &[u8]); 3] = [
    ("/index.html", "text/html; charset=utf-8", include_bytes!("../../web/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_bytes!("../../web/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_bytes!("../../web/style.css")),
];

/// Longest request line or header line read.
const MAX_LINE: usize = 8 * 1024;

/// Serve the learner's workbench: watch N-queens, sudoku and enumeration searched step by step.
///
/// The page runs the library itself, compiled to WebAssembly, in the browser; it needs nothing
/// from the network. It listens on 127.0.0.1 only; Ctrl-C stops it.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    backtrack web               serve on http://127.0.0.1:8080/\n  \
    backtrack web --port 0      any free port (the address is printed)")]
pub struct Args {
    /// Port to listen on (0: any free port).
    #[arg(long, short, default_value_t = 8080)]
    pub port: u16,
}

/// Runs `backtrack web`.
pub fn run(args: Args) -> CliResult {
    if WASM.is_empty() {
        return Err(CliError::Failure(format!(
            "this binary was built without the page's WebAssembly module ({WASM_NOTE}); \
             run `rustup target add wasm32-unknown-unknown`, then `cargo build --release` again"
        )));
    }
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| CliError::Failure(format!("cannot listen on 127.0.0.1:{}: {e}", args.port)))?;
    let addr = listener.local_addr()?;
    let mut out = super::stdout();
    writeln!(out, "serving the workbench on http://{addr}/ (Ctrl-C to stop)")?;
    out.flush()?;
    drop(out);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        std::thread::spawn(move || {
            let _ = serve(stream);
        });
    }
    Ok(EXIT_OK)
}

/// Answers the requests of one connection.
fn serve(stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    loop {
        let Some(request) = read_line(&mut reader)? else { return Ok(()) };
        // Skip the headers; the answer does not depend on them.
        while let Some(header) = read_line(&mut reader)? {
            if header.is_empty() {
                break;
            }
        }
        let mut words = request.split(' ');
        let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("");
        let path = if path == "/" { "/index.html" } else { path };
        let file = match path {
            "/backtrack.wasm" => Some(("application/wasm", WASM)),
            _ => FILES.iter().find(|(name, ..)| *name == path).map(|&(_, kind, bytes)| (kind, bytes)),
        };
        let (status, kind, body): (&str, &str, &[u8]) = match (method, file) {
            ("GET" | "HEAD", Some((kind, bytes))) => ("200 OK", kind, bytes),
            ("GET" | "HEAD", None) => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n"),
            _ => ("405 Method Not Allowed", "text/plain; charset=utf-8", b"method not allowed\n"),
        };
        write!(
            stream,
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\n\r\n",
            body.len()
        )?;
        if method != "HEAD" {
            stream.write_all(body)?;
        }
        stream.flush()?;
    }
}

/// One line without its line ending; `None` at the end of the stream or on a
/// line longer than [`MAX_LINE`].
fn read_line<R: BufRead>(reader: &mut R) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let read = Read::take(&mut *reader, MAX_LINE as u64).read_until(b'\n', &mut line)?;
    if read == 0 || !line.ends_with(b"\n") {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&line);
    Ok(Some(text.trim_end_matches(['\r', '\n']).to_string()))
}
