//! The rank ladder 等级 from 小兵 to 司令 (RULES §3.2).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Rank {
    /// 0 = 小兵 … 17 = 司令.
    pub level: u8,
    pub chinese: &'static str,
    pub english: &'static str,
    /// Lowest score that holds this rank; `None` for 小兵, which has no floor.
    pub from_score: Option<i64>,
}

const LADDER: [(&str, &str, Option<i64>); 18] = [
    ("小兵", "Private", None),
    ("副班长", "Deputy Squad Leader", Some(30)),
    ("班长", "Squad Leader", Some(50)),
    ("副排长", "Deputy Platoon Leader", Some(80)),
    ("排长", "Platoon Leader", Some(150)),
    ("副连长", "Deputy Company Commander", Some(200)),
    ("连长", "Company Commander", Some(300)),
    ("副营长", "Deputy Battalion Commander", Some(500)),
    ("营长", "Battalion Commander", Some(750)),
    ("副团长", "Deputy Regiment Commander", Some(1050)),
    ("团长", "Regiment Commander", Some(1500)),
    ("副旅长", "Deputy Brigade Commander", Some(2000)),
    ("旅长", "Brigade Commander", Some(3000)),
    ("副师长", "Deputy Division Commander", Some(5000)),
    ("师长", "Division Commander", Some(7500)),
    ("副军长", "Deputy Army Commander", Some(12000)),
    ("军长", "Army Commander", Some(18000)),
    ("司令", "Commander-in-Chief", Some(25000)),
];

impl Rank {
    pub fn all() -> impl Iterator<Item = Rank> {
        (0..LADDER.len() as u8).map(Rank::at_level)
    }

    pub fn at_level(level: u8) -> Rank {
        let (chinese, english, from_score) = LADDER[level as usize];
        Rank {
            level,
            chinese,
            english,
            from_score,
        }
    }

    /// The rank a score holds. Scores may be negative; they stay 小兵.
    pub fn for_score(score: i64) -> Rank {
        let level = LADDER
            .iter()
            .rposition(|&(_, _, from)| from.is_none_or(|f| score >= f))
            .expect("小兵 holds every score");
        Rank::at_level(level as u8)
    }

    pub fn next(self) -> Option<Rank> {
        ((self.level as usize + 1) < LADDER.len()).then(|| Rank::at_level(self.level + 1))
    }

    /// Progress from this rank's floor to the next rank's, in 0.0..=1.0; 1.0 at the top.
    pub fn progress(score: i64) -> f64 {
        let r = Rank::for_score(score);
        match (
            r.from_score.unwrap_or(0),
            r.next().and_then(|n| n.from_score),
        ) {
            (_, None) => 1.0,
            (floor, Some(next)) => ((score - floor) as f64 / (next - floor) as f64).clamp(0.0, 1.0),
        }
    }
}
