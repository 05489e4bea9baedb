//! A 四国 table's socket messages as the load client reads them, and the commands it
//! sends. The server sends the whole table after every change, as each seat may see
//! it: 6–8 KiB in play (a hundred board cells, four seat cards), four times per
//! action (once per seat). Of all that a player needs `v`, `phase`, `to_move`, `legal` and two of
//! the `can` flags, so [`read`] finds just those: a vectorised search (memchr's
//! `memmem`) for each key in the order the server writes them (`TableView`'s field
//! order), then a strict read of the value there. A key's pattern `"name":` cannot
//! match inside a string value (a quote in one is escaped), and no nested object of
//! the table has a key of these names, so the first match after the previous key is
//! the field itself.
//!
//! What it costs (`--check-table-parse` times both readers on every table message of
//! a running load; release build, 200 tables at one action a second, a busy 2-core
//! machine): the scan reads a 7.2 KiB message in 2.7 µs, [`read_serde`] (serde with
//! borrowed types, which must still walk every board cell and seat card to skip it)
//! in 13.0 µs. Without the check the scan took 1.4–3.3 µs a message at 200–2,000
//! tables: at 1,000 tables, 4,000 messages a second, 8–11 ms of the client's CPU a
//! second (serde: some 50 ms), of the 70–90 ms the client spends in all (sockets,
//! frames, timers; BENCHMARKS.md, "四国 tables under load"). `read_serde` is kept as
//! the check of the scan.

use super::protocol::Sq;
use memchr::memmem;
use serde::Deserialize;

/// The seats in the server's turn order, as the table names them.
pub const SEATS: [&str; 4] = ["south", "east", "north", "west"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Open,
    Deploying,
    Playing,
    Over,
}

impl Phase {
    fn of(name: &[u8]) -> Option<Phase> {
        Some(match name {
            b"open" => Phase::Open,
            b"deploying" => Phase::Deploying,
            b"playing" => Phase::Playing,
            b"over" => Phase::Over,
            _ => return None,
        })
    }
}

/// What a player reads of one `{"t":"table",…}` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableMsg {
    pub v: u64,
    pub phase: Phase,
    /// The seat to move (an index into [`SEATS`]), while playing.
    pub to_move: Option<usize>,
    /// The viewer's legal moves, on its turn: `[from, to]` stations.
    pub legal: Vec<(Sq, Sq)>,
    pub can_pass: bool,
    /// A pass now would be the seat's 5th timeout-or-pass (it needs a confirmation).
    pub pass_defeats: bool,
}

/// One message from a table's socket.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming<'a> {
    Table(TableMsg),
    Ack { a: u64 },
    Error { a: Option<u64>, code: &'a str },
    Other,
}

/// The small messages (acks, errors, pongs, presence): serde, borrowing.
#[derive(Deserialize)]
struct Small<'a> {
    t: &'a str,
    a: Option<u64>,
    #[serde(borrow)]
    d: Option<SmallData<'a>>,
}

#[derive(Deserialize)]
struct SmallData<'a> {
    code: Option<&'a str>,
}

const TABLE: &[u8] = br#"{"t":"table","v":"#;

/// Reads one message; `Err` says what was not as expected.
pub fn read(b: &[u8]) -> Result<Incoming<'_>, &'static str> {
    if b.starts_with(TABLE) {
        return scan_table(b).map(Incoming::Table);
    }
    let m: Small = serde_json::from_slice(b).map_err(|_| "unreadable message")?;
    Ok(match m.t {
        "ack" => Incoming::Ack {
            a: m.a.ok_or("an ack without its id")?,
        },
        "error" => Incoming::Error {
            a: m.a,
            code: m.d.and_then(|d| d.code).unwrap_or("unknown"),
        },
        "table" => return Err("a table message not in the expected shape"),
        _ => Incoming::Other,
    })
}

/// Where the value of `key` begins, searching from `from`.
fn value_at(b: &[u8], from: usize, key: &[u8]) -> Result<usize, &'static str> {
    memmem::find(&b[from..], key)
        .map(|i| from + i + key.len())
        .ok_or("a table message without a field the client reads")
}

/// The string starting at `at` (just past its opening quote), and where it ends.
fn string_at(b: &[u8], at: usize) -> Result<(&[u8], usize), &'static str> {
    let len = memchr::memchr(b'"', &b[at..]).ok_or("an unterminated string")?;
    Ok((&b[at..at + len], at + len + 1))
}

fn scan_table(b: &[u8]) -> Result<TableMsg, &'static str> {
    let mut at = TABLE.len();
    let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    let v = std::str::from_utf8(&b[at..at + digits])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or("a table message without its version")?;
    at += digits;
    at = value_at(b, at, br#""phase":""#)?;
    let (name, end) = string_at(b, at)?;
    let phase = Phase::of(name).ok_or("an unknown phase")?;
    at = value_at(b, end, br#""to_move":"#)?;
    let to_move = match b.get(at) {
        Some(b'"') => {
            let (name, end) = string_at(b, at + 1)?;
            at = end;
            Some(
                SEATS
                    .iter()
                    .position(|s| s.as_bytes() == name)
                    .ok_or("an unknown seat to move")?,
            )
        }
        _ if b[at..].starts_with(b"null") => None,
        _ => return Err("to_move is neither a seat nor null"),
    };
    at = value_at(b, at, br#""legal":["#)?;
    let mut legal = Vec::new();
    loop {
        match b.get(at) {
            Some(b']') => {
                at += 1;
                break;
            }
            Some(b',') if !legal.is_empty() => at += 1,
            Some(b'[') if legal.is_empty() => {}
            _ => return Err("legal is not a list of station pairs"),
        }
        let (from, to, end) = pair_at(b, at)?;
        legal.push((from, to));
        at = end;
    }
    at = value_at(b, at, br#""can":{"#)?;
    // `can` is flat: its flags lie before its first closing brace.
    let close = at + memchr::memchr(b'}', &b[at..]).ok_or("an unterminated can")?;
    let can = &b[at..close];
    let flag = |key: &[u8]| -> Result<bool, &'static str> {
        let i = value_at(can, 0, key)?;
        match &can[i..] {
            x if x.starts_with(b"true") => Ok(true),
            x if x.starts_with(b"false") => Ok(false),
            _ => Err("a can flag that is not a boolean"),
        }
    };
    Ok(TableMsg {
        v,
        phase,
        to_move,
        legal,
        can_pass: flag(br#""pass":"#)?,
        pass_defeats: flag(br#""pass_defeats":"#)?,
    })
}

/// `["Sa4","Sa5"]` at `at`: the two stations and where the pair ends.
fn pair_at(b: &[u8], at: usize) -> Result<(Sq, Sq, usize), &'static str> {
    const BAD: &str = "a legal move that is not two stations";
    if b.get(at..at + 2) != Some(br#"[""#) {
        return Err(BAD);
    }
    let (from, end) = string_at(b, at + 2)?;
    if b.get(end..end + 2) != Some(br#",""#) {
        return Err(BAD);
    }
    let (to, end) = string_at(b, end + 2)?;
    if b.get(end) != Some(&b']') {
        return Err(BAD);
    }
    let sq = |s: &[u8]| Sq::from_bytes(s).ok_or(BAD);
    Ok((sq(from)?, sq(to)?, end + 1))
}

/// The same fields read by serde with borrowed types (every other field skipped
/// unread): the check of [`read`]'s scan, and what it is measured against.
pub fn read_serde(b: &[u8]) -> Result<TableMsg, String> {
    #[derive(Deserialize)]
    struct Full<'a> {
        t: &'a str,
        v: u64,
        #[serde(borrow)]
        d: FullData<'a>,
    }
    #[derive(Deserialize)]
    struct FullData<'a> {
        phase: &'a str,
        to_move: Option<&'a str>,
        legal: Vec<(Sq, Sq)>,
        can: FullCan,
    }
    #[derive(Deserialize)]
    struct FullCan {
        pass: bool,
        pass_defeats: bool,
    }
    let m: Full = serde_json::from_slice(b).map_err(|e| e.to_string())?;
    if m.t != "table" {
        return Err(format!("not a table message: {}", m.t));
    }
    Ok(TableMsg {
        v: m.v,
        phase: Phase::of(m.d.phase.as_bytes()).ok_or("an unknown phase")?,
        to_move: match m.d.to_move {
            Some(s) => Some(
                SEATS
                    .iter()
                    .position(|x| *x == s)
                    .ok_or("an unknown seat")?,
            ),
            None => None,
        },
        legal: m.d.legal,
        can_pass: m.d.can.pass,
        pass_defeats: m.d.can.pass_defeats,
    })
}

/// `sit` in `seat`, with ack id `a`.
pub fn sit(seat: usize, a: u64) -> String {
    format!(r#"{{"t":"sit","d":{{"seat":"{}"}},"a":{a}}}"#, SEATS[seat])
}

/// `ready`: in the open phase, ready to start; while deploying, done deploying (with
/// the valid layout the server started the seat from).
pub fn ready(a: u64) -> String {
    format!(r#"{{"t":"ready","a":{a}}}"#)
}

pub fn move_cmd(from: Sq, to: Sq, a: u64) -> String {
    format!(r#"{{"t":"move","d":{{"from":"{from}","to":"{to}"}},"a":{a}}}"#)
}

/// `pass`; the 5th timeout-or-pass, which defeats the seat, must be confirmed.
pub fn pass(confirm: bool, a: u64) -> String {
    if confirm {
        format!(r#"{{"t":"pass","d":{{"confirm":true}},"a":{a}}}"#)
    } else {
        format!(r#"{{"t":"pass","a":{a}}}"#)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table message as the server writes one (fields in `TableView`'s order, the
    /// board and seats cut short), with names and values chosen to trip a careless
    /// scan: a player called `"legal":[`, a board cell's `seat`.
    const PLAYING: &str = r#"{"t":"table","v":42,"d":{"id":"Ab12Cd34","variant":"siguo","phase":"playing","options":{"alliance":"opposite","allies_visible":false,"random_pieces":false,"first_mover":"first_deployed","bombs_on_front_row":false},"seconds_per_action":30,"rated":false,"creator":"load00001s","you":"east","watching":null,"seats":[{"seat":"south","player":{"username":"x","display_name":"\"legal\":[\"to_move\":","kind":"person","score":0,"rank":{"name":"a"},"avatar":"a","avatar_url":"/a"},"side":0,"ready":true,"connected":true,"state":"playing","tuoguan":null,"tuoguan_count":0,"timeouts":0,"defeat":null,"won":null,"score":null}],"deadline_at":1700000000000,"board":[{"at":"Sa1","seat":"south","face":"down"},{"at":"Ea1","seat":"east","face":"down","piece":"flag"}],"to_move":"east","steps":7,"quiet_steps":7,"legal":[["Ea4","Ea5"],["Eb4","XSE"]],"can":{"sit":false,"stand":false,"ready":false,"seat_computer":false,"deploy":false,"pass":true,"pass_defeats":false,"resign":false,"offer_draw":false,"answer_draw":false,"tuoguan":true,"end_tuoguan":false,"leave":true,"play_on":false},"last":{"seat":"south","kind":"move","route":["Sa4","Sa5"],"flags_shown":[],"defeated":[]},"result":null,"reason":null}}"#;

    #[test]
    fn the_scan_reads_what_serde_reads() {
        let scanned = match read(PLAYING.as_bytes()).unwrap() {
            Incoming::Table(t) => t,
            other => panic!("{other:?}"),
        };
        assert_eq!(scanned, read_serde(PLAYING.as_bytes()).unwrap());
        assert_eq!(
            (scanned.v, scanned.phase, scanned.to_move),
            (42, Phase::Playing, Some(1))
        );
        let names: Vec<_> = scanned
            .legal
            .iter()
            .map(|(f, t)| format!("{f}-{t}"))
            .collect();
        assert_eq!(names, ["Ea4-Ea5", "Eb4-XSE"]);
        assert!(scanned.can_pass && !scanned.pass_defeats);

        let open = PLAYING
            .replace(r#""phase":"playing""#, r#""phase":"open""#)
            .replace(r#""to_move":"east""#, r#""to_move":null"#)
            .replace(r#"[["Ea4","Ea5"],["Eb4","XSE"]]"#, "[]");
        let Ok(Incoming::Table(t)) = read(open.as_bytes()) else {
            panic!("an open table reads")
        };
        assert_eq!(t, read_serde(open.as_bytes()).unwrap());
        assert_eq!((t.phase, t.to_move, t.legal.len()), (Phase::Open, None, 0));
    }

    #[test]
    fn small_messages_and_refusals() {
        assert_eq!(
            read(br#"{"t":"ack","a":3,"v":7}"#).unwrap(),
            Incoming::Ack { a: 3 }
        );
        assert_eq!(
            read(br#"{"t":"error","d":{"code":"illegal","message":"no"},"a":4}"#).unwrap(),
            Incoming::Error {
                a: Some(4),
                code: "illegal"
            }
        );
        assert_eq!(read(br#"{"t":"pong"}"#).unwrap(), Incoming::Other);
        let cut = &PLAYING.as_bytes()[..PLAYING.find(r#""can""#).unwrap()];
        assert!(read(cut).is_err(), "a message cut short is refused");
        let bad = PLAYING.replace(r#"["Eb4","XSE"]"#, r#"["Eb4"]"#);
        assert!(read(bad.as_bytes()).is_err());
    }

    #[test]
    fn commands() {
        assert_eq!(sit(3, 1), r#"{"t":"sit","d":{"seat":"west"},"a":1}"#);
        assert_eq!(ready(2), r#"{"t":"ready","a":2}"#);
        let sq = |s: &str| Sq::from_bytes(s.as_bytes()).unwrap();
        assert_eq!(
            move_cmd(sq("Sa4"), sq("XSW"), 5),
            r#"{"t":"move","d":{"from":"Sa4","to":"XSW"},"a":5}"#
        );
        assert_eq!(pass(true, 6), r#"{"t":"pass","d":{"confirm":true},"a":6}"#);
    }
}
