// GET /api/stats?days=7|30|90 (default 30) → 200 Stats: the signed-in author's own site only;
// 400 for any other range; 404 'Set up your website first'.
import { statsQuerySchema, statsSchema } from "../../../shared/schemas/stats.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import { getStats } from "./stats.service.ts";

const stats = routes({ tags: ["Stats"] }).get("/stats", {
  summary: "The author's site traffic: daily views and visitors, top pages and books, referring sites",
  query: statsQuerySchema,
  ok: { 200: json(statsSchema, "The traffic") },
  errors: [404],
});

export function statsRoutes() {
  return apiRouter().openapi(...answer(stats, (c, me) => getStats(db(c), me.id, c.req.valid("query").days)));
}
