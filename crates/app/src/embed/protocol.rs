//! The embedding API's wire format, version [`VERSION`] — plain Rust, tested natively.
//!
//! Every message, both ways, is a JSON object `{ "pyptoViewer": 1, "type": "…", … }`: the
//! version field is mandatory, an object of another version is refused. Host → viewer:
//! [`HostMessage`] (`open`, `navigate`, `setTheme`, `setLanguage`), read by [`parse`], which
//! says why it refuses anything else ([`Rejected`]); fields it does not know are ignored (a
//! newer host may send more). Viewer → host: the event builders ([`ready`], [`loaded`],
//! [`selection`], [`error`]). Which origins may talk to the viewer: [`allowed_origins`]
//! (`?allowOrigin=`). The README's "Embedding" section documents the same.

use std::fmt;

use pypto_protocol::{TaskId, ViewKind};
use serde_json::{json, Map, Value};

use crate::nav::Selected;
use crate::settings::{Language, Theme};

/// The protocol's version: the value of [`VERSION_KEY`] in every message.
pub const VERSION: u64 = 1;
/// The key that marks a message as the viewer's, its value the protocol version.
pub const VERSION_KEY: &str = "pyptoViewer";

/// A message of the host page.
#[derive(Clone, Debug, PartialEq)]
pub enum HostMessage {
    /// Opens a hosted dataset: a manifest or directory URL, as `?src=` takes.
    Open {
        url: String,
    },
    Navigate(Navigate),
    SetTheme(Theme),
    SetLanguage(Language),
}

/// Where to go: each part optional, at least one given. Applied in the order dataset, view,
/// window, task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Navigate {
    /// The dataset's path in the opened folder (`DatasetInfo.path`, as `loaded` lists it).
    pub dataset: Option<String>,
    pub view: Option<ViewKind>,
    /// A task to select (`r0t5`, `t5`, or the raw id as a decimal string or number).
    pub task: Option<TaskId>,
    /// The swimlane's window `[start, end]`, µs.
    pub window_us: Option<(f64, f64)>,
}

impl Navigate {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Why a message was not taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejected {
    /// Not a JSON object (a string, a number, null, an array).
    NotAnObject,
    /// No `pyptoViewer` field: not a message of this protocol.
    NoVersion,
    /// A `pyptoViewer` other than [`VERSION`] (as written).
    Version(String),
    NoType,
    UnknownType(String),
    /// A field missing or of the wrong kind.
    Field {
        field: &'static str,
        why: String,
    },
    /// A `navigate` naming nothing.
    EmptyNavigate,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAnObject => write!(f, "not an object"),
            Self::NoVersion => write!(f, "no \"{VERSION_KEY}\" field (the protocol version, {VERSION})"),
            Self::Version(v) => write!(f, "protocol version {v} is not supported (this viewer speaks {VERSION})"),
            Self::NoType => write!(f, "no \"type\" string"),
            Self::UnknownType(t) => write!(f, "unknown type {t:?} (open, navigate, setTheme, setLanguage)"),
            Self::Field { field, why } => write!(f, "\"{field}\": {why}"),
            Self::EmptyNavigate => write!(f, "navigate names nothing (dataset, view, task or windowUs)"),
        }
    }
}

fn field_error(field: &'static str, why: impl Into<String>) -> Rejected {
    Rejected::Field { field, why: why.into() }
}

/// Reads a host message.
pub fn parse(value: &Value) -> Result<HostMessage, Rejected> {
    let object = value.as_object().ok_or(Rejected::NotAnObject)?;
    match object.get(VERSION_KEY) {
        None => return Err(Rejected::NoVersion),
        // 1 or 1.0 (a JS number may come either way)
        Some(v) if v.as_u64() == Some(VERSION) || v.as_f64().is_some_and(|x| (x - VERSION as f64).abs() < f64::EPSILON) => {}
        Some(v) => return Err(Rejected::Version(v.to_string())),
    }
    let kind = object.get("type").and_then(Value::as_str).ok_or(Rejected::NoType)?;
    match kind {
        "open" => {
            let url = required_str(object, "url")?;
            Ok(HostMessage::Open { url: url.to_owned() })
        }
        "navigate" => navigate(object).map(HostMessage::Navigate),
        "setTheme" => {
            let key = required_str(object, "theme")?;
            Theme::parse(key)
                .map(HostMessage::SetTheme)
                .ok_or_else(|| field_error("theme", format!("{key:?} is not light, dark or system")))
        }
        "setLanguage" => {
            let key = required_str(object, "language")?;
            Language::parse(key).map(HostMessage::SetLanguage).ok_or_else(|| field_error("language", format!("{key:?} is not en or zh")))
        }
        other => Err(Rejected::UnknownType(other.to_owned())),
    }
}

fn required_str<'a>(object: &'a Map<String, Value>, field: &'static str) -> Result<&'a str, Rejected> {
    match object.get(field) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim()),
        Some(Value::String(_)) => Err(field_error(field, "empty")),
        Some(other) => Err(field_error(field, format!("not a string: {other}"))),
        None => Err(field_error(field, "missing")),
    }
}

/// An optional string field (`null` counts as absent).
fn optional_str<'a>(object: &'a Map<String, Value>, field: &'static str) -> Result<Option<&'a str>, Rejected> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(_) => required_str(object, field).map(Some),
    }
}

fn navigate(object: &Map<String, Value>) -> Result<Navigate, Rejected> {
    let dataset = optional_str(object, "dataset")?.map(str::to_owned);
    let view = optional_str(object, "view")?.map(view_kind).transpose()?;
    let task = match object.get("task") {
        None | Some(Value::Null) => None,
        Some(value) => Some(task_id(value)?),
    };
    let window_us = match object.get("windowUs") {
        None | Some(Value::Null) => None,
        Some(value) => Some(window(value)?),
    };
    let navigate = Navigate { dataset, view, task, window_us };
    if navigate.is_empty() {
        return Err(Rejected::EmptyNavigate);
    }
    Ok(navigate)
}

fn view_kind(key: &str) -> Result<ViewKind, Rejected> {
    ViewKind::from_key(key).ok_or_else(|| {
        let keys: Vec<&str> = ViewKind::ALL.iter().map(|v| v.key()).collect();
        field_error("view", format!("{key:?} is not one of {}", keys.join(", ")))
    })
}

/// A task id: text `TaskId` parses, or a non-negative integer number (exact only up to 2^53:
/// bigger raw ids go as strings).
fn task_id(value: &Value) -> Result<TaskId, Rejected> {
    const MAX_EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match value {
        Value::String(text) => text.parse::<TaskId>().map_err(|e| field_error("task", e.to_string())),
        Value::Number(n) => {
            if let Some(raw) = n.as_u64() {
                return Ok(TaskId(raw));
            }
            match n.as_f64() {
                Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= MAX_EXACT => Ok(TaskId(x as u64)),
                _ => Err(field_error("task", format!("{n} is not a task number (a non-negative integer)"))),
            }
        }
        other => Err(field_error("task", format!("not a task id: {other}"))),
    }
}

/// `[start, end]` µs, finite, start < end.
fn window(value: &Value) -> Result<(f64, f64), Rejected> {
    let bad = || field_error("windowUs", format!("not [startUs, endUs] with startUs < endUs: {value}"));
    let Some([start, end]) = value.as_array().map(Vec::as_slice) else { return Err(bad()) };
    let (Some(start), Some(end)) = (start.as_f64(), end.as_f64()) else { return Err(bad()) };
    if start.is_finite() && end.is_finite() && start < end {
        Ok((start, end))
    } else {
        Err(bad())
    }
}

/// The start parameters `?view=&dataset=&task=` as a navigation (`None`: none given).
pub fn navigate_from_query(view: Option<&str>, dataset: Option<&str>, task: Option<&str>) -> Result<Option<Navigate>, Rejected> {
    fn present(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| !s.is_empty())
    }
    let navigate = Navigate {
        dataset: present(dataset).map(str::to_owned),
        view: present(view).map(view_kind).transpose()?,
        task: present(task).map(|t| t.parse::<TaskId>().map_err(|e| field_error("task", e.to_string()))).transpose()?,
        window_us: None,
    };
    Ok((!navigate.is_empty()).then_some(navigate))
}

/// An origin as `MessageEvent.origin` spells it (`https://docs.example.com`,
/// `http://localhost:8000`): scheme http or https, lower case, no default port, no path (one
/// trailing `/` is allowed), no user info. `None` for anything else (`*`, `null`, a URL with a
/// path, another scheme).
pub fn normalize_origin(text: &str) -> Option<String> {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    let default_port = match scheme {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let host_port = rest.strip_suffix('/').unwrap_or(rest);
    if host_port.is_empty() || host_port.contains(['/', '?', '#', '@', '\\', ' ', '*']) {
        return None;
    }
    let (host, port) = match host_port.rsplit_once(':') {
        // An IPv6 literal's colons are inside brackets.
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (host_port, None),
    };
    if host.is_empty() {
        return None;
    }
    match port {
        Some(p) if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.parse::<u16>().is_err() => None,
        Some(p) if p == default_port => Some(format!("{scheme}://{host}")),
        Some(p) => Some(format!("{scheme}://{host}:{p}")),
        None => Some(format!("{scheme}://{host}")),
    }
}

/// The origins `?allowOrigin=` declares (each value may list several, comma-separated), and
/// the values refused (not an origin).
pub fn allowed_origins<S: AsRef<str>>(values: &[S]) -> (Vec<String>, Vec<String>) {
    let (mut allowed, mut refused) = (Vec::new(), Vec::new());
    for part in values.iter().flat_map(|v| v.as_ref().split(',')).map(str::trim).filter(|p| !p.is_empty()) {
        match normalize_origin(part) {
            Some(origin) if !allowed.contains(&origin) => allowed.push(origin),
            Some(_) => {}
            None => refused.push(part.to_owned()),
        }
    }
    (allowed, refused)
}

/// An event: `{ pyptoViewer, type, …fields }`.
fn event(kind: &str, fields: Value) -> Value {
    let mut object = Map::new();
    object.insert(VERSION_KEY.to_owned(), json!(VERSION));
    object.insert("type".to_owned(), json!(kind));
    if let Value::Object(fields) = fields {
        object.extend(fields);
    }
    Value::Object(object)
}

/// `ready`: the viewer listens (send nothing before it).
pub fn ready(viewer_version: &str, embedded: bool) -> Value {
    event("ready", json!({ "protocol": VERSION, "viewerVersion": viewer_version, "embed": embedded }))
}

/// One dataset of a `loaded` event.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedDataset {
    pub path: String,
    /// `DatasetKind::attr` (`runtime`, `pass-dump`, `serving-strace`).
    pub kind: &'static str,
    /// The views that can show it (keys `navigate` takes).
    pub views: Vec<ViewKind>,
    pub tasks: Option<u64>,
    pub file_errors: usize,
}

/// `loaded`: a folder or URL finished loading.
pub fn loaded(source: &str, datasets: &[LoadedDataset], file_errors: usize, problems: usize) -> Value {
    let datasets: Vec<Value> = datasets
        .iter()
        .map(|d| {
            json!({
                "path": d.path,
                "kind": d.kind,
                "views": d.views.iter().map(|v| v.key()).collect::<Vec<_>>(),
                "tasks": d.tasks,
                "fileErrors": d.file_errors,
            })
        })
        .collect();
    event("loaded", json!({ "source": source, "datasets": datasets, "fileErrors": file_errors, "problems": problems }))
}

/// `selection`: the selection of `view` of `dataset` changed; `selected` `None`: cleared.
pub fn selection(dataset: Option<&str>, view: Option<ViewKind>, selected: Option<&Selected>) -> Value {
    let s = selected.cloned().unwrap_or_default();
    event(
        "selection",
        json!({
            "dataset": dataset,
            "view": view.map(ViewKind::key),
            "selected": selected.is_some(),
            "task": s.task.map(|t| t.to_string()),
            // The raw id as a decimal string (ids exceed 2^53).
            "taskRaw": s.task.map(|t| t.raw().to_string()),
            "function": s.function,
            "lane": s.lane,
            "startUs": s.start_us,
            "endUs": s.end_us,
        }),
    )
}

/// What an `error` event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file of the dataset could not be read or parsed.
    File,
    /// The analysis worker crashed (it was restarted).
    Crash,
    /// Another problem of the load (a manifest that could not be fetched, a refused request).
    Problem,
    /// A host message the viewer did not take.
    Message,
    /// A `navigate` that names what is not there.
    Navigate,
}

impl ErrorKind {
    pub fn key(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Crash => "crash",
            Self::Problem => "problem",
            Self::Message => "message",
            Self::Navigate => "navigate",
        }
    }
}

/// Where a file error is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorPlace {
    pub path: String,
    pub line: u64,
    pub column: u64,
}

/// `error`.
pub fn error(kind: ErrorKind, message: &str, place: Option<&ErrorPlace>) -> Value {
    event(
        "error",
        json!({
            "kind": kind.key(),
            "message": message,
            "path": place.map(|p| p.path.clone()),
            "line": place.map(|p| p.line),
            "column": place.map(|p| p.column),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(fields: &Value) -> Value {
        let mut m = json!({ "pyptoViewer": 1 });
        if let (Some(m), Some(f)) = (m.as_object_mut(), fields.as_object()) {
            m.extend(f.clone());
        }
        m
    }

    fn field_of(r: &Result<HostMessage, Rejected>) -> Option<&'static str> {
        match r {
            Err(Rejected::Field { field, .. }) => Some(field),
            _ => None,
        }
    }

    #[test]
    fn reads_every_host_message() {
        assert_eq!(parse(&msg(&json!({"type": "open", "url": " data/run1/ "}))), Ok(HostMessage::Open { url: "data/run1/".into() }));
        assert_eq!(parse(&msg(&json!({"type": "setTheme", "theme": "dark"}))), Ok(HostMessage::SetTheme(Theme::Dark)));
        assert_eq!(parse(&msg(&json!({"type": "setTheme", "theme": "system"}))), Ok(HostMessage::SetTheme(Theme::System)));
        assert_eq!(parse(&msg(&json!({"type": "setLanguage", "language": "zh"}))), Ok(HostMessage::SetLanguage(Language::Chinese)));
        assert_eq!(parse(&msg(&json!({"type": "setLanguage", "language": "en-US"}))), Ok(HostMessage::SetLanguage(Language::English)));
        let full = json!({"type": "navigate", "dataset": "case/dfx_outputs", "view": "dep-graph", "task": "r2t5", "windowUs": [1.5, 20]});
        assert_eq!(
            parse(&msg(&full)),
            Ok(HostMessage::Navigate(Navigate {
                dataset: Some("case/dfx_outputs".into()),
                view: Some(ViewKind::TaskGraph),
                task: Some(TaskId::from_parts(2, 5)),
                window_us: Some((1.5, 20.0)),
            }))
        );
        // the version as a float, unknown fields, nulls as absent
        let v = json!({"pyptoViewer": 1.0, "type": "navigate", "view": "swimlane", "dataset": null, "extra": {"x": 1}});
        assert_eq!(parse(&v), Ok(HostMessage::Navigate(Navigate { view: Some(ViewKind::ChipSwimlane), ..Navigate::default() })));
    }

    #[test]
    fn task_ids_as_text_or_number() {
        let task = |t: Value| match parse(&msg(&json!({"type": "navigate", "task": t}))) {
            Ok(HostMessage::Navigate(n)) => n.task,
            _ => None,
        };
        assert_eq!(task(json!("t7")), Some(TaskId(7)));
        assert_eq!(task(json!("R1T2")), Some(TaskId::from_parts(1, 2)));
        assert_eq!(task(json!("8589934592")), Some(TaskId::from_parts(2, 0)));
        assert_eq!(task(json!(8_589_934_593_u64)), Some(TaskId::from_parts(2, 1)));
        assert_eq!(task(json!(12.0)), Some(TaskId(12)));
        // a number too big for an exact double is still an integer in JSON
        assert_eq!(task(json!(u64::MAX)), Some(TaskId(u64::MAX)));
    }

    #[test]
    fn refuses_what_is_not_a_message() {
        for v in [json!(null), json!("open"), json!(1), json!([1, 2]), json!(true)] {
            assert_eq!(parse(&v), Err(Rejected::NotAnObject), "{v}");
        }
        assert_eq!(parse(&json!({})), Err(Rejected::NoVersion));
        assert_eq!(parse(&json!({"type": "open", "url": "x"})), Err(Rejected::NoVersion));
        assert_eq!(parse(&json!({"pyptoViewer": 2, "type": "open", "url": "x"})), Err(Rejected::Version("2".into())));
        assert_eq!(parse(&json!({"pyptoViewer": "1", "type": "open", "url": "x"})), Err(Rejected::Version("\"1\"".into())));
        assert_eq!(parse(&json!({"pyptoViewer": 0.5, "type": "open"})), Err(Rejected::Version("0.5".into())));
        assert_eq!(parse(&json!({"pyptoViewer": null, "type": "open"})), Err(Rejected::Version("null".into())));
        assert_eq!(parse(&msg(&json!({}))), Err(Rejected::NoType));
        assert_eq!(parse(&msg(&json!({"type": 3}))), Err(Rejected::NoType));
        assert_eq!(parse(&msg(&json!({"type": "close"}))), Err(Rejected::UnknownType("close".into())));
        assert_eq!(parse(&msg(&json!({"type": "Open", "url": "x"}))), Err(Rejected::UnknownType("Open".into())));
    }

    #[test]
    fn refuses_bad_fields() {
        let bad = [
            (json!({"type": "open"}), "url"),
            (json!({"type": "open", "url": ""}), "url"),
            (json!({"type": "open", "url": "  "}), "url"),
            (json!({"type": "open", "url": 5}), "url"),
            (json!({"type": "open", "url": ["a"]}), "url"),
            (json!({"type": "setTheme"}), "theme"),
            (json!({"type": "setTheme", "theme": "blue"}), "theme"),
            (json!({"type": "setTheme", "theme": true}), "theme"),
            (json!({"type": "setLanguage", "language": "fr"}), "language"),
            (json!({"type": "setLanguage"}), "language"),
            (json!({"type": "navigate", "view": "graph"}), "view"),
            (json!({"type": "navigate", "view": 1}), "view"),
            (json!({"type": "navigate", "dataset": 3}), "dataset"),
            (json!({"type": "navigate", "dataset": ""}), "dataset"),
            (json!({"type": "navigate", "task": "zz"}), "task"),
            (json!({"type": "navigate", "task": "r300t1"}), "task"),
            (json!({"type": "navigate", "task": -1}), "task"),
            (json!({"type": "navigate", "task": 1.5}), "task"),
            (json!({"type": "navigate", "task": 1e300}), "task"),
            (json!({"type": "navigate", "task": {"id": 1}}), "task"),
            (json!({"type": "navigate", "task": true}), "task"),
            (json!({"type": "navigate", "windowUs": [5, 1]}), "windowUs"),
            (json!({"type": "navigate", "windowUs": [1, 1]}), "windowUs"),
            (json!({"type": "navigate", "windowUs": [1]}), "windowUs"),
            (json!({"type": "navigate", "windowUs": [1, 2, 3]}), "windowUs"),
            (json!({"type": "navigate", "windowUs": ["1", 2]}), "windowUs"),
            (json!({"type": "navigate", "windowUs": {"start": 1, "end": 2}}), "windowUs"),
            (json!({"type": "navigate", "windowUs": 3}), "windowUs"),
        ];
        for (v, field) in bad {
            let r = parse(&msg(&v));
            assert_eq!(field_of(&r), Some(field), "{v}: {r:?}");
            // every refusal says why, naming the field
            assert!(r.err().is_some_and(|e| e.to_string().contains(field)), "{v}");
        }
        assert_eq!(parse(&msg(&json!({"type": "navigate"}))), Err(Rejected::EmptyNavigate));
        assert_eq!(parse(&msg(&json!({"type": "navigate", "task": null, "view": null}))), Err(Rejected::EmptyNavigate));
    }

    #[test]
    fn start_parameters() {
        assert_eq!(navigate_from_query(None, None, None), Ok(None));
        assert_eq!(navigate_from_query(Some(""), Some(" "), None), Ok(None));
        assert_eq!(
            navigate_from_query(Some("dep-graph"), Some("case/dfx_outputs"), Some("t3")),
            Ok(Some(Navigate {
                dataset: Some("case/dfx_outputs".into()),
                view: Some(ViewKind::TaskGraph),
                task: Some(TaskId(3)),
                window_us: None
            }))
        );
        assert!(matches!(navigate_from_query(Some("nope"), None, None), Err(Rejected::Field { field: "view", .. })));
        assert!(matches!(navigate_from_query(None, None, Some("x1")), Err(Rejected::Field { field: "task", .. })));
    }

    #[test]
    fn origins_are_normalised_or_refused() {
        assert_eq!(normalize_origin("https://Docs.Example.com"), Some("https://docs.example.com".into()));
        assert_eq!(normalize_origin("https://docs.example.com/"), Some("https://docs.example.com".into()));
        assert_eq!(normalize_origin("https://docs.example.com:443"), Some("https://docs.example.com".into()));
        assert_eq!(normalize_origin("http://localhost:80/"), Some("http://localhost".into()));
        assert_eq!(normalize_origin(" http://127.0.0.1:8000 "), Some("http://127.0.0.1:8000".into()));
        assert_eq!(normalize_origin("https://[::1]:9000"), Some("https://[::1]:9000".into()));
        assert_eq!(normalize_origin("https://[::1]"), Some("https://[::1]".into()));
        for bad in [
            "*",
            "null",
            "",
            "docs.example.com",
            "ftp://x.org",
            "file:///tmp",
            "https://",
            "https://x.org/docs",
            "https://x.org?a",
            "https://x.org#a",
            "https://u@x.org",
            "https://*.x.org",
            "https://x.org:",
            "https://x.org:99999",
            "https://x.org:8a",
            "https://:80",
        ] {
            assert_eq!(normalize_origin(bad), None, "{bad}");
        }
        let (allowed, refused) = allowed_origins(&["https://a.org, http://b.org:81", "https://a.org/", "*", "", "https://c.org"]);
        assert_eq!(allowed, ["https://a.org", "http://b.org:81", "https://c.org"]);
        assert_eq!(refused, ["*"]);
        let none: [&str; 0] = [];
        assert_eq!(allowed_origins(&none), (Vec::new(), Vec::new()));
    }

    #[test]
    fn events_carry_the_version_and_their_fields() {
        let ready_event = ready("0.1.0", true);
        assert_eq!(ready_event, json!({"pyptoViewer": 1, "type": "ready", "protocol": 1, "viewerVersion": "0.1.0", "embed": true}));
        let dataset =
            LoadedDataset { path: "c/dfx".into(), kind: "runtime", views: vec![ViewKind::ChipSwimlane], tasks: Some(7), file_errors: 0 };
        let load = loaded("https://x/demo/", &[dataset], 1, 0);
        assert_eq!(load["type"], "loaded");
        assert_eq!(load["datasets"][0], json!({"path": "c/dfx", "kind": "runtime", "views": ["swimlane"], "tasks": 7, "fileErrors": 0}));
        assert_eq!((load["fileErrors"].as_u64(), load["problems"].as_u64()), (Some(1), Some(0)));
        let selected = Selected {
            task: Some(TaskId::from_parts(2, 5)),
            function: Some("qk".into()),
            lane: None,
            start_us: Some(1.0),
            end_us: Some(2.5),
        };
        let event = selection(Some("c/dfx"), Some(ViewKind::ChipSwimlane), Some(&selected));
        assert_eq!(event["pyptoViewer"], 1);
        assert_eq!((event["task"].as_str(), event["taskRaw"].as_str()), (Some("r2t5"), Some("8589934597")));
        assert_eq!((event["function"].as_str(), event["startUs"].as_f64(), event["endUs"].as_f64()), (Some("qk"), Some(1.0), Some(2.5)));
        assert_eq!((event["view"].as_str(), event["selected"].as_bool(), event["lane"].is_null()), (Some("swimlane"), Some(true), true));
        let cleared = selection(None, None, None);
        assert_eq!((cleared["selected"].as_bool(), cleared["task"].is_null()), (Some(false), true));
        let place = ErrorPlace { path: "a/deps.json".into(), line: 3, column: 4 };
        let err = error(ErrorKind::File, "bad", Some(&place));
        assert_eq!(
            err,
            json!({"pyptoViewer": 1, "type": "error", "kind": "file", "message": "bad", "path": "a/deps.json", "line": 3, "column": 4})
        );
        assert_eq!(error(ErrorKind::Crash, "x", None)["kind"], "crash");
    }
}
