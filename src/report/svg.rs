//! Small inline SVG charts for the HTML reports: line charts (coverage against executions or time,
//! CPU time of a batch's tasks) and stacked bars (the lines of each configuration by status). Plain
//! SVG text, no script, no font files.
//!
//! Invariant: a line's status has one colour everywhere (`STATUSES`: the source's cells, the bars,
//! the legends, the lines covered in plots); configurations are told apart by dash patterns, never by
//! a colour of their own, so a colour never means two things on one page.

use std::fmt::Write;

use crate::base::markup::{self, Apostrophe};

/// One status of a line, as every page and chart shows it.
pub struct StatusStyle {
    /// The JSON report's name (`line_status`), also the CSS class `st-NAME`.
    pub key: &'static str,
    /// Its name in legends.
    pub label: &'static str,
    /// Its colour (Okabe and Ito's palette for colour-blind readers, with grey for lines the
    /// verifier never explored).
    pub colour: &'static str,
}

/// The statuses of lines to cover, in the order of every legend and stacked bar: decided first
/// (covered, proven not coverable), then undecided (unknown, over-approximation only), then outside
/// the over-approximation.
pub const STATUSES: [StatusStyle; 5] = [
    StatusStyle { key: "covered", label: "covered", colour: "#009E73" },
    StatusStyle { key: "not_coverable", label: "proven not coverable", colour: "#0072B2" },
    StatusStyle { key: "unknown", label: "unknown (search incomplete)", colour: "#D55E00" },
    StatusStyle { key: "over_only", label: "over-approximation only (not decided)", colour: "#F0E442" },
    StatusStyle { key: "unexplored", label: "unexplored (outside the over-approximation)", colour: "#BBBBBB" },
];

/// The colour of the status named `key` (black for anything else).
pub fn status_colour(key: &str) -> &'static str {
    STATUSES.iter().find(|s| s.key == key).map_or("#000000", |s| s.colour)
}

/// A neutral colour for series that are not lines of one status (an over-approximation, CPU times).
pub const NEUTRAL: &str = "#333333";

/// Dash patterns telling configurations apart (solid first).
const DASHES: [&str; 5] = ["", "8 4", "2 3", "8 3 2 3", "14 4"];

/// The dash pattern of the `i`-th configuration.
pub fn dash(i: usize) -> &'static str {
    DASHES[i % DASHES.len()]
}

/// Width and height of a line chart, in SVG units (= CSS pixels).
const W: f64 = 560.0;
const H: f64 = 280.0;
/// Margins: left (tick labels), right (half the last tick label), bottom (ticks and axis label).
const ML: f64 = 60.0;
const MR: f64 = 30.0;
const MB: f64 = 44.0;
/// The title's height, and one legend row's.
const TITLE_H: f64 = 26.0;
const LEGEND_ROW: f64 = 15.0;

/// One line of a line chart.
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its points (x, y), x ascending.
    pub points: Vec<(f64, f64)>,
    /// Where the run behind the series ended, when after its last point: the last value holds until
    /// there (a search that found nothing new after its last execution).
    pub end: Option<f64>,
    /// Its colour.
    pub colour: &'static str,
    /// Its dash pattern (`""`: solid).
    pub dash: &'static str,
}

/// An axis: its label, whether its values are counts (integer ticks only), and where it starts.
pub struct Axis<'a> {
    /// The label under (x) or beside (y) the axis.
    pub label: &'a str,
    /// Counts (executions, tasks): ticks are whole numbers.
    pub integer: bool,
    /// The smallest value shown (0, or 1 for "the n-th task").
    pub min: f64,
}

impl<'a> Axis<'a> {
    /// A count axis from 0.
    pub fn count(label: &'a str) -> Axis<'a> {
        Axis { label, integer: true, min: 0.0 }
    }

    /// A real-valued axis from 0.
    pub fn real(label: &'a str) -> Axis<'a> {
        Axis { label, integer: false, min: 0.0 }
    }
}

/// How the points of a line chart are joined.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// From the origin, each value holds until the next point (lines covered so far).
    Steps,
    /// A marker per point, joined by straight lines (a quantile plot).
    Points,
}

/// A line chart of `series`, with the legend above the plot; empty axes when there is no point.
pub fn line_chart(title: &str, x: &Axis, y: &Axis, series: &[Series], shape: Shape) -> String {
    let all_x = series.iter().flat_map(|s| s.points.iter().map(|p| p.0).chain(s.end));
    let xmax = all_x.fold(x.min, f64::max);
    let ymax = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(y.min, f64::max);
    let xt = ticks(x.min, xmax, x.integer);
    let yt = ticks(y.min, ymax, y.integer);
    let top = TITLE_H + LEGEND_ROW * series.len().max(1) as f64 + 8.0;
    let mut out = open(title, W, H + top - TITLE_H - LEGEND_ROW);
    let h = H + top - TITLE_H - LEGEND_ROW;
    let (x0, x1, y0, y1) = (ML, W - MR, h - MB, top);
    let px = |v: f64| x0 + (x1 - x0) * (v - xt.min) / (xt.max - xt.min);
    let py = |v: f64| y0 - (y0 - y1) * (v - yt.min) / (yt.max - yt.min);
    axes(&mut out, &xt, &yt, x, y, (x0, x1, y0, y1), h);
    for (i, s) in series.iter().enumerate() {
        let dash = if s.dash.is_empty() { String::new() } else { format!(r#" stroke-dasharray="{}""#, s.dash) };
        let mut d = String::new();
        match shape {
            Shape::Steps => {
                let mut last_y = y.min;
                for (k, &(vx, vy)) in s.points.iter().enumerate() {
                    if k == 0 {
                        let _ = write!(d, "M{:.1},{:.1}", px(x.min), py(y.min));
                    }
                    let _ = write!(d, " L{:.1},{:.1} L{:.1},{:.1}", px(vx), py(last_y), px(vx), py(vy));
                    last_y = vy;
                }
                if let (Some(end), Some(&(lx, _))) = (s.end, s.points.last()) {
                    if end > lx {
                        let _ = write!(d, " L{:.1},{:.1}", px(end), py(last_y));
                    }
                }
            }
            Shape::Points => {
                for (k, &(vx, vy)) in s.points.iter().enumerate() {
                    let _ = write!(d, "{}{:.1},{:.1}", if k == 0 { "M" } else { " L" }, px(vx), py(vy));
                }
            }
        }
        if !d.is_empty() {
            let _ = write!(
                out,
                r#"<path class="series" data-series="{}" d="{d}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
                escape(&s.name),
                s.colour
            );
        }
        if shape == Shape::Points {
            for &(vx, vy) in &s.points {
                let _ = write!(
                    out,
                    r#"<circle class="point" cx="{:.1}" cy="{:.1}" r="3" fill="{}"><title>{}: {}</title></circle>"#,
                    px(vx),
                    py(vy),
                    s.colour,
                    label(vx, &xt),
                    label(vy, &yt)
                );
            }
        }
        legend_line(&mut out, i, &s.name, s.colour, s.dash);
    }
    out.push_str("</svg>");
    out
}

/// One horizontal bar of a stacked bar chart: its label and its parts (a status of `STATUSES`, by
/// index, and how many lines), shown as shares of their sum.
pub struct StackedBar {
    /// What the bar shows.
    pub label: String,
    /// `(status index, lines)`, in the order of `STATUSES`.
    pub parts: Vec<(usize, usize)>,
}

/// Width of a stacked bar chart, and the room for the bars' labels on its left.
const SW: f64 = 760.0;
const SL: f64 = 250.0;
/// One bar's height and the gap below it.
const BAR_H: f64 = 20.0;
const BAR_GAP: f64 = 8.0;

/// A chart of horizontal bars, each split by status (shares of its own total, the counts in the
/// parts and their tooltips), with the legend of the statuses shown.
pub fn stacked_bars(title: &str, bars: &[StackedBar]) -> String {
    let shown: Vec<usize> =
        (0..STATUSES.len()).filter(|&s| bars.iter().any(|b| b.parts.iter().any(|&(k, n)| k == s && n > 0))).collect();
    // Two legend entries a row: the longest label takes most of half the chart's width.
    let legend_rows = shown.len().div_ceil(2).max(1) as f64;
    let top = TITLE_H + LEGEND_ROW * legend_rows + 6.0;
    let h = top + (BAR_H + BAR_GAP) * bars.len() as f64 + 4.0;
    let mut out = open(title, SW, h);
    for (k, &s) in shown.iter().enumerate() {
        let (col, row) = (k % 2, k / 2);
        let (lx, ly) = (8.0 + (SW / 2.0) * col as f64, TITLE_H + LEGEND_ROW * row as f64);
        let st = &STATUSES[s];
        let _ = write!(
            out,
            r#"<rect class="legend" data-status="{}" x="{lx:.1}" y="{ly:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{:.1}" font-size="11">{}</text>"#,
            st.key,
            st.colour,
            lx + 14.0,
            ly + 9.0,
            escape(st.label)
        );
    }
    let total_w = SW - SL - 70.0;
    for (i, b) in bars.iter().enumerate() {
        let y = top + (BAR_H + BAR_GAP) * i as f64;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"#,
            SL - 8.0,
            y + 14.0,
            escape(&shorten(&b.label, 40))
        );
        let total: usize = b.parts.iter().map(|p| p.1).sum();
        let mut x = SL;
        for &(s, n) in b.parts.iter().filter(|p| p.1 > 0) {
            let w = total_w * n as f64 / total as f64;
            let st = &STATUSES[s];
            let _ = write!(
                out,
                r#"<rect class="part" data-status="{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{BAR_H}" fill="{}"><title>{}: {n} {} ({:.1}%)</title></rect>"#,
                st.key,
                st.colour,
                escape(&b.label),
                st.label,
                100.0 * n as f64 / total as f64
            );
            let text = n.to_string();
            if w > 7.0 * text.len() as f64 + 6.0 {
                // Dark text on the light colours, white on the dark ones.
                let fill = if matches!(st.key, "over_only" | "unexplored") { "#000" } else { "#fff" };
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="{fill}">{text}</text>"#,
                    x + w / 2.0,
                    y + 14.0
                );
            }
            x += w;
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="11">{total} lines</text>"#,
            SL + total_w + 6.0,
            y + 14.0
        );
    }
    out.push_str("</svg>");
    out
}

/// The ticks of an axis from `min` to (at least) `max`.
#[derive(Debug, PartialEq)]
struct Ticks {
    min: f64,
    max: f64,
    step: f64,
    decimals: usize,
}

/// At most six ticks at round steps (1, 2, 2.5 or 5 times a power of ten; whole numbers on a count
/// axis) from `min`, the last at or above `max`.
fn ticks(min: f64, max: f64, integer: bool) -> Ticks {
    let span = if max > min && max.is_finite() { max - min } else { 1.0 };
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let steps: &[f64] = if integer && mag <= 1.0 { &[1.0, 2.0, 5.0, 10.0] } else { &[1.0, 2.0, 2.5, 5.0, 10.0] };
    let mut step = steps.iter().map(|m| m * mag).find(|&s| s >= raw * 0.999_999).unwrap_or(10.0 * mag);
    if integer {
        step = step.max(1.0).round();
    }
    let n = (span / step - 1e-9).ceil().max(1.0);
    let decimals = if integer {
        0
    } else {
        // Enough decimals for the step (2.5 x 10^k needs one more than 10^k).
        let mut d = (-step.log10().floor()).max(0.0) as usize;
        if (step / 10f64.powi(-(d as i32))).fract().abs() > 1e-9 {
            d += 1;
        }
        d
    };
    Ticks { min, max: min + n * step, step, decimals }
}

fn label(v: f64, t: &Ticks) -> String {
    format!("{v:.*}", t.decimals)
}

/// The opening tag and the title.
fn open(title: &str, w: f64, h: f64) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{t}"><text x="8" y="18" font-size="13" font-weight="bold">{t}</text>"#,
        t = escape(title)
    )
}

/// The axes, their ticks (with grid lines) and labels of a line chart.
fn axes(out: &mut String, xt: &Ticks, yt: &Ticks, x: &Axis, y: &Axis, frame: (f64, f64, f64, f64), h: f64) {
    let (x0, x1, y0, y1) = frame;
    let _ = write!(out, r##"<path d="M{x0},{y1} L{x0},{y0} L{x1},{y0}" fill="none" stroke="#444"/>"##);
    let mut v = yt.min;
    while v <= yt.max + yt.step * 1e-6 {
        let yy = y0 - (y0 - y1) * (v - yt.min) / (yt.max - yt.min);
        let _ = write!(
            out,
            r##"<path d="M{x0},{yy:.1} L{x1},{yy:.1}" stroke="#ddd"/><text class="ytick" x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            x0 - 4.0,
            yy + 4.0,
            label(v, yt)
        );
        v += yt.step;
    }
    let mut v = xt.min;
    while v <= xt.max + xt.step * 1e-6 {
        let xx = x0 + (x1 - x0) * (v - xt.min) / (xt.max - xt.min);
        let _ = write!(
            out,
            r##"<path d="M{xx:.1},{y0} L{xx:.1},{:.1}" stroke="#444"/><text class="xtick" x="{xx:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"##,
            y0 + 4.0,
            y0 + 16.0,
            label(v, xt)
        );
        v += xt.step;
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text><text x="12" y="{:.1}" font-size="11" text-anchor="middle" transform="rotate(-90 12 {:.1})">{}</text>"#,
        (x0 + x1) / 2.0,
        h - 8.0,
        escape(x.label),
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0,
        escape(y.label)
    );
}

/// A legend row for a line: a short stroke in its colour and dash pattern, and its name.
fn legend_line(out: &mut String, i: usize, name: &str, colour: &str, dash: &str) {
    let ly = TITLE_H + LEGEND_ROW * i as f64 + 5.0;
    let dash = if dash.is_empty() { String::new() } else { format!(r#" stroke-dasharray="{dash}""#) };
    let _ = write!(
        out,
        r#"<path class="legend" d="M{ML},{ly:.1} L{:.1},{ly:.1}" stroke="{colour}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}" font-size="11">{}</text>"#,
        ML + 28.0,
        ML + 34.0,
        ly + 4.0,
        escape(&shorten(name, 70))
    );
}

fn shorten(s: &str, max: usize) -> String {
    let max = max.max(4);
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

/// Escapes text for SVG/HTML content and attributes.
pub(super) fn escape(s: &str) -> String {
    markup::escape(s, Apostrophe::Numeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &Ticks) -> Vec<String> {
        let mut v = t.min;
        let mut res = Vec::new();
        while v <= t.max + t.step * 1e-6 {
            res.push(label(v, t));
            v += t.step;
        }
        res
    }

    #[test]
    fn round_ticks() {
        assert_eq!(labels(&ticks(0.0, 0.0, false)), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        assert_eq!(labels(&ticks(0.0, 7.0, true)), ["0", "2", "4", "6", "8"]);
        assert_eq!(labels(&ticks(0.0, 203.0, true)), ["0", "50", "100", "150", "200", "250"]);
        assert_eq!(labels(&ticks(0.0, 0.0093, false)), ["0.000", "0.002", "0.004", "0.006", "0.008", "0.010"]);
        assert_eq!(labels(&ticks(0.0, 30.2, false)), ["0", "10", "20", "30", "40"]);
        assert_eq!(labels(&ticks(0.0, 12.0, false)), ["0.0", "2.5", "5.0", "7.5", "10.0", "12.5"]);
    }

    #[test]
    fn count_axes_have_whole_ticks() {
        // Two tasks: never 0.8 or 1.6 tasks.
        assert_eq!(labels(&ticks(1.0, 2.0, true)), ["1", "2"]);
        assert_eq!(labels(&ticks(1.0, 4.0, true)), ["1", "2", "3", "4"]);
        assert_eq!(labels(&ticks(0.0, 3.0, true)), ["0", "1", "2", "3"]);
        for max in 1..200 {
            let t = ticks(0.0, max as f64, true);
            assert!(t.step.fract() == 0.0 && t.max >= max as f64, "{max}: {t:?}");
        }
    }

    #[test]
    fn charts_are_svg_with_escaped_names() {
        let s = line_chart(
            "t",
            &Axis::count("x"),
            &Axis::count("y"),
            &[Series {
                name: "a<b".into(),
                points: vec![(1.0, 2.0), (3.0, 4.0)],
                end: Some(5.0),
                colour: "#000",
                dash: "",
            }],
            Shape::Steps,
        );
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert!(s.contains("a&lt;b") && !s.contains("a<b"));
        assert!(s.contains(r#"class="series""#));
        // The series goes on to where the run ended.
        assert!(s.contains("L530.0,"), "{s}");
        let b = stacked_bars(
            "t",
            &[
                StackedBar { label: "v".into(), parts: vec![(0, 3), (1, 2), (4, 5)] },
                StackedBar { label: "p".into(), parts: vec![(0, 5), (2, 1)] },
            ],
        );
        assert_eq!(b.matches(r#"<rect class="part""#).count(), 5);
        assert_eq!(b.matches(r#"<rect class="legend""#).count(), 4, "the statuses present");
        // Shares of each bar's own total: 3, 2 and 5 of 10 lines over 440 units.
        for part in [r#"data-status="covered" x="250.0" y="62.0" width="132.0""#, r#"width="88.0""#, r#"width="220.0""#]
        {
            assert!(b.contains(part), "{part}: {b}");
        }
    }
}
