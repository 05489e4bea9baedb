//! Challenges (挑战): one player invites another, by name, to a game of given settings.
//! The challenged player hears of it on their lobby sockets (and the tab's title) and
//! accepts or declines; the challenger can cancel; unanswered, it lapses after
//! [`TTL_MS`]. Accepting starts the game as a game against the computer starts: opened
//! by the challenger, reserved for the accepter, joined at once, all within the caps
//! (`caps::Start::Challenge`, then the join's own check).
//!
//! Refused: challenging oneself, the computer players (they are played from the
//! lobby), a guest, or someone either side has blocked; more than
//! [`MAX_PENDING`] pending at once; a second one to the same player while one waits.

use super::caps::{self, Start};
use super::social::{Person, named, registered};
use super::{Cmd, Hub, blocking};
use crate::db::social::{self as store, ACCEPTED, ACCEPTING, CANCELLED, ChallengeRow, DECLINED};
use crate::db::social::{EXPIRED, PENDING};
use crate::db::{Pool, games, kinds, now_ms};
use crate::error::AppError;
use crate::rules::Variant;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// How long a challenge waits for its answer: five minutes, as a player waits for a
/// friend to come to the lobby, not all evening.
pub const TTL_MS: i64 = 5 * 60 * 1000;
/// How often lapsed challenges are looked for (a read of one index entry, mostly
/// finding none): their challengers hear within this of the five minutes.
pub const SWEEP: std::time::Duration = std::time::Duration::from_secs(2);
/// Challenges one player may have waiting at once.
pub const MAX_PENDING: i64 = 5;
/// How far back a player's lists go: decided challenges stay listed a while, so that
/// the challenger's page sees the answer.
const LISTED_MS: i64 = 2 * TTL_MS;

/// The settings of a challenge, already checked (the API's `NewGame`).
#[derive(Debug, Clone, Copy)]
pub struct Terms {
    pub variant: Variant,
    pub seconds_per_action: u32,
    pub rated: bool,
}

/// One challenge as its two players see it.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeView {
    pub id: String,
    pub from: Person,
    pub to: Person,
    pub variant: String,
    pub seconds_per_action: i32,
    pub rated: bool,
    /// pending, accepted, declined, cancelled or expired.
    pub status: &'static str,
    /// The game an accepted challenge started.
    pub game: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A player's challenges: those waiting for their answer, and those they sent lately
/// (with the answers).
#[derive(Debug, Clone, Serialize)]
pub struct ChallengesMsg {
    pub incoming: Vec<ChallengeView>,
    pub outgoing: Vec<ChallengeView>,
}

/// The status a player is shown: a pending challenge past its time has lapsed, whether
/// or not the sweep has marked it yet; one being accepted is still pending to them.
fn shown_status(row: &ChallengeRow, now: i64) -> &'static str {
    match row.status.as_str() {
        PENDING if row.created_at + TTL_MS <= now => EXPIRED,
        PENDING | ACCEPTING => PENDING,
        ACCEPTED => ACCEPTED,
        DECLINED => DECLINED,
        CANCELLED => CANCELLED,
        _ => EXPIRED,
    }
}

/// `user`'s lists, read now.
pub async fn lists(pool: &Pool, user: i64) -> Result<super::messages::ServerMsg, AppError> {
    let now = now_ms();
    let (rows, people) = blocking(pool, move |c| {
        let rows = store::recent_of(c, user, now - LISTED_MS)?;
        let mut ids: Vec<i64> = rows
            .iter()
            .flat_map(|r| [r.challenger_id, r.challenged_id])
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let people: HashMap<i64, Person> = store::users_by_id(c, &ids)?
            .iter()
            .map(|u| (u.id, Person::of(u)))
            .collect();
        Ok((rows, people))
    })
    .await?;
    let mut msg = ChallengesMsg {
        incoming: Vec::new(),
        outgoing: Vec::new(),
    };
    for row in rows {
        let (Some(from), Some(to)) = (
            people.get(&row.challenger_id),
            people.get(&row.challenged_id),
        ) else {
            continue;
        };
        let status = shown_status(&row, now);
        let view = ChallengeView {
            id: row.id.clone(),
            from: from.clone(),
            to: to.clone(),
            variant: row.variant.clone(),
            seconds_per_action: row.seconds_per_action,
            rated: row.rated,
            status,
            game: row.game_id.clone(),
            created_at: row.created_at,
            expires_at: row.created_at + TTL_MS,
        };
        if row.challenger_id == user {
            msg.outgoing.push(view);
        } else if status == PENDING {
            msg.incoming.push(view);
        }
    }
    Ok(super::messages::ServerMsg::Challenges { d: msg })
}

/// A challenge `user` may answer, or why not.
fn answerable(row: Option<ChallengeRow>, user: i64, now: i64) -> Result<ChallengeRow, AppError> {
    let row = row
        .filter(|r| r.challenged_id == user || r.challenger_id == user)
        .ok_or_else(|| AppError::NotFound("no such challenge of yours".into()))?;
    match shown_status(&row, now) {
        PENDING if row.status == PENDING => Ok(row),
        PENDING => Err(AppError::Moved(
            "challenge_answered",
            "the challenge is being accepted".into(),
        )),
        status => Err(AppError::Moved(
            "challenge_answered",
            format!("the challenge is {status}"),
        )),
    }
}

impl Hub {
    /// `user` challenges the player called `name`; the challenge's id.
    pub async fn challenge(
        self: &Arc<Self>,
        user: i64,
        name: &str,
        terms: Terms,
    ) -> Result<String, AppError> {
        let name = name.to_string();
        let id = super::new_game_id();
        let hub = self.clone();
        let stored = id.clone();
        let them = self
            .pool()
            .write(move |c| -> Result<i64, AppError> {
                registered(c, user)?;
                let them = named(c, &name)?;
                if them.id == user {
                    return Err(AppError::BadRequest("you cannot challenge yourself".into()));
                }
                if them.kind == kinds::COMPUTER {
                    return Err(AppError::BadRequest(
                        "the computer is played from the lobby (人机对战), not challenged".into(),
                    ));
                }
                if them.kind == kinds::GUEST {
                    return Err(AppError::BadRequest(
                        "guests cannot be challenged: they play from the lobby".into(),
                    ));
                }
                if hub.social().blocks(user, them.id) {
                    return Err(AppError::Refused(
                        "you_blocked",
                        "you have blocked this player: unblock them to challenge them".into(),
                    ));
                }
                if hub.social().blocks(them.id, user) {
                    return Err(AppError::Refused(
                        "blocked",
                        "this player does not take challenges from you".into(),
                    ));
                }
                if store::pending_between(c, user, them.id, now_ms() - TTL_MS)? {
                    return Err(AppError::Moved(
                        "challenge_waiting",
                        "your challenge to this player is still waiting for an answer".into(),
                    ));
                }
                if store::pending_from(c, user, now_ms() - TTL_MS)? >= MAX_PENDING {
                    return Err(AppError::Limit(
                        "too_many_challenges",
                        format!(
                            "you have {MAX_PENDING} challenges waiting already; cancel one or \
                             wait for the answers"
                        ),
                    ));
                }
                if terms.rated {
                    // Said now rather than once they accept.
                    caps::check(
                        c,
                        &Start::Challenge {
                            accepter: them.id,
                            challenger: user,
                            rated: true,
                        },
                    )?;
                }
                store::insert_challenge(
                    c,
                    &ChallengeRow {
                        id: stored.clone(),
                        challenger_id: user,
                        challenged_id: them.id,
                        variant: terms.variant.name().to_string(),
                        seconds_per_action: terms.seconds_per_action as i32,
                        rated: terms.rated,
                        status: PENDING.to_string(),
                        game_id: None,
                        created_at: now_ms(),
                        decided_at: None,
                    },
                )?;
                Ok(them.id)
            })
            .await?;
        self.challenges_changed(&[user, them]);
        Ok(id)
    }

    /// The challenged player declines, or the challenger cancels.
    pub async fn decide_challenge(
        &self,
        user: i64,
        id: &str,
        decline: bool,
    ) -> Result<(), AppError> {
        let id = id.to_string();
        let sides = self
            .pool()
            .write(move |c| -> Result<[i64; 2], AppError> {
                let now = now_ms();
                let row = answerable(store::challenge(c, &id)?, user, now)?;
                let (mine, to) = if decline {
                    (row.challenged_id == user, DECLINED)
                } else {
                    (row.challenger_id == user, CANCELLED)
                };
                if !mine {
                    let what = if decline {
                        "only the challenged player can decline"
                    } else {
                        "only the challenger can cancel"
                    };
                    return Err(AppError::Forbidden(what.into()));
                }
                if !store::set_status(c, &id, PENDING, to, None, now)? {
                    return Err(AppError::Conflict(
                        "the challenge was answered already".into(),
                    ));
                }
                Ok([row.challenger_id, row.challenged_id])
            })
            .await?;
        self.challenges_changed(&sides);
        Ok(())
    }

    /// The challenged player accepts: the game starts with both seated; its id.
    pub async fn accept_challenge(
        self: &Arc<Self>,
        user: i64,
        id: &str,
    ) -> Result<String, AppError> {
        let _mine = self.seat_lock(user).await;
        let taken = id.to_string();
        let row = self
            .pool()
            .write(move |c| -> Result<ChallengeRow, AppError> {
                let now = now_ms();
                let row = answerable(store::challenge(c, &taken)?, user, now)?;
                if row.challenged_id != user {
                    return Err(AppError::Forbidden(
                        "only the challenged player can accept".into(),
                    ));
                }
                if !store::set_status(c, &taken, PENDING, ACCEPTING, None, now)? {
                    return Err(AppError::Conflict(
                        "the challenge was answered already".into(),
                    ));
                }
                Ok(row)
            })
            .await?;
        let started = self.start_challenge(&row).await;
        let (to, game) = match &started {
            Ok(game) => (ACCEPTED, Some(game.clone())),
            // Refused (a cap, a block since): it waits again, for another try.
            Err(_) => (PENDING, None),
        };
        let back = row.id.clone();
        self.pool()
            .write(move |c| -> Result<bool, AppError> {
                Ok(store::set_status(
                    c,
                    &back,
                    ACCEPTING,
                    to,
                    game.as_deref(),
                    now_ms(),
                )?)
            })
            .await?;
        self.challenges_changed(&[row.challenger_id, row.challenged_id]);
        started
    }

    async fn start_challenge(self: &Arc<Self>, ch: &ChallengeRow) -> Result<String, AppError> {
        if self.blocked_between(ch.challenger_id, ch.challenged_id) {
            return Err(AppError::Forbidden(
                "this player does not take challenges from you".into(),
            ));
        }
        let game = super::lobby::open_row(
            &ch.variant,
            ch.rated,
            ch.seconds_per_action as u32,
            ch.challenger_id,
            self.config(),
        );
        let id = game.id.clone();
        let _kept = self.reserve(&id, ch.challenged_id);
        let starting = Start::Challenge {
            accepter: ch.challenged_id,
            challenger: ch.challenger_id,
            rated: ch.rated,
        };
        self.pool()
            .write(move |c| -> Result<(), AppError> {
                caps::check(c, &starting)?;
                Ok(games::insert(c, &game)?)
            })
            .await?;
        let user = ch.challenged_id;
        if let Err(e) = self.ask(&id, |reply| Cmd::Join { user, reply }).await {
            let creator = ch.challenger_id;
            let _ = self
                .ask(&id, |reply| Cmd::Cancel {
                    user: creator,
                    reply,
                })
                .await;
            return Err(e);
        }
        Ok(id)
    }

    /// Marks lapsed challenges expired and tells their players; run by the sweep.
    pub async fn expire_challenges(&self) -> Result<usize, AppError> {
        let now = now_ms();
        // Read first: the sweep runs every few seconds, and mostly finds nothing to write.
        let lapsed = blocking(self.pool(), move |c| {
            Ok(store::any_lapsed(c, now - TTL_MS)?)
        })
        .await?;
        if !lapsed {
            return Ok(0);
        }
        let users = self
            .pool()
            .write(move |c| -> Result<Vec<i64>, AppError> {
                Ok(store::expire(c, now - TTL_MS, now)?)
            })
            .await?;
        self.challenges_changed(&users);
        Ok(users.len() / 2)
    }
}
