//! `junqi arena --variant siguo`: two teams of players (levels or baselines) at a
//! 四国 table, on one thread, so think times are per core. Team A sits on one side of
//! the alliance (S+N in 对家, S+E in 并肩), team B on the other; games come in pairs on
//! the same layouts and first mover with the sides swapped, so each team meets each
//! side of the same start. Every seat is fed only its own view and events.

use super::{SeatInfo, decide};
use crate::engine::Player;
use crate::engine::arena::Interval;
use crate::rules::delta::route;
use crate::rules::hidden_game::{Applied, Ending, EventView, HiddenGame, Step, StepError, Watcher};
use crate::rules::siguo::{Alliance, FourPlayer, Seat4, Station};
use crate::selfplay_siguo::{Table, new_game};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// A game that has not ended after this many steps is stopped and counted apart: the
/// rules have no cap (§5.4.3), but a pair of players that never attack would still be
/// stopped by the 70-step draw long before.
const MAX_STEPS: u32 = 5_000;

/// Applies `step` by `seat` and sends every seat its cut of the event and its new view.
pub fn apply_and_tell(
    game: &mut HiddenGame<FourPlayer>,
    infos: &mut [SeatInfo],
    seat: Seat4,
    step: Step<Station>,
) -> Result<Applied<FourPlayer>, StepError<Station>> {
    let sights: Vec<_> = infos
        .iter()
        .map(|i| game.sight(Watcher::Seat(i.seat())))
        .collect();
    let path = match step {
        Step::Move { from, to } => Some(route(game.position(), from, to)),
        _ => None,
    };
    let applied = game.apply(seat, step)?;
    for (info, sight) in infos.iter_mut().zip(sights) {
        let ev = EventView::of(&applied, path.clone(), sight);
        info.observe(&ev, game.seat_view(info.seat()))
            .expect("each seat gets its own view");
    }
    Ok(applied)
}

/// The seats of the side team A takes in game `index` (B takes the others).
fn a_seats(alliance: Alliance, index: u64) -> [bool; 4] {
    let first_side = match alliance {
        Alliance::Adjacent => [true, true, false, false],
        Alliance::Opposite | Alliance::None => [true, false, true, false],
    };
    if index % 2 == 0 {
        first_side
    } else {
        first_side.map(|a| !a)
    }
}

/// Think time of one player's decisions, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct ThinkTime {
    pub player: &'static str,
    pub decisions: u64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

impl ThinkTime {
    fn of(player: &'static str, mut ms: Vec<f64>) -> ThinkTime {
        ms.sort_by(f64::total_cmp);
        let n = ms.len();
        let at = |q: f64| {
            if n == 0 {
                0.0
            } else {
                ms[((q * n as f64).ceil() as usize).clamp(1, n) - 1]
            }
        };
        ThinkTime {
            player,
            decisions: n as u64,
            mean_ms: ms.iter().sum::<f64>() / n.max(1) as f64,
            p50_ms: at(0.5),
            p99_ms: at(0.99),
            max_ms: ms.last().copied().unwrap_or(0.0),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub variant: &'static str,
    pub alliance: Alliance,
    /// 友明: allies see each other's pieces, and so does the computer.
    pub allies_visible: bool,
    pub team_a: [&'static str; 2],
    pub team_b: [&'static str; 2],
    pub games: u64,
    pub seed: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    /// Games stopped at the step cap.
    pub unfinished: u64,
    /// A's wins among all games.
    pub a_won: Interval,
    /// Games by how they ended: "won/a", "won/b", "draw/quiet".
    pub endings: BTreeMap<String, u64>,
    pub mean_steps: f64,
    /// One line per player kind seated.
    pub think: Vec<ThinkTime>,
    pub seconds: f64,
}

/// Plays `games` games of team `a` (two players) against team `b` from `seed`, with
/// the alliance and 友明 of `table` (four seats).
pub fn run(table: Table, a: [Player; 2], b: [Player; 2], games: u64, seed: u64) -> Report {
    let alliance = table.alliance;
    let start = Instant::now();
    let (mut a_wins, mut b_wins, mut draws, mut unfinished, mut steps) = (0, 0, 0, 0, 0u64);
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut think: BTreeMap<&'static str, Vec<f64>> = BTreeMap::new();
    for i in 0..games {
        let sides = a_seats(alliance, i);
        let (mut ia, mut ib) = (0, 0);
        let players: [Player; 4] = sides.map(|is_a| {
            if is_a {
                ia += 1;
                a[ia - 1]
            } else {
                ib += 1;
                b[ib - 1]
            }
        });
        let game = play(table, players, seed, i, &mut think);
        steps += game.steps() as u64;
        let a_won = Seat4::ALL
            .into_iter()
            .any(|s| sides[s.index()] && game.won(s));
        let b_won = Seat4::ALL
            .into_iter()
            .any(|s| !sides[s.index()] && game.won(s));
        let key = match game.ending() {
            Some(Ending::Won { .. }) if a_won => {
                a_wins += 1;
                "won/a"
            }
            Some(Ending::Won { .. }) if b_won => {
                b_wins += 1;
                "won/b"
            }
            None => {
                unfinished += 1;
                "unfinished"
            }
            Some(e) => {
                draws += 1;
                match e {
                    Ending::QuietDraw => "draw/quiet",
                    Ending::AgreedDraw => "draw/agreed",
                    _ => "draw/tuoguan",
                }
            }
        };
        *endings.entry(key.to_string()).or_default() += 1;
    }
    Report {
        variant: "siguo",
        alliance,
        allies_visible: table.allies_visible,
        team_a: a.map(Player::name),
        team_b: b.map(Player::name),
        games,
        seed,
        a_wins,
        b_wins,
        draws,
        unfinished,
        a_won: Interval::wilson(a_wins, games),
        endings,
        mean_steps: steps as f64 / games.max(1) as f64,
        think: think
            .into_iter()
            .map(|(p, ms)| ThinkTime::of(p, ms))
            .collect(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// One game at `table` (four seats), `players` by seat; every decision's time goes to
/// its player's list.
pub fn play(
    table: Table,
    players: [Player; 4],
    seed: u64,
    index: u64,
    think: &mut BTreeMap<&'static str, Vec<f64>>,
) -> HiddenGame<FourPlayer> {
    // Both games of a pair share their layouts and first mover.
    let mut setup = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (index / 2));
    let mut game = new_game(table, &mut setup);
    let mut infos: Vec<SeatInfo> = Seat4::ALL
        .into_iter()
        .map(|s| SeatInfo::new(game.seat_view(s)))
        .collect();
    let mut rngs = Seat4::ALL.map(|s| {
        StdRng::seed_from_u64(seed ^ (index << 8) ^ (s.index() as u64 + 1).wrapping_mul(0x51_7CC1))
    });
    let trace = std::env::var_os("JUNQI_ARENA_TRACE").is_some();
    while !game.is_over() && game.steps() < MAX_STEPS {
        let seat = game.to_move();
        let i = seat.index();
        let t0 = Instant::now();
        let step = decide(players[i], &infos[i], &mut rngs[i]).unwrap_or(Step::Pass);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        think.entry(players[i].name()).or_default().push(ms);
        let applied = apply_and_tell(&mut game, &mut infos, seat, step)
            .expect("players choose from the legal moves they were sent");
        if trace {
            eprintln!(
                "{} {seat} {step:?} {:?} defeated {:?}",
                game.steps(),
                applied.combat,
                applied.defeated
            );
        }
    }
    game
}

impl Report {
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{} games of siguo ({:?}{}): A = {} against B = {}, seed {}, {:.1} s\n",
            self.games,
            self.alliance,
            if self.allies_visible { ", 友明" } else { "" },
            self.team_a.join("+"),
            self.team_b.join("+"),
            self.seed,
            self.seconds
        );
        s += &format!(
            "A won {}, drew {}, lost {}{}\n",
            self.a_wins,
            self.draws,
            self.b_wins,
            if self.unfinished > 0 {
                format!(", {} stopped at {MAX_STEPS} steps", self.unfinished)
            } else {
                String::new()
            }
        );
        let w = &self.a_won;
        s += &format!(
            "A's wins among all games: {}/{} = {:.1}% (95% CI {:.1}–{:.1}%)\n",
            w.successes,
            w.trials,
            100.0 * w.rate,
            100.0 * w.low,
            100.0 * w.high
        );
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        s += &format!(
            "endings: {}; mean length {:.1} steps\n",
            endings.join(", "),
            self.mean_steps
        );
        for t in &self.think {
            s += &format!(
                "think time {:<7} {:>7} decisions, mean {:.2} ms, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n",
                t.player, t.decisions, t.mean_ms, t.p50_ms, t.p99_ms, t.max_ms
            );
        }
        s
    }
}
