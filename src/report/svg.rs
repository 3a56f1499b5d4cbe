//! Small inline SVG charts for the HTML report: a line chart (coverage against executions or time)
//! and a grouped bar chart (configurations side by side). Plain SVG text, no script, no font files.

use std::fmt::Write;

/// Width and height of a chart, in SVG units.
const W: f64 = 560.0;
const H: f64 = 260.0;
/// Margins: left (tick labels), right, top (title), bottom (axis label).
const ML: f64 = 56.0;
const MR: f64 = 16.0;
const MT: f64 = 48.0;
const MB: f64 = 44.0;

/// Colours of the series, in order.
const COLOURS: [&str; 6] = ["#2e7d32", "#c77c02", "#1565c0", "#8e24aa", "#c62828", "#00838f"];

/// One line of a line chart.
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its points (x, y), x ascending.
    pub points: Vec<(f64, f64)>,
}

/// A step-line chart of `series` with axis labels; empty axes when there is no point.
pub fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let xmax = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).fold(0.0, f64::max);
    let ymax = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max);
    let (xmax, ymax) = (nice(xmax), nice(ymax));
    let mut out = frame(title, x_label, y_label, xmax, ymax);
    let x = |v: f64| ML + (W - ML - MR) * v / xmax;
    let y = |v: f64| H - MB - (H - MB - MT) * v / ymax;
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut d = String::new();
        let mut last_y = 0.0;
        for (k, &(px, py)) in s.points.iter().enumerate() {
            if k == 0 {
                let _ = write!(d, "M{:.1},{:.1}", x(0.0), y(0.0));
            }
            // A step: the value holds until the next point.
            let _ = write!(d, " L{:.1},{:.1} L{:.1},{:.1}", x(px), y(last_y), x(px), y(py));
            last_y = py;
        }
        if !d.is_empty() {
            let _ = write!(
                out,
                r#"<path class="series" data-series="{}" d="{d}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                escape(&s.name)
            );
        }
        legend(&mut out, i, &s.name, colour);
    }
    out.push_str("</svg>");
    out
}

/// A grouped bar chart: one group per label, one bar per series value (`groups[g][s]`).
pub fn bar_chart(title: &str, y_label: &str, labels: &[String], series_names: &[&str], groups: &[Vec<f64>]) -> String {
    let ymax = nice(groups.iter().flatten().copied().fold(0.0, f64::max));
    let mut out = frame(title, "", y_label, 0.0, ymax);
    let y = |v: f64| H - MB - (H - MB - MT) * v / ymax;
    let n = labels.len().max(1) as f64;
    let group_w = (W - ML - MR) / n;
    let bar_w = (group_w * 0.8) / series_names.len().max(1) as f64;
    for (g, label) in labels.iter().enumerate() {
        let gx = ML + group_w * g as f64 + group_w * 0.1;
        for (s, v) in groups[g].iter().enumerate() {
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {} {}</title></rect>"#,
                gx + bar_w * s as f64,
                y(*v),
                bar_w * 0.95,
                (H - MB - y(*v)).max(0.0),
                COLOURS[s % COLOURS.len()],
                escape(label),
                v,
                escape(series_names[s])
            );
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
            gx + group_w * 0.4,
            H - MB + 16.0,
            escape(&shorten(label, (group_w / 6.5) as usize))
        );
    }
    for (s, name) in series_names.iter().enumerate() {
        legend(&mut out, s, name, COLOURS[s % COLOURS.len()]);
    }
    out.push_str("</svg>");
    out
}

/// The opening tag, title, axes, ticks and labels (x ticks only when `xmax` > 0).
fn frame(title: &str, x_label: &str, y_label: &str, xmax: f64, ymax: f64) -> String {
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="{t}"><text x="8" y="18" font-size="13" font-weight="bold">{t}</text>"#,
        t = escape(title)
    );
    let (x0, y0, x1, y1) = (ML, H - MB, W - MR, MT);
    let _ = write!(out, r##"<path d="M{x0},{y1} L{x0},{y0} L{x1},{y0}" fill="none" stroke="#444"/>"##);
    for k in 0..=4 {
        let v = ymax * k as f64 / 4.0;
        let yy = y0 - (y0 - y1) * k as f64 / 4.0;
        let _ = write!(
            out,
            r##"<path d="M{x0},{yy:.1} L{x1},{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            x0 - 4.0,
            yy + 4.0,
            tick(v, ymax)
        );
        if xmax > 0.0 {
            let xx = x0 + (x1 - x0) * k as f64 / 4.0;
            let _ = write!(
                out,
                r#"<text x="{xx:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
                y0 + 14.0,
                tick(xmax * k as f64 / 4.0, xmax)
            );
        }
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text><text x="12" y="{:.1}" font-size="11" text-anchor="middle" transform="rotate(-90 12 {:.1})">{}</text>"#,
        (x0 + x1) / 2.0,
        H - 6.0,
        escape(x_label),
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0,
        escape(y_label)
    );
    out
}

/// The legend, at the top right, inside the frame.
fn legend(out: &mut String, i: usize, name: &str, colour: &str) {
    const LEGEND_W: f64 = 190.0;
    let ly = MT - 22.0 + 14.0 * i as f64;
    let _ = write!(
        out,
        r#"<rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{colour}"/><text x="{:.1}" y="{:.1}" font-size="11">{}</text>"#,
        W - MR - LEGEND_W,
        ly,
        W - MR - LEGEND_W + 14.0,
        ly + 9.0,
        escape(&shorten(name, 30))
    );
}

/// The smallest "round" number at least `v` whose quarters are round too (1, 1.2, 1.6, 2, 2.4, 3.2, 4, 6
/// or 8 times a power of ten); 1 for 0.
fn nice(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 1.2, 1.6, 2.0, 2.4, 3.2, 4.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&c| c >= v * 0.999_999)
        .unwrap_or(10.0 * p)
}

/// A tick label: as many decimals as the axis maximum `max` needs to tell its quarters apart.
fn tick(v: f64, max: f64) -> String {
    let decimals = (2.0 - max.log10().floor()).clamp(0.0, 6.0) as usize;
    if v == v.trunc() && max >= 4.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.decimals$}")
    }
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
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_axis_maxima() {
        assert_eq!(nice(0.0), 1.0);
        assert_eq!(nice(7.0), 8.0);
        assert_eq!(nice(12.0), 12.0);
        assert_eq!(nice(203.0), 240.0);
        assert_eq!(nice(250.0), 320.0);
        assert!((nice(0.3) - 0.32).abs() < 1e-9);
    }

    #[test]
    fn charts_are_svg_with_escaped_names() {
        let s = line_chart("t", "x", "y", &[Series { name: "a<b".into(), points: vec![(1.0, 2.0), (3.0, 4.0)] }]);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert!(s.contains("a&lt;b") && !s.contains("a<b"));
        assert!(s.contains(r#"class="series""#));
        let b =
            bar_chart("t", "lines", &["v".into(), "p".into()], &["over", "under"], &[vec![3.0, 2.0], vec![5.0, 1.0]]);
        assert_eq!(b.matches("<rect").count(), 4 + 2, "bars and legend boxes");
    }
}
