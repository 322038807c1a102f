// A line chart in SVG, drawn here (no chart library): points of (time,
// count) with labelled axes and a title per point for its values.

const ns = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const e = document.createElementNS(ns, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// niceMax rounds a maximum up to 1, 2 or 5 times a power of ten.
function niceMax(v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

// when labels an end of the time axis: the day, and the minute when the
// chart spans less than two days.
const when = (t, span) => new Date(t).toISOString().slice(0, span < 2 * 86400000 ? 16 : 10).replace('T', ' ');

// lineChart returns an <svg> of points [{t: ms, y: number, label}], in
// time order, with the accessible name title.
export function lineChart(points, title) {
  const W = 720, H = 260, L = 64, R = 16, T = 16, B = 40;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title, class: 'chart' });
  root.append(svg('title', {}, title));
  if (!points.length) {
    root.append(svg('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'chart-label' }, 'No list version yet.'));
    return root;
  }
  const t0 = points[0].t, t1 = points[points.length - 1].t;
  const span = t1 - t0 || 1;
  const ymax = niceMax(Math.max(...points.map((p) => p.y)));
  const x = (t) => (points.length === 1 ? L + (W - L - R) / 2 : L + ((t - t0) / span) * (W - L - R));
  const y = (v) => T + (1 - v / ymax) * (H - T - B);
  for (let i = 0; i <= 4; i++) {
    const v = (ymax * i) / 4;
    root.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'chart-grid' }));
    root.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'chart-label' }, Math.round(v).toLocaleString('en-US')));
  }
  root.append(svg('text', { x: L, y: H - 12, 'text-anchor': 'start', class: 'chart-label' }, when(t0, span)));
  if (points.length > 1) root.append(svg('text', { x: W - R, y: H - 12, 'text-anchor': 'end', class: 'chart-label' }, when(t1, span)));
  // A step line: the count holds until the next version.
  let d = '';
  points.forEach((p, i) => {
    d += i === 0 ? `M${x(p.t)},${y(p.y)}` : `H${x(p.t)}V${y(p.y)}`;
  });
  root.append(svg('path', { d, class: 'chart-line' }));
  for (const p of points) {
    const c = svg('circle', { cx: x(p.t), cy: y(p.y), r: 3.5, class: 'chart-point' });
    c.append(svg('title', {}, p.label));
    root.append(c);
  }
  return root;
}
