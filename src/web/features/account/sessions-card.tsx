import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Monitor } from "lucide-react";
import { toast } from "sonner";

import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { authClient, authErrorMessage, useSession } from "../../lib/auth-client.ts";
import { describeDevice, formatDateTime } from "./describe-device.ts";

type SessionRow = {
  id: string;
  token: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

async function listSessions(): Promise<SessionRow[]> {
  const { data, error } = await authClient.listSessions();
  if (error) throw new Error(authErrorMessage(error, "Failed to load your sessions"));
  return (data ?? []) as SessionRow[];
}

export function SessionsCard() {
  const { data: current } = useSession();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ["sessions"], queryFn: listSessions, staleTime: 0 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["sessions"] });

  const revokeOne = useMutation({
    mutationFn: async (token: string) => {
      const { error } = await authClient.revokeSession({ token });
      if (error) throw new Error(authErrorMessage(error, "Failed to sign out that device"));
    },
    onSuccess: () => toast.success("Signed out of that device"),
    onError: (e) => toast.error(e.message),
    onSettled: refresh,
  });
  const revokeOthers = useMutation({
    mutationFn: async () => {
      const { error } = await authClient.revokeOtherSessions();
      if (error) throw new Error(authErrorMessage(error, "Failed to sign out other devices"));
    },
    onSuccess: () => toast.success("Signed out of all other devices"),
    onError: (e) => toast.error(e.message),
    onSettled: refresh,
  });

  const rows = [...(sessions.data ?? [])].sort((a, b) =>
    a.id === current?.session.id ? -1 : b.id === current?.session.id ? 1 : 0,
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Where you're signed in</CardTitle>
        <CardDescription>
          If you see a device you don't recognise, sign it out and change your password.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {sessions.isPending ? <p className="text-sm text-slate-600">Loading sessions...</p> : null}
        {sessions.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {sessions.error.message}
          </p>
        ) : null}
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Sessions">
          {rows.map((s) => {
            const isThis = s.id === current?.session.id;
            return (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="flex min-w-0 items-start gap-3">
                  <Monitor aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" />
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      <span title={s.userAgent ?? undefined}>{describeDevice(s.userAgent)}</span>
                      {isThis ? (
                        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                          This device
                        </span>
                      ) : null}
                    </p>
                    <p className="text-xs text-slate-600">
                      {s.ipAddress ? `IP ${s.ipAddress} · ` : ""}Signed in {formatDateTime(s.createdAt)} · Last active{" "}
                      {formatDateTime(s.updatedAt)}
                    </p>
                  </div>
                </div>
                {isThis ? null : (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={revokeOne.isPending}
                    onClick={() => revokeOne.mutate(s.token)}
                    aria-label={`Sign out ${describeDevice(s.userAgent)}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        {rows.length > 1 ? (
          <Button variant="secondary" disabled={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
            Sign out of all other devices
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
