//! [`TaskId`]: a runtime task id as the records and deps.json carry it (a raw u64: ring in
//! bits 39:32, local id in the low 32 bits; runtime-formats.md §1.10), shown the way the
//! reference converter shows it: `t{local}` for ring 0, else `r{ring}t{local}`.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A raw runtime task id. `Display` is the reference's rule (`t5`, `r1t1024`); `FromStr`
/// reads that form back, and also a decimal raw id. Serialised as the decimal string of the
/// raw id in human-readable formats (JSON: ids can exceed 2^53) and as a `u64` otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId(pub u64);

impl TaskId {
    /// The id of `(ring, local)`.
    pub const fn from_parts(ring: u32, local: u32) -> Self {
        Self(((ring as u64) << 32) | local as u64)
    }

    /// The raw id.
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The ring, as displayed (bits 39:32; the reference masks `& 0xFF`).
    pub const fn ring(self) -> u32 {
        ((self.0 >> 32) & 0xFF) as u32
    }

    /// The local id (low 32 bits).
    pub const fn local(self) -> u32 {
        (self.0 & 0xFFFF_FFFF) as u32
    }

    /// `(ring, local)`, the key timelines match tasks by.
    pub const fn ring_local(self) -> (u32, u32) {
        (self.ring(), self.local())
    }
}

impl From<u64> for TaskId {
    fn from(raw: u64) -> Self {
        Self(raw)
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ring() {
            0 => write!(f, "t{}", self.local()),
            ring => write!(f, "r{ring}t{}", self.local()),
        }
    }
}

/// Why a text is not a task id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTaskIdError(String);

impl fmt::Display for ParseTaskIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a task id (rXtY, tY or a decimal id): {:?}", self.0)
    }
}

impl std::error::Error for ParseTaskIdError {}

impl FromStr for TaskId {
    type Err = ParseTaskIdError;

    /// `rXtY` (X < 256, Y < 2^32), `tY` (ring 0), or the decimal raw id. Case-insensitive,
    /// surrounding blanks ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || ParseTaskIdError(text.to_owned());
        let s = text.trim().to_ascii_lowercase();
        if let Some(rest) = s.strip_prefix('r') {
            let (ring, local) = rest.split_once('t').ok_or_else(bad)?;
            let ring: u8 = ring.parse().map_err(|_| bad())?;
            let local: u32 = local.parse().map_err(|_| bad())?;
            return Ok(Self::from_parts(u32::from(ring), local));
        }
        if let Some(local) = s.strip_prefix('t') {
            return local.parse::<u32>().map(|l| Self::from_parts(0, l)).map_err(|_| bad());
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return s.parse::<u64>().map(Self).map_err(|_| bad());
        }
        Err(bad())
    }
}

impl Serialize for TaskId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(&self.0)
        } else {
            serializer.serialize_u64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for TaskId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RawId;
        impl Visitor<'_> for RawId {
            type Value = TaskId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a task id: a u64 or its decimal string")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<TaskId, E> {
                Ok(TaskId(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TaskId, E> {
                v.parse::<u64>().map(TaskId).map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(RawId)
        } else {
            deserializer.deserialize_u64(RawId)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_by_the_reference_rule() {
        assert_eq!(TaskId(0).to_string(), "t0");
        assert_eq!(TaskId(5).to_string(), "t5");
        assert_eq!(TaskId(4_294_967_298).to_string(), "r1t2");
        assert_eq!(TaskId::from_parts(1, 1024).to_string(), "r1t1024");
        // bits above 39 are not part of the displayed ring
        assert_eq!(TaskId((0x1_01u64 << 32) | 7).to_string(), "r1t7");
    }

    #[test]
    fn parses_what_it_displays_and_decimal_ids() {
        for raw in [0u64, 5, 4_294_967_298, (3u64 << 32) | 0xEE6B_2800, (255u64 << 32) | u64::from(u32::MAX)] {
            let id = TaskId(raw);
            assert_eq!(id.to_string().parse::<TaskId>(), Ok(id), "{id}");
            assert_eq!(raw.to_string().parse::<TaskId>(), Ok(id));
        }
        assert_eq!(" R2T1 ".parse::<TaskId>(), Ok(TaskId::from_parts(2, 1)));
        assert_eq!("r0t5".parse::<TaskId>(), Ok(TaskId(5)));
        for bad in ["", "r", "t", "rt1", "r1", "r256t1", "t4294967296", "x5", "r1t-1", "12a"] {
            assert!(bad.parse::<TaskId>().is_err(), "{bad}");
        }
    }

    #[test]
    fn serialises_as_a_decimal_string_in_json() {
        let big = TaskId(u64::MAX - 1);
        let json = serde_json::to_string(&big).unwrap_or_default();
        assert_eq!(json, "\"18446744073709551614\"");
        assert_eq!(serde_json::from_str::<TaskId>(&json).ok(), Some(big));
        assert_eq!(serde_json::from_str::<TaskId>("42").ok(), Some(TaskId(42)));
        assert!(serde_json::from_str::<TaskId>("\"r1t2\"").is_err());
    }
}
