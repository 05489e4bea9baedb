//! Socket frames under permessage-deflate (RFC 7692), measured on frames the server
//! really sent.
//!
//! The inputs in `benches/frames/` were captured from a running server by
//! `benches/frames/capture.py` (two players, a flip game played 40 random legal actions
//! in, a standard 军棋 game deployed and played 40 actions in): the first `state` frame
//! each seat's socket received, the `state` a seat gets when it reloads 40 actions into
//! the flip game, and every frame one seat's socket received through each game, one
//! frame a line.
//!
//! Before the benchmarks run, `main` prints:
//! - each state frame's size raw and raw-deflated (no zlib header, sync flush, the
//!   `00 00 ff ff` tail cut, as permessage-deflate sends it) at levels 1 and 6 alone
//!   (no context takeover);
//! - each game's stream alone frame by frame and with context takeover (one compressor
//!   for the socket's life, so later frames refer back to earlier ones);
//! - the bytes a compressor (and the inflater for the client's frames) holds per socket,
//!   counted by the global allocator below;
//! - how many bytes each field of the state takes, and what trimming the largest would
//!   save, raw and deflated.
//!
//! The benchmarks then time deflating: `alone/*` one frame with a compressor reset
//! between frames (no context takeover), `alone_new/*` with a new compressor per frame,
//! `takeover/*` a whole stream through one new compressor, and through one compressor
//! reset before each frame (throughput in frames).
//! Kept short (20 samples, 3 s each): `cargo bench --bench frames`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress};

#[path = "frames/trims.rs"]
mod trims;

/// Counts the bytes allocated and not yet freed, and the most at once.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `System.alloc`, with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The first state a seat gets, by name.
const STATES: [(&str, &str); 7] = [
    (
        "flip, just dealt, seat to move",
        include_str!("frames/flip_start_mover.json"),
    ),
    (
        "flip, just dealt, other seat",
        include_str!("frames/flip_start_waiting.json"),
    ),
    (
        "flip, 40 actions in, seat to move",
        include_str!("frames/flip_40_mover.json"),
    ),
    (
        "flip, 40 actions in, other seat",
        include_str!("frames/flip_40_waiting.json"),
    ),
    (
        "standard, deploying",
        include_str!("frames/standard_deploying.json"),
    ),
    (
        "standard, just deployed, seat to move",
        include_str!("frames/standard_start_mover.json"),
    ),
    (
        "standard, just deployed, other seat",
        include_str!("frames/standard_start_waiting.json"),
    ),
];

/// Every frame one seat's socket received, one a line, by game.
const STREAMS: [(&str, &str); 2] = [
    ("flip", include_str!("frames/flip_stream.jsonl")),
    ("standard", include_str!("frames/standard_stream.jsonl")),
];

/// Actions played in each captured stream.
const ACTIONS: usize = 40;

const LEVELS: [u32; 2] = [1, 6];

fn frames(stream: &str) -> Vec<&str> {
    stream.lines().filter(|l| !l.is_empty()).collect()
}

fn state(text: &str) -> &str {
    text.trim_end()
}

/// Deflates one message as permessage-deflate sends it: a sync flush, and the flush's
/// empty stored block (`00 00 ff ff`) cut off. Appends to `out`; returns its length.
fn deflate(c: &mut Compress, msg: &[u8], out: &mut Vec<u8>) -> usize {
    let start = out.len();
    let mut input = msg;
    loop {
        out.reserve(input.len() + 64);
        let before = c.total_in();
        c.compress_vec(input, out, FlushCompress::Sync)
            .expect("deflate");
        input = &input[(c.total_in() - before) as usize..];
        // Output room left over: the flush is complete.
        if input.is_empty() && out.len() < out.capacity() {
            break;
        }
    }
    assert!(out.ends_with(&[0, 0, 0xff, 0xff]), "a sync flush's tail");
    out.truncate(out.len() - 4);
    out.len() - start
}

/// Inflates one message deflated by `deflate` (the tail put back), as a client does.
fn inflate(d: &mut Decompress, msg: &[u8], len: usize) -> Vec<u8> {
    let mut input = msg.to_vec();
    input.extend_from_slice(&[0, 0, 0xff, 0xff]);
    let mut out = Vec::with_capacity(len + 64);
    let before = d.total_in();
    d.decompress_vec(&input, &mut out, FlushDecompress::Sync)
        .expect("inflate");
    assert_eq!((d.total_in() - before) as usize, input.len());
    out
}

/// The size of `msg` deflated alone at `level`.
fn alone(level: u32, msg: &str) -> usize {
    let mut c = Compress::new(Compression::new(level), false);
    let mut out = Vec::new();
    let n = deflate(&mut c, msg.as_bytes(), &mut out);
    let back = inflate(&mut Decompress::new(false), &out, msg.len());
    assert_eq!(back, msg.as_bytes());
    n
}

/// Each frame's size deflated through one compressor (context takeover), checked by
/// inflating them in order through one inflater.
fn takeover(level: u32, frames: &[&str]) -> Vec<usize> {
    let mut c = Compress::new(Compression::new(level), false);
    let mut d = Decompress::new(false);
    frames
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            let n = deflate(&mut c, f.as_bytes(), &mut out);
            assert_eq!(inflate(&mut d, &out, f.len()), f.as_bytes());
            n
        })
        .collect()
}

/// Bytes still held once `work` has run on what `make` made, and the most held while
/// it ran, both counted from just before `make`.
fn footprint<T>(make: impl FnOnce() -> T, work: impl FnOnce(&mut T)) -> (usize, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut t = make();
    work(&mut t);
    let held = NOW.load(Ordering::Relaxed) - base;
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(t);
    (held, peak)
}

fn kib(n: usize) -> String {
    format!("{:.1} KiB", n as f64 / 1024.0)
}

fn sizes_report() {
    println!("## State frames: bytes raw, and raw-deflated alone (no context takeover)");
    println!();
    println!("| frame | raw | level 1 | level 6 |");
    println!("|---|---|---|---|");
    for (name, text) in STATES {
        let s = state(text);
        let (l1, l6) = (alone(1, s), alone(6, s));
        println!(
            "| {name} | {} | {l1} ({:.0}%) | {l6} ({:.0}%) |",
            s.len(),
            100.0 * l1 as f64 / s.len() as f64,
            100.0 * l6 as f64 / s.len() as f64
        );
    }
    println!();
    println!("## Streams: one seat's socket through {ACTIONS} actions");
    println!();
    println!(
        "| game | level | frames | first frame | later frames, total | later frames, per action | all |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (game, stream) in STREAMS {
        let frames = frames(stream);
        let raw: Vec<usize> = frames.iter().map(|f| f.len()).collect();
        let rows: [(&str, Vec<usize>); 5] = [
            ("raw", raw),
            ("1, alone", frames.iter().map(|f| alone(1, f)).collect()),
            ("6, alone", frames.iter().map(|f| alone(6, f)).collect()),
            ("1, context takeover", takeover(1, &frames)),
            ("6, context takeover", takeover(6, &frames)),
        ];
        for (level, sizes) in rows {
            let later: usize = sizes[1..].iter().sum();
            println!(
                "| {game} | {level} | {} | {} | {later} | {:.0} | {} |",
                sizes.len(),
                sizes[0],
                later as f64 / ACTIONS as f64,
                sizes.iter().sum::<usize>()
            );
        }
    }
    println!();
}

fn memory_report() {
    println!("## Memory per socket (allocator count; flate2's miniz_oxide backend)");
    println!();
    println!("| what | held | peak while working |");
    println!("|---|---|---|");
    let (_, flip) = STREAMS[0];
    let frames = frames(flip);
    let total: usize = frames.iter().map(|f| f.len()).sum();
    for level in LEVELS {
        let (held, _) = footprint(|| Compress::new(Compression::new(level), false), |_| {});
        println!("| compressor, level {level}, new | {} | |", kib(held));
        let mut out = Vec::with_capacity(total + 1024);
        let (held, peak) = footprint(
            || Compress::new(Compression::new(level), false),
            |c| {
                for f in &frames {
                    out.clear();
                    deflate(c, f.as_bytes(), &mut out);
                }
            },
        );
        println!(
            "| compressor, level {level}, after the flip stream | {} | {} |",
            kib(held),
            kib(peak)
        );
    }
    let deflated: Vec<Vec<u8>> = {
        let mut c = Compress::new(Compression::new(6), false);
        frames
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                deflate(&mut c, f.as_bytes(), &mut out);
                out
            })
            .collect()
    };
    let (held, _) = footprint(|| Decompress::new(false), |_| {});
    println!("| inflater (the client's frames), new | {} | |", kib(held));
    let (held, peak) = footprint(
        || Decompress::new(false),
        |d| {
            for (m, f) in deflated.iter().zip(&frames) {
                black_box(inflate(d, m, f.len()));
            }
        },
    );
    println!(
        "| inflater, after the flip stream (its output buffers freed) | {} | {} |",
        kib(held),
        kib(peak)
    );
    println!();
}

fn bench_alone(c: &mut Criterion) {
    let mut group = c.benchmark_group("alone");
    for (name, text) in [STATES[0], STATES[2], STATES[5]] {
        let s = state(text).as_bytes();
        group.throughput(Throughput::Bytes(s.len() as u64));
        for level in LEVELS {
            let mut comp = Compress::new(Compression::new(level), false);
            let mut out = Vec::with_capacity(s.len() + 64);
            group.bench_with_input(
                BenchmarkId::new(format!("level {level}"), name),
                s,
                |b, s| {
                    b.iter(|| {
                        comp.reset();
                        out.clear();
                        black_box(deflate(&mut comp, black_box(s), &mut out))
                    })
                },
            );
        }
    }
    group.finish();

    let mut group = c.benchmark_group("alone_new");
    let (name, text) = STATES[2];
    let s = state(text).as_bytes();
    group.throughput(Throughput::Bytes(s.len() as u64));
    for level in LEVELS {
        let mut out = Vec::with_capacity(s.len() + 64);
        group.bench_with_input(
            BenchmarkId::new(format!("level {level}"), name),
            s,
            |b, s| {
                b.iter(|| {
                    let mut comp = Compress::new(Compression::new(level), false);
                    out.clear();
                    black_box(deflate(&mut comp, black_box(s), &mut out))
                })
            },
        );
    }
    group.finish();
}

fn bench_takeover(c: &mut Criterion) {
    let mut group = c.benchmark_group("takeover");
    for (game, stream) in STREAMS {
        let frames = frames(stream);
        let total: usize = frames.iter().map(|f| f.len()).sum();
        group.throughput(Throughput::Elements(frames.len() as u64));
        for level in LEVELS {
            let mut out = Vec::with_capacity(total + 1024);
            group.bench_with_input(
                BenchmarkId::new(format!("level {level}"), game),
                &frames,
                |b, frames| {
                    b.iter(|| {
                        let mut comp = Compress::new(Compression::new(level), false);
                        let mut n = 0;
                        for f in frames {
                            out.clear();
                            n += deflate(&mut comp, f.as_bytes(), &mut out);
                        }
                        black_box(n)
                    })
                },
            );
            // The same stream with no context takeover: one compressor (as a worker
            // thread could share among its sockets) reset before every frame.
            let mut comp = Compress::new(Compression::new(level), false);
            group.bench_with_input(
                BenchmarkId::new(format!("level {level}, reset each frame"), game),
                &frames,
                |b, frames| {
                    b.iter(|| {
                        let mut n = 0;
                        for f in frames {
                            comp.reset();
                            out.clear();
                            n += deflate(&mut comp, f.as_bytes(), &mut out);
                        }
                        black_box(n)
                    })
                },
            );
        }
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_alone, bench_takeover
}

fn main() {
    sizes_report();
    memory_report();
    trims::fields_report();
    trims::trims_report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
