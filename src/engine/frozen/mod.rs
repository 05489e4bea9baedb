//! Frozen copies of earlier engines, kept as fixed opponents for `junqi arena`, so that
//! a change to the engine is measured against a player that does not move with it.
//! Each is a player of its own ([`super::Player`]) and decides from the same
//! [`super::Information`] the engine does: it may read the engine's information sets
//! and beliefs, but its search, evaluation and budgets are its own copies.
//!
//! - [`hard_v1`]: 困难 as it stood at commit 57c6d4f (`hard-v1`).

pub mod hard_v1;
