// Series API (ADR 034). The owner is always the signed-in user; a series id that is not theirs
// (or not an id at all) answers 404 'Series not found', and nothing changes.
//
// GET    /api/series             → 200 { series: Series[] } by name, books in reading order
// POST   /api/series             seriesCreateSchema → 201 { series }; 409 a series of that name, or
//                                of a name with the same address ("Saga", "Saga!"), exists
// PATCH  /api/series/:id         seriesUpdateSchema → 200 { series } (a new name moves its books);
//                                409 as for POST
// PUT    /api/series/:id/order   { bookIds } every book of the series once → 200 { series }
// DELETE /api/series/:id         → 204 (its books stay, in no series)
import { z } from "zod";
import {
  seriesCreateSchema,
  seriesOrderSchema,
  seriesSchema,
  seriesUpdateSchema,
} from "../../../shared/schemas/series.ts";
import { collection } from "../../http/collection.ts";
import { answer, db } from "../../http/handlers.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import * as series from "./series.service.ts";

const route = routes({ tags: ["Series"] });
const oneSeries = json(z.object({ series: seriesSchema }), "The series");
const seriesRoute = collection(route, "/series", {
  one: oneSeries,
  notFound: series.seriesNotFound,
  list: {
    summary: "The author's series, by name, each with its books in reading order",
    ok: { 200: json(z.object({ series: z.array(seriesSchema) }), "The series") },
  },
  create: { summary: "Start a series", body: seriesCreateSchema, errors: [409] },
  update: {
    summary: "Rename a series (its books follow) or change its description",
    body: seriesUpdateSchema,
    errors: [409],
  },
  remove: { summary: "Remove a series; its books stay, in no series", ok: { 204: { description: "Removed" } } },
});
const order = route.put("/series/{id}/order", {
  summary: "Set the reading order: every book of the series, once",
  body: seriesOrderSchema,
  ok: { 200: oneSeries },
});

export function seriesRoutes() {
  return apiRouter()
    .openapi(...answer(seriesRoute.list, async (c, me) => ({ series: await series.listSeries(db(c), me.id) })))
    .openapi(
      ...answer(seriesRoute.create, async (c, me) => ({
        series: await series.createSeries(db(c), me.id, c.req.valid("json")),
      })),
    )
    .openapi(
      ...answer(seriesRoute.update, async (c, me) => {
        return { series: await series.updateSeries(db(c), me.id, seriesRoute.id(c), c.req.valid("json")) };
      }),
    )
    .openapi(
      ...answer(order, async (c, me) => {
        return { series: await series.orderSeries(db(c), me.id, seriesRoute.id(c), c.req.valid("json").bookIds) };
      }),
    )
    .openapi(...answer(seriesRoute.remove, async (c, me) => series.deleteSeries(db(c), me.id, seriesRoute.id(c))));
}
