//! Text as every parser takes it: one byte-order mark at the very start (as
//! Windows Notepad saves UTF-8 files) is not part of the content. Each
//! parser's entry point drops it here, so that line 1, column 1 is the first
//! character a person sees.

/// The UTF-8 byte-order mark, U+FEFF.
pub const BOM: &str = "\u{feff}";

/// `text` without one leading byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `bytes` without one leading UTF-8 byte-order mark.
pub fn strip_bom_bytes(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM.as_bytes()).unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_leading_mark_goes_and_nothing_else() {
        assert_eq!(strip_bom("\u{feff}1 2"), "1 2");
        assert_eq!(strip_bom("\u{feff}\u{feff}1"), "\u{feff}1");
        assert_eq!(strip_bom("1\u{feff}"), "1\u{feff}");
        assert_eq!(strip_bom_bytes(b"\xef\xbb\xbf{}"), b"{}");
        assert_eq!(strip_bom_bytes(b"\xef\xbb"), b"\xef\xbb");
    }
}
