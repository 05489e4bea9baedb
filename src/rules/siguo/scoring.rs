//! 四国's score table (RULES §5.7): team modes with every override (§5.7.1), and 混战 /
//! 三国 (§5.7.2). Two-player games keep §3.1 and §4.8 (`rules::scoring`).

use super::Alliance;
use super::station::Seat4;
use crate::rules::hidden_game::{Ending, HiddenGame};
use crate::rules::siguo::FourPlayer;

/// The unit u (RULES §5.7.1: 「赢方得 2 分，输方得 -2 分」).
pub const UNIT: i32 = 2;
/// "Within the first 40 steps": a game that ends at step 40 or before (§5.9 point 14).
pub const SHORT_GAME_STEPS: u32 = 40;

/// How each seat stands at the end, beside the game: what the live table knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeatEnd {
    /// It left the game for good (托管退出, or an escape) before its own defeat.
    pub exited: bool,
    /// It was in 托管 (any kind) at the end, not having been defeated before.
    pub tuoguan_at_end: bool,
}

/// What the table reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    pub alliance: Alliance,
    pub ending: Ending,
    pub steps: u32,
    /// Seats that sat down (three in 三国).
    pub seated: [bool; 4],
    pub defeated: [bool; 4],
    pub seats: [SeatEnd; 4],
}

impl Facts {
    /// The facts of a finished game, with what the table knows of each seat.
    pub fn of(
        game: &HiddenGame<FourPlayer>,
        seats: [SeatEnd; 4],
        seated: [bool; 4],
    ) -> Option<Facts> {
        Some(Facts {
            alliance: game.alliance(),
            ending: game.ending()?,
            steps: game.steps(),
            seated,
            defeated: Seat4::ALL.map(|s| game.defeat(s).is_some()),
            seats,
        })
    }
}

/// The row of §5.7's table that gave a seat its score change, so that the end can
/// say why (the overrides of §5.7.1 included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// Not seated (the fourth seat of 三国).
    Empty,
    /// Left for good or in 托管 at the end: −2u whatever the result.
    Escaped,
    /// A draw: nobody scores in team modes.
    Draw,
    /// A 混战 draw for a seat already defeated: −u.
    DrawDefeated,
    /// A win within the first 40 steps: 0.
    ShortWin,
    /// A team win: +u.
    Win,
    /// The last seat of 混战 / 三国: +u for each other seat that started.
    FreeWin,
    /// The ally who would not play on after 断线托管: 0.
    DeclinedPlayOn,
    /// The partner of a seat that left for good: 0 instead of −u.
    AllyLeft,
    /// A loss: −u.
    Loss,
}

impl Row {
    pub const fn name(self) -> &'static str {
        match self {
            Row::Empty => "empty",
            Row::Escaped => "escaped",
            Row::Draw => "draw",
            Row::DrawDefeated => "draw_defeated",
            Row::ShortWin => "short_win",
            Row::Win => "win",
            Row::FreeWin => "free_win",
            Row::DeclinedPlayOn => "declined_play_on",
            Row::AllyLeft => "ally_left",
            Row::Loss => "loss",
        }
    }
}

/// Each seat's score change, or `None` when the game is not scored (all four in 托管,
/// §5.5.3). Seats that did not sit down get 0.
pub fn score(f: &Facts) -> Option<[i32; 4]> {
    score_rows(f).map(|rows| rows.map(|(n, _)| n))
}

/// Each seat's score change with the row of §5.7 it comes from; `None` when unscored.
pub fn score_rows(f: &Facts) -> Option<[(i32, Row); 4]> {
    let u = UNIT;
    let short = f.steps <= SHORT_GAME_STEPS;
    let winners = match f.ending {
        Ending::AllInTuoguan => return None,
        Ending::Won { winners } | Ending::PlayOnDeclined { winners } => Some(winners),
        Ending::QuietDraw | Ending::AgreedDraw | Ending::TuoguanDraw => None,
    };
    let won = |s: Seat4| winners.is_some_and(|w| w & (1 << s.index()) != 0);
    let penalised = |s: Seat4| {
        let e = f.seats[s.index()];
        e.exited || e.tuoguan_at_end
    };
    let started = f.seated.iter().filter(|&&s| s).count() as i32;
    let team = f.alliance != Alliance::None;
    let mut out = [(0, Row::Empty); 4];
    for s in Seat4::ALL {
        let i = s.index();
        if !f.seated[i] {
            continue;
        }
        out[i] = if penalised(s) {
            (-2 * u, Row::Escaped)
        } else if winners.is_none() {
            // A draw: in team modes nobody scores; in 混战 the seats already defeated
            // lose their unit (§5.7.2).
            if !team && f.defeated[i] {
                (-u, Row::DrawDefeated)
            } else {
                (0, Row::Draw)
            }
        } else if won(s) {
            match (short, team) {
                (true, _) => (0, Row::ShortWin),
                (false, true) => (u, Row::Win),
                (false, false) => (u * (started - 1), Row::FreeWin),
            }
        } else if matches!(f.ending, Ending::PlayOnDeclined { .. }) {
            // The ally who would not play on after 断线托管 pays nothing (§5.7.1).
            (0, Row::DeclinedPlayOn)
        } else if team
            && Seat4::ALL.into_iter().any(|a| {
                a != s
                    && f.seated[a.index()]
                    && f.alliance.allied(s, a)
                    && f.seats[a.index()].exited
            })
        {
            // An ally left the game: its partner does not pay for the loss (§5.7.1).
            (0, Row::AllyLeft)
        } else {
            (-u, Row::Loss)
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [bool; 4] = [true; 4];

    fn facts(ending: Ending, steps: u32) -> Facts {
        Facts {
            alliance: Alliance::Opposite,
            ending,
            steps,
            seated: ALL,
            defeated: [false, true, false, true],
            seats: [SeatEnd::default(); 4],
        }
    }

    /// South and North won (bits 0 and 2).
    const SOUTH_NORTH: Ending = Ending::Won { winners: 0b0101 };

    #[test]
    fn team_rows_of_section_5_7_1() {
        assert_eq!(
            score(&facts(SOUTH_NORTH, 41)),
            Some([2, -2, 2, -2]),
            "one alliance left"
        );
        assert_eq!(
            score(&facts(SOUTH_NORTH, 40)),
            Some([0, -2, 0, -2]),
            "within 40 steps"
        );
        for draw in [Ending::QuietDraw, Ending::AgreedDraw, Ending::TuoguanDraw] {
            assert_eq!(score(&facts(draw, 100)), Some([0; 4]), "{draw:?}");
        }
        assert_eq!(score(&facts(Ending::AllInTuoguan, 100)), None, "unscored");
        // South in 断线托管, North would not play on: East and West win.
        let mut f = facts(Ending::PlayOnDeclined { winners: 0b1010 }, 100);
        f.defeated = [false; 4];
        f.seats[0].tuoguan_at_end = true;
        assert_eq!(score(&f), Some([-4, 2, 0, 2]), "ally declined to play on");
        f.steps = 40;
        assert_eq!(score(&f), Some([-4, 0, 0, 0]), "declined within 40 steps");
    }

    #[test]
    fn team_overrides_of_section_5_7_1() {
        // East left for good before its defeat: it pays double; West, its ally, does not
        // pay for the loss; the winners score as usual.
        let mut f = facts(SOUTH_NORTH, 100);
        f.seats[1].exited = true;
        assert_eq!(score(&f), Some([2, -4, 2, 0]));
        // A winner in 托管 at the end pays double whatever the result.
        let mut f = facts(SOUTH_NORTH, 100);
        f.seats[2].tuoguan_at_end = true;
        assert_eq!(score(&f), Some([2, -2, -4, -2]));
        // The same in a draw, and within 40 steps (§5.9 point 15: escapers still pay).
        let mut f = facts(Ending::AgreedDraw, 100);
        f.seats[0].exited = true;
        assert_eq!(score(&f), Some([-4, 0, 0, 0]));
        let mut f = facts(SOUTH_NORTH, 12);
        f.seats[1].exited = true;
        assert_eq!(score(&f), Some([0, -4, 0, 0]));
    }

    #[test]
    fn free_for_all_rows_of_section_5_7_2() {
        let mut f = facts(Ending::Won { winners: 0b0010 }, 100);
        f.alliance = Alliance::None;
        f.defeated = [true, false, true, true];
        assert_eq!(score(&f), Some([-2, 6, -2, -2]), "四国: +3u");
        f.seated = [true, true, true, false];
        f.defeated = [true, false, true, false];
        assert_eq!(
            score(&f),
            Some([-2, 4, -2, 0]),
            "三国: +2u, the empty seat 0"
        );
        f.steps = 30;
        assert_eq!(score(&f), Some([-2, 0, -2, 0]), "within 40 steps");
        f.ending = Ending::QuietDraw;
        f.steps = 200;
        f.defeated = [false, false, true, false];
        assert_eq!(
            score(&f),
            Some([0, 0, -2, 0]),
            "a draw: the defeated lose u"
        );
        f.seats[0].exited = true;
        assert_eq!(score(&f), Some([-4, 0, -2, 0]), "an escaper −2u");
        let rows = score_rows(&f).unwrap().map(|(_, r)| r);
        assert_eq!(
            rows,
            [Row::Escaped, Row::Draw, Row::DrawDefeated, Row::Empty],
            "the rows that applied"
        );
    }

    #[test]
    fn each_seat_is_told_the_row_that_scored_it() {
        let mut f = facts(SOUTH_NORTH, 100);
        f.seats[1].exited = true;
        let rows = score_rows(&f).unwrap().map(|(_, r)| r);
        assert_eq!(rows, [Row::Win, Row::Escaped, Row::Win, Row::AllyLeft]);
        let rows = score_rows(&facts(SOUTH_NORTH, 40)).unwrap().map(|(_, r)| r);
        assert_eq!(rows, [Row::ShortWin, Row::Loss, Row::ShortWin, Row::Loss]);
        let mut f = facts(Ending::PlayOnDeclined { winners: 0b1010 }, 100);
        f.seats[0].tuoguan_at_end = true;
        let rows = score_rows(&f).unwrap().map(|(_, r)| r);
        assert_eq!(
            rows,
            [Row::Escaped, Row::Win, Row::DeclinedPlayOn, Row::Win]
        );
        let mut f = facts(Ending::Won { winners: 0b0010 }, 100);
        f.alliance = Alliance::None;
        f.seated = [true, true, true, false];
        let rows = score_rows(&f).unwrap().map(|(_, r)| r);
        assert_eq!(rows, [Row::Loss, Row::FreeWin, Row::Loss, Row::Empty]);
    }
}
