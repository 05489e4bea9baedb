//! A table from and to the database: creating one, the deployment's stored state, and
//! loading a table's task as it was (a restart mid-game replays the stored actions on
//! the stored start, through the same rules).

use super::{Deploying, Phase, Playing, Sitter, Table, TableOptions};
use crate::db::games::{GameRow, OPEN, RUNNING};
use crate::db::now_ms;
use crate::db::tables::{self, SeatRow};
use crate::engine::Level;
use crate::error::AppError;
use crate::live::{Hub, blocking};
use crate::record::{SiguoAction, SiguoRecord, layout_json, parse_layout};
use crate::rules::hidden_game::{Escape, EventView, HiddenGame, Step, TuoguanKind, Watcher};
use crate::rules::siguo::{Deployment4, HandDeal, Hands, Seat4, SiguoOptions};
use crate::rules::{Options, Variant};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// A new table's settings, as the lobby sends them.
#[derive(Debug, Clone, Copy, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    #[serde(default)]
    pub options: SiguoOptions,
    pub seconds_per_action: u32,
    #[serde(default)]
    pub rated: bool,
    /// How long a seated person may be without a socket before 断线托管 (§5.5.1), one
    /// of [`GRACE_OFFERED`]; the server's `--grace-seconds` when left out.
    #[serde(default)]
    pub grace_seconds: Option<u32>,
    /// 人机 四国: the computer at this level takes every other seat and the table
    /// starts at once.
    #[serde(default)]
    pub computer: Option<Level>,
}

/// The grace periods a table's creator may choose: long enough to reload a page or
/// change networks, short enough that three others do not wait on a seat for long.
pub const GRACE_OFFERED: [u32; 4] = [30, 60, 120, 180];

impl NewTable {
    /// Reads a request's body, saying in words what is wrong with it: an unknown mode
    /// would otherwise come back as serde's "unknown variant" inside "malformed JSON".
    pub fn parse(body: Value) -> Result<NewTable, AppError> {
        let alliance = &body["options"]["alliance"];
        if !alliance.is_null()
            && !matches!(alliance.as_str(), Some("opposite" | "adjacent" | "none"))
        {
            return Err(AppError::BadOption(format!(
                "options.alliance is \"opposite\" (对家), \"adjacent\" (并肩) or \"none\" \
                 (混战), not {alliance}"
            )));
        }
        serde_json::from_value(body)
            .map_err(|e| AppError::BadOption(format!("the table's settings: {e}")))
    }

    /// Refuses settings the site does not offer; changes nothing.
    pub fn check(&self) -> Result<(), AppError> {
        // The clocks of rated two-player games.
        if !Options::SECONDS_OFFERED.contains(&self.seconds_per_action) {
            return Err(AppError::BadOption(
                "a 四国 clock is 15, 30 or 60 seconds a move".into(),
            ));
        }
        if let Some(g) = self.grace_seconds
            && !GRACE_OFFERED.contains(&g)
        {
            return Err(AppError::BadOption(format!(
                "grace_seconds is 30, 60, 120 or 180, not {g}"
            )));
        }
        if self.rated && self.computer.is_some() {
            return Err(AppError::BadOption(
                "the computer plays casual games only: send \"rated\": false".into(),
            ));
        }
        Ok(())
    }

    /// How the options begin in a stored row of these settings (see
    /// `db::tables::Wanted`): the serialised 四国 options come first.
    pub fn options_prefix(&self) -> String {
        let siguo = serde_json::to_string(&self.options).expect("options serialise");
        format!("{{\"siguo\":{siguo},")
    }
}

/// Opens a table with its creator in the south seat (and under `computer`, the
/// computer in the other three, ready), within the creator's caps: open games, rated
/// games in hand, games against the computer. The caller holds `hub.seat_lock(user)`.
pub async fn create(hub: &Arc<Hub>, user: i64, t: NewTable) -> Result<String, AppError> {
    t.check()?;
    let config = hub.config();
    let options = TableOptions {
        siguo: t.options,
        grace_seconds: t.grace_seconds.unwrap_or(config.grace.as_secs() as u32),
        deploy_seconds: config.deploy_seconds,
    };
    let id = crate::live::new_game_id();
    let row = GameRow::open(
        id.clone(),
        Variant::Siguo.name(),
        t.rated,
        t.seconds_per_action as i32,
        serde_json::to_string(&options).map_err(AppError::internal)?,
        user,
        now_ms(),
    );
    let seat = SeatRow::new(&id, Seat4::South.name(), user, 0);
    let computer = t.computer;
    // Through the writer, as every start of a game is: the caps' count and the new
    // table are one write, so two at once cannot both pass on the same count.
    hub.pool()
        .write(move |c| -> Result<(), AppError> {
            let opening = crate::live::caps::Start::Open {
                creator: user,
                rated: row.rated,
                computer: computer.is_some(),
            };
            crate::live::caps::check(c, &opening)?;
            tables::create(c, &row, &seat)?;
            if let Some(level) = computer {
                let cpu = crate::db::users::computer_player(c, level)?;
                let mut seats = vec![SeatRow::new(&row.id, Seat4::South.name(), user, 0)];
                for s in [Seat4::East, Seat4::North, Seat4::West] {
                    let mut r = SeatRow::new(
                        &row.id,
                        s.name(),
                        cpu.id,
                        super::view::side_of(t.options, s).into(),
                    );
                    r.state = tables::READY.into();
                    seats.push(r);
                }
                seats[0].state = tables::READY.into();
                tables::set_seats(c, &row.id, &seats)?;
            }
            Ok(())
        })
        .await?;
    // Under `computer` the table starts as soon as its task loads.
    hub.handle(&id).await?;
    hub.lobby_changed();
    Ok(id)
}

/// The stored state of a deployment in progress: the hands (and under 乱战 their
/// salt and commitment), each seat's arrangement and who finished, in order.
pub(super) fn deployment_json(d: &Deploying) -> String {
    let dep = &d.deployment;
    let layouts: Map<String, Value> = dep
        .seated()
        .iter()
        .map(|&s| (s.name().to_string(), layout_json(dep.arrangement(s))))
        .collect();
    let mut m = Map::new();
    m.insert(
        "hands".into(),
        serde_json::to_value(dep.hands()).expect("hands serialise"),
    );
    if let Some(h) = &d.hands {
        m.insert("hands_salt".into(), json!(h.salt));
        m.insert("hands_commitment".into(), json!(h.commitment));
    }
    m.insert("layouts".into(), Value::Object(layouts));
    m.insert("finished".into(), json!(dep.finished()));
    m.insert("deadline".into(), json!(d.deadline));
    Value::Object(m).to_string()
}

fn deployment_from(
    text: &str,
    opts: SiguoOptions,
    seated: &[Seat4],
) -> Result<Deploying, AppError> {
    let v: Value = serde_json::from_str(text).map_err(AppError::internal)?;
    let hands: Hands = serde_json::from_value(v["hands"].clone()).map_err(AppError::internal)?;
    let mut dep =
        Deployment4::new(opts, seated, hands, &mut rand::rng()).map_err(AppError::internal)?;
    for &s in seated {
        if let Some(l) = v["layouts"].get(s.name()) {
            let l = parse_layout(l).map_err(AppError::internal)?;
            dep.set_layout(s, l).map_err(AppError::internal)?;
        }
    }
    let finished: Vec<Seat4> =
        serde_json::from_value(v["finished"].clone()).map_err(AppError::internal)?;
    for s in finished {
        dep.ready(s).map_err(AppError::internal)?;
    }
    let hands = match (v["hands_salt"].as_str(), v["hands_commitment"].as_str()) {
        (Some(salt), Some(c)) => Some(HandDeal {
            hands,
            salt: salt.to_string(),
            commitment: c.to_string(),
        }),
        _ => None,
    };
    Ok(Deploying {
        deployment: dep,
        hands,
        deadline: v["deadline"].as_i64().unwrap_or_else(now_ms),
    })
}

/// The task of table `row`, as it was.
pub(in crate::live) async fn load(hub: &Arc<Hub>, row: GameRow) -> Result<Table, AppError> {
    let id = row.id.clone();
    let (seat_rows, players, creator, actions, deployment) = blocking(hub.pool(), move |c| {
        let seats = tables::seats(c, &id)?;
        let mut players = Vec::new();
        for s in &seats {
            players.push(super::seating::store_player(c, s.user_id)?);
        }
        let creator_id = row_creator(c, &id)?;
        let creator = crate::db::users::by_id(c, creator_id)?
            .map(|u| u.username)
            .unwrap_or_default();
        let actions = crate::db::games::actions(c, &id)?;
        let deployment = crate::db::games::deployment(c, &id)?;
        Ok((seats, players, creator, actions, deployment))
    })
    .await?;
    let options: TableOptions = serde_json::from_str(&row.options).map_err(AppError::internal)?;
    let mut seats: [Option<Sitter>; 4] = Default::default();
    let mut ready = [false; 4];
    for (r, info) in seat_rows.iter().zip(players) {
        let s = seat_named(&r.seat)?;
        ready[s.index()] = r.state != tables::SEATED;
        seats[s.index()] = Some(Sitter { info });
    }
    let mut table = Table {
        hub: hub.clone(),
        options,
        creator,
        seats,
        ready,
        phase: Phase::Open,
        conns: HashMap::new(),
        version: 0,
        permits: Default::default(),
        seated: None,
        rematch: Default::default(),
        row,
    };
    if table.row.status == OPEN {
        return Ok(table);
    }
    let seated: Vec<Seat4> = Seat4::ALL
        .into_iter()
        .filter(|s| table.seats[s.index()].is_some())
        .collect();
    match (&table.row.deal, deployment) {
        (Some(start), _) => {
            let v: Value = serde_json::from_str(start).map_err(AppError::internal)?;
            let obj = v
                .as_object()
                .ok_or_else(|| AppError::internal("a stored start"))?;
            let mut record = SiguoRecord::from_json(obj).map_err(AppError::internal)?;
            let pos = record.start_position().map_err(AppError::internal)?;
            let game_options = Options {
                seconds_per_action: table.row.seconds_per_action as u32,
                grace_seconds: options.grace_seconds,
                ..Options::default()
            };
            let game = HiddenGame::new(
                Variant::Siguo,
                game_options,
                options.siguo.alliance,
                pos,
                &record.table.seated,
                record.first,
            )
            .with_allies_visible(options.siguo.allies_visible);
            let minds = Seat4::ALL.map(|s| {
                table
                    .computer_in(s)
                    .map(|_| crate::engine::siguo::SeatInfo::new(game.seat_view(s)))
            });
            record.actions.clear();
            let mut p = Playing {
                game,
                record,
                deadline: table.row.deadline_at.unwrap_or_else(now_ms),
                last: None,
                away_since: [None; 4],
                tuoguan_last: [None; 4],
                exited: [false; 4],
                play_on_due: None,
                minds,
                asked: None,
                scores: None,
                stored_end: table.row.status != RUNNING,
            };
            for a in &actions {
                let v: Value = serde_json::from_str(&a.action).map_err(AppError::internal)?;
                let (seat, action) =
                    crate::record::parse_siguo_action(&v).map_err(AppError::internal)?;
                make(&mut p, seat, action).map_err(|e| {
                    AppError::internal(format!("stored action {} of {}: {e}", a.idx, table.row.id))
                })?;
            }
            if table.row.status == RUNNING {
                // After a restart no person is connected yet: the grace starts now.
                let now = now_ms();
                for s in &seated {
                    if table.computer_in(*s).is_none() {
                        p.away_since[s.index()] = Some(now);
                    }
                }
            }
            if table.row.status != RUNNING {
                p.scores = super::play::scores_of(&p);
            }
            table.phase = Phase::Playing(Box::new(p));
        }
        (None, Some(text)) => {
            let d = deployment_from(&text, options.siguo, &seated)?;
            table.phase = Phase::Deploying(Box::new(d));
        }
        (None, None) => {}
    }
    Ok(table)
}

fn row_creator(c: &mut crate::db::DbConn, id: &str) -> Result<i64, AppError> {
    Ok(crate::db::games::get(c, id)?
        .ok_or_else(|| AppError::NotFound(format!("no game {id}")))?
        .creator_id)
}

fn seat_named(name: &str) -> Result<Seat4, AppError> {
    Seat4::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| AppError::internal(format!("stored seat {name:?}")))
}

/// Makes one action of `seat`, in play or replaying the stored ones: the game, who
/// left, what the computer's seats are told, the last step and the record.
pub(super) fn make(p: &mut Playing, seat: Seat4, action: SiguoAction) -> Result<(), String> {
    let g = &mut p.game;
    let was_in_play = g.is_in_play(seat);
    let path = match action {
        SiguoAction::Step(Step::Move { from, to }) => {
            Some(crate::rules::delta::route(g.position(), from, to))
        }
        _ => None,
    };
    let sights: Vec<_> = Seat4::ALL
        .iter()
        .map(|&s| g.sight(Watcher::Seat(s)))
        .collect();
    let applied = crate::record::apply_siguo_action(g, seat, action)?;
    if was_in_play {
        p.exited[seat.index()] |= match action {
            SiguoAction::Escape(Escape::Left) => true,
            SiguoAction::Escape(Escape::StayedAway) => !p.game.is_in_play(seat),
            SiguoAction::Tuoguan(kind) => kind == TuoguanKind::Exit,
            _ => false,
        };
    }
    if let Some(applied) = applied {
        for s in Seat4::ALL {
            if let Some(mind) = &mut p.minds[s.index()] {
                let ev = EventView::of(&applied, path.clone(), sights[s.index()]);
                mind.observe(&ev, p.game.seat_view(s))?;
            }
        }
        p.last = Some((applied, path));
    }
    p.record.actions.push((seat, action));
    Ok(())
}
