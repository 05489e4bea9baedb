//! 四国 tables in the lobby (RULES §5.2), as people find them on 联众: the list of open
//! tables beside the open games, under the same rules against flooding (at most
//! [`LISTED_PER_CREATOR`](super::lobby::LISTED_PER_CREATOR) of any creator,
//! established creators first, newest first, abandoned tables left out), each with its
//! settings and who sits where; and quick pairing, which seats a player at a free seat
//! of a compatible open table or else opens one. A table's task is the one writer of
//! its seats: pairing asks it for a seat (`Cmd::Join`) and never writes one itself.

use super::lobby::{ESTABLISHED_AFTER, PAIR_SCAN, abandoned, listed};
use super::summary::{PlayerInfo, PlayerRef};
use super::table::{NewTable, TableOptions};
use super::{Cmd, Hub, blocking, caps};
use crate::db::games::GameRow;
use crate::db::now_ms;
use crate::db::open_lists::{self, Creators, Listing};
use crate::db::tables::{self, SeatRow};
use crate::error::AppError;
use crate::rules::siguo::{Alliance, Seat4, SiguoOptions};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The most tables the lobby lists. A table's entry carries four seats, so it is about
/// four times an open game's: 40 keep the lobby's frame within the size the 100 open
/// games already give it.
pub const TABLES_LIMIT: usize = 40;
/// Open tables read to fill the list, of established creators and of new ones each:
/// 40 at two a creator need 20 creators, whose five open tables each are 100 rows; the
/// rest is room for those skipped as abandoned.
const TABLES_SCAN: i64 = 150;

/// One open table in the lobby's list: the page's `OpenTable`.
#[derive(Debug, Clone, Serialize)]
pub struct OpenTable {
    pub id: String,
    pub variant: &'static str,
    /// Mode (`alliance`: 对家 opposite, 并肩 adjacent, 混战 none), 乱战, 友明, 炸弹满天飞
    /// and who moves first.
    pub options: SiguoOptions,
    pub seconds_per_action: i32,
    pub grace_seconds: u32,
    pub rated: bool,
    pub creator: PlayerRef,
    /// South, east, north, west, in turn order; an empty seat has no player.
    pub seats: Vec<TableSeat>,
    /// How many seated players start the table: four, or three in 混战 (三国).
    pub to_start: u8,
    pub created_at: i64,
}

/// One seat of a listed table.
#[derive(Debug, Clone, Serialize)]
pub struct TableSeat {
    pub seat: Seat4,
    pub player: Option<PlayerRef>,
    /// Pressed ready.
    pub ready: bool,
}

/// A stored table's settings; `None` (and logged) when they cannot be read.
fn options_of(row: &GameRow) -> Option<TableOptions> {
    match serde_json::from_str(&row.options) {
        Ok(o) => Some(o),
        Err(e) => {
            tracing::error!(table = %row.id, error = %e, "cannot read a table's options");
            None
        }
    }
}

fn seat_named(name: &str) -> Option<Seat4> {
    Seat4::ALL.into_iter().find(|s| s.name() == name)
}

/// A player as listed, loaded once per list however many seats they hold.
fn listed_player(
    c: &mut crate::db::DbConn,
    known: &mut HashMap<i64, PlayerRef>,
    user: i64,
) -> Result<PlayerRef, AppError> {
    if let Some(p) = known.get(&user) {
        return Ok(p.clone());
    }
    let p = PlayerRef::of(&PlayerInfo::load(c, user, crate::db::tables::SIGUO)?);
    known.insert(user, p.clone());
    Ok(p)
}

/// The lobby's entries of `rows` (open tables) with their seats.
fn entries(
    c: &mut crate::db::DbConn,
    rows: &[GameRow],
    seats: Vec<SeatRow>,
) -> Result<Vec<OpenTable>, AppError> {
    let mut by_table: HashMap<String, Vec<SeatRow>> = HashMap::new();
    for s in seats {
        by_table.entry(s.game_id.clone()).or_default().push(s);
    }
    let mut known = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(options) = options_of(row) else {
            continue;
        };
        let mut cards = Seat4::ALL.map(|seat| TableSeat {
            seat,
            player: None,
            ready: false,
        });
        for s in by_table.remove(&row.id).unwrap_or_default() {
            let Some(seat) = seat_named(&s.seat) else {
                continue;
            };
            cards[seat.index()].player = Some(listed_player(c, &mut known, s.user_id)?);
            cards[seat.index()].ready = s.state != tables::SEATED;
        }
        out.push(OpenTable {
            id: row.id.clone(),
            variant: tables::SIGUO,
            options: options.siguo,
            seconds_per_action: row.seconds_per_action,
            grace_seconds: options.grace_seconds,
            rated: row.rated,
            creator: listed_player(c, &mut known, row.creator_id)?,
            seats: cards.into(),
            to_start: if options.siguo.alliance == Alliance::None {
                3
            } else {
                4
            },
            created_at: row.created_at,
        });
    }
    Ok(out)
}

impl Hub {
    /// The lobby's list of open tables that are not abandoned (see the module), at most
    /// [`TABLES_LIMIT`]: one read of the tables, one of all their seats, and each
    /// player once.
    pub async fn open_tables(&self) -> Result<Vec<OpenTable>, AppError> {
        let presence = self.presence.clone();
        let idle = self.idle_ms();
        blocking(&self.pool, move |c| {
            let now = now_ms();
            let made_by = now - ESTABLISHED_AFTER.as_millis() as i64;
            let tiers = [
                open_lists::open_newest(
                    c,
                    Creators::Established { made_by },
                    Listing::Tables,
                    TABLES_SCAN,
                )?,
                open_lists::open_newest(
                    c,
                    Creators::New { made_by },
                    Listing::Tables,
                    TABLES_SCAN,
                )?,
            ];
            let keep =
                |r: &GameRow| !abandoned(&presence, idle, r.creator_id, &r.id, r.created_at, now);
            let rows = listed(tiers, keep, TABLES_LIMIT);
            let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
            let seats = tables::seats_of(c, &ids)?;
            entries(c, &rows, seats)
        })
        .await
    }

    /// Quick pairing for a table (`POST /api/tables/quick`): the seat `user` already
    /// holds at a compatible open table (a double click), or else a free seat at a
    /// compatible open table of someone else's (same options, clock and rating;
    /// creators who are here first, newest first; never an abandoned one), or else a
    /// new table. The table's id and the seat. The caller holds `seat_lock(user)`.
    pub async fn quick_table(
        self: &Arc<Self>,
        user: i64,
        spec: NewTable,
    ) -> Result<(String, &'static str), AppError> {
        spec.check()?;
        if spec.computer.is_some() {
            return Err(AppError::BadOption(
                "quick pairing finds people; to play the computer, open a table with \
                 \"computer\" (POST /api/tables)"
                    .into(),
            ));
        }
        let prefix = spec.options_prefix();
        let (spa, rated) = (spec.seconds_per_action as i32, spec.rated);
        // Held from looking to opening: a request for these settings waiting here then
        // finds the table this one opens, rather than opening another beside it.
        let _pairing = self.pair_lock(&prefix, spa, rated).await;
        // Asked twice (a double click, a retry): the seat already held, not a second
        // table to wait at.
        if let Some(waiting) = self.own_waiting_table(user, &spec).await? {
            return Ok(waiting);
        }
        for id in self.table_candidates(user, &spec).await? {
            match self.ask(&id, |reply| Cmd::Join { user, reply }).await {
                Ok(()) => {
                    let seat = self.seat_at(&id, user).await?;
                    return Ok((id, seat));
                }
                // Filled or started meanwhile; try the next one.
                Err(AppError::Conflict(_)) => continue,
                // Past a cap: the same at any table.
                Err(e) => return Err(e),
            }
        }
        let id = super::table::create(self, user, spec).await?;
        Ok((id, Seat4::South.name()))
    }

    /// Open tables of `spec`'s settings with a free seat that `user` may take, in the
    /// order pairing tries them.
    async fn table_candidates(&self, user: i64, spec: &NewTable) -> Result<Vec<String>, AppError> {
        let prefix = spec.options_prefix();
        let (spa, rated) = (spec.seconds_per_action as i32, spec.rated);
        let rows = blocking(&self.pool, move |c| {
            // Rated tables are between people or between bots, as rated games are.
            let creator_kind = if rated {
                Some(caps::rated_pool(c, user)?)
            } else {
                None
            };
            let wanted = tables::Wanted {
                options_prefix: &prefix,
                seconds_per_action: spa,
                rated,
                asker: user,
                creator_kind,
            };
            Ok(tables::open_compatible(c, &wanted, PAIR_SCAN)?)
        })
        .await?;
        // The stored options' prefix found them; their options, read, decide.
        let rows = rows
            .into_iter()
            .filter(|r| options_of(r).is_some_and(|o| o.siguo == spec.options))
            .collect();
        Ok(self.here_first(rows))
    }

    /// The newest open table of `spec`'s settings that `user` sits at and that is not
    /// abandoned, with their seat.
    async fn own_waiting_table(
        &self,
        user: i64,
        spec: &NewTable,
    ) -> Result<Option<(String, &'static str)>, AppError> {
        let (spa, rated) = (spec.seconds_per_action as i32, spec.rated);
        let rows = blocking(&self.pool, move |c| {
            Ok(tables::open_seated_with(c, user, spa, rated)?)
        })
        .await?;
        let now = now_ms();
        let idle = self.idle_ms();
        let fits = |r: &GameRow| {
            options_of(r).is_some_and(|o| o.siguo == spec.options)
                && !abandoned(&self.presence, idle, r.creator_id, &r.id, r.created_at, now)
        };
        Ok(rows
            .into_iter()
            .find(|(r, _)| fits(r))
            .and_then(|(r, seat)| Some((r.id, seat_named(&seat)?.name()))))
    }

    /// The seat `user` holds at table `id` (just given by its task, which stores a seat
    /// before it answers).
    async fn seat_at(&self, id: &str, user: i64) -> Result<&'static str, AppError> {
        let table = id.to_string();
        let seat = blocking(&self.pool, move |c| Ok(tables::seat_of(c, &table, user)?)).await?;
        seat.as_deref()
            .and_then(seat_named)
            .map(Seat4::name)
            .ok_or_else(|| AppError::internal(format!("no seat of {user} at table {id}")))
    }
}
