import * as Lucide from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as icons from "./icons.tsx";

describe("static icons", () => {
  it("render exactly the markup lucide-react renders", () => {
    const names = Object.keys(icons).filter((n) => n !== "staticIcon") as (keyof typeof icons & keyof typeof Lucide)[];
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks every icon
      const Static = icons[name] as icons.StaticIcon;
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks every icon
      const Original = Lucide[name] as Lucide.LucideIcon;
      expect(renderToStaticMarkup(<Static aria-hidden="true" />), name).toBe(
        renderToStaticMarkup(<Original aria-hidden="true" />),
      );
    }
  });
});
