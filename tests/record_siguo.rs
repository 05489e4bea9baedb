//! 四国 records (`junqi-record/1`, variant `siguo`): random games in every mode are
//! written, read back and replayed to their verdicts, by the library and by the real
//! `junqi verify`; layouts are committed; a tampered record is refused with the field
//! or action that is wrong.

use junqi::record::siguo::{commitment, result_name};
use junqi::record::{AnyRecord, AnyVerdict, SiguoAction, SiguoRecord, SiguoTable};
use junqi::rules::Options;
use junqi::rules::deal::new_salt;
use junqi::rules::hidden_game::{Escape, HiddenGame, Step};
use junqi::rules::siguo::scoring::{Facts, SeatEnd, score};
use junqi::rules::siguo::{Alliance, Deployment4, FourPlayer, HandDeal, Seat4, Station};
use junqi::selfplay_siguo::{Table, new_game};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use std::process::Command;

type Four = HiddenGame<FourPlayer>;

fn tables() -> Vec<Table> {
    let t = |alliance, seats, allies_visible| Table {
        alliance,
        seats,
        allies_visible,
    };
    vec![
        t(Alliance::Opposite, 4, false),
        t(Alliance::Adjacent, 4, false),
        t(Alliance::None, 4, false),
        t(Alliance::None, 3, false),
        t(Alliance::Opposite, 4, true),
    ]
}

fn record_table(t: Table, random_pieces: bool) -> SiguoTable {
    SiguoTable {
        seated: t.seated().to_vec(),
        options: t.options(random_pieces),
    }
}

/// A new game at `t`; under 乱战 dealt from a committed deal, which is returned too.
fn start(t: Table, random_pieces: bool, rng: &mut StdRng) -> (Four, Option<HandDeal>) {
    if !random_pieces {
        return (new_game(t, rng), None);
    }
    let deal = HandDeal::random(t.seated(), rng);
    let mut d = Deployment4::new(t.options(true), t.seated(), deal.hands, rng).unwrap();
    for &s in t.seated() {
        d.ready(s).unwrap();
    }
    (d.start(Options::default(), rng).unwrap(), Some(deal))
}

/// A random game played to its end, and its record (committed, result claimed). Now
/// and then a seat passes, or offers a draw that is declined, so that every kind of
/// action is written.
fn played(t: Table, random_pieces: bool, rng: &mut StdRng) -> (Four, SiguoRecord) {
    let (mut g, deal) = start(t, random_pieces, rng);
    let mut rec = SiguoRecord::begin(&g, record_table(t, random_pieces), deal);
    let salt = new_salt(rng);
    rec.commitment = Some(commitment(g.position(), &salt));
    rec.salt = Some(salt);
    while !g.is_over() {
        let seat = g.to_move();
        let mut moves: Vec<(Station, Station)> = Vec::new();
        g.for_each_move(|f, to| moves.push((f, to)));
        let roll = rng.random_range(0..40);
        if roll == 1 && g.steps() >= 40 && g.draw_offer().is_none() {
            // An offer, declined by the first voter; the seat then steps as usual.
            g.apply(seat, Step::OfferDraw).unwrap();
            rec.actions.push((seat, SiguoAction::Step(Step::OfferDraw)));
            let voter = Seat4::ALL
                .into_iter()
                .find(|&s| g.votes(s))
                .expect("someone votes");
            g.apply(voter, Step::DeclineDraw).unwrap();
            rec.actions
                .push((voter, SiguoAction::Step(Step::DeclineDraw)));
        }
        let step = if roll == 0 {
            Step::Pass
        } else {
            let (from, to) = moves[rng.random_range(0..moves.len())];
            Step::Move { from, to }
        };
        g.apply(seat, step).unwrap();
        rec.actions.push((seat, SiguoAction::Step(step)));
    }
    rec.claimed = Some(junqi::record::Claimed {
        result: Some(result_name(&g)),
        reason: Some(
            g.ending()
                .map(|e| junqi::record::siguo::reason_name(e).to_string()),
        ),
    });
    (g, rec)
}

fn verdict(text: &str) -> Result<Value, String> {
    match AnyRecord::parse_str(text).and_then(|r| r.verify()) {
        Ok(AnyVerdict::Siguo(v)) => Ok(v.to_json()),
        Ok(AnyVerdict::TwoPlayer(_)) => Err("read as a two-player record".into()),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn random_games_in_every_mode_replay_to_their_verdicts() {
    let mut rng = StdRng::seed_from_u64(19);
    for (t, random_pieces) in tables().into_iter().flat_map(|t| [(t, false), (t, true)]) {
        for _ in 0..8 {
            let (g, rec) = played(t, random_pieces, &mut rng);
            let text = rec.to_json().to_string();
            let back = match AnyRecord::parse_str(&text).unwrap() {
                AnyRecord::Siguo(r) => r,
                other => panic!("read back as {other:?}"),
            };
            assert_eq!(back, rec, "the record reads back as written");
            let v = verdict(&text).unwrap();
            assert_eq!(v["valid"], true);
            assert_eq!(v["commitment_checked"], true);
            assert_eq!(v["steps"], g.steps());
            assert_eq!(v["result"], json!(result_name(&g)));
            for s in t.seated() {
                let defeated = v["defeated"][s.name()].clone();
                assert_eq!(defeated.is_null(), g.defeat(*s).is_none(), "{s}");
            }
            // The verdict scores the game as the rules' table does (nobody escaped).
            let seated = Seat4::ALL.map(|s| t.seated().contains(&s));
            let f = Facts::of(&g, [SeatEnd::default(); 4], seated).unwrap();
            let expected = score(&f).map(|sc| {
                t.seated()
                    .iter()
                    .map(|s| (s.name().to_string(), json!(sc[s.index()])))
                    .collect::<serde_json::Map<_, _>>()
            });
            assert_eq!(v["score"], json!(expected));
        }
    }
}

#[test]
fn a_tampered_record_is_refused_with_what_is_wrong() {
    let mut rng = StdRng::seed_from_u64(5);
    let (_, rec) = played(tables()[0], false, &mut rng);
    let good = rec.to_json();

    // Two different pieces of the second rank swapped (still a legal layout): the
    // commitment no longer holds.
    let mut bad = good.clone();
    let south = bad["layouts"]["south"].as_object_mut().unwrap();
    let rank2 = ["a2", "b2", "c2", "d2", "e2"];
    let (a, b) = rank2
        .iter()
        .flat_map(|&a| rank2.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| south[a] != south[b])
        .expect("the second rank holds two kinds of piece");
    let (pa, pb) = (south[a].clone(), south[b].clone());
    south[a] = pb;
    south[b] = pa;
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("commitment does not match"), "{e}");

    // An action moved to the wrong seat: refused at that action, naming it.
    let mut bad = good.clone();
    let first = bad["actions"][0]["seat"].as_str().unwrap().to_string();
    let other = Seat4::ALL.into_iter().find(|s| s.name() != first).unwrap();
    bad["actions"][0]["seat"] = json!(other.name());
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.starts_with("action 0: "), "{e}");

    // A result the replay does not give.
    let mut bad = good.clone();
    bad["result"] = json!("south+west");
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(
        e.contains("the record says the result is south+west"),
        "{e}"
    );

    // Names the board does not have, and a table the rules do not allow.
    let mut bad = good.clone();
    bad["actions"][0] = json!({"seat": first, "move": {"from": "Sz9", "to": "Sa2"}});
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("unknown station \"Sz9\""), "{e}");
    let mut bad = good.clone();
    bad["seats"] = json!(["south", "east", "north"]);
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("三国"), "{e}");
    let mut bad = good.clone();
    bad["first"] = json!("centre");
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("unknown seat"), "{e}");

    // A layout that breaks the deployment rules (a flag outside the HQs).
    let mut bad = good;
    let east = bad["layouts"]["east"].as_object_mut().unwrap();
    let flag_at = east
        .iter()
        .find(|(_, p)| p.as_str() == Some("flag"))
        .map(|(k, _)| k.clone())
        .unwrap();
    east[&flag_at] = east["a1"].clone();
    east["a1"] = json!("flag");
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.starts_with("layouts.east: "), "{e}");
}

#[test]
fn escapes_and_tuoguan_are_replayed_and_scored() {
    let mut rng = StdRng::seed_from_u64(21);
    let t = tables()[0];
    let mut g = new_game(t, &mut rng);
    let mut rec = SiguoRecord::begin(&g, record_table(t, false), None);
    // East leaves at once: its ally West plays on, so East stays under 托管 for good.
    let to_play = |g: &Four| {
        let mut m = None;
        g.for_each_move(|f, t| {
            m.get_or_insert((f, t));
        });
        m.unwrap()
    };
    g.escape(Seat4::East, Escape::Left).unwrap();
    rec.actions
        .push((Seat4::East, SiguoAction::Escape(Escape::Left)));
    // West stays away too: no ally left playing, so West is defeated; South and North
    // still need to beat East's army, which the server plays.
    g.escape(Seat4::West, Escape::StayedAway).unwrap();
    rec.actions
        .push((Seat4::West, SiguoAction::Escape(Escape::StayedAway)));
    assert!(g.defeat(Seat4::West).is_some());
    for _ in 0..3 {
        let seat = g.to_move();
        let (from, to) = to_play(&g);
        g.apply(seat, Step::Move { from, to }).unwrap();
        rec.actions
            .push((seat, SiguoAction::Step(Step::Move { from, to })));
    }
    let v = verdict(&rec.to_json().to_string()).unwrap();
    assert_eq!(v["defeated"]["west"], "escaped");
    assert_eq!(v["defeated"]["east"], Value::Null);
    assert_eq!(v["result"], Value::Null, "the game goes on");
    assert_eq!(v["commitment_checked"], false, "no salt, nothing to check");

    // A 托管 that cannot be ended is refused on replay, at that action.
    let mut bad = rec.to_json();
    bad["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"seat": "east", "end_tuoguan": true}));
    let e = verdict(&bad.to_string()).unwrap_err();
    let n = rec.actions.len();
    assert!(
        e.starts_with(&format!("action {n}: east end of 托管: ")),
        "{e}"
    );
}

#[test]
fn junqi_verify_reads_a_four_player_record() {
    let mut rng = StdRng::seed_from_u64(8);
    let (g, rec) = played(tables()[2], true, &mut rng);
    let path = std::env::temp_dir().join(format!("junqi-siguo-{}.json", std::process::id()));
    std::fs::write(&path, rec.to_json().to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_junqi"))
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0));
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["variant"], "siguo");
    assert_eq!(line["result"], json!(result_name(&g)));
    assert_eq!(line["steps"], g.steps());
}

#[test]
fn a_random_pieces_record_carries_its_committed_hands() {
    let mut rng = StdRng::seed_from_u64(17);
    let (_, rec) = played(tables()[0], true, &mut rng);
    let good = rec.to_json();
    assert!(verdict(&good.to_string()).is_ok());

    // A piece moved from one hand to another after the deal (every hand still 25):
    // the hands' commitment no longer holds.
    let mut bad = good.clone();
    let hands = bad["hands"].as_object_mut().unwrap();
    let kinds = |h: &Value| -> Vec<String> { h.as_object().unwrap().keys().cloned().collect() };
    let (south, east) = (kinds(&hands["south"]), kinds(&hands["east"]));
    let (x, y) = south
        .iter()
        .flat_map(|x| east.iter().map(move |y| (x, y)))
        .find(|(x, y)| x != y)
        .unwrap();
    for (seat, give, take) in [("south", x, y), ("east", y, x)] {
        let h = hands[seat].as_object_mut().unwrap();
        let n = h[give.as_str()].as_u64().unwrap();
        if n == 1 {
            h.remove(give.as_str());
        } else {
            h[give.as_str()] = json!(n - 1);
        }
        let m = h.get(take.as_str()).and_then(Value::as_u64).unwrap_or(0);
        h.insert(take.clone(), json!(m + 1));
    }
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("the hands' commitment does not match"), "{e}");

    // Hands without 乱战, and 乱战 without hands.
    let mut bad = good.clone();
    bad["options"]["random_pieces"] = json!(false);
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("乱战 records only"), "{e}");
    let mut bad = good;
    bad.as_object_mut().unwrap().remove("hands");
    let e = verdict(&bad.to_string()).unwrap_err();
    assert!(e.contains("needs the hands"), "{e}");
}
