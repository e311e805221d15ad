//! A growable `u32` column kept in fixed pages of 64 Ki entries, for the timeline's per-bar
//! query columns (millions of entries on a big capture). Built after the model, a contiguous
//! column of tens of MB finds no hole in the worker's fragmented wasm heap and grows the
//! memory; 256 KiB pages reuse the holes the raw records left.

use std::ops::Index;

const PAGE_BITS: u32 = 16;
const PAGE_LEN: usize = 1 << PAGE_BITS;

/// A `u32` column in pages of [`PAGE_LEN`] entries (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PagedU32 {
    pages: Vec<Vec<u32>>,
    len: usize,
}

impl PagedU32 {
    pub fn push(&mut self, x: u32) {
        if self.len.is_multiple_of(PAGE_LEN) {
            self.pages.push(Vec::with_capacity(PAGE_LEN));
        }
        if let Some(page) = self.pages.last_mut() {
            page.push(x);
            self.len += 1;
        }
    }
    pub fn get(&self, i: usize) -> Option<&u32> {
        self.pages.get(i >> PAGE_BITS)?.get(i & (PAGE_LEN - 1))
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = &u32> + '_ {
        self.pages.iter().flatten()
    }
    /// The pages, in order (each full but the last).
    pub fn pages(&self) -> &[Vec<u32>] {
        &self.pages
    }
    /// Trims the last page.
    pub fn shrink_to_fit(&mut self) {
        if let Some(page) = self.pages.last_mut() {
            page.shrink_to_fit();
        }
        self.pages.shrink_to_fit();
    }
    /// Resident bytes (capacities).
    pub fn resident_bytes(&self) -> usize {
        self.pages.iter().map(|p| p.capacity() * 4).sum::<usize>() + self.pages.capacity() * std::mem::size_of::<Vec<u32>>()
    }
}

impl Index<usize> for PagedU32 {
    type Output = u32;
    fn index(&self, i: usize) -> &u32 {
        match self.get(i) {
            Some(x) => x,
            None => panic!("index {i} out of range for a column of {}", self.len),
        }
    }
}

impl FromIterator<u32> for PagedU32 {
    fn from_iter<I: IntoIterator<Item = u32>>(it: I) -> Self {
        let mut c = Self::default();
        for x in it {
            c.push(x);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_hold_every_value_in_order() {
        let n = 2 * PAGE_LEN + 5;
        let mut c: PagedU32 = (0..n as u32).collect();
        assert_eq!(c.len(), n);
        assert_eq!(c.pages().len(), 3);
        assert_eq!(c.get(PAGE_LEN), Some(&(PAGE_LEN as u32)));
        assert_eq!(c[n - 1], n as u32 - 1);
        assert_eq!(c.get(n), None);
        assert!(c.iter().copied().eq(0..n as u32));
        c.shrink_to_fit();
        assert_eq!(c.resident_bytes(), n * 4 + 3 * std::mem::size_of::<Vec<u32>>());
        assert!(PagedU32::default().is_empty());
    }
}
