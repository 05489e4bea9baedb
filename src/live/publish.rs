//! The one way out of a game task: entries that handlers produced are appended to the
//! log, the version moves on, and each entry goes to every socket cut for its viewer
//! (cut once per kind of viewer, not once per socket). States, presence and catch-up
//! are cut from the same log, so a client sees the same thing whichever way it came.

use super::messages::{Event, RematchView, ServerMsg, State, TableEvent, TallyText, What};
use super::task::{Entry, Task};
use crate::rules::game::Effect;
use crate::rules::view::{
    self, BoardDelta, EventView, PieceTally, board_delta, changes_tallies, legal_for,
    rewind_tallies, whole_board,
};
use crate::rules::{Seat, View, Viewer};
use bytestring::ByteString;

/// How many missed events a reconnecting socket is sent one by one; past this it gets
/// a fresh state instead.
pub(super) const MAX_REPLAY: usize = 200;

fn viewer_slot(viewer: Viewer) -> usize {
    match viewer {
        Viewer::Seat(s) => s.index(),
        Viewer::Spectator | Viewer::Everyone => 2,
        Viewer::Behind(s) => 3 + s.index(),
    }
}

impl Task {
    /// Appends `entries` to the log, acknowledges the command that produced them and
    /// sends each to every socket. The ack names the version of the command's own entry
    /// (the first); what followed from it (a rematch's new game) comes after.
    pub(super) fn publish(&mut self, entries: Vec<Entry>, ack: Option<(u64, Option<u64>)>) {
        let first = self.log.len();
        let own = first + usize::from(!entries.is_empty());
        self.log.extend(entries);
        if let Some((conn, Some(a))) = ack {
            self.send(conn, &ServerMsg::Ack { a, v: own });
        }
        for index in first..self.log.len() {
            self.fan_out(index);
        }
    }

    /// Appends `entries` and sends every socket a fresh state instead of events: for
    /// changes an event cannot draw (a game starting).
    pub(super) fn publish_state(&mut self, entries: Vec<Entry>) {
        self.log.extend(entries);
        for &conn in self.conns.keys() {
            self.send(conn, &self.state(conn));
        }
    }

    fn fan_out(&self, index: usize) {
        if self.conns.is_empty() {
            return;
        }
        let mut cut: [Option<ByteString>; 5] = Default::default();
        // Public, so worked out and written once for every viewer's cut.
        let tallies = self
            .carries_tallies(index)
            .then(|| TallyText::of(&self.tallies_after(index)));
        for (&conn, c) in &self.conns {
            let viewer = self.viewer(conn);
            let text = cut[viewer_slot(viewer)].get_or_insert_with(|| {
                ServerMsg::Event {
                    v: index + 1,
                    d: Box::new(self.cut(index, viewer, tallies.clone(), true)),
                }
                .frame()
            });
            c.out.push(text.clone());
        }
        // A move may carry a marked piece along or take it off the board.
        if let Some(Entry::Step(step)) = self.log.get(index)
            && matches!(step.applied.effect, Effect::Moved { .. })
        {
            for seat in Seat::BOTH {
                if self.marks.any(seat) {
                    self.send_to_seat(seat, &self.marks_msg(seat));
                }
            }
        }
    }

    /// Flip chess's tallies as they stood after entry `index`, taken back from the
    /// current ones.
    fn tallies_after(&self, index: usize) -> Vec<PieceTally> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        let mut t = view::tallies(game.position());
        for entry in self.log[index + 1..].iter().rev() {
            if let Entry::Step(step) = entry {
                rewind_tallies(&mut t, &step.applied.effect);
            }
        }
        t
    }

    /// Whether entry `index` carries the tallies: flip chess's steps that change them.
    fn carries_tallies(&self, index: usize) -> bool {
        self.variant.caps().public_tallies
            && matches!(&self.log[index], Entry::Step(step) if changes_tallies(&step.applied.effect))
    }

    /// Entry `index` as `viewer` may learn of it. `tallies` are those after it, when
    /// the caller has them at hand. Only the newest entry sent as an event carries the
    /// clock, and the legal actions for the seat to move (`live`); a state's `last`
    /// does not, so they are not computed for it.
    pub(super) fn cut(
        &self,
        index: usize,
        viewer: Viewer,
        tallies: Option<TallyText>,
        live: bool,
    ) -> Event {
        let latest = live && index + 1 == self.log.len();
        let game = self.game.as_ref();
        let mut ev = match &self.log[index] {
            Entry::Deployed { first, status } => {
                let mut ev = Event::bare(What::Table(TableEvent::Start { first: *first }));
                ev.status = Some(*status);
                ev
            }
            Entry::Step(step) => {
                let game = game.expect("steps belong to a started game");
                let variant = game.variant();
                let colours = step.status.colours.map(|c| c.0);
                let applied = &step.applied;
                let mut ev =
                    Event::bare(What::Step(EventView::of(applied, variant, colours, viewer)));
                let mut board = board_delta(applied, variant, colours, viewer);
                if applied.outcome.is_some() && variant.caps().reveal_at_end {
                    // The end of a standard game shows every piece to everyone.
                    merge(&mut board, whole_board(game, viewer));
                }
                ev.board = Some(board);
                ev.route = step.route.as_ref().map(|r| r.to_vec());
                if self.carries_tallies(index) {
                    ev.tallies =
                        Some(tallies.unwrap_or_else(|| TallyText::of(&self.tallies_after(index))));
                }
                ev.status = Some(step.status);
                ev.at_ms = Some(step.at_ms);
                ev.tuoguan = step.tuoguan;
                if applied.outcome.is_some() {
                    ev.result = self.result();
                    ev.score = Some(self.final_score());
                }
                ev
            }
            Entry::Expired { at_ms, status } => {
                let mut ev = Event::bare(What::Table(TableEvent::TimeLimit {
                    outcome: game.and_then(|g| g.outcome()),
                }));
                ev.status = Some(*status);
                ev.at_ms = Some(*at_ms);
                ev.result = self.result();
                ev.score = Some(self.final_score());
                ev
            }
            Entry::RematchOffer(seat) => {
                Event::bare(What::Table(TableEvent::RematchOffer { seat: *seat }))
            }
            Entry::Rematch(next) => {
                Event::bare(What::Table(TableEvent::Rematch { next: next.clone() }))
            }
        };
        if latest {
            ev.clock = Some(self.clock());
            if let (Viewer::Seat(seat), Some(g)) = (viewer, game)
                && seat == g.to_move()
                && !g.is_over()
            {
                let (legal, warnings) = legal_for(g, viewer);
                ev.legal = Some(legal);
                ev.repetition_warnings = Some(warnings);
            }
        }
        ev
    }

    /// The newest step (or time-limit end) as `viewer` sees it, for a state.
    fn last_step(&self, viewer: Viewer) -> Option<Box<Event>> {
        let index = self
            .log
            .iter()
            .rposition(|e| matches!(e, Entry::Step(_) | Entry::Expired { .. }))?;
        Some(Box::new(self.cut(index, viewer, None, false)))
    }

    /// The whole game as socket `conn` may see it.
    pub(super) fn state(&self, conn: u64) -> ServerMsg {
        let viewer = self.viewer(conn);
        let you = self.seat_of(conn);
        let presence = self.presence_for(conn);
        let marks = match (you, &self.game) {
            (Some(seat), Some(_)) if self.variant.caps().marks => Some(self.marks.by_square(seat)),
            _ => None,
        };
        ServerMsg::State {
            v: self.version(),
            d: Box::new(State {
                game: self.summary(),
                you,
                view: self.game.as_ref().map(|g| View::of(g, viewer)),
                clock: self.clock(),
                connected: presence.connected,
                presence,
                rematch: RematchView {
                    south: self.rematch[0],
                    north: self.rematch[1],
                    next: self.row.next_game.clone(),
                },
                deploy: self.deploy_view(conn),
                marks,
                last: self.last_step(viewer),
                result: self.result(),
            }),
        }
    }

    pub(super) fn summary(&self) -> super::summary::GameSummary {
        super::summary::GameSummary::of(&self.row, &self.creator, &self.seats)
    }

    pub(super) fn broadcast_state(&self) {
        for &conn in self.conns.keys() {
            self.send(conn, &self.state(conn));
        }
    }

    pub(super) fn marks_msg(&self, seat: Seat) -> ServerMsg {
        ServerMsg::Marks {
            d: self.marks.by_square(seat),
        }
    }

    /// A new socket gets the events it missed, or the whole state.
    pub(super) fn greet(&self, conn: u64, since: Option<u64>) {
        let v = self.version();
        // A standard game's version 1 is the end of its deployment, which only a
        // state can convey.
        let floor = usize::from(self.variant.caps().deploys() && self.game.is_some());
        match since.map(|n| n as usize) {
            // A deployment has no events: only a state shows it.
            _ if self.deploy.is_some() => self.send(conn, &self.state(conn)),
            Some(n) if n >= floor && n <= v && v - n <= MAX_REPLAY => {
                let viewer = self.viewer(conn);
                // Tallies are taken back once, from the newest entry down.
                let mut tallies: Vec<Option<TallyText>> = vec![None; v - n];
                if self.variant.caps().public_tallies
                    && let Some(game) = &self.game
                {
                    let mut t = view::tallies(game.position());
                    for i in (n..v).rev() {
                        // Written only for the entries that carry them.
                        tallies[i - n] = self.carries_tallies(i).then(|| TallyText::of(&t));
                        if let Entry::Step(step) = &self.log[i] {
                            rewind_tallies(&mut t, &step.applied.effect);
                        }
                    }
                }
                for (i, t) in (n..v).zip(tallies) {
                    let msg = ServerMsg::Event {
                        v: i + 1,
                        d: Box::new(self.cut(i, viewer, t, true)),
                    };
                    self.send(conn, &msg);
                }
            }
            _ => self.send(conn, &self.state(conn)),
        }
        if let Some(seat) = self.seat_of(conn)
            && self.variant.caps().marks
            && self.game.is_some()
        {
            self.send(conn, &self.marks_msg(seat));
        }
    }

    /// Sockets came or went: the escape clock, and a `presence` message for the other
    /// sockets when who is connected changed. The socket that just connected (`new`)
    /// is left out: its greeting is all it gets, so a client that reconnects with
    /// `?v=N` receives exactly the events it missed.
    pub(super) fn presence_changed(&mut self, new: Option<u64>) {
        self.update_away();
        let here = [self.connected(Seat::South), self.connected(Seat::North)];
        if here == self.shown_here {
            return;
        }
        self.shown_here = here;
        self.send_presence(new);
    }

    /// Who is here, as socket `conn` is told it: a player's socket with what its seat
    /// may do about 托管.
    pub(super) fn presence_for(&self, conn: u64) -> super::messages::Presence {
        let mut p = self.presence();
        p.can = self.seat_of(conn).map(|s| self.tuoguan_can(s));
        p
    }

    /// A `presence` message to every socket but `except`, cut once per seat (their
    /// `can`) and once for everyone else.
    pub(super) fn send_presence(&self, except: Option<u64>) {
        let mut cut: [Option<ByteString>; 3] = Default::default();
        for (&conn, c) in &self.conns {
            if Some(conn) == except {
                continue;
            }
            let seat = self.seat_of(conn);
            let slot = seat.map_or(2, Seat::index);
            let text = cut[slot].get_or_insert_with(|| {
                ServerMsg::Presence {
                    d: self.presence_for(conn),
                }
                .frame()
            });
            c.out.push(text.clone());
        }
    }
}

/// Lays `over` on top of `delta`, square by square.
fn merge(delta: &mut BoardDelta, over: BoardDelta) {
    for (sq, cell) in over.0 {
        match delta.0.iter_mut().find(|(s, _)| *s == sq) {
            Some(slot) => slot.1 = cell,
            None => delta.0.push((sq, cell)),
        }
    }
}
