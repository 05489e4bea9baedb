//! The repetition rule's memory (RULES §3.11): each seat's own last 8 steps.

use crate::rules::board::Square;

/// A step that is not a move (flip, timeout, pass) in the window.
pub(super) const NO_MOVE: u16 = u16::MAX;
const WINDOW: usize = 8;

pub(super) fn move_code(from: Square, to: Square) -> u16 {
    (from.index() as u16) << 6 | to.index() as u16
}

/// One seat's last 8 steps as move codes, oldest overwritten first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RecentMoves {
    codes: [u16; WINDOW],
    next: u8,
}

impl RecentMoves {
    pub(super) const fn new() -> RecentMoves {
        RecentMoves {
            codes: [NO_MOVE; WINDOW],
            next: 0,
        }
    }

    /// Whether making the move `code` now would be its 4th time within the window,
    /// which then holds the 7 latest steps and this one.
    pub(super) fn would_repeat(&self, code: u16) -> bool {
        let oldest = self.next as usize;
        let earlier = self
            .codes
            .iter()
            .enumerate()
            .filter(|&(i, &c)| i != oldest && c == code)
            .count();
        earlier + 1 >= 4
    }

    pub(super) fn push(&mut self, code: u16) {
        self.codes[self.next as usize] = code;
        self.next = ((self.next as usize + 1) % WINDOW) as u8;
    }
}
