// The short path for plain paragraphs must give exactly what sanitize-html gives, or not be taken.
import { describe, expect, it } from "vitest";
import { cleanAuthorHtml, sanitizedAuthorHtml } from "./html.ts";

/** A small seeded generator, so a failure names an input that can be run again. */
function random(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

// Text the short path keeps as it is (what sanitize-html keeps too, it is held to)…
const PLAIN = [
  "The launch is on Friday",
  " ",
  "  ",
  "é",
  "日本",
  "😀",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "\ud800",
  "-",
  ",",
  ".",
  "!",
  "=",
  "/",
  "\\",
  "`",
];
// …and what it must turn away, for sanitize-html to clean.
const TRICKY = [
  "&",
  "&amp;",
  "&nbsp;",
  "&lt;",
  "<",
  ">",
  '"',
  "'",
  "\n",
  "\t",
  "\r",
  "\u0000",
  "\u007f",
  "<br>",
  "<b>x</b>",
  "<script>alert(1)</script>",
  "<!-- c -->",
  "</p>",
  "<p>",
  "<P>",
];

function paragraphText(next: () => number): string {
  let text = "";
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) {
    const from = next() < 0.9 ? PLAIN : TRICKY;
    text += from[Math.floor(next() * from.length)];
  }
  return text;
}

function inputOf(next: () => number): string {
  const n = 1 + Math.floor(next() * 4);
  let html = "";
  for (let i = 0; i < n; i++) {
    const open = next() < 0.9 ? "<p>" : next() < 0.5 ? '<p class="x">' : "<div>";
    const close = open === "<div>" ? "</div>" : "</p>";
    html += `${open}${paragraphText(next)}${close}`;
    if (next() < 0.1) html += next() < 0.5 ? "\n" : " ";
  }
  return html;
}

describe("cleaning author HTML", () => {
  it("gives what sanitize-html gives, for plain paragraphs and for everything else", () => {
    const next = random(84);
    let short = 0;
    const inputs = [
      "<p>The launch is on Friday, and the first chapter is free.</p>",
      "<p></p>",
      "<p> </p>",
      "<p>\u00a0</p><p></p>",
      "<p>a</p><p>b</p>",
      "<p>a</p> <p>b</p>",
      " <p>a</p>",
      "<p>Tom &amp; Jerry</p>",
      "<p>x < y</p>",
      '<p>"quoted"</p>',
    ];
    for (let i = 0; i < 8_000; i++) inputs.push(inputOf(next));
    for (const html of inputs) {
      expect(cleanAuthorHtml(html), html).toBe(sanitizedAuthorHtml(html));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters the short path turns away
      if (/^(<p>[^<>]*<\/p>)+$/.test(html) && !/[&"'\u0000-\u001f\u007f]/.test(html)) short++;
    }
    // Both kinds were tried, many times over.
    expect(short).toBeGreaterThan(2_000);
    expect(inputs.length - short).toBeGreaterThan(2_000);
  });

  it("still takes out what is not allowed, and calls a body of nothing blank", () => {
    expect(cleanAuthorHtml("<p>Hi</p><script>alert(1)</script>")).toBe("<p>Hi</p>");
    expect(cleanAuthorHtml('<p onclick="x()">Hi</p>')).toBe("<p>Hi</p>");
    expect(cleanAuthorHtml("<p>  </p><p></p>")).toBeNull();
    expect(cleanAuthorHtml("<p>Plain words.</p>")).toBe("<p>Plain words.</p>");
  });
});
