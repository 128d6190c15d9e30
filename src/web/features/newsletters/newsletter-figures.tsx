// How a newsletter went: its figures, each counted link's clicks (ADR 069), and, while copies
// still wait to go, a fresh look every few seconds until none is left.
import { NEWSLETTER_MESSAGES } from "../../../shared/schemas/newsletter.ts";
import { type Figures, useFigures } from "./newsletters-api.ts";

/** How often the figures are read again while copies wait. */
export const FIGURES_REFRESH_MS = 3000;

const n = (x: number) => x.toLocaleString("en-GB");

export function NewsletterFigures({ id, countClicks }: { id: string; countClicks: boolean }) {
  const figures = useFigures(id, true, (f) => (f && f.waiting > 0 ? FIGURES_REFRESH_MS : false));
  const f = figures.data;
  if (!f) return <p className="text-sm text-slate-600">{NEWSLETTER_MESSAGES.notWhileSending}</p>;
  const tiles: [string, number][] = [
    ["Sent", f.sent],
    ["Accepted", f.accepted],
    ["Bounced", f.bounced],
    ["Unsubscribed", f.unsubscribed],
  ];
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" aria-label="How it went">
        {tiles.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900">{n(value)}</dd>
          </div>
        ))}
      </dl>
      {f.waiting > 0 ? (
        <p className="text-sm text-slate-600" role="status">
          {n(f.waiting)} {f.waiting === 1 ? "copy is" : "copies are"} still on the way. These figures update by
          themselves.
        </p>
      ) : null}
      {countClicks ? <LinkClicks links={f.links} /> : null}
    </div>
  );
}

function LinkClicks({ links }: { links: Figures["links"] }) {
  if (links.length === 0) return <p className="text-sm text-slate-600">This newsletter has no links to count.</p>;
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-slate-900">Clicks per link</h3>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm" aria-label="Clicks per link">
        {links.map((l) => (
          <li key={l.url} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between">
            <span className="min-w-0 break-all text-slate-700">{l.url}</span>
            <span className="shrink-0 text-slate-900">
              <strong>{n(l.clicks)}</strong> {l.clicks === 1 ? "click" : "clicks"} · <strong>{n(l.readers)}</strong>{" "}
              {l.readers === 1 ? "reader" : "readers"}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
