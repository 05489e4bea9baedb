//! Whose move it is and against whom: the moving army, its foes and its allies, as
//! the move generator reads them (RULES §5.3: never attack an ally).

use super::geometry::Army;
use super::piece::Colour;

/// The army that moves and the armies it may attack (an ally's pieces are neither
/// its own nor a target).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Side<A: Army> {
    pub army: A,
    /// Bit `i` set: army `i` is a foe.
    pub(crate) foes: u8,
    /// Armies neither its own nor foes: its allies. None in two-player games, which
    /// so find their foes' pieces with one mask operation.
    pub(crate) allies: u8,
    /// The foe when there is only one (two-player games): flip chess's flag guard then
    /// reads one count instead of looping over the armies.
    pub(crate) only_foe: Option<A>,
}

impl<A: Army> Side<A> {
    pub fn new(army: A, foes: impl IntoIterator<Item = A>) -> Side<A> {
        let foes: u8 = foes.into_iter().fold(0, |m, f| m | 1 << f.index());
        let everyone = (1u8 << A::ALL.len()) - 1;
        let allies = everyone & !foes & !(1 << army.index());
        let only_foe = A::ALL.iter().copied().find(|f| foes == 1 << f.index());
        Side {
            army,
            foes,
            allies,
            only_foe,
        }
    }

    pub fn is_foe(self, army: A) -> bool {
        self.foes & (1 << army.index()) != 0
    }
}

impl Side<Colour> {
    /// A colour of a two-player game, against the other.
    pub fn of(colour: Colour) -> Side<Colour> {
        Side {
            army: colour,
            foes: 1 << colour.other().index(),
            allies: 0,
            only_foe: Some(colour.other()),
        }
    }
}

impl From<Colour> for Side<Colour> {
    fn from(c: Colour) -> Side<Colour> {
        Side::of(c)
    }
}
