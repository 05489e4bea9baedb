//! Loading a game's task from the database: the row, the players, a deployment in
//! progress, marks, and the game replayed from its stored actions. A restart or a
//! task that stopped for lack of sockets comes back exactly as it was.

use super::marks::Marks;
use super::summary::PlayerInfo;
use super::task::{Entry, Step, Task, seat_name};
use super::{Hub, blocking};
use crate::db::games::{self, RUNNING};
use crate::db::now_ms;
use crate::error::AppError;
use crate::record::{Record, Setup, parse_action};
use crate::rules::view::Status;
use crate::rules::{Options, Seat, Variant};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// A loaded task: a two-player game's, or a 四国 table's.
pub(super) enum Loaded {
    Two(Box<Task>),
    Table(Box<super::table::Table>),
}

impl Loaded {
    pub(super) async fn run(
        self,
        me: tokio::sync::mpsc::UnboundedSender<super::Cmd>,
        rx: tokio::sync::mpsc::UnboundedReceiver<super::Cmd>,
    ) {
        match self {
            Loaded::Two(t) => t.run(me, rx).await,
            Loaded::Table(t) => t.run(me, rx).await,
        }
    }
}

/// The task of game `id`, whichever kind of game it is.
pub(super) async fn load_any(hub: &Arc<Hub>, id: &str) -> Result<Loaded, AppError> {
    let id_owned = id.to_string();
    let row = blocking(hub.pool(), move |c| {
        games::get(c, &id_owned)?.ok_or_else(|| AppError::NotFound(format!("no game {id_owned}")))
    })
    .await?;
    if row.variant == Variant::Siguo.name() {
        return Ok(Loaded::Table(Box::new(super::table::load(hub, row).await?)));
    }
    Ok(Loaded::Two(Box::new(load(hub, id).await?)))
}

async fn load(hub: &Arc<Hub>, id: &str) -> Result<Task, AppError> {
    let id_owned = id.to_string();
    let (row, creator, seats, actions, deployment, marks, tuoguan) =
        blocking(hub.pool(), move |c| {
            let row = games::get(c, &id_owned)?
                .ok_or_else(|| AppError::NotFound(format!("no game {id_owned}")))?;
            let creator = PlayerInfo::load(c, row.creator_id, &row.variant)?;
            let seats = PlayerInfo::seats(c, &row)?;
            let actions = games::actions(c, &id_owned)?;
            let deployment = games::deployment(c, &id_owned)?;
            let mut marks = [Vec::new(), Vec::new()];
            for (i, user) in [row.south_id, row.north_id].into_iter().enumerate() {
                if let Some(u) = user {
                    marks[i] = crate::db::marks::of(c, &id_owned, u)?;
                }
            }
            let tuoguan = games::tuoguan(c, &id_owned)?;
            Ok((row, creator, seats, actions, deployment, marks, tuoguan))
        })
        .await?;
    let options: Options = serde_json::from_str(&row.options).map_err(AppError::internal)?;
    let variant = Variant::from_name(&row.variant)
        .ok_or_else(|| AppError::internal(format!("stored variant {:?}", row.variant)))?;
    let mut task = Task {
        hub: hub.clone(),
        creator,
        seats,
        options,
        variant,
        deploy: None,
        game: None,
        actions: 0,
        log: Vec::new(),
        conns: HashMap::new(),
        away_since: [None, None],
        rematch: [false, false],
        shown_here: [false, false],
        marks: Marks::default(),
        phrases: [VecDeque::new(), VecDeque::new()],
        computer: None,
        seated: None,
        watch: Default::default(),
        permits: Default::default(),
        tuoguan: match &tuoguan {
            Some(text) => super::tuoguan::Tuoguan::from_json(text)?,
            None => Default::default(),
        },
        row,
    };
    task.computer = super::computer::Computer::of_seats(&task.seats);
    if let (Some(deal), Some(first)) = (&task.row.deal, &task.row.first_seat) {
        let first = seat_name(first)?;
        let deal = serde_json::from_str::<Value>(deal).map_err(AppError::internal)?;
        let setup = Setup::parse(variant, &deal).map_err(AppError::internal)?;
        let mut game = Record::new(variant, options, task.row.base, first, Some(setup))
            .start()
            .map_err(AppError::internal)?;
        // The computer's information set is rebuilt as it was built in play: from the
        // start, one action at a time.
        if let Some(c) = &mut task.computer {
            c.begin(&game);
        }
        if variant.caps().deploys() {
            task.log.push(Entry::Deployed {
                first,
                status: Status::of(&game),
            });
            task.marks = Marks::start(game.position());
            for (seat, rows) in Seat::BOTH.into_iter().zip(marks) {
                for (origin, mark) in rows {
                    let origin = origin.parse().map_err(AppError::internal)?;
                    task.marks.set(seat, origin, Some(mark));
                }
            }
        }
        let mut last_step_at = None;
        for a in &actions {
            let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
            let (seat, action) = parse_action(&v).map_err(AppError::internal)?;
            let at_ms = a.at_ms.max(0) as u64;
            if action.is_step() {
                last_step_at = Some(at_ms as i64);
            }
            let mut step = Step::apply(&mut game, seat, action, at_ms)
                .map_err(|e| AppError::internal(format!("stored action {} of {id}: {e}", a.idx)))?;
            step.tuoguan = v.get("by").and_then(Value::as_str) == Some("tuoguan");
            task.marks.follow(&step.applied.effect, game.position());
            if let Some(c) = &mut task.computer {
                c.observe(&step.applied, &game);
            }
            task.log.push(Entry::Step(Box::new(step)));
            task.actions += 1;
        }
        if let (None, Some(end_ms)) = (game.outcome(), task.row.end_ms) {
            game.expire(end_ms as u64);
            task.log.push(Entry::Expired {
                at_ms: end_ms as u64,
                status: Status::of(&game),
            });
        }
        // What a running game's row does not keep (see `db::steps`) follows from its
        // actions.
        task.row.steps = game.steps() as i32;
        task.row.colour_south = game.colour_of(Seat::South).map(|c| c.name().to_string());
        if let (RUNNING, Some(at)) = (task.row.status.as_str(), last_step_at) {
            task.row.deadline_at = Some(task.deadline_after(at));
        }
        // The computer stands in again for each seat in 托管, from its view now.
        if task.row.status == RUNNING {
            task.tuoguan.stand_in_all(&game);
        }
        task.game = Some(game);
    } else if task.row.status == RUNNING && variant.caps().deploys() {
        let text = deployment
            .ok_or_else(|| AppError::internal("a deploying game without its deployment"))?;
        task.deploy = Some(super::deploy::from_json(&text)?);
    }
    if task.row.status == RUNNING {
        // After a restart no person is connected yet: the grace period starts now (the
        // computer is always there).
        let now = now_ms();
        for seat in Seat::BOTH {
            if !task.connected(seat) {
                task.away_since[seat.index()] = Some(now);
                // The restart cut their sockets: as a drop, for 断线托管.
                task.tuoguan.dropped[seat.index()] = true;
            }
        }
    }
    Ok(task)
}
