//! Compact record columns shared by the reader and the analyses: scheduler phase kinds at two
//! bytes each and optional task ids at eight. A big capture holds millions of phase records,
//! so these save the viewer ~30 bytes a record over `Vec<SchedKind>` / `Vec<Option<u64>>`.

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

/// Optional task ids at 8 bytes each (`u64::MAX` = none; a file's `-1` id reads as none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptIdColumn(Vec<u64>);

impl OptIdColumn {
    /// `n` absent ids.
    pub fn nones(n: usize) -> Self {
        Self(vec![u64::MAX; n])
    }
    pub fn push(&mut self, id: Option<u64>) {
        self.0.push(id.unwrap_or(u64::MAX));
    }
    /// The id at `i` (`None` when absent or out of range).
    pub fn get(&self, i: usize) -> Option<u64> {
        self.0.get(i).copied().filter(|&x| x != u64::MAX)
    }
    pub fn iter(&self) -> impl Iterator<Item = Option<u64>> + '_ {
        self.0.iter().map(|&x| (x != u64::MAX).then_some(x))
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        self.0.capacity() * 8
    }
}

impl FromIterator<Option<u64>> for OptIdColumn {
    fn from_iter<I: IntoIterator<Item = Option<u64>>>(it: I) -> Self {
        Self(it.into_iter().map(|x| x.unwrap_or(u64::MAX)).collect())
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
}
