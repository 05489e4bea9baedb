//! The transposition table: what the search learnt of a position (its value as an
//! exact value or a bound, how deep it looked, its best move), found again by key when
//! another order of the same steps reaches it. One table per thinking thread, reused
//! from one decision to the next and told apart by a generation, so a decision pays
//! neither an allocation nor a clearing; nothing learnt in one decision is used by
//! the next (a game's decisions stay independent of what the thread thought before).

use crate::rules::board::Square;
use std::cell::RefCell;

/// What a stored value says of the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (it failed low).
    Upper,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: i16,
    depth: i8,
    bound: u8,
    best: u16,
    generation: u16,
}

/// A move packed into 12 bits: from and to station indices.
pub fn pack(from: Square, to: Square) -> u16 {
    1 << 15 | (from.index() as u16) << 6 | to.index() as u16
}

/// What the table holds for a key.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub value: i32,
    pub depth: i32,
    pub bound: Bound,
    /// A packed move (see [`pack`]), or 0.
    pub best: u16,
}

pub struct Table {
    slots: Vec<Slot>,
    generation: u16,
}

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            slots: vec![Slot::default(); 1 << bits],
            generation: 0,
        }
    }

    fn index(&self, key: u64) -> usize {
        (key >> 7) as usize & (self.slots.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Found> {
        let s = self.slots[self.index(key)];
        (s.generation == self.generation && s.key == key).then_some(Found {
            value: s.value as i32,
            depth: s.depth as i32,
            bound: match s.bound {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: s.best,
        })
    }

    /// Stores what a search of `depth` found, replacing an older generation's slot or
    /// a shallower look at any position.
    pub fn store(&mut self, key: u64, value: i32, depth: i32, bound: Bound, best: u16) {
        let i = self.index(key);
        let s = &mut self.slots[i];
        if s.generation == self.generation && s.key != key && s.depth as i32 > depth {
            return;
        }
        *s = Slot {
            key,
            value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, i8::MAX as i32) as i8,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            best: if best == 0 && s.key == key {
                s.best
            } else {
                best
            },
            generation: self.generation,
        };
    }
}

impl Table {
    /// Forgets everything stored so far.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: slots stamped long ago could pass for new ones.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }
}

/// Slots per thread: 2^18 of 16 bytes, 4 MiB. A 困难 decision visits up to about a
/// million nodes, most of them quiescence leaves that are not stored.
const BITS: u32 = 18;

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's table, emptied (a new generation) for one decision.
pub fn with_table<T>(f: impl FnOnce(&mut Table) -> T) -> T {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let table = t.get_or_insert_with(|| Table::new(BITS));
        table.next_generation();
        f(table)
    })
}
