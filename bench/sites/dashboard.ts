// The dashboard rows of bench:sites: a signed-in author with 10 books, whose session cookie the
// wrk scripts send (bench/wrk/api-books.lua, bench/wrk/create-post.lua).
import type { startSmtpCatcher } from "../../src/testing/smtp-catcher.ts";
import { signedInAuthor } from "../author.ts";
import { get } from "../lib.ts";
import { BOOKS, load, script } from "./compare.ts";

/** An author signed up through the SMTP catcher, onboarded, with BOOKS books made through the API. */
export async function authorWithBooks(port: number, smtp: Awaited<ReturnType<typeof startSmtpCatcher>>) {
  const cookie = await signedInAuthor(port, smtp);
  const app = `localhost:${port}`;
  for (let k = 1; k <= BOOKS; k++) {
    const res = await get(port, app, "/api/books", {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://${app}`, cookie },
      body: JSON.stringify({
        title: `Dashboard Book ${k}`,
        author: "Bench Author",
        shortBlurb: `<p>${"A story told in ten parts. ".repeat(15)}</p>`,
        seriesName: "Series",
        orderInSeries: k,
      }),
    });
    if (res.status !== 201)
      throw new Error(`creating a book answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  }
  const list = await get(port, app, "/api/books", { headers: { cookie } });
  if (list.status !== 200) throw new Error(`GET /api/books answered ${list.status}`);
  return cookie;
}

/** wrk slices for the dashboard rows; `run` keeps unique titles apart between slices and databases. */
export function dashboardLoads(port: number, cookie: string) {
  const env = { BENCH_HOST: `localhost:${port}`, BENCH_COOKIE: cookie };
  const url = `http://127.0.0.1:${port}/`;
  let run = 0;
  const posts = (titles: "unique" | "same") => (seconds?: number) =>
    load(
      {
        url,
        scriptFile: script("create-post.lua"),
        env: { ...env, BENCH_TITLES: titles, BENCH_RUN: `${Date.now().toString(36)}-${run++}` },
      },
      seconds,
    );
  return {
    books: (seconds?: number) => load({ url, scriptFile: script("api-books.lua"), env }, seconds),
    uniquePosts: posts("unique"),
    samePosts: posts("same"),
  };
}
