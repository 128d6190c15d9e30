import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Stars } from "./pages/parts.tsx";

const drawn = (rating: number | null, show = true) => {
  const html = renderToStaticMarkup(<Stars rating={rating} show={show} />);
  const on = /<span aria-hidden="true">(★*)/.exec(html)?.[1]?.length ?? 0;
  const half = html.includes('class="half"');
  const off = /class="off">(★*)</.exec(html)?.[1]?.length ?? 0;
  return { html, on, half, off };
};

describe("star rating", () => {
  it("draws whole and half stars to the nearest half, always five in all", () => {
    expect(drawn(4.5)).toMatchObject({ on: 4, half: true, off: 0 });
    expect(drawn(4.2)).toMatchObject({ on: 4, half: false, off: 1 });
    expect(drawn(4.8)).toMatchObject({ on: 5, half: false, off: 0 });
    expect(drawn(0.3)).toMatchObject({ on: 0, half: true, off: 4 });
    expect(drawn(3.7).html).toContain('aria-label="Rated 3.7 out of 5"');
  });

  it("shows nothing when hidden or out of range", () => {
    for (const r of [0, -1, 5.1, null, Number.NaN]) expect(drawn(r).html).toBe("");
    expect(drawn(4, false).html).toBe("");
  });
});
