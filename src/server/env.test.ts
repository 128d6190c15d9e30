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
    expect(() => loadEnv({ DNS_SERVERS: "dns.example.com" })).toThrow(/DNS_SERVERS/);
    expect(() => loadEnv({ DOMAIN_A_RECORDS: "2001:db8::1" })).toThrow(/DOMAIN_A_RECORDS/);
    expect(() => loadEnv({ DOMAIN_AAAA_RECORDS: "192.0.2.1" })).toThrow(/DOMAIN_AAAA_RECORDS/);
    expect(() => loadEnv({ PAGE_CACHE_MB: "0" })).toThrow(/PAGE_CACHE_MB/);
    expect(() => loadEnv({ PAGE_CACHE_MB: "lots" })).toThrow(/PAGE_CACHE_MB/);
  });

  it("signs mail with DKIM only when domain, selector and a PEM key are all given", () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n";
    expect(loadEnv({}).dkim).toBeNull();
    expect(
      loadEnv({ DKIM_DOMAIN: "Mail.Example.com", DKIM_SELECTOR: "bp1", DKIM_PRIVATE_KEY: pem.replace(/\n/g, "\\n") })
        .dkim,
    ).toEqual({ domainName: "mail.example.com", keySelector: "bp1", privateKey: pem });
    expect(() => loadEnv({ DKIM_DOMAIN: "example.com" })).toThrow(/DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY/);
    expect(() => loadEnv({ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "bp1", DKIM_PRIVATE_KEY: "secret" })).toThrow(
      /not a PEM private key/,
    );
    expect(() =>
      loadEnv({ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "bp1", DKIM_PRIVATE_KEY_FILE: "/nonexistent/dkim.pem" }),
    ).toThrow(/DKIM_PRIVATE_KEY_FILE/);
  });

  it("takes a public address for uploads (a CDN), checked", () => {
    expect(loadEnv({}).uploadsPublicUrl).toBeNull();
    expect(loadEnv({ S3_PUBLIC_URL: "https://cdn.example.com/media/" }).uploadsPublicUrl).toBe(
      "https://cdn.example.com/media",
    );
    expect(() => loadEnv({ S3_PUBLIC_URL: "cdn.example.com" })).toThrow(/S3_PUBLIC_URL/);
    expect(() => loadEnv({ S3_PUBLIC_URL: "ftp://cdn.example.com" })).toThrow(/S3_PUBLIC_URL/);
  });

  it("bounds the page cache in bytes, 64 MB unless told", () => {
    expect(loadEnv({}).pageCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadEnv({ PAGE_CACHE_MB: "256" }).pageCacheBytes).toBe(256 * 1024 * 1024);
  });

  it("bounds the start-up warm-up, 400 ms unless told, 0 for none (ADR 075)", () => {
    expect(loadEnv({}).warmUpMs).toBe(400);
    expect(loadEnv({ WARM_UP_MS: "0" }).warmUpMs).toBe(0);
    expect(() => loadEnv({ WARM_UP_MS: "-1" })).toThrow(/WARM_UP_MS/);
  });

  it("reads the DNS servers and the custom-domain target", () => {
    const env = loadEnv({
      SITES_DOMAIN: "bookplate.example:8080",
      DNS_SERVERS: "127.0.0.1:5353, [::1]:53",
      DOMAIN_A_RECORDS: "192.0.2.1,192.0.2.2",
    });
    expect(env.dnsServers).toEqual(["127.0.0.1:5353", "[::1]:53"]);
    // Unset, the CNAME target is the sites domain's host.
    expect(env.domainTarget).toEqual({ cname: "bookplate.example", a: ["192.0.2.1", "192.0.2.2"], aaaa: [] });
    expect(loadEnv({ DOMAIN_CNAME_TARGET: "Domains.Example.COM." }).domainTarget.cname).toBe("domains.example.com");
  });

  it("puts uploads in object storage when a bucket is named, and then needs its keys", () => {
    expect(loadEnv({}).s3).toBeNull();
    expect(() => loadEnv({ S3_BUCKET: "uploads" })).toThrow(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required/);
    expect(
      loadEnv({
        S3_BUCKET: "uploads",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
        S3_ENDPOINT: "http://127.0.0.1:9000",
      }).s3,
    ).toEqual({
      endpoint: "http://127.0.0.1:9000",
      bucket: "uploads",
      region: "us-east-1",
      accessKeyId: "k",
      secretAccessKey: "s",
    });
  });
});
