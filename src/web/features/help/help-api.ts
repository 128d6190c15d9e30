// The Help screen's view of /api/support: the author's own tickets.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NewTicket } from "../../../shared/schemas/admin.ts";
import { client, read, readField } from "../../lib/api.ts";

export const TICKETS_KEY = ["support", "tickets"] as const;

export function useMyTickets() {
  return useQuery({ queryKey: TICKETS_KEY, queryFn: () => readField(client.support.tickets.$get(), "tickets") });
}

export function useFileTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewTicket) => read(client.support.tickets.$post({ json: body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: TICKETS_KEY }),
  });
}

export function useReply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      read(client.support.tickets[":id"].replies.$post({ param: { id }, json: { message } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: TICKETS_KEY }),
  });
}
