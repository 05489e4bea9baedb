//! What replaying a 四国 record gives, and how the verdict is written.

use crate::rules::hidden_game::{Defeat, Ending, HiddenGame};
use crate::rules::siguo::{FourPlayer, Seat4};
use serde_json::{Value, json};

/// The replayed outcome of a valid 四国 record.
#[derive(Debug, Clone)]
pub struct SiguoVerdict {
    pub game: HiddenGame<FourPlayer>,
    pub score: Option<[i32; 4]>,
    pub seated: Vec<Seat4>,
    pub commitment_checked: bool,
}

/// The record's `result`: the winners joined by `+`, `draw`, `unscored`; `None` while
/// the game runs.
pub fn result_name(game: &HiddenGame<FourPlayer>) -> Option<String> {
    Some(match game.ending()? {
        Ending::Won { .. } | Ending::PlayOnDeclined { .. } => Seat4::ALL
            .into_iter()
            .filter(|&s| game.won(s))
            .map(Seat4::name)
            .collect::<Vec<_>>()
            .join("+"),
        Ending::QuietDraw | Ending::AgreedDraw | Ending::TuoguanDraw => "draw".into(),
        Ending::AllInTuoguan => "unscored".into(),
    })
}

/// Every stored result that names `seat` among the winners: the winners are written in
/// the order S, E, N, W joined by `+` (as [`result_name`] does), so these are `seat`
/// alone and with each set of the other seats — the history's "won by this seat".
pub fn results_won_by(seat: Seat4) -> Vec<String> {
    (0u8..16)
        .filter(|set| set & (1 << seat.index()) != 0)
        .map(|set| {
            let won = Seat4::ALL
                .into_iter()
                .filter(|s| set & (1 << s.index()) != 0);
            won.map(Seat4::name).collect::<Vec<_>>().join("+")
        })
        .collect()
}

/// Every reason a 四国 end is stored under, as [`reason_name`] gives them.
pub const REASON_NAMES: [&str; 6] = [
    "one_alliance_left",
    "quiet_steps",
    "agreed",
    "only_tuoguan_left",
    "all_in_tuoguan",
    "play_on_declined",
];

pub fn reason_name(e: Ending) -> &'static str {
    match e {
        Ending::Won { .. } => "one_alliance_left",
        Ending::QuietDraw => "quiet_steps",
        Ending::AgreedDraw => "agreed",
        Ending::TuoguanDraw => "only_tuoguan_left",
        Ending::AllInTuoguan => "all_in_tuoguan",
        Ending::PlayOnDeclined { .. } => "play_on_declined",
    }
}

fn defeat_name(d: Defeat) -> &'static str {
    match d {
        Defeat::FlagTaken => "flag_taken",
        Defeat::NoMoves => "no_moves",
        Defeat::Timeouts => "timeouts",
        Defeat::Resigned => "resigned",
        Defeat::Escaped => "escaped",
    }
}

impl SiguoVerdict {
    pub fn to_json(&self) -> Value {
        let g = &self.game;
        let per_seat = |f: &dyn Fn(Seat4) -> Value| -> Value {
            Value::Object(
                self.seated
                    .iter()
                    .map(|&s| (s.name().to_string(), f(s)))
                    .collect(),
            )
        };
        json!({
            "valid": true,
            "variant": "siguo",
            "result": result_name(g),
            "reason": g.ending().map(reason_name),
            "steps": g.steps(),
            "defeated": per_seat(&|s| json!(g.defeat(s).map(defeat_name))),
            "score": self.score.map(|sc| per_seat(&|s| json!(sc[s.index()]))),
            "commitment_checked": self.commitment_checked,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_is_stored_under_a_listed_reason() {
        let endings = [
            Ending::Won { winners: 0b0101 },
            Ending::QuietDraw,
            Ending::AgreedDraw,
            Ending::TuoguanDraw,
            Ending::AllInTuoguan,
            Ending::PlayOnDeclined { winners: 0b0010 },
        ];
        let names: Vec<&str> = endings.into_iter().map(reason_name).collect();
        assert_eq!(names, REASON_NAMES);
    }

    #[test]
    fn a_seat_wins_alone_or_beside_any_others_in_board_order() {
        let mut east = results_won_by(Seat4::East);
        east.sort();
        let mut expected = [
            "east",
            "south+east",
            "east+north",
            "east+west",
            "south+east+north",
            "south+east+west",
            "east+north+west",
            "south+east+north+west",
        ];
        expected.sort();
        assert_eq!(east, expected);
    }
}
