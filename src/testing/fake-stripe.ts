// A local stand-in for the Stripe API, just the endpoints Bookplate calls, so the real `stripe`
// SDK can be exercised end to end (point it here with STRIPE_API_HOST/PORT/PROTOCOL).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeRequest = { method: string; path: string; params: Record<string, string> };
type Obj = Record<string, unknown>;

let counter = 0;
const nextId = (prefix: string) => `${prefix}_test_${Date.now().toString(36)}${(counter++).toString(36)}`;

async function body(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const ch of req) chunks.push(ch as Buffer);
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) out[k] = v;
  return out;
}

/** Fields under `prefix[...]` of a flat form-encoded body, as a plain object of strings. */
function sub(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k.startsWith(`${prefix}[`)) out[k.slice(prefix.length + 1, -1)] = v;
  }
  return out;
}

export async function startFakeStripe() {
  const requests: FakeRequest[] = [];
  const subscriptions = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const products = new Map<string, Obj>();
  let failNext = 0;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const params = req.method === "GET" ? Object.fromEntries(url.searchParams) : await body(req);
    requests.push({ method: req.method ?? "GET", path: url.pathname, params });
    const send = (status: number, obj: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": nextId("req") });
      res.end(JSON.stringify(obj));
    };
    if (failNext > 0) {
      failNext--;
      return send(400, { error: { type: "invalid_request_error", message: "Simulated failure" } });
    }
    const path = url.pathname;
    const customerMatch = /^\/v1\/customers\/([^/]+)$/.exec(path);
    const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const id = nextId("cs");
      return send(200, {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/${id}`,
        mode: params.mode,
      });
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      return send(200, {
        id: nextId("bps"),
        object: "billing_portal.session",
        url: `https://billing.stripe.test/p/${params.customer}`,
      });
    }
    if (req.method === "POST" && path === "/v1/customers") {
      const c = { id: nextId("cus"), object: "customer", email: params.email ?? null };
      customers.set(c.id, c);
      return send(200, c);
    }
    if (customerMatch && req.method === "GET") {
      const c = customers.get(customerMatch[1] ?? "");
      return c ? send(200, c) : send(404, { error: { type: "invalid_request_error", message: "No such customer" } });
    }
    const productMatch = /^\/v1\/products\/([^/]+)$/.exec(path);
    if (productMatch && req.method === "GET") {
      const p = products.get(productMatch[1] ?? "");
      return p
        ? send(200, p)
        : send(404, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such product" } });
    }
    if (req.method === "POST" && path === "/v1/products") {
      const id = String(params.id ?? nextId("prod"));
      if (products.has(id))
        return send(400, { error: { type: "invalid_request_error", message: "Product already exists" } });
      const p = { id, object: "product", name: params.name };
      products.set(id, p);
      return send(200, p);
    }
    if (req.method === "POST" && path === "/v1/subscription_items") {
      const s = subscriptions.get(String(params.subscription ?? ""));
      if (!s) return send(404, { error: { type: "invalid_request_error", message: "No such subscription" } });
      const product = String(params["price_data[product]"] ?? "");
      if (!products.has(product))
        return send(400, { error: { type: "invalid_request_error", message: "No such product" } });
      const item = {
        id: nextId("si"),
        object: "subscription_item",
        price: {
          id: nextId("price"),
          product,
          unit_amount: Number(params["price_data[unit_amount]"]),
          currency: params["price_data[currency]"],
        },
        proration_behavior: params.proration_behavior,
      };
      (s.items as { data: Obj[] }).data.push(item);
      return send(200, item);
    }
    const itemMatch = /^\/v1\/subscription_items\/([^/]+)$/.exec(path);
    if (itemMatch && req.method === "DELETE") {
      for (const s of subscriptions.values()) {
        const items = (s.items as { data: Obj[] }).data;
        const at = items.findIndex((i) => i.id === itemMatch[1]);
        if (at >= 0) {
          const [gone] = items.splice(at, 1);
          return send(200, { ...gone, deleted: true });
        }
      }
      return send(404, { error: { type: "invalid_request_error", message: "No such subscription item" } });
    }
    if (subMatch) {
      const s = subscriptions.get(subMatch[1] ?? "");
      if (!s) return send(404, { error: { type: "invalid_request_error", message: "No such subscription" } });
      if (req.method === "GET") return send(200, s);
      if (req.method === "DELETE") {
        s.status = "canceled";
        return send(200, s);
      }
      if (params.cancel_at_period_end !== undefined) s.cancel_at_period_end = params.cancel_at_period_end === "true";
      const meta = sub(params, "metadata");
      if (Object.keys(meta).length) s.metadata = { ...(s.metadata as Obj), ...meta };
      const amount = params["items[0][price_data][unit_amount]"];
      if (amount) {
        const items = s.items as { data: { price: Obj }[] };
        // The plan's item (the add-on has its own product).
        const first = items.data.find((i) => i.price.product !== "bookplate_custom_domain");
        if (first) first.price = { ...first.price, unit_amount: Number(amount) };
      }
      return send(200, s);
    }
    return send(404, {
      error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method} ${path})` },
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    env: { STRIPE_API_HOST: "127.0.0.1", STRIPE_API_PORT: String(port), STRIPE_API_PROTOCOL: "http" },
    requests,
    subscriptions,
    products,
    /** Make the next n API calls fail with a Stripe error. */
    failNextRequests(n: number) {
      failNext = n;
    },
    /** Create or replace a subscription as Stripe would hold it. */
    putSubscription(s: {
      id?: string;
      customer?: string;
      status: string;
      metadata?: Record<string, string>;
      cancelAtPeriodEnd?: boolean;
      trialEnd?: Date | null;
      periodEnd?: Date;
      currency?: string;
      unitAmount?: number;
    }): Obj {
      const id = s.id ?? nextId("sub");
      const periodEnd = Math.floor((s.periodEnd ?? new Date(Date.now() + 30 * 864e5)).getTime() / 1000);
      const obj: Obj = {
        id,
        object: "subscription",
        customer: s.customer ?? nextId("cus"),
        status: s.status,
        metadata: s.metadata ?? {},
        cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
        trial_end: s.trialEnd ? Math.floor(s.trialEnd.getTime() / 1000) : null,
        currency: s.currency ?? "gbp",
        items: {
          object: "list",
          data: [
            {
              id: `si_${id}`,
              object: "subscription_item",
              current_period_end: periodEnd,
              price: {
                id: `price_${id}`,
                product: "prod_test_plan",
                unit_amount: s.unitAmount ?? 399,
                currency: s.currency ?? "gbp",
              },
            },
          ],
        },
      };
      subscriptions.set(id, obj);
      return obj;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
