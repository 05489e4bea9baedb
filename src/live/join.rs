//! Seating players: joining an open game (which deals or opens the deployment),
//! cancelling it, and the rematch that starts the same pair's next game.

use super::blocking;
use super::caps::{self, Start};
use super::messages::ErrorBody;
use super::task::{Entry, Handled, Task};
use crate::db::games::{self, CANCELLED, FINISHED, GameRow, OPEN, RUNNING};
use crate::db::now_ms;
use crate::error::AppError;
use crate::record::deal_json;
use crate::rules::Seat;
use crate::rules::SetupKind;
use crate::rules::deal::FlipStart;
use crate::rules::layout::Deployment;
use rand::RngExt;

impl Task {
    /// Seats drawn at random for two players.
    fn draw_seats(a: i64, b: i64) -> (i64, i64) {
        if rand::rng().random::<bool>() {
            (a, b)
        } else {
            (b, a)
        }
    }

    /// How a new game opens: a flip deal, or a standard deployment from a fresh random
    /// layout for each seat (see `deploy::initial`).
    fn opening(&self) -> Opening {
        let mut rng = rand::rng();
        match self.variant.caps().setup {
            SetupKind::Deal => Opening::Flip(FlipStart::random(&mut rng)),
            SetupKind::Deployment => Opening::Standard(super::deploy::initial(&mut rng)),
        }
    }

    /// When the opening's clock runs out: the first action's, or the deployment's.
    fn opening_deadline(&self, opening: &Opening, now: i64) -> i64 {
        let seconds = match opening {
            Opening::Flip(_) => self.row.seconds_per_action as i64,
            Opening::Standard(_) => self.options.deploy_seconds as i64,
        };
        now + seconds * 1000
    }

    pub(super) async fn join(&mut self, user: i64) -> Result<(), AppError> {
        if self.row.status != OPEN {
            return Err(AppError::Conflict("the game is no longer open".into()));
        }
        if user == self.row.creator_id {
            return Err(AppError::Conflict("you cannot join your own game".into()));
        }
        if self
            .hub
            .reserved_for(&self.row.id)
            .is_some_and(|only| only != user)
        {
            // Being started against the computer: as good as taken.
            return Err(AppError::Conflict("the game is no longer open".into()));
        }
        let (south, north) = Self::draw_seats(self.row.creator_id, user);
        let opening = self.opening();
        let now = now_ms();
        let deadline = self.opening_deadline(&opening, now);
        let id = self.row.id.clone();
        let fields = OpeningFields::of(&opening);
        let stored = fields.clone();
        let joining = Start::Join {
            creator: self.row.creator_id,
            joiner: user,
            rated: self.row.rated,
        };
        let started = self
            .hub
            .pool()
            .write(move |c| -> Result<Option<[i64; 2]>, AppError> {
                caps::check(c, &joining)?;
                Ok(games::start(
                    c,
                    &id,
                    &games::Start {
                        south_id: south,
                        north_id: north,
                        first_seat: stored.first_seat,
                        deal: stored.deal.as_deref(),
                        salt: stored.salt.as_deref(),
                        commitment: stored.commitment.as_deref(),
                        deployment: stored.deployment.as_deref(),
                        started_at: now,
                        deadline_at: deadline,
                    },
                )?)
            })
            .await?;
        let Some(before) = started else {
            return Err(AppError::Conflict("the game is no longer open".into()));
        };
        self.row.score_before_south = Some(before[0]);
        self.row.score_before_north = Some(before[1]);
        self.row.status = RUNNING.to_string();
        self.row.south_id = Some(south);
        self.row.north_id = Some(north);
        self.row.first_seat = fields.first_seat.map(str::to_string);
        self.row.deal = fields.deal;
        self.row.salt = fields.salt;
        self.row.commitment = fields.commitment;
        self.row.started_at = Some(now);
        self.row.deadline_at = Some(deadline);
        match opening {
            Opening::Flip(start) => self.game = Some(start.game(self.options)),
            Opening::Standard(d) => self.deploy = Some(d),
        }
        self.refresh_players().await;
        self.take_seats();
        self.computer = super::computer::Computer::of_seats(&self.seats);
        if let (Some(c), Some(game)) = (&mut self.computer, &self.game) {
            c.begin(game);
        }
        // The game starts: the escape clocks of absent seats run, and every socket
        // hears of it.
        self.update_away();
        self.shown_here = [self.connected(Seat::South), self.connected(Seat::North)];
        self.broadcast_state();
        self.audience_changed();
        self.hub.lobby_changed();
        Ok(())
    }

    pub(super) async fn cancel(&mut self, user: i64) -> Result<(), AppError> {
        if user != self.row.creator_id {
            return Err(AppError::Forbidden(
                "only its creator may cancel a game".into(),
            ));
        }
        if self.row.status != OPEN {
            return Err(AppError::Conflict(
                "only an open game can be cancelled".into(),
            ));
        }
        let id = self.row.id.clone();
        let done = self
            .hub
            .pool()
            .write(move |c| -> Result<bool, AppError> { Ok(games::cancel(c, &id, user)?) })
            .await?;
        if !done {
            return Err(AppError::Conflict(
                "only an open game can be cancelled".into(),
            ));
        }
        self.row.status = CANCELLED.to_string();
        self.broadcast_state();
        self.hub.lobby_changed();
        Ok(())
    }

    /// The expiry sweep has cancelled this game in the database (it changes only open
    /// games, which only this task would have started or cancelled).
    pub(super) fn expired(&mut self) {
        if self.row.status == OPEN {
            self.row.status = CANCELLED.to_string();
            self.broadcast_state();
        }
    }

    /// A player asks for a rematch; when both have, the new game is created and both
    /// entries are published together. A rematch is a new game like any other and
    /// counts against the same caps (`caps`): refused, the asker hears why and nothing
    /// changes (no offer is recorded or shown).
    pub(super) async fn rematch(&mut self, conn: u64) -> Handled {
        let (seat, asker) = self.player(conn).ok_or_else(ErrorBody::not_a_player)?;
        if self.row.status != FINISHED {
            return Err(ErrorBody::new(
                "illegal",
                "a rematch can be asked for once the game is over",
            ));
        }
        if self.row.next_game.is_some() || self.rematch[seat.index()] {
            return Ok(Vec::new());
        }
        let other = match seat.other() {
            Seat::South => self.row.south_id,
            Seat::North => self.row.north_id,
        };
        let Some(other) = other else {
            return Err(ErrorBody::new("internal", "the game has no opponent"));
        };
        let starting = Start::Rematch {
            asker,
            other,
            rated: self.row.rated,
        };
        let mut agreed = self.rematch;
        agreed[seat.index()] = true;
        let mut entries = vec![Entry::RematchOffer(seat)];
        // The computer always plays again.
        if let Some(c) = self.computer.as_ref().map(|c| c.seat)
            && !agreed[c.index()]
        {
            agreed[c.index()] = true;
            entries.push(Entry::RematchOffer(c));
        }
        if agreed != [true, true] {
            // Said now rather than once the opponent agrees; checked again, with the
            // new game's creation, when they do.
            blocking(self.hub.pool(), move |c| caps::check(c, &starting))
                .await
                .map_err(refusal)?;
            self.rematch = agreed;
            return Ok(entries);
        }
        let next = self.start_rematch(starting).await.map_err(refusal)?;
        self.rematch = agreed;
        self.row.next_game = Some(next.clone());
        entries.push(Entry::Rematch(next.clone()));
        if let Err(e) = self.hub.handle(&next).await {
            tracing::error!(game = %next, error = %e, "cannot start the rematch task");
        }
        Ok(entries)
    }

    /// The same pair, the same table: a new game whose base is one higher (RULES §3.1),
    /// created within the caps in one write.
    async fn start_rematch(&mut self, starting: Start) -> Result<String, AppError> {
        let (Some(a), Some(b)) = (self.row.south_id, self.row.north_id) else {
            return Err(AppError::internal("a finished game without players"));
        };
        let (south, north) = Self::draw_seats(a, b);
        let opening = self.opening();
        let now = now_ms();
        let deadline = self.opening_deadline(&opening, now);
        let fields = OpeningFields::of(&opening);
        let row = GameRow {
            status: RUNNING.to_string(),
            base: self.row.base + 1,
            south_id: Some(south),
            north_id: Some(north),
            first_seat: fields.first_seat.map(str::to_string),
            deal: fields.deal,
            salt: fields.salt,
            commitment: fields.commitment,
            previous_game: Some(self.row.id.clone()),
            started_at: Some(now),
            deadline_at: Some(deadline),
            ..GameRow::open(
                new_game_id(),
                &self.row.variant,
                self.row.rated,
                self.row.seconds_per_action,
                self.row.options.clone(),
                self.row.creator_id,
                now,
            )
        };
        let id = row.id.clone();
        let old = self.row.id.clone();
        let deployment = fields.deployment;
        // Through the writer, as every start is: the check and the insert are one write.
        self.hub
            .pool()
            .write(move |c| -> Result<(), AppError> {
                caps::check(c, &starting)?;
                // The scores the players bring to the new game, as `games::start` keeps.
                let before = games::scores_now(c, &row.variant, [south, north])?;
                let row = GameRow {
                    score_before_south: Some(before[0]),
                    score_before_north: Some(before[1]),
                    ..row.clone()
                };
                games::insert(c, &row)?;
                if let Some(d) = &deployment {
                    games::set_deployment(c, &row.id, d)?;
                }
                games::set_next(c, &old, &row.id)?;
                Ok(())
            })
            .await?;
        Ok(id)
    }
}

/// What the asker of a refused rematch hears: the cap it would break, or that it
/// could not be created (the cause is logged).
fn refusal(e: AppError) -> ErrorBody {
    match e {
        AppError::Internal(_) => {
            tracing::error!(error = %e, "cannot create a rematch");
            ErrorBody::new("internal", "the rematch could not be created; ask again")
        }
        e => ErrorBody::new(e.code(), e.message()),
    }
}

/// How a new game opens.
enum Opening {
    Flip(FlipStart),
    Standard(Deployment),
}

/// The stored columns of an opening: a flip game's deal, first seat and commitment,
/// or a standard game's deployment.
#[derive(Clone)]
struct OpeningFields {
    first_seat: Option<&'static str>,
    deal: Option<String>,
    salt: Option<String>,
    commitment: Option<String>,
    deployment: Option<String>,
}

impl OpeningFields {
    fn of(opening: &Opening) -> OpeningFields {
        match opening {
            Opening::Flip(start) => OpeningFields {
                first_seat: Some(start.first.name()),
                deal: Some(deal_json(&start.deal).to_string()),
                salt: Some(start.salt.clone()),
                commitment: Some(start.commitment.clone()),
                deployment: None,
            },
            Opening::Standard(d) => OpeningFields {
                first_seat: None,
                deal: None,
                salt: None,
                commitment: None,
                deployment: Some(super::deploy::to_json(d)),
            },
        }
    }
}

/// A game id: 8 characters from a 62-letter alphabet, drawn from the system's
/// cryptographic generator so that ids cannot be guessed from one another.
pub fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
