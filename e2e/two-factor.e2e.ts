// Turning on two-factor authentication from the account page, then signing in with it.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { browserDescribe, createAuthorAccount, newPage, PASSWORD, setupE2E, signInThroughUi } from "./fixtures.ts";
import { totp } from "./totp.ts";

const e = setupE2E();

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).first().click();
  await page.waitForURL("**/login");
}

browserDescribe("two-factor authentication", () => {
  it("enrols with a TOTP app, then signs in with a code and with a backup code", async () => {
    const page = await newPage(e);
    const { email } = await createAuthorAccount(e.server);
    await signInThroughUi(page, email);
    await page.waitForURL("**/dashboard");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
    await page.waitForURL("**/account");

    await page.getByRole("button", { name: "Enable two-factor" }).click();
    await page.getByLabel("Confirm your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);

    await page.getByLabel("6-digit code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    const codes = page.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
    await codes.first().waitFor();
    const backupCodes = await codes.allTextContents();
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await page.getByText("On", { exact: true }).waitFor();

    // A new sign-in now asks for the code.
    await page.goto("/dashboard");
    await signOut(page);
    await signInThroughUi(page, email);
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await page.getByLabel("Authentication code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/dashboard");

    // And a saved backup code works when the app is not at hand.
    await signOut(page);
    await signInThroughUi(page, email);
    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backupCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/dashboard");
  });
});
