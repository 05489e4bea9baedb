//! Whose question the thinking pool takes next. Questions are grouped by the address
//! their player plays from (each player is a group of their own while no address is
//! known), and within an address by player. A free thread takes the next question of
//! the address served least lately, of that address's player served least lately, the
//! player's oldest; a player has at most one question being thought about at a time.
//! So one address asking for many games (40 accounts at 困难 each playing three games)
//! holds the pool for one question at a time, and any other player's question is taken
//! next; among people on one address (a school's or a carrier's NAT), each player takes
//! a turn. An address or player with nothing waiting and nothing being thought about
//! is forgotten, so coming back puts it first again, as a fresh flow in fq_codel is:
//! a person asks once a move, and that is what the pool serves first.
//!
//! Only a handful of questions ever wait (one per game against the computer, and a
//! player has at most three of those), so every choice scans them all: no index to
//! keep right.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

/// Where a player's questions queue: their address, when the pool has been told it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Address(IpAddr),
    /// No address known for this player: a group of their own.
    Player(i64),
}

struct Entry<T> {
    player: i64,
    place: Place,
    item: T,
}

/// A question taken, with how many turns wait behind it (see [`super::thinkers::share`]).
#[derive(Debug)]
pub struct Taken<T> {
    pub item: T,
    pub player: i64,
    /// Questions still waiting at the question's address, and one for each other
    /// address with questions waiting: what will be served before this address's next
    /// turn, and the address's own backlog after it.
    pub behind: usize,
}

pub struct Waiting<T> {
    /// In arrival order.
    entries: VecDeque<Entry<T>>,
    /// The turn at which each address and each player was last served (a count of
    /// questions taken); absent: not lately, first in line.
    place_turn: HashMap<Place, u64>,
    player_turn: HashMap<i64, u64>,
    /// Players with a question being thought about, and where.
    busy: HashMap<i64, Place>,
    turns: u64,
}

impl<T> Default for Waiting<T> {
    fn default() -> Self {
        Waiting {
            entries: VecDeque::new(),
            place_turn: HashMap::new(),
            player_turn: HashMap::new(),
            busy: HashMap::new(),
            turns: 0,
        }
    }
}

impl<T> Waiting<T> {
    pub fn push(&mut self, player: i64, place: Place, item: T) {
        self.entries.push_back(Entry {
            player,
            place,
            item,
        });
    }

    /// Questions waiting (withdrawn ones too, until a take drops them).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The next question to think about, if one may be taken now; questions for which
    /// `wanted` says no (withdrawn by their game) are dropped on the way.
    pub fn take(&mut self, wanted: impl Fn(&T) -> bool) -> Option<Taken<T>> {
        self.entries.retain(|e| wanted(&e.item));
        fn turn_of<K: std::hash::Hash + Eq>(map: &HashMap<K, u64>, k: &K) -> u64 {
            map.get(k).copied().unwrap_or(0)
        }
        // Earliest-arrived first among equals: `min_by_key` keeps the first minimum.
        let place = self
            .entries
            .iter()
            .filter(|e| !self.busy.contains_key(&e.player))
            .min_by_key(|e| turn_of(&self.place_turn, &e.place))?
            .place;
        let at = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.place == place && !self.busy.contains_key(&e.player))
            .min_by_key(|(_, e)| turn_of(&self.player_turn, &e.player))
            .map(|(i, _)| i)?;
        let e = self.entries.remove(at)?;
        self.turns += 1;
        self.place_turn.insert(place, self.turns);
        self.player_turn.insert(e.player, self.turns);
        self.busy.insert(e.player, place);
        let mut others: Vec<Place> = Vec::new();
        let mut here = 0;
        for w in &self.entries {
            if w.place == place {
                here += 1;
            } else if !others.contains(&w.place) {
                others.push(w.place);
            }
        }
        Some(Taken {
            item: e.item,
            player: e.player,
            behind: here + others.len(),
        })
    }

    /// `player`'s question has been answered (or given up on): their next may be taken.
    pub fn done(&mut self, player: i64) {
        let Some(place) = self.busy.remove(&player) else {
            return;
        };
        if !self.entries.iter().any(|e| e.player == player) {
            self.player_turn.remove(&player);
        }
        let in_use = self.busy.values().any(|&p| p == place)
            || self.entries.iter().any(|e| e.place == place);
        if !in_use {
            self.place_turn.remove(&place);
        }
    }

    /// Addresses and players remembered: only those with questions waiting or out.
    #[cfg(test)]
    fn remembered(&self) -> (usize, usize) {
        (self.place_turn.len(), self.player_turn.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: Place = Place::Address(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 1)));
    const AWAY: Place = Place::Address(IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2)));

    fn all(_: &u32) -> bool {
        true
    }

    /// Takes the next question and answers it at once, as one thread would.
    fn serve(w: &mut Waiting<u32>) -> Option<(i64, u32)> {
        let t = w.take(all)?;
        w.done(t.player);
        Some((t.player, t.item))
    }

    #[test]
    fn another_players_question_goes_before_a_floods_backlog() {
        for other_place in [AWAY, HOME, Place::Player(2)] {
            let mut w = Waiting::default();
            for q in 0..40 {
                w.push(1, HOME, q);
            }
            // One of the flood's questions is being thought about when the other asks.
            let first = w.take(all).expect("a question");
            assert_eq!((first.player, first.item), (1, 0));
            w.push(2, other_place, 100);
            w.done(1);
            assert_eq!(
                serve(&mut w),
                Some((2, 100)),
                "the other player's question is taken next ({other_place:?})"
            );
            let rest: Vec<u32> = std::iter::from_fn(|| serve(&mut w).map(|(_, q)| q)).collect();
            assert_eq!(
                rest,
                (1..40).collect::<Vec<_>>(),
                "then the flood, in order"
            );
        }
    }

    #[test]
    fn a_player_has_one_question_out_at_a_time() {
        let mut w = Waiting::default();
        w.push(1, HOME, 1);
        w.push(1, HOME, 2);
        let one = w.take(all).expect("the first");
        assert!(
            w.take(all).is_none(),
            "a second thread does not take the same player's next question"
        );
        w.push(2, HOME, 3);
        assert_eq!(w.take(all).map(|t| t.item), Some(3), "but another player's");
        w.done(one.player);
        assert_eq!(w.take(all).map(|t| t.item), Some(2));
    }

    #[test]
    fn addresses_and_their_players_take_turns() {
        let mut w = Waiting::default();
        // Address HOME: players 1 and 2 with three questions each; AWAY: player 3.
        for q in 0..3 {
            w.push(1, HOME, 10 + q);
            w.push(2, HOME, 20 + q);
            w.push(3, AWAY, 30 + q);
        }
        let order: Vec<u32> = std::iter::from_fn(|| serve(&mut w).map(|(_, q)| q)).collect();
        assert_eq!(order, [10, 30, 20, 31, 11, 32, 21, 12, 22]);
        assert_eq!(w.remembered(), (0, 0), "nothing left to remember");
    }

    #[test]
    fn withdrawn_questions_are_dropped_and_the_share_counts_turns_ahead() {
        let mut w = Waiting::default();
        for q in 0..5 {
            w.push(1, HOME, q);
        }
        w.push(2, AWAY, 50);
        w.push(3, Place::Player(3), 60);
        // The flood's questions 1 and 2 were withdrawn by their games.
        let t = w.take(|q| *q != 1 && *q != 2).expect("a question");
        assert_eq!(t.item, 0);
        assert_eq!(
            t.behind,
            2 + 2,
            "two more at HOME, and one turn for each other place"
        );
        assert_eq!(w.len(), 4);
        w.done(1);
        let t = w.take(all).expect("the next place's");
        assert_eq!((t.item, t.behind), (50, 2), "HOME and player 3's turns");
    }
}
