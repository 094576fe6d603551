//! Character classes the tokenizers and filters need, in Java's terms where Lucene uses
//! `java.lang.Character` (letters, whitespace, simple case mapping) and in UAX#29/Lucene's
//! terms for the standard tokenizer's token types.

/// `Character.isLetter`: general category L*. Rust's `is_alphabetic` also counts Nl and
/// Other_Alphabetic marks; those are excluded where cheap to tell.
pub fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    c.is_alphabetic() && !is_nl_or_mark(c)
}

fn is_nl_or_mark(c: char) -> bool {
    let u = c as u32;
    // Letter numbers (Nl): Roman numerals and a few others.
    matches!(u, 0x16EE..=0x16F0 | 0x2160..=0x2182 | 0x2185..=0x2188 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303A | 0xA6E6..=0xA6EF | 0x10140..=0x10174 | 0x12400..=0x1246E)
        // Combining vowel signs in Indic and SE-Asian scripts (Mn/Mc that Rust calls alphabetic).
        || matches!(u, 0x0345 | 0x05B0..=0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 | 0x06D6..=0x06ED | 0x0900..=0x0903 | 0x093A..=0x094F | 0x0955..=0x0957 | 0x0962..=0x0963 | 0x0981..=0x0983 | 0x09BE..=0x09CC | 0x0A01..=0x0A03 | 0x0A3E..=0x0A4C | 0x0ABE..=0x0ACC | 0x0B3E..=0x0B4C | 0x0BBE..=0x0BCC | 0x0C3E..=0x0C4C | 0x0CBE..=0x0CCC | 0x0D3E..=0x0D4C | 0x0E31 | 0x0E34..=0x0E3A | 0x0E4D | 0x0EB1 | 0x0EB4..=0x0EBC | 0x102B..=0x103E | 0x17B6..=0x17C8)
}

/// `Character.isWhitespace`.
pub fn is_java_whitespace(c: char) -> bool {
    match c {
        '\t'..='\r' | '\u{1C}'..='\u{1F}' | ' ' => true,
        '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        '\u{85}' => false,
        c if c.is_ascii() => false,
        c => c.is_whitespace(),
    }
}

/// `Character.toLowerCase(int)`: the simple 1:1 mapping.
#[inline]
pub fn to_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut it = c.to_lowercase();
    let first = it.next().unwrap_or(c);
    if it.next().is_some() && c != '\u{130}' {
        c
    } else {
        first
    }
}

/// `Character.toUpperCase(int)`: the simple 1:1 mapping.
#[inline]
pub fn to_upper(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let mut it = c.to_uppercase();
    let first = it.next().unwrap_or(c);
    if it.next().is_some() {
        c
    } else {
        first
    }
}

pub fn lowercase_into(src: &str, dst: &mut String) {
    dst.clear();
    if src.is_ascii() {
        dst.push_str(src);
        dst.make_ascii_lowercase();
    } else {
        dst.extend(src.chars().map(to_lower));
    }
}

#[inline]
pub fn lowercase_in_place(s: &mut String) {
    if s.is_ascii() {
        s.make_ascii_lowercase();
    } else if s.chars().any(|c| to_lower(c) != c) {
        *s = s.chars().map(to_lower).collect();
    }
}

/// UTF-16 length of a string.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x2FDF | 0x3005 | 0x3007 | 0x3021..=0x3029 | 0x3038..=0x303B | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

pub fn is_hiragana(c: char) -> bool {
    matches!(c as u32, 0x3041..=0x3096 | 0x309D..=0x309F | 0x1B001..=0x1B11F | 0x1F200)
}

pub fn is_katakana(c: char) -> bool {
    matches!(c as u32, 0x3031..=0x3035 | 0x309B..=0x309C | 0x30A0..=0x30FA | 0x30FC..=0x30FF | 0x31F0..=0x31FF | 0x32D0..=0x32FE | 0x3300..=0x3357 | 0xFF66..=0xFF9D | 0x1B000)
}

pub fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x11FF | 0x3131..=0x318E | 0xA960..=0xA97C | 0xAC00..=0xD7A3 | 0xD7B0..=0xD7FB | 0xFFA0..=0xFFDC)
}
