//! Byte-level fast paths for the slice-by-slice readers' hottest elements (deps.json task
//! heads, whose `args` are skipped in a lean read): a strict JSON value skipper and small
//! scalar scanners. Every function answers `None` for anything it does not fully recognise —
//! including input `serde_json` would accept (escapes in keys, floats, exotic spacing is fine) —
//! and the caller then parses the element with serde as before, so a fast path never accepts
//! what serde rejects nor reads a value differently.

/// JSON whitespace.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Position of the first non-whitespace byte at or after `i`.
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

/// End (exclusive) of the string starting at `b[i] == '"'`; escapes and control characters
/// checked as `serde_json` does.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *b.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' => {
                    let hex = b.get(j + 2..j + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    j += 6;
                }
                _ => return None,
            },
            c if c < 0x20 => return None,
            _ => j += 1,
        }
    }
}

/// The bytes of a string without escapes starting at `b[i] == '"'`, and its end.
pub(crate) fn plain_string(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if *b.get(i)? != b'"' {
        return None;
    }
    let rest = b.get(i + 1..)?;
    let n = rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
    if *rest.get(n)? != b'"' {
        return None;
    }
    Some((rest.get(..n)?, i + 1 + n + 1))
}

/// End of the number starting at `i` (JSON grammar; the byte after it must have arrived).
fn number_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    match *b.get(j)? {
        b'0' => j += 1,
        b'1'..=b'9' => {
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
        }
        _ => return None,
    }
    if b.get(j) == Some(&b'.') {
        j += 1;
        let s = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == s {
            return None;
        }
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let s = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == s {
            return None;
        }
    }
    // A number cut by the end of the bytes received so far is not known to be complete.
    b.get(j)?;
    Some(j)
}

/// Deepest nesting the skipper follows (`serde_json`'s own limit is 128).
const MAX_DEPTH: usize = 64;

/// End (exclusive) of the JSON value starting at `b[i]` (no leading whitespace), validated.
pub(crate) fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    skip_at(b, i, 0)
}

fn skip_at(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    match *b.get(i)? {
        b'"' => string_end(b, i),
        b'{' => {
            let mut j = skip_ws(b, i + 1);
            if *b.get(j)? == b'}' {
                return Some(j + 1);
            }
            loop {
                if *b.get(j)? != b'"' {
                    return None;
                }
                j = skip_ws(b, string_end(b, j)?);
                if *b.get(j)? != b':' {
                    return None;
                }
                j = skip_ws(b, j + 1);
                j = skip_ws(b, skip_at(b, j, depth + 1)?);
                match *b.get(j)? {
                    b',' => j = skip_ws(b, j + 1),
                    b'}' => return Some(j + 1),
                    _ => return None,
                }
            }
        }
        b'[' => {
            let mut j = skip_ws(b, i + 1);
            if *b.get(j)? == b']' {
                return Some(j + 1);
            }
            loop {
                j = skip_ws(b, skip_at(b, j, depth + 1)?);
                match *b.get(j)? {
                    b',' => j = skip_ws(b, j + 1),
                    b']' => return Some(j + 1),
                    _ => return None,
                }
            }
        }
        b't' => literal(b, i, b"true"),
        b'f' => literal(b, i, b"false"),
        b'n' => literal(b, i, b"null"),
        _ => number_end(b, i),
    }
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    (b.get(i..i + word.len())? == word).then_some(i + word.len())
}

/// A non-negative decimal integer of at most 19 digits (fits in u64 and i64), no leading zero
/// unless it is `0`.
pub(crate) fn small_uint(d: &[u8]) -> Option<u64> {
    if d.is_empty() || d.len() > 18 || (d.len() > 1 && d.first() == Some(&b'0')) {
        return None;
    }
    let mut v = 0u64;
    for &c in d {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(c - b'0');
    }
    Some(v)
}

/// The integer number starting at `b[i]` (optional `-`, at most 18 digits, no fraction or
/// exponent) and its end.
#[allow(clippy::many_single_char_names)] // a byte scanner: bytes, index, start, end, value
pub(crate) fn small_int(b: &[u8], i: usize) -> Option<(i64, usize)> {
    let neg = b.get(i) == Some(&b'-');
    let s = i + usize::from(neg);
    let mut j = s;
    while b.get(j).is_some_and(u8::is_ascii_digit) {
        j += 1;
    }
    // The number must be followed by a delimiter that has arrived (not `.`/`e`).
    if !matches!(b.get(j)?, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
        return None;
    }
    let v = small_uint(b.get(s..j)?)?.cast_signed();
    Some((if neg { -v } else { v }, j))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skipper agrees with `serde_json` on validity and extent.
    #[test]
    fn skip_value_matches_serde() {
        let good = [r#"{"a": [1, -2.5e+3, "x\"y\u00e9", true, false, null, {}], "b": {"c": []}} "#, "[] ", r#""s\\" "#, "0 ", "-0.0e1,"];
        for g in good {
            let end = skip_value(g.as_bytes(), 0).unwrap_or_else(|| panic!("rejected {g}"));
            let mut it = serde_json::Deserializer::from_str(g).into_iter::<serde::de::IgnoredAny>();
            assert!(it.next().is_some_and(|r| r.is_ok()), "{g}");
            assert_eq!(end, it.byte_offset(), "{g}");
        }
        for bad in ["[1,]", "{\"a\" 1}", "[01]", "\"\\x\"", "[1 2]", "{\"a\":}", "[-]", "[1.]", "tru", "\"a\u{1}\""] {
            assert!(skip_value(bad.as_bytes(), 0).is_none(), "accepted {bad}");
        }
        // Cut values are incomplete, not valid.
        assert!(skip_value(b"[1, 2", 0).is_none());
        assert!(skip_value(b"12", 0).is_none());
    }

    #[test]
    fn scalars() {
        assert_eq!(small_int(b"-12,", 0), Some((-12, 3)));
        assert_eq!(small_int(b"7]", 0), Some((7, 1)));
        assert_eq!(small_int(b"1.5,", 0), None);
        assert_eq!(small_int(b"01,", 0), None);
        assert_eq!(small_uint(b"8589934592"), Some(8_589_934_592));
        assert_eq!(plain_string(br#""auto","#, 0), Some((&b"auto"[..], 6)));
        assert_eq!(plain_string(br#""a\"b""#, 0), None);
    }
}
