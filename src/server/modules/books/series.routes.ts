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
import { answer, db } from "../../http/handlers.ts";
import { idParam } from "../../http/ids.ts";
import { apiRouter, json, routes } from "../../http/openapi.ts";
import * as series from "./series.service.ts";

const seriesId = (raw: string | undefined) => idParam(raw, series.seriesNotFound);

const route = routes({ tags: ["Series"] });
const oneSeries = json(z.object({ series: seriesSchema }), "The series");

const list = route.get("/series", {
  summary: "The author's series, by name, each with its books in reading order",
  ok: { 200: json(z.object({ series: z.array(seriesSchema) }), "The series") },
});
const create = route.post("/series", {
  summary: "Start a series",
  body: seriesCreateSchema,
  ok: { 201: oneSeries },
  errors: [409],
});
const update = route.patch("/series/{id}", {
  summary: "Rename a series (its books follow) or change its description",
  body: seriesUpdateSchema,
  ok: { 200: oneSeries },
  errors: [409],
});
const order = route.put("/series/{id}/order", {
  summary: "Set the reading order: every book of the series, once",
  body: seriesOrderSchema,
  ok: { 200: oneSeries },
});
const remove = route.delete("/series/{id}", {
  summary: "Remove a series; its books stay, in no series",
  ok: { 204: { description: "Removed" } },
});

export function seriesRoutes() {
  return apiRouter()
    .openapi(...answer(list, async (c, me) => ({ series: await series.listSeries(db(c), me.id) })))
    .openapi(
      ...answer(create, async (c, me) => ({ series: await series.createSeries(db(c), me.id, c.req.valid("json")) })),
    )
    .openapi(
      ...answer(update, async (c, me) => {
        const id = seriesId(c.req.valid("param").id);
        return { series: await series.updateSeries(db(c), me.id, id, c.req.valid("json")) };
      }),
    )
    .openapi(
      ...answer(order, async (c, me) => {
        const id = seriesId(c.req.valid("param").id);
        return { series: await series.orderSeries(db(c), me.id, id, c.req.valid("json").bookIds) };
      }),
    )
    .openapi(...answer(remove, async (c, me) => series.deleteSeries(db(c), me.id, seriesId(c.req.valid("param").id))));
}
