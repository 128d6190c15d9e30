// What a route's handler repeats: the signed-in user, the database, and answering with the
// route's one success status (ADR 062). `.openapi(...answer(read, async (c, me) => ({ post: … })))`
// registers `read` with the handler that sends that object with the status `read` declares (200
// or 201; for a route whose success is a 204, `work` returns nothing and the answer has no body).
// `answer` gives the [route, handler] pair `.openapi` takes, so the route is named once. The
// route's own middleware has already turned a signed-out request away with 401.
import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import type { AppDeps, AppVars } from "./context.ts";
import { requireUser } from "./session.ts";

/** The request's database. */
export const db = (c: { get(key: "deps"): AppDeps }) => c.get("deps").database.db;

type Json<A> = A extends { content: { "application/json": { schema: infer Z extends z.ZodType } } }
  ? z.output<Z>
  : never;
/** What the route's success answer carries: its JSON body, or nothing for a 204. */
type OkBody<R extends RouteConfig> = R["responses"] extends { 200: infer A }
  ? Json<A>
  : R["responses"] extends { 201: infer A }
    ? Json<A>
    : undefined extends R["responses"][204]
      ? never
      : // biome-ignore lint/suspicious/noConfusingVoidType: a 204's work is a service call that returns nothing
        void;

/**
 * Handlers for the callers `who` resolves (the signed-in user, `requireUser`; the back office's
 * staff member, `requireStaff`): the route and its handler, `work` for that caller answered with
 * the route's success status.
 */
export function answerFor<U>(who: (c: Context<AppVars>) => Promise<U>) {
  return <R extends RouteConfig>(
    route: R,
    work: (c: Parameters<RouteHandler<R, AppVars>>[0], me: U) => Promise<OkBody<R>>,
  ): readonly [R, RouteHandler<R, AppVars>] => {
    const status = ([200, 201, 204] as const).find((s) => s in route.responses);
    if (!status) throw new Error(`${route.method} ${route.path} declares no 200, 201 or 204`);
    const handler: RouteHandler<RouteConfig, AppVars> = async (c) => {
      const body = await work(c as never, await who(c));
      return status === 204 ? c.body(null, 204) : c.json(body as never, status);
    };
    return [route, handler as never] as const;
  };
}

/** The route and its handler: `work` for the signed-in user, answered with the route's success status. */
export const answer = answerFor(requireUser);
