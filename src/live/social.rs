//! The social layer's live side: who blocks whom (kept in memory, since every phrase a
//! game sends asks it), follows with their online and playing state, and each player's
//! channel of challenge lists to their lobby sockets. Challenges themselves are in
//! `challenges.rs`.

use super::{Hub, blocking};
use crate::avatars::Avatar;
use crate::db::users::User;
use crate::db::{kinds, now_ms, social};
use crate::error::AppError;
use bytestring::ByteString;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, RwLock};
use tokio::sync::watch;

/// Players one may follow, and block: a friends list, not a copy of the ladder.
pub const MAX_FOLLOWS: i64 = 500;
pub const MAX_BLOCKS: i64 = 500;

/// A player as the social lists show them.
#[derive(Debug, Clone, Serialize)]
pub struct Person {
    pub username: String,
    pub display_name: Option<String>,
    pub kind: String,
    pub avatar_url: String,
}

impl Person {
    pub fn of(u: &User) -> Person {
        Person {
            username: u.username.clone(),
            display_name: u.display_name.clone(),
            kind: u.kind.clone(),
            avatar_url: Avatar::of_user(u).url(),
        }
    }
}

/// A followed player on the friends list.
#[derive(Debug, Clone, Serialize)]
pub struct Friend {
    #[serde(flatten)]
    pub person: Person,
    /// A socket open anywhere on the site.
    pub online: bool,
    /// The running game they sit in, latest started first.
    pub playing: Option<String>,
}

#[derive(Default)]
pub struct Social {
    /// (blocker, blocked), all of them: loaded at the start, kept as blocks change.
    blocks: RwLock<HashSet<(i64, i64)>>,
    /// Each player's challenge lists, for their lobby sockets; an entry lives while a
    /// socket listens (pruned as others subscribe).
    notices: Mutex<HashMap<i64, watch::Sender<ByteString>>>,
}

impl Social {
    /// Whether `blocker` blocks `blocked`.
    pub fn blocks(&self, blocker: i64, blocked: i64) -> bool {
        self.blocks
            .read()
            .expect("blocks lock")
            .contains(&(blocker, blocked))
    }

    fn either_blocks(&self, a: i64, b: i64) -> bool {
        self.blocks(a, b) || self.blocks(b, a)
    }
}

/// The player called `name`, or 404.
pub(super) fn named(c: &mut crate::db::DbConn, name: &str) -> Result<User, AppError> {
    crate::db::users::by_name(c, name)?
        .ok_or_else(|| AppError::NotFound(format!("no player is called {name:?}")))
}

/// Refuses `user` for the social layer unless they hold an account one can find again:
/// a guest's lives in one browser only.
pub(super) fn registered(c: &mut crate::db::DbConn, user: i64) -> Result<User, AppError> {
    let me = crate::db::users::by_id(c, user)?.ok_or(AppError::NotLoggedIn)?;
    if me.kind == kinds::GUEST {
        return Err(AppError::Refused(
            "guest_no_friends",
            "guests cannot follow, block or challenge players: register to keep friends".into(),
        ));
    }
    Ok(me)
}

impl Hub {
    pub(crate) fn social(&self) -> &Social {
        &self.social
    }

    /// Reads every block into memory; run once at the start.
    pub async fn load_blocks(&self) -> Result<usize, AppError> {
        let all = blocking(self.pool(), |c| Ok(social::all_blocks(c)?)).await?;
        let n = all.len();
        *self.social.blocks.write().expect("blocks lock") = all.into_iter().collect();
        Ok(n)
    }

    /// Whether either of `a` and `b` blocks the other.
    pub fn blocked_between(&self, a: i64, b: i64) -> bool {
        self.social.either_blocks(a, b)
    }

    /// `user` follows (`on`) or stops following the player called `name`.
    pub async fn set_follow(&self, user: i64, name: &str, on: bool) -> Result<(), AppError> {
        let name = name.to_string();
        self.pool()
            .write(move |c| -> Result<(), AppError> {
                registered(c, user)?;
                let them = named(c, &name)?;
                if !on {
                    social::unfollow(c, user, them.id)?;
                    return Ok(());
                }
                if them.id == user {
                    return Err(AppError::BadRequest("you cannot follow yourself".into()));
                }
                if social::follows(c, user, them.id)? {
                    return Ok(());
                }
                if social::follow_count(c, user)? >= MAX_FOLLOWS {
                    return Err(AppError::Limit(
                        "too_many_follows",
                        format!("you follow {MAX_FOLLOWS} players already; unfollow one first"),
                    ));
                }
                social::follow(c, user, them.id, now_ms())?;
                Ok(())
            })
            .await
    }

    /// `user` blocks (`on`) or unblocks the player called `name`. Blocking cancels the
    /// challenges pending between them.
    pub async fn set_block(&self, user: i64, name: &str, on: bool) -> Result<(), AppError> {
        let name = name.to_string();
        let them = self
            .pool()
            .write(move |c| -> Result<i64, AppError> {
                registered(c, user)?;
                let them = named(c, &name)?;
                if !on {
                    social::unblock(c, user, them.id)?;
                    return Ok(them.id);
                }
                if them.id == user {
                    return Err(AppError::BadRequest("you cannot block yourself".into()));
                }
                if !social::blocked(c, user)?.iter().any(|u| u.id == them.id) {
                    if social::block_count(c, user)? >= MAX_BLOCKS {
                        return Err(AppError::Limit(
                            "too_many_blocks",
                            format!("you block {MAX_BLOCKS} players already; unblock one first"),
                        ));
                    }
                    social::block(c, user, them.id, now_ms())?;
                }
                social::cancel_between(c, user, them.id, now_ms())?;
                Ok(them.id)
            })
            .await?;
        {
            let mut blocks = self.social.blocks.write().expect("blocks lock");
            if on {
                blocks.insert((user, them));
            } else {
                blocks.remove(&(user, them));
            }
        }
        if on {
            self.challenges_changed(&[user, them]);
        }
        Ok(())
    }

    /// Whom `user` follows, with whether each is online and the game they play.
    pub async fn friends(&self, user: i64) -> Result<Vec<Friend>, AppError> {
        let people = blocking(self.pool(), move |c| Ok(social::followed(c, user)?)).await?;
        Ok(people
            .iter()
            .map(|u| Friend {
                person: Person::of(u),
                online: self.presence().is_online(u.id),
                playing: self
                    .playing()
                    .games_of(u.id)
                    .first()
                    .map(|s| s.game.clone()),
            })
            .collect())
    }

    /// Whom `user` blocks.
    pub async fn blocked_people(&self, user: i64) -> Result<Vec<Person>, AppError> {
        let people = blocking(self.pool(), move |c| Ok(social::blocked(c, user)?)).await?;
        Ok(people.iter().map(Person::of).collect())
    }

    /// Whether `user` follows and blocks the player `other` (for their profile's buttons).
    pub async fn ties(&self, user: i64, other: i64) -> Result<(bool, bool), AppError> {
        let follows = blocking(self.pool(), move |c| Ok(social::follows(c, user, other)?)).await?;
        Ok((follows, self.social.blocks(user, other)))
    }

    /// The channel of `user`'s challenge lists, for one of their lobby sockets.
    pub fn challenge_notices(&self, user: i64) -> watch::Receiver<ByteString> {
        let mut notices = self.social.notices.lock().expect("notices lock");
        notices.retain(|_, tx| tx.receiver_count() > 0);
        notices
            .entry(user)
            .or_insert_with(|| watch::channel(ByteString::new()).0)
            .subscribe()
    }

    /// The lists of `users` changed: each of them who has a lobby socket listening is
    /// sent their new lists (read off the caller's path).
    pub fn challenges_changed(&self, users: &[i64]) {
        let listening: Vec<(i64, watch::Sender<ByteString>)> = {
            let notices = self.social.notices.lock().expect("notices lock");
            users
                .iter()
                .filter_map(|u| notices.get(u).map(|tx| (*u, tx.clone())))
                .filter(|(_, tx)| tx.receiver_count() > 0)
                .collect()
        };
        for (user, tx) in listening {
            let pool = self.pool().clone();
            actix_web::rt::spawn(async move {
                match super::challenges::lists(&pool, user).await {
                    Ok(msg) => {
                        tx.send_replace(ByteString::from(msg.text()));
                    }
                    Err(e) => tracing::error!(error = %e, "cannot list a player's challenges"),
                }
            });
        }
    }
}
