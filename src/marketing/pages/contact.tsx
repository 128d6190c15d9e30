import { CONTACT_SENT, TICKET_LIMITS } from "../../shared/schemas/admin.ts";
import type { MarketingPage } from "../document.tsx";
import { PageHeading } from "../layout.tsx";

export type ContactFields = { name: string; email: string; subject: string; message: string };
export type ContactState =
  | { kind: "form"; values?: ContactFields; errors?: Partial<Record<keyof ContactFields, string>>; error?: string }
  | { kind: "sent" };

const input =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-invalid:border-red-600";

function Field({
  name,
  label,
  type = "text",
  state,
  max,
  autoComplete,
}: {
  name: keyof ContactFields;
  label: string;
  type?: string;
  state: Extract<ContactState, { kind: "form" }>;
  max: number;
  autoComplete?: string;
}) {
  const error = state.errors?.[name];
  const id = `contact-${name}`;
  const common = {
    id,
    name,
    required: true,
    maxLength: max,
    defaultValue: state.values?.[name] ?? "",
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
    className: input,
  } as const;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {name === "message" ? (
        <textarea rows={6} {...common} />
      ) : (
        <input type={type} autoComplete={autoComplete} {...common} />
      )}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function contactPage(state: ContactState, status = 200): MarketingPage {
  return {
    status,
    title: "Contact",
    description: "Write to the Bookplate team: questions before you start, help with your site, or anything else.",
    body: (
      <>
        <PageHeading
          title="Contact us"
          lead={
            <>
              Questions before you start, or anything else. Already an author? Use <strong>Help</strong> in your
              dashboard.
            </>
          }
        />
        <div className="mx-auto max-w-xl px-6">
          {state.kind === "sent" ? (
            <div role="status" className="rounded-xl border border-emerald-200 bg-emerald-50 p-6 text-emerald-900">
              <p className="font-semibold">{CONTACT_SENT}</p>
              <p className="mt-2 text-sm">We have emailed you a copy of your message.</p>
            </div>
          ) : (
            <form method="post" action="/contact" className="space-y-5" noValidate>
              {state.error ? (
                <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                  {state.error}
                </p>
              ) : null}
              <Field name="name" label="Name" state={state} max={200} autoComplete="name" />
              <Field name="email" label="Email" type="email" state={state} max={320} autoComplete="email" />
              <Field name="subject" label="Subject" state={state} max={TICKET_LIMITS.subject} />
              <Field name="message" label="Message" state={state} max={TICKET_LIMITS.message} />
              {/* A field people never see: a bot that fills it is answered as if sent, and nothing is kept. */}
              <div className="absolute -left-[9999px]" aria-hidden="true">
                <label htmlFor="contact-website">Leave this empty</label>
                <input id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
              </div>
              <button
                type="submit"
                className="inline-flex items-center justify-center rounded-lg bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                Send message
              </button>
            </form>
          )}
        </div>
      </>
    ),
  };
}
