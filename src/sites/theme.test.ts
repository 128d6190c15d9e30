import { describe, expect, it } from "vitest";
import type { SiteContext } from "../server/modules/sites/sites.service.ts";
import { contrast } from "../shared/colour-contrast.ts";
import { themeCss } from "./theme.ts";

// Only what the stylesheet reads; the rest of a context does not matter here.
function site(website: Record<string, unknown> = {}, customization: Record<string, unknown> | null = null) {
  return { website: { id: "w", ...website }, customization } as unknown as SiteContext;
}

describe("a site's stylesheet (built once per look)", () => {
  it("follows every colour, size and font the author sets, however often it is asked", () => {
    const changes: [Record<string, unknown>, Record<string, unknown> | null, string][] = [
      [{ headerBackgroundColor: "#123456" }, null, "--header-bg:#123456"],
      [{ footerBackgroundColor: "#123457" }, null, "--footer-bg:#123457"],
      [{ iconColor: "#123458" }, null, "--icon:#123458"],
      [{ headerSize: "2.5" }, null, "--header-size:2.5rem"],
      [{ heroTextColor: "#123459" }, null, "--hero-text:#123459"],
      [{ heroButtonColor: "#12345a" }, null, "--hero-btn:#12345a"],
      [{ heroButtonTextColor: "#12345b" }, null, "--hero-btn-text:#12345b"],
      [{ heroButtonSecondaryColor: "#12345c" }, null, "--hero-btn2:#12345c"],
      [{ heroButtonSecondaryTextColor: "#12345d" }, null, "--hero-btn2-text:#12345d"],
      [{}, { accentColor: "#12345e" }, "--accent:#12345e"],
      [{}, { buttonColor: "#12345f" }, "--btn:#12345f"],
      [{}, { buttonHoverColor: "#123460" }, "--btn-hover:#123460"],
      [{}, { fontFamily: "poppins" }, '--font:"Poppins",sans-serif'],
    ];
    const plain = themeCss(site());
    expect(plain).toContain('--font:"Merriweather",serif');
    for (const [website, customization, expected] of changes) {
      for (let i = 0; i < 2; i++) {
        const css = themeCss(site(website, customization));
        expect(css).toContain(expected);
        expect(css).not.toBe(plain);
      }
    }
    // Back to the defaults: the first stylesheet again, not the last one built.
    expect(themeCss(site())).toBe(plain);
  });

  it("writes the header and footer in light text on a dark colour and dark text on a light one, not a muted grey", () => {
    const varOf = (css: string, name: string) => css.match(new RegExp(`${name}:(#[0-9a-f]{6})`))?.[1] ?? "";
    const brightness = (hex: string) =>
      [1, 3, 5].reduce((sum, i) => sum + Number.parseInt(hex.slice(i, i + 2), 16), 0) / 3;
    for (const navy of ["#1e3a8a", "#0f172a", "#312e81"]) {
      const css = themeCss(site({ headerBackgroundColor: navy, footerBackgroundColor: navy }));
      for (const v of ["--header-text", "--header-muted", "--footer-text"]) {
        const text = varOf(css, v);
        expect(contrast(text, navy), `${v} on ${navy}`).toBeGreaterThanOrEqual(4.5);
        // Near white, not a grey nudged just past 4.5:1.
        expect(brightness(text), `${v} on ${navy}`).toBeGreaterThan(220);
      }
      expect(contrast(varOf(css, "--header-text"), navy)).toBeGreaterThanOrEqual(7);
    }
    for (const light of ["#ffffff", "#fef3c7", "#e0f2fe"]) {
      const css = themeCss(site({ headerBackgroundColor: light, footerBackgroundColor: light }));
      for (const v of ["--header-text", "--header-muted", "--footer-text"]) {
        const text = varOf(css, v);
        expect(contrast(text, light), `${v} on ${light}`).toBeGreaterThanOrEqual(4.5);
        expect(brightness(text), `${v} on ${light}`).toBeLessThan(80);
      }
    }
  });
});
