//! What one viewer of a 四国 table is sent: the whole table as that viewer may see it,
//! cut from the viewer's sight by the rules (`HiddenGame::sight`), with the actions the
//! server would take from them now. The page draws this and holds no rule.

use super::{Phase, Table};
use crate::live::summary::PlayerRef;
use crate::rules::hidden_game::{Cell, EventView, Sight, Watcher, cell};
use crate::rules::siguo::deploy::DeployView;
use crate::rules::siguo::{FourPlayer, Seat4, SiguoOptions, Station};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct TableView {
    pub id: String,
    pub variant: &'static str,
    /// open, deploying, playing, over, or closed (cancelled or expired before the start).
    pub phase: &'static str,
    pub options: SiguoOptions,
    pub seconds_per_action: i32,
    /// The timeouts-and-passes that defeat a seat (the last one needs a confirmation).
    pub timeouts_to_lose: u8,
    pub rated: bool,
    pub creator: String,
    /// The viewer's seat, if they sit at the table.
    pub you: Option<Seat4>,
    /// For a spectator, the seat whose pieces it is let see (指定旁观, RULES §5.6).
    pub watching: Option<Seat4>,
    /// The four seats in turn order (S, E, N, W).
    pub seats: Vec<SeatCard>,
    /// The viewer's own deployment (hand and area), while it lasts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deploy: Option<DeployView>,
    /// When the clock next acts (the seat to move times out, deployment ends), ms.
    pub deadline_at: Option<i64>,
    /// Every occupied station as the viewer sees it.
    pub board: Vec<CellAt>,
    pub to_move: Option<Seat4>,
    pub steps: u32,
    pub quiet_steps: u32,
    /// The viewer's legal moves, when it is their turn.
    pub legal: Vec<(Station, Station)>,
    pub can: Can,
    /// The open draw offer: who made it and who has agreed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawView>,
    /// The last step as the viewer may see it: its route, outcome and defeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<EventView<FourPlayer>>,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The SHA-256 commitment to every layout, published when play starts; the record
    /// reveals the layouts and salt at the end, and anyone can check them (§5.3).
    pub commitment: Option<String>,
    /// 乱战: the commitment to the dealt hands, published when they are dealt.
    pub hands_commitment: Option<String>,
    /// Once the game is over: the 再来一局 offer (rematch.rs).
    pub rematch: Option<super::RematchView>,
}

#[derive(Debug, Serialize)]
pub struct CellAt {
    pub at: Station,
    #[serde(flatten)]
    pub cell: Cell<Seat4>,
}

#[derive(Debug, Serialize)]
pub struct SeatCard {
    pub seat: Seat4,
    pub player: Option<PlayerRef>,
    /// Which side of the alliance the seat is on (its own index in 混战).
    pub side: u8,
    /// Pressed ready before the start, or finished deploying.
    pub ready: bool,
    pub connected: bool,
    /// empty, seated, playing, tuoguan, defeated.
    pub state: &'static str,
    /// manual, disconnect or exit, while the server plays the seat.
    pub tuoguan: Option<&'static str>,
    pub tuoguan_count: u8,
    /// Timeouts and passes so far (the 5th defeats).
    pub timeouts: u8,
    pub defeat: Option<&'static str>,
    pub won: Option<bool>,
    pub score: Option<i32>,
    /// At the end: the row of §5.7's table that gave `score` (`win`, `loss`,
    /// `short_win`, `escaped`, `ally_left`, `declined_play_on`, …).
    pub score_row: Option<&'static str>,
}

/// What the viewer may do now; the server refuses anything else.
#[derive(Debug, Default, Serialize)]
pub struct Can {
    pub sit: bool,
    pub stand: bool,
    pub ready: bool,
    pub seat_computer: bool,
    pub deploy: bool,
    pub pass: bool,
    /// A pass now would be the 5th timeout-or-pass and defeat the seat: it needs
    /// `{"confirm": true}`.
    pub pass_defeats: bool,
    pub resign: bool,
    pub offer_draw: bool,
    pub answer_draw: bool,
    pub tuoguan: bool,
    pub end_tuoguan: bool,
    pub leave: bool,
    /// The ally of this seat is in 断线托管: play on?
    pub play_on: bool,
    /// Deploying: load one of the viewer's saved layouts into their area.
    pub load_layout: bool,
    /// Deploying: save the current arrangement (it breaks no rule).
    pub save_layout: bool,
    /// Over: ask for 再来一局 (a seated person who has not yet).
    pub rematch: bool,
    /// Over: decline the open rematch offer.
    pub decline_rematch: bool,
}

#[derive(Debug, Serialize)]
pub struct DrawView {
    pub by: Seat4,
    pub agreed: Vec<Seat4>,
}

fn defeat_name(d: crate::rules::hidden_game::Defeat) -> &'static str {
    use crate::rules::hidden_game::Defeat;
    match d {
        Defeat::FlagTaken => "flag_taken",
        Defeat::NoMoves => "no_moves",
        Defeat::Timeouts => "timeouts",
        Defeat::Resigned => "resigned",
        Defeat::Escaped => "escaped",
    }
}

pub(super) fn kind_name(k: crate::rules::hidden_game::TuoguanKind) -> &'static str {
    use crate::rules::hidden_game::TuoguanKind;
    match k {
        TuoguanKind::Manual => "manual",
        TuoguanKind::Disconnect => "disconnect",
        TuoguanKind::Exit => "exit",
    }
}

impl Table {
    /// The table as the viewer in seat `you` sees it, or a spectator let see the
    /// pieces of seat `watching` (or nobody's).
    pub(super) fn view(&self, you: Option<Seat4>, watching: Option<Seat4>) -> TableView {
        let watching = watching.filter(|_| you.is_none());
        let opts = self.options.siguo;
        let phase = match &self.phase {
            Phase::Open if self.row.status != crate::db::games::OPEN => "closed",
            Phase::Open => "open",
            Phase::Deploying(_) => "deploying",
            Phase::Playing(p) if p.game.is_over() => "over",
            Phase::Playing(_) => "playing",
        };
        let mut v = TableView {
            id: self.row.id.clone(),
            variant: "siguo",
            phase,
            options: opts,
            seconds_per_action: self.row.seconds_per_action,
            timeouts_to_lose: crate::rules::hidden_game::TIMEOUTS_TO_LOSE,
            rated: self.row.rated,
            creator: self.creator.clone(),
            you,
            watching,
            seats: Vec::with_capacity(4),
            deploy: None,
            deadline_at: None,
            board: Vec::new(),
            to_move: None,
            steps: 0,
            quiet_steps: 0,
            legal: Vec::new(),
            can: Can::default(),
            draw: None,
            last: None,
            result: None,
            reason: None,
            commitment: None,
            hands_commitment: None,
            rematch: self.rematch_view(),
        };
        let game = match &self.phase {
            Phase::Playing(p) => Some(&p.game),
            _ => None,
        };
        for seat in Seat4::ALL {
            let i = seat.index();
            let sitter = self.seats[i].as_ref();
            let mut card = SeatCard {
                seat,
                player: sitter.map(|s| PlayerRef::of(&s.info)),
                side: side_of(opts, seat),
                ready: self.ready[i],
                connected: self.connected(seat),
                state: if sitter.is_some() { "seated" } else { "empty" },
                tuoguan: None,
                tuoguan_count: 0,
                timeouts: 0,
                defeat: None,
                won: None,
                score: None,
                score_row: None,
            };
            if let Phase::Deploying(d) = &self.phase {
                card.ready = d.deployment.is_ready(seat);
            }
            if let (Some(g), Some(_)) = (game, sitter) {
                card.state = if g.defeat(seat).is_some() {
                    "defeated"
                } else if g.in_tuoguan(seat) {
                    "tuoguan"
                } else {
                    "playing"
                };
                card.tuoguan = g.tuoguan_kind(seat).map(kind_name);
                card.tuoguan_count = g.tuoguan_count(seat);
                card.timeouts = g.timeouts(seat);
                card.defeat = g.defeat(seat).map(defeat_name);
                if g.is_over() {
                    card.won = Some(g.won(seat));
                }
            }
            if let Phase::Playing(p) = &self.phase {
                card.score = p.scores.map(|s| s[i]);
                if p.game.is_over() && sitter.is_some() {
                    card.score_row = super::play::rows_of(p).map(|r| r[i].1.name());
                }
            }
            v.seats.push(card);
        }
        let seated = you.filter(|s| self.seats[s.index()].is_some());
        match &self.phase {
            Phase::Open if phase == "closed" => {}
            Phase::Open => {
                v.can.sit = true;
                // The creator keeps a seat until the table is cancelled.
                v.can.stand = seated.is_some() && !self.is_creator(you);
                v.can.ready = seated.is_some_and(|s| !self.ready[s.index()]);
                v.can.seat_computer = self.is_creator(you);
            }
            Phase::Deploying(d) => {
                v.deadline_at = Some(d.deadline);
                v.hands_commitment = d.hands.as_ref().map(|h| h.commitment.clone());
                if let Some(s) = seated {
                    v.deploy = d.deployment.view(s);
                    v.can.deploy = !d.deployment.is_ready(s);
                    v.can.load_layout = v.can.deploy;
                    v.can.save_layout = v.can.deploy && d.deployment.violations(s).is_empty();
                } else if let Some(s) = watching {
                    v.deploy = d.deployment.view(s);
                }
            }
            Phase::Playing(p) => {
                let g = &p.game;
                v.commitment = p.record.commitment.clone();
                v.hands_commitment = p.record.hands.as_ref().map(|h| h.commitment.clone());
                let sight = match (g.is_over(), seated.or(watching)) {
                    (true, _) => Sight::ALL,
                    (false, Some(s)) => g.sight(Watcher::Seat(s)),
                    (false, None) => Sight::NONE,
                };
                v.board = g
                    .position()
                    .tokens()
                    .map(|(at, t)| CellAt {
                        at,
                        cell: cell(t, sight),
                    })
                    .collect();
                v.steps = g.steps();
                v.quiet_steps = g.quiet_steps();
                v.last = p
                    .last
                    .as_ref()
                    .map(|(a, route)| EventView::of(a, route.clone(), sight));
                v.draw = g.draw_offer().map(|by| DrawView {
                    by,
                    agreed: Seat4::ALL
                        .into_iter()
                        .filter(|&s| s != by && g.has_agreed(s))
                        .collect(),
                });
                if g.is_over() {
                    if let Some(s) = seated {
                        (v.can.rematch, v.can.decline_rematch) = self.rematch_can(s);
                    }
                    v.result = crate::record::siguo::result_name(g);
                    v.reason = g
                        .ending()
                        .map(|e| crate::record::siguo::reason_name(e).to_string());
                } else {
                    v.to_move = Some(g.to_move());
                    v.deadline_at = Some(p.deadline);
                    if let Some(s) = seated {
                        self.fill_can(&mut v, s);
                    }
                }
            }
        }
        v
    }

    fn fill_can(&self, v: &mut TableView, s: Seat4) {
        let Phase::Playing(p) = &self.phase else {
            return;
        };
        let g = &p.game;
        let gated = g.steps() >= crate::rules::hidden_game::STEPS_BEFORE_RESIGN_OR_DRAW;
        let in_play = g.is_in_play(s);
        let own = in_play && !g.in_tuoguan(s);
        let turn = own && g.to_move() == s;
        if turn {
            g.for_each_move(|f, t| v.legal.push((f, t)));
            v.can.pass = true;
            v.can.pass_defeats = g.timeouts(s) + 1 >= crate::rules::hidden_game::TIMEOUTS_TO_LOSE;
        }
        v.can.resign = own && gated;
        v.can.offer_draw = own && g.may_offer_draw(s);
        v.can.answer_draw = g.votes(s) && !g.has_agreed(s);
        v.can.tuoguan = own;
        v.can.end_tuoguan = in_play && g.in_tuoguan(s) && !g.tuoguan_is_permanent(s);
        v.can.leave = in_play;
        v.can.play_on = p.play_on_due.is_some_and(|(ally, _)| ally == s);
    }
}

/// The side of the alliance `seat` is on: S+N / E+W in 对家, S+E / N+W in 并肩, and
/// every seat its own in 混战.
pub(super) fn side_of(opts: SiguoOptions, seat: Seat4) -> u8 {
    use crate::rules::siguo::Alliance;
    match opts.alliance {
        Alliance::Opposite => (seat.index() % 2) as u8,
        Alliance::Adjacent => (seat.index() / 2) as u8,
        Alliance::None => seat.index() as u8,
    }
}
