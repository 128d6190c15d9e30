// The one mail layout: what it is given is escaped, and the text part says what the HTML says.
import { describe, expect, it } from "vitest";
import { mailHeaders } from "./mail-form.ts";
import { button, footnote, heading, join, mailParts, mailText, paragraph, textToMailHtml } from "./mail-layout.ts";

describe("the mail layout", () => {
  it("escapes everything interpolated, in the HTML and the title", () => {
    const evil = `<script>alert(1)</script> "quoted" & 'single'`;
    const { html, text } = mailParts({
      title: evil,
      preheader: evil,
      body: join(heading(evil), paragraph(evil), button("https://example.com/?a=1&b=<2>", evil)),
      footer: footnote([evil, { href: "javascript:alert(1)", label: "bad" }]),
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;");
    expect(html).not.toContain("javascript:");
    expect(text).toContain(`${evil}\n`);
    expect(text).toContain(`${evil}: https://example.com/?a=1&b=`);
  });

  it("keeps a plain-text mail's words, paragraphs, line breaks and links", () => {
    const original =
      "Hello,\n\nSomeone asked to reset the password. Open this link:\n\nhttps://app.example.com/reset?token=a_b-c&x=1\n\nFirst line\nsecond line.\n";
    const body = textToMailHtml(original);
    expect(body.html).toContain('<a href="https://app.example.com/reset?token=a_b-c&amp;x=1"');
    expect(body.html).toContain("First line<br>");
    expect(mailText(body)).toBe(original);
  });

  it("writes the list headers only for a plain web address", () => {
    expect(mailHeaders({})).toEqual({});
    expect(mailHeaders({ automatic: true, listUnsubscribeUrl: "https://a.example/unsubscribe?token=x" })).toEqual({
      "Auto-Submitted": "auto-generated",
      "List-Unsubscribe": "<https://a.example/unsubscribe?token=x>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(() => mailHeaders({ listUnsubscribeUrl: "https://a.example/x>\r\nBcc: v@example.com" })).toThrow();
    expect(() => mailHeaders({ listUnsubscribeUrl: "mailto:x@example.com" })).toThrow();
  });
});
