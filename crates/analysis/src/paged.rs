//! A growable `u32` column kept in fixed pages of 16 Ki entries, each stored at the narrowest
//! width that holds its values as offsets from the page's smallest (1, 2 or 4 bytes), for the
//! timeline's per-bar query columns (millions of entries on a big capture).
//!
//! Pages, not one vector: built after the model, a contiguous column of tens of MB finds no
//! hole in the worker's fragmented wasm heap and grows the memory, where small pages reuse the
//! holes the raw records left. Narrow pages: a bar's name index is one of a few hundred names,
//! and a scheduler lane's sources rise by one or two a bar, so most pages take 1 or 2 bytes an
//! entry instead of 4.

const PAGE_BITS: u32 = 14;
const PAGE_LEN: usize = 1 << PAGE_BITS;

/// One sealed page: its values as offsets from `min`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Page {
    U8 { min: u32, offsets: Vec<u8> },
    U16 { min: u32, offsets: Vec<u16> },
    U32(Vec<u32>),
}

impl Page {
    fn seal(values: &[u32]) -> Page {
        let min = values.iter().copied().min().unwrap_or(0);
        let span = values.iter().copied().max().unwrap_or(0) - min;
        if u8::try_from(span).is_ok() {
            Page::U8 { min, offsets: values.iter().map(|&v| u8::try_from(v - min).unwrap_or(u8::MAX)).collect() }
        } else if u16::try_from(span).is_ok() {
            Page::U16 { min, offsets: values.iter().map(|&v| u16::try_from(v - min).unwrap_or(u16::MAX)).collect() }
        } else {
            Page::U32(values.to_vec())
        }
    }
    fn get(&self, i: usize) -> Option<u32> {
        match self {
            Page::U8 { min, offsets } => offsets.get(i).map(|&o| min + u32::from(o)),
            Page::U16 { min, offsets } => offsets.get(i).map(|&o| min + u32::from(o)),
            Page::U32(v) => v.get(i).copied(),
        }
    }
    fn len(&self) -> usize {
        match self {
            Page::U8 { offsets, .. } => offsets.len(),
            Page::U16 { offsets, .. } => offsets.len(),
            Page::U32(v) => v.len(),
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Page::U8 { offsets, .. } => offsets.capacity(),
            Page::U16 { offsets, .. } => offsets.capacity() * 2,
            Page::U32(v) => v.capacity() * 4,
        }
    }
    fn write_to(&self, out: &mut [u32]) {
        for (k, slot) in out.iter_mut().enumerate().take(self.len()) {
            *slot = self.get(k).unwrap_or(0);
        }
    }
}

/// A `u32` column in narrow pages of [`PAGE_LEN`] entries (see the module doc). The page being
/// filled stays 4 bytes an entry until it is full or [`PagedU32::shrink_to_fit`] seals it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PagedU32 {
    pages: Vec<Page>,
    filling: Vec<u32>,
    len: usize,
}

impl PagedU32 {
    pub fn push(&mut self, x: u32) {
        if self.filling.capacity() == 0 {
            self.filling.reserve_exact(PAGE_LEN);
        }
        self.filling.push(x);
        self.len += 1;
        if self.filling.len() == PAGE_LEN {
            self.pages.push(Page::seal(&self.filling));
            self.filling.clear();
        }
    }
    pub fn get(&self, i: usize) -> Option<u32> {
        if i >= self.len {
            return None;
        }
        match self.pages.get(i >> PAGE_BITS) {
            Some(page) => page.get(i & (PAGE_LEN - 1)),
            None => self.filling.get(i - (self.pages.len() << PAGE_BITS)).copied(),
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).filter_map(|i| self.get(i))
    }
    /// Hands the column out one page at a time, widened to `u32`: `chunk(first, values)` per
    /// page of at most [`PAGE_LEN`] values (how the worker copies it into a typed array).
    pub fn for_each_chunk(&self, mut chunk: impl FnMut(usize, &[u32])) {
        let mut buf = vec![0u32; PAGE_LEN.min(self.len)];
        let mut first = 0;
        for page in &self.pages {
            let n = page.len();
            if let Some(out) = buf.get_mut(..n) {
                page.write_to(out);
                chunk(first, out);
            }
            first += n;
        }
        if !self.filling.is_empty() {
            chunk(first, &self.filling);
        }
    }
    /// Seals the page being filled (at its narrowest width) and trims the page list.
    pub fn shrink_to_fit(&mut self) {
        if !self.filling.is_empty() {
            self.pages.push(Page::seal(&self.filling));
        }
        self.filling = Vec::new();
        self.pages.shrink_to_fit();
    }
    /// Resident bytes (capacities).
    pub fn resident_bytes(&self) -> usize {
        self.pages.iter().map(Page::bytes).sum::<usize>()
            + self.filling.capacity() * 4
            + self.pages.capacity() * std::mem::size_of::<Page>()
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
    fn pages_hold_every_value_in_order_at_their_narrowest_width() {
        // Page 0: rising by one (2 bytes: span PAGE_LEN - 1); page 1: a few names (1 byte);
        // page 2: a wide permutation (4 bytes); then a partly filled page.
        let mut values: Vec<u32> = (0..PAGE_LEN as u32).map(|i| 1_000_000 + i).collect();
        values.extend((0..PAGE_LEN as u32).map(|i| 7 + i % 200));
        values.extend((0..PAGE_LEN as u32).map(|i| i.wrapping_mul(2_654_435_761) >> 1));
        values.extend([u32::MAX, 0, 5]);
        let mut c: PagedU32 = values.iter().copied().collect();
        assert_eq!(c.len(), values.len());
        assert!(c.iter().eq(values.iter().copied()), "before sealing");
        assert_eq!(c.get(values.len()), None);
        c.shrink_to_fit();
        assert!(c.iter().eq(values.iter().copied()), "after sealing");
        assert!(matches!(c.pages[0], Page::U16 { min: 1_000_000, .. }));
        assert!(matches!(c.pages[1], Page::U8 { min: 7, .. }));
        assert!(matches!(c.pages[2], Page::U32(_)));
        assert!(matches!(c.pages[3], Page::U32(_)), "the last page spans 0..=u32::MAX");
        let page_list = c.pages.capacity() * std::mem::size_of::<Page>();
        assert_eq!(c.resident_bytes(), PAGE_LEN * (2 + 1 + 4) + 3 * 4 + page_list);
        let mut copied = vec![0u32; values.len()];
        let mut chunks = 0;
        c.for_each_chunk(|first, chunk| {
            copied[first..first + chunk.len()].copy_from_slice(chunk);
            chunks += 1;
        });
        assert_eq!((copied, chunks), (values, 4));
        assert!(PagedU32::default().is_empty());
    }

    #[test]
    fn an_unsealed_page_is_read_and_copied_too() {
        let c: PagedU32 = [3, 1, 2].into_iter().collect();
        assert_eq!((c.get(0), c.get(2), c.get(3)), (Some(3), Some(2), None));
        let mut seen = Vec::new();
        c.for_each_chunk(|first, chunk| seen.push((first, chunk.to_vec())));
        assert_eq!(seen, vec![(0, vec![3, 1, 2])]);
    }
}
