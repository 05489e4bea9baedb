//! Hidden information in 四国 (RULES §5.3, §5.4.2): thousands of random games in every
//! mode, 乱战 hands among them, and after every step each seat's and a spectator's
//! board and event, as sent, checked against the truth: a piece is named only where
//! the rule book lets that viewer know it.

use junqi::rules::hidden_game::{EventView, HiddenGame, Step, Watcher};
use junqi::rules::siguo::{Alliance, FourPlayer, Seat4};
use junqi::rules::{Position, Token};
use junqi::selfplay_siguo::{Table, new_game, new_game_with};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use serde_json::Value;

type Four = HiddenGame<FourPlayer>;

const WATCHERS: [Watcher<Seat4>; 5] = [
    Watcher::Seat(Seat4::South),
    Watcher::Seat(Seat4::East),
    Watcher::Seat(Seat4::North),
    Watcher::Seat(Seat4::West),
    Watcher::Spectator,
];

/// The rule book's answer, worked out here rather than asked of the game's sight: a
/// piece shown to all, the viewer's own, an ally's under 友明 or once the viewer is
/// defeated, and every piece once the game is over.
fn may_know(g: &Four, allies_visible: bool, w: Watcher<Seat4>, t: Token<Seat4>) -> bool {
    if t.shown || g.is_over() {
        return true;
    }
    match w {
        Watcher::Spectator => false,
        Watcher::Seat(s) => {
            s == t.colour
                || (g.alliance().allied(s, t.colour) && (allies_visible || !g.is_in_play(s)))
        }
    }
}

fn check_cell(cell: &Value, truth: Token<Seat4>, known: bool, what: &str) {
    assert_eq!(cell["seat"], truth.colour.name(), "{what}: whose");
    if known {
        assert_eq!(cell["piece"], truth.piece.name(), "{what}: should be named");
    } else {
        assert!(
            cell.get("piece").is_none(),
            "{what}: names a hidden piece: {cell}"
        );
    }
}

fn check_board(g: &Four, allies_visible: bool) {
    let truth: &Position<FourPlayer> = g.position();
    for w in WATCHERS {
        let view = serde_json::to_value(g.board_view(g.sight(w))).unwrap();
        let cells = view.as_object().unwrap();
        assert_eq!(
            cells.len(),
            truth.tokens().count(),
            "{w:?}: one cell per piece"
        );
        for (at, t) in truth.tokens() {
            let known = may_know(g, allies_visible, w, t);
            check_cell(&cells[at.as_str()], t, known, &format!("{w:?} at {at}"));
        }
    }
}

/// Plays `games` random games at `table` and checks every view and event on the way;
/// returns the steps played and how often a seat was told an ally's hidden piece.
fn check_games(table: Table, random_pieces: bool, games: u32, seed: u64) -> (u64, u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut steps, mut named_for_allies) = (0u64, 0u64);
    let allies_visible = table.allies_visible;
    for _ in 0..games {
        let mut g = new_game_with(table, random_pieces, &mut rng);
        // Boards are checked in full at the start, at every defeat and at the end, and
        // at every 16th step; events at every step.
        check_board(&g, allies_visible);
        let mut k = 0;
        while !g.is_over() {
            let mut listed = Vec::new();
            g.for_each_move(|f, t| listed.push((f, t)));
            let (from, to) = *listed.choose(&mut rng).unwrap();
            let before = g.clone();
            let route = junqi::rules::view::route(before.position(), from, to);
            let seat = g.to_move();
            let applied = g.apply(seat, Step::Move { from, to }).unwrap();
            steps += 1;
            k += 1;
            for w in WATCHERS {
                // An event is cut with the sight its viewer had when the move was made.
                let ev = EventView::of(&applied, Some(route.clone()), before.sight(w));
                let ev = serde_json::to_value(ev).unwrap();
                let mover = applied.mover.unwrap();
                let known = may_know(&before, allies_visible, w, mover);
                check_cell(&ev["mover"], mover, known, &format!("{w:?} mover"));
                if let Some(t) = applied.target {
                    let known = may_know(&before, allies_visible, w, t);
                    check_cell(&ev["target"], t, known, &format!("{w:?} target"));
                    if let Watcher::Seat(s) = w
                        && known
                        && !t.shown
                        && s != t.colour
                    {
                        named_for_allies += 1;
                    }
                }
                assert_eq!(ev["route"].as_array().unwrap().len(), route.len());
            }
            if k % 16 == 0 || !applied.defeated.is_empty() || g.is_over() {
                check_board(&g, allies_visible);
            }
        }
    }
    (steps, named_for_allies)
}

/// 200 games per table, eight tables: 1,600 games, each table a test of its own so that
/// they run side by side.
fn check_table(alliance: Alliance, seats: u8, allies_visible: bool, seed: u64) {
    check_dealt_table(alliance, seats, allies_visible, false, seed);
}

/// `check_table`, the hands dealt by 乱战 when `random_pieces`.
fn check_dealt_table(
    alliance: Alliance,
    seats: u8,
    allies_visible: bool,
    random_pieces: bool,
    seed: u64,
) {
    let table = Table {
        alliance,
        seats,
        allies_visible,
    };
    let (steps, named_for_allies) = check_games(table, random_pieces, 200, seed);
    assert!(steps > 30_000, "{steps} steps checked");
    // Allies' hidden pieces reach a seat only under 友明 or after its own defeat.
    if alliance != Alliance::None && allies_visible {
        assert!(named_for_allies > 0, "友明 shows allies' pieces");
    }
    if alliance == Alliance::None {
        assert_eq!(named_for_allies, 0, "混战 has no allies to see");
    }
}

#[test]
fn views_hide_in_opposite() {
    check_table(Alliance::Opposite, 4, false, 1);
}

#[test]
fn views_hide_in_opposite_with_allies_visible() {
    check_table(Alliance::Opposite, 4, true, 2);
}

#[test]
fn views_hide_in_adjacent() {
    check_table(Alliance::Adjacent, 4, false, 3);
}

#[test]
fn views_hide_in_adjacent_with_allies_visible() {
    check_table(Alliance::Adjacent, 4, true, 4);
}

#[test]
fn views_hide_in_free_for_all() {
    check_table(Alliance::None, 4, false, 5);
}

#[test]
fn views_hide_with_three_seats() {
    check_table(Alliance::None, 3, false, 6);
}

#[test]
fn views_hide_random_pieces_with_allies_visible() {
    check_dealt_table(Alliance::Opposite, 4, true, true, 7);
}

#[test]
fn views_hide_random_pieces_in_free_for_all_with_three_seats() {
    check_dealt_table(Alliance::None, 3, false, true, 8);
}

#[test]
fn a_defeated_seat_sees_its_ally_and_never_an_enemy() {
    let mut rng = StdRng::seed_from_u64(3);
    let table = Table {
        alliance: Alliance::Opposite,
        seats: 4,
        allies_visible: false,
    };
    loop {
        let mut g = new_game(table, &mut rng);
        while !g.is_over() {
            let mut listed = Vec::new();
            g.for_each_move(|f, t| listed.push((f, t)));
            let (from, to) = *listed.choose(&mut rng).unwrap();
            let seat = g.to_move();
            g.apply(seat, Step::Move { from, to }).unwrap();
            let Some(out) = Seat4::ALL.into_iter().find(|&s| !g.is_in_play(s)) else {
                continue;
            };
            if g.is_over() {
                break;
            }
            let view = serde_json::to_value(g.board_view(g.sight(Watcher::Seat(out)))).unwrap();
            for (at, t) in g.position().tokens() {
                let named = view[at.as_str()].get("piece").is_some();
                let ally = t.colour == out.opposite();
                assert_eq!(named, ally || t.shown, "{out:?} defeated, {at}: {t:?}");
            }
            return;
        }
    }
}
