//! What the rules page's four-player section states in figures, taken from the rules
//! core rather than written into the page: the board's counts (RULES §5.1) and the
//! score table's entries (§5.7), each the core's own score for a game ended that way.

use crate::rules::board::EdgeKind;
use crate::rules::hidden_game::Ending;
use crate::rules::siguo::board::{area, edges, rail_lines};
use crate::rules::siguo::scoring::{self, Facts, SeatEnd, UNIT};
use crate::rules::siguo::{Alliance, Kind, Seat4, Station};
use std::sync::LazyLock;

/// The board's numbers as the page states them, counted from the rules core's board
/// (RULES §5.1.1–5.1.3), so the text cannot drift from the board played.
pub struct BoardFacts {
    pub stations: usize,
    pub area: usize,
    pub hq: usize,
    pub camp: usize,
    pub rail: usize,
    pub road: usize,
    pub center: usize,
    pub edges: usize,
    pub rail_edges: usize,
    pub road_edges: usize,
    pub lines: usize,
}

pub static FACTS: LazyLock<BoardFacts> = LazyLock::new(|| {
    let of = |k: Kind| Station::all().filter(|s| s.kind() == k).count();
    let rail_edges = edges().iter().filter(|e| e.2 == EdgeKind::Rail).count();
    BoardFacts {
        stations: Station::all().count(),
        area: area(Seat4::South).count(),
        hq: of(Kind::Hq),
        camp: of(Kind::Camp),
        rail: of(Kind::Rail),
        road: of(Kind::Road),
        center: of(Kind::Center),
        edges: edges().len(),
        rail_edges,
        road_edges: edges().len() - rail_edges,
        lines: rail_lines().len(),
    }
});

/// The score table's entries, as shown ("+2", "−2", "0"), each what
/// `rules::siguo::scoring::score` gives a seat of a game ended as the row says.
pub struct ScoreFacts {
    pub unit: i32,
    pub short_steps: u32,
    /// One alliance left: a winner, a loser.
    pub won: [String; 2],
    /// The same within the first 40 steps.
    pub short: [String; 2],
    /// Agreed, 70-step or 托管 draw.
    pub draw: [String; 2],
    /// All four in 托管: true when nobody is scored.
    pub all_tuoguan_unscored: bool,
    /// The ally of a seat in 断线托管 would not play on: each opponent, that ally, and
    /// the seat in 托管.
    pub declined: [String; 3],
    /// Escaped or in 托管 at the end.
    pub penalty: String,
    /// The ally of a seat that left, on a loss.
    pub leaver_ally: String,
    /// 混战: the winner in 四国 and in 三国, any other seat, a seat defeated before a draw.
    pub ffa_win: [String; 2],
    pub ffa_other: String,
    pub ffa_draw_defeated: String,
}

/// "+2", "−2" (a minus sign, as the page writes it), "0".
fn signed(v: i32) -> String {
    match v {
        v if v > 0 => format!("+{v}"),
        v if v < 0 => format!("\u{2212}{}", -v),
        _ => "0".into(),
    }
}

/// A game of four seated seats ended so, after `steps` steps.
fn game(alliance: Alliance, ending: Ending, steps: u32, defeated: [bool; 4]) -> Facts {
    Facts {
        alliance,
        ending,
        steps,
        seated: [true; 4],
        defeated,
        seats: [SeatEnd::default(); 4],
    }
}

fn scored(f: &Facts) -> [i32; 4] {
    scoring::score(f).expect("a scored end")
}

pub static SCORES: LazyLock<ScoreFacts> = LazyLock::new(|| {
    use Alliance::{None as Free, Opposite};
    // South and North (bits 0 and 2) against East and West, who are defeated.
    let south_north = Ending::Won { winners: 0b0101 };
    let beaten = [false, true, false, true];
    let long = scoring::SHORT_GAME_STEPS + 1;
    let won = scored(&game(Opposite, south_north, long, beaten));
    let short = scored(&game(
        Opposite,
        south_north,
        scoring::SHORT_GAME_STEPS,
        beaten,
    ));
    let draw = scored(&game(Opposite, Ending::AgreedDraw, long, [false; 4]));
    let unscored = scoring::score(&game(Opposite, Ending::AllInTuoguan, long, [false; 4]));
    // South in 断线托管 and North would not play on: East and West win.
    let mut declined = game(
        Opposite,
        Ending::PlayOnDeclined { winners: 0b1010 },
        long,
        [false; 4],
    );
    declined.seats[0].tuoguan_at_end = true;
    let declined = scored(&declined);
    // East left for good: it pays the penalty, West (its ally) nothing for the loss.
    let mut left = game(Opposite, south_north, long, beaten);
    left.seats[1].exited = true;
    let left = scored(&left);
    // 混战: East the last seat standing, with four seats and with three.
    let ffa = Ending::Won { winners: 0b0010 };
    let mut four = game(Free, ffa, long, [true, false, true, true]);
    let ffa4 = scored(&four);
    four.seated[3] = false;
    four.defeated[3] = false;
    let ffa3 = scored(&four);
    let ffa_draw = scored(&game(
        Free,
        Ending::QuietDraw,
        long,
        [false, false, true, false],
    ));
    ScoreFacts {
        unit: UNIT,
        short_steps: scoring::SHORT_GAME_STEPS,
        won: [signed(won[0]), signed(won[1])],
        short: [signed(short[0]), signed(short[1])],
        draw: [signed(draw[0]), signed(draw[1])],
        all_tuoguan_unscored: unscored.is_none(),
        declined: [
            signed(declined[1]),
            signed(declined[2]),
            signed(declined[0]),
        ],
        penalty: signed(left[1]),
        leaver_ally: signed(left[3]),
        ffa_win: [signed(ffa4[1]), signed(ffa3[1])],
        ffa_other: signed(ffa4[0]),
        ffa_draw_defeated: signed(ffa_draw[2]),
    }
});
