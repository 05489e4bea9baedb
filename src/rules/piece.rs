//! Pieces, colours, seats and what happens when two pieces meet (RULES §2).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    Marshal,
    General,
    MajorGeneral,
    Brigadier,
    Colonel,
    Major,
    Captain,
    Lieutenant,
    Engineer,
    Bomb,
    Mine,
    Flag,
}

impl Piece {
    pub const ALL: [Piece; 12] = [
        Piece::Marshal,
        Piece::General,
        Piece::MajorGeneral,
        Piece::Brigadier,
        Piece::Colonel,
        Piece::Major,
        Piece::Captain,
        Piece::Lieutenant,
        Piece::Engineer,
        Piece::Bomb,
        Piece::Mine,
        Piece::Flag,
    ];

    /// How many of this piece each colour has; 25 in all.
    pub const fn count(self) -> u8 {
        match self {
            Piece::Marshal | Piece::General | Piece::Flag => 1,
            Piece::MajorGeneral
            | Piece::Brigadier
            | Piece::Colonel
            | Piece::Major
            | Piece::Bomb => 2,
            Piece::Captain | Piece::Lieutenant | Piece::Engineer | Piece::Mine => 3,
        }
    }

    /// Military rank, 9 (marshal) down to 1 (engineer); bombs, mines and the flag have none.
    pub const fn rank(self) -> Option<u8> {
        match self {
            Piece::Marshal => Some(9),
            Piece::General => Some(8),
            Piece::MajorGeneral => Some(7),
            Piece::Brigadier => Some(6),
            Piece::Colonel => Some(5),
            Piece::Major => Some(4),
            Piece::Captain => Some(3),
            Piece::Lieutenant => Some(2),
            Piece::Engineer => Some(1),
            Piece::Bomb | Piece::Mine | Piece::Flag => None,
        }
    }

    pub const fn movable(self) -> bool {
        !matches!(self, Piece::Mine | Piece::Flag)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Piece::Marshal => "marshal",
            Piece::General => "general",
            Piece::MajorGeneral => "major_general",
            Piece::Brigadier => "brigadier",
            Piece::Colonel => "colonel",
            Piece::Major => "major",
            Piece::Captain => "captain",
            Piece::Lieutenant => "lieutenant",
            Piece::Engineer => "engineer",
            Piece::Bomb => "bomb",
            Piece::Mine => "mine",
            Piece::Flag => "flag",
        }
    }

    pub const fn chinese(self) -> &'static str {
        match self {
            Piece::Marshal => "司令",
            Piece::General => "军长",
            Piece::MajorGeneral => "师长",
            Piece::Brigadier => "旅长",
            Piece::Colonel => "团长",
            Piece::Major => "营长",
            Piece::Captain => "连长",
            Piece::Lieutenant => "排长",
            Piece::Engineer => "工兵",
            Piece::Bomb => "炸弹",
            Piece::Mine => "地雷",
            Piece::Flag => "军旗",
        }
    }

    /// The 25 pieces of one colour, strongest first.
    pub fn set() -> impl Iterator<Item = Piece> {
        Piece::ALL
            .into_iter()
            .flat_map(|p| std::iter::repeat_n(p, p.count() as usize))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPiece(pub String);

impl fmt::Display for BadPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown piece {:?}", self.0)
    }
}

impl std::error::Error for BadPiece {}

impl FromStr for Piece {
    type Err = BadPiece;
    fn from_str(s: &str) -> Result<Piece, BadPiece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| BadPiece(s.to_string()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Blue,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::Red, Colour::Blue];

    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
        }
    }
}

impl super::geometry::Army for Colour {
    type Each<T: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static> = [T; 2];
    const ALL: &'static [Colour] = &Colour::BOTH;
    fn index(self) -> usize {
        self as usize
    }
    fn each<T: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static>(
        value: T,
    ) -> [T; 2] {
        [value; 2]
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    South,
    North,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::South, Seat::North];

    pub const fn other(self) -> Seat {
        match self {
            Seat::South => Seat::North,
            Seat::North => Seat::South,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    pub const fn name(self) -> &'static str {
        match self {
            Seat::South => "south",
            Seat::North => "north",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board. `shown` means everyone may see what it is: a flipped piece in
/// flip chess, a revealed flag in standard 军棋. `colour` is its army: a colour on the
/// two-player board, a seat in 四国.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token<A = Colour> {
    pub piece: Piece,
    pub colour: A,
    pub shown: bool,
}

impl<A> Token<A> {
    pub const fn hidden(piece: Piece, colour: A) -> Token<A> {
        Token {
            piece,
            colour,
            shown: false,
        }
    }
    pub const fn shown(piece: Piece, colour: A) -> Token<A> {
        Token {
            piece,
            colour,
            shown: true,
        }
    }
}

/// What a meeting of two pieces removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combat {
    /// The defender is removed and the attacker takes its station.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
}

/// The outcome of `attacker` attacking `defender`, assuming the attack is allowed.
/// Which attacks are allowed differs per variant and is decided by the move generator.
pub const fn resolve(attacker: Piece, defender: Piece) -> Combat {
    match (attacker, defender) {
        (Piece::Bomb, _) | (_, Piece::Bomb) => Combat::BothRemoved,
        (Piece::Engineer, Piece::Mine) => Combat::AttackerWins,
        (_, Piece::Mine) => Combat::DefenderWins,
        (_, Piece::Flag) => Combat::AttackerWins,
        _ => match (attacker.rank(), defender.rank()) {
            (Some(a), Some(d)) if a > d => Combat::AttackerWins,
            (Some(a), Some(d)) if a == d => Combat::BothRemoved,
            _ => Combat::DefenderWins,
        },
    }
}
