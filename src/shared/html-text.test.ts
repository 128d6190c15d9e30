import { describe, expect, it } from "vitest";
import { htmlToText } from "./html-text.ts";

describe("htmlToText", () => {
  it("keeps the words of two blocks apart, decodes entities and folds white space", () => {
    expect(htmlToText("<p>One&nbsp;&amp; two</p><p>three  &lt;4&gt;</p><ul><li>a</li><li>b</li></ul>")).toBe(
      "One & two three <4> a b",
    );
  });

  it("strips with the function it is given", () => {
    expect(htmlToText("<p>Hi <b>you</b></p>", (h) => h.replace(/<b>.*?<\/b>/g, "").replace(/<[^>]*>/g, ""))).toBe("Hi");
  });
});
