//! Frame-of-reference bit-packed integer columns, for what stays resident of a big capture:
//! the analysis worker's model (millions of rows, edges and bar indices, most of them small
//! steps from their neighbours) and the page's per-bar timeline columns.
//!
//! Values are cut into blocks of [`BLOCK`] (128). Each block keeps a base, an optional slope
//! and a bit width; value `k` of the block is `base + slope · k + residual_k`, the residuals
//! packed at that width. The slope is the block's average step when that makes the residuals
//! narrower (sorted ids, CSR offsets, monotone indices take a few bits; a run of equal values
//! takes none), else 0 (plain frame of reference). Any value reads back in O(1) ([`PackedU64::get`])
//! and a whole column decodes a block at a time ([`PackedU64::iter`]). Wrapping arithmetic on
//! `u64` makes any input exact, also the order-preserving image of signed values
//! ([`PackedI64`]). About `17 / 128` bytes of block header per value on top of the packed bits.

#![allow(clippy::many_single_char_names, clippy::cast_possible_wrap)] // bit arithmetic; block positions are < 128

use serde::{Deserialize, Serialize};

/// Values per block.
pub const BLOCK: usize = 128;

/// A column of `u64`, bit-packed per block (see the module doc). Append with
/// [`PackedU64::push`]; the last, partial block stays unpacked until it fills.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackedU64 {
    /// Per full block: its line, residual width and first word (one load per value read).
    #[serde(deserialize_with = "exact_vec")]
    blocks: Vec<Block>,
    /// Index in `words` of the first word of blocks 0, [`GROUP`], 2 · [`GROUP`], …
    #[serde(deserialize_with = "exact_vec")]
    group_words: Vec<u32>,
    #[serde(deserialize_with = "exact_vec")]
    words: Vec<u64>,
    /// The values after the last full block.
    #[serde(deserialize_with = "exact_vec")]
    tail: Vec<u64>,
}

/// One block's frame: value `k` is `base + slope · k + residual_k`, residuals `width` bits
/// starting `word` words after its group's first ([`PackedU64::group_words`]). 15 bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[repr(C, packed)]
struct Block {
    base: u64,
    slope: i32,
    width: u8,
    word: u16,
}

/// Blocks per entry of [`PackedU64::group_words`]: a group's words (at most 128 a block) are
/// counted from it in a `u16`.
const GROUP: usize = 16;

/// Deserialises a `Vec` with exactly the capacity the encoding announces (a binary encoding
/// gives the length first): a decoded column holds no slack, where serde's own `Vec` grows
/// by doubling (up to twice the memory, and three times while it reallocates).
fn exact_vec<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    struct Exact<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Exact<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            // Bounded, so a corrupt length cannot ask for all memory at once.
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 27));
            while let Some(x) = seq.next_element()? {
                v.push(x);
            }
            Ok(v)
        }
    }
    d.deserialize_seq(Exact(std::marker::PhantomData))
}

fn bits_for(span: u64) -> u8 {
    (64 - span.leading_zeros()) as u8
}

/// The narrowest `(base, slope, width)` for one block of values.
fn fit(values: &[u64]) -> (u64, i64, u8) {
    let plain = {
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for &v in values {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        (lo, 0i64, bits_for(hi.wrapping_sub(lo)))
    };
    let n = values.len();
    if n < 3 || plain.2 <= 1 {
        return plain;
    }
    let (first, last) = (values[0], values[n - 1]);
    // Average step (signed, in the wrapping domain), rounded toward zero; within an i32.
    let step = last.wrapping_sub(first).cast_signed() / (n as i64 - 1);
    if step == 0 || i32::try_from(step).is_err() {
        return plain;
    }
    // Residuals against the line, in i128 so no step of the search overflows.
    let (mut lo, mut hi) = (i128::MAX, i128::MIN);
    for (k, &v) in values.iter().enumerate() {
        let predicted = i128::from(first) + i128::from(step) * k as i128;
        let r = i128::from(v) - predicted;
        lo = lo.min(r);
        hi = hi.max(r);
    }
    let span = hi - lo;
    if span >= i128::from(u64::MAX) {
        return plain;
    }
    let width = bits_for(span as u64);
    if width >= plain.2 {
        return plain;
    }
    // base + step·k + (r - lo) = v, all wrapping in u64.
    let base = (i128::from(first) + lo) as u64;
    (base, step, width)
}

impl PackedU64 {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.blocks.len() * BLOCK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a value.
    pub fn push(&mut self, v: u64) {
        self.tail.push(v);
        if self.tail.len() == BLOCK {
            self.pack_tail();
        }
    }

    fn pack_tail(&mut self) {
        let (base, slope, width) = fit(&self.tail);
        if self.blocks.len().is_multiple_of(GROUP) {
            self.group_words.push(self.words.len() as u32);
        }
        let group_first = self.group_words.last().copied().unwrap_or(0) as usize;
        let word = (self.words.len() - group_first) as u16;
        // `fit` keeps slopes within an i32.
        let slope = i32::try_from(slope).unwrap_or(0);
        let step = i64::from(slope).cast_unsigned();
        self.blocks.push(Block { base, slope, width, word });
        if width > 0 {
            let w = u32::from(width);
            let first_word = self.words.len();
            // BLOCK · width bits is exactly 2 · width words.
            self.words.resize(first_word + 2 * width as usize, 0);
            for (k, &v) in self.tail.iter().enumerate() {
                let r = v.wrapping_sub(base.wrapping_add(step.wrapping_mul(k as u64)));
                let bit = k as u32 * w;
                let (word, shift) = (first_word + (bit / 64) as usize, bit % 64);
                self.words[word] |= r << shift;
                if shift + w > 64 {
                    self.words[word + 1] |= r >> (64 - shift);
                }
            }
        }
        self.tail.clear();
    }

    /// Value `i`, if any.
    pub fn get(&self, i: usize) -> Option<u64> {
        let b = i / BLOCK;
        let Some(&Block { base, slope, width, word }) = self.blocks.get(b) else {
            return self.tail.get(i - self.blocks.len() * BLOCK).copied();
        };
        let k = (i % BLOCK) as u64;
        let predicted = base.wrapping_add(i64::from(slope).cast_unsigned().wrapping_mul(k));
        if width == 0 {
            return Some(predicted);
        }
        let w = u32::from(width);
        let bit = k as u32 * w;
        let group_first = self.group_words.get(b / GROUP).copied().unwrap_or(0) as usize;
        let first = group_first + usize::from(word) + (bit / 64) as usize;
        let shift = bit % 64;
        let mut r = self.words.get(first).copied().unwrap_or(0) >> shift;
        if shift + w > 64 {
            r |= self.words.get(first + 1).copied().unwrap_or(0) << (64 - shift);
        }
        if w < 64 {
            r &= (1u64 << w) - 1;
        }
        Some(predicted.wrapping_add(r))
    }

    /// `partition_point` over a column ordered by `pred` (true, then false).
    pub fn partition_point(&self, pred: impl Fn(u64) -> bool) -> usize {
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid).is_some_and(&pred) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Position of `x` in an ascending column (`Err`: where it would go), as
    /// `slice::binary_search`.
    pub fn binary_search(&self, x: u64) -> Result<usize, usize> {
        let at = self.partition_point(|v| v < x);
        if self.get(at) == Some(x) {
            Ok(at)
        } else {
            Err(at)
        }
    }

    /// Decodes block `b` (full blocks only) into `out`.
    fn decode_block(&self, b: usize, out: &mut [u64; BLOCK]) {
        let Some(&Block { base, slope, width, word }) = self.blocks.get(b) else { return };
        let step = i64::from(slope).cast_unsigned();
        let w = usize::from(width);
        let first = self.group_words.get(b / GROUP).copied().unwrap_or(0) as usize + usize::from(word);
        let words = self.words.get(first..first + 2 * w).unwrap_or_default();
        let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        for (k, slot) in out.iter_mut().enumerate() {
            let predicted = base.wrapping_add(step.wrapping_mul(k as u64));
            if w == 0 {
                *slot = predicted;
                continue;
            }
            let bit = k * w;
            let (i, shift) = (bit / 64, bit % 64);
            let mut r = words.get(i).copied().unwrap_or(0) >> shift;
            if shift + w > 64 {
                r |= words.get(i + 1).copied().unwrap_or(0) << (64 - shift);
            }
            *slot = predicted.wrapping_add(r & mask);
        }
    }

    /// The values at `range` (clamped to the column), in order, a block at a time.
    pub fn iter_range(&self, range: std::ops::Range<usize>) -> std::iter::Take<PackedIter<'_>> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        PackedIter { column: self, next: start, block: [0; BLOCK], decoded: usize::MAX }.take(end - start)
    }

    /// Every value, in order, a block at a time.
    pub fn iter(&self) -> PackedIter<'_> {
        PackedIter { column: self, next: 0, block: [0; BLOCK], decoded: usize::MAX }
    }

    /// The values as a `Vec` (tests, small columns).
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }

    /// Trims the capacities.
    pub fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.group_words.shrink_to_fit();
        self.words.shrink_to_fit();
        self.tail.shrink_to_fit();
    }

    /// Heap bytes (capacities).
    pub fn resident_bytes(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>()
            + (self.words.capacity() + self.tail.capacity()) * 8
            + self.group_words.capacity() * 4
    }
}

impl<'a> IntoIterator for &'a PackedU64 {
    type Item = u64;
    type IntoIter = PackedIter<'a>;
    fn into_iter(self) -> PackedIter<'a> {
        self.iter()
    }
}

impl FromIterator<u64> for PackedU64 {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut c = Self::new();
        for v in iter {
            c.push(v);
        }
        c.shrink_to_fit();
        c
    }
}

/// Iterator over a [`PackedU64`].
pub struct PackedIter<'a> {
    column: &'a PackedU64,
    next: usize,
    block: [u64; BLOCK],
    /// Index of the block in `block` (`usize::MAX`: none).
    decoded: usize,
}

impl Iterator for PackedIter<'_> {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let i = self.next;
        let b = i / BLOCK;
        let v = if b < self.column.blocks.len() {
            if self.decoded != b {
                self.column.decode_block(b, &mut self.block);
                self.decoded = b;
            }
            self.block[i % BLOCK]
        } else {
            *self.column.tail.get(i - self.column.blocks.len() * BLOCK)?
        };
        self.next += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.column.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for PackedIter<'_> {}

/// A value a [`Packed`] column holds: how it maps onto the `u64` that is packed. Nearby
/// values should map to nearby codes (that is what keeps the residuals narrow).
pub trait Code: Copy {
    fn encode(self) -> u64;
    /// The value of a code [`Code::encode`] gave.
    fn decode(code: u64) -> Self;
}

impl Code for u32 {
    fn encode(self) -> u64 {
        u64::from(self)
    }
    fn decode(code: u64) -> Self {
        code as u32
    }
}

/// The order-preserving image (so nearby signed values stay nearby).
impl Code for i64 {
    fn encode(self) -> u64 {
        self.cast_unsigned() ^ (1 << 63)
    }
    fn decode(code: u64) -> Self {
        (code ^ (1 << 63)).cast_signed()
    }
}

impl Code for bool {
    fn encode(self) -> u64 {
        u64::from(self)
    }
    fn decode(code: u64) -> Self {
        code != 0
    }
}

/// A column of `T`, its [`Code`]s packed as a [`PackedU64`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
pub struct Packed<T> {
    codes: PackedU64,
    #[serde(skip)]
    of: std::marker::PhantomData<T>,
}

/// Signed values (times as cycles, signed deltas).
pub type PackedI64 = Packed<i64>;
/// Indices, offsets, counts.
pub type PackedU32 = Packed<u32>;

impl<T> Default for Packed<T> {
    fn default() -> Self {
        Self { codes: PackedU64::default(), of: std::marker::PhantomData }
    }
}

impl<T: Code> Packed<T> {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
    pub fn push(&mut self, v: T) {
        self.codes.push(v.encode());
    }
    pub fn get(&self, i: usize) -> Option<T> {
        self.codes.get(i).map(T::decode)
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + '_ {
        self.codes.iter().map(T::decode)
    }
    /// The values at `range` (clamped to the column), a block at a time.
    pub fn range(&self, range: std::ops::Range<usize>) -> impl ExactSizeIterator<Item = T> + '_ {
        self.codes.iter_range(range).map(T::decode)
    }
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }
    /// `partition_point` over a column ordered by `pred` (true, then false).
    pub fn partition_point(&self, pred: impl Fn(T) -> bool) -> usize {
        self.codes.partition_point(|v| pred(T::decode(v)))
    }
    /// Hands the column out in pieces of at most 65,536 values: `chunk(first, values)` per
    /// piece (how the worker copies it into a typed array).
    pub fn for_each_chunk(&self, mut chunk: impl FnMut(usize, &[T])) {
        const PIECE: usize = 1 << 16;
        let mut buf: Vec<T> = Vec::with_capacity(PIECE.min(self.len()));
        let mut first = 0;
        for v in self.iter() {
            buf.push(v);
            if buf.len() == PIECE {
                chunk(first, &buf);
                first += buf.len();
                buf.clear();
            }
        }
        if !buf.is_empty() {
            chunk(first, &buf);
        }
    }
    pub fn shrink_to_fit(&mut self) {
        self.codes.shrink_to_fit();
    }
    pub fn resident_bytes(&self) -> usize {
        self.codes.resident_bytes()
    }
}

impl<T: Code> FromIterator<T> for Packed<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self { codes: iter.into_iter().map(T::encode).collect(), of: std::marker::PhantomData }
    }
}

impl<T: Code> From<&[T]> for Packed<T> {
    fn from(v: &[T]) -> Self {
        v.iter().copied().collect()
    }
}

/// Where item `i` of a file's array is, when the byte offset of every `stride`-th item is
/// kept (`offset_of(g)`: that of item `g · stride`) and `end` is where the last item ends:
/// `(offset, len, position)` of the piece holding item `i` and the rest of its group, and
/// `i`'s position among the items there. The last piece runs one byte past `end` (the
/// array's `]` or whitespace), so a reader sees its last item complete. `None` when group
/// `i / stride` has no offset.
pub fn strided_piece(offset_of: impl Fn(usize) -> Option<u64>, end: u64, stride: usize, i: usize) -> Option<(u64, u32, usize)> {
    let g = i / stride.max(1);
    let from = offset_of(g)?;
    let to = offset_of(g + 1).unwrap_or(end + 1);
    Some((from, u32::try_from(to.checked_sub(from)?).ok()?, i % stride.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn round_trip(values: &[u64]) -> PackedU64 {
        let c: PackedU64 = values.iter().copied().collect();
        assert_eq!(c.len(), values.len());
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(c.get(i), Some(v), "value {i}");
        }
        assert_eq!(c.get(values.len()), None);
        assert_eq!(c.to_vec(), values);
        c
    }

    #[test]
    fn strided_pieces_cover_their_groups() {
        let offsets = [10u64, 400, 900];
        let at = |g: usize| offsets.get(g).copied();
        assert_eq!(strided_piece(at, 1000, 16, 0), Some((10, 390, 0)));
        assert_eq!(strided_piece(at, 1000, 16, 17), Some((400, 500, 1)));
        // The last group runs one byte past the end.
        assert_eq!(strided_piece(at, 1000, 16, 47), Some((900, 101, 15)));
        assert_eq!(strided_piece(at, 1000, 16, 48), None);
        // Offsets out of order (a corrupt model) give no piece.
        assert_eq!(strided_piece(|g| [500u64, 100].get(g).copied(), 1000, 4, 1), None);
    }

    #[test]
    fn every_width_and_edge_value_reads_back() {
        let mut s = 7u64;
        for width in 0..=64u32 {
            let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
            let values: Vec<u64> = (0..1000).map(|_| splitmix(&mut s) & mask).collect();
            round_trip(&values);
        }
        // Blocks of every width one after the other, past several groups of blocks.
        let varied: Vec<u64> = (0..BLOCK * GROUP * 5)
            .map(|i| {
                let width = (i / BLOCK * 7) % 65;
                let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
                splitmix(&mut s) & mask
            })
            .collect();
        round_trip(&varied);
        round_trip(&[]);
        round_trip(&[u64::MAX, 0, u64::MAX, 1]);
        round_trip(&vec![u64::MAX; 300]);
        round_trip(&(0..300).map(|k| u64::MAX - k).collect::<Vec<_>>());
    }

    #[test]
    fn steady_runs_take_few_bits() {
        // Ranges read the same values as one by one.
        let c: PackedU64 = (0..1000u64).map(|k| k * k % 977).collect();
        for (a, b) in [(0, 1000), (5, 300), (127, 129), (999, 1000), (900, 2000), (50, 50)] {
            assert_eq!(c.iter_range(a..b).collect::<Vec<_>>(), (a..b.min(1000)).filter_map(|k| c.get(k)).collect::<Vec<_>>());
        }
        // Sorted ids with unit steps: no residual bits at all.
        let ids: Vec<u64> = (0..10_000u64).map(|k| (2 << 32) | k).collect();
        let c = round_trip(&ids);
        assert!(c.resident_bytes() < 10_000 / 4, "{} bytes", c.resident_bytes());
        // CSR-like offsets: steps of 1..4.
        let mut s = 3u64;
        let mut at = 0u64;
        let offsets: Vec<u64> = (0..10_000)
            .map(|_| {
                at += 1 + splitmix(&mut s) % 4;
                at
            })
            .collect();
        let c = round_trip(&offsets);
        assert!(c.resident_bytes() < 10_000, "{} bytes", c.resident_bytes());
        // A constant column: headers only.
        let c = round_trip(&vec![42u64; 10_000]);
        assert!(c.resident_bytes() < 2_000, "{} bytes", c.resident_bytes());
        // Decreasing values fit a negative slope.
        let down: Vec<u64> = (0..1_024u64).map(|k| 1_000_000 - 3 * k).collect();
        let c = round_trip(&down);
        assert!(c.resident_bytes() < 400, "{} bytes", c.resident_bytes());
    }

    #[test]
    fn signed_and_u32_columns_read_back() {
        let v: Vec<i64> = vec![-1, 0, 1, i64::MIN, i64::MAX, -5, 7];
        let mut values = v.clone();
        values.extend((0..500).map(|k| k % 7 - 3));
        let c: PackedI64 = values.iter().copied().collect();
        assert_eq!(c.to_vec(), values);
        assert_eq!(c.get(3), Some(i64::MIN));
        let small: PackedI64 = (0..1_024).map(|k| (k % 3) - 1).collect();
        assert!(small.resident_bytes() < 600, "{} bytes", small.resident_bytes());
        let u: Vec<u32> = (0..1_000u32).map(|k| k * 3 + u32::from(k % 2 == 0)).collect();
        let c = PackedU32::from(u.as_slice());
        assert_eq!(c.to_vec(), u);
        assert_eq!(c.partition_point(|x| x < 1_500), u.partition_point(|&x| x < 1_500));
    }

    #[test]
    fn pushing_after_reading_and_serde_round_trip() {
        let mut c = PackedU64::new();
        for k in 0..300u64 {
            c.push(k * k);
            assert_eq!(c.get(k as usize), Some(k * k));
        }
        let json = serde_json::to_string(&c).unwrap_or_default();
        let back: PackedU64 = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, c);
        assert_eq!(back.to_vec(), (0..300u64).map(|k| k * k).collect::<Vec<_>>());
    }
}
