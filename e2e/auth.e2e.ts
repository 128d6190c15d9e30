// The account journeys a new author takes in a real browser.
import { expect, it } from "vitest";
import {
  browserDescribe,
  createAuthorAccount,
  createVerifiedUser,
  firstLink,
  newPage,
  PASSWORD,
  setupE2E,
  signInThroughUi,
  uniqueEmail,
} from "./fixtures.ts";

const e = setupE2E();

browserDescribe("accounts in the browser", () => {
  it("signs up, verifies through the mailed link, signs in and out", async () => {
    const page = await newPage(e);
    const email = uniqueEmail("signup");
    await page.goto("/");
    await page.getByRole("main").getByRole("link", { name: "Start your free trial" }).click();
    // Straight to sign-up, with the plan the pricing page would have chosen (ADR 055).
    await page.waitForURL((url) => url.pathname === "/signup");
    await page.getByLabel("Full name").fill("Ada Writer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    expect(await page.getByText(email).isVisible()).toBe(true);

    const mail = await e.server.smtp.waitFor(email, "Confirm your email");
    await page.goto(firstLink(mail.text));
    // The link verifies, signs in and carries straight on into the setup wizard.
    await page.waitForURL((url) => url.pathname === "/onboarding");
    await page.getByText("Thank you, your email address is confirmed.").waitFor();

    // Verifying signed them in, with step 1 prefilled; sign out, then in again with the password.
    expect(await page.getByLabel("Full Name").inputValue()).toBe("Ada Writer");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/login");

    // Without a website yet, signing in continues the setup rather than an empty dashboard.
    await signInThroughUi(page, email);
    await page.waitForURL("**/onboarding");
    expect(await page.getByLabel("Email").inputValue()).toBe(email);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/login");
    await page.goto("/dashboard");
    await page.waitForURL("**/login");
    await page.getByRole("heading", { name: "Welcome back" }).waitFor();
  });

  it("says so when the email is not verified yet and offers a new link", async () => {
    const page = await newPage(e);
    const email = uniqueEmail("unverified");
    await e.server.api("/api/auth/sign-up/email", {
      method: "POST",
      json: { name: "Not Yet", email, password: PASSWORD },
    });
    await signInThroughUi(page, email);
    await page.getByText("Please verify your email address first.").waitFor();
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await page.getByText(`We sent a new verification link to ${email}.`).waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });

  it("shows the server's message for a wrong password", async () => {
    const page = await newPage(e);
    const { email } = await createVerifiedUser(e.server);
    await signInThroughUi(page, email, "not the password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Invalid email or password");
    expect(await page.getByRole("button", { name: "Sign In" }).isEnabled()).toBe(true);
    expect(page.url()).toMatch(/\/login$/);
  });

  it("resets a forgotten password through the mailed link", async () => {
    const page = await newPage(e);
    const { email } = await createAuthorAccount(e.server);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL("**/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("If an account exists for").waitFor();

    const mail = await e.server.smtp.waitFor(email, "Reset your Bookplate password");
    await page.goto(firstLink(mail.text));
    await page.waitForURL("**/reset-password?token=*");
    await page.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
    await page.getByLabel("Confirm new password").fill("a brand new passphrase");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByRole("heading", { name: "Password changed" }).waitFor();
    await page.getByRole("link", { name: "Sign in" }).click();

    await signInThroughUi(page, email, PASSWORD);
    await page.getByText("Invalid email or password").waitFor();
    await signInThroughUi(page, email, "a brand new passphrase");
    await page.waitForURL("**/dashboard");
  });

  it("says 'check your email' for an address that already has an account, and mails its owner", async () => {
    const page = await newPage(e);
    const { email } = await createVerifiedUser(e.server);
    await page.goto("/signup");
    await page.getByLabel("Full name").fill("Someone Else");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("another passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    expect(await page.getByText(`We sent an email to ${email}.`).isVisible()).toBe(true);
    await e.server.smtp.waitFor(email, "Someone tried to create a Bookplate account");
  });

  it("shows the pause after repeated wrong passwords, with the way out", async () => {
    const page = await newPage(e);
    const { email } = await createVerifiedUser(e.server);
    for (let i = 0; i < 5; i++) {
      await e.server.api("/api/auth/sign-in/email", { method: "POST", json: { email, password: "a wrong guess" } });
    }
    await signInThroughUi(page, email);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^Too many failed sign-in attempts\. Try again in 1 minute or reset your password\. Reset your password$/,
    );
    await alert.getByRole("link", { name: "Reset your password" }).click();
    await page.waitForURL("**/forgot-password");
  });

  it("explains an invalid reset link", async () => {
    const page = await newPage(e);
    await page.goto("/reset-password?error=INVALID_TOKEN");
    await page.getByText("This password reset link is invalid or has expired.").waitFor();
    await page.goto("/reset-password?token=made-up");
    await page.getByLabel("New password", { exact: true }).fill("another passphrase");
    await page.getByLabel("Confirm new password").fill("another passphrase");
    await page.getByRole("button", { name: "Reset password" }).click();
    await page.getByText("This password reset link is invalid or has expired.").waitFor();
  });
});
