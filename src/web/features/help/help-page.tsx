// Help: the author asks staff a question and reads the answers here (they are mailed too); a
// reply reopens the ticket.
import { LifeBuoy } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import { TICKET_PRIORITIES } from "../../../shared/enums.ts";
import { newTicketSchema, TICKET_LIMITS, type Ticket, ticketReplySchema } from "../../../shared/schemas/admin.ts";
import { TicketMessages } from "../../components/ticket-messages.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { SELECT_CLASS, Textarea } from "../../components/ui/input.tsx";
import { errorMessage } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";
import { useFileTicket, useMyTickets, useReply } from "./help-api.ts";

const STATUS_TEXT = { open: "Waiting for us", responded: "Answered", closed: "Closed" } as const;
const STATUS_CLASS = {
  open: "bg-amber-100 text-amber-900",
  responded: "bg-emerald-100 text-emerald-800",
  closed: "bg-slate-100 text-slate-700",
} as const;

export function HelpPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
          <LifeBuoy aria-hidden="true" className="h-6 w-6 text-brand-600" /> Help
        </h1>
        <p className="mt-1 text-slate-600">Ask us anything. We answer here and by email.</p>
      </div>
      <NewTicketCard />
      <MyTickets />
    </div>
  );
}

function NewTicketCard() {
  const form = useZodForm(newTicketSchema, { subject: "", message: "", priority: "normal" });
  const file = useFileTicket();
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await file.mutateAsync(body);
      form.reset();
      toast.success("Thanks! We'll get back to you soon.");
    } catch (err) {
      if (!setServerFieldError(form, err)) toast.error(errorMessage(err));
    }
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Ask for help</CardTitle>
        <CardDescription>Tell us what you were doing and what happened.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
            <Field
              id="ticket-subject"
              label="Subject"
              maxLength={TICKET_LIMITS.subject}
              error={errors.subject?.message}
              {...form.register("subject")}
            />
            <Field alert label="Priority">
              <select className={SELECT_CLASS} {...form.register("priority")}>
                {TICKET_PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {p[0]?.toUpperCase()}
                    {p.slice(1)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field alert label="Message" error={errors.message?.message}>
            <Textarea rows={5} maxLength={TICKET_LIMITS.message} {...form.register("message")} />
          </Field>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Sending..." : "Send"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MyTickets() {
  const tickets = useMyTickets();
  if (tickets.isPending) return <div className="h-24 animate-pulse rounded-2xl border border-slate-200 bg-white" />;
  if (tickets.isError) {
    return (
      <Alert tone="error">
        Could not load your requests.{" "}
        <button type="button" className="underline" onClick={() => tickets.refetch()}>
          Try again
        </button>
      </Alert>
    );
  }
  if (tickets.data.length === 0) return null;
  return (
    <section aria-labelledby="my-tickets" className="space-y-3">
      <h2 id="my-tickets" className="text-lg font-semibold text-slate-900">
        Your requests
      </h2>
      <ul className="space-y-3">
        {tickets.data.map((t) => (
          <TicketItem key={t.id} t={t} />
        ))}
      </ul>
    </section>
  );
}

function TicketItem({ t }: { t: Ticket }) {
  const form = useZodForm(ticketReplySchema, { message: "" });
  const reply = useReply();
  const [error, setError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(
    async ({ message }) => {
      setError(null);
      try {
        await reply.mutateAsync({ id: t.id, message });
        form.reset();
        toast.success("Reply sent");
      } catch (err) {
        setError(errorMessage(err));
      }
    },
    (found) => setError(found.message?.message ?? null),
  );
  return (
    <li>
      <Card>
        <CardContent className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-medium text-slate-900">{t.subject}</h3>
            <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[t.status]}`}>
              {STATUS_TEXT[t.status]}
            </span>
          </div>
          <p className="text-xs text-slate-500">Sent {formatDate(t.createdAt)}</p>
          <p className="text-sm whitespace-pre-wrap text-slate-800">{t.message}</p>
          <TicketMessages messages={t.messages} staff="Bookplate support" author="You" />
          {t.messages.length > 0 ? (
            <form className="space-y-2" onSubmit={onSubmit} noValidate>
              {error ? <Alert tone="error">{error}</Alert> : null}
              <Field alert label="Reply">
                <Textarea rows={3} {...form.register("message")} />
              </Field>
              <Button type="submit" size="sm" variant="secondary" disabled={form.formState.isSubmitting}>
                Send reply
              </Button>
            </form>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}
