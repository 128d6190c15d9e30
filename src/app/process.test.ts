// The real process, as `npm start` runs it (the built bundle, ADR 037): one per embedded data
// directory, a clean shutdown on SIGTERM, and the parts it loads only when first used.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeStripe } from "../testing/fake-stripe.ts";
import { productionCommand } from "../testing/production-server.ts";
import { startS3 } from "../testing/s3-server.ts";
import { firstLink, startSmtpCatcher } from "../testing/smtp-catcher.ts";
import { stripeEnv } from "../testing/stripe-flow.ts";
import { freePort } from "../testing/test-server.ts";

const dataDir = mkdtempSync(join(tmpdir(), "bookplate-proc-"));
const production = productionCommand();
const children: ChildProcess[] = [];

function start(port: number) {
  const child = spawn(process.execPath, production.args, {
    env: {
      ...process.env,
      ...production.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "false",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)));
  const ready = new Promise<void>((ok, fail) => {
    const t = setInterval(() => {
      if (output.includes("Bookplate is running")) {
        clearInterval(t);
        ok();
      }
    }, 50);
    void exited.then(() => {
      clearInterval(t);
      fail(new Error(`exited early:\n${output}`));
    });
  });
  ready.catch(() => {});
  return { child, ready, exited, output: () => output };
}

afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the server process", () => {
  it("refuses a second process on the same data directory, and shuts down cleanly", async () => {
    const first = start(0);
    await first.ready;
    expect(existsSync(join(dataDir, "bookplate.lock"))).toBe(true);

    const second = start(0);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already using the data directory/);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/shutting down/);
    expect(existsSync(join(dataDir, "bookplate.lock"))).toBe(false);

    // The data survived the shutdown: a new process opens the same directory.
    const third = start(0);
    await third.ready;
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
    // Three cold starts of the real process (PGlite, migrations): slow on a loaded 2-core
    // machine (37 s alone, over 90 s beside the other suites), and not a timing test.
  }, 240_000);
});

describe("the built bundle", () => {
  // esbuild's keepNames wraps every named function, each time it is created, in a call that
  // redefines its name; with it an uncached page cost ~1.6× the server's CPU (ADR 039).
  it("carries no keepNames wrappers", () => {
    const main = production.args.find((a) => a.endsWith(".js")) as string;
    const chunks = join(dirname(main), "chunks");
    const files = [
      main,
      ...readdirSync(chunks)
        .filter((f) => f.endsWith(".js"))
        .map((f) => join(chunks, f)),
    ];
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect(readFileSync(f, "utf8"), f).not.toMatch(/\b__name\(/);
  });
});

describe("the built server's parts loaded on first use", () => {
  it("sends mail, bills through Stripe, processes an image and keeps it in S3", async () => {
    const smtp = await startSmtpCatcher();
    const fake = await startFakeStripe();
    const s3 = await startS3();
    const dir = mkdtempSync(join(tmpdir(), "bookplate-proc-lazy-"));
    try {
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const child = spawn(process.execPath, production.args, {
        env: {
          ...process.env,
          ...production.env,
          NODE_ENV: "production",
          DATA_DIR: dir,
          PORT: String(port),
          HOST: "127.0.0.1",
          APP_ORIGIN: origin,
          SITES_DOMAIN: "",
          SEED_DEMO: "false",
          DATABASE_URL: "",
          LOG_LEVEL: "warn",
          SMTP_URL: smtp.url,
          AUTH_SECRET: "process-test-secret-process-test-secret-0123",
          ...stripeEnv(fake),
          ...s3.env,
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      children.push(child);
      const api = (path: string, init: RequestInit & { cookie?: string } = {}) =>
        fetch(`${origin}${path}`, {
          ...init,
          headers: { origin, ...(init.cookie ? { cookie: init.cookie } : {}), ...init.headers },
        });
      for (let i = 0; ; i++) {
        const up = await api("/healthz").catch(() => undefined);
        if (up?.ok) break;
        if (i > 600 || child.exitCode !== null) throw new Error("the built server did not start");
        await new Promise((ok) => setTimeout(ok, 100));
      }
      // Image processing is not loaded until an image arrives (its native library is not mapped).
      const libvips = () => /libvips/.test(readFileSync(`/proc/${child.pid}/maps`, "utf8"));
      expect(libvips()).toBe(false);

      // Mail (nodemailer, loaded with the first message).
      const email = `lazy-${Date.now()}@example.com`;
      const signUp = await api("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Lazy Author", email, password: "correct horse battery" }),
      });
      expect(signUp.status).toBe(200);
      const mail = await smtp.waitFor(email, "Confirm your email");
      const verify = new URL(firstLink(mail.text));
      const verified = await api(`${verify.pathname}${verify.search}`, { redirect: "manual" });
      const cookie = verified.headers
        .getSetCookie()
        .map((c) => c.split(";")[0] ?? "")
        .filter((kv) => !kv.endsWith("="))
        .join("; ");
      expect(cookie).not.toBe("");

      // Billing (the Stripe SDK, loaded with the first call): checkout at the fake Stripe.
      const onboarding = await api("/api/onboarding/complete", {
        method: "POST",
        cookie,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Lazy Author",
          email,
          websiteName: "Lazy Books",
          subdomain: `lazy${Date.now().toString(36)}`,
          domainOption: "free",
          tier: "mini",
          currency: "GBP",
        }),
      });
      expect(onboarding.status).toBe(201);
      expect(((await onboarding.json()) as { checkoutUrl: string }).checkoutUrl).toMatch(
        /^https:\/\/checkout\.stripe\.test\//,
      );

      // An image (sharp) stored in the bucket (the S3 client) and served back from it.
      const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#c83c3c" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
      const photo = await api("/api/profile/photo", { method: "POST", cookie, body: form });
      expect(photo.status).toBe(200);
      const url = ((await photo.json()) as { profile: { authorPhotoUrl: string } }).profile.authorPhotoUrl;
      expect(url).toMatch(/^\/uploads\/photos\/.+\.webp$/);
      const served = await api(url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      expect(libvips()).toBe(true);

      child.kill("SIGTERM");
      expect(await new Promise((ok) => child.once("exit", ok))).toBe(0);
    } finally {
      await smtp.close();
      await fake.close();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
