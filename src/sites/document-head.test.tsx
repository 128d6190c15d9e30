// The document's head is built as text (headMarkup, ADR 080): it must be, byte for byte, what
// React made of the same elements, for any title, description, image and site name an author or
// reader could bring — quotes, ampersands, angle brackets, non-Latin text — in every mode.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type SiteContext, sectionShown } from "../server/modules/sites/sites.service.ts";
import { headMarkup } from "./document.tsx";
import { href, type PageEnv, siteName } from "./pages/layout.tsx";
import { cut } from "./sanitize.ts";

type Head = Parameters<typeof headMarkup>[1];

/** The head as React rendered it before ADR 080, after the charset and the viewport. */
function reactHead(env: PageEnv, head: Head, canonical: string, fonts: string[]): string {
  const { ctx, origin } = env;
  const description = head.description ? cut(head.description, 160) : undefined;
  const image = head.image ? (head.image.startsWith("/") ? `${origin}${head.image}` : head.image) : undefined;
  return renderToStaticMarkup(
    <>
      <link rel="icon" href="data:," />
      <title>{head.title}</title>
      {description && <meta name="description" content={description} />}
      <link rel="canonical" href={canonical} />
      {env.mode === "preview" && <meta name="robots" content="noindex" />}
      <meta property="og:type" content={head.type ?? "website"} />
      <meta property="og:title" content={head.title} />
      {description && <meta property="og:description" content={description} />}
      <meta property="og:url" content={canonical} />
      <meta property="og:site_name" content={siteName(ctx)} />
      {image && <meta property="og:image" content={image} />}
      <meta name="twitter:card" content={image ? "summary_large_image" : "summary"} />
      <meta name="twitter:title" content={head.title} />
      {description && <meta name="twitter:description" content={description} />}
      {image && <meta name="twitter:image" content={image} />}
      {sectionShown(ctx, "blog") && (
        <link rel="alternate" type="application/rss+xml" title={`${siteName(ctx)} blog`} href={href(env, "/rss.xml")} />
      )}
      {fonts.map((font) => (
        <link key={font} rel="preload" href={font} as="font" type="font/woff2" crossOrigin="" />
      ))}
    </>,
  );
}

function env(name: string | null, mode: PageEnv["mode"], blog: boolean, base = ""): PageEnv {
  const ctx = {
    website: { websiteName: name, newsEnabled: blog, showWhenEmpty: blog ? ["blog"] : [] },
    profile: { bio: "", writingJourney: [], authorPhotoUrl: null },
    customization: null,
    hasPosts: false,
  } as unknown as SiteContext;
  return { ctx, mode, base, origin: "https://jane.example.com" } as unknown as PageEnv;
}

const NASTY = [
  `Plain title`,
  `"Quoted" & 'single' <b>bold</b> > less`,
  `Café — “curly” › naïve 日本語 🙂`,
  `&amp; already escaped &lt;script&gt;`,
  `</title><script>alert(1)</script>`,
  "",
];

describe("the document's head as text", () => {
  it("is what React renders from the same elements, for any text, image and mode", () => {
    let cases = 0;
    for (const text of NASTY)
      for (const mode of ["tenant", "preview", "demo"] as const)
        for (const image of [
          undefined,
          null,
          "",
          "/uploads/u1/cover's.webp",
          `https://cdn.example.com/a.jpg?x=1&y="2"`,
        ])
          for (const [name, blog] of [
            [text || null, true],
            ["Jane", false],
          ] as const) {
            const e = env(name, mode, blog, mode === "preview" ? "/author/jane" : "");
            const head: Head = {
              title: `${text} | Jane`,
              description: text ? `${text} `.repeat(12) : undefined,
              image,
              type: text.length % 2 ? "book" : undefined,
            };
            const canonical = `https://jane.example.com/book/${encodeURIComponent(text)}?a=1&b='2'`;
            const fonts = ["/_fonts/lora-400.woff2", "/_fonts/lora-700.woff2"];
            expect(headMarkup(e, head, canonical, fonts)).toBe(reactHead(e, head, canonical, fonts));
            cases++;
          }
    expect(cases).toBe(NASTY.length * 3 * 5 * 2);
  });
});
