//! Runs the real `junqi verify` binary on records (`junqi-record/1`) and checks its one
//! line of JSON and its exit code: 0 valid, 1 invalid, 2 when the input cannot be read.
//!
//! Records come from seeded random self-play (`junqi::selfplay`), from games stepped
//! here by hand, and from small hand-written records over a "sorted" deal whose squares
//! are known (red's 25 pieces strongest first on the South half a1, b1, c1, …, blue's on
//! the North half), so that each error can be aimed at one named action.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use junqi::record::Record;
use junqi::rules::board::{self, non_camp_squares};
use junqi::rules::{Action, Colour, Deal, Game, Piece, Seat, StationKind, Variant};
use junqi::selfplay::{new_game, random_game};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Three hours in milliseconds (RULES §3.10).
const THREE_HOURS_MS: u64 = 3 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------
// Running the binary

/// What one run of `junqi verify` printed and returned.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    line: Value,
}

impl Run {
    fn from_output(out: std::process::Output) -> Run {
        let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let code = out.status.code().expect("junqi exited normally");
        assert!(
            stdout.ends_with('\n') && stdout.lines().count() == 1,
            "verify prints exactly one line, got {stdout:?} (stderr {stderr:?})"
        );
        let line: Value = serde_json::from_str(stdout.trim_end())
            .unwrap_or_else(|e| panic!("verify prints JSON: {e}: {stdout:?}"));
        assert!(line.is_object(), "the verdict is a JSON object: {stdout}");
        Run {
            code,
            stdout,
            stderr,
            line,
        }
    }

    /// Asserts exit 0 and `valid: true`; returns the verdict line.
    fn valid(&self) -> &Value {
        assert_eq!(
            self.line["valid"],
            json!(true),
            "expected a valid record: {} (stderr {:?})",
            self.stdout.trim_end(),
            self.stderr
        );
        assert_eq!(self.code, 0, "a valid record exits 0: {}", self.stdout);
        &self.line
    }

    /// Asserts exit 1, `valid: false`, the `action` index, and that `error` contains
    /// every one of `words`. Returns the error text.
    fn invalid(&self, action: Option<usize>, words: &[&str]) -> String {
        assert_eq!(
            self.line["valid"],
            json!(false),
            "expected an invalid record: {}",
            self.stdout.trim_end()
        );
        assert_eq!(self.code, 1, "an invalid record exits 1: {}", self.stdout);
        assert_eq!(
            self.line["action"],
            json!(action),
            "the action index of {}",
            self.stdout.trim_end()
        );
        let error = self.line["error"]
            .as_str()
            .unwrap_or_else(|| panic!("an invalid verdict carries an error: {}", self.stdout))
            .to_string();
        for w in words {
            assert!(
                error.contains(w),
                "the error should mention {w:?}: {error:?}"
            );
        }
        error
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_junqi"))
}

static FILES: AtomicUsize = AtomicUsize::new(0);

/// Writes `text` to a fresh file under the temp directory, runs `junqi verify FILE`,
/// and removes the file.
fn verify_text(text: &str) -> Run {
    let n = FILES.fetch_add(1, Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("junqi-verify-cli-{}-{n}.json", std::process::id()));
    std::fs::write(&path, text).expect("write the temporary record");
    let out = bin().arg("verify").arg(&path).output();
    let _ = std::fs::remove_file(&path);
    Run::from_output(out.expect("run junqi verify"))
}

fn verify(record: &Value) -> Run {
    verify_text(&record.to_string())
}

/// Runs `junqi verify -` with `text` on standard input.
fn verify_stdin(text: &str) -> Run {
    let mut child = bin()
        .args(["verify", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn junqi verify -");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(text.as_bytes())
        .expect("write the record to stdin");
    Run::from_output(child.wait_with_output().expect("wait for junqi verify -"))
}

fn verify_path(path: &Path) -> Run {
    Run::from_output(
        bin()
            .arg("verify")
            .arg(path)
            .output()
            .expect("run junqi verify"),
    )
}

// ---------------------------------------------------------------------------------------
// Records

/// A finished random flip-chess game and its record.
fn random_flip(seed: u64) -> (Game, Record) {
    random_game(Variant::Flip, &mut StdRng::seed_from_u64(seed))
}

/// Steps a new flip game (random flips and moves) until `steps` steps are played, or
/// returns `None` if it ends first.
fn flip_after(seed: u64, steps: u32) -> Option<(Game, Record)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut game, mut record) = new_game(Variant::Flip, &mut rng);
    let mut legal = Vec::new();
    while game.steps() < steps {
        if game.is_over() {
            return None;
        }
        legal.clear();
        game.legal_actions(&mut legal);
        let action = legal[rng.random_range(0..legal.len())];
        let seat = game.to_move();
        game.apply(seat, action, None)
            .expect("a listed legal action is accepted");
        record.actions.push((seat, action));
    }
    (!game.is_over()).then_some((game, record))
}

/// The first seed from 1 on whose game is still running after `steps` steps.
fn running_flip(steps: u32) -> (Game, Record) {
    (1..200)
        .find_map(|seed| flip_after(seed, steps))
        .expect("some random flip game lasts that long")
}

/// Applies `action` both to the in-process game and to the record.
fn play(game: &mut Game, record: &mut Record, seat: Seat, action: Action) {
    game.apply(seat, action, None)
        .unwrap_or_else(|e| panic!("{seat} {action:?} is accepted in process: {e}"));
    record.actions.push((seat, action));
}

fn result_of(game: &Game) -> Value {
    match game.outcome() {
        None => Value::Null,
        Some(o) => match o.winner {
            Some(s) => json!(s.name()),
            None => json!("draw"),
        },
    }
}

fn reason_of(game: &Game) -> Value {
    game.outcome()
        .map_or(Value::Null, |o| json!(o.reason.name()))
}

/// Checks result, reason, steps, colours and score of a verdict against the game
/// played in process, and the whole line against the in-process `Record::verify`.
fn assert_verdict_matches(line: &Value, game: &Game, record: &Record) {
    assert_eq!(line["result"], result_of(game), "result of {line}");
    assert_eq!(line["reason"], reason_of(game), "reason of {line}");
    assert_eq!(line["steps"], json!(game.steps()), "steps of {line}");
    let colours = game.colours().map_or(
        Value::Null,
        |c| json!({"south": c[0].name(), "north": c[1].name()}),
    );
    assert_eq!(line["colours"], colours, "colours of {line}");
    let score = game
        .score(record.base)
        .map_or(Value::Null, |s| json!({"south": s[0], "north": s[1]}));
    assert_eq!(line["score"], score, "score of {line}");
    let in_process = record.verify().expect("the record verifies in process");
    assert_eq!(
        *line,
        in_process.to_json(),
        "CLI and in-process verdicts agree"
    );
}

fn to_value(record: &Record) -> Value {
    record.to_json()
}

fn deal_of(record: &mut Value) -> &mut Map<String, Value> {
    record["deal"]
        .as_object_mut()
        .expect("a flip record has a deal")
}

/// The "sorted" deal: red's set strongest first on the 25 South stations in square
/// order, blue's the same on the North half. a1 red marshal, b1 red general, c1 red
/// major_general, d1 red major_general, e1 red brigadier, a2 red brigadier, …
fn sorted_deal() -> Deal {
    let pieces = Colour::BOTH
        .into_iter()
        .flat_map(|c| Piece::set().map(move |p| (p, c)));
    Deal::from_entries(non_camp_squares().zip(pieces).map(|(s, (p, c))| (s, p, c)))
        .expect("the sorted deal is a full set")
}

const SALT: &str = "5a17";

/// A hand-written flip record over the sorted deal, South first, base 1.
fn hand_record(actions: Value) -> Value {
    let deal = sorted_deal();
    let mut d = Map::new();
    for (s, (p, c)) in deal.entries() {
        d.insert(
            s.to_string(),
            json!({"piece": p.name(), "colour": c.name()}),
        );
    }
    json!({
        "format": "junqi-record/1",
        "variant": "flip",
        "ruleset": "qq",
        "options": {},
        "base": 1,
        "first": "south",
        "deal": d,
        "salt": SALT,
        "commitment": deal.commitment(SALT),
        "actions": actions,
    })
}

/// `n` alternating flips, South first, over the sorted deal's squares in order
/// (a1, b1, c1, …), with `at_ms` 0, 1000, 2000, ….
fn flips(n: usize) -> (Vec<Value>, Vec<u64>) {
    let actions = non_camp_squares()
        .take(n)
        .enumerate()
        .map(|(i, s)| {
            let seat = if i % 2 == 0 { "south" } else { "north" };
            json!({"seat": seat, "flip": s.to_string()})
        })
        .collect();
    (actions, (0..n as u64).map(|i| i * 1000).collect())
}

/// SHA-256 over the deal as the format spells it, computed here from the JSON alone.
fn commitment_by_hand(deal: &Map<String, Value>, salt: &str) -> String {
    let mut entries = Vec::new();
    for rank in 1..=12 {
        for file in ['a', 'b', 'c', 'd', 'e'] {
            let sq = format!("{file}{rank}");
            if let Some(e) = deal.get(&sq) {
                entries.push(format!(
                    "{sq}:{}:{}",
                    e["piece"].as_str().expect("piece name"),
                    e["colour"].as_str().expect("colour name")
                ));
            }
        }
    }
    let text = format!("{}|{salt}", entries.join(";"));
    hex::encode(Sha256::digest(text.as_bytes()))
}

// ---------------------------------------------------------------------------------------
// Valid records

#[test]
fn random_flip_records_verify_as_played() {
    for seed in 1..=6 {
        let (game, record) = random_flip(seed);
        assert!(game.is_over(), "a random game is played out");
        let run = verify(&to_value(&record));
        let line = run.valid();
        assert_verdict_matches(line, &game, &record);
        assert!(line["result"].is_string() && line["reason"].is_string());
        assert_eq!(line["commitment_checked"], json!(true));
        assert_eq!(line["variant"], json!("flip"));
    }
}

#[test]
fn random_standard_records_verify_as_played() {
    for seed in 1..=4 {
        let (game, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(seed));
        assert!(game.is_over());
        let value = to_value(&record);
        assert!(value.get("deal").is_none(), "a standard record has no deal");
        assert_eq!(value["ruleset"], json!("standard"));
        let run = verify(&value);
        let line = run.valid();
        assert_verdict_matches(line, &game, &record);
        assert_eq!(
            line["colours"],
            json!({"south": "red", "north": "blue"}),
            "standard seats play fixed colours"
        );
        assert_eq!(line["variant"], json!("standard"));
    }
}

#[test]
fn standard_layouts_may_name_pieces_as_objects() {
    let (game, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(11));
    let mut value = to_value(&record);
    for side in ["south", "north"] {
        for (_, p) in value["layouts"][side].as_object_mut().unwrap() {
            *p = json!({"piece": p.clone()});
        }
    }
    let run = verify(&value);
    assert_verdict_matches(run.valid(), &game, &record);
}

#[test]
fn a_record_on_standard_input_verifies_with_dash() {
    let (game, record) = random_flip(21);
    let run = verify_stdin(&to_value(&record).to_string());
    assert_verdict_matches(run.valid(), &game, &record);

    let (game, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(21));
    let run = verify_stdin(&serde_json::to_string_pretty(&to_value(&record)).unwrap());
    assert_verdict_matches(run.valid(), &game, &record);
}

#[test]
fn a_record_cut_short_is_valid_and_undecided() {
    let (game, mut record) = random_flip(3);
    let n = record.actions.len();
    assert!(n > 10);
    record.actions.truncate(n / 2);
    let run = verify(&to_value(&record));
    let line = run.valid();
    assert_eq!(line["result"], Value::Null);
    assert_eq!(line["reason"], Value::Null);
    assert_eq!(line["score"], Value::Null);
    assert_eq!(line["steps"], json!(n / 2), "every random action is a step");
    assert_ne!(line["steps"], json!(game.steps()));

    // No actions at all: nothing decided, no colours yet.
    record.actions.clear();
    let run = verify(&to_value(&record));
    let line = run.valid();
    assert_eq!(line["steps"], json!(0));
    assert_eq!(line["result"], Value::Null);
    assert_eq!(line["colours"], Value::Null);
    assert_eq!(line["score"], Value::Null);
}

#[test]
fn the_commitment_is_sha256_of_the_deal_in_square_order_and_the_salt() {
    let (_, record) = random_flip(5);
    let value = to_value(&record);
    let deal = value["deal"].as_object().unwrap();
    assert_eq!(deal.len(), 50, "the deal lists all 50 non-camp squares");
    for key in deal.keys() {
        let s: junqi::rules::Square = key.parse().unwrap();
        assert_ne!(s.kind(), StationKind::Camp, "{key} is a camp");
    }
    let salt = value["salt"].as_str().unwrap();
    let commitment = value["commitment"].as_str().unwrap();
    assert_eq!(commitment.len(), 64);
    assert!(
        commitment
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)),
        "lowercase hex: {commitment}"
    );
    assert_eq!(commitment, commitment_by_hand(deal, salt));

    // The hand-written records below use the same recipe.
    let hand = hand_record(json!([]));
    assert_eq!(
        hand["commitment"].as_str().unwrap(),
        commitment_by_hand(hand["deal"].as_object().unwrap(), SALT)
    );
    verify(&hand).valid();
}

#[test]
fn the_format_example_shape_with_at_ms_verifies() {
    let (mut actions, mut at) = flips(4);
    actions.push(json!({"seat": "south", "timeout": true}));
    at.push(35_000);
    let mut record = hand_record(json!(actions));
    record["at_ms"] = json!(at);
    let line = verify(&record).valid().clone();
    assert_eq!(line["steps"], json!(5), "a timeout is a step");
    assert_eq!(line["result"], Value::Null);
    // a1 red, b1 red: North's flip of b1 matched the previous flip and took red.
    assert_eq!(line["colours"], json!({"south": "blue", "north": "red"}));
}

#[test]
fn a_standard_record_may_carry_a_commitment_over_both_layouts() {
    let (game, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(16));
    let mut value = to_value(&record);
    // Both layouts in square order, South's pieces red and North's blue.
    let mut entries = Map::new();
    for (side, colour) in [("south", "red"), ("north", "blue")] {
        for (sq, p) in value["layouts"][side].as_object().unwrap() {
            entries.insert(sq.clone(), json!({"piece": p, "colour": colour}));
        }
    }
    value["salt"] = json!("abc123");
    value["commitment"] = json!(commitment_by_hand(&entries, "abc123"));
    let line = verify(&value).valid().clone();
    assert_eq!(line["commitment_checked"], json!(true));
    assert_eq!(line["result"], result_of(&game));

    value["salt"] = json!("abc124");
    verify(&value).invalid(None, &["commitment", "does not match"]);
}

#[test]
fn options_and_base_are_checked() {
    let mut record = hand_record(json!([]));
    record["options"] = json!({"colour_rule": "first_flip", "no_suicide": true});
    verify(&record).valid();
    record["options"] = json!({"colour_rule": "rock_paper"});
    verify(&record).invalid(None, &["options"]);
    record["options"] = json!({"undo": true});
    verify(&record).invalid(None, &["options", "undo"]);

    let mut record = hand_record(json!([]));
    record["base"] = json!(0);
    verify(&record).invalid(None, &["base"]);
    record["base"] = json!("2");
    verify(&record).invalid(None, &["base"]);
}

#[test]
fn first_flip_colour_rule_gives_the_first_flip_its_colour() {
    let mut record = hand_record(json!([{"seat": "south", "flip": "a12"}]));
    record["options"] = json!({"colour_rule": "first_flip"});
    let line = verify(&record).valid().clone();
    assert_eq!(line["colours"], json!({"south": "blue", "north": "red"}));
}

// ---------------------------------------------------------------------------------------
// Endings built by hand

#[test]
fn standard_fifth_pass_loses_and_escape_costs_two() {
    let (_, mut record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(17));
    record.actions.clear();
    let first = record.first;
    for i in 0..9 {
        let seat = if i % 2 == 0 { first } else { first.other() };
        let action = if i == 8 {
            Action::Pass
        } else {
            Action::Timeout
        };
        record.actions.push((seat, action));
    }
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(line["result"], json!(first.other().name()));
    assert_eq!(line["reason"], json!("timeouts"));
    assert_eq!(line["steps"], json!(9), "passes count as steps");
    // Decided within 30 steps: the winner gains nothing, the loser still loses 1.
    assert_eq!(line["score"][first.name()], json!(-1));
    assert_eq!(line["score"][first.other().name()], json!(0));

    record.actions.truncate(1);
    record.actions.push((first, Action::Escape));
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(line["reason"], json!("escape"));
    assert_eq!(line["score"][first.name()], json!(-2));
}

#[test]
fn three_timeouts_lose_and_score_one_base() {
    let mut record = hand_record(json!([
        {"seat": "south", "timeout": true},
        {"seat": "north", "flip": "a1"},
        {"seat": "south", "timeout": true},
        {"seat": "north", "flip": "b1"},
        {"seat": "south", "timeout": true},
    ]));
    let line = verify(&record).valid().clone();
    assert_eq!(line["result"], json!("north"));
    assert_eq!(line["reason"], json!("timeouts"));
    assert_eq!(line["steps"], json!(5));
    assert_eq!(line["colours"], json!({"south": "blue", "north": "red"}));
    // Lost ≤ 5: ±1 × base.
    assert_eq!(line["score"], json!({"south": -1, "north": 1}));

    record["base"] = json!(3);
    let line = verify(&record).valid().clone();
    assert_eq!(line["score"], json!({"south": -3, "north": 3}));
}

#[test]
fn escape_at_any_time_loses_ten_base() {
    let record = hand_record(json!([{"seat": "north", "escape": true}]));
    let line = verify(&record).valid().clone();
    assert_eq!(line["result"], json!("south"));
    assert_eq!(line["reason"], json!("escape"));
    assert_eq!(line["steps"], json!(0));
    assert_eq!(line["colours"], Value::Null);
    // Lost ≤ 5: the opponent gains 0 × base, the escaper loses 10 × base.
    assert_eq!(line["score"], json!({"south": 0, "north": -10}));
}

#[test]
fn three_hours_after_the_start_a_step_draws() {
    let (actions, mut at) = flips(3);
    at[2] = THREE_HOURS_MS;
    let mut record = hand_record(json!(actions));
    record["at_ms"] = json!(at);
    let line = verify(&record).valid().clone();
    assert_eq!(line["result"], json!("draw"));
    assert_eq!(line["reason"], json!("time_limit"));
    assert_eq!(
        line["steps"],
        json!(3),
        "the step stands, then the game is drawn"
    );
    assert_eq!(line["score"], json!({"south": 0, "north": 0}));

    at[2] = THREE_HOURS_MS - 1;
    record["at_ms"] = json!(at);
    assert_eq!(verify(&record).valid()["result"], Value::Null);

    // The clock alone ends it: the record carries end_ms.
    record["end_ms"] = json!(THREE_HOURS_MS);
    let line = verify(&record).valid().clone();
    assert_eq!(line["result"], json!("draw"));
    assert_eq!(line["reason"], json!("time_limit"));

    record["end_ms"] = json!(1000);
    verify(&record).invalid(None, &["end_ms"]);
}

// RULES §3.3: the three-hour limit is checked after every action, steps or not.
#[test]
fn three_hours_after_the_start_a_draw_offer_or_decline_also_draws() {
    let (game, mut record) = running_flip(50);
    let seat = game.to_move();
    record.actions.push((seat, Action::OfferDraw));
    let mut at = vec![0; record.actions.len()];
    *at.last_mut().unwrap() = THREE_HOURS_MS;
    record.at_ms = Some(at);
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(
        (line["result"].clone(), line["reason"].clone()),
        (json!("draw"), json!("time_limit")),
        "a draw offer at the 3-hour mark ends the game: {line}"
    );

    let (game, mut record) = running_flip(50);
    let seat = game.to_move();
    record.actions.push((seat, Action::OfferDraw));
    record.actions.push((seat.other(), Action::DeclineDraw));
    let mut at = vec![0; record.actions.len()];
    *at.last_mut().unwrap() = THREE_HOURS_MS + 5;
    record.at_ms = Some(at);
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(
        (line["result"].clone(), line["reason"].clone()),
        (json!("draw"), json!("time_limit")),
        "a decline after the 3-hour mark ends the game: {line}"
    );
}

#[test]
fn a_draw_by_agreement_after_fifty_steps() {
    let (mut game, mut record) = running_flip(50);
    let offerer = game.to_move();
    play(&mut game, &mut record, offerer, Action::OfferDraw);
    play(&mut game, &mut record, offerer.other(), Action::AcceptDraw);
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(line["result"], json!("draw"));
    assert_eq!(line["reason"], json!("agreed"));
    assert_eq!(line["steps"], json!(50), "offers and answers are not steps");
    assert_eq!(line["score"], json!({"south": 0, "north": 0}));
    assert_verdict_matches(&line, &game, &record);
}

#[test]
fn a_draw_offer_may_come_from_the_seat_not_to_move_and_survives_its_own_steps() {
    // The seat not to move offers; the seat to move accepts at once.
    let (mut game, mut record) = running_flip(52);
    let waiting = game.to_move().other();
    play(&mut game, &mut record, waiting, Action::OfferDraw);
    play(&mut game, &mut record, waiting.other(), Action::AcceptDraw);
    assert_eq!(
        verify(&to_value(&record)).valid()["reason"],
        json!("agreed")
    );

    // The offerer steps; its offer stays open and is accepted afterwards.
    let (mut game, mut record) = running_flip(50);
    let offerer = game.to_move();
    play(&mut game, &mut record, offerer, Action::OfferDraw);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    play(&mut game, &mut record, offerer, legal[0]);
    if !game.is_over() {
        play(&mut game, &mut record, offerer.other(), Action::AcceptDraw);
        let line = verify(&to_value(&record)).valid().clone();
        assert_eq!(line["reason"], json!("agreed"));
        assert_eq!(line["steps"], json!(51));
    }
}

#[test]
fn a_draw_offer_lapses_when_its_addressee_steps() {
    let (mut game, mut record) = running_flip(50);
    let to_move = game.to_move();
    play(&mut game, &mut record, to_move.other(), Action::OfferDraw);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    play(&mut game, &mut record, to_move, legal[0]);
    assert!(!game.is_over());
    let index = record.actions.len();
    record.actions.push((to_move, Action::AcceptDraw));
    verify(&to_value(&record)).invalid(Some(index), &["no draw offer"]);
}

#[test]
fn a_fourth_draw_offer_is_refused() {
    let (game, mut record) = running_flip(50);
    let offerer = game.to_move();
    for _ in 0..3 {
        record.actions.push((offerer, Action::OfferDraw));
        record.actions.push((offerer.other(), Action::DeclineDraw));
    }
    let line = verify(&to_value(&record)).valid().clone();
    assert_eq!(line["result"], Value::Null);
    let index = record.actions.len();
    record.actions.push((offerer, Action::OfferDraw));
    verify(&to_value(&record)).invalid(Some(index), &["no draw offers left"]);
}

#[test]
fn a_resignation_after_fifty_steps_loses() {
    for resigner_moves in [true, false] {
        let (mut game, mut record) = running_flip(50);
        let resigner = if resigner_moves {
            game.to_move()
        } else {
            game.to_move().other()
        };
        play(&mut game, &mut record, resigner, Action::Resign);
        let line = verify(&to_value(&record)).valid().clone();
        assert_eq!(line["result"], json!(resigner.other().name()));
        assert_eq!(line["reason"], json!("resign"));
        assert_eq!(line["steps"], json!(50));
        let loser = &line["score"][resigner.name()];
        let winner = &line["score"][resigner.other().name()];
        assert!(
            [-1, -2, -3].contains(&loser.as_i64().unwrap()),
            "a resigner loses 1–3 × base: {line}"
        );
        assert_eq!(winner.as_i64(), loser.as_i64().map(|l| -l));
        assert_verdict_matches(&line, &game, &record);
    }
}

#[test]
fn a_resignation_or_draw_offer_before_fifty_steps_is_refused_at_its_index() {
    for steps in [0, 20, 49] {
        let (game, mut record) = running_flip(steps);
        let index = record.actions.len();
        record.actions.push((game.to_move(), Action::Resign));
        let error = verify(&to_value(&record)).invalid(Some(index), &["50 steps", "resign"]);
        assert!(error.contains(&format!("{steps} played")), "{error}");

        record.actions[index] = (game.to_move().other(), Action::OfferDraw);
        verify(&to_value(&record)).invalid(Some(index), &["50 steps", "draw offer"]);
    }
}

#[test]
fn a_claimed_result_must_match_the_replay() {
    let (game, record) = random_flip(7);
    let outcome = game.outcome().unwrap();
    let mut value = to_value(&record);

    value["result"] = result_of(&game);
    value["reason"] = reason_of(&game);
    assert_verdict_matches(verify(&value).valid(), &game, &record);

    let wrong = match outcome.winner {
        Some(Seat::South) => "north",
        Some(Seat::North) => "draw",
        None => "south",
    };
    value["result"] = json!(wrong);
    verify(&value).invalid(None, &["result", wrong]);

    value["result"] = result_of(&game);
    value["reason"] = json!(if outcome.reason.name() == "escape" {
        "resign"
    } else {
        "escape"
    });
    verify(&value).invalid(None, &["reason"]);

    // A result claimed for a game that is not over.
    let (_, mut short) = random_flip(7);
    short.actions.truncate(4);
    let mut value = to_value(&short);
    value["result"] = json!("south");
    verify(&value).invalid(None, &["result", "not over"]);
}

// A record claiming `"result": null` (not over) for a finished game is refused.
#[test]
fn a_claimed_null_result_for_a_finished_game_is_refused() {
    let (game, record) = random_flip(7);
    assert!(game.is_over());
    let mut value = to_value(&record);
    value["result"] = Value::Null;
    value["reason"] = Value::Null;
    let run = verify(&value);
    assert_eq!(
        run.line["valid"],
        json!(false),
        "the record claims the game is undecided but the replay says {} by {}: {}",
        result_of(&game),
        reason_of(&game),
        run.stdout
    );
    assert_eq!(run.code, 1);
}

// ---------------------------------------------------------------------------------------
// Bad input

#[test]
fn malformed_json_is_invalid() {
    for text in [
        "",
        "{",
        "{\"format\": \"junqi-record/1\",}",
        "not json",
        "{} trailing",
    ] {
        verify_text(text).invalid(None, &["malformed JSON"]);
    }
    verify_stdin("[1, 2").invalid(None, &["malformed JSON"]);
    verify_text("[]").invalid(None, &["JSON object"]);
}

#[test]
fn wrong_format_variant_or_ruleset_is_invalid() {
    let record = hand_record(json!([]));
    let mut r = record.clone();
    r["format"] = json!("junqi-record/2");
    verify(&r).invalid(None, &["format", "junqi-record/2"]);
    let mut r = record.clone();
    r["variant"] = json!("siguo");
    verify(&r).invalid(None, &["variant", "siguo"]);
    let mut r = record.clone();
    r["ruleset"] = json!("standard");
    verify(&r).invalid(None, &["ruleset"]);
    let mut r = record.clone();
    r.as_object_mut().unwrap().remove("actions");
    verify(&r).invalid(None, &["actions"]);
    let mut r = record;
    r["first"] = json!("east");
    verify(&r).invalid(None, &["first", "east"]);
}

#[test]
fn an_unknown_square_in_the_deal_is_named() {
    let (_, record) = random_flip(8);
    let mut value = to_value(&record);
    let deal = deal_of(&mut value);
    let entry = deal.remove("a1").unwrap();
    deal.insert("f1".into(), entry);
    verify(&value).invalid(None, &["deal", "unknown square", "f1"]);

    let mut value = to_value(&record);
    let deal = deal_of(&mut value);
    let entry = deal.remove("e12").unwrap();
    deal.insert("e13".into(), entry);
    verify(&value).invalid(None, &["unknown square", "e13"]);
}

#[test]
fn an_unknown_square_in_an_action_is_named_at_its_index() {
    let (actions, _) = flips(3);
    let mut record = hand_record(json!(actions));
    record["actions"][2]["flip"] = json!("z9");
    verify(&record).invalid(Some(2), &["unknown square", "z9"]);

    let (mut actions, _) = flips(2);
    actions.push(json!({"seat": "south", "move": {"from": "a1", "to": "a0"}}));
    verify(&hand_record(json!(actions))).invalid(Some(2), &["unknown square", "a0"]);
}

#[test]
fn an_unknown_piece_or_colour_in_the_deal_is_named() {
    let (_, record) = random_flip(9);
    let mut value = to_value(&record);
    deal_of(&mut value)["c3"]["piece"] = json!("tank");
    verify(&value).invalid(None, &["c3", "unknown piece", "tank"]);

    let mut value = to_value(&record);
    deal_of(&mut value)["c3"]["colour"] = json!("green");
    verify(&value).invalid(None, &["c3", "colour", "green"]);

    let (_, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(9));
    let mut value = to_value(&record);
    value["layouts"]["north"]["c12"] = json!("tank");
    verify(&value).invalid(None, &["layouts.north", "c12", "unknown piece", "tank"]);
}

#[test]
fn a_deal_with_a_piece_missing_is_refused() {
    let (_, record) = random_flip(10);
    let mut value = to_value(&record);
    deal_of(&mut value).remove("c6");
    verify(&value).invalid(None, &["c6", "empty"]);
}

#[test]
fn a_deal_with_a_piece_duplicated_is_refused() {
    let (_, record) = random_flip(10);
    let mut value = to_value(&record);
    let entry = &mut deal_of(&mut value)["a1"];
    let colour = entry["colour"].as_str().unwrap().to_string();
    let piece = if entry["piece"] == json!("marshal") {
        "general"
    } else {
        "marshal"
    };
    entry["piece"] = json!(piece);
    // One colour now has two of a piece the set holds once.
    verify(&value).invalid(None, &[&format!("2 {colour} {piece}"), "the set has 1"]);
}

#[test]
fn a_deal_with_a_piece_in_a_camp_is_refused() {
    let (_, record) = random_flip(10);
    // Moved from a1 into the camp b3.
    let mut value = to_value(&record);
    let deal = deal_of(&mut value);
    let entry = deal.remove("a1").unwrap();
    deal.insert("b3".into(), entry);
    verify(&value).invalid(None, &["camp", "b3"]);

    // A 51st piece in the camp d10.
    let mut value = to_value(&record);
    deal_of(&mut value).insert("d10".into(), json!({"piece": "bomb", "colour": "red"}));
    verify(&value).invalid(None, &["camp", "d10"]);
}

#[test]
fn a_wrong_commitment_is_refused() {
    let (_, record) = random_flip(12);
    let mut value = to_value(&record);
    value["commitment"] = json!("0".repeat(64));
    verify(&value).invalid(None, &["commitment", "does not match"]);

    let mut value = to_value(&record);
    value["salt"] = json!("00");
    verify(&value).invalid(None, &["commitment", "does not match"]);

    let mut value = to_value(&record);
    value.as_object_mut().unwrap().remove("salt");
    verify(&value).invalid(None, &["salt"]);

    let mut value = to_value(&record);
    value.as_object_mut().unwrap().remove("commitment");
    verify(&value).invalid(None, &["commitment"]);
}

#[test]
fn a_tampered_deal_no_longer_matches_its_commitment() {
    let (_, record) = random_flip(13);
    let mut value = to_value(&record);
    let deal = deal_of(&mut value);
    // Swap a1 with the first square holding something else: still a full set.
    let a1 = deal["a1"].clone();
    let other = deal
        .iter()
        .find(|(_, e)| **e != a1)
        .map(|(k, _)| k.clone())
        .unwrap();
    let moved = deal[&other].clone();
    deal.insert("a1".into(), moved);
    deal.insert(other, a1);
    verify(&value).invalid(None, &["commitment", "does not match"]);
}

#[test]
fn an_unknown_action_key_is_named_at_its_index() {
    let (mut actions, _) = flips(2);
    actions.push(json!({"seat": "south", "jump": true}));
    verify(&hand_record(json!(actions))).invalid(Some(2), &["unknown action", "jump"]);

    let (mut actions, _) = flips(1);
    actions.push(json!({"seat": "north", "flip": "b1", "resign": true}));
    verify(&hand_record(json!(actions))).invalid(Some(1), &["exactly one action"]);

    let (mut actions, _) = flips(1);
    actions.push(json!({"seat": "north"}));
    verify(&hand_record(json!(actions))).invalid(Some(1), &["no action"]);

    let (mut actions, _) = flips(1);
    actions.push(json!({"seat": "west", "flip": "b1"}));
    verify(&hand_record(json!(actions))).invalid(Some(1), &["seat", "west"]);

    let (mut actions, _) = flips(1);
    actions.push(json!({"seat": "north", "resign": false}));
    verify(&hand_record(json!(actions))).invalid(Some(1), &["resign must be true"]);
}

#[test]
fn at_ms_must_have_one_entry_per_action_and_never_go_back() {
    let (actions, mut at) = flips(6);
    let mut record = hand_record(json!(actions));
    at.pop();
    record["at_ms"] = json!(at);
    verify(&record).invalid(None, &["at_ms", "5 entries for 6 actions"]);

    let (_, at) = flips(7);
    record["at_ms"] = json!(at);
    verify(&record).invalid(None, &["at_ms"]);

    let (_, mut at) = flips(6);
    at[4] = 500;
    record["at_ms"] = json!(at);
    verify(&record).invalid(Some(4), &["before the previous action"]);

    let (_, at) = flips(6);
    let mut raw = json!(at);
    raw[1] = json!(-1);
    record["at_ms"] = raw;
    verify(&record).invalid(None, &["at_ms[1]"]);
}

#[test]
fn the_wrong_seat_acting_is_refused_at_its_index() {
    // North acts first though South was named first.
    let record = hand_record(json!([{"seat": "north", "flip": "a1"}]));
    verify(&record).invalid(Some(0), &["north", "not your turn"]);

    // South flips twice in a row.
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "a12"},
        {"seat": "south", "flip": "b1"},
        {"seat": "south", "flip": "c1"},
    ]));
    verify(&record).invalid(Some(3), &["south", "not your turn"]);

    // A timeout is a step and also needs the turn.
    let record = hand_record(json!([{"seat": "north", "timeout": true}]));
    verify(&record).invalid(Some(0), &["not your turn"]);

    // In a random game: flip the seat of one action in the middle.
    let (_, record) = random_flip(14);
    let k = record.actions.len() / 2;
    let mut value = to_value(&record);
    let seat = value["actions"][k]["seat"].as_str().unwrap().to_string();
    let other = if seat == "south" { "north" } else { "south" };
    value["actions"][k]["seat"] = json!(other);
    verify(&value).invalid(Some(k), &[other, "not your turn"]);
}

#[test]
fn illegal_flips_and_moves_are_refused_at_their_index() {
    // Flipping a square that is already face up.
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "a1"},
    ]));
    verify(&record).invalid(Some(1), &["flip a1", "already face up"]);

    // Flipping an empty camp.
    let record = hand_record(json!([{"seat": "south", "flip": "c4"}]));
    verify(&record).invalid(Some(0), &["no piece on c4"]);

    // Moving before colours are assigned (a1 red, a12 blue: no match yet).
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "a12"},
        {"seat": "south", "move": {"from": "a1", "to": "b3"}},
    ]));
    verify(&record).invalid(Some(2), &["colours are not assigned"]);

    // a1 red, b1 red: North takes red. South (blue) then flips; North moves its own
    // face-down c1.
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "b1"},
        {"seat": "south", "flip": "a12"},
        {"seat": "north", "move": {"from": "c1", "to": "c2"}},
    ]));
    verify(&record).invalid(Some(3), &["c1", "face down"]);

    // North moves South's face-up a12 (blue).
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "b1"},
        {"seat": "south", "flip": "a12"},
        {"seat": "north", "move": {"from": "a12", "to": "a11"}},
    ]));
    verify(&record).invalid(Some(3), &["a12", "not yours"]);

    // North's face-up marshal on a1 cannot jump to c3.
    let record = hand_record(json!([
        {"seat": "south", "flip": "a1"},
        {"seat": "north", "flip": "b1"},
        {"seat": "south", "flip": "a12"},
        {"seat": "north", "move": {"from": "a1", "to": "c3"}},
    ]));
    verify(&record).invalid(Some(3), &["a1", "cannot reach c3"]);

    // Passing is standard 军棋 only.
    let record = hand_record(json!([{"seat": "south", "pass": true}]));
    verify(&record).invalid(Some(0), &["pass"]);

    // Any action after the end.
    let record = hand_record(json!([
        {"seat": "south", "escape": true},
        {"seat": "north", "flip": "a1"},
    ]));
    verify(&record).invalid(Some(1), &["over"]);
}

#[test]
fn moving_a_face_down_piece_in_a_random_game_is_refused() {
    // Step a random game until colours are known, then have the seat to move move one
    // of its own face-down pieces.
    for seed in 1..50 {
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut game, mut record) = new_game(Variant::Flip, &mut rng);
        let mut legal = Vec::new();
        while game.colours().is_none() && !game.is_over() {
            legal.clear();
            game.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            let seat = game.to_move();
            play(&mut game, &mut record, seat, a);
        }
        let seat = game.to_move();
        let mine = game.colour_of(seat).unwrap();
        let hidden = game
            .position()
            .hidden()
            .iter()
            .find(|&s| game.position().get(s).is_some_and(|t| t.colour == mine));
        let Some(from) = hidden else { continue };
        let to = board::neighbours(from).iter().next().unwrap();
        let index = record.actions.len();
        record.actions.push((seat, Action::Move { from, to }));
        verify(&to_value(&record)).invalid(Some(index), &[&from.to_string(), "face down"]);
        return;
    }
    panic!("no seed gave a face-down piece of the seat to move");
}

#[test]
fn a_standard_record_needs_valid_layouts() {
    let (_, record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(15));
    let value = to_value(&record);

    let mut r = value.clone();
    r.as_object_mut().unwrap().remove("layouts");
    verify(&r).invalid(None, &["layouts"]);

    // Swap south's flag out of its headquarters.
    let mut r = value.clone();
    let south = r["layouts"]["south"].as_object_mut().unwrap();
    let flag_at = south
        .iter()
        .find(|(_, p)| **p == json!("flag"))
        .map(|(k, _)| k.clone())
        .unwrap();
    let front = south["a6"].clone();
    south.insert("a6".into(), json!("flag"));
    south.insert(flag_at, front);
    verify(&r).invalid(None, &["layouts.south", "flag"]);

    // A flip record's deal where layouts belong.
    let mut r = value;
    r["deal"] = hand_record(json!([]))["deal"].clone();
    r.as_object_mut().unwrap().remove("layouts");
    verify(&r).invalid(None, &["layouts"]);
}

// Flips do not exist in standard 军棋, and the error says so.
#[test]
fn a_flip_in_a_standard_record_is_refused_with_a_true_message() {
    let (_, mut record) = random_game(Variant::Standard, &mut StdRng::seed_from_u64(18));
    record.actions.clear();
    let square = "a1".parse().unwrap();
    record.actions.push((record.first, Action::Flip(square)));
    let error = verify(&to_value(&record)).invalid(Some(0), &["flip a1"]);
    assert!(
        !error.contains("already face up"),
        "the piece on a1 is not face up in standard 军棋: {error:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Unreadable input

#[test]
fn a_missing_file_exits_2() {
    let path = std::env::temp_dir().join(format!(
        "junqi-verify-cli-{}-does-not-exist.json",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let run = verify_path(&path);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(run.line["valid"], json!(false));
    assert!(
        run.line["error"]
            .as_str()
            .unwrap()
            .contains("does-not-exist"),
        "the error names the file: {}",
        run.stdout
    );

    // A directory cannot be read as a record either.
    let run = verify_path(&std::env::temp_dir());
    assert_eq!(run.code, 2, "{}", run.stdout);
}

#[test]
fn a_deal_naming_a_square_twice_is_refused() {
    // JSON readers commonly keep the last of two equal keys; the verifier must not.
    let (_, record) = random_flip(41);
    let text = to_value(&record).to_string();
    let first_entry = text.find("\"a1\":{").expect("the deal lists a1");
    let entry_end = first_entry + text[first_entry..].find('}').unwrap() + 1;
    let entry = &text[first_entry..entry_end];
    let doubled = format!("{}{entry},{}", &text[..first_entry], &text[first_entry..]);
    verify_text(&doubled).invalid(None, &["a1", "twice"]);
}

#[test]
fn a_record_starting_with_a_byte_order_mark_verifies() {
    // Windows editors save UTF-8 with a BOM; the record is the same.
    let (game, record) = random_flip(43);
    let text = format!("\u{feff}{}", to_value(&record));
    assert_verdict_matches(verify_text(&text).valid(), &game, &record);
    assert_verdict_matches(verify_stdin(&text).valid(), &game, &record);
}

/// Runs `junqi verify -` on `len` bytes that start like a record and go on with
/// spaces, writing as long as it reads; what it printed, and how much it took in.
fn verify_stdin_flood(len: usize) -> (Run, usize) {
    let mut child = bin()
        .args(["verify", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn junqi verify -");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 64 << 10];
        let mut sent = stdin.write(b"{\"actions\": [").unwrap_or(0);
        while sent < len {
            // The verifier stops reading past its limit: the pipe breaks.
            match stdin.write(&chunk) {
                Ok(n) => sent += n,
                Err(_) => break,
            }
        }
        sent
    });
    let run = Run::from_output(child.wait_with_output().expect("wait for junqi verify -"));
    (run, writer.join().unwrap())
}

#[test]
fn a_record_over_four_mib_is_refused_without_reading_it_all() {
    // A valid record padded past 4 MiB: refused for its size alone, as invalid (exit 1).
    let (_, record) = random_flip(44);
    let mut text = to_value(&record).to_string();
    text.push_str(&" ".repeat((4 << 20) + 1 - text.len()));
    verify_text(&text).invalid(None, &["larger than 4 MiB"]);
    // Exactly 4 MiB is read (and here valid: trailing spaces are JSON whitespace).
    text.pop();
    verify_text(&text).valid();
    // 51 MB on standard input: refused after reading about 4 MiB of it.
    let (run, sent) = verify_stdin_flood(51 << 20);
    run.invalid(None, &["larger than 4 MiB"]);
    assert!(sent < 16 << 20, "the verifier read {sent} bytes");
}

#[test]
fn a_record_with_more_than_ten_thousand_actions_is_refused_before_replay() {
    // Far more actions than any game has (flip chess ends by 300 steps): refused as a
    // whole, before any action is read, whatever the actions are.
    let pass = json!({"seat": "south", "pass": true});
    let record = hand_record(Value::Array(vec![pass; 10_001]));
    verify(&record).invalid(None, &["actions", "10001", "at most 10000"]);
    let mut record = hand_record(json!([]));
    record["at_ms"] = json!(vec![0; 10_001]);
    verify(&record).invalid(None, &["at_ms", "at most 10000"]);
    // 10,000 is still read: the first bad action is named.
    let record = hand_record(Value::Array(vec![
        json!({"seat": "south", "pass": true});
        10_000
    ]));
    verify(&record).invalid(Some(0), &[]);
}

#[test]
fn an_offending_value_of_three_mb_is_quoted_by_a_short_prefix_only() {
    // A 3 MB value (under the 4 MiB limit) wherever a record may carry a bad string:
    // the verdict names the field and quotes at most a short prefix of the value, cut
    // between characters (三 is three bytes in UTF-8).
    let huge = format!("x{}", "三".repeat(1 << 20));
    let (actions, _) = flips(3);
    let base = hand_record(json!(actions));
    let mut cases: Vec<(Value, Option<usize>, &str)> = Vec::new();
    let mut set = |path: &[&str], what: &'static str, action: Option<usize>| {
        let mut r = base.clone();
        let mut at = &mut r;
        for key in &path[..path.len() - 1] {
            at = match key.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*key],
            };
        }
        at[*path.last().unwrap()] = json!(huge);
        cases.push((r, action, what));
    };
    set(&["format"], "format", None);
    set(&["variant"], "variant", None);
    set(&["ruleset"], "ruleset", None);
    set(&["first"], "first", None);
    set(&["deal", "a1", "piece"], "unknown piece", None);
    set(&["deal", "a1", "colour"], "colour", None);
    set(&["actions", "2", "flip"], "unknown square", Some(2));
    set(&["actions", "2", "seat"], "unknown seat", Some(2));
    set(&["commitment"], "commitment", None);
    set(&["result"], "result", None);
    set(&["options", "colour_rule"], "options", None);
    // As a key: of the deal, of an action, of the options.
    let mut r = base.clone();
    let entry = r["deal"].as_object_mut().unwrap().remove("a1").unwrap();
    r["deal"][huge.as_str()] = entry;
    cases.push((r, None, "deal x三三"));
    let mut r = base.clone();
    r["actions"][1] = json!({"seat": "north", huge.as_str(): true});
    cases.push((r, Some(1), "unknown action"));
    let mut r = base.clone();
    r["options"] = json!({huge.as_str(): true});
    cases.push((r, None, "options"));
    for (record, action, what) in &cases {
        let run = verify(record);
        let error = run.invalid(*action, &[what]);
        assert!(
            run.stdout.len() < 2048 && error.chars().count() <= 400,
            "{what}: the verdict is {} bytes: {}…",
            run.stdout.len(),
            &run.stdout[..run.stdout.len().min(300)]
        );
        assert!(
            error.contains("x三三"),
            "{what}: the prefix is quoted: {error}"
        );
    }
    // A key named twice, found before the record is read: twice 1.5 MB.
    let half = &huge[..huge.len() / 2 + 1];
    let text = base.to_string();
    let at = text.find("\"base\":").unwrap();
    let doubled = |key: &str| {
        format!(
            "{}{}:1,{}:2,{}",
            &text[..at],
            json!(key),
            json!(key),
            &text[at..]
        )
    };
    let run = verify_text(&doubled(half));
    let error = run.invalid(None, &["twice", "x三三"]);
    assert!(run.stdout.len() < 2048, "{error}");
    // Twice 3 MB is over 4 MiB: too large, though the limit falls inside a character.
    let too_large = doubled(&huge);
    assert!(!too_large.is_char_boundary(4 << 20));
    verify_text(&too_large).invalid(None, &["larger than 4 MiB"]);
}
