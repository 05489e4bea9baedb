//! The JSON shapes of games and players shared by the API, the lobby and the sockets,
//! as typed structs serialised by serde (docs/protocol.md, static/js/messages.js).
//! Built from stored rows only; the deal and salt of a running game never appear here.

use crate::avatars::Avatar;
use crate::db::games::{FINISHED, GameRow};
use crate::db::users::{self, Stats, User};
use crate::db::{DbConn, DbError};
use crate::rules::Rank;
use crate::rules::view::SeatPair;
use serde::Serialize;

/// A player as shown beside a game: name, and score and rank in the game's variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub id: i64,
    pub username: String,
    pub display_name: Option<String>,
    /// `person`, `bot` or `computer` (`users.kind`).
    pub kind: String,
    pub score: i64,
    /// The level, when the player is the computer.
    pub computer: Option<crate::engine::Level>,
    /// The figure shown beside the name (`crate::avatars`).
    pub avatar: Avatar,
}

impl PlayerInfo {
    pub fn load(conn: &mut DbConn, user_id: i64, variant: &str) -> Result<PlayerInfo, DbError> {
        let user =
            users::by_id(conn, user_id)?.ok_or(DbError::Query(diesel::result::Error::NotFound))?;
        // A player who has not played a variant yet (四国 rows are made at a first
        // table) stands at 0 in it.
        let score = match users::stats(conn, user_id, variant) {
            Ok(stats) => stats.score,
            Err(DbError::Query(diesel::result::Error::NotFound)) => 0,
            Err(e) => return Err(e),
        };
        Ok(PlayerInfo {
            avatar: Avatar::of_user(&user),
            computer: user.computer_level(),
            id: user.id,
            username: user.username,
            display_name: user.display_name,
            kind: user.kind,
            score,
        })
    }

    /// The players in a game's two seats, south then north. A finished game shows the
    /// score each brought to it (kept when it started); an open or running one, and an
    /// old game that kept none, today's.
    pub fn seats(conn: &mut DbConn, row: &GameRow) -> Result<[Option<PlayerInfo>; 2], DbError> {
        let mut seats = [None, None];
        let before = [row.score_before_south, row.score_before_north];
        for (i, uid) in [row.south_id, row.north_id].into_iter().enumerate() {
            if let Some(uid) = uid {
                let mut p = PlayerInfo::load(conn, uid, &row.variant)?;
                if let (FINISHED, Some(score)) = (row.status.as_str(), before[i]) {
                    p.score = score;
                }
                seats[i] = Some(p);
            }
        }
        Ok(seats)
    }
}

/// A player beside a game (creator, seats): the page's `PlayerRef`.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerRef {
    pub username: String,
    /// Null when the player has not chosen one.
    pub display_name: Option<String>,
    /// `person`, `bot` (an outside program, badge 机器人) or `computer` (the site's own
    /// computer player, badge 电脑).
    pub kind: String,
    pub score: i64,
    pub rank: RankView,
    /// The figure's name (`crate::avatars`) and its image.
    pub avatar: &'static str,
    pub avatar_url: String,
}

impl PlayerRef {
    pub fn of(p: &PlayerInfo) -> PlayerRef {
        PlayerRef {
            username: p.username.clone(),
            display_name: p.display_name.clone(),
            kind: p.kind.clone(),
            score: p.score,
            rank: RankView::of(p.score),
            avatar: p.avatar.name,
            avatar_url: p.avatar.url(),
        }
    }

    /// A game's seats, south then north; null for an empty seat.
    pub fn seats(seats: &[Option<PlayerInfo>; 2]) -> SeatPair<Option<PlayerRef>> {
        SeatPair([
            seats[0].as_ref().map(PlayerRef::of),
            seats[1].as_ref().map(PlayerRef::of),
        ])
    }
}

/// The game summary of docs/protocol.md: the page's `GameSummary`.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub status: String,
    pub rated: bool,
    pub seconds_per_action: i32,
    pub base: i32,
    pub creator: PlayerRef,
    pub players: SeatPair<Option<PlayerRef>>,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Each seat's score change; null until the game is finished.
    pub score: Option<SeatPair<Option<i32>>>,
    pub commitment: Option<String>,
    pub steps: i32,
    pub previous_game: Option<String>,
    pub next_game: Option<String>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
}

impl GameSummary {
    pub fn of(row: &GameRow, creator: &PlayerInfo, seats: &[Option<PlayerInfo>; 2]) -> GameSummary {
        GameSummary {
            id: row.id.clone(),
            variant: row.variant.clone(),
            status: row.status.clone(),
            rated: row.rated,
            seconds_per_action: row.seconds_per_action,
            base: row.base,
            creator: PlayerRef::of(creator),
            players: PlayerRef::seats(seats),
            result: row.result.clone(),
            reason: row.reason.clone(),
            score: (row.status == FINISHED).then_some(SeatPair([row.score_south, row.score_north])),
            commitment: row.commitment.clone(),
            steps: row.steps,
            previous_game: row.previous_game.clone(),
            next_game: row.next_game.clone(),
            created_at: row.created_at,
            started_at: row.started_at,
            ended_at: row.ended_at,
        }
    }
}

/// One row of the lobby's open-games list: the page's `OpenGame`.
#[derive(Debug, Clone, Serialize)]
pub struct OpenGame {
    pub id: String,
    pub variant: String,
    pub seconds_per_action: i32,
    pub rated: bool,
    pub creator: PlayerRef,
    pub created_at: i64,
}

impl OpenGame {
    pub fn of(row: &GameRow, creator: &PlayerInfo) -> OpenGame {
        OpenGame {
            id: row.id.clone(),
            variant: row.variant.clone(),
            seconds_per_action: row.seconds_per_action,
            rated: row.rated,
            creator: PlayerRef::of(creator),
            created_at: row.created_at,
        }
    }
}

/// A player's standing in one variant: the page's `Player`.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerStanding {
    pub username: String,
    pub display_name: Option<String>,
    pub kind: String,
    pub variant: String,
    pub score: i64,
    pub rank: RankView,
    pub wins: i32,
    pub draws: i32,
    pub losses: i32,
    pub games: i32,
    pub avatar: &'static str,
    pub avatar_url: String,
}

impl PlayerStanding {
    pub fn of(user: &User, stats: &Stats) -> PlayerStanding {
        let avatar = Avatar::of_user(user);
        PlayerStanding {
            username: user.username.clone(),
            display_name: user.display_name.clone(),
            kind: user.kind.clone(),
            variant: stats.variant.clone(),
            score: stats.score,
            rank: RankView::of(stats.score),
            wins: stats.wins,
            draws: stats.draws,
            losses: stats.losses,
            games: stats.games,
            avatar: avatar.name,
            avatar_url: avatar.url(),
        }
    }
}

/// A score's rank, the next rank (null at the top) and the progress toward it
/// (0.0–1.0): the page's `Rank`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RankView {
    #[serde(flatten)]
    pub rank: Rank,
    pub next: Option<Rank>,
    pub progress: f64,
}

impl RankView {
    pub fn of(score: i64) -> RankView {
        let rank = Rank::for_score(score);
        RankView {
            rank,
            next: rank.next(),
            progress: Rank::progress(score),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::games::RUNNING;
    use serde_json::{json, to_value};

    fn row(status: &str) -> GameRow {
        GameRow {
            status: status.into(),
            base: 2,
            south_id: Some(1),
            deal: Some("secret".into()),
            salt: Some("secret".into()),
            commitment: Some("c0ffee".into()),
            ..GameRow::open("g1".into(), "flip", true, 30, "{}".into(), 1, 100)
        }
    }

    fn alice() -> PlayerInfo {
        PlayerInfo {
            id: 1,
            username: "alice".into(),
            display_name: None,
            kind: "bot".into(),
            score: 35,
            computer: None,
            avatar: Avatar::choice("medic").copied().unwrap(),
        }
    }

    fn rank_35() -> serde_json::Value {
        json!({
            "level": 1, "chinese": "副班长", "english": "Deputy Squad Leader", "from_score": 30,
            "next": {"level": 2, "chinese": "班长", "english": "Squad Leader", "from_score": 50},
            "progress": 0.25,
        })
    }

    #[test]
    fn ranks_name_the_next_one_and_the_way_to_it() {
        assert_eq!(to_value(RankView::of(35)).unwrap(), rank_35());
        let bottom = to_value(RankView::of(-10)).unwrap();
        assert_eq!(bottom["from_score"], json!(null));
        assert_eq!(bottom["progress"], json!(0.0));
        let top = to_value(RankView::of(30000)).unwrap();
        assert_eq!(top["next"], json!(null));
        assert_eq!(top["progress"], json!(1.0));
    }

    #[test]
    fn a_running_game_has_no_score_and_no_deal() {
        let s = to_value(GameSummary::of(
            &row(RUNNING),
            &alice(),
            &[Some(alice()), None],
        ))
        .unwrap();
        let me = json!({"username": "alice", "display_name": null, "kind": "bot", "score": 35, "rank": rank_35(),
                      "avatar": "medic", "avatar_url": Avatar::choice("medic").unwrap().url()});
        assert_eq!(
            s,
            json!({
                "id": "g1", "variant": "flip", "status": "running", "rated": true,
                "seconds_per_action": 30, "base": 2, "creator": me,
                "players": {"south": me, "north": null},
                "result": null, "reason": null, "score": null, "commitment": "c0ffee",
                "steps": 0, "previous_game": null, "next_game": null,
                "created_at": 100, "started_at": null, "ended_at": null,
            })
        );
    }

    #[test]
    fn a_finished_game_has_both_scores() {
        let mut r = row(FINISHED);
        (r.score_south, r.score_north) = (Some(4), Some(-4));
        let s = to_value(GameSummary::of(&r, &alice(), &[None, None])).unwrap();
        assert_eq!(s["score"], json!({"south": 4, "north": -4}));
    }

    #[test]
    fn open_games_and_standings() {
        let o = to_value(OpenGame::of(&row("open"), &alice())).unwrap();
        let me = json!({"username": "alice", "display_name": null, "kind": "bot", "score": 35, "rank": rank_35(),
                      "avatar": "medic", "avatar_url": Avatar::choice("medic").unwrap().url()});
        assert_eq!(
            o,
            json!({"id": "g1", "variant": "flip", "seconds_per_action": 30, "rated": true,
                   "creator": me, "created_at": 100})
        );
        let user = User {
            id: 1,
            username: "alice".into(),
            username_key: "alice".into(),
            password_hash: String::new(),
            created_at: 0,
            display_name: Some("小明".into()),
            kind: "person".into(),
            avatar: None,
        };
        let stats = Stats {
            user_id: 1,
            variant: "standard".into(),
            score: 35,
            wins: 3,
            draws: 1,
            losses: 2,
            games: 6,
            streak: 1,
            best_streak: 2,
        };
        assert_eq!(
            to_value(PlayerStanding::of(&user, &stats)).unwrap(),
            json!({"username": "alice", "display_name": "小明", "kind": "person", "variant": "standard",
                   "score": 35, "rank": rank_35(), "wins": 3, "draws": 1, "losses": 2,
                   "games": 6, "avatar": Avatar::default_for(1).name,
                   "avatar_url": Avatar::default_for(1).url()})
        );
    }
}
