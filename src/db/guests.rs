//! Guest accounts: a visitor plays at once, without registering, as an account of kind
//! `guest` (login name `guest-` and eight digits, shown as 游客 and the last four). Such
//! an account has no password, so nobody logs in to it: it lives in the one browser's
//! session. Registering from that browser claims it: the same row becomes a person's
//! account, so every game it played (rows that name its id) stays its own without
//! anything being moved.

use super::schema::users;
use super::users::{GUEST, PERSON, User, insert_account, username_key};
use super::{DbConn, DbError, now_ms};
use diesel::prelude::*;

/// Stored as a guest's password hash: not a hash of anything, so no password matches
/// it (and login refuses guests before checking, as it does the computer players).
const NO_PASSWORD: &str = "!guest: no login";

/// The prefix of every guest's login name, which registration refuses
/// (`reserved_names::username_reserved`), so a guest never takes a name someone chose.
pub const PREFIX: &str = "guest-";

/// How many fresh numbers are tried when the one drawn is held already.
const TRIES: usize = 8;

/// The login name and display name of guest number `n` (eight digits).
pub fn names(n: u32) -> (String, String) {
    let n = n % 100_000_000;
    (format!("{PREFIX}{n:08}"), format!("游客{:04}", n % 10_000))
}

/// Makes a guest account under a number `draw` gives (random in the service), trying
/// another while the name is held; `None` when every try found its name held (out of
/// a hundred million, only when nearly all are used).
pub fn create(conn: &mut DbConn, mut draw: impl FnMut() -> u32) -> Result<Option<User>, DbError> {
    for _ in 0..TRIES {
        let (login, shown) = names(draw());
        let made = super::write_transaction(conn, |c| {
            let taken = users::table
                .filter(users::username_key.eq(username_key(&login)))
                .count()
                .get_result::<i64>(c)?
                > 0;
            if taken {
                return Ok(None);
            }
            insert_account(c, &login, NO_PASSWORD, Some(&shown), GUEST).map(Some)
        });
        match made {
            Ok(Some(u)) => return Ok(Some(u)),
            // Held, or two guests drew one number at once and the unique index decided.
            Ok(None)
            | Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(None)
}

/// What claiming a guest account came to.
#[derive(Debug)]
pub enum Claim {
    /// The account is now a person's, under the new name.
    Done(User),
    /// Someone holds that login name.
    Taken,
    /// The account is not (or no longer) a guest: claimed already, or gone.
    NotAGuest,
}

/// Turns guest `id` into a person's account named `username` with this password hash
/// and display name (checked already; `None` removes the 游客 name, so the login name is
/// shown until a 昵称 is set). Its age starts now: "a week-old account" is counted from
/// registering, so guests kept for a week do not pass for established players.
pub fn claim(
    conn: &mut DbConn,
    id: i64,
    username: &str,
    password_hash: &str,
    display_name: Option<&str>,
) -> Result<Claim, DbError> {
    let key = username_key(username);
    let done = super::write_transaction(conn, |c| {
        let kind: Option<String> = users::table
            .find(id)
            .select(users::kind)
            .first(c)
            .optional()?;
        if kind.as_deref() != Some(GUEST) {
            return Ok(Claim::NotAGuest);
        }
        let taken = users::table
            .filter(users::username_key.eq(&key))
            .filter(users::id.ne(id))
            .count()
            .get_result::<i64>(c)?
            > 0;
        if taken {
            return Ok(Claim::Taken);
        }
        diesel::update(users::table.find(id).filter(users::kind.eq(GUEST)))
            .set((
                users::username.eq(username),
                users::username_key.eq(&key),
                users::password_hash.eq(password_hash),
                users::display_name.eq(display_name),
                users::kind.eq(PERSON),
                users::created_at.eq(now_ms()),
            ))
            .execute(c)?;
        let user: User = users::table.find(id).select(User::as_select()).first(c)?;
        Ok(Claim::Done(user))
    });
    match done {
        Ok(claim) => Ok(claim),
        // Someone registered the name at the same moment: the unique index decided.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(Claim::Taken),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guest_is_named_by_eight_digits_and_shown_by_four() {
        assert_eq!(
            names(1234),
            ("guest-00001234".to_string(), "游客1234".to_string())
        );
        assert_eq!(
            names(987_654_321),
            ("guest-87654321".to_string(), "游客4321".to_string())
        );
    }
}
