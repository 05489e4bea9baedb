//! Random 四国 games (`junqi selfplay --variant siguo`): every seat deploys a random
//! valid layout of its area and plays uniformly among its moves, through the one
//! hidden-piece game; reports outcomes and speed as two-player self-play does.

use crate::rules::Layout;
use crate::rules::geometry::PlaceSet;
use crate::rules::hidden_game::{Ending, HiddenGame};
use crate::rules::siguo::board::area;
use crate::rules::siguo::{Alliance, CAPS, FourPlayer, Seat4, Station, StationSet};
use crate::rules::{Options, Position, Seat, Token};
use crate::selfplay::Chooser;
use rand::rngs::StdRng;
use rand::{CryptoRng, RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Who sits down: the alliance mode, and three seats (三国, West's area out of play)
/// or four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    pub alliance: Alliance,
    pub seats: u8,
    /// 友明: allies see each other's pieces.
    pub allies_visible: bool,
}

impl Table {
    /// The seats that play. 三国 is free-for-all only (RULES §5.2).
    pub fn seated(self) -> &'static [Seat4] {
        if self.seats == 3 {
            &Seat4::ALL[..3]
        } else {
            &Seat4::ALL
        }
    }
}

/// A new game at `table`: random layouts (the two-player South layouts, read
/// seat-relative as §5.8 has it), a random first mover.
pub fn new_game<R: CryptoRng + ?Sized>(table: Table, rng: &mut R) -> HiddenGame<FourPlayer> {
    let seated = table.seated();
    let mut pos = Position::<FourPlayer>::blank();
    for &seat in seated {
        let cells = Layout::random_cells(Seat::South, rng);
        for s in area(seat) {
            let sq = s.as_south_square().expect("an area station");
            if let Some(piece) = cells[sq.index()] {
                pos.put(s, Token::hidden(piece, seat));
            }
        }
    }
    if table.seats == 3 {
        pos.close(area(Seat4::West).collect());
    }
    let first = seated[rng.random_range(0..seated.len())];
    HiddenGame::new(CAPS, Options::default(), table.alliance, pos, seated, first)
        .with_allies_visible(table.allies_visible)
}

/// Plays `game` out with uniformly chosen moves; returns the steps played.
pub(crate) fn play_out(game: &mut HiddenGame<FourPlayer>, chooser: &mut Chooser) -> u64 {
    let mut movers: Vec<(Station, StationSet)> = Vec::with_capacity(25);
    let mut steps = 0;
    while !game.is_over() {
        movers.clear();
        let mut total = 0;
        game.for_each_mover(|from, to| {
            total += to.len() as usize;
            movers.push((from, to));
        });
        let mut k = chooser.below(total);
        let (from, to) = movers
            .iter()
            .find_map(|&(from, to)| {
                let n = to.len() as usize;
                if k < n {
                    Some((from, to.places().nth(k).expect("k is below the count")))
                } else {
                    k -= n;
                    None
                }
            })
            .expect("the seat to move has a move");
        game.apply_listed(from, to);
        steps += 1;
    }
    steps
}

/// What a 四国 self-play run found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub variant: &'static str,
    pub table: Table,
    pub games: u64,
    pub seed: u64,
    pub actions: u64,
    pub mean_length: f64,
    pub seconds: f64,
    pub actions_per_second: f64,
    /// Games by result: "won/south+north", "draw/quiet".
    pub outcomes: BTreeMap<String, u64>,
}

pub fn run(table: Table, games: u64, seed: u64) -> Report {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    let mut actions = 0;
    let start = Instant::now();
    for _ in 0..games {
        let mut game = new_game(table, &mut rng);
        let mut chooser = Chooser(rng.random());
        actions += play_out(&mut game, &mut chooser);
        *outcomes.entry(outcome_key(&game)).or_default() += 1;
    }
    let elapsed = start.elapsed().max(Duration::from_nanos(1));
    Report {
        variant: "siguo",
        table,
        games,
        seed,
        actions,
        mean_length: actions as f64 / games.max(1) as f64,
        seconds: elapsed.as_secs_f64(),
        actions_per_second: actions as f64 / elapsed.as_secs_f64(),
        outcomes,
    }
}

pub fn outcome_key(game: &HiddenGame<FourPlayer>) -> String {
    match game.ending() {
        Some(Ending::Won { .. } | Ending::PlayOnDeclined { .. }) => {
            let won: Vec<&str> = Seat4::ALL
                .into_iter()
                .filter(|&s| game.won(s))
                .map(Seat4::name)
                .collect();
            format!("won/{}", won.join("+"))
        }
        Some(Ending::QuietDraw) => "draw/quiet".into(),
        Some(Ending::AgreedDraw) => "draw/agreed".into(),
        Some(Ending::TuoguanDraw) => "draw/tuoguan".into(),
        Some(Ending::AllInTuoguan) => "unscored/all_in_tuoguan".into(),
        None => "unfinished".into(),
    }
}

impl Report {
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{} games of siguo ({:?}, {} seats; seed {}): {} actions, mean length {:.1}\n",
            self.games,
            self.table.alliance,
            self.table.seats,
            self.seed,
            self.actions,
            self.mean_length
        );
        s += "outcomes:\n";
        for (k, n) in &self.outcomes {
            let pct = 100.0 * *n as f64 / self.games.max(1) as f64;
            s += &format!("  {k:<24} {n:>8}  {pct:5.1}%\n");
        }
        s += &format!(
            "throughput: {:.0} actions/s on one thread ({:.3} s)\n",
            self.actions_per_second, self.seconds
        );
        s
    }
}
