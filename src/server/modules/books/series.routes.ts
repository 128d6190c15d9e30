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
import { idParam } from "../../http/ids.ts";
import { apiRoute, apiRouter, errors, idParams, json, jsonBody } from "../../http/openapi.ts";
import { requireUser } from "../../http/session.ts";
import * as series from "./series.service.ts";

const seriesId = (raw: string | undefined) => idParam(raw, series.seriesNotFound);

const tags = ["Series"];
const oneSeries = json(z.object({ series: seriesSchema }), "The series");

const list = apiRoute({
  method: "get",
  path: "/series",
  tags,
  summary: "The author's series, by name, each with its books in reading order",
  responses: { 200: json(z.object({ series: z.array(seriesSchema) }), "The series") },
});
const create = apiRoute({
  method: "post",
  path: "/series",
  tags,
  summary: "Start a series",
  request: { body: jsonBody(seriesCreateSchema) },
  responses: { 201: oneSeries, ...errors(400, 409, 415) },
});
const update = apiRoute({
  method: "patch",
  path: "/series/{id}",
  tags,
  summary: "Rename a series (its books follow) or change its description",
  request: { params: idParams, body: jsonBody(seriesUpdateSchema) },
  responses: { 200: oneSeries, ...errors(400, 404, 409, 415) },
});
const order = apiRoute({
  method: "put",
  path: "/series/{id}/order",
  tags,
  summary: "Set the reading order: every book of the series, once",
  request: { params: idParams, body: jsonBody(seriesOrderSchema) },
  responses: { 200: oneSeries, ...errors(400, 404, 415) },
});
const remove = apiRoute({
  method: "delete",
  path: "/series/{id}",
  tags,
  summary: "Remove a series; its books stay, in no series",
  request: { params: idParams },
  responses: { 204: { description: "Removed" }, ...errors(404) },
});

export function seriesRoutes() {
  return apiRouter()
    .openapi(list, async (c) => {
      const me = await requireUser(c);
      return c.json({ series: await series.listSeries(c.get("deps").database.db, me.id) }, 200);
    })
    .openapi(create, async (c) => {
      const me = await requireUser(c);
      return c.json({ series: await series.createSeries(c.get("deps").database.db, me.id, c.req.valid("json")) }, 201);
    })
    .openapi(update, async (c) => {
      const me = await requireUser(c);
      const id = seriesId(c.req.param("id"));
      return c.json(
        { series: await series.updateSeries(c.get("deps").database.db, me.id, id, c.req.valid("json")) },
        200,
      );
    })
    .openapi(order, async (c) => {
      const me = await requireUser(c);
      const id = seriesId(c.req.param("id"));
      const { bookIds } = c.req.valid("json");
      return c.json({ series: await series.orderSeries(c.get("deps").database.db, me.id, id, bookIds) }, 200);
    })
    .openapi(remove, async (c) => {
      const me = await requireUser(c);
      await series.deleteSeries(c.get("deps").database.db, me.id, seriesId(c.req.param("id")));
      return c.body(null, 204);
    });
}
