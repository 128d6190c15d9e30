import { z } from "zod";

// Control characters other than tab and newline never belong in a text field.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A change that may send any of the object's fields but not none ("Nothing to update"). */
export function partialUpdate<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(
  schema: z.ZodObject<Shape, Config>,
) {
  return schema.partial().refine((v) => Object.keys(v).length > 0, { error: "Nothing to update" });
}

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

const HEX = /^#[0-9a-fA-F]{6}$/;
/** A colour as #rrggbb, stored lower-case; `example` is the colour the message suggests. */
export function colour(label: string, example = "#6366f1") {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .regex(HEX, { error: `${label} must be a colour like ${example}` })
    .transform((v) => v.toLowerCase());
}
