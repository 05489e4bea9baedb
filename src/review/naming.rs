//! An action named as a person reads it, from what one seat could see at that moment:
//! "旅长 d3→d5", "翻 c4". The piece is named only when the seat's information names it
//! (its own pieces in standard 军棋, face-up ones in flip chess), so a review never
//! names a piece its side could not see.

use crate::engine::Information;
use crate::rules::{Action, Piece};

/// The piece that `action` moves, as `info`'s seat sees it; `None` for a flip, a pass,
/// or a piece the seat cannot name.
pub fn mover(info: &Information, action: Action) -> Option<Piece> {
    match action {
        Action::Move { from, .. } => info.cell(from).and_then(|c| c.piece),
        _ => None,
    }
}

/// `action` in words (Chinese, as the pages' first language writes it).
pub fn words(info: &Information, action: Action) -> String {
    match action {
        Action::Flip(at) => format!("翻 {at}"),
        Action::Move { from, to } => match mover(info, action) {
            Some(p) => format!("{} {from}→{to}", p.chinese()),
            None => format!("{from}→{to}"),
        },
        Action::Pass => "不行动".into(),
        Action::Timeout => "超时".into(),
        Action::OfferDraw => "提出和棋".into(),
        Action::AcceptDraw => "同意和棋".into(),
        Action::DeclineDraw => "拒绝和棋".into(),
        Action::Resign => "认输".into(),
        Action::Escape => "逃跑".into(),
    }
}
