//! `cargo xtask serve`: build, then serve `dist/` on 127.0.0.1 with a small dependency-free
//! static file server (`std::net`, one thread per connection, `Connection: close`).
//!
//! Correct MIME types (`application/wasm` matters for `instantiateStreaming`, a JS type for
//! module scripts and workers), `Cache-Control: no-cache` with an `ETag` (size and mtime) and
//! `304 Not Modified` for a matching `If-None-Match`, as static hosts answer (a revisit then
//! takes the browser's cached copy, and its cached compiled wasm), HEAD, 404, 405, path traversal
//! refused (403), `index.html` for directories (with a redirect to the trailing-slash URL so
//! relative links resolve). No COOP/COEP headers: the app does not use `SharedArrayBuffer`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::build;

pub const DEFAULT_PORT: u16 = 8080;
const MAX_HEADER_BYTES: usize = 16 * 1024;

#[derive(Debug)]
pub struct Options {
    pub port: u16,
    pub build: bool,
    pub dir: Option<PathBuf>,
    pub build_opts: build::Options,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { port: DEFAULT_PORT, build: true, dir: None, build_opts: build::Options::default() };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" | "-p" => {
                let value = it.next().ok_or("--port needs a number")?;
                opts.port = value.parse().map_err(|_| format!("bad port `{value}`"))?;
            }
            "--no-build" => opts.build = false,
            "--dir" => opts.dir = Some(PathBuf::from(it.next().ok_or("--dir needs a path")?)),
            other => return Err(format!("unknown serve option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    if opts.build && opts.dir.is_none() {
        build::run(&opts.build_opts, true)?;
    }
    let dir = opts.dir.clone().unwrap_or_else(build::dist_dir);
    if !dir.is_dir() {
        return Err(format!("{} does not exist: run `cargo xtask build` first", dir.display()));
    }
    let listener = TcpListener::bind(("127.0.0.1", opts.port)).map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", opts.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("Serving {} at http://{addr}/  (Ctrl+C to stop)", dir.display());
    println!("Open http://{addr}/ and press \"Open demo\".");
    serve_forever(&listener, &dir, true).map_err(|e| e.to_string())
}

/// Accepts connections until the listener fails; one thread per connection.
pub fn serve_forever(listener: &TcpListener, dir: &Path, log: bool) -> io::Result<()> {
    let root = dir.canonicalize()?;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, &root, log);
        });
    }
    Ok(())
}

/// Starts a server on `127.0.0.1:port` (0 = any free port) in a background thread.
#[cfg(test)]
pub fn spawn(dir: &Path, port: u16) -> io::Result<std::net::SocketAddr> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let addr = listener.local_addr()?;
    let dir = dir.to_path_buf();
    std::thread::spawn(move || serve_forever(&listener, &dir, false));
    Ok(addr)
}

/// The Content-Type for a file name.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "py" | "log" | "txt" | "pto" | "jsonl" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Why a request path was not mapped to a file system path.
#[derive(Debug, PartialEq, Eq)]
pub enum PathError {
    /// Not an absolute path, bad percent-encoding, NUL, backslash.
    BadRequest,
    /// A `..` segment.
    Traversal,
}

/// Maps the path part of a request target (`/a/b%20c.json?x`) to relative segments.
pub fn request_segments(target: &str) -> Result<Vec<String>, PathError> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(PathError::BadRequest);
    }
    let decoded = percent_decode(path).ok_or(PathError::BadRequest)?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return Err(PathError::BadRequest);
    }
    let mut segments = Vec::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(PathError::Traversal),
            s => segments.push(s.to_string()),
        }
    }
    Ok(segments)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

struct Response {
    status: &'static str,
    headers: Vec<(&'static str, String)>,
    body: Body,
}

enum Body {
    Text(String),
    File(File, u64),
}

impl Response {
    fn text(status: &'static str, body: &str) -> Self {
        Self { status, headers: vec![("Content-Type", "text/plain; charset=utf-8".into())], body: Body::Text(format!("{body}\n")) }
    }
}

fn handle(stream: TcpStream, root: &Path, log: bool) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let Some(head) = read_head(&mut reader)? else { return Ok(()) };
    let request_line = head.lines().next().unwrap_or_default().to_string();
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    let head_only = method == "HEAD";
    let if_none_match = head.lines().skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim().eq_ignore_ascii_case("if-none-match").then(|| value.trim().to_owned())
    });
    let response = if method == "GET" || head_only {
        respond(root, target, if_none_match.as_deref())
    } else {
        let mut r = Response::text("405 Method Not Allowed", "method not allowed");
        r.headers.push(("Allow", "GET, HEAD".into()));
        r
    };
    if log {
        println!("{method} {target} -> {}", response.status);
    }
    write_response(stream, response, head_only)
}

/// Reads the request head (up to the blank line). `None` for an empty connection.
fn read_head(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line)?;
        if n == 0 {
            return Ok((!head.is_empty()).then_some(head));
        }
        if line == "\r\n" || line == "\n" {
            return Ok(Some(head));
        }
        head.push_str(&line);
        if head.len() > MAX_HEADER_BYTES {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "request head too large"));
        }
    }
}

/// A file's entity tag: its size and modification time (what changes when a build rewrites it).
fn entity_tag(meta: &std::fs::Metadata) -> String {
    let mtime_ns = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    format!("\"{:x}-{mtime_ns:x}\"", meta.len())
}

fn respond(root: &Path, target: &str, if_none_match: Option<&str>) -> Response {
    let segments = match request_segments(target) {
        Ok(s) => s,
        Err(PathError::Traversal) => return Response::text("403 Forbidden", "path traversal refused"),
        Err(PathError::BadRequest) => return Response::text("400 Bad Request", "bad request path"),
    };
    let mut path = root.to_path_buf();
    path.extend(&segments);
    // Resolve symlinks and make sure we are still inside the served directory.
    let Ok(mut path) = path.canonicalize() else { return Response::text("404 Not Found", "not found") };
    if !path.starts_with(root) {
        return Response::text("403 Forbidden", "outside the served directory");
    }
    if path.is_dir() {
        let url_path = target.split(['?', '#']).next().unwrap_or("/");
        if !url_path.ends_with('/') {
            let query = target.find('?').map_or("", |i| &target[i..]);
            let mut r = Response::text("301 Moved Permanently", "moved");
            r.headers.push(("Location", format!("{url_path}/{query}")));
            return r;
        }
        path = path.join("index.html");
        if !path.is_file() {
            return Response::text("404 Not Found", "not found (no index.html)");
        }
    }
    match File::open(&path).and_then(|f| f.metadata().map(|m| (f, m))) {
        Ok((_, meta)) if if_none_match == Some(entity_tag(&meta).as_str()) => {
            Response { status: "304 Not Modified", headers: vec![("ETag", entity_tag(&meta))], body: Body::Text(String::new()) }
        }
        Ok((file, meta)) => Response {
            status: "200 OK",
            headers: vec![("Content-Type", mime_type(&path).into()), ("ETag", entity_tag(&meta))],
            body: Body::File(file, meta.len()),
        },
        Err(_) => Response::text("404 Not Found", "not found"),
    }
}

fn write_response(mut stream: TcpStream, response: Response, head_only: bool) -> io::Result<()> {
    let len = match &response.body {
        Body::Text(text) => text.len() as u64,
        Body::File(_, len) => *len,
    };
    let mut head = format!("HTTP/1.1 {}\r\n", response.status);
    for (name, value) in &response.headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head.push_str("Content-Length: ");
    head.push_str(&len.to_string());
    head.push_str("\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes())?;
    if !head_only {
        match response.body {
            Body::Text(text) => stream.write_all(text.as_bytes())?,
            Body::File(mut file, _) => {
                io::copy(&mut file, &mut stream)?;
            }
        }
    }
    stream.flush()
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::SocketAddr;

    #[test]
    fn mime_types() {
        for (name, mime) in [
            ("a.wasm", "application/wasm"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.JSON", "application/json"),
            ("index.html", "text/html; charset=utf-8"),
            ("s.css", "text/css; charset=utf-8"),
            ("i.svg", "image/svg+xml"),
            ("i.png", "image/png"),
            ("manifest.webmanifest", "application/manifest+json"),
            ("01_after_X.py", "text/plain; charset=utf-8"),
            ("perf_hints.log", "text/plain; charset=utf-8"),
            ("a.txt", "text/plain; charset=utf-8"),
            ("noext", "application/octet-stream"),
        ] {
            assert_eq!(mime_type(Path::new(name)), mime, "{name}");
        }
    }

    #[test]
    fn request_paths() {
        assert_eq!(request_segments("/"), Ok(vec![]));
        assert_eq!(request_segments("/a/./b%20c.json?x=1#y"), Ok(vec!["a".into(), "b c.json".into()]));
        assert_eq!(request_segments("/a/../b"), Err(PathError::Traversal));
        assert_eq!(request_segments("/%2e%2e/etc/passwd"), Err(PathError::Traversal));
        assert_eq!(request_segments("/a%5c..%5cb"), Err(PathError::BadRequest));
        assert_eq!(request_segments("/a%00"), Err(PathError::BadRequest));
        assert_eq!(request_segments("/%zz"), Err(PathError::BadRequest));
        assert_eq!(request_segments("a"), Err(PathError::BadRequest));
    }

    fn raw(addr: SocketAddr, request: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        stream.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_files() {
        let tmp = std::env::temp_dir().join(format!("xtask-serve-test-{}", std::process::id()));
        let site = tmp.join("site");
        std::fs::create_dir_all(site.join("sub")).unwrap();
        std::fs::write(site.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(site.join("app_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(site.join("sub/x.json"), "{}").unwrap();
        std::fs::write(tmp.join("secret.txt"), "no").unwrap();
        let addr = spawn(&site, 0).unwrap();

        let r = raw(addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Type: text/html; charset=utf-8\r\n"));
        assert!(r.contains("Cache-Control: no-cache\r\n"));
        assert!(!r.to_ascii_lowercase().contains("cross-origin"));
        assert!(r.ends_with("<p>hi</p>"));

        let r = raw(addr, "HEAD /app_bg.wasm HTTP/1.1\r\n\r\n");
        assert!(r.contains("Content-Type: application/wasm\r\n") && r.contains("Content-Length: 8\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\n"), "HEAD has no body: {r:?}");

        let r = raw(addr, "GET /sub HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 301") && r.contains("Location: /sub/\r\n"), "{r}");
        assert!(raw(addr, "GET /sub/ HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(raw(addr, "GET /sub/x.json?v=1 HTTP/1.1\r\n\r\n").contains("application/json"));
        assert!(raw(addr, "GET /nope.js HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(raw(addr, "GET /../secret.txt HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 403"));
        assert!(raw(addr, "GET /%2e%2e/secret.txt HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 403"));
        assert!(raw(addr, "POST / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
        // A revisit with the file's entity tag is answered 304, without a body; another tag gets the file.
        let r = raw(addr, "GET /sub/x.json HTTP/1.1\r\n\r\n");
        let tag = r.lines().find_map(|l| l.strip_prefix("ETag: ")).expect("an ETag").to_owned();
        let r = raw(addr, &format!("GET /sub/x.json HTTP/1.1\r\nIf-None-Match: {tag}\r\n\r\n"));
        assert!(r.starts_with("HTTP/1.1 304") && r.contains(&format!("ETag: {tag}\r\n")) && r.ends_with("\r\n\r\n"), "{r}");
        let r = raw(addr, "GET /sub/x.json HTTP/1.1\r\nIf-None-Match: \"other\"\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200") && r.ends_with("{}"), "{r}");
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
