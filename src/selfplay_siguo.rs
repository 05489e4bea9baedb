//! Random 四国 games (`junqi selfplay --variant siguo`): every seat is dealt its hand
//! (the standard set, or a 乱战 share), deploys a random valid arrangement of it
//! through the deployment phase, and plays uniformly among its moves through the one
//! hidden-piece game; reports outcomes and speed as two-player self-play does.

use crate::rules::Options;
use crate::rules::geometry::PlaceSet;
use crate::rules::hidden_game::{Ending, HiddenGame};
use crate::rules::siguo::{
    Alliance, Deployment4, FourPlayer, Hands, Seat4, SiguoOptions, Station, StationSet,
};
use crate::selfplay::Chooser;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
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

    /// The table's 四国 options, 乱战 or not; the rest at their defaults.
    pub fn options(self, random_pieces: bool) -> SiguoOptions {
        SiguoOptions {
            alliance: self.alliance,
            allies_visible: self.allies_visible,
            random_pieces,
            ..SiguoOptions::default()
        }
    }
}

/// A new game at `table` with the standard sets: see [`new_game_with`].
pub fn new_game<R: CryptoRng + ?Sized>(table: Table, rng: &mut R) -> HiddenGame<FourPlayer> {
    new_game_with(table, false, rng)
}

/// A new game at `table`: hands dealt (乱战 when `random_pieces`), each seat's random
/// valid arrangement set up and declared ready through the deployment phase in a
/// random order, the first to finish moving first (RULES §5.2, §5.8).
pub fn new_game_with<R: CryptoRng + ?Sized>(
    table: Table,
    random_pieces: bool,
    rng: &mut R,
) -> HiddenGame<FourPlayer> {
    let seated = table.seated();
    let hands = if random_pieces {
        Hands::deal(seated, rng)
    } else {
        Hands::standard(seated)
    };
    let mut deployment = Deployment4::new(table.options(random_pieces), seated, hands, rng)
        .expect("every seat is dealt a hand");
    let mut order = seated.to_vec();
    order.shuffle(rng);
    for seat in order {
        deployment
            .ready(seat)
            .expect("a random arrangement is valid");
    }
    deployment
        .start(Options::default(), rng)
        .expect("every seat finished")
}

/// Plays `game` out with uniformly chosen moves; returns the steps played.
pub(crate) fn play_out(game: &mut HiddenGame<FourPlayer>, chooser: &mut Chooser) -> u64 {
    // Each mover's count kept beside its destinations rather than counted again when
    // choosing (see `StationSet::len` for what the two saved).
    let mut movers: Vec<(Station, StationSet, usize)> = Vec::with_capacity(25);
    let mut steps = 0;
    while !game.is_over() {
        movers.clear();
        let mut total = 0;
        game.for_each_mover(|from, to| {
            let n = to.len() as usize;
            total += n;
            movers.push((from, to, n));
        });
        let mut k = chooser.below(total);
        let (from, to) = movers
            .iter()
            .find_map(|&(from, to, n)| {
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
    /// 乱战: hands dealt from the shuffled sets.
    pub random_pieces: bool,
    pub games: u64,
    pub seed: u64,
    pub actions: u64,
    pub mean_length: f64,
    /// The whole run.
    pub seconds: f64,
    /// Of which dealing and deploying, once per game.
    pub setup_seconds: f64,
    /// Actions per second of play alone: the set-up is not an action's cost.
    pub actions_per_second: f64,
    /// Games by result: "won/south+north", "draw/quiet".
    pub outcomes: BTreeMap<String, u64>,
}

pub fn run(table: Table, random_pieces: bool, games: u64, seed: u64) -> Report {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    let mut actions = 0;
    let mut setup = Duration::ZERO;
    let start = Instant::now();
    for _ in 0..games {
        let dealt = Instant::now();
        let mut game = new_game_with(table, random_pieces, &mut rng);
        setup += dealt.elapsed();
        let mut chooser = Chooser(rng.random());
        actions += play_out(&mut game, &mut chooser);
        *outcomes.entry(outcome_key(&game)).or_default() += 1;
    }
    let elapsed = start.elapsed().max(Duration::from_nanos(1));
    let play = elapsed.saturating_sub(setup).max(Duration::from_nanos(1));
    Report {
        variant: "siguo",
        table,
        random_pieces,
        games,
        seed,
        actions,
        mean_length: actions as f64 / games.max(1) as f64,
        seconds: elapsed.as_secs_f64(),
        setup_seconds: setup.as_secs_f64(),
        actions_per_second: actions as f64 / play.as_secs_f64(),
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
            "{} games of siguo ({:?}, {} seats{}; seed {}): {} actions, mean length {:.1}\n",
            self.games,
            self.table.alliance,
            self.table.seats,
            if self.random_pieces { ", 乱战" } else { "" },
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
            "throughput: {:.0} actions/s of play on one thread ({:.3} s in all, of which \
             {:.3} s dealing and deploying: {:.1} µs per game)\n",
            self.actions_per_second,
            self.seconds,
            self.setup_seconds,
            1e6 * self.setup_seconds / self.games.max(1) as f64
        );
        s
    }
}
