//! Deployment at a 四国 table (RULES §5.8): the players' swaps, whole layouts, random
//! layouts, saved layouts loaded and saved, and 出征, each stored before it is shown.
//!
//! Saved layouts are the two-player ones (`db::layouts`): an arrangement is kept in
//! the seat-relative South frame (a1 … e6, rank 1 the back row) that a 四国 seat's
//! arrangement already uses, so one saved layout fits every seat, a two-player layout
//! loads unchanged, and the deployment turns it onto the seat's own stations only at
//! the start of play. Nothing here ever tells one seat about another's pieces: the
//! answers go to the asker alone, and the table message cuts each seat's view.

use super::Table;
use super::{Deploying, Phase};
use crate::db::layouts::{self, SaveOutcome};
use crate::db::tables;
use crate::layout_file::MAX_SAVED;
use crate::live::blocking;
use crate::live::messages::ErrorBody;
use crate::live::protocol::{ClientKind, DeployCmd};
use crate::record::{layout_json, parse_layout_text};
use crate::rules::layout::Layout;
use crate::rules::siguo::hand::Hand;
use crate::rules::siguo::{DeployError, Seat4};

fn refused(e: DeployError) -> ErrorBody {
    let reason = match &e {
        DeployError::AlreadyReady(_) => "already_ready",
        DeployError::NotYourPiece(_) => "not_your_piece",
        DeployError::Invalid(_) => "invalid_layout",
        _ => "deployment_over",
    };
    ErrorBody {
        reason: Some(reason),
        ..ErrorBody::new("illegal", e.to_string())
    }
}

/// Whether `layout` holds exactly the pieces of `hand`: under 乱战 a saved layout of
/// another hand cannot be this seat's arrangement, whatever its squares.
fn fits_hand(layout: &Layout, hand: &Hand) -> bool {
    let mut counts = std::collections::BTreeMap::new();
    for p in layout.0.values() {
        *counts.entry(*p).or_insert(0u8) += 1;
    }
    let wanted: std::collections::BTreeMap<_, _> = hand.entries().filter(|&(_, n)| n > 0).collect();
    counts == wanted
}

/// Loads a saved arrangement (South frame) for `seat`: refused with `not_your_hand`
/// when its pieces are not the seat's hand, and with the rules it breaks otherwise;
/// nothing changes on a refusal.
pub(super) fn load_saved(
    dep: &mut crate::rules::siguo::Deployment4,
    seat: Seat4,
    layout: Layout,
) -> Result<(), ErrorBody> {
    let hand = *dep
        .hands()
        .get(seat)
        .ok_or_else(|| refused(DeployError::NoHand(seat)))?;
    if dep.is_ready(seat) {
        return Err(refused(DeployError::AlreadyReady(seat)));
    }
    if !fits_hand(&layout, &hand) {
        let message = if dep.options().random_pieces {
            "that saved layout's pieces are not the hand you were dealt (乱战)"
        } else {
            "that saved layout's pieces are not a standard set of 25"
        };
        return Err(ErrorBody {
            reason: Some("not_your_hand"),
            ..ErrorBody::new("not_your_hand", message)
        });
    }
    dep.set_layout(seat, layout).map_err(refused)
}

impl Table {
    pub(super) async fn deploy_command(
        &mut self,
        user: i64,
        kind: ClientKind,
    ) -> Result<(), ErrorBody> {
        let seat = self
            .seat_of_user(Some(user))
            .ok_or_else(ErrorBody::not_a_player)?;
        let ClientKind::Deploy(cmd) = kind else {
            return Err(ErrorBody::new(
                "illegal",
                "the players are deploying; play starts when all are ready",
            ));
        };
        match cmd {
            DeployCmd::Load(id) => {
                let saved = self.read_saved(user, id).await?;
                let d = self.deploying()?;
                load_saved(&mut d.deployment, seat, saved)?;
            }
            DeployCmd::Save(name) => return self.save_current(user, seat, name).await,
            cmd => {
                let dep = &mut self.deploying()?.deployment;
                match cmd {
                    DeployCmd::Swap(a, b) => dep.swap(seat, a, b).map_err(refused)?,
                    DeployCmd::Layout(l) => dep.set_layout(seat, l).map_err(refused)?,
                    DeployCmd::Random => {
                        let hand = *dep
                            .hands()
                            .get(seat)
                            .ok_or_else(|| refused(DeployError::NoHand(seat)))?;
                        let l = crate::rules::siguo::deploy::random_arrangement(
                            &hand,
                            &mut rand::rng(),
                        );
                        dep.set_layout(seat, l).map_err(refused)?
                    }
                    DeployCmd::Ready => dep.ready(seat).map_err(refused)?,
                    DeployCmd::Load(_) | DeployCmd::Save(_) => unreachable!("matched above"),
                }
            }
        }
        self.store_deployment().await;
        self.changed();
        self.begin_play_if_done().await;
        Ok(())
    }

    fn deploying(&mut self) -> Result<&mut Deploying, ErrorBody> {
        match &mut self.phase {
            Phase::Deploying(d) => Ok(d),
            _ => Err(ErrorBody {
                reason: Some("deployment_over"),
                ..ErrorBody::new("illegal", "the table is not deploying")
            }),
        }
    }

    /// One of `user`'s saved layouts, read as an arrangement.
    async fn read_saved(&self, user: i64, id: i64) -> Result<Layout, ErrorBody> {
        let found = blocking(self.hub.pool(), move |c| Ok(layouts::get(c, user, id)?))
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "cannot read a saved layout");
                ErrorBody::new("internal", "the layout could not be read")
            })?;
        let not_found = || ErrorBody {
            reason: Some("no_such_layout"),
            ..ErrorBody::new("not_found", format!("you have no saved layout {id}"))
        };
        let layout = found.ok_or_else(not_found)?;
        parse_layout_text(&layout.layout).map_err(|_| not_found())
    }

    /// Saves the seat's current arrangement under `name`, seat-relative; only one that
    /// could go to battle, as over the API. The table does not change.
    async fn save_current(
        &mut self,
        user: i64,
        seat: Seat4,
        name: String,
    ) -> Result<(), ErrorBody> {
        let dep = &self.deploying()?.deployment;
        let bad = dep.violations(seat);
        if !bad.is_empty() {
            return Err(refused(DeployError::Invalid(bad)));
        }
        let text = layout_json(dep.arrangement(seat)).to_string();
        let saved = blocking(self.hub.pool(), move |c| {
            Ok(layouts::save_within(c, user, &name, &text, MAX_SAVED)?)
        })
        .await;
        match saved {
            Ok(SaveOutcome::Saved(_)) => Ok(()),
            Ok(SaveOutcome::Full) => Err(ErrorBody {
                reason: Some("layouts_full"),
                ..ErrorBody::new(
                    "illegal",
                    format!("you already keep {MAX_SAVED} layouts; delete one first"),
                )
            }),
            Err(e) => {
                tracing::error!(error = %e, "cannot save a layout");
                Err(ErrorBody::new("internal", "the layout could not be saved"))
            }
        }
    }

    /// Stores the deployment as it is now, so that a restart finds it.
    async fn store_deployment(&mut self) {
        let Phase::Deploying(d) = &self.phase else {
            return;
        };
        let text = super::store::deployment_json(d);
        let id = self.row.id.clone();
        if let Err(e) = blocking(self.hub.pool(), move |c| {
            Ok(tables::set_deployment(c, &id, &text)?)
        })
        .await
        {
            tracing::error!(table = %self.row.id, error = %e, "cannot store a deployment");
        }
    }
}
