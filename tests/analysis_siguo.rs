//! `POST /api/analysis/moves` with a 四国 position as one seat sees it (RULES §5.3):
//! the seat to move's moves with their routes and its pass, never an attack on an
//! ally or into a camp, and a clear 400 for a position that cannot be.

#[macro_use]
mod support;

use serde_json::{Value, json};
use support::{Harness, TestDb};

db_tests! {
    siguo_moves_are_answered => siguo_moves_are_answered_sqlite, siguo_moves_are_answered_postgres;
}

fn moves(legal: &Value) -> Vec<(String, String, Vec<String>)> {
    legal["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.get("move"))
        .map(|m| {
            let s = |v: &Value| v.as_str().unwrap().to_string();
            let route = m["route"].as_array().unwrap().iter().map(s).collect();
            (s(&m["from"]), s(&m["to"]), route)
        })
        .collect()
}

async fn siguo_moves_are_answered(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.client();

    // East to move in 对家 (East and West against South and North). East's engineer
    // stands on its front corner Ea6, its major in its headquarters.
    let board = json!({
        "Ea6": {"piece": "engineer", "seat": "east"},
        "Eb1": {"piece": "major", "seat": "east"},
        "Se6": {"seat": "south"},    // across the arc from Ea6: a foe, unseen
        "XSE": {"seat": "west"},     // in front of Ea6: an ally
        "XE":  {"seat": "north"},    // in front of Ec6: a foe
        "Eb5": {"seat": "north"},    // a foe in East's camp
    });
    let ask =
        json!({"variant": "siguo", "alliance": "opposite", "to_move": "east", "board": board});
    let r = c.post("/api/analysis/moves", ask.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let ms = moves(&r.json);
    let find = |to: &str| ms.iter().find(|(f, t, _)| f == "Ea6" && t == to);
    assert_eq!(
        find("Se6").map(|m| &m.2),
        Some(&vec!["Ea6".to_string(), "Se6".into()]),
        "the arc joins Ea6 and Se6: {ms:?}"
    );
    assert_eq!(
        find("XE").map(|m| m.2.clone()),
        Some(["Ea6", "Eb6", "Ec6", "XE"].map(String::from).to_vec()),
        "the engineer flies along the front row and turns into the 九宫"
    );
    assert!(find("XSE").is_none(), "an ally is never attacked");
    assert!(
        find("Eb5").is_none(),
        "a piece in a camp cannot be attacked"
    );
    assert!(
        find("Ee6").is_some() && find("Ea2").is_some(),
        "flights over the empty rail"
    );
    assert!(
        ms.iter().all(|(f, _, _)| f == "Ea6"),
        "the major in its headquarters stays"
    );
    for (from, to, route) in &ms {
        assert_eq!((route.first(), route.last()), (Some(from), Some(to)));
    }
    let last = r.json["legal"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last, json!({"pass": true}), "a seat may pass (§5.4.5)");

    // 混战: West is a foe too, so XSE may be attacked.
    let mut alone = ask.clone();
    alone["alliance"] = json!("none");
    let r = c.post("/api/analysis/moves", alone).await;
    assert!(
        moves(&r.json)
            .iter()
            .any(|(f, t, _)| f == "Ea6" && t == "XSE")
    );
    // 并肩 (S+E against N+W): South is now East's ally, and West a foe.
    let mut adjacent = ask.clone();
    adjacent["alliance"] = json!("adjacent");
    let r = c.post("/api/analysis/moves", adjacent).await;
    let ms = moves(&r.json);
    assert!(!ms.iter().any(|(_, t, _)| t == "Se6") && ms.iter().any(|(_, t, _)| t == "XSE"));

    // A seat with no move has no pass either: its turn defeats it (§5.4.1).
    let stuck = json!({"variant": "siguo", "to_move": "east",
        "board": {"Eb1": {"piece": "major", "seat": "east"}, "Sa1": {"seat": "south"}}});
    let r = c.post("/api/analysis/moves", stuck).await;
    assert_eq!(r.json, json!({"legal": []}));

    // Positions that cannot be asked about.
    let bad = [
        (json!({"Ea6": {"seat": "east"}}), "name them"),
        (
            json!({"Ez9": {"piece": "major", "seat": "east"}}),
            "unknown station",
        ),
        (
            json!({"Ea6": {"piece": "major", "seat": "east", "face": "up"}}),
            "unknown field",
        ),
        (
            json!({"Ea6": {"piece": "major", "seat": "middle"}}),
            "unknown variant",
        ),
        (
            json!({"Ea6": {"piece": "marshal", "seat": "east"}, "Ea5": {"piece": "marshal", "seat": "east"}}),
            "than a hand holds",
        ),
    ];
    for (board, says) in bad {
        let body = json!({"variant": "siguo", "to_move": "east", "board": board});
        let r = c.post("/api/analysis/moves", body).await;
        r.assert_error(400, "bad_request");
        assert!(r.text.contains(says), "{says:?} in {}", r.text);
    }
    // 乱战 hands may hold two marshals, but never a third flag (RULES §5.2).
    let two_marshals = json!({"variant": "siguo", "to_move": "east", "random_pieces": true,
        "board": {"Ea6": {"piece": "marshal", "seat": "east"}, "Ea5": {"piece": "marshal", "seat": "east"}}});
    assert_eq!(
        c.post("/api/analysis/moves", two_marshals).await.status,
        200
    );
    let flags: serde_json::Map<String, Value> = ["Sa1", "Sb2", "Sc1"]
        .iter()
        .map(|s| (s.to_string(), json!({"piece": "flag", "seat": "south"})))
        .chain([("Ea6".to_string(), json!({"piece": "major", "seat": "east"}))])
        .collect();
    let body =
        json!({"variant": "siguo", "to_move": "east", "random_pieces": true, "board": flags});
    c.post("/api/analysis/moves", body)
        .await
        .assert_error(400, "bad_request");
}
