//! How wide a display name draws, in half-ems: the unit in which a Chinese character
//! is 2 and a Latin letter 1. A name is capped at [`MAX_WIDTH`] (twelve Chinese
//! characters), so that no name pushes the header, a player card or a ladder row
//! apart however few characters it has.
//!
//! East Asian wide characters count 2 (`unicode-width`); everything else 1, except the
//! historic scripts below, which that crate counts 1 although their glyphs draw far
//! wider: 𒈙 (U+12219) is 4.03 em in Noto Sans Cuneiform, so twelve of them draw as
//! wide as forty Chinese characters. Each counts the widest glyph measured in its
//! block, rounded up to half-ems (`tools/glyph_widths.py`: the advance widths of every
//! letter and digit in Debian's fonts-noto-core, 20201225). Only historic scripts are
//! listed, which no one writes a name in today, so counting them at their widest
//! costs no player anything. Letters of living scripts that draw wider than a Chinese
//! character (the widest measured: Myanmar ဪ 2.45 em, Tamil 2.24 em) are left to the
//! 12-character cap, which keeps even twelve of those within 2.5 times a Chinese name.
//!
//! The name is also measured after NFKC, and the wider count is kept, so that a
//! compatibility ligature counts as the letters it stands for (ﷺ, U+FDFA, 2.59 em, is
//! eighteen Arabic letters) while fullwidth letters still count 2.

use unicode_normalization::UnicodeNormalization as _;
use unicode_width::UnicodeWidthChar as _;

/// Twelve Chinese characters.
pub const MAX_WIDTH: usize = 24;

/// Historic scripts' blocks and the half-ems each of their characters counts.
const HISTORIC: &[(char, char, usize)] = &[
    ('\u{10080}', '\u{100FF}', 4),  // Linear B Ideograms, widest 1.91 em
    ('\u{10380}', '\u{1039F}', 3),  // Ugaritic, 1.38 em
    ('\u{103A0}', '\u{103DF}', 4),  // Old Persian, 1.72 em
    ('\u{10600}', '\u{1077F}', 3),  // Linear A, 1.29 em
    ('\u{10980}', '\u{1099F}', 4),  // Meroitic Hieroglyphs, 1.53 em
    ('\u{109A0}', '\u{109FF}', 4),  // Meroitic Cursive, 1.75 em
    ('\u{12000}', '\u{123FF}', 9),  // Cuneiform, 4.03 em
    ('\u{12400}', '\u{1247F}', 10), // Cuneiform Numbers and Punctuation, 4.64 em
    ('\u{12480}', '\u{1254F}', 7),  // Early Dynastic Cuneiform, 3.25 em
    ('\u{13000}', '\u{1345F}', 5),  // Egyptian Hieroglyphs, 2.02 em
    ('\u{14400}', '\u{1467F}', 4),  // Anatolian Hieroglyphs, 1.59 em
    ('\u{1EC70}', '\u{1ECBF}', 5),  // Indic Siyaq Numbers, 2.15 em
];

/// The half-ems one character counts: at least 1, so that nothing is free.
fn char_width(c: char) -> usize {
    let listed = HISTORIC
        .iter()
        .find(|&&(lo, hi, _)| (lo..=hi).contains(&c))
        .map_or(0, |&(_, _, w)| w);
    listed.max(c.width().unwrap_or(1)).max(1)
}

/// The half-ems `name` draws: as written, or after NFKC when that is wider.
pub fn drawn_width(name: &str) -> usize {
    let written: usize = name.chars().map(char_width).sum();
    written.max(name.nfkc().map(char_width).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_counts_two_latin_one_cuneiform_nine() {
        assert_eq!(drawn_width("一二三四五六七八九十一二"), MAX_WIDTH);
        assert_eq!(drawn_width("Li Lei_2-x"), 10);
        assert_eq!(drawn_width("小明·Li"), 7);
        assert_eq!(drawn_width("𒈙"), 9);
        assert!(drawn_width(&"𒈙".repeat(12)) > MAX_WIDTH);
        assert!(drawn_width(&"𓀀".repeat(12)) > MAX_WIDTH);
        // Fullwidth Latin is wide; a ligature counts as its letters.
        assert_eq!(drawn_width("ＡＢ"), 4);
        assert!(drawn_width("\u{FDFA}") > MAX_WIDTH / 2);
        // Living scripts count as their characters.
        assert_eq!(drawn_width("مرحبا"), 5);
        assert_eq!(drawn_width("안녕하세요"), 10);
    }
}
