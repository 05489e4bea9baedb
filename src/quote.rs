//! Quoting what a client sent inside an error message, shortened.
//!
//! An error that names the offending value helps whoever sent it, but echoing it whole
//! lets a client make the server write back (and log) whatever it sent: a 3 MB string
//! in a record came back whole from `junqi verify`. Every message that quotes client
//! input goes through [`quoted`], which keeps a short prefix, cut on a character
//! boundary; [`clipped`] bounds a whole message from a library (serde's, which may
//! quote input too) the same way.

use std::borrow::Cow;

/// How many characters of an offending value an error quotes. A square, a piece, a
/// seat or a message type is under 20; a game id 8; a username at most 20.
pub const QUOTE_CHARS: usize = 64;

/// How long a whole error message may be, in characters. The longest written by hand
/// come to about 200 (a record's commitment that does not match: two 64-digit hashes
/// and the words around them).
pub const MESSAGE_CHARS: usize = 300;

/// `value` quoted as `{:?}` quotes it (control and invisible characters escaped), at
/// most [`QUOTE_CHARS`] characters of it; a cut value ends with `…` inside the quotes.
pub fn quoted(value: &str) -> String {
    match value.char_indices().nth(QUOTE_CHARS) {
        None => format!("{value:?}"),
        Some((end, _)) => format!("{:?}", format!("{}…", &value[..end])),
    }
}

/// `text` cut to at most `max` characters (then ending with `…`).
pub fn clipped(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_value_is_quoted_whole() {
        assert_eq!(quoted("a13"), "\"a13\"");
        assert_eq!(quoted(""), "\"\"");
        assert_eq!(
            quoted(&"x".repeat(QUOTE_CHARS)),
            format!("\"{}\"", "x".repeat(64))
        );
    }

    #[test]
    fn a_long_value_keeps_a_prefix_cut_on_a_character_boundary() {
        // Three-byte characters: a cut by bytes would fall inside one and panic.
        let long = "将".repeat(1_000_000);
        let q = quoted(&long);
        assert_eq!(q, format!("\"{}…\"", "将".repeat(QUOTE_CHARS)));
        let mixed = format!("a{}", "🀄".repeat(100));
        assert_eq!(quoted(&mixed).chars().count(), QUOTE_CHARS + 3);
    }

    #[test]
    fn invisible_characters_are_escaped_not_echoed() {
        assert_eq!(quoted("a\u{202e}b\n"), "\"a\\u{202e}b\\n\"");
    }

    #[test]
    fn a_message_is_clipped_only_when_too_long() {
        assert!(matches!(clipped("short", 10), Cow::Borrowed("short")));
        assert_eq!(clipped("ééééé", 3), "ééé…");
        assert_eq!(clipped(&"m".repeat(3 << 20), MESSAGE_CHARS).len(), 300 + 3);
    }
}
