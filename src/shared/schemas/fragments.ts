// Pieces the API's answer schemas are made of, so that each answer says only what is its own.
import { z } from "zod";

/**
 * An answer's object under its name in the OpenAPI document (`components.schemas[id]`): the app's
 * types and the document both read it by that name (ADR 021).
 */
export const namedObject = <Shape extends z.ZodRawShape>(id: string, shape: Shape) => z.object(shape).meta({ id });

/** When a row was made and last changed (ISO 8601 text), in the order rows are answered. */
export const stamps = { createdAt: z.string(), updatedAt: z.string() };
