import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.ts";

describe("configuration", () => {
  it("defaults to the embedded database on port 3000 with localhost sites", () => {
    const env = loadEnv({});
    expect(env.port).toBe(3000);
    expect(env.databaseUrl).toBeUndefined();
    expect(env.appOrigin).toBe("http://localhost:3000");
    expect(env.sitesDomain).toBe("localhost:3000");
    expect(env.dataDir).toMatch(/\/data$/);
  });

  it("derives origins from PORT and honours explicit values", () => {
    expect(loadEnv({ PORT: "4100" }).appOrigin).toBe("http://localhost:4100");
    const env = loadEnv({ APP_ORIGIN: "https://app.example.com/", SITES_DOMAIN: "Sites.Example.com" });
    expect(env.appOrigin).toBe("https://app.example.com");
    expect(env.sitesDomain).toBe("sites.example.com");
  });

  it("refuses invalid values with a message naming the variable", () => {
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadEnv({ APP_ORIGIN: "not a url" })).toThrow(/APP_ORIGIN/);
    expect(() => loadEnv({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });
});
