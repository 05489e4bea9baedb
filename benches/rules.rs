//! Rules-core benchmarks.
//!
//! - `legal_actions/*`: `Game::legal_actions` over fixed sets of positions sampled from
//!   seeded random games: flip chess at the opening (all 50 face down), in the middle
//!   game (about half face down), late (nothing face down, game still running), and
//!   standard 军棋 at the opening and in the middle game. Throughput counts positions.
//! - `selfplay/*`: whole random games from a fixed list of seeds, set-up included, as
//!   `junqi selfplay` plays them (`selfplay::new_game` + `selfplay::play_out`).
//!   Throughput counts actions.
//!
//! Kept short (20 samples, 3 s each) so `cargo bench --bench rules` takes about a minute.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use junqi::rules::{Action, Game, Variant};
use junqi::selfplay::{new_game, play_out};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Positions per stage.
const POSITIONS: usize = 64;
/// Games per self-play iteration.
const GAMES: u64 = 8;

/// A stage of a game at which positions are sampled.
#[derive(Clone, Copy)]
enum Stage {
    /// Before any action.
    Opening,
    /// Flip chess: the first position with at most 25 pieces face down.
    /// Standard: after 40 steps.
    Middle,
    /// Flip chess: the first position with nothing face down.
    Late,
}

/// Plays a seeded random game up to `stage`; `None` if the game ends first.
fn sample(variant: Variant, stage: Stage, seed: u64) -> Option<Game> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut game, _) = new_game(variant, &mut rng);
    let mut legal = Vec::with_capacity(128);
    let deals = variant.caps().deals();
    let reached = |g: &Game| match stage {
        Stage::Opening => true,
        Stage::Middle if deals => g.position().hidden().len() <= 25,
        Stage::Middle => g.steps() >= 40,
        Stage::Late if deals => g.position().hidden().is_empty(),
        Stage::Late => g.steps() >= 120,
    };
    while !reached(&game) {
        if game.is_over() {
            return None;
        }
        legal.clear();
        game.legal_actions(&mut legal);
        let action = legal[rng.random_range(0..legal.len())];
        let seat = game.to_move();
        game.apply(seat, action, None).expect("a legal action");
    }
    (!game.is_over()).then_some(game)
}

fn positions(variant: Variant, stage: Stage) -> Vec<Game> {
    let games: Vec<Game> = (0..100 * POSITIONS as u64)
        .filter_map(|seed| sample(variant, stage, seed))
        .take(POSITIONS)
        .collect();
    assert_eq!(games.len(), POSITIONS, "enough games reach the stage");
    games
}

fn legal_actions(c: &mut Criterion) {
    let sets = [
        ("flip/opening", positions(Variant::Flip, Stage::Opening)),
        ("flip/middle", positions(Variant::Flip, Stage::Middle)),
        ("flip/late", positions(Variant::Flip, Stage::Late)),
        (
            "standard/opening",
            positions(Variant::Standard, Stage::Opening),
        ),
        (
            "standard/middle",
            positions(Variant::Standard, Stage::Middle),
        ),
    ];
    let mut group = c.benchmark_group("legal_actions");
    for (name, games) in &sets {
        let mut out: Vec<Action> = Vec::with_capacity(128);
        let listed: usize = games
            .iter()
            .map(|g| {
                out.clear();
                g.legal_actions(&mut out);
                out.len()
            })
            .sum();
        eprintln!(
            "legal_actions/{name}: {} positions, {:.1} actions each on average",
            games.len(),
            listed as f64 / games.len() as f64
        );
        group.throughput(Throughput::Elements(games.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), games, |b, games| {
            b.iter(|| {
                let mut n = 0;
                for g in games {
                    out.clear();
                    black_box(g).legal_actions(&mut out);
                    n += out.len();
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

/// Plays the games of seeds `0..GAMES` from set-up to the end; returns the actions.
fn play_games(variant: Variant) -> u64 {
    let mut legal = Vec::with_capacity(128);
    let mut actions = 0;
    for seed in 0..GAMES {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut game, _) = new_game(variant, &mut rng);
        actions += u64::from(play_out(&mut game, &mut rng, &mut legal, |_, _| {}));
        black_box(game.outcome());
    }
    actions
}

fn selfplay(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    for (name, variant) in [("flip", Variant::Flip), ("standard", Variant::Standard)] {
        let actions = play_games(variant);
        eprintln!(
            "selfplay/{name}: {GAMES} games, {actions} actions ({:.1} per game)",
            actions as f64 / GAMES as f64
        );
        group.throughput(Throughput::Elements(actions));
        group.bench_function(name, |b| b.iter(|| play_games(black_box(variant))));
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = legal_actions, selfplay
}
criterion_main!(benches);
