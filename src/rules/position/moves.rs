//! The moves of a position: every legal move of a side, listed mover by mover, and
//! whether a side has one at all (RULES §3.4–§3.7, §5.3).

use super::{Position, Side};
use crate::rules::geometry::{Army, Board, Geometry, PlaceSet};
use crate::rules::options::{Caps, Options};
use crate::rules::piece::{Piece, Token};

impl<B: Board> Position<B> {
    /// Destinations of the piece on `from` that are legal moves or attacks for `side`.
    pub fn destinations(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        from: B::Place,
    ) -> B::Set {
        match self.get(from) {
            Some(t) => {
                let tb = B::geometry();
                let targets = self.targets(tb, caps, side);
                self.destinations_of(tb, caps, options, side, from, t, targets)
            }
            None => B::Set::EMPTY,
        }
    }

    /// What pieces of `side` may attack, as masks: `attack_refusal` worked out once
    /// for the whole position, so that move generation need not ask square by square.
    /// `no_suicide`, which depends on both ranks, is left to `destinations_of`.
    #[inline(always)]
    fn targets(&self, tb: &B::Geometry, caps: Caps, side: Side<B::Army>) -> Targets<B::Set> {
        let mut any = self.occupied & !self.of_colour(side.army) & !tb.camps() & !self.closed;
        if side.allies != 0 {
            for &army in B::Army::ALL {
                if side.allies & (1 << army.index()) != 0 {
                    any &= !self.of_colour(army);
                }
            }
        }
        if !caps.guarded_attacks {
            return Targets { any, plain: any };
        }
        any &= !self.hidden;
        // The flags, guarded while a mine of their army is on the board.
        let mut guarded = B::Set::EMPTY;
        match side.only_foe {
            Some(foe) if self.mines_left(foe) > 0 => guarded = self.of_colour(foe),
            Some(_) => {}
            None => {
                for &army in B::Army::ALL {
                    if side.is_foe(army) && self.mines_left(army) > 0 {
                        guarded |= self.of_colour(army);
                    }
                }
            }
        }
        any &= !(guarded & self.immobile & !self.mine_squares);
        Targets {
            any,
            plain: any & !self.mine_squares,
        }
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn destinations_of(
        &self,
        tb: &B::Geometry,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        from: B::Place,
        t: Token<B::Army>,
        targets: Targets<B::Set>,
    ) -> B::Set {
        let reach = self.reach_of(tb, from, t.piece);
        let targets = match t.piece {
            Piece::Engineer | Piece::Bomb => targets.any,
            _ => targets.plain,
        };
        let mut to = reach & (!self.occupied | targets);
        if options.no_suicide && caps.guarded_attacks && t.piece.rank().is_some() {
            for target in (to & self.occupied).places() {
                if self
                    .attack_refusal(caps, options, side, t, target)
                    .is_some()
                {
                    to.remove(target);
                }
            }
        }
        to
    }

    /// Calls `out` with every legal move of `side` as (from, to).
    pub fn for_each_move(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        mut out: impl FnMut(B::Place, B::Place),
    ) {
        self.for_each_mover(caps, options, side, |from, to| {
            for to in to.places() {
                out(from, to);
            }
        });
    }

    /// Calls `out` with each piece of `side` that has a legal move, and where it may
    /// go, in station order.
    #[inline]
    pub fn for_each_mover(
        &self,
        caps: Caps,
        options: &Options,
        side: Side<B::Army>,
        mut out: impl FnMut(B::Place, B::Set),
    ) {
        // `destinations_of` for every mover, with the pieces read from the masks.
        let tb = B::geometry();
        let targets = self.targets(tb, caps, side);
        let open = !self.occupied;
        let (allow_any, allow_plain) = (open | targets.any, open | targets.plain);
        let check_suicide = options.no_suicide && caps.guarded_attacks;
        let rail = tb.rail();
        if B::Geometry::NEXT_TO_BY_SHIFTS {
            let movers = if check_suicide {
                self.movers_on(tb, caps, side.army)
            } else {
                self.movers_with_moves(tb, caps, side.army, allow_any, allow_plain)
            };
            for from in movers.places() {
                // The station's bit, worked out once for three sets.
                let here = B::Set::probe(from);
                let mut reach = tb.neighbours(from);
                if rail.hits(here) {
                    reach |= self.rail_reach(tb, from, here);
                }
                let allow = if self.sappers.hits(here) {
                    allow_any
                } else {
                    allow_plain
                };
                let mut to = reach & allow;
                if check_suicide {
                    let t = self.get(from).expect("a mover stands on its square");
                    to = self.destinations_of(tb, caps, options, side, from, t, targets);
                }
                if !to.is_empty() {
                    out(from, to);
                }
            }
        } else {
            // Where `next_to` is a loop over the movers (四国), sifting them first walks
            // them twice: each mover's neighbours are tested as it comes instead (this
            // and `any_next_to` in `has_move`: 四国 self-play 3,875 → 3,599
            // instructions per action, callgrind, nearly all of it in `has_move`). The
            // two-player loop above keeps its order of work: the same steps in this
            // order cost flip and standard 10 instructions per action more.
            for from in self.movers_on(tb, caps, side.army).places() {
                let here = B::Set::probe(from);
                let mut reach = tb.neighbours(from);
                let allow = if self.sappers.hits(here) {
                    allow_any
                } else {
                    allow_plain
                };
                // No move to a neighbour, no move at all (see `movers_with_moves`).
                if (reach & allow).is_empty() {
                    continue;
                }
                if rail.hits(here) {
                    reach |= self.rail_reach(tb, from, here);
                }
                let mut to = reach & allow;
                if check_suicide {
                    let t = self.get(from).expect("a mover stands on its square");
                    to = self.destinations_of(tb, caps, options, side, from, t, targets);
                }
                if !to.is_empty() {
                    out(from, to);
                }
            }
        }
    }

    /// Where the mover on the rail station `from` (probed as `here`) flies or slides.
    #[inline(always)]
    fn rail_reach(
        &self,
        tb: &B::Geometry,
        from: B::Place,
        here: <B::Set as PlaceSet>::Probe,
    ) -> B::Set {
        if self.engineers.hits(here) {
            tb.flight_reach(from, self.occupied)
        } else {
            tb.slide_reach(from, self.occupied)
        }
    }

    /// The movers of `army` with at least one move, `no_suicide` aside. A piece that
    /// can go anywhere can go to a neighbour: a slide or flight passes an empty
    /// neighbour first, itself a destination. So a set of neighbours decides it, for
    /// all pieces at once.
    #[inline(always)]
    fn movers_with_moves(
        &self,
        tb: &B::Geometry,
        caps: Caps,
        army: B::Army,
        allow_any: B::Set,
        allow_plain: B::Set,
    ) -> B::Set {
        let movers = self.movers_on(tb, caps, army);
        let plain = tb.next_to(movers & !self.sappers, allow_plain);
        let sappers = movers & self.sappers;
        if sappers.is_empty() {
            return plain;
        }
        plain | tb.next_to(sappers, allow_any)
    }

    #[inline]
    pub fn has_move(&self, caps: Caps, options: &Options, side: Side<B::Army>) -> bool {
        let tb = B::geometry();
        let movers = self.movers_on(tb, caps, side.army);
        // A step into an empty neighbour is always legal, and most positions have one.
        if tb.any_next_to(movers, !self.occupied) {
            return true;
        }
        let targets = self.targets(tb, caps, side);
        movers.places().any(|from| {
            let t = self.get(from).expect("a mover stands on its square");
            !self
                .destinations_of(tb, caps, options, side, from, t, targets)
                .is_empty()
        })
    }
}

/// What one side's pieces may attack: `any` for engineers and bombs, `plain` for the
/// rest (which may not attack mines in flip chess).
#[derive(Clone, Copy)]
struct Targets<S> {
    any: S,
    plain: S,
}
