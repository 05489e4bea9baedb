//! End reasons in words for the history pages, with each variant's own numbers.

use crate::rules::Variant;

/// An end reason in words; `variant` is `None` where the words must fit either variant
/// (a filter's choices). The numbers come from the variant's own table, so that each
/// variant's history says its own limits.
pub fn reason_text(variant: Option<&str>, code: &str, en: bool) -> String {
    let Some(v) = variant.and_then(Variant::from_name) else {
        let (zh, en_words) = match code {
            "timeouts" => ("超时判负", "timeouts"),
            "no_capture_limit" => ("长时间未攻击", "steps without an attack"),
            code => reason_words(code),
        };
        return if en { en_words } else { zh }.to_string();
    };
    let limits = v.limits();
    match code {
        "timeouts" => {
            let n = limits.timeouts_to_lose;
            match (v.caps().passes, en) {
                (true, false) => format!("超时或不行动{n}次"),
                (true, true) => format!("{n} timeouts or passes"),
                (false, false) => format!("超时{n}次"),
                (false, true) => format!("{n} timeouts"),
            }
        }
        "no_capture_limit" => {
            let n = limits.quiet_steps_to_draw;
            if en {
                format!("{n} steps without an attack")
            } else {
                format!("{n}步未攻击")
            }
        }
        "step_limit" if let Some(n) = limits.steps_to_draw => {
            if en {
                format!("{n} steps")
            } else {
                format!("{n}步")
            }
        }
        "time_limit" if let Some(ms) = limits.millis_to_draw => {
            let h = ms / 3_600_000;
            if en {
                format!("{h} hours")
            } else {
                format!("{h}小时")
            }
        }
        code => {
            let (zh, en_words) = reason_words(code);
            if en { en_words } else { zh }.to_string()
        }
    }
}

fn reason_words(code: &str) -> (&str, &str) {
    match code {
        "flag" => ("扛旗", "flag captured"),
        "no_moves" => ("无棋可走", "no legal action"),
        "repetition" => ("重复走棋", "repetition"),
        "resign" => ("认输", "resignation"),
        "escape" => ("逃跑", "escape"),
        "agreed" => ("议和", "draw agreed"),
        "step_limit" => ("步数上限", "step limit"),
        // 四国 tables (RULES §5.4.3, §5.5).
        "one_alliance_left" => ("一方全军覆没", "one side left"),
        "quiet_steps" => ("长时间未攻击", "steps without an attack"),
        "only_tuoguan_left" => ("只剩托管方", "only auto-play left"),
        "all_in_tuoguan" => ("四方均托管", "all four on auto-play"),
        "play_on_declined" => ("盟友不续玩", "the ally would not play on"),
        "time_limit" => ("时间上限", "time limit"),
        other => (other, other),
    }
}

#[cfg(test)]
mod tests {
    use super::reason_text;

    #[test]
    fn each_variant_says_its_own_limits() {
        assert_eq!(reason_text(Some("flip"), "timeouts", false), "超时3次");
        assert_eq!(reason_text(Some("flip"), "timeouts", true), "3 timeouts");
        assert_eq!(
            reason_text(Some("standard"), "timeouts", false),
            "超时或不行动5次"
        );
        assert_eq!(
            reason_text(Some("standard"), "timeouts", true),
            "5 timeouts or passes"
        );
        assert_eq!(
            reason_text(Some("flip"), "no_capture_limit", false),
            "80步未攻击"
        );
        assert_eq!(
            reason_text(Some("standard"), "no_capture_limit", true),
            "70 steps without an attack"
        );
        assert_eq!(reason_text(Some("flip"), "step_limit", false), "300步");
        assert_eq!(reason_text(Some("flip"), "time_limit", true), "3 hours");
        // A filter's words fit every variant.
        assert_eq!(reason_text(None, "timeouts", false), "超时判负");
        assert_eq!(reason_text(None, "flag", true), "flag captured");
    }
}
