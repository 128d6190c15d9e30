// Back from checkout (?success=true, and ?session_id= from the payment provider): say so,
// refresh the subscription after 2 s, retry once after 5 s, then clear the parameters.
import { CheckCircle2, Loader2, X, XCircle } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { cn } from "../../lib/utils.ts";

export const PAYMENT_MESSAGES = {
  refreshing: "Payment successful! Refreshing subscription status...",
  updated: "Subscription status updated!",
  activated: "Payment successful! Your subscription has been activated.",
  refreshPage: "Please refresh the page to see your updated subscription",
} as const;
export const REFRESH_DELAY_MS = 2000;
export const RETRY_DELAY_MS = 5000;

type Phase =
  | { kind: "idle" }
  | { kind: "refreshing" }
  | { kind: "updated" }
  | { kind: "retrying"; error: string }
  | { kind: "failed"; error: string };

export function usePaymentReturn(refresh: () => Promise<unknown>) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const success = params.get("success") === "true";
  const sessionId = params.get("session_id");
  const [phase, setPhase] = useState<Phase>(success ? { kind: "refreshing" } : { kind: "idle" });
  const started = useRef(false);
  const alive = useRef(true);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    if (!success || started.current) return;
    started.current = true;
    setPhase({ kind: "refreshing" });
    if (sessionId) toast.success(PAYMENT_MESSAGES.activated);
    // Leave the address clean (replacing history), so a reload does not run this again.
    const clearParams = () => {
      if (alive.current) navigate("/dashboard", { replace: true });
    };
    const attempt = async (n: 1 | 2) => {
      try {
        await refreshRef.current();
        if (!alive.current) return;
        setPhase({ kind: "updated" });
        clearParams();
      } catch (err) {
        if (!alive.current) return;
        const error = errorMessage(err);
        if (n === 1) {
          setPhase({ kind: "retrying", error });
          setTimeout(() => void attempt(2), RETRY_DELAY_MS);
        } else {
          setPhase({ kind: "failed", error });
          clearParams();
        }
      }
    };
    setTimeout(() => void attempt(1), REFRESH_DELAY_MS);
  }, [success, sessionId, navigate]);

  return { phase, dismiss: () => setPhase({ kind: "idle" }), activated: Boolean(sessionId) };
}

export function PaymentReturnBanner({ phase, onDismiss }: { phase: Phase; onDismiss: () => void }) {
  if (phase.kind === "idle") return null;
  const bad = phase.kind === "retrying" || phase.kind === "failed";
  return (
    <div
      role={bad ? "alert" : "status"}
      data-testid="payment-banner"
      className={cn(
        "flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-sm",
        bad ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-900",
      )}
    >
      <span className="mt-0.5 shrink-0">
        {phase.kind === "refreshing" ? (
          <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
        ) : bad ? (
          <XCircle aria-hidden="true" className="h-4 w-4" />
        ) : (
          <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
        )}
      </span>
      <div className="flex-1">
        {phase.kind === "refreshing" ? <p className="font-medium">{PAYMENT_MESSAGES.refreshing}</p> : null}
        {phase.kind === "updated" ? <p className="font-medium">{PAYMENT_MESSAGES.updated}</p> : null}
        {phase.kind === "retrying" ? (
          <>
            <p className="font-medium">{phase.error}</p>
            <p className="mt-0.5">Trying again in {RETRY_DELAY_MS / 1000} seconds...</p>
          </>
        ) : null}
        {phase.kind === "failed" ? (
          <>
            <p className="font-medium">{phase.error}</p>
            <p className="mt-0.5">{PAYMENT_MESSAGES.refreshPage}</p>
          </>
        ) : null}
      </div>
      {phase.kind === "updated" || phase.kind === "failed" ? (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss"
          className="rounded p-0.5 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
        >
          <X aria-hidden="true" className="h-4 w-4" />
        </button>
      ) : null}
    </div>
  );
}
