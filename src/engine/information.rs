//! What one seat may know of a game, and nothing more: the board and counters as
//! `rules::view` shows them to that seat, the public pool of face-down pieces (flip
//! chess), and what the events so far revealed about the opponent's hidden pieces
//! (standard 军棋). It is built from the [`View`] a seat's socket is sent and kept up
//! to date from the [`EventView`] cut for that seat and the seat's next `View`: no
//! `Game` and no `Applied` reaches it, so the engine is a viewer without a socket and
//! cannot read an identity the rules hide from its seat.

use super::beliefs::Beliefs;
use crate::rules::board::{SQUARES, Square};
use crate::rules::view::{CellView, EventKind, EventView, Face, View, Viewer};
use crate::rules::{Action, Colour, Options, Outcome, Piece, Seat, Variant};

/// Face-down or unseen pieces by colour index and `Piece as usize`.
pub type Pool = [[u8; 12]; 2];

/// One seat's information set: everything the engine may use to decide.
#[derive(Debug, Clone, PartialEq)]
pub struct Information {
    pub(super) variant: Variant,
    pub(super) options: Options,
    pub(super) seat: Seat,
    pub(super) colours: Option<[Colour; 2]>,
    pub(super) to_move: Seat,
    pub(super) steps: u32,
    pub(super) quiet_steps: u32,
    pub(super) quiet_steps_to_draw: u32,
    /// Steps after which the game is drawn, if the variant has such a limit.
    pub(super) steps_to_draw: Option<u32>,
    pub(super) steps_before_resign_or_draw: u32,
    pub(super) open_offer: Option<Seat>,
    pub(super) outcome: Option<Outcome>,
    pub(super) board: [Option<CellView>; SQUARES],
    pub(super) legal: Vec<Action>,
    pub(super) repetition_warnings: Vec<Action>,
    /// Flip chess: the face-down pieces by colour and kind (public: the tallies).
    pub(super) pool: Pool,
    /// Flip chess: mines of each colour still on the board, face down included.
    pub(super) mines_left: [u8; 2],
    /// Standard 军棋: what is known of each opponent piece.
    pub(super) beliefs: Beliefs,
    /// This seat's own moves, newest last (for steering clear of shuffling back and forth).
    pub(super) own_moves: Vec<(Square, Square)>,
}

/// The seat a view was cut for. Only a seat's view is an information set: a
/// spectator's has no legal actions, and the replay's (`Viewer::Everyone`) names
/// every hidden piece.
fn seat_of(view: &View) -> Seat {
    match view.viewer {
        Viewer::Seat(seat) => seat,
        other => panic!("the computer plays from a seat's view, not {other:?}'s"),
    }
}

impl Information {
    /// The information set of the seat `view` was cut for (`View::of(game,
    /// Viewer::Seat(seat))`, what that seat's socket is sent), in a room played with
    /// `options`. The options are the rules both seats play by and hide nothing; the
    /// search needs them to generate moves past the root (`no_suicide`). At the very
    /// start of a standard game the deployment rules also bound where the opponent's
    /// mines, bombs and flag stand.
    ///
    /// Panics if `view` is not a seat's.
    pub fn new(view: View, options: Options) -> Information {
        let seat = seat_of(&view);
        let mut info = Information {
            variant: view.variant,
            options,
            seat,
            colours: None,
            to_move: view.to_move,
            steps: 0,
            quiet_steps: 0,
            quiet_steps_to_draw: view.quiet_steps_to_draw,
            steps_to_draw: view.steps_to_draw,
            steps_before_resign_or_draw: view.steps_before_resign_or_draw,
            open_offer: None,
            outcome: None,
            board: [None; SQUARES],
            legal: Vec::new(),
            repetition_warnings: Vec::new(),
            pool: [[0; 12]; 2],
            mines_left: [0; 2],
            beliefs: Beliefs::default(),
            own_moves: Vec::new(),
        };
        info.refresh(view);
        if info.variant.caps().deploys() {
            let enemy = info.enemy_colour().expect("standard colours are fixed");
            info.beliefs = Beliefs::start(&info.board, enemy, seat.other(), info.steps == 0);
        }
        info
    }

    /// Takes in an accepted action: `event`, the action as this seat learns of it
    /// (`EventView::of(applied, …, Viewer::Seat(seat))`), then `view`, this seat's view
    /// of the game after it.
    ///
    /// Panics if `view` was cut for another viewer.
    pub fn observe(&mut self, event: &EventView, view: View) {
        assert_eq!(
            view.viewer,
            Viewer::Seat(self.seat),
            "the computer is kept up to date with its own seat's view"
        );
        if self.variant.caps().deploys()
            && let Some(enemy) = self.enemy_colour()
        {
            self.beliefs.observe(event, &self.board, enemy);
        }
        if event.seat == self.seat
            && let EventKind::Move { from, to, .. } = event.kind
        {
            self.own_moves.push((from, to));
            if self.own_moves.len() > 16 {
                self.own_moves.remove(0);
            }
        }
        self.refresh(view);
    }

    fn refresh(&mut self, view: View) {
        self.colours = view.colours.map(|c| c.0);
        self.to_move = view.to_move;
        self.steps = view.steps;
        self.quiet_steps = view.quiet_steps;
        self.open_offer = view.open_offer;
        self.outcome = view.outcome;
        self.board = [None; SQUARES];
        for (s, cell) in view.board.0 {
            self.board[s.index()] = Some(cell);
        }
        self.legal = view.legal;
        self.repetition_warnings = view.repetition_warnings;
        self.pool = [[0; 12]; 2];
        self.mines_left = [0; 2];
        for t in &view.tallies {
            self.pool[t.colour.index()][t.piece as usize] = t.down;
            if t.piece == Piece::Mine {
                self.mines_left[t.colour.index()] = t.up + t.down;
            }
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn seat(&self) -> Seat {
        self.seat
    }
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
    pub fn steps(&self) -> u32 {
        self.steps
    }
    pub fn open_offer(&self) -> Option<Seat> {
        self.open_offer
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// The flips and moves this seat may make now (empty when it is not its turn).
    pub fn legal(&self) -> &[Action] {
        &self.legal
    }
    /// The station as this seat sees it.
    pub fn cell(&self, s: Square) -> Option<CellView> {
        self.board[s.index()]
    }
    pub fn my_colour(&self) -> Option<Colour> {
        self.colours.map(|c| c[self.seat.index()])
    }
    pub fn enemy_colour(&self) -> Option<Colour> {
        self.my_colour().map(Colour::other)
    }
    /// Whether resigning and draw offers are allowed yet.
    pub fn may_resign(&self) -> bool {
        self.steps >= self.steps_before_resign_or_draw
    }
    /// Legal flips and moves that do not lose at once by repetition (all of them when
    /// every one would).
    pub fn safe_actions(&self) -> Vec<Action> {
        let safe: Vec<Action> = self
            .legal
            .iter()
            .copied()
            .filter(|a| !self.repetition_warnings.contains(a))
            .collect();
        if safe.is_empty() {
            self.legal.clone()
        } else {
            safe
        }
    }
    /// A face-up (or, standard, own) piece this seat can name on `s`.
    pub(super) fn known_piece(&self, s: Square) -> Option<(Piece, Colour)> {
        let c = self.board[s.index()]?;
        Some((c.piece?, c.colour?))
    }
    pub(super) fn face_down(&self, s: Square) -> bool {
        self.board[s.index()].is_some_and(|c| c.face == Face::Down && c.piece.is_none())
    }
}
