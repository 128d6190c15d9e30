// WCAG contrast between two hex colours, and the nearest readable shade of a colour: the public
// site's theme derives its text colours with these, and the dashboard's colour preview shows the
// same shades, so the preview never promises a colour the site would not use.
type Rgb = [number, number, number];
function rgb(hex: string): Rgb {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}
const toHex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** WCAG 2 contrast ratio of two hex colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((m, n) => n - m) as [number, number];
  return (x + 0.05) / (y + 0.05);
}
const mix = (a: Rgb, b: Rgb, t: number): Rgb => a.map((v, i) => v + ((b[i] ?? v) - v) * t) as Rgb;

/** `fg`, moved towards black or white (whichever the background needs) until it reads on `bg`. */
export function readable(fg: string, bg: string, min = 4.5): string {
  if (contrast(fg, bg) >= min) return fg;
  const target: Rgb = luminance(rgb(bg)) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let t = 0.05; t <= 1; t += 0.05) {
    const c = toHex(mix(rgb(fg), target, t));
    if (contrast(c, bg) >= min) return c;
  }
  return toHex(target);
}
