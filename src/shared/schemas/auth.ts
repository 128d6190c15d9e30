// The account forms' inputs, checked by the SPA and again by the server before Better Auth
// sees them, so every endpoint answers bad input the same way.
import { z } from "zod";
import { emailSchema, plainText } from "./text.ts";

const password = z
  .string({ error: "Password must be text" })
  .min(8, { error: "Password must be at least 8 characters" })
  .max(128, { error: "Password must be at most 128 characters" });

/** Only paths on our own host: a mail link must never send someone elsewhere. */
const localPath = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)[^\s\\]*$/, { error: "callbackURL must be a path on this site" });

/** An account's name, as sign-up takes it. */
const accountName = plainText(1, 100, "Name");

export const signUpSchema = z.strictObject({
  name: accountName,
  email: emailSchema,
  password,
  callbackURL: localPath.optional(),
});

export const signInSchema = z.strictObject({
  email: emailSchema,
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).max(128),
  rememberMe: z.boolean().optional(),
  callbackURL: localPath.optional(),
});

export const requestPasswordResetSchema = z.strictObject({ email: emailSchema, redirectTo: localPath.optional() });

export const resetPasswordSchema = z.strictObject({
  token: z.string().min(1).max(500),
  newPassword: password,
});

export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, { error: "Current password is required" }).max(128),
  newPassword: password,
  revokeOtherSessions: z.boolean().optional(),
});

export const sendVerificationSchema = z.strictObject({ email: emailSchema, callbackURL: localPath.optional() });

/** Turning two-factor on or off, or new backup codes: the account's password again. */
export const confirmPasswordSchema = z.strictObject({
  password: z.string({ error: "Password is required" }).min(1, { error: "Password is required" }).max(128),
});

/** An authenticator app's code: six digits (the app may show them as two groups of three). */
export const totpCodeSchema = z.strictObject({
  code: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app" })),
});
