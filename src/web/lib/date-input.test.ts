import { describe, expect, it } from "vitest";
import { datePattern, formatDateInput, parseDateInput } from "./date-input.ts";

describe("dates typed in the author's order", () => {
  it("shows and reads day first for a British author, month first for an American one", () => {
    expect(datePattern("en-GB")).toBe("dd/mm/yyyy");
    expect(datePattern("en-US")).toBe("mm/dd/yyyy");
    expect(formatDateInput("2024-11-03", "en-GB")).toBe("03/11/2024");
    expect(formatDateInput("2024-11-03", "en-US")).toBe("11/03/2024");
    expect(parseDateInput("03/11/2024", "en-GB")).toBe("2024-11-03");
    expect(parseDateInput("3.11.2024", "en-GB")).toBe("2024-11-03");
    expect(parseDateInput("03/11/2024", "en-US")).toBe("2024-03-11");
    // What the field shows reads back as the same date, in every order.
    for (const locale of ["en-GB", "en-US", "de-DE", "fr-FR", "ja-JP", "sv-SE"]) {
      expect(parseDateInput(formatDateInput("1999-02-28", locale), locale), locale).toBe("1999-02-28");
    }
  });

  it("takes an ISO date as one, an empty field as none, and refuses what is not a date", () => {
    expect(parseDateInput("2024-11-03", "en-GB")).toBe("2024-11-03");
    expect(parseDateInput("  ", "en-GB")).toBe("");
    for (const bad of ["31/02/2024", "13/13/2024", "03/11/24", "soon", "1/2", "03/11/2024/1"]) {
      expect(parseDateInput(bad, "en-GB"), bad).toBeNull();
    }
    expect(formatDateInput(null, "en-GB")).toBe("");
  });
});
