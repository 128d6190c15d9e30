// GET /api/stats?days=7|30|90 (default 30) → 200 Stats: the signed-in author's own site only;
// 400 for any other range; 404 'Set up your website first'.
import { statsQuerySchema, statsSchema } from "../../../shared/schemas/stats.ts";
import { apiRoute, apiRouter, errors, json } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import { getStats } from "./stats.service.ts";

const stats = apiRoute({
  method: "get",
  path: "/stats",
  tags: ["Stats"],
  summary: "The author's site traffic: daily views and visitors, top pages and books, referring sites",
  request: { query: statsQuerySchema },
  responses: { 200: json(statsSchema, "The traffic"), ...errors(400, 404) },
});

export function statsRoutes() {
  return apiRouter().openapi(stats, async (c) => {
    const me = await requireUser(c);
    return c.json(await getStats(c.get("deps").database.db, me.id, c.req.valid("query").days), 200);
  });
}
