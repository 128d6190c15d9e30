// Export and deletion of an account (Account screen, Danger zone).
import { z } from "zod";

export const ACCOUNT_MESSAGES = {
  confirmMismatch: "Type your account's email address exactly to confirm",
  providerFailed:
    "We could not cancel your subscription with the payment provider, so nothing was deleted. Please try again.",
  deleted: "Your account and website have been deleted.",
  deleteFailed: "Failed to delete your account",
  exportFailed: "Failed to prepare your download",
} as const;

export const deleteAccountSchema = z.strictObject({
  /** The account's email address, typed by the person deleting it. */
  confirmation: z
    .string({ error: "Type your email address to confirm" })
    .max(320, { error: ACCOUNT_MESSAGES.confirmMismatch }),
});
export type DeleteAccount = z.infer<typeof deleteAccountSchema>;
