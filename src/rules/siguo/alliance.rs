//! Who fights whom at a 四国 table (RULES §5.2): the alliance modes.

use super::station::Seat4;
use crate::rules::geometry::Army;
use crate::rules::position::Side;

/// The option `alliance`: 对家 (opposite seats together, the default), 并肩 (S+E against
/// N+W: seats 1–2 and 3–4 in turn order) or 混战 (everyone alone).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Alliance {
    #[default]
    Opposite,
    Adjacent,
    None,
}

impl Alliance {
    pub const ALL: [Alliance; 3] = [Alliance::Opposite, Alliance::Adjacent, Alliance::None];
    /// Their names, as the options and the history's `?alliance=` spell them.
    pub const NAMES: [&'static str; 3] = [
        Alliance::Opposite.name(),
        Alliance::Adjacent.name(),
        Alliance::None.name(),
    ];

    /// The option's value as serialised (serde's snake_case of the variant).
    pub const fn name(self) -> &'static str {
        match self {
            Alliance::Opposite => "opposite",
            Alliance::Adjacent => "adjacent",
            Alliance::None => "none",
        }
    }

    pub fn from_name(name: &str) -> Option<Alliance> {
        Alliance::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether two different seats are on one side.
    pub const fn allied(self, a: Seat4, b: Seat4) -> bool {
        self.allied_indices(a.index(), b.index())
    }

    /// `allied` for seats by their turn-order index, which is how the game (generic
    /// over its seats) asks. Two-player games play `None`.
    pub const fn allied_indices(self, a: usize, b: usize) -> bool {
        match self {
            Alliance::Opposite => a % 2 == b % 2,
            Alliance::Adjacent => a / 2 == b / 2,
            Alliance::None => false,
        }
    }

    /// `seat` as the move generator sees it: every other seat not allied to it is a
    /// foe. Any army type: the two-player game's colours play `None`.
    pub fn side<A: Army>(self, seat: A) -> Side<A> {
        Side::new(
            seat,
            A::ALL
                .iter()
                .copied()
                .filter(move |&o| o != seat && !self.allied_indices(seat.index(), o.index())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat4::*;

    #[test]
    fn names_are_the_serialised_values() {
        for a in Alliance::ALL {
            assert_eq!(serde_json::to_value(a).unwrap(), a.name());
            assert_eq!(Alliance::from_name(a.name()), Some(a));
        }
        assert_eq!(Alliance::from_name("duijia"), None);
    }

    #[test]
    fn the_three_modes_of_section_5_2() {
        assert!(Alliance::Opposite.allied(South, North) && Alliance::Opposite.allied(East, West));
        assert!(!Alliance::Opposite.allied(South, East));
        assert!(Alliance::Adjacent.allied(South, East) && Alliance::Adjacent.allied(North, West));
        assert!(!Alliance::Adjacent.allied(East, North));
        for a in Seat4::ALL {
            for b in Seat4::ALL {
                assert!(!Alliance::None.allied(a, b) || a == b);
            }
        }
        let side = Alliance::Opposite.side(West);
        assert!(side.is_foe(South) && side.is_foe(North) && !side.is_foe(East));
    }
}
