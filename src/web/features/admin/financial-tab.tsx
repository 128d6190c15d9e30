import { RefreshCw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import type { Currency } from "../../../shared/enums.ts";
import { PLANS } from "../../../shared/plans.ts";
import { ADMIN_MESSAGES, rateUpdateSchema } from "../../../shared/schemas/admin.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { StatCard } from "../../components/ui/stat-card.tsx";
import { errorMessage } from "../../lib/api.ts";
import { useFinancial, useRecalculate, useSetRate } from "./admin-api.ts";
import { count, gbp, money, NotLoaded } from "./admin-ui.tsx";
import { DEMO_FINANCIAL } from "./demo-data.ts";

const th = "px-3 py-2 text-left text-xs font-medium text-slate-500 uppercase";
const td = "px-3 py-2 text-sm text-slate-800";

/** A card of figures: its title names the scrollable region that holds them. */
function TableCard(props: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{props.title}</CardTitle>
        {props.description ? <CardDescription>{props.description}</CardDescription> : null}
      </CardHeader>
      <CardContent tabIndex={0} role="region" aria-label={props.title} className="overflow-x-auto">
        {props.children}
      </CardContent>
    </Card>
  );
}

/** A table of figures: a row a `rows` entry, a cell a column of `head`. */
function FigureTable(props: { head: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  return (
    <table className="w-full">
      <thead>
        <tr>
          {props.head.map((h) => (
            <th key={h} className={th}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {props.rows.map((r) => (
          <tr key={r.key}>
            {r.cells.map((cell, i) => (
              <td key={props.head[i]} className={td}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FinancialTab({ demo, superAdmin }: { demo: boolean; superAdmin: boolean }) {
  const query = useFinancial(!demo);
  const recalc = useRecalculate();
  const data = demo ? DEMO_FINANCIAL : query.data;
  if (!data) return <NotLoaded query={query} what="the financial figures" />;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold text-slate-900">Financial Dashboard</h2>
        <Button
          variant="secondary"
          disabled={demo || recalc.isPending}
          onClick={() =>
            recalc.mutate(undefined, {
              onSuccess: () => toast.success(ADMIN_MESSAGES.metricsUpdated),
              onError: () => toast.error(ADMIN_MESSAGES.metricsFailed),
            })
          }
        >
          <RefreshCw aria-hidden="true" className={recalc.isPending ? "h-4 w-4 animate-spin" : "h-4 w-4"} />
          Refresh Metrics
        </Button>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Monthly Revenue" value={gbp(data.monthlyRevenueGbpMinor)} hint="Payments this month, in GBP" />
        <StatCard
          label="Estimated MRR"
          value={gbp(data.estimatedMrrGbpMinor)}
          hint="What active subscribers pay a month"
        />
        <StatCard label="Active Subscriptions" value={count(data.activeSubscriptions)} />
        <StatCard label="Recent Transactions" value={count(data.transactionsThisMonth)} hint="This month" />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TableCard title="Subscription Breakdown">
          <FigureTable
            head={["Plan", "Price/month", "Subscribers", "Total/month"]}
            rows={data.byTier.map((t) => ({
              key: t.tier,
              cells: [t.name, gbp(t.priceGbpMinor), count(t.subscribers), gbp(t.totalGbpMinor)],
            }))}
          />
        </TableCard>
        <TableCard title="Currency Breakdown" description="Active subscriptions by the currency they pay in.">
          <FigureTable
            head={["Currency", "Subscribers", "MRR", "In GBP"]}
            rows={data.byCurrency.map((c) => ({
              key: c.currency,
              cells: [c.currency, count(c.subscribers), money(c.mrrMinor, c.currency), gbp(c.mrrGbpMinor)],
            }))}
          />
        </TableCard>
      </div>
      <ExchangeRates rates={data.rates} editable={superAdmin && !demo} />
      <TableCard title="Recent transactions" description="The 8 most recent payments.">
        {data.recentTransactions.length === 0 ? (
          <p className="text-sm text-slate-600">No payments yet.</p>
        ) : (
          <FigureTable
            head={["Plan", "Processed", "Currency", "GBP", "Original"]}
            rows={data.recentTransactions.map((t) => ({
              key: t.id,
              cells: [
                <>
                  {PLANS[t.tier].name}
                  {t.type === "refund" ? " (refund)" : ""}
                </>,
                formatDate(t.processedAt),
                t.currency,
                gbp(t.amountGbpMinor),
                money(t.amountMinor, t.currency),
              ],
            }))}
          />
        )}
      </TableCard>
    </div>
  );
}

function ExchangeRates({
  rates,
  editable,
}: {
  rates: { fromCurrency: Currency; toCurrency: Currency; rate: string; lastUpdated: string }[];
  editable: boolean;
}) {
  const setRate = useSetRate();
  const [editing, setEditing] = useState<Currency | null>(null);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Exchange Rates</CardTitle>
        <CardDescription>
          Used to report every currency in GBP. This server has no internet access, so there is no live rate feed: a
          super admin sets the rates here.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 overflow-x-auto">
        {error ? (
          <Alert tone="error" id="rate-error">
            {error}
          </Alert>
        ) : null}
        <table className="w-full">
          <thead>
            <tr>
              <th className={th}>From → To</th>
              <th className={th}>Rate</th>
              <th className={th}>Last updated</th>
              {editable ? <th className={th}>Change</th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rates.map((r) => (
              <tr key={`${r.fromCurrency}${r.toCurrency}`}>
                <td className={`${td} whitespace-nowrap`}>
                  {r.fromCurrency} → {r.toCurrency}
                </td>
                <td className={td}>
                  {editing === r.fromCurrency ? (
                    <input
                      aria-label={`Rate ${r.fromCurrency} to ${r.toCurrency}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? "rate-error" : undefined}
                      value={draft}
                      onChange={(e) => setDraft(e.target.value)}
                      inputMode="decimal"
                      className="h-8 w-28 rounded-md border border-slate-300 px-2 font-mono text-sm"
                    />
                  ) : (
                    <span className="font-mono">{Number(r.rate).toFixed(4)}</span>
                  )}
                </td>
                <td className={td}>{formatDate(r.lastUpdated)}</td>
                {editable ? (
                  <td className={td}>
                    {r.fromCurrency === r.toCurrency ? (
                      <span className="text-slate-500">Always 1</span>
                    ) : editing === r.fromCurrency ? (
                      <div className="flex gap-2">
                        <Button
                          size="sm"
                          disabled={setRate.isPending}
                          onClick={() => {
                            // The server checks the same schema; asking first saves a round trip.
                            const checked = rateUpdateSchema.safeParse({ rate: draft });
                            if (!checked.success) {
                              setError(checked.error.issues[0]?.message ?? "Rate is not valid");
                              return;
                            }
                            setRate.mutate(
                              { currency: r.fromCurrency, rate: checked.data.rate },
                              {
                                onSuccess: () => {
                                  setEditing(null);
                                  setError(null);
                                  toast.success(`Exchange rate ${r.fromCurrency} → GBP updated`);
                                },
                                onError: (e) => {
                                  setError(errorMessage(e));
                                  toast.error(`Exchange rate not changed: ${errorMessage(e)}`);
                                },
                              },
                            );
                          }}
                        >
                          Save
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => {
                            setEditing(null);
                            setError(null);
                          }}
                        >
                          Cancel
                        </Button>
                      </div>
                    ) : (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => {
                          setEditing(r.fromCurrency);
                          setDraft(Number(r.rate).toFixed(4));
                          setError(null);
                        }}
                      >
                        Edit
                      </Button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
