import { formatDate } from "../../shared/dates.ts";
import type { Ticket } from "../../shared/schemas/admin.ts";

/**
 * The conversation under a support ticket, oldest first, as staff and the author both see it:
 * staff's messages tinted, each headed by who wrote it (`staff` / `author`, as the reader calls
 * them) and when.
 */
export function TicketMessages({
  messages,
  staff,
  author,
}: {
  messages: Ticket["messages"];
  staff: string;
  author: string;
}) {
  return messages.map((m) => (
    <div key={m.id} className={m.fromStaff ? "rounded-lg bg-brand-50 p-3" : "rounded-lg bg-slate-50 p-3"}>
      <p className="mb-1 text-xs font-medium text-slate-500">
        {m.fromStaff ? staff : author} · {formatDate(m.createdAt)}
      </p>
      <p className="text-sm whitespace-pre-wrap text-slate-800">{m.body}</p>
    </div>
  ));
}
