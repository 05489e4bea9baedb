//! 托管 and escape as rules (RULES §5.5.1–5.5.2): the three kinds of 托管 and the
//! limit of three that may be ended, an escape that keeps a team's army on the board
//! under 托管 while an ally plays and defeats the seat otherwise (§5.9 point 20), and
//! the ally's answer to 断线托管.
//!
//! The clock and the socket are the live table's: it says when a player left or stayed
//! away past the grace, and when the ally's 20 s to answer ran out (a "no").

use super::step::{Applied, Defeat, Step};
use super::{Ending, HiddenGame};
use crate::rules::geometry::{Army, Board};

/// How the server came to play a seat (§5.5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TuoguanKind {
    /// 手动托管: asked for, and ended, by the player.
    Manual,
    /// 断线托管: the player stayed away past the grace; ends when they come back.
    Disconnect,
    /// 托管退出: the player left the game for good.
    Exit,
}

/// How a player escapes a running game (§5.5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Left the game (托管退出).
    Left,
    /// Stayed disconnected longer than the grace.
    StayedAway,
}

/// What an escape did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Escaped<B: Board> {
    /// A team's army stays on the board, played by the server; `permanent` when it can
    /// never be ended (托管退出, or a 4th 托管).
    Tuoguan { permanent: bool },
    /// The seat is defeated at once: free-for-all, or no ally left playing.
    Defeated(Applied<B>),
    /// A seat already out of play leaves freely.
    AlreadyOut,
}

/// 托管 a player may end in one game; the next one, of any kind, is for good (§5.5.2:
/// 「托管功能在游戏过程中各种托管的总使用次数为三次」).
pub const TUOGUAN_THAT_MAY_END: u8 = 3;

/// Why a 托管 request was refused. Nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TuoguanError {
    GameOver,
    NotInPlay,
    AlreadyInTuoguan,
    NotInTuoguan,
    /// 托管退出 or the 4th 托管: the server plays the seat to the end.
    Permanent,
    /// Only the ally of a seat in 断线托管 answers whether to play on.
    NoPlayOnQuestion,
}

impl std::fmt::Display for TuoguanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TuoguanError::GameOver => "the game is over",
            TuoguanError::NotInPlay => "this seat is not in play",
            TuoguanError::AlreadyInTuoguan => "the server already plays this seat",
            TuoguanError::NotInTuoguan => "the server does not play this seat",
            TuoguanError::Permanent => {
                "this 托管 cannot be ended: the seat left, or three 托管 were ended already"
            }
            TuoguanError::NoPlayOnQuestion => "no ally of this seat is in 断线托管",
        })
    }
}

impl std::error::Error for TuoguanError {}

impl<B: Board> HiddenGame<B> {
    /// Whether the server plays `seat` to the end.
    pub fn tuoguan_is_permanent(&self, seat: B::Army) -> bool {
        self.in_tuoguan(seat) && self.tuoguan_locked.as_ref()[seat.index()]
    }

    /// The kind of 托管 `seat` is in, if any.
    pub fn tuoguan_kind(&self, seat: B::Army) -> Option<TuoguanKind> {
        self.tuoguan.as_ref()[seat.index()]
    }

    /// How many 托管 `seat` has been put in so far, of every kind.
    pub fn tuoguan_count(&self, seat: B::Army) -> u8 {
        self.tuoguan_uses.as_ref()[seat.index()]
    }

    /// The server starts playing `seat`. When every seat still in play is then in
    /// 托管, the game ends as §5.5.3 says (returned); an open draw offer is looked at
    /// again, the seat no longer voting.
    pub fn start_tuoguan(
        &mut self,
        seat: B::Army,
        kind: TuoguanKind,
    ) -> Result<Option<Ending>, TuoguanError> {
        self.may_change_tuoguan(seat)?;
        if self.in_tuoguan(seat) {
            return Err(TuoguanError::AlreadyInTuoguan);
        }
        let uses = &mut self.tuoguan_uses.as_mut()[seat.index()];
        *uses = uses.saturating_add(1);
        let permanent = kind == TuoguanKind::Exit || *uses > TUOGUAN_THAT_MAY_END;
        self.tuoguan_locked.as_mut()[seat.index()] = permanent;
        self.tuoguan.as_mut()[seat.index()] = Some(kind);
        Ok(self.after_tuoguan_change())
    }

    /// The player takes `seat` back: a manual 托管 ended, or a disconnected player come
    /// back. Refused for 托管退出 and for the 4th 托管.
    pub fn end_tuoguan(&mut self, seat: B::Army) -> Result<(), TuoguanError> {
        self.may_change_tuoguan(seat)?;
        if !self.in_tuoguan(seat) {
            return Err(TuoguanError::NotInTuoguan);
        }
        if self.tuoguan_locked.as_ref()[seat.index()] {
            return Err(TuoguanError::Permanent);
        }
        self.tuoguan.as_mut()[seat.index()] = None;
        Ok(())
    }

    /// A player escapes (§5.5.1). In a team mode with an ally in play that has not
    /// left, the army stays under 托管 (退出: for good; 断线: until they come back);
    /// otherwise the seat is defeated at once.
    pub fn escape(&mut self, seat: B::Army, how: Escape) -> Result<Escaped<B>, TuoguanError> {
        if self.ending.is_some() {
            return Err(TuoguanError::GameOver);
        }
        if !self.is_in_play(seat) {
            return Ok(Escaped::AlreadyOut);
        }
        let ally_plays = B::Army::ALL.iter().any(|&a| {
            a != seat
                && self.allied(seat, a)
                && self.is_in_play(a)
                && self.tuoguan_kind(a) != Some(TuoguanKind::Exit)
        });
        if ally_plays {
            let kind = match how {
                Escape::Left => TuoguanKind::Exit,
                Escape::StayedAway => TuoguanKind::Disconnect,
            };
            if self.in_tuoguan(seat) {
                // Already played by the server: leaving makes it for good; staying away
                // changes nothing.
                if kind == TuoguanKind::Exit {
                    self.tuoguan.as_mut()[seat.index()] = Some(kind);
                    self.tuoguan_locked.as_mut()[seat.index()] = true;
                }
            } else {
                self.start_tuoguan(seat, kind)?;
            }
            return Ok(Escaped::Tuoguan {
                permanent: self.tuoguan_is_permanent(seat),
            });
        }
        // Told to viewers as a resignation whose defeat says why (`EventView` "escape").
        let mut applied = Applied::new(seat, Step::Resign);
        self.defeat_seat(seat, Defeat::Escaped, &mut applied);
        self.after_leaving_play(seat, &mut applied);
        Ok(Escaped::Defeated(applied))
    }

    /// The ally of a seat in 断线托管 answers "no" to playing on (or lets the 20 s run
    /// out): the game ends at once, their opponents winning (§5.5.1, §5.7.1).
    pub fn decline_play_on(&mut self, ally: B::Army) -> Result<Ending, TuoguanError> {
        self.may_change_tuoguan(ally)?;
        let asked = B::Army::ALL.iter().any(|&a| {
            a != ally
                && self.allied(ally, a)
                && self.is_in_play(a)
                && self.tuoguan_kind(a) == Some(TuoguanKind::Disconnect)
        });
        if !asked || self.in_tuoguan(ally) {
            return Err(TuoguanError::NoPlayOnQuestion);
        }
        let winners = B::Army::ALL
            .iter()
            .filter(|&&s| !self.allied(ally, s))
            .fold(0u8, |m, s| m | 1 << s.index());
        let ending = Ending::PlayOnDeclined { winners };
        self.ending = Some(ending);
        Ok(ending)
    }

    fn may_change_tuoguan(&self, seat: B::Army) -> Result<(), TuoguanError> {
        if self.ending.is_some() {
            Err(TuoguanError::GameOver)
        } else if !self.is_in_play(seat) {
            Err(TuoguanError::NotInPlay)
        } else {
            Ok(())
        }
    }

    /// §5.5.3 when only 托管 seats are left; else the open offer looked at again.
    fn after_tuoguan_change(&mut self) -> Option<Ending> {
        let all = B::Army::ALL;
        let in_play = || all.iter().copied().filter(|&s| self.is_in_play(s));
        if in_play().all(|s| self.in_tuoguan(s)) {
            let none_defeated = all.iter().all(|&s| self.defeat(s).is_none());
            // One alliance in play has already won (§5.4.3), so more than one is left.
            self.ending = Some(if none_defeated {
                Ending::AllInTuoguan
            } else {
                Ending::TuoguanDraw
            });
        } else {
            self.recheck_draw();
        }
        self.ending
    }
}
