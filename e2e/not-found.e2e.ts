import { expect, it } from "vitest";
import { browserDescribe, createAuthorAccount, newPage, setupE2E, signInThroughUi } from "./fixtures.ts";

const e = setupE2E();

browserDescribe("pages that do not exist", () => {
  it("answers 404 with the not-found page and a way home", async () => {
    const page = await newPage(e);
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    await page.getByRole("link", { name: "Return to home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { level: 1, name: "A website as good as your books" }).waitFor();
  });

  it("shows 'Section Coming Soon' inside the dashboard for a section that does not exist", async () => {
    const author = await createAuthorAccount(e.server);
    const page = await newPage(e);
    await signInThroughUi(page, author.email);
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const res = await page.goto("/dashboard/no-such-section");
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { name: "Section Coming Soon" }).waitFor();
    await page.getByText("This section is under development.").waitFor();
    // Still the dashboard: its menu is there, and the way back works.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Books" }).waitFor();
    await page.getByRole("link", { name: "Back to the dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
  });

  it("sends /main to the home page and signed-out visitors of private pages to sign-in", async () => {
    const page = await newPage(e);
    await page.goto("/main");
    await page.waitForURL((url) => url.pathname === "/");
    for (const path of ["/dashboard", "/account"]) {
      await page.goto(path);
      await page.waitForURL("**/login");
    }
    // Someone heading for the setup wizard wants an account: sign-up, then back to the wizard.
    await page.goto("/onboarding?tier=midi");
    await page.waitForURL((url) => url.pathname === "/signup");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/onboarding?tier=midi");
  });
});

browserDescribe("the error screen", () => {
  it("shows 'Something went wrong' with details and a working 'Try Again'", async () => {
    const page = await newPage(e);
    await page.route("**/api/auth/get-session*", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"boom"}' }),
    );
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Something went wrong" }).waitFor();
    await page.getByText("We encountered an unexpected error. Please try refreshing the page.").waitFor();
    const details = page.getByText("Error details");
    await details.click();
    expect(await page.locator("details pre").textContent()).toContain("500");
    await page.unroute("**/api/auth/get-session*");
    await page.getByRole("button", { name: "Try Again" }).click();
    await page.waitForURL("**/login");
  });
});
