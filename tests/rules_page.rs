//! `/rules`, its four-player section (RULES §5), in both languages: a board diagram
//! drawn on the server with every station and connection `/api/board?variant=siguo`
//! publishes, each station of its kind and its rail links where the board has them; a
//! route diagram whose marked stations are where the rules core lets the piece slide;
//! the score table the rules core's scoring gives; the key §5 facts stated; no inline
//! style or script (the CSP allows none); the two-player sections still there.

#[macro_use]
mod support;

use junqi::rules::hidden_game::Ending;
use junqi::rules::siguo::board::slide_reach;
use junqi::rules::siguo::scoring::{self, Facts, SeatEnd};
use junqi::rules::siguo::{Alliance, Station, StationSet};
use std::collections::{BTreeMap, BTreeSet};
use support::{Harness, TestDb};

db_tests! {
    the_rules_page_has_the_four_player_section => four_player_rules_sqlite, four_player_rules_postgres;
}

/// The `<svg>` of diagram `name`, whole.
fn svg<'a>(page: &'a str, name: &str) -> &'a str {
    let marker = format!("data-diagram=\"{name}\"");
    let at = page
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} diagram"));
    let start = page[..at].rfind("<svg").expect("the svg's tag");
    let end = at + page[at..].find("</svg>").expect("the svg's end") + "</svg>".len();
    &page[start..end]
}

/// The value of `attr` in each tag of `html` that has `marker`.
fn attrs(html: &str, marker: &str, attr: &str) -> Vec<String> {
    html.split('<')
        .filter(|tag| tag.contains(marker))
        .filter_map(|tag| {
            let key = format!(" {attr}=\"");
            let from = tag.find(&key)? + key.len();
            Some(tag[from..from + tag[from..].find('"')?].to_string())
        })
        .collect()
}

/// The text of table row `row` of the score table, its cells' contents joined by "|".
fn score_row(page: &str, row: &str) -> String {
    let at = page
        .find(&format!("data-row=\"{row}\""))
        .unwrap_or_else(|| panic!("no {row} row"));
    let end = at + page[at..].find("</tr>").unwrap();
    page[at..end]
        .split("<td")
        .skip(1)
        .map(|cell| {
            let body = &cell[cell.find('>').unwrap() + 1..];
            body[..body.find("</td>").unwrap()].to_string()
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// "+2", "−2", "0", as the page writes a score.
fn signed(v: i32) -> String {
    match v {
        v if v > 0 => format!("+{v}"),
        v if v < 0 => format!("\u{2212}{}", -v),
        _ => "0".into(),
    }
}

fn facts(alliance: Alliance, ending: Ending, steps: u32, defeated: [bool; 4]) -> Facts {
    Facts {
        alliance,
        ending,
        steps,
        seated: [true; 4],
        defeated,
        seats: [SeatEnd::default(); 4],
    }
}

async fn the_rules_page_has_the_four_player_section(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.client();
    let board = c.get("/api/board?variant=siguo").await;
    let stations = board.json["stations"].as_array().unwrap().clone();
    let edges = board.json["edges"].as_array().unwrap().clone();
    assert_eq!(stations.len(), Station::all().count());
    let names: BTreeSet<String> = (stations.iter())
        .map(|s| s["station"].as_str().unwrap().to_string())
        .collect();
    let kind_of: BTreeMap<String, String> = (stations.iter())
        .map(|s| {
            (
                s["station"].as_str().unwrap().into(),
                s["kind"].as_str().unwrap().into(),
            )
        })
        .collect();

    for (lang, en) in [("zh", false), ("en", true)] {
        let page = c.get(&format!("/rules?lang={lang}")).await;
        assert_eq!(page.status, 200, "{lang}");
        let text = &page.text;
        assert!(text.contains("id=\"siguo\""), "{lang}: the section");
        // The two-player sections and their script-drawn diagrams are still there.
        for id in [
            "board", "pieces", "flip", "score", "ranks", "fine", "standard",
        ] {
            assert!(text.contains(&format!("id=\"{id}\"")), "{lang}: {id}");
        }
        assert!(text.contains("data-diagram=\"engineer\""));
        // Nothing the CSP would block: no inline style or script in the page.
        assert!(!text.contains(" style=\""), "{lang}: an inline style");
        assert_eq!(
            text.matches("<script").count(),
            text.matches("<script type=\"module\" src=").count()
                + text.matches("<script type=\"importmap\"").count(),
            "{lang}: every script is a file or the import map"
        );

        // The board: every station once, of its kind; every connection, rail and road,
        // the four arcs among the rail.
        let b = svg(text, "siguo-board");
        let drawn: Vec<String> = attrs(b, "data-station=", "data-station");
        assert_eq!(drawn.len(), stations.len(), "{lang}: one mark per station");
        assert_eq!(drawn.iter().cloned().collect::<BTreeSet<_>>(), names);
        for (station, kind) in drawn.iter().zip(attrs(b, "data-station=", "data-kind")) {
            assert_eq!(kind_of[station], kind, "{station}");
        }
        let edge_key = |e: &serde_json::Value| {
            format!(
                "{}-{}",
                e["from"].as_str().unwrap(),
                e["to"].as_str().unwrap()
            )
        };
        let mut want: Vec<String> = (edges.iter()).map(edge_key).collect();
        let mut seen = attrs(b, "data-edge=", "data-edge");
        want.sort();
        seen.sort();
        assert_eq!(seen, want, "{lang}: every connection once");
        let rail: BTreeSet<String> = (edges.iter())
            .filter(|e| e["kind"] == "rail")
            .map(edge_key)
            .collect();
        let rails = &b[b.find("class=\"sgr-rails\"").unwrap()..];
        let rails = &rails[..rails.find("</g>").unwrap()];
        let drawn_rail: BTreeSet<String> = attrs(rails, "data-edge=", "data-edge")
            .into_iter()
            .collect();
        assert_eq!(drawn_rail, rail, "{lang}: the rail drawn as rail");
        let arcs: BTreeSet<String> = attrs(b, "data-arc=", "data-edge").into_iter().collect();
        let expected_arcs: BTreeSet<String> = ["Se6-Ea6", "Ee6-Na6", "Ne6-Wa6", "We6-Sa6"]
            .map(String::from)
            .into_iter()
            .collect();
        assert_eq!(arcs, expected_arcs, "{lang}: the arcs of RULES §5.1.2");
        // The stated counts are the board's.
        let count = if en {
            format!("<strong>{} stations</strong>", stations.len())
        } else {
            format!("<strong>{} 个棋位</strong>", stations.len())
        };
        assert!(text.contains(&count), "{lang}: {count}");

        // The route: the stations marked are exactly where the core lets a piece on Se3
        // slide on an empty board; they run round the arc and across the 九宫, never
        // onto South's front row.
        let r = svg(text, "siguo-route");
        let from: Station = "Se3".parse().unwrap();
        let reach: BTreeSet<String> = (slide_reach(from, StationSet::EMPTY).iter())
            .map(|s| s.to_string())
            .collect();
        let marked: BTreeSet<String> = attrs(r, "data-reach=", "data-station")
            .into_iter()
            .collect();
        assert_eq!(marked, reach, "{lang}");
        for s in ["Ea6", "Ea2", "XSE", "XNE", "Na2", "Se2"] {
            assert!(marked.contains(s), "{lang}: {s} reached");
        }
        for s in ["Sd6", "XS", "Eb6"] {
            assert!(!marked.contains(s), "{lang}: no turn to {s}");
        }
        assert_eq!(attrs(r, "data-from=", "data-station"), ["Se3"]);

        // The score table is the core's: u = 2 for one alliance left, nothing for the
        // winners within 40 steps.
        let south_north = Ending::Won { winners: 0b0101 };
        let beaten = [false, true, false, true];
        let won = scoring::score(&facts(Alliance::Opposite, south_north, 41, beaten)).unwrap();
        assert_eq!(
            score_row(text, "won"),
            format!("{}|{}", signed(won[0]), signed(won[1]))
        );
        let short = scoring::score(&facts(Alliance::Opposite, south_north, 40, beaten)).unwrap();
        assert_eq!(
            score_row(text, "short"),
            format!("{}|{}", signed(short[0]), signed(short[1]))
        );
        assert_eq!(
            won,
            [scoring::UNIT, -scoring::UNIT, scoring::UNIT, -scoring::UNIT]
        );
        assert_eq!(score_row(text, "draw"), "0|0");
    }

    // Key facts of §5, stated in each language.
    let zh = c.get("/rules").await.text;
    for fact in [
        "南 → 东 → 北 → 西",
        "每名玩家每局最多三次托管可以解除",
        "第 4 次起永久托管",
        "和棋需要其他所有仍在棋局中、且不在托管中的各方全部同意",
        "连续 70 步没有攻击",
        "满 40 步后才能求和或认输",
        "超时与不行动合计第 5 次时判负",
        "它的全部棋子（包括地雷和军旗）立即从棋盘上拿掉",
        "名单上的用户旁观时看到的正是这名玩家的视角",
        "三国</strong>（三人）：只有混战",
    ] {
        assert!(zh.contains(fact), "zh: {fact}");
    }
    let en = c.get("/rules?lang=en").await.text;
    for fact in [
        "South → East → North → West",
        "A player's first three 托管 in a game can be ended; a 4th, of any kind, is permanent.",
        "every other seat still in play and not in 托管 to accept",
        "70 consecutive steps without an attack",
        "Both only once 40 steps have been played",
        "The 5th timeout-or-pass defeats",
        "All its pieces leave the board at once, mines and flag included",
        "sees exactly that player's view",
        "free-for-all only",
    ] {
        assert!(en.contains(fact), "en: {fact}");
    }
    // The kinds' counts stated are the board's (RULES §5.1.1).
    let by_kind = |k: &str| stations.iter().filter(|s| s["kind"] == k).count();
    for (kind, words) in [
        ("hq", "Headquarters 大本营"),
        ("camp", "Camps 行营"),
        ("center", "九宫"),
    ] {
        let stated = format!("{words} ({})", by_kind(kind));
        assert!(en.contains(&stated), "en: {stated}");
    }
}
