//! `GET /api/board`: the boards a page draws from, checked against RULES §2 and §5.1
//! as a drawer would read them (names, kinds, places, connections, straight lines).

#[macro_use]
mod support;

use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use support::{Harness, TestDb};

db_tests! {
    boards_are_published => boards_are_published_sqlite, boards_are_published_postgres;
}

fn count_by(items: &[Value], key: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i[key].as_str().unwrap().to_string()).or_default() += 1;
    }
    m
}

async fn boards_are_published(db: TestDb) {
    let h = Harness::start(db);
    let mut c = h.client();

    // The two-player board, whichever two-player variant is named.
    let two = c.get("/api/board").await;
    assert_eq!(two.status, 200);
    assert_eq!(two.json["stations"].as_array().unwrap().len(), 60);
    for v in ["flip", "standard"] {
        let r = c.get(&format!("/api/board?variant={v}")).await;
        assert_eq!(r.json, two.json, "{v}");
    }

    // The four-player board (RULES §5.1.1–5.1.3).
    let four = c.get("/api/board?variant=siguo").await;
    assert_eq!(four.status, 200, "{}", four.text);
    let b = &four.json;
    assert_eq!(
        (b["grid"]["width"].as_i64(), b["grid"]["height"].as_i64()),
        (Some(17), Some(17))
    );
    let stations = b["stations"].as_array().unwrap();
    assert_eq!(stations.len(), 129);
    let kinds = count_by(stations, "kind");
    let expect: BTreeMap<String, usize> = [
        ("hq", 8),
        ("camp", 20),
        ("rail", 64),
        ("road", 28),
        ("center", 9),
    ]
    .map(|(k, n)| (k.to_string(), n))
    .into();
    assert_eq!(kinds, expect);

    let mut place = BTreeMap::new();
    let mut places = HashSet::new();
    for s in stations {
        let id = s["station"].as_str().unwrap().to_string();
        let xy = (s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap());
        assert!(
            (0..17).contains(&xy.0) && (0..17).contains(&xy.1),
            "{id} at {xy:?}"
        );
        assert!(places.insert(xy), "{id} shares its place");
        // A seat's stations begin with its letter; the 九宫's belong to no seat.
        let seat = match &id[..1] {
            "S" => Some("south"),
            "E" => Some("east"),
            "N" => Some("north"),
            "W" => Some("west"),
            _ => None,
        };
        assert_eq!(s["seat"].as_str(), seat, "{id}");
        place.insert(id, xy);
    }
    // Corners and centre as §5.1.1's grid draws them.
    for (id, xy) in [
        ("Sa1", (6, 0)),
        ("Se1", (10, 0)),
        ("Ea1", (16, 6)),
        ("Na1", (10, 16)),
        ("Wa1", (0, 10)),
        ("XC", (8, 8)),
        ("XSW", (6, 6)),
        ("XNE", (10, 10)),
        ("Nd1", (7, 16)),
    ] {
        assert_eq!(place.get(id), Some(&xy), "{id}");
    }

    let edges = b["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 288);
    assert_eq!(
        count_by(edges, "kind"),
        [("rail".to_string(), 92), ("road".to_string(), 196)].into()
    );
    let mut seen = HashSet::new();
    for e in edges {
        let (from, to) = (e["from"].as_str().unwrap(), e["to"].as_str().unwrap());
        assert!(place.contains_key(from) && place.contains_key(to), "{e}");
        assert!(seen.insert((from.min(to), from.max(to))), "{e} twice");
    }
    let lines = b["rail_lines"].as_array().unwrap();
    assert_eq!(lines.len(), 18);
    for line in lines {
        for s in line.as_array().unwrap() {
            assert!(place.contains_key(s.as_str().unwrap()), "{line}");
        }
    }

    // Any other name is a clear error.
    let r = c.get("/api/board?variant=chess").await;
    r.assert_error(400, "bad_request");
    assert!(
        r.text.contains("chess") && r.text.contains("siguo"),
        "{}",
        r.text
    );
}
