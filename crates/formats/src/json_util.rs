//! Small shared serde helpers for the readers: integers that may be negative (normalised to
//! u64 by `& (2^64-1)`), ids that arrive as JSON strings or numbers, string interning and the
//! position of a key in the raw bytes (for structural errors).

use serde::de::{self, Deserializer, Visitor};
use std::collections::HashMap;
use std::fmt;

/// A JSON integer read as u64; negative values are normalised with `& (2^64 - 1)`
/// (two's complement), as the reference does for ids.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Num(pub u64);

struct NumVisitor;

impl Visitor<'_> for NumVisitor {
    type Value = Num;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
        Ok(Num(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
        Ok(Num(v as u64))
    }
}

impl<'de> serde::Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor)
    }
}

/// A u64 id that arrives as a decimal JSON string (deps.json) or as a JSON number
/// (older files). Negative values are normalised like [`Num`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct IdNum(pub u64);

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = IdNum;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer id (decimal string or number)")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<IdNum, E> {
        Ok(IdNum(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<IdNum, E> {
        Ok(IdNum(v as u64))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<IdNum, E> {
        let t = v.trim();
        if let Ok(u) = t.parse::<u64>() {
            return Ok(IdNum(u));
        }
        if let Ok(i) = t.parse::<i64>() {
            return Ok(IdNum(i as u64));
        }
        Err(E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl<'de> serde::Deserialize<'de> for IdNum {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IdVisitor)
    }
}

/// Interns strings: equal names share one index into `names`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Interner {
    pub names: Vec<String>,
    map: HashMap<String, u32>,
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.map.get(s) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(s.to_owned());
        self.map.insert(s.to_owned(), i);
        i
    }
}

/// 1-based (line, column) of the first occurrence of `"key"` in `bytes`, or (0, 0).
pub(crate) fn position_of_key(bytes: &[u8], key: &str) -> (u64, u64) {
    let needle = format!("\"{key}\"");
    let needle = needle.as_bytes();
    if needle.len() > bytes.len() {
        return (0, 0);
    }
    let Some(at) = bytes.windows(needle.len()).position(|w| w == needle) else {
        return (0, 0);
    };
    position_of_offset(bytes, at)
}

/// 1-based (line, column) of byte offset `at`.
pub(crate) fn position_of_offset(bytes: &[u8], at: usize) -> (u64, u64) {
    let before = bytes.get(..at).unwrap_or(bytes);
    #[allow(clippy::naive_bytecount)] // error path only; no extra dependency for it
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, (at - line_start) as u64 + 1)
}
