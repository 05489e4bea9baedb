//! A finished game's replay, computed on the server: the start with every piece
//! named and each step as an event for a viewer who sees everything, so that a page
//! can step through it by applying board deltas, with no rules of its own.

use super::messages::{Event, GameResult, TallyText, What};
use super::summary::PlayerRef;
use super::task::Step;
use crate::db::games::{ActionRow, GameRow};
use crate::error::AppError;
use crate::record::{Record, Setup, parse_action};
use crate::rules::view::{
    self, BoardDelta, EventView, PieceTally, SeatPair, Status, board_delta, changes_tallies,
};
use crate::rules::{Colour, Game, Options, Seat, Variant, Viewer};
use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Serialize)]
pub struct Start {
    pub board: BoardDelta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tallies: Vec<PieceTally>,
    pub status: Status,
    pub limits: Limits,
}

/// The game's limits, which the page shows beside its counters ("步数 12/300").
#[derive(Debug, Serialize)]
pub struct Limits {
    pub quiet_steps_to_draw: u32,
    pub steps_to_draw: Option<u32>,
    pub timeouts_to_lose: u8,
}

#[derive(Debug, Serialize)]
pub struct Replay {
    pub variant: Variant,
    pub start: Start,
    pub steps: Vec<Event>,
    pub result: Option<GameResult>,
    pub players: SeatPair<Option<PlayerRef>>,
    pub colours: Option<SeatPair<Colour>>,
}

/// The replay of a finished game from its row and stored actions. `players` is the
/// game summary's.
pub fn replay(
    row: &GameRow,
    actions: &[ActionRow],
    players: SeatPair<Option<PlayerRef>>,
) -> Result<Replay, AppError> {
    let variant = Variant::from_name(&row.variant)
        .ok_or_else(|| AppError::internal(format!("stored variant {:?}", row.variant)))?;
    let options: Options = serde_json::from_str(&row.options).map_err(AppError::internal)?;
    let first = match row.first_seat.as_deref() {
        Some("south") => Seat::South,
        Some("north") => Seat::North,
        _ => return Err(AppError::internal("a finished game without a first seat")),
    };
    let deal = row
        .deal
        .as_deref()
        .ok_or_else(|| AppError::internal("a finished game without its deal"))?;
    let deal: Value = serde_json::from_str(deal).map_err(AppError::internal)?;
    let setup = Setup::parse(variant, &deal).map_err(AppError::internal)?;
    let mut game = Record::new(variant, options, row.base, first, Some(setup))
        .start()
        .map_err(AppError::internal)?;
    let all = Viewer::Everyone;
    let start = Start {
        board: view::whole_board(&game, all),
        tallies: tallies_of(&game),
        status: Status::of(&game),
        limits: Limits {
            quiet_steps_to_draw: game.quiet_steps_to_draw(),
            steps_to_draw: game.steps_to_draw(),
            timeouts_to_lose: game.timeouts_to_lose(),
        },
    };
    let mut steps = Vec::with_capacity(actions.len() + 1);
    for a in actions {
        let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
        let (seat, action) = parse_action(&v).map_err(AppError::internal)?;
        let step = Step::apply(&mut game, seat, action, a.at_ms.max(0) as u64)
            .map_err(|e| AppError::internal(format!("stored action {}: {e}", a.idx)))?;
        let applied = &step.applied;
        let colours = game.colours();
        let mut ev = Event::bare(What::Step(EventView::of(applied, variant, colours, all)));
        ev.board = Some(board_delta(applied, variant, colours, all));
        ev.route = step.route.as_ref().map(|r| r.to_vec());
        if changes_tallies(&applied.effect) {
            ev.tallies = Some(tallies_of(&game))
                .filter(|t| !t.is_empty())
                .map(|t| TallyText::of(&t));
        }
        ev.status = Some(step.status);
        ev.at_ms = Some(step.at_ms);
        steps.push(ev);
    }
    if let (None, Some(end)) = (game.outcome(), row.end_ms) {
        game.expire(end as u64);
        let mut ev = Event::bare(What::Table(super::messages::TableEvent::TimeLimit {
            outcome: game.outcome(),
        }));
        ev.status = Some(Status::of(&game));
        ev.at_ms = Some(end as u64);
        steps.push(ev);
    }
    let result = result_of(&game, row.base);
    if let Some(last) = steps.last_mut() {
        last.result = result.clone();
        last.score = result.as_ref().map(|r| SeatPair(r.score.0.map(Some)));
    }
    Ok(Replay {
        variant,
        start,
        steps,
        result,
        players,
        colours: game.colours().map(SeatPair),
    })
}

fn tallies_of(game: &Game) -> Vec<PieceTally> {
    if game.variant().caps().public_tallies {
        view::tallies(game.position())
    } else {
        Vec::new()
    }
}

/// How a finished game ended and the row of the score table that applied.
pub fn result_of(game: &Game, base: i32) -> Option<GameResult> {
    let outcome = game.outcome()?;
    let facts = game.score_facts()?;
    Some(GameResult {
        winner: outcome.winner,
        reason: outcome.reason,
        score: SeatPair(facts.score(base)),
        base,
        rule: facts.explain(),
    })
}
