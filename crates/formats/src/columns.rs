//! Compact record columns shared by the reader and the analyses: scheduler phase kinds at two
//! bytes each, optional task ids at five, and small counters (loop iterations, tasks
//! processed, pop hits and misses) at the narrowest width that holds their largest value. A
//! big capture holds millions of phase records, so these save the viewer ~40 bytes a record
//! over `Vec<SchedKind>` / `Vec<Option<u64>>` / `Vec<u32>`.

use std::collections::HashMap;

use crate::packed::PackedU64;
use crate::records::SchedKind;

/// Scheduler phase kinds as codes into a table of the distinct kinds, in first-seen order (a
/// thread with more than 65,535 distinct unknown names shares the last code among the rest);
/// the codes take one byte each while a thread has at most 256 distinct kinds.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KindColumn {
    codes: NarrowU32Column,
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
        self.codes.push(code as u32);
    }
    pub fn get(&self, i: usize) -> Option<&SchedKind> {
        self.codes.get(i).and_then(|c| self.table.get(c as usize))
    }
    pub fn iter(&self) -> impl Iterator<Item = &SchedKind> + '_ {
        self.codes.iter().filter_map(|c| self.table.get(c as usize))
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
        self.codes.resident_bytes() + self.table.capacity() * std::mem::size_of::<SchedKind>()
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

/// Cycle counts (`u64`, 0 = absent) at 4 bytes each while they fit: a signed offset from the
/// column's first non-zero value, within ±2^31 cycles (a scheduler or orchestrator thread's
/// timestamps span far less); a value outside widens the column to whole `u64`s.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum CyclesColumn {
    Offsets { base: u64, offsets: Vec<u32> },
    Wide(Vec<u64>),
}

impl Default for CyclesColumn {
    fn default() -> Self {
        Self::Offsets { base: 0, offsets: Vec::new() }
    }
}

impl PartialEq for CyclesColumn {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for CyclesColumn {}

impl CyclesColumn {
    /// The offset that stands for 0 (absent).
    const ABSENT: u32 = u32::MAX;
    const BIAS: i64 = 1 << 31;

    fn encode(base: u64, v: u64) -> Option<u32> {
        if v == 0 {
            return Some(Self::ABSENT);
        }
        let o = i64::try_from(i128::from(v) - i128::from(base)).ok()?.checked_add(Self::BIAS)?;
        u32::try_from(o).ok().filter(|&o| o != Self::ABSENT)
    }

    pub fn push(&mut self, v: u64) {
        if let Self::Offsets { base, offsets } = self {
            if *base == 0 && v != 0 {
                *base = v;
            }
            match Self::encode(*base, v) {
                Some(o) => {
                    offsets.push(o);
                    return;
                }
                None => *self = Self::Wide(self.iter().collect()),
            }
        }
        if let Self::Wide(w) = self {
            w.push(v);
        }
    }
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            Self::Offsets { base, offsets } => offsets.get(i).map(|&o| {
                if o == Self::ABSENT {
                    0
                } else {
                    // In range by construction (`encode` checked it).
                    u64::try_from(i128::from(*base) + i128::from(o) - i128::from(Self::BIAS)).unwrap_or(0)
                }
            }),
            Self::Wide(w) => w.get(i).copied(),
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Self::Offsets { offsets, .. } => offsets.len(),
            Self::Wide(w) => w.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = u64> + Clone + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
    pub fn shrink_to_fit(&mut self) {
        match self {
            Self::Offsets { offsets, .. } => offsets.shrink_to_fit(),
            Self::Wide(w) => w.shrink_to_fit(),
        }
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        match self {
            Self::Offsets { offsets, .. } => offsets.capacity() * 4,
            Self::Wide(w) => w.capacity() * 8,
        }
    }
}

impl FromIterator<u64> for CyclesColumn {
    fn from_iter<I: IntoIterator<Item = u64>>(it: I) -> Self {
        let mut c = Self::default();
        for v in it {
            c.push(v);
        }
        c
    }
}

/// Optional task ids. A column starts sparse: the positions and ids of the present ones only
/// (a scheduler thread's records rarely carry an id: 5,000 of 4.5M at 1M tasks). Once ids
/// are common it turns packed ([`PackedU64`], `u64::MAX` = none): ids in submit order take a
/// few bits each. A file's `-1` id reads as none.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum OptIdColumn {
    Sparse { len: usize, at: Vec<u32>, ids: Vec<u64> },
    Packed(PackedU64),
}

impl Default for OptIdColumn {
    fn default() -> Self {
        Self::Sparse { len: 0, at: Vec::new(), ids: Vec::new() }
    }
}

impl PartialEq for OptIdColumn {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for OptIdColumn {}

/// "No id" in the packed form (a file's -1).
const NO_ID: u64 = u64::MAX;

impl OptIdColumn {
    /// Entries past which a sparse column turns packed once its ids take more room than about
    /// four bytes an entry (12 bytes an id in the sparse form).
    const SPARSE_SLACK: usize = 4096;

    /// `n` absent ids.
    pub fn nones(n: usize) -> Self {
        Self::Sparse { len: n, at: Vec::new(), ids: Vec::new() }
    }
    pub fn push(&mut self, id: Option<u64>) {
        // u64::MAX is a file's -1: no id.
        let id = id.filter(|&x| x != NO_ID);
        match self {
            Self::Sparse { len, at, ids } => {
                if let Some(id) = id {
                    match u32::try_from(*len) {
                        Ok(pos) if ids.len() * 12 <= *len * 4 + Self::SPARSE_SLACK => {
                            at.push(pos);
                            ids.push(id);
                        }
                        _ => {
                            let mut packed: PackedU64 = self.iter().map(|x| x.unwrap_or(NO_ID)).collect();
                            packed.push(id);
                            *self = Self::Packed(packed);
                            return;
                        }
                    }
                }
                *len += 1;
            }
            Self::Packed(v) => v.push(id.unwrap_or(NO_ID)),
        }
    }
    /// The id at `i` (`None` when absent or out of range).
    pub fn get(&self, i: usize) -> Option<u64> {
        match self {
            Self::Sparse { at, ids, .. } => {
                let k = at.binary_search(&u32::try_from(i).ok()?).ok()?;
                ids.get(k).copied()
            }
            Self::Packed(v) => v.get(i).filter(|&x| x != NO_ID),
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = Option<u64>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    pub fn len(&self) -> usize {
        match self {
            Self::Sparse { len, .. } => *len,
            Self::Packed(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn shrink_to_fit(&mut self) {
        match self {
            Self::Sparse { at, ids, .. } => {
                at.shrink_to_fit();
                ids.shrink_to_fit();
            }
            Self::Packed(v) => v.shrink_to_fit(),
        }
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        match self {
            Self::Sparse { at, ids, .. } => at.capacity() * 4 + ids.capacity() * 8,
            Self::Packed(v) => v.resident_bytes(),
        }
    }
}

impl FromIterator<Option<u64>> for OptIdColumn {
    fn from_iter<I: IntoIterator<Item = Option<u64>>>(it: I) -> Self {
        let mut c = Self::default();
        for x in it {
            c.push(x);
        }
        c
    }
}

/// A column of `$wide` values stored one, two or four bytes each: the narrowest width that
/// holds every value so far. A push or set that does not fit widens the whole column once.
macro_rules! narrow_column {
    ($(#[$doc:meta])* $name:ident, $wide:ty, $b1:ty, $b2:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            W1(Vec<$b1>),
            W2(Vec<$b2>),
            W4(Vec<$wide>),
        }

        impl Default for $name {
            fn default() -> Self {
                Self::W1(Vec::new())
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.len() == other.len() && self.iter().eq(other.iter())
            }
        }

        impl Eq for $name {}

        impl $name {
            /// The values of `v` at the narrowest width.
            pub fn from_slice(v: &[$wide]) -> Self {
                if v.iter().all(|&x| <$b1>::try_from(x).is_ok()) {
                    Self::W1(v.iter().map(|&x| x as $b1).collect())
                } else if v.iter().all(|&x| <$b2>::try_from(x).is_ok()) {
                    Self::W2(v.iter().map(|&x| x as $b2).collect())
                } else {
                    Self::W4(v.to_vec())
                }
            }
            /// The values of `v` at the narrowest width (`v`'s buffer is reused when four
            /// bytes are needed).
            pub fn from_vec(mut v: Vec<$wide>) -> Self {
                if v.iter().all(|&x| <$b2>::try_from(x).is_ok()) {
                    Self::from_slice(&v)
                } else {
                    v.shrink_to_fit();
                    Self::W4(v)
                }
            }
            /// `len` zeros (one byte each).
            pub fn zeros(len: usize) -> Self {
                Self::W1(vec![0; len])
            }
            /// Widens the column so that `x` fits.
            fn fit(&mut self, x: $wide) {
                let fits = match self {
                    Self::W1(_) => <$b1>::try_from(x).is_ok(),
                    Self::W2(_) => <$b2>::try_from(x).is_ok(),
                    Self::W4(_) => true,
                };
                if !fits {
                    let all: Vec<$wide> = self.iter().collect();
                    *self = if <$b2>::try_from(x).is_ok() {
                        Self::W2(all.iter().map(|&v| v as $b2).collect())
                    } else {
                        Self::W4(all)
                    };
                }
            }
            pub fn push(&mut self, x: $wide) {
                self.fit(x);
                match self {
                    Self::W1(v) => v.push(x as $b1),
                    Self::W2(v) => v.push(x as $b2),
                    Self::W4(v) => v.push(x),
                }
            }
            /// Sets value `i` (no-op when out of range).
            pub fn set(&mut self, i: usize, x: $wide) {
                if i >= self.len() {
                    return;
                }
                self.fit(x);
                match self {
                    Self::W1(v) => v[i] = x as $b1,
                    Self::W2(v) => v[i] = x as $b2,
                    Self::W4(v) => v[i] = x,
                }
            }
            pub fn get(&self, i: usize) -> Option<$wide> {
                match self {
                    Self::W1(v) => v.get(i).map(|&x| <$wide>::from(x)),
                    Self::W2(v) => v.get(i).map(|&x| <$wide>::from(x)),
                    Self::W4(v) => v.get(i).copied(),
                }
            }
            pub fn len(&self) -> usize {
                match self {
                    Self::W1(v) => v.len(),
                    Self::W2(v) => v.len(),
                    Self::W4(v) => v.len(),
                }
            }
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
            pub fn iter(&self) -> impl Iterator<Item = $wide> + '_ {
                (0..self.len()).filter_map(|i| self.get(i))
            }
            pub fn shrink_to_fit(&mut self) {
                match self {
                    Self::W1(v) => v.shrink_to_fit(),
                    Self::W2(v) => v.shrink_to_fit(),
                    Self::W4(v) => v.shrink_to_fit(),
                }
            }
            /// Resident bytes (capacity).
            pub fn resident_bytes(&self) -> usize {
                match self {
                    Self::W1(v) => v.capacity() * std::mem::size_of::<$b1>(),
                    Self::W2(v) => v.capacity() * std::mem::size_of::<$b2>(),
                    Self::W4(v) => v.capacity() * std::mem::size_of::<$wide>(),
                }
            }
        }

        impl From<Vec<$wide>> for $name {
            fn from(v: Vec<$wide>) -> Self {
                Self::from_vec(v)
            }
        }

        impl FromIterator<$wide> for $name {
            fn from_iter<I: IntoIterator<Item = $wide>>(it: I) -> Self {
                let mut c = Self::default();
                for x in it {
                    c.push(x);
                }
                c
            }
        }
    };
}

narrow_column!(
    /// `u32` counters (loop iterations, tasks processed, pops, run epochs) at 1, 2 or 4 bytes.
    NarrowU32Column, u32, u8, u16
);
narrow_column!(
    /// `i32` values (ready-queue depths) at 1, 2 or 4 bytes.
    NarrowI32Column, i32, i8, i16
);
narrow_column!(
    /// `i64` values (resolved func ids, -1 = none) at 1, 2 or 8 bytes (the wide form holds
    /// `i64`s).
    NarrowI64Column, i64, i8, i16
);

/// Ready-queue depths `[aic, aiv, mix]` per record (`shared_at_start` / `shared_at_end`),
/// each lane at its narrowest width.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueueDepthsColumn([NarrowI32Column; 3]);

impl QueueDepthsColumn {
    pub fn push(&mut self, depths: [i32; 3]) {
        for (c, d) in self.0.iter_mut().zip(depths) {
            c.push(d);
        }
    }
    /// Sets record `i`'s depths (no-op when out of range).
    pub fn set(&mut self, i: usize, depths: [i32; 3]) {
        for (c, d) in self.0.iter_mut().zip(depths) {
            c.set(i, d);
        }
    }
    pub fn get(&self, i: usize) -> Option<[i32; 3]> {
        let [a, b, c] = &self.0;
        Some([a.get(i)?, b.get(i)?, c.get(i)?])
    }
    pub fn len(&self) -> usize {
        self.0[0].len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The depths, one triple per record.
    pub fn to_vec(&self) -> Vec<[i32; 3]> {
        (0..self.len()).filter_map(|i| self.get(i)).collect()
    }
    pub fn shrink_to_fit(&mut self) {
        self.0.iter_mut().for_each(NarrowI32Column::shrink_to_fit);
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        self.0.iter().map(NarrowI32Column::resident_bytes).sum()
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
        // A file's -1 (u64::MAX once read) is no id, split or wide.
        let minus_one: OptIdColumn = [Some(u64::MAX), Some(2 << 32)].into_iter().collect();
        assert_eq!(minus_one.iter().collect::<Vec<_>>(), vec![None, Some(2 << 32)]);
        let wide: OptIdColumn = (0..300u64).map(|r| Some(r << 32)).chain([Some(u64::MAX)]).collect();
        assert_eq!(wide.get(300), None);
    }

    #[test]
    fn narrow_columns_pick_the_smallest_width_and_keep_every_value() {
        for (values, bytes_each) in [(vec![0u32, 7, 255], 1), (vec![1, 256, 65_535], 2), (vec![3, 65_536, u32::MAX], 4)] {
            let c = NarrowU32Column::from_vec(values.clone());
            assert_eq!(c, NarrowU32Column::from_slice(&values));
            // Pushed one by one, the column widens as values need it, to the same width.
            let mut pushed: NarrowU32Column = values.iter().copied().collect();
            pushed.shrink_to_fit();
            assert_eq!(pushed.resident_bytes(), values.len() * bytes_each);
            assert_eq!(pushed, c);
            assert_eq!(c.iter().collect::<Vec<_>>(), values);
            assert_eq!(c.len(), values.len());
            assert_eq!(c.get(values.len()), None);
            assert_eq!(c.resident_bytes(), values.len() * bytes_each);
        }
        assert!(NarrowU32Column::from_vec(Vec::new()).is_empty());
        assert_eq!(NarrowU32Column::zeros(3).iter().collect::<Vec<_>>(), vec![0, 0, 0]);
        let mut z = NarrowU32Column::zeros(3);
        z.set(1, 70_000);
        z.set(9, 1);
        assert_eq!(z.iter().collect::<Vec<_>>(), vec![0, 70_000, 0]);
    }

    #[test]
    fn cycles_columns_keep_every_value_and_widen_when_one_is_far() {
        let near = vec![1_000_000u64, 0, 999_000, 1_000_000 + (1 << 31) - 2, 5];
        let mut c: CyclesColumn = near.iter().copied().collect();
        c.shrink_to_fit();
        assert!(matches!(c, CyclesColumn::Offsets { base: 1_000_000, .. }), "{c:?}");
        assert_eq!(c.iter().collect::<Vec<_>>(), near);
        assert_eq!(c.resident_bytes(), c.len() * 4);
        assert_eq!((c.get(1), c.get(5)), (Some(0), None));
        // A value 2^31 cycles or more from the base widens the column; every value stays.
        for far in [1_000_000 + (1u64 << 31), u64::MAX, 1] {
            let mut values = near.clone();
            values.push(far);
            values.push(7);
            let w: CyclesColumn = values.iter().copied().collect();
            assert_eq!(w.iter().collect::<Vec<_>>(), values, "far {far}");
        }
        let wide: CyclesColumn = [1u64, 1 + (1u64 << 40)].into_iter().collect();
        assert!(matches!(wide, CyclesColumn::Wide(_)));
        assert_eq!(CyclesColumn::default(), CyclesColumn::Wide(Vec::new()));
    }

    #[test]
    fn func_id_columns_keep_unresolved_and_wide_ids() {
        for (values, bytes_each) in [(vec![-1i64, 0, 127], 1), (vec![-1, 300, -32_768], 2), (vec![-1, 1 << 40, i64::MIN], 8)] {
            let c = NarrowI64Column::from_vec(values.clone());
            assert_eq!(c.iter().collect::<Vec<_>>(), values);
            assert_eq!(c.resident_bytes(), values.len() * bytes_each);
            let pushed: NarrowI64Column = values.iter().copied().collect();
            assert_eq!(pushed, c);
        }
    }

    #[test]
    fn queue_depths_keep_signed_values_at_any_width() {
        let rows = [[0, 0, 0], [-1, 2, 127], [-129, 300, 5], [0, i32::MIN, i32::MAX]];
        let mut q = QueueDepthsColumn::default();
        for r in &rows[..2] {
            q.push(*r);
        }
        assert_eq!(
            q.resident_bytes(),
            q.0.iter()
                .map(|c| match c {
                    NarrowI32Column::W1(v) => v.capacity(),
                    _ => usize::MAX,
                })
                .sum::<usize>()
        );
        for r in &rows[2..] {
            q.push(*r);
        }
        assert_eq!(q.to_vec(), rows.to_vec());
        q.set(0, [1, -2, 3]);
        assert_eq!(q.get(0), Some([1, -2, 3]));
        assert_eq!(q.get(4), None);
    }

    #[test]
    fn ids_stay_sparse_while_rare_and_turn_packed_when_common() {
        // One id in 1,000 entries: sparse, 12 bytes an id.
        let rare: Vec<Option<u64>> = (0..100_000u64).map(|i| (i % 1000 == 7).then_some(2 << 32 | i)).collect();
        let mut c: OptIdColumn = rare.iter().copied().collect();
        c.shrink_to_fit();
        assert!(matches!(c, OptIdColumn::Sparse { .. }));
        assert_eq!(c.resident_bytes(), 100 * 12);
        assert!(c.iter().eq(rare.iter().copied()));
        assert_eq!((c.get(7), c.get(8), c.get(100_000)), (Some(2 << 32 | 7), None, None));
        assert_eq!(c, rare.iter().copied().collect::<OptIdColumn>());
        // Every entry an id: packed once past the slack, every id kept across the switch.
        let dense: Vec<Option<u64>> = (0..10_000u64).map(|i| (i % 3 != 0).then_some(i)).collect();
        let d: OptIdColumn = dense.iter().copied().collect();
        assert!(matches!(d, OptIdColumn::Packed(_)));
        assert!(d.iter().eq(dense.iter().copied()));
        assert!(matches!(OptIdColumn::nones(5), OptIdColumn::Sparse { len: 5, .. }));
        // Ids in submit order, one a record: a few bits each.
        let submits: Vec<Option<u64>> = (0..100_000u64).map(|i| Some(2 << 32 | i)).collect();
        let mut s: OptIdColumn = submits.iter().copied().collect();
        s.shrink_to_fit();
        assert!(s.iter().eq(submits.iter().copied()));
        assert!(s.resident_bytes() < 100_000 / 2, "{} bytes", s.resident_bytes());
    }

    #[test]
    fn ids_of_any_ring_and_a_files_minus_one_round_trip() {
        let ids: Vec<Option<u64>> =
            [Some(5), None, Some(3 << 32 | 7), Some(u64::MAX - 1), Some(0), None].into_iter().cycle().take(6 * 1000).collect();
        let mut c: OptIdColumn = ids.iter().copied().collect();
        c.shrink_to_fit();
        assert!(matches!(c, OptIdColumn::Packed(_)));
        assert_eq!(c.iter().collect::<Vec<_>>(), ids);
        assert_eq!(c.get(ids.len()), None);
        assert_eq!(OptIdColumn::nones(2).iter().collect::<Vec<_>>(), vec![None, None]);
        // 300 rings in a dense column: every id kept.
        let many: Vec<Option<u64>> = (0..5000u64).map(|i| Some((i % 300) << 32 | i)).chain([None]).collect();
        let w: OptIdColumn = many.iter().copied().collect();
        assert_eq!(w.iter().collect::<Vec<_>>(), many);
        // A file's -1 (u64::MAX once read) is no id in either form.
        let minus_one: OptIdColumn = [Some(u64::MAX), Some(4)].into_iter().collect();
        assert_eq!(minus_one.iter().collect::<Vec<_>>(), vec![None, Some(4)]);
        let mut packed: OptIdColumn = (0..5000u64).map(Some).collect();
        packed.push(Some(u64::MAX));
        assert_eq!(packed.get(5000), None);
    }
}
