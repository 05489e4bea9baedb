//! The deployment phase of a standard game in its task: each seat's layout, swaps,
//! saved and random layouts, 出征, the 120-second limit, and the start of play.

use super::blocking;
use super::messages::{DeployView, ErrorBody, ServerMsg, ViolationView};
use super::protocol::{DeployCmd, MarkCmd};
use super::task::{Entry, Task};
use crate::db::games::{self, BeginPlay};
use crate::db::{layouts, marks, now_ms};
use crate::error::AppError;
use crate::layout_file::MAX_SAVED;
use crate::record::{Setup, layout_json, parse_layout, parse_layout_text};
use crate::rules::deal::new_salt;
use crate::rules::layout::{Deployment, DeploymentError};
use crate::rules::view::{SeatPair, Status};
use crate::rules::{Layout, LayoutViolation, Seat};
use serde_json::{Value, json};

/// The stored form of a deployment in progress.
pub(super) fn to_json(d: &Deployment) -> String {
    // In the order the seats became ready: the first moves first.
    json!({
        "south": layout_json(d.layout(Seat::South)),
        "north": layout_json(d.layout(Seat::North)),
        "ready": d.ready_order(),
    })
    .to_string()
}

pub(super) fn from_json(text: &str) -> Result<Deployment, AppError> {
    let v: Value = serde_json::from_str(text).map_err(AppError::internal)?;
    let side = |seat: Seat| {
        parse_layout(&v[seat.name()])
            .map_err(|e| AppError::internal(format!("stored deployment {seat}{e}")))
    };
    let mut d = Deployment::new(side(Seat::South)?, side(Seat::North)?);
    let ready: Vec<Seat> =
        serde_json::from_value(v["ready"].clone()).map_err(AppError::internal)?;
    for seat in ready {
        d.ready(seat).map_err(AppError::internal)?;
    }
    Ok(d)
}

/// A new deployment: a fresh random layout for each seat. Never the layout a player
/// last went to battle with: the finished game's record shows that one to its
/// opponent (and to anyone), so starting from it would show them the next game's
/// layout of a player who keeps what they are given. A player who wants a layout again
/// saves it and loads it (`save_layout`, `load_layout`).
pub(super) fn initial(rng: &mut impl rand::Rng) -> Deployment {
    Deployment::new(
        Layout::random(Seat::South, rng),
        Layout::random(Seat::North, rng),
    )
}

/// Why a deployment command was refused: an `illegal` error whose `reason` (and, for a
/// layout that breaks the rules, `violations`) lets a client say it in its own words.
struct Refusal {
    reason: &'static str,
    message: String,
    violations: Vec<LayoutViolation>,
}

impl Refusal {
    fn new(reason: &'static str, message: &str) -> Refusal {
        Refusal {
            reason,
            message: message.to_string(),
            violations: Vec::new(),
        }
    }
}

impl From<DeploymentError> for Refusal {
    fn from(e: DeploymentError) -> Refusal {
        let message = e.to_string();
        match e {
            DeploymentError::AlreadyReady => Refusal::new("already_ready", &message),
            DeploymentError::NotYourPiece(_) => Refusal::new("not_your_piece", &message),
            DeploymentError::Invalid(violations) => Refusal {
                reason: "invalid_layout",
                message,
                violations,
            },
        }
    }
}

impl From<Refusal> for ErrorBody {
    fn from(r: Refusal) -> ErrorBody {
        ErrorBody {
            code: "illegal",
            message: r.message,
            reason: Some(r.reason),
            violations: (!r.violations.is_empty()).then(|| ViolationView::all(&r.violations)),
        }
    }
}

impl Task {
    fn refuse(&self, conn: u64, ack: Option<u64>, r: Refusal) {
        self.send(conn, &ServerMsg::error(r.into(), ack));
    }

    /// The deployment as `conn` may see it: its own layout, colour and what is wrong
    /// with the layout, and of the other seat only whether it is ready.
    pub(super) fn deploy_view(&self, conn: u64) -> Option<DeployView> {
        let d = self.deploy.as_ref()?;
        let seat = self.seat_of(conn);
        let remaining = self.row.deadline_at.map_or(0, |at| (at - now_ms()).max(0));
        let (layout, violations) = match seat {
            Some(s) => {
                let l = d.layout(s);
                (Some(l.0.clone()), ViolationView::all(&l.violations(s)))
            }
            None => (None, Vec::new()),
        };
        Some(DeployView {
            remaining_ms: remaining,
            seconds: self.options.deploy_seconds,
            ready: SeatPair([d.is_ready(Seat::South), d.is_ready(Seat::North)]),
            layout,
            violations,
            colour: seat.map(|s| d.colour_of(s)),
        })
    }

    fn send_deploy(&self, only: Option<Seat>) {
        for (&conn, c) in &self.conns {
            if only.is_none() || self.seat_of_user(c.user) == only {
                if let Some(d) = self.deploy_view(conn) {
                    self.send(conn, &ServerMsg::Deploy { d });
                }
            }
        }
    }

    pub(super) async fn deploy_cmd(&mut self, conn: u64, ack: Option<u64>, cmd: DeployCmd) {
        let Some((seat, user)) = self.player(conn) else {
            return self.error(
                conn,
                "not_a_player",
                "you are not playing in this game",
                ack,
            );
        };
        let Some(current) = &self.deploy else {
            let why = if self.game.is_some() {
                "deployment is over: the game is being played"
            } else {
                "there is no deployment in this game"
            };
            return self.refuse(conn, ack, Refusal::new("deployment_over", why));
        };
        let mut next = current.clone();
        let refused = Refusal::from;
        let changed = match cmd {
            DeployCmd::Swap(a, b) => next.swap(seat, a, b).map_err(refused),
            DeployCmd::Layout(l) => {
                let bad = l.violations(seat);
                if bad.is_empty() {
                    next.set_layout(seat, l).map_err(refused)
                } else {
                    Err(refused(DeploymentError::Invalid(bad)))
                }
            }
            DeployCmd::Random => next
                .set_layout(seat, Layout::random(seat, &mut rand::rng()))
                .map_err(refused),
            DeployCmd::Load(id) => {
                let found =
                    blocking(self.hub.pool(), move |c| Ok(layouts::get(c, user, id)?)).await;
                match found {
                    Ok(Some(saved)) => {
                        let l = parse_layout_text(&saved.layout)
                            .ok()
                            .map(|l| l.from_own_view(seat));
                        match l {
                            Some(l) => next.set_layout(seat, l).map_err(refused),
                            None => Err(Refusal::new(
                                "no_such_layout",
                                "that saved layout cannot be read",
                            )),
                        }
                    }
                    Ok(None) => Err(Refusal::new(
                        "no_such_layout",
                        &format!("you have no saved layout {id}"),
                    )),
                    Err(e) => {
                        tracing::error!(error = %e, "cannot read a saved layout");
                        return self.error(conn, "internal", "the layout could not be read", ack);
                    }
                }
            }
            DeployCmd::Save(name) => {
                // Only a layout that could go to battle is worth keeping, as over the API.
                let bad = current.layout(seat).violations(seat);
                if !bad.is_empty() {
                    return self.refuse(conn, ack, Refusal::from(DeploymentError::Invalid(bad)));
                }
                let text = layout_json(&current.layout(seat).to_own_view(seat)).to_string();
                let saved = blocking(self.hub.pool(), move |c| {
                    Ok(layouts::save_within(c, user, &name, &text, MAX_SAVED)?)
                })
                .await;
                return match saved {
                    Ok(layouts::SaveOutcome::Saved(_)) => self.ack(conn, ack),
                    Ok(layouts::SaveOutcome::Full) => self.refuse(
                        conn,
                        ack,
                        Refusal::new(
                            "layouts_full",
                            &format!("you already keep {MAX_SAVED} layouts; delete one first"),
                        ),
                    ),
                    Err(e) => {
                        tracing::error!(error = %e, "cannot save a layout");
                        self.error(conn, "internal", "the layout could not be saved", ack)
                    }
                };
            }
            DeployCmd::Ready => next.ready(seat).map_err(refused),
        };
        if let Err(refusal) = changed {
            return self.refuse(conn, ack, refusal);
        }
        let became_ready = next.is_ready(seat) && !current.is_ready(seat);
        if let Err(e) = self.store_deployment(next).await {
            tracing::error!(game = %self.row.id, error = %e, "cannot store the deployment");
            return self.error(
                conn,
                "internal",
                "the change could not be stored; try again",
                ack,
            );
        }
        self.ack(conn, ack);
        self.announce_deployment(seat, became_ready).await;
    }

    /// Stores a changed deployment, then adopts it.
    pub(super) async fn store_deployment(&mut self, next: Deployment) -> Result<(), AppError> {
        let text = to_json(&next);
        let id = self.row.id.clone();
        blocking(self.hub.pool(), move |c| {
            Ok(games::set_deployment(c, &id, &text)?)
        })
        .await?;
        self.deploy = Some(next);
        Ok(())
    }

    /// After `seat` changed the deployment: play begins when both are ready; a seat
    /// becoming ready is shown to everyone; any other change only to the seat itself.
    pub(super) async fn announce_deployment(&mut self, seat: Seat, became_ready: bool) {
        if self.deploy.as_ref().is_some_and(Deployment::is_done) {
            self.begin_play().await;
        } else if became_ready {
            self.send_deploy(None);
        } else {
            self.send_deploy(Some(seat));
        }
    }

    /// The deployment time is up: seats not ready keep a valid layout or get a random one.
    pub(super) async fn deployment_over(&mut self) {
        if let Some(d) = &mut self.deploy {
            d.expire(&mut rand::rng());
            self.begin_play().await;
        }
    }

    /// Both seats are ready: the layouts are committed to and stored, and play begins
    /// with the seat that was ready first.
    async fn begin_play(&mut self) {
        let Some(d) = self.deploy.clone() else {
            return;
        };
        let Some(game) = d.start(self.options) else {
            return;
        };
        let first = game.to_move();
        let setup = Setup::Layouts {
            south: d.layout(Seat::South).clone(),
            north: d.layout(Seat::North).clone(),
        };
        let salt = new_salt(&mut rand::rng());
        let commitment = setup.commitment(&salt);
        let deal = setup.to_json().to_string();
        let now = now_ms();
        let deadline = now + self.row.seconds_per_action as i64 * 1000;
        let id = self.row.id.clone();
        let (deal_s, salt_s, commitment_s) = (deal.clone(), salt.clone(), commitment.clone());
        let stored = blocking(self.hub.pool(), move |c| {
            Ok(games::begin_play(
                c,
                &id,
                &BeginPlay {
                    first_seat: first.name(),
                    deal: &deal_s,
                    salt: &salt_s,
                    commitment: &commitment_s,
                    started_at: now,
                    deadline_at: deadline,
                },
            )?)
        })
        .await;
        match stored {
            Ok(true) => {}
            Ok(false) => {
                tracing::error!(game = %self.row.id, "the game was not deploying when play began");
                return;
            }
            Err(e) => {
                // Kept in memory; the timer tries again shortly.
                tracing::error!(game = %self.row.id, error = %e, "cannot store the start of play");
                self.row.deadline_at = Some(now + 1000);
                return;
            }
        }
        self.row.first_seat = Some(first.name().to_string());
        self.row.deal = Some(deal);
        self.row.salt = Some(salt);
        self.row.commitment = Some(commitment);
        self.row.started_at = Some(now);
        self.row.deadline_at = Some(deadline);
        self.marks = super::marks::Marks::start(game.position());
        let status = Status::of(&game);
        if let Some(c) = &mut self.computer {
            c.begin(&game);
        }
        self.game = Some(game);
        self.deploy = None;
        self.publish_state(vec![Entry::Deployed { first, status }]);
    }

    pub(super) async fn mark_cmd(&mut self, conn: u64, ack: Option<u64>, cmd: MarkCmd) {
        let Some((seat, user)) = self.player(conn) else {
            return self.error(
                conn,
                "not_a_player",
                "only the players can mark pieces",
                ack,
            );
        };
        if !self.variant.caps().deploys() {
            return self.error(
                conn,
                "illegal",
                "pieces are marked only in standard 军棋",
                ack,
            );
        }
        let Some(game) = self.game.as_ref().filter(|g| !g.is_over()) else {
            return self.error(
                conn,
                "illegal",
                "pieces can be marked while the game is played",
                ack,
            );
        };
        let id = self.row.id.clone();
        let stored = match cmd {
            MarkCmd::ClearAll => {
                let r = blocking(self.hub.pool(), move |c| Ok(marks::clear(c, &id, user)?)).await;
                r.map(|_| self.marks.clear(seat))
            }
            MarkCmd::Set { at, mark } => {
                let own = game.colour_of(seat);
                let origin = match (game.position().get(at), self.marks.origin_of(at)) {
                    (Some(t), Some(o)) if Some(t.colour) != own => o,
                    (Some(_), _) => {
                        return self.error(
                            conn,
                            "illegal",
                            &format!("{at} holds one of your own pieces; mark enemy pieces"),
                            ack,
                        );
                    }
                    (None, _) => {
                        return self.error(
                            conn,
                            "illegal",
                            &format!("{at} is empty; mark an enemy piece"),
                            ack,
                        );
                    }
                };
                let (o, m) = (origin.to_string(), mark.clone());
                let r = blocking(self.hub.pool(), move |c| {
                    Ok(marks::set(c, &id, user, &o, m.as_deref())?)
                })
                .await;
                r.map(|_| self.marks.set(seat, origin, mark))
            }
        };
        if let Err(e) = stored {
            tracing::error!(game = %self.row.id, error = %e, "cannot store a mark");
            return self.error(conn, "internal", "the mark could not be stored", ack);
        }
        self.ack(conn, ack);
        self.send_to_seat(seat, &self.marks_msg(seat));
    }
}
