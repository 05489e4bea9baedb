//! The rules page's four-player diagrams, drawn on the server as SVG from the board
//! the rules core builds (the stations' kinds and grid places, the connections, the
//! straight lines and where a slide can end: what `/api/board?variant=siguo` sends),
//! so the page needs no script for them and can never disagree with the board played.
//! Written once per language: the board never changes while the server runs. Styles
//! are classes in static/css/rules.css (the CSP allows no inline style).

use crate::rules::board::EdgeKind;
use crate::rules::siguo::board::{area, edges, rail_lines, slide_reach};
use crate::rules::siguo::station::{CENTER_NAMES, GRID};
use crate::rules::siguo::{Kind, Seat4, Station, StationSet};
use std::fmt::Write as _;
use std::sync::LazyLock;

/// The two diagrams of the page's four-player section, in one language.
pub struct Diagrams {
    /// The whole board: the four areas and the 九宫, every station named, road and
    /// rail, the arcs.
    pub board: String,
    /// A slide from [`ROUTE_FROM`] on an empty board: where it may stop, and the route
    /// round the arc to [`ROUTE_TO`].
    pub route: String,
}

/// The route diagram's piece and the end of the route it draws (RULES §5.1.3: going
/// up a side file, a piece may run on round the arc; both ways count as straight).
pub const ROUTE_FROM: &str = "Se3";
pub const ROUTE_TO: &str = "Ea2";

static ZH: LazyLock<Diagrams> = LazyLock::new(|| draw(false));
static EN: LazyLock<Diagrams> = LazyLock::new(|| draw(true));

pub fn diagrams(en: bool) -> &'static Diagrams {
    if en { &EN } else { &ZH }
}

fn draw(en: bool) -> Diagrams {
    Diagrams {
        board: board(en),
        route: route(en),
    }
}

/// Grid units to the SVG's user units: x grows east, y north on the grid, so the
/// drawing turns y over (south at the bottom, as the rules describe the board).
struct Frame {
    unit: f64,
    margin: f64,
}

impl Frame {
    fn point(&self, x: f64, y: f64) -> (f64, f64) {
        (
            r(self.margin + x * self.unit),
            r(self.margin + (f64::from(GRID - 1) - y) * self.unit),
        )
    }

    fn at(&self, s: Station) -> (f64, f64) {
        let (x, y) = s.grid();
        self.point(f64::from(x), f64::from(y))
    }

    fn size(&self) -> f64 {
        2.0 * self.margin + f64::from(GRID - 1) * self.unit
    }

    fn open(&self, class: &str, label: &str) -> String {
        let size = self.size();
        format!(
            "<svg class=\"sgr {class}\" data-diagram=\"{class}\" viewBox=\"0 0 {size} {size}\" \
             role=\"img\" aria-label=\"{label}\" xmlns=\"http://www.w3.org/2000/svg\">\
             <title>{label}</title>"
        )
    }

    /// The path between two connected stations: straight, or for an arc (弧形线, the
    /// only rail link a diagonal step long) a curve bending round the inner corner, as
    /// the table page draws it.
    fn segment(&self, a: Station, b: Station, kind: EdgeKind, continued: bool) -> String {
        let (p, q) = (self.at(a), self.at(b));
        let mut d = if continued {
            String::new()
        } else {
            format!("M{} {}", p.0, p.1)
        };
        let ((ax, ay), (bx, by)) = (a.grid(), b.grid());
        if kind == EdgeKind::Rail && (ax - bx).abs() == 1 && (ay - by).abs() == 1 {
            // Of the step's two corners, the one nearer the centre is where both lines meet.
            let c = GRID / 2;
            let near = |x: i8, y: i8| (x - c).abs() + (y - c).abs();
            let (cx, cy) = if near(ax, by) <= near(bx, ay) {
                (ax, by)
            } else {
                (bx, ay)
            };
            let k = self.point(f64::from(cx), f64::from(cy));
            let _ = write!(d, " Q{} {} {} {}", k.0, k.1, q.0, q.1);
        } else {
            let _ = write!(d, " L{} {}", q.0, q.1);
        }
        d
    }

    /// The tinted fields of the four areas and the 九宫, each round its stations.
    fn fields(&self, out: &mut String) {
        let boxed = |out: &mut String, class: &str, stations: &mut dyn Iterator<Item = Station>| {
            let grid: Vec<(i8, i8)> = stations.map(Station::grid).collect();
            let (x0, x1) = min_max(grid.iter().map(|g| g.0));
            let (y0, y1) = min_max(grid.iter().map(|g| g.1));
            let pad = 0.45;
            let (left, top) = self.point(f64::from(x0) - pad, f64::from(y1) + pad);
            let (right, bottom) = self.point(f64::from(x1) + pad, f64::from(y0) - pad);
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/>",
                r(left),
                r(top),
                r(right - left),
                r(bottom - top),
                r(self.unit * 0.2)
            );
        };
        for seat in Seat4::ALL {
            let class = format!("sgr-area sgr-area-{}", seat.name());
            boxed(out, &class, &mut area(seat));
        }
        boxed(out, "sgr-centre", &mut centre());
    }

    /// Road, then rail over it (with its ties), as paths.
    fn lines(&self, out: &mut String) {
        for (kind, class) in [(EdgeKind::Road, "sgr-roads"), (EdgeKind::Rail, "sgr-rails")] {
            let _ = write!(out, "<g class=\"{class}\">");
            for &(a, b, k) in edges().iter().filter(|e| e.2 == kind) {
                let arc = if self.segment(a, b, k, false).contains('Q') {
                    " data-arc=\"\""
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    "<path d=\"{}\" data-edge=\"{a}-{b}\"{arc}/>",
                    self.segment(a, b, k, false)
                );
            }
            out.push_str("</g>");
        }
        out.push_str("<g class=\"sgr-ties\">");
        for &(a, b, k) in edges().iter().filter(|e| e.2 == EdgeKind::Rail) {
            let _ = write!(out, "<path d=\"{}\"/>", self.segment(a, b, k, false));
        }
        out.push_str("</g>");
    }

    /// A station's mark: camps round, headquarters wide and rounded, the others small
    /// tiles (the 九宫's of their own colour). `extra` adds classes.
    fn station(&self, out: &mut String, s: Station, extra: &str, attrs: &str) {
        let (x, y) = self.at(s);
        let kind = kind_name(s.kind());
        let class = format!("st st-{kind}{extra}");
        let u = self.unit;
        if s.kind() == Kind::Camp {
            let _ = write!(
                out,
                "<circle class=\"{class}\" data-station=\"{s}\" data-kind=\"{kind}\"{attrs} cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                r(x),
                r(y),
                r(u * 0.3)
            );
            return;
        }
        let (w, h, rx) = if s.kind() == Kind::Hq {
            (0.72, 0.48, 0.22)
        } else {
            (0.62, 0.4, 0.06)
        };
        let _ = write!(
            out,
            "<rect class=\"{class}\" data-station=\"{s}\" data-kind=\"{kind}\"{attrs} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"/>",
            r(x - u * w / 2.0),
            r(y - u * h / 2.0),
            r(u * w),
            r(u * h),
            r(u * rx)
        );
    }

    /// A station's name, on it or (`beside`) below and to its right.
    fn name(&self, out: &mut String, s: Station, class: &str, beside: bool) {
        let (x, y) = self.at(s);
        let (x, y) = if beside {
            (x + self.unit * 0.45, y + self.unit * 0.75)
        } else {
            (x, y)
        };
        let (x, y) = (r(x), r(y));
        let _ = write!(
            out,
            "<text class=\"{class}\" x=\"{x}\" y=\"{y}\">{s}</text>"
        );
    }
}

/// A length to the hundredth, so that the page does not carry float noise
/// (10.799999999999999).
fn r(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn min_max(values: impl Iterator<Item = i8>) -> (i8, i8) {
    values.fold((i8::MAX, i8::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

fn centre() -> impl Iterator<Item = Station> {
    CENTER_NAMES
        .iter()
        .map(|n| n.parse::<Station>().expect("a 九宫 name"))
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Hq => "hq",
        Kind::Camp => "camp",
        Kind::Rail => "rail",
        Kind::Road => "road",
        Kind::Center => "center",
    }
}

fn seat_word(seat: Seat4, en: bool) -> &'static str {
    match (seat, en) {
        (Seat4::South, false) => "南",
        (Seat4::East, false) => "东",
        (Seat4::North, false) => "北",
        (Seat4::West, false) => "西",
        (Seat4::South, true) => "S",
        (Seat4::East, true) => "E",
        (Seat4::North, true) => "N",
        (Seat4::West, true) => "W",
    }
}

fn board(en: bool) -> String {
    let f = Frame {
        unit: 36.0,
        margin: 34.0,
    };
    let label = if en {
        "The four-player board: four areas of 30 stations round the 九宫, every station named"
    } else {
        "四国军棋棋盘：四个各 30 个棋位的阵地围绕九宫，标出全部棋位名称"
    };
    let mut out = f.open("siguo-board", label);
    f.fields(&mut out);
    f.lines(&mut out);
    out.push_str("<g class=\"sgr-stations\">");
    for s in Station::all() {
        f.station(&mut out, s, "", "");
    }
    out.push_str("</g><g class=\"sgr-names\">");
    for s in Station::all() {
        f.name(&mut out, s, "st-name", false);
    }
    out.push_str("</g><g class=\"sgr-seats\">");
    // Each seat's word beyond the middle of its back row, in the margin.
    for seat in Seat4::ALL {
        let back = Station::of(seat, 2, 1).expect("c1");
        let (bx, by) = back.grid();
        let c = f64::from(GRID / 2);
        let (dx, dy) = (f64::from(bx) - c, f64::from(by) - c);
        let reach = (f64::from(GRID / 2) + 0.75) / dx.abs().max(dy.abs());
        let (x, y) = f.point(c + dx * reach, c + dy * reach);
        let _ = write!(
            out,
            "<text class=\"sgr-seat sgr-seat-{}\" x=\"{x}\" y=\"{y}\">{}</text>",
            seat.name(),
            seat_word(seat, en)
        );
    }
    out.push_str("</g></svg>");
    out
}

/// The stations of the straight line from `a` to `b`, both included, if one runs
/// through both.
fn line_between(a: Station, b: Station) -> Option<Vec<Station>> {
    rail_lines().iter().find_map(|line| {
        let i = line.iter().position(|&s| s == a)?;
        let j = line.iter().position(|&s| s == b)?;
        Some(if i <= j {
            line[i..=j].to_vec()
        } else {
            line[j..=i].iter().rev().copied().collect()
        })
    })
}

fn route(en: bool) -> String {
    let f = Frame {
        unit: 18.0,
        margin: 12.0,
    };
    let from: Station = ROUTE_FROM.parse().expect("a station");
    let to: Station = ROUTE_TO.parse().expect("a station");
    let reach = slide_reach(from, StationSet::EMPTY);
    let label = if en {
        "Where a piece other than an engineer on Se3 can stop on an empty board, and its route round the arc to Ea2"
    } else {
        "空棋盘上 Se3 的非工兵棋子可以停下的棋位，以及经弧形线到 Ea2 的路线"
    };
    let mut out = f.open("siguo-route", label);
    f.fields(&mut out);
    f.lines(&mut out);
    let line = line_between(from, to).expect("one straight line runs from Se3 to Ea2");
    let mut d = String::new();
    for (i, w) in line.windows(2).enumerate() {
        d.push_str(&f.segment(w[0], w[1], EdgeKind::Rail, i > 0));
    }
    let _ = write!(out, "<path class=\"sgr-route\" d=\"{d}\"/>");
    out.push_str("<g class=\"sgr-stations\">");
    for s in Station::all() {
        let (extra, attrs) = match () {
            _ if s == from => (" sgr-from", " data-from=\"\""),
            _ if reach.contains(s) => (" sgr-reach", " data-reach=\"\""),
            _ => ("", ""),
        };
        f.station(&mut out, s, extra, attrs);
    }
    out.push_str("</g>");
    // Both names fall in the empty corner between South and East, off the stations.
    f.name(&mut out, from, "sgr-route-name", true);
    f.name(&mut out, to, "sgr-route-name", true);
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_runs_round_the_arc_and_the_reach_is_the_cores() {
        let route = line_between("Se3".parse().unwrap(), "Ea2".parse().unwrap()).unwrap();
        let names: Vec<String> = route.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            names,
            [
                "Se3", "Se4", "Se5", "Se6", "Ea6", "Ea5", "Ea4", "Ea3", "Ea2"
            ]
        );
        let svg = &diagrams(false).route;
        let reach = slide_reach("Se3".parse().unwrap(), StationSet::EMPTY);
        assert_eq!(svg.matches("data-reach=").count(), reach.len() as usize);
        let route = &svg[svg.find("class=\"sgr-route\"").unwrap()..];
        let route = &route[..route.find("/>").unwrap()];
        assert_eq!(route.matches(" Q").count(), 1, "the route takes one arc");
        assert_eq!(route.matches(" L").count(), 7);
    }

    #[test]
    fn the_board_draws_every_station_and_connection_once() {
        for en in [false, true] {
            let svg = &diagrams(en).board;
            assert_eq!(svg.matches("data-station=").count(), Station::all().count());
            assert_eq!(svg.matches("data-edge=").count(), edges().len());
            assert_eq!(
                svg.matches("data-arc=").count(),
                4,
                "one arc per inner corner"
            );
        }
    }
}
