// What the author sets about their list beyond the sign-up form (ADR 071): a web archive of the
// newsletters sent, and the postal address under every newsletter and release alert.
import { z } from "zod";
import { namedObject } from "./fragments.ts";

export const POSTAL_ADDRESS_LIMITS = { chars: 300, lines: 6 } as const;

export const LIST_SETTINGS_MESSAGES = {
  saved: "Newsletter settings saved successfully!",
  failed: "Failed to save newsletter settings",
  addressTooLong: `Postal address must be at most ${POSTAL_ADDRESS_LIMITS.chars} characters`,
  addressTooManyLines: `Postal address can have at most ${POSTAL_ADDRESS_LIMITS.lines} lines`,
  addressCharacters: "Postal address contains characters that are not allowed",
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point (a line break aside)
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

/** Its lines trimmed, blank ones dropped, "\r\n" as "\n"; "" when nothing is left. */
export const tidyAddress = (v: string) =>
  v
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("\n");

const postalAddress = z
  .string({ error: "Postal address must be text" })
  .transform(tidyAddress)
  .refine((v) => !CONTROL.test(v), { error: LIST_SETTINGS_MESSAGES.addressCharacters })
  .refine((v) => v.length <= POSTAL_ADDRESS_LIMITS.chars, { error: LIST_SETTINGS_MESSAGES.addressTooLong })
  .refine((v) => v.split("\n").length <= POSTAL_ADDRESS_LIMITS.lines, {
    error: LIST_SETTINGS_MESSAGES.addressTooManyLines,
  })
  .nullable()
  .transform((v) => (v ? v : null));

export const listSettingsSchema = z.strictObject({
  /** The site's archive of sent newsletters at /newsletter/archive. */
  archiveEnabled: z.boolean({ error: "archiveEnabled must be true or false" }),
  postalAddress,
});
export type ListSettingsInput = z.input<typeof listSettingsSchema>;

export const listSettingsViewSchema = namedObject("NewsletterListSettings", {
  archiveEnabled: z.boolean(),
  postalAddress: z.string().nullable(),
});
export type ListSettings = z.infer<typeof listSettingsViewSchema>;
