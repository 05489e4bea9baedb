//! The score-history chart of a profile, drawn as SVG on the server so the profile
//! needs no script.

use std::fmt::Write as _;

const W: f64 = 600.0;
const H: f64 = 180.0;
const PAD: f64 = 28.0;

/// An SVG line chart of `scores` (oldest first). Empty input gives a short note.
pub fn score_chart(scores: &[i64], empty_note: &str) -> String {
    if scores.is_empty() {
        return format!(
            r#"<svg class="score-chart" viewBox="0 0 {W} 60" role="img" aria-label="{empty_note}"><text x="{}" y="34" text-anchor="middle">{empty_note}</text></svg>"#,
            W / 2.0
        );
    }
    // Start from zero: every player's score begins there.
    let min = scores.iter().copied().min().unwrap_or(0).min(0);
    let max = scores.iter().copied().max().unwrap_or(0).max(min + 1);
    let n = scores.len().max(2) - 1;
    let x = |i: usize| PAD + (W - 2.0 * PAD) * i as f64 / n as f64;
    let y = |v: i64| H - PAD - (H - 2.0 * PAD) * (v - min) as f64 / (max - min) as f64;
    let mut points = format!("{:.1},{:.1}", x(0), y(0));
    for (i, &s) in scores.iter().enumerate() {
        let _ = write!(points, " {:.1},{:.1}", x(i + 1).min(W - PAD), y(s));
    }
    let zero = y(0);
    format!(
        concat!(
            r#"<svg class="score-chart" viewBox="0 0 {w} {h}" role="img" aria-label="score history">"#,
            r#"<line class="axis" x1="{pad}" y1="{zero:.1}" x2="{xr}" y2="{zero:.1}"/>"#,
            r#"<text class="tick" x="4" y="{ymax:.1}">{max}</text>"#,
            r#"<text class="tick" x="4" y="{ymin:.1}">{min}</text>"#,
            r#"<polyline class="line" points="{points}"/>"#,
            r#"</svg>"#
        ),
        w = W,
        h = H,
        pad = PAD,
        xr = W - PAD,
        zero = zero,
        ymax = y(max) + 4.0,
        ymin = y(min) + 4.0,
        max = max,
        min = min,
        points = points,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_point_per_game_plus_the_start() {
        let svg = score_chart(&[1, 3, -2, 5], "none");
        let points = svg
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split(' ').count(), 5);
        assert!(svg.contains(">5<") && svg.contains(">-2<"), "{svg}");
    }

    #[test]
    fn an_empty_history_says_so() {
        assert!(score_chart(&[], "no games yet").contains("no games yet"));
    }
}
