//! `POST /api/analysis/evaluate`: a position as the seat to move sees it, judged by the
//! engine — the best actions first with their values; bad input is a 400 that names
//! the problem; each client is throttled.

mod support;

use junqi::rules::{Colour, Piece};
use serde_json::{Value, json};
use std::time::Duration;
use support::{Backend, Client, Harness, TestDb};

/// Flip chess, South (red) to move: a red general beside a blue colonel, both face up,
/// four pieces face down, and every other piece removed.
fn free_colonel() -> Value {
    let on_board = [
        (Piece::General, Colour::Red),
        (Piece::Colonel, Colour::Blue),
        (Piece::Mine, Colour::Red),
        (Piece::Flag, Colour::Red),
        (Piece::Mine, Colour::Blue),
        (Piece::Flag, Colour::Blue),
    ];
    let mut removed = Vec::new();
    for colour in Colour::BOTH {
        for piece in Piece::ALL {
            let here = on_board
                .iter()
                .filter(|&&(p, c)| p == piece && c == colour)
                .count() as u8;
            for _ in here..piece.count() {
                removed.push(json!({"piece": piece, "colour": colour}));
            }
        }
    }
    json!({
        "variant": "flip",
        "to_move": "south",
        "colours": {"south": "red", "north": "blue"},
        "board": {
            "c6": {"piece": "general", "colour": "red", "face": "up"},
            "c7": {"piece": "colonel", "colour": "blue", "face": "up"},
            "a1": {"face": "down"}, "e1": {"face": "down"},
            "a12": {"face": "down"}, "e12": {"face": "down"}
        },
        "removed": removed,
    })
}

async fn evaluate(c: &mut Client, body: Value) -> support::Resp {
    c.post("/api/analysis/evaluate", body).await
}

#[actix_web::test]
async fn evaluates_positions_and_names_bad_ones() {
    let db = TestDb::new(Backend::Sqlite).unwrap();
    let h = Harness::start(db);
    let mut c = h.client();

    let r = evaluate(&mut c, free_colonel()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let best = r.json["best"].as_array().unwrap();
    assert_eq!(
        best[0]["action"],
        json!({"move": {"from": "c6", "to": "c7"}}),
        "takes the free colonel: {}",
        r.text
    );
    assert!(best.len() <= 5, "the top five by default");
    assert_eq!(r.json["value"], best[0]["value"]);
    assert!(r.json["value"].as_i64().unwrap() > 10, "{}", r.text);
    let values: Vec<i64> = best.iter().map(|b| b["value"].as_i64().unwrap()).collect();
    assert!(
        values.windows(2).all(|w| w[0] >= w[1]),
        "best first: {values:?}"
    );

    // Every action when asked for.
    let mut all = free_colonel();
    all["top"] = json!(100);
    let r = evaluate(&mut c, all).await;
    let mut legal = free_colonel();
    legal.as_object_mut().unwrap().remove("top");
    let moves = c.post("/api/analysis/moves", legal).await;
    assert_eq!(
        r.json["best"].as_array().unwrap().len(),
        moves.json["legal"].as_array().unwrap().len(),
        "one value for each legal action"
    );

    // Standard 军棋, as South sees it: North's pieces hidden, its own named.
    let standard = json!({
        "variant": "standard", "to_move": "south",
        "board": {
            "c5": {"piece": "marshal", "colour": "red", "face": "down"},
            "b1": {"piece": "flag", "colour": "red", "face": "down"},
            "c8": {"colour": "blue", "face": "down"},
            "d12": {"colour": "blue", "face": "down"}
        }
    });
    let r = evaluate(&mut c, standard).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(!r.json["best"].as_array().unwrap().is_empty(), "{}", r.text);

    // Malformed: not JSON, a field no position has.
    let r = c
        .post_raw(
            "/api/analysis/evaluate",
            "application/json",
            b"{\"variant\": ".to_vec(),
        )
        .await;
    r.assert_error(400, "bad_request");
    let mut odd = free_colonel();
    odd["colour_of_sky"] = json!("blue");
    let r = evaluate(&mut c, odd).await;
    r.assert_error(400, "bad_request");
    assert!(r.text.contains("colour_of_sky"), "{}", r.text);

    // Illegal positions: a second general, a square off the board, counts that do not
    // add up, a 四国 position.
    let mut two = free_colonel();
    two["board"]["a6"] = json!({"piece": "general", "colour": "red", "face": "up"});
    let r = evaluate(&mut c, two).await;
    r.assert_error(400, "bad_request");
    assert!(r.text.contains("general"), "{}", r.text);
    let mut off = free_colonel();
    off["board"]["z9"] = json!({"face": "down"});
    evaluate(&mut c, off).await.assert_error(400, "bad_request");
    let mut unaccounted = free_colonel();
    unaccounted.as_object_mut().unwrap().remove("removed");
    let r = evaluate(&mut c, unaccounted).await;
    r.assert_error(400, "bad_request");
    assert!(r.text.contains("removed"), "{}", r.text);
    let r = evaluate(
        &mut c,
        json!({"variant": "siguo", "to_move": "east", "board": {}}),
    )
    .await;
    r.assert_error(400, "bad_request");
    let mut top = free_colonel();
    top["top"] = json!(0);
    evaluate(&mut c, top).await.assert_error(400, "bad_request");
    assert!(!h.log().contains("panicked"), "{}", h.log());
}

#[actix_web::test]
async fn each_client_is_throttled() {
    let db = TestDb::new(Backend::Sqlite).unwrap();
    let h = Harness::start_with_flags(db, &["--frozen-rate-clock"]);
    let mut anon = h.client();
    for i in 0..10 {
        let r = evaluate(&mut anon, free_colonel()).await;
        assert_eq!(r.status, 200, "evaluation {i}: {}", r.text);
    }
    let r = evaluate(&mut anon, free_colonel()).await;
    r.assert_error(429, "rate_limited");
    assert_eq!(r.retry_after.as_deref(), Some("3"));
    // A refused request is refused before any work, bad or good.
    evaluate(&mut anon, json!({}))
        .await
        .assert_error(429, "rate_limited");
    // A player has an allowance of their own.
    let mut player = h.player("ev_erin").await;
    assert_eq!(evaluate(&mut player, free_colonel()).await.status, 200);
    support::advance_rate_clock(&h.base(), Duration::from_secs(3)).await;
    assert_eq!(evaluate(&mut anon, free_colonel()).await.status, 200);
    evaluate(&mut anon, free_colonel())
        .await
        .assert_error(429, "rate_limited");
}
