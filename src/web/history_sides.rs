//! The players a history row shows: south and north of a two-player game ([`Side`]),
//! or a 四国 table's four seats, each with its side of the alliance, result and score
//! change ([`TableSide`]).

use super::history::DisplayNames;
use crate::db::table_history::SeatLine;
use crate::rules::Rank;

/// A score change as shown, with its sign: "+3", "-3", "0"; nothing for a casual game.
fn delta_text(change: Option<i32>) -> String {
    match change {
        Some(d) if d > 0 => format!("+{d}"),
        Some(d) => d.to_string(),
        None => String::new(),
    }
}

/// The class that colours a score change.
fn delta_class(change: Option<i32>) -> &'static str {
    match change {
        Some(d) if d > 0 => "up",
        Some(d) if d < 0 => "down",
        _ => "",
    }
}

/// A player as a history row shows them: name and rank at the time of the game.
pub struct Side {
    pub name: String,
    pub display_name: Option<String>,
    /// `person`, `bot` or `computer`: the badge beside the name.
    pub kind: String,
    pub rank: Rank,
    /// The change the game made to the player's score: `None` for a casual game, whose
    /// stored figure is what the score table would have given and never applied.
    pub score_change: Option<i32>,
    pub won: bool,
}

impl Side {
    /// The score change as shown, with its sign: "+3", "-3", "0".
    pub fn delta_text(&self) -> String {
        delta_text(self.score_change)
    }

    pub fn delta_class(&self) -> &'static str {
        delta_class(self.score_change)
    }

    /// The name a row gives the player: the display name, else the login name.
    pub fn shown_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.name)
    }
}

/// One seat of a finished table as its history row shows it.
pub struct TableSide {
    pub name: String,
    pub display_name: Option<String>,
    pub kind: String,
    /// 南, 东, 北, 西 (or S, E, N, W).
    pub seat_word: &'static str,
    /// The side of the alliance, for the team mark (each seat its own in 混战).
    pub team: i32,
    pub won: bool,
    /// `None` for a casual table, as for two-player games.
    pub score_change: Option<i32>,
}

impl TableSide {
    pub fn delta_text(&self) -> String {
        delta_text(self.score_change)
    }

    pub fn delta_class(&self) -> &'static str {
        delta_class(self.score_change)
    }

    pub fn shown_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.name)
    }
}

fn seat_word(seat: &str, en: bool) -> &'static str {
    match (seat, en) {
        ("south", false) => "南",
        ("east", false) => "东",
        ("north", false) => "北",
        ("west", false) => "西",
        ("south", true) => "S",
        ("east", true) => "E",
        ("north", true) => "N",
        _ => "W",
    }
}

/// The four seats of a table's row.
pub(super) fn sides(
    seats: &[SeatLine],
    labels: &DisplayNames,
    rated: bool,
    en: bool,
) -> Vec<TableSide> {
    seats
        .iter()
        .map(|s| TableSide {
            name: s.username.clone(),
            display_name: labels.get(&s.user_id).and_then(|l| l.display_name.clone()),
            kind: labels
                .get(&s.user_id)
                .map_or_else(|| "person".to_string(), |l| l.kind.clone()),
            seat_word: seat_word(&s.seat, en),
            team: s.alliance,
            won: s.result.as_deref() == Some("win"),
            score_change: s.score_change.filter(|_| rated),
        })
        .collect()
}

/// `win`, `draw` or `loss` for `me`, if they sat at the table.
pub(super) fn outcome_of(seats: &[SeatLine], me: i64) -> Option<&'static str> {
    let mine = seats.iter().find(|s| s.user_id == me)?;
    Some(match mine.result.as_deref() {
        Some("win") => "win",
        Some("loss") => "loss",
        _ => "draw",
    })
}
