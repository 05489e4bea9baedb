//! Helpers shared by the rules tests: positions written as short strings.
#![allow(dead_code)]

use junqi::rules::{Action, Colour, Game, Options, Piece, Position, Seat, Square, Token, Variant};

pub fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// "a2 engineer red up" entries, `;`-separated.
pub fn position(spec: &str) -> Position {
    Position::from_tokens(
        spec.split(';')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| {
                let w: Vec<&str> = e.split_whitespace().collect();
                let piece: Piece = w[1].parse().unwrap();
                let colour = match w[2] {
                    "red" => Colour::Red,
                    "blue" => Colour::Blue,
                    c => panic!("colour {c}"),
                };
                let t = match w.get(3).copied().unwrap_or("up") {
                    "up" => Token::shown(piece, colour),
                    "down" => Token::hidden(piece, colour),
                    f => panic!("face {f}"),
                };
                (sq(w[0]), t)
            }),
    )
}

/// A flip game in `spec`, south red and north blue, south to move.
pub fn flip_game(spec: &str) -> Game {
    flip_game_with(spec, Options::default())
}

pub fn flip_game_with(spec: &str, options: Options) -> Game {
    Game::from_position(
        Variant::Flip,
        options,
        position(spec),
        Seat::South,
        Some([Colour::Red, Colour::Blue]),
    )
}

pub fn mv(from: &str, to: &str) -> Action {
    Action::Move {
        from: sq(from),
        to: sq(to),
    }
}

pub fn dests(game: &Game, from: &str) -> Vec<String> {
    game.destinations(sq(from))
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Plays `n` quiet steps: for the seat to move, a pseudo-random legal move onto an
/// empty station that does not lose by repetition, never moving a piece from `frozen`.
/// Panics if there is none.
pub fn walk(game: &mut Game, n: u32, frozen: &[Square]) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ game.steps() as u64;
    for _ in 0..n {
        let seat = game.to_move();
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let quiet: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| match *a {
                Action::Move { from, to } => {
                    !frozen.contains(&from)
                        && game.position().get(to).is_none()
                        && !game.would_repeat(seat, from, to)
                }
                _ => false,
            })
            .collect();
        assert!(
            !quiet.is_empty(),
            "no quiet move for {seat} at step {}: {:?} legal {legal:?}",
            game.steps(),
            game.position()
        );
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = quiet[(state % quiet.len() as u64) as usize];
        game.apply(seat, pick, None).unwrap();
        assert!(
            !game.is_over(),
            "quiet step ended the game: {:?}",
            game.outcome()
        );
    }
}

/// `walk` with nothing frozen.
pub fn quiet_steps(game: &mut Game, n: u32) {
    walk(game, n, &[]);
}
