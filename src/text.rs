//! Checks shared by every name a player can set (display names, saved-layout names).
//!
//! A name is shown to other players beside game lists, so it must not carry characters
//! that render as nothing or reorder the text around it: a right-to-left override in a
//! layout name can make "gpj.exe" read "exe.jpg", a zero-width space makes two names
//! that look the same differ, and control characters break lines and logs.

/// Whether `c` is refused in any name a player sets: control characters (C0, DEL,
/// C1), line and paragraph separators, every format character (Unicode category Cf:
/// bidi embeddings, overrides, isolates and marks, zero-width spaces and joiners, the
/// byte-order mark, invisible operators, tags…), the other default-ignorable code
/// points (the combining grapheme joiner, variation selectors, Khmer inherent vowels…),
/// and the few letters and symbols that draw as blank space (Hangul fillers, the
/// braille blank).
///
/// The Cf list is written out (Unicode 16) rather than taken from a crate: it is short,
/// changes rarely, and the standard library has no general-category lookup.
pub fn hidden_or_reordering(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Line and paragraph separators.
            '\u{2028}' | '\u{2029}'
            // Category Cf.
            | '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
            // The rest of Default_Ignorable_Code_Point (DerivedCoreProperties.txt,
            // Unicode 16), which renderers draw as nothing: the combining grapheme
            // joiner, the Khmer inherent vowels, the Mongolian variation selectors,
            // variation selectors (emoji presentation U+FE0F among them), the
            // reserved U+2065 and U+FFF0–U+FFF8, and the rest of plane 14 (tag and
            // variation selector supplement).
            | '\u{034F}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2065}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{E0000}'..='\u{E0FFF}'
            // Blank letters and symbols: Hangul fillers (letters, so `is_alphanumeric`
            // lets them through) and the braille blank.
            | '\u{115F}'
            | '\u{1160}'
            | '\u{3164}'
            | '\u{FFA0}'
            | '\u{2800}'
        )
}

/// The first character of `name` that [`hidden_or_reordering`] refuses.
pub fn first_hidden(name: &str) -> Option<char> {
    name.chars().find(|&c| hidden_or_reordering(c))
}

/// A refused character as a message shows it: its code point, since it may draw as
/// nothing or turn the message around.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_zero_width_control_and_blank_characters_are_refused() {
        for c in [
            '\u{0}',
            '\t',
            '\n',
            '\u{7f}',
            '\u{85}',
            '\u{9f}',
            '\u{00AD}',
            '\u{061C}',
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2028}',
            '\u{2029}',
            '\u{2060}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{E0041}',
            '\u{034F}',
            '\u{FE0F}',
            '\u{17B4}',
            '\u{180B}',
            '\u{E0100}',
            '\u{3164}',
            '\u{2800}',
        ] {
            assert!(hidden_or_reordering(c), "{}", code_point(c));
        }
        assert_eq!(first_hidden("gpj\u{202E}exe"), Some('\u{202E}'));
    }

    #[test]
    fn letters_of_any_script_digits_and_marks_pass() {
        for name in [
            "铁桶阵 v2",
            "Ünal Ω",
            "مرحبا",
            "שלום",
            "e\u{301}",
            "三角雷-2_x·y",
            "😀",
        ] {
            assert_eq!(first_hidden(name), None, "{name}");
        }
    }
}
