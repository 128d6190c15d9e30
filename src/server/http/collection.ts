// An author's own rows at one path (books, series, posts, newsletters, a book's reviews): the
// list and the create at `/posts`, one row read, changed and deleted at `/posts/{id}` (ADR 062).
// Each operation says what only it can say (its summary, body, errors); what the five have in
// common is said once: the one row's answer (200 for read and update, 201 for create), 204
// "Deleted" for remove, and how the path's id is read (`collection.id(c)`: an id that cannot be
// one of the rows is the collection's not-found error, before the database is asked).
import type { DomainError } from "../lib/domain-error.ts";
import { idParam } from "./ids.ts";
import type { Declaration, DeclaredRoute, routes } from "./openapi.ts";

type Answer = NonNullable<Declaration["ok"][200]>;
type ErrorStatus = NonNullable<Declaration["errors"]>[number];
/** A handler's context, as far as reading the path's id goes. */
type WithParams = { req: { param(name: string): string | undefined } };
/** An operation without its success answers (they are derived); `ok` replaces them. */
type Operation = Omit<Declaration, "ok"> & { ok?: Declaration["ok"] };

const DEFAULT_OK = {
  create: (one: Answer) => ({ 201: one }),
  read: (one: Answer) => ({ 200: one }),
  update: (one: Answer) => ({ 200: one }),
  remove: () => ({ 204: { description: "Deleted" } }),
} as const;

type Spec = {
  /** The answer with one row: what read and update answer, and create with 201. */
  one: Answer;
  /** The name of the row's path parameter: `id` unless the path already has one (`reviewId`). */
  item?: string;
  /** What a path id that is no row's is: the module's `xNotFound`. */
  notFound: () => DomainError;
  /** The list answers what it says in `ok` (a list's shape is its own). */
  list?: Declaration;
  create?: Operation;
  read?: Operation;
  update?: Operation;
  remove?: Operation;
};

type ItemPath<P extends string, S extends Spec> = `${P}/{${S extends { item: infer I extends string } ? I : "id"}}`;
type OkOf<S extends Spec, K extends keyof typeof DEFAULT_OK> = S[K] extends { ok: infer O extends Declaration["ok"] }
  ? O
  : K extends "remove"
    ? { 204: { description: string } }
    : K extends "create"
      ? { 201: S["one"] }
      : { 200: S["one"] };
type Op<S extends Spec, K extends keyof typeof DEFAULT_OK> = Omit<NonNullable<S[K]>, "ok"> & { ok: OkOf<S, K> };

type Collection<P extends string, S extends Spec, E extends ErrorStatus> = {
  /** The row's id from the request's path; one that cannot be a row's is `notFound`. */
  id: (c: WithParams) => string;
} & (S extends { list: infer L extends Declaration } ? { list: DeclaredRoute<"get", P, L, E> } : unknown) &
  (S extends { create: Operation } ? { create: DeclaredRoute<"post", P, Op<S, "create">, E> } : unknown) &
  (S extends { read: Operation } ? { read: DeclaredRoute<"get", ItemPath<P, S>, Op<S, "read">, E> } : unknown) &
  (S extends { update: Operation } ? { update: DeclaredRoute<"patch", ItemPath<P, S>, Op<S, "update">, E> } : unknown) &
  (S extends { remove: Operation } ? { remove: DeclaredRoute<"delete", ItemPath<P, S>, Op<S, "remove">, E> } : unknown);

/**
 * The operations `spec` names, declared with the module's `route`: `list` and `create` at
 * `path`, `read`, `update` (PATCH) and `remove` at `path/{id}`, and `id(c)` for their handlers.
 */
export function collection<const P extends string, const S extends Spec, E extends ErrorStatus = never>(
  route: ReturnType<typeof routes<E>>,
  path: P,
  spec: S,
): Collection<P, S, E> {
  const item = `${path}/{${spec.item ?? "id"}}`;
  const name = spec.item ?? "id";
  const declared: Record<string, unknown> = {
    id: (c: WithParams) => idParam(c.req.param(name), spec.notFound),
  };
  const op = (k: keyof typeof DEFAULT_OK) => {
    const o = spec[k];
    return o && { ...o, ok: o.ok ?? DEFAULT_OK[k](spec.one) };
  };
  if (spec.list) declared.list = route.get(path, spec.list);
  const create = op("create");
  if (create) declared.create = route.post(path, create);
  const read = op("read");
  if (read) declared.read = route.get(item, read);
  const update = op("update");
  if (update) declared.update = route.patch(item, update);
  const remove = op("remove");
  if (remove) declared.remove = route.delete(item, remove);
  return declared as Collection<P, S, E>;
}
