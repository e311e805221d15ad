//! Small shared serde helpers for the readers: integers that may be negative (normalised to
//! u64 by `& (2^64-1)`), ids that arrive as JSON strings or numbers, string interning and the
//! position of a key in the raw bytes (for structural errors).

use crate::FormatError;
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
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
        Err(not_an_integer(v))
    }
}

/// The error for a JSON number that is not an exact 64-bit integer: a fraction, an exponent,
/// or an integer beyond 2^64-1 (`serde_json` reads those as floats).
fn not_an_integer<E: de::Error>(v: f64) -> E {
    E::custom(format_args!(
        "expected an integer in -9223372036854775808..=18446744073709551615, found the number \
         {v} (a fraction, an exponent, or out of 64-bit range)"
    ))
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
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<IdNum, E> {
        Err(not_an_integer(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<IdNum, E> {
        let t = v.trim();
        if let Ok(u) = t.parse::<u64>() {
            return Ok(IdNum(u));
        }
        if let Ok(i) = t.parse::<i64>() {
            return Ok(IdNum(i as u64));
        }
        let digits = t.strip_prefix('-').unwrap_or(t);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::custom(format_args!("id {v:?} does not fit in 64 bits (ids are -9223372036854775808..=18446744073709551615)")));
        }
        Err(E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl<'de> serde::Deserialize<'de> for IdNum {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IdVisitor)
    }
}

/// What an [`ObjectOnly`] struct is, for "expected ..." messages.
pub(crate) trait Described {
    const WHAT: &'static str;
}

/// A derived struct read from a JSON object only. serde's derived structs also accept an
/// array (fields by position), which turns `[1, 2, 3]` or a `metadata` array into confusing
/// errors about the wrong field; this wrapper reports "expected <what>" instead.
pub(crate) struct ObjectOnly<T>(pub T);

impl<'de, T: serde::Deserialize<'de> + Described> serde::Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de> + Described> Visitor<'de> for V<T> {
            type Value = ObjectOnly<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(T::WHAT)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<ObjectOnly<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(ObjectOnly)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A `serde_json` error as a [`FormatError`], with hints that need the input: a UTF-8 byte
/// order mark at the start, or a `NaN` / `Infinity` token (Python's `json` writes them for
/// non-finite floats; they are not JSON) where a value was expected.
pub(crate) fn json_error(path: &str, bytes: &[u8], err: &serde_json::Error) -> FormatError {
    let mut e = FormatError::from_json(path, err);
    if e.line == 1 && e.column <= 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
        "the file starts with a UTF-8 byte order mark (BOM); expected JSON text without one \
         (save as UTF-8 without BOM)"
            .clone_into(&mut e.message);
        return e;
    }
    if err.is_syntax() {
        let line_start = if e.line <= 1 {
            Some(0)
        } else {
            bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n').nth((e.line - 2) as usize).map(|(i, _)| i + 1)
        };
        if let Some(start) = line_start {
            // serde_json's column is the byte it stopped at (1-based) or the one after it.
            let at = start + (e.column as usize).saturating_sub(1);
            for token in ["NaN", "-Infinity", "Infinity"] {
                let hit = [at.saturating_sub(1), at].iter().any(|&i| bytes.get(i..).is_some_and(|r| r.starts_with(token.as_bytes())));
                if hit {
                    e.message = format!(
                        "`{token}` is not valid JSON (Python's json writes it for a float that \
                         is not finite); expected a number"
                    );
                    break;
                }
            }
        }
    }
    e
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

/// A warning at the first occurrence of `"key"` in `bytes` (no position if absent).
pub(crate) fn warning_at_key(
    kind: pypto_vocab::WarningKind,
    path: &str,
    bytes: &[u8],
    key: &str,
    message: impl Into<String>,
) -> pypto_vocab::Warning {
    let (line, column) = position_of_key(bytes, key);
    pypto_vocab::Warning::at(kind, path, line, column, message)
}

/// 1-based (line, column) of byte offset `at`.
pub(crate) fn position_of_offset(bytes: &[u8], at: usize) -> (u64, u64) {
    let before = bytes.get(..at).unwrap_or(bytes);
    #[allow(clippy::naive_bytecount)] // error path only; no extra dependency for it
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    (line, (at - line_start) as u64 + 1)
}
