import { z } from "zod";

// Control characters other than tab and newline never belong in a text field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A trimmed single-purpose text field with a readable message for each way it can be wrong. */
export function plainText(min: number, max: number, label: string) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .min(min, { error: min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine((v) => !CONTROL.test(v), { error: `${label} contains characters that are not allowed` });
}

export const emailSchema = z
  .string({ error: "Email must be text" })
  .trim()
  .toLowerCase()
  .max(254, { error: "Email must be at most 254 characters" })
  .pipe(z.email({ error: "Please enter a valid email address" }));
