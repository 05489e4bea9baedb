//! 四国's own per-room options (RULES §5.2, §5.8), beside the clock and grace of
//! `rules::Options` that every variant shares. Every field has its default, so `{}` is
//! a complete value.

use super::alliance::Alliance;
use serde::{Deserialize, Serialize};

/// Who makes the first move (option `first_mover`, §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstMover {
    /// The seat that finished deployment first (「最先完成布局的人先走棋」 [000]).
    #[default]
    FirstDeployed,
    /// A seat drawn at random ([003]).
    Random,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SiguoOptions {
    pub alliance: Alliance,
    /// 友明: allies see each other's pieces once play starts (never during deployment).
    pub allies_visible: bool,
    /// 乱战: the seated players' sets are shuffled together and dealt as hands.
    pub random_pieces: bool,
    pub first_mover: FirstMover,
    /// 炸弹满天飞: bombs may stand on the front row.
    pub bombs_on_front_row: bool,
}
