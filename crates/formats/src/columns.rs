//! Compact record columns shared by the reader and the analyses: scheduler phase kinds at two
//! bytes each, optional task ids at five, and small counters (loop iterations, tasks
//! processed, pop hits and misses) at the narrowest width that holds their largest value. A
//! big capture holds millions of phase records, so these save the viewer ~40 bytes a record
//! over `Vec<SchedKind>` / `Vec<Option<u64>>` / `Vec<u32>`.

use std::collections::HashMap;

use crate::records::SchedKind;

/// Scheduler phase kinds as codes into a table of the distinct kinds, in first-seen order (a
/// thread with more than 65,535 distinct unknown names shares the last code among the rest).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindColumn {
    codes: Vec<u16>,
    table: Vec<SchedKind>,
    /// Codes of the table's entries past the first [`Self::SCANNED`] (a file full of distinct
    /// unknown names would otherwise cost a long scan per record).
    later: HashMap<SchedKind, u16>,
}

impl KindColumn {
    const LAST_CODE: usize = u16::MAX as usize;
    /// Table entries found by a linear scan (every known kind fits).
    const SCANNED: usize = 32;

    fn code_of(&self, kind: &SchedKind) -> Option<usize> {
        self.table.iter().take(Self::SCANNED).position(|k| k == kind).or_else(|| self.later.get(kind).map(|&c| usize::from(c)))
    }

    pub fn push(&mut self, kind: SchedKind) {
        let code = match self.code_of(&kind) {
            Some(i) => i,
            None if self.table.len() < Self::LAST_CODE => {
                let code = self.table.len();
                if code >= Self::SCANNED {
                    self.later.insert(kind.clone(), code as u16);
                }
                self.table.push(kind);
                code
            }
            None => {
                if self.table.len() == Self::LAST_CODE {
                    self.table.push(SchedKind::Unknown("(other kinds)".to_owned()));
                }
                Self::LAST_CODE
            }
        };
        self.codes.push(code as u16);
    }
    pub fn get(&self, i: usize) -> Option<&SchedKind> {
        self.codes.get(i).and_then(|&c| self.table.get(usize::from(c)))
    }
    pub fn iter(&self) -> impl Iterator<Item = &SchedKind> + '_ {
        self.codes.iter().filter_map(|&c| self.table.get(usize::from(c)))
    }
    /// The kinds, one per record.
    pub fn to_vec(&self) -> Vec<SchedKind> {
        self.iter().cloned().collect()
    }
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
    pub fn shrink_to_fit(&mut self) {
        self.codes.shrink_to_fit();
    }
    /// Resident bytes (capacities).
    pub fn resident_bytes(&self) -> usize {
        self.codes.capacity() * 2 + self.table.capacity() * std::mem::size_of::<SchedKind>()
    }
}

impl<'a> FromIterator<&'a SchedKind> for KindColumn {
    fn from_iter<I: IntoIterator<Item = &'a SchedKind>>(it: I) -> Self {
        let mut c = Self::default();
        for k in it {
            c.push(k.clone());
        }
        c
    }
}

/// Optional task ids at 5 bytes each: the low 32 bits, and a one-byte code for the high 32
/// bits (the ring) into a table of the distinct high words; a column whose ids have more than
/// [`OptIdColumn::MAX_HIGHS`] distinct high words stores them whole, 8 bytes each
/// (`u64::MAX` = none there). A file's `-1` id reads as none.
#[derive(Debug, Clone)]
pub enum OptIdColumn {
    Split { low: Vec<u32>, high_code: Vec<u8>, highs: Vec<u32> },
    Wide(Vec<u64>),
}

impl Default for OptIdColumn {
    fn default() -> Self {
        Self::Split { low: Vec::new(), high_code: Vec::new(), highs: Vec::new() }
    }
}

impl PartialEq for OptIdColumn {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for OptIdColumn {}

impl OptIdColumn {
    /// Distinct high words a split column holds (code [`Self::NONE_CODE`] means "no id").
    pub const MAX_HIGHS: usize = 255;
    const NONE_CODE: u8 = u8::MAX;

    /// `n` absent ids.
    pub fn nones(n: usize) -> Self {
        Self::Split { low: vec![0; n], high_code: vec![Self::NONE_CODE; n], highs: Vec::new() }
    }
    pub fn push(&mut self, id: Option<u64>) {
        match self {
            Self::Wide(v) => v.push(id.unwrap_or(u64::MAX)),
            Self::Split { low, high_code, highs } => {
                let Some(id) = id else {
                    low.push(0);
                    high_code.push(Self::NONE_CODE);
                    return;
                };
                let high = (id >> 32) as u32;
                // Most columns hold one or two rings: look at the last one used first.
                let last = high_code.last().copied().filter(|&c| highs.get(usize::from(c)) == Some(&high));
                let code = last.or_else(|| highs.iter().position(|&h| h == high).map(|c| c as u8));
                let code = match code {
                    Some(c) => c,
                    None if highs.len() < Self::MAX_HIGHS => {
                        highs.push(high);
                        (highs.len() - 1) as u8
                    }
                    None => {
                        let mut wide: Vec<u64> = self.iter().map(|x| x.unwrap_or(u64::MAX)).collect();
                        wide.push(id);
                        *self = Self::Wide(wide);
                        return;
                    }
                };
                low.push(id as u32);
                high_code.push(code);
            }
        }
    }
    /// The id at `i` (`None` when absent or out of range).
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            Self::Wide(v) => v.get(i).copied().filter(|&x| x != u64::MAX),
            Self::Split { low, high_code, highs } => {
                let high = highs.get(usize::from(*high_code.get(i)?))?;
                Some(u64::from(*high) << 32 | u64::from(*low.get(i)?))
            }
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = Option<u64>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    pub fn len(&self) -> usize {
        match self {
            Self::Wide(v) => v.len(),
            Self::Split { low, .. } => low.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn shrink_to_fit(&mut self) {
        match self {
            Self::Wide(v) => v.shrink_to_fit(),
            Self::Split { low, high_code, highs } => {
                low.shrink_to_fit();
                high_code.shrink_to_fit();
                highs.shrink_to_fit();
            }
        }
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        match self {
            Self::Wide(v) => v.capacity() * 8,
            Self::Split { low, high_code, highs } => low.capacity() * 4 + high_code.capacity() + highs.capacity() * 4,
        }
    }
}

impl FromIterator<Option<u64>> for OptIdColumn {
    fn from_iter<I: IntoIterator<Item = Option<u64>>>(it: I) -> Self {
        let it = it.into_iter();
        let mut c = Self::Split { low: Vec::with_capacity(it.size_hint().0), high_code: Vec::with_capacity(it.size_hint().0), highs: Vec::new() };
        for x in it {
            c.push(x);
        }
        c
    }
}

/// `u32` values stored one, two or four bytes each: the narrowest width that holds the
/// largest value of the column, chosen once when it is built from a `Vec<u32>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NarrowU32Column {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Default for NarrowU32Column {
    fn default() -> Self {
        Self::U8(Vec::new())
    }
}

impl NarrowU32Column {
    /// The values of `v` at the narrowest width (`v` is consumed; its buffer is reused when
    /// four bytes are needed).
    pub fn from_vec(mut v: Vec<u32>) -> Self {
        if v.iter().any(|&x| x > u32::from(u16::MAX)) {
            v.shrink_to_fit();
            Self::U32(v)
        } else {
            Self::from_slice(&v)
        }
    }
    /// The values of `v` at the narrowest width.
    pub fn from_slice(v: &[u32]) -> Self {
        let max = v.iter().copied().max().unwrap_or(0);
        if u8::try_from(max).is_ok() {
            Self::U8(v.iter().map(|&x| x as u8).collect())
        } else if u16::try_from(max).is_ok() {
            Self::U16(v.iter().map(|&x| x as u16).collect())
        } else {
            Self::U32(v.to_vec())
        }
    }
    /// `len` zeros (one byte each).
    pub fn zeros(len: usize) -> Self {
        Self::U8(vec![0; len])
    }
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Self::U8(v) => v.get(i).map(|&x| u32::from(x)),
            Self::U16(v) => v.get(i).map(|&x| u32::from(x)),
            Self::U32(v) => v.get(i).copied(),
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Self::U8(v) => v.len(),
            Self::U16(v) => v.len(),
            Self::U32(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        match self {
            Self::U8(v) => v.capacity(),
            Self::U16(v) => v.capacity() * 2,
            Self::U32(v) => v.capacity() * 4,
        }
    }
}

impl From<Vec<u32>> for NarrowU32Column {
    fn from(v: Vec<u32>) -> Self {
        Self::from_vec(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_unknown_names_are_kept() {
        let kinds = [SchedKind::Dispatch, SchedKind::Unknown("x".into()), SchedKind::Dispatch, SchedKind::Unknown("y".into())];
        let c: KindColumn = kinds.iter().collect();
        assert_eq!(c.to_vec(), kinds.to_vec());
        assert_eq!(c.get(1), Some(&SchedKind::Unknown("x".into())));
        assert_eq!(c.get(4), None);
    }

    #[test]
    fn many_distinct_unknown_names_keep_their_codes() {
        let kinds: Vec<SchedKind> = (0..2000).map(|i| SchedKind::Unknown(format!("k{}", i % 1000))).collect();
        let c: KindColumn = kinds.iter().collect();
        assert_eq!(c.to_vec(), kinds);
        assert_eq!(c.table.len(), 1000);
    }

    #[test]
    fn absent_ids_read_as_none() {
        let c: OptIdColumn = [Some(3), None, Some(0)].into_iter().collect();
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![Some(3), None, Some(0)]);
        assert_eq!((c.get(0), c.get(1), c.get(9)), (Some(3), None, None));
    }

    #[test]
    fn narrow_columns_pick_the_smallest_width_and_keep_every_value() {
        for (values, bytes_each) in [(vec![0u32, 7, 255], 1), (vec![1, 256, 65_535], 2), (vec![3, 65_536, u32::MAX], 4)] {
            let c = NarrowU32Column::from_vec(values.clone());
            assert_eq!(c, NarrowU32Column::from_slice(&values));
            assert_eq!(c.iter().collect::<Vec<_>>(), values);
            assert_eq!(c.len(), values.len());
            assert_eq!(c.get(values.len()), None);
            assert_eq!(c.resident_bytes(), values.len() * bytes_each);
        }
        assert!(NarrowU32Column::from_vec(Vec::new()).is_empty());
        assert_eq!(NarrowU32Column::zeros(3).iter().collect::<Vec<_>>(), vec![0, 0, 0]);
    }

    #[test]
    fn ids_round_trip_split_and_past_255_rings_wide() {
        let ids: Vec<Option<u64>> = vec![Some(5), None, Some(3 << 32 | 7), Some(u64::MAX - 1), Some(0), None];
        let mut c: OptIdColumn = ids.iter().copied().collect();
        c.shrink_to_fit();
        assert!(matches!(c, OptIdColumn::Split { .. }));
        assert_eq!(c.iter().collect::<Vec<_>>(), ids);
        assert_eq!(c.get(ids.len()), None);
        assert_eq!(c.resident_bytes(), ids.len() * 5 + 3 * 4);
        assert_eq!(OptIdColumn::nones(2).iter().collect::<Vec<_>>(), vec![None, None]);
        // 300 rings: the column turns wide at the 256th distinct high word and keeps every id.
        let many: Vec<Option<u64>> = (0..300u64).map(|r| Some(r << 32 | r)).chain([None]).collect();
        let w: OptIdColumn = many.iter().copied().collect();
        assert!(matches!(w, OptIdColumn::Wide(_)));
        assert_eq!(w.iter().collect::<Vec<_>>(), many);
        let split_again: OptIdColumn = many[..10].iter().copied().collect();
        assert_eq!(split_again, many[..10].iter().copied().collect::<OptIdColumn>());
    }
}
