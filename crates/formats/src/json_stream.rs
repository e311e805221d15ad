//! Incremental reading of a JSON object document whose big values are arrays of small
//! elements (the records file's `aicore_tasks`, deps.json's `tasks`/`edges`), for the worker:
//! it reads a large file slice by slice and never holds the whole text.
//!
//! [`Splitter`] scans the top-level object as bytes arrive. For a key the [`Target`] streams,
//! each array element (or, for [`Layout::Nested`], each element of each inner array) is handed
//! to the target as soon as it is complete, as a byte slice the target deserialises with
//! `serde_json::from_slice` speed (see [`de_one`]); the incomplete tail waits for the next
//! slice. Every other top-level key is copied verbatim into a small side document
//! (`{"key": value, …}`) that the reader parses with its ordinary whole-document code at the end.
//!
//! The splitter is deliberately conservative: anything unusual (not an object, a repeated or
//! escaped key, a malformed element, trailing text) makes it fail, and the caller then parses
//! the whole file with the ordinary reader, which reports the exact error with its line and
//! column. So the streamed result is either identical to the whole-file result or absent.

use serde::Deserialize;

/// How a streamed top-level array is shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `[elem, elem, …]`
    Flat,
    /// `[[elem, …], [elem, …], …]` (one inner array per thread); [`Target::group`] is called
    /// at each inner array's start.
    Nested,
}

/// What became of one element.
pub(crate) enum Elem {
    /// Parsed; this many bytes were consumed.
    Done(usize),
    /// The element runs past the bytes received so far.
    NeedMore,
    /// Malformed: give up streaming.
    Fail,
}

/// The reader's side of the splitter.
pub(crate) trait Target {
    /// Slot and layout of a streamed key, or `None` to copy it into the side document.
    fn layout(&self, key: &[u8]) -> Option<(usize, Layout)>;
    /// A streamed array of `slot` starts (called once per key, before its elements).
    fn open(&mut self, slot: usize);
    /// An inner array of a nested `slot` starts.
    fn group(&mut self, slot: usize);
    /// Deserialises the element at the start of `bytes`, which starts at byte `offset` of
    /// the file.
    fn element(&mut self, slot: usize, bytes: &[u8], offset: u64) -> Elem;
}

/// Deserialises one value at the start of `bytes` and says how many bytes it took. A value
/// that reaches the end of `bytes` is reported as [`Elem::NeedMore`] (a number cut by a slice
/// boundary would otherwise parse as a shorter number).
/// `push` gets the value and its length in bytes.
pub(crate) fn de_one<'a, T: Deserialize<'a>>(bytes: &'a [u8], push: impl FnOnce(T, usize)) -> Elem {
    let mut it = serde_json::Deserializer::from_slice(bytes).into_iter::<T>();
    match it.next() {
        None => Elem::NeedMore,
        Some(Ok(v)) => {
            let n = it.byte_offset();
            if n >= bytes.len() {
                return Elem::NeedMore;
            }
            push(v, n);
            Elem::Done(n)
        }
        Some(Err(e)) if e.is_eof() => Elem::NeedMore,
        // Some errors are not reported as EOF when the input is cut (skipping an unknown
        // field's `-` with nothing after it reads as an invalid number): an element whose
        // extent has not fully arrived waits for more bytes.
        Some(Err(_)) => {
            let start = skip_ws(bytes, 0);
            if value_end(bytes, start).is_some_and(|end| end < bytes.len()) {
                Elem::Fail
            } else {
                Elem::NeedMore
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arr {
    /// Just after `[`: an element or `]`.
    Open,
    /// After `,`: an element.
    Need,
    /// After an element: `,` or `]`.
    After,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    /// Expect `{`.
    Start,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,`: a key.
    Key,
    /// After a key: `:` then a value.
    Colon(Vec<u8>),
    Value(Vec<u8>),
    /// Inside a streamed array. `inner` is the inner array's state for nested layouts.
    Array {
        slot: usize,
        layout: Layout,
        outer: Arr,
        inner: Option<Arr>,
    },
    /// After a value: `,` or `}`.
    AfterValue,
    /// After the closing `}`: only whitespace.
    End,
}

/// The incremental top-level scanner (see the module doc).
pub(crate) struct Splitter {
    buf: Vec<u8>,
    /// File offset of `buf[0]`.
    base: u64,
    state: State,
    side: Vec<u8>,
    keys: Vec<Vec<u8>>,
    failed: bool,
}

impl Default for Splitter {
    fn default() -> Self {
        Self { buf: Vec::new(), base: 0, state: State::Start, side: b"{".to_vec(), keys: Vec::new(), failed: false }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&b| is_ws(b)) {
        pos += 1;
    }
    pos
}

/// End (exclusive) of the string starting with the `"` at `pos`, or `None` if incomplete.
fn string_end(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut i = pos + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// End (exclusive) of the JSON value starting at `pos` (no leading whitespace), or `None`
/// if it runs past the bytes so far. Only finds the extent; the side document's parser checks
/// the content.
fn value_end(bytes: &[u8], pos: usize) -> Option<usize> {
    match *bytes.get(pos)? {
        b'"' => string_end(bytes, pos),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = pos;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            // A scalar: it ends at a delimiter, which must have arrived.
            let rest = bytes.get(pos..)?;
            rest.iter().position(|&b| is_ws(b) || matches!(b, b',' | b'}' | b']')).map(|n| pos + n)
        }
    }
}

enum Step {
    /// Advanced to this position.
    At(usize),
    NeedMore,
    Fail,
}

impl Splitter {
    /// Feeds the next slice of the file.
    pub(crate) fn feed(&mut self, bytes: &[u8], target: &mut impl Target) {
        if self.failed {
            return;
        }
        self.buf.extend_from_slice(bytes);
        let mut pos = 0usize;
        loop {
            match self.step(pos, target) {
                Step::At(p) => pos = p,
                Step::NeedMore => break,
                Step::Fail => {
                    self.failed = true;
                    self.buf = Vec::new();
                    return;
                }
            }
        }
        self.buf.drain(..pos);
        self.base += pos as u64;
    }

    /// Ends the input: the side document (`{…}` of the keys not streamed), or `None` when
    /// the document was not a complete, well-formed object (parse the whole file instead).
    pub(crate) fn finish(mut self) -> Option<Vec<u8>> {
        if self.failed || self.state != State::End || self.buf.iter().any(|&b| !is_ws(b)) {
            return None;
        }
        self.side.push(b'}');
        Some(self.side)
    }

    #[allow(clippy::too_many_lines)] // one state machine, one match
    fn step(&mut self, pos: usize, target: &mut impl Target) -> Step {
        let p = skip_ws(&self.buf, pos);
        let Some(&b) = self.buf.get(p) else {
            return Step::NeedMore;
        };
        match std::mem::replace(&mut self.state, State::End) {
            State::Start => {
                if b != b'{' {
                    return Step::Fail;
                }
                self.state = State::FirstKey;
                Step::At(p + 1)
            }
            State::FirstKey if b == b'}' => {
                self.state = State::End;
                Step::At(p + 1)
            }
            State::FirstKey | State::Key => {
                if b != b'"' {
                    return Step::Fail;
                }
                let Some(end) = string_end(&self.buf, p) else {
                    self.state = State::Key;
                    return Step::NeedMore;
                };
                let key = self.buf.get(p..end).unwrap_or_default().to_vec();
                if key.contains(&b'\\') || self.keys.contains(&key) {
                    return Step::Fail;
                }
                self.keys.push(key.clone());
                self.state = State::Colon(key);
                Step::At(end)
            }
            State::Colon(key) => {
                if b != b':' {
                    return Step::Fail;
                }
                self.state = State::Value(key);
                Step::At(p + 1)
            }
            State::Value(key) => {
                let inner = key.get(1..key.len().saturating_sub(1)).unwrap_or_default();
                if b == b'[' {
                    if let Some((slot, layout)) = target.layout(inner) {
                        target.open(slot);
                        self.state = State::Array { slot, layout, outer: Arr::Open, inner: None };
                        return Step::At(p + 1);
                    }
                }
                let Some(end) = value_end(&self.buf, p) else {
                    self.state = State::Value(key);
                    return Step::NeedMore;
                };
                if self.side.len() > 1 {
                    self.side.push(b',');
                }
                self.side.extend_from_slice(&key);
                self.side.push(b':');
                self.side.extend_from_slice(self.buf.get(p..end).unwrap_or_default());
                self.state = State::AfterValue;
                Step::At(end)
            }
            State::AfterValue => match b {
                b',' => {
                    self.state = State::Key;
                    Step::At(p + 1)
                }
                b'}' => {
                    self.state = State::End;
                    Step::At(p + 1)
                }
                _ => Step::Fail,
            },
            State::End => Step::Fail,
            State::Array { slot, layout, outer, inner } => {
                let (level, nested_inner) = match inner {
                    Some(i) => (i, true),
                    None => (outer, false),
                };
                let close = |s: &mut Self| {
                    if nested_inner {
                        s.state = State::Array { slot, layout, outer: Arr::After, inner: None };
                    } else {
                        s.state = State::AfterValue;
                    }
                };
                match (level, b) {
                    (Arr::Open | Arr::After, b']') => {
                        close(self);
                        Step::At(p + 1)
                    }
                    (Arr::After, b',') => {
                        self.state = State::Array {
                            slot,
                            layout,
                            outer: if nested_inner { outer } else { Arr::Need },
                            inner: nested_inner.then_some(Arr::Need),
                        };
                        Step::At(p + 1)
                    }
                    (Arr::After, _) => Step::Fail,
                    (Arr::Open | Arr::Need, _) if layout == Layout::Nested && !nested_inner => {
                        if b != b'[' {
                            return Step::Fail;
                        }
                        target.group(slot);
                        self.state = State::Array { slot, layout, outer, inner: Some(Arr::Open) };
                        Step::At(p + 1)
                    }
                    (Arr::Open | Arr::Need, _) => {
                        let rest = self.buf.get(p..).unwrap_or_default();
                        match target.element(slot, rest, self.base + p as u64) {
                            Elem::Done(n) => {
                                self.state = State::Array {
                                    slot,
                                    layout,
                                    outer: if nested_inner { outer } else { Arr::After },
                                    inner: nested_inner.then_some(Arr::After),
                                };
                                Step::At(p + n)
                            }
                            Elem::NeedMore => {
                                self.state = State::Array { slot, layout, outer, inner };
                                Step::NeedMore
                            }
                            Elem::Fail => Step::Fail,
                        }
                    }
                }
            }
        }
    }
}
