//! Keys for hashing search positions (Zobrist): one random word per station and token
//! (kind, colour, face), per pool count, and for the side to move. A position's key is
//! the exclusive-or of the words of what it holds, so a step updates it with the few
//! words of what changed. The words come from a fixed generator, so a key (and with it
//! every search) is the same on every run and machine.

use crate::rules::board::{SQUARES, Square};
use crate::rules::{Colour, Token};

const TOKENS: usize = 2 * 12 * 2;
/// The most face-down pieces of one kind and colour a pool can hold.
const POOL_MAX: usize = 6;

struct Keys {
    token: [[u64; TOKENS]; SQUARES],
    pool: [[[u64; POOL_MAX]; 12]; 2],
    blue_to_move: u64,
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const KEYS: Keys = {
    let mut seed = 0x6A75_6E71_6921u64;
    let mut token = [[0u64; TOKENS]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut t = 0;
        while t < TOKENS {
            token[s][t] = splitmix(&mut seed);
            t += 1;
        }
        s += 1;
    }
    let mut pool = [[[0u64; POOL_MAX]; 12]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 12 {
            let mut n = 0;
            while n < POOL_MAX {
                pool[c][k][n] = splitmix(&mut seed);
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    Keys {
        token,
        pool,
        blue_to_move: splitmix(&mut seed),
    }
};

/// The word of `token` standing on `s`.
pub fn token(s: Square, t: Token) -> u64 {
    let i = (t.colour.index() * 12 + t.piece as usize) * 2 + usize::from(t.shown);
    KEYS.token[s.index()][i]
}

/// The word of `n` face-down pieces of kind `kind` and colour `c` (none for 0).
pub fn pool(c: Colour, kind: usize, n: u8) -> u64 {
    match n as usize {
        0 => 0,
        n => KEYS.pool[c.index()][kind][(n - 1).min(POOL_MAX - 1)],
    }
}

/// The word of the side to move.
pub fn to_move(c: Colour) -> u64 {
    match c {
        Colour::Red => 0,
        Colour::Blue => KEYS.blue_to_move,
    }
}
