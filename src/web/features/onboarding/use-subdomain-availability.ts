// Live subdomain availability: asked 500 ms after typing stops, only for the free-domain option,
// only from 3 characters. A failed check reads as 'error', which counts as not available.
import { useCallback, useEffect, useRef, useState } from "react";
import { SUBDOMAIN_MIN } from "../../../shared/schemas/onboarding.ts";
import { client, read } from "../../lib/api.ts";
import type { Availability, AvailabilityReason, AvailabilityResult } from "./wizard-model.ts";

export const AVAILABILITY_DEBOUNCE_MS = 500;

export function useSubdomainAvailability(subdomain: string, enabled: boolean) {
  const [result, setResult] = useState<AvailabilityResult | null>(null);
  // Settled answers per name, so stepping back and forth does not ask again.
  const known = useRef(new Map<string, AvailabilityResult>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);

  const run = useCallback(async (name: string): Promise<AvailabilityResult> => {
    inFlight.current?.abort();
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    setResult({ subdomain: name, state: "checking" });
    let out: AvailabilityResult;
    try {
      const answer = await read(
        client.onboarding["subdomain-availability"].$get(
          { query: { subdomain: name } },
          { init: { signal: ctrl.signal } },
        ),
      );
      out = { subdomain: name, state: answer.available ? "available" : "taken", reason: answer.reason };
      known.current.set(name, out);
    } catch {
      out = { subdomain: name, state: "error" };
    }
    if (!ctrl.signal.aborted) {
      inFlight.current = null;
      setResult(out);
    }
    return out;
  }, []);

  useEffect(() => {
    clearTimeout(timer.current);
    if (!enabled || subdomain.length < SUBDOMAIN_MIN) {
      inFlight.current?.abort();
      return;
    }
    const settled = known.current.get(subdomain);
    if (settled) {
      setResult(settled);
      return;
    }
    timer.current = setTimeout(() => void run(subdomain), AVAILABILITY_DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [subdomain, enabled, run]);

  useEffect(() => () => inFlight.current?.abort(), []);

  let state: Availability = "unchecked";
  let reason: AvailabilityReason | undefined;
  if (enabled && subdomain.length >= SUBDOMAIN_MIN) {
    // Until the answer for exactly this name is in, it is being checked.
    if (result?.subdomain === subdomain) {
      state = result.state;
      reason = result.reason;
    } else state = "checking";
  }

  /** Next was pressed: settle the current name now instead of waiting for the timer. */
  const checkNow = useCallback(async (): Promise<Availability> => {
    clearTimeout(timer.current);
    if (!enabled || subdomain.length < SUBDOMAIN_MIN) return "unchecked";
    const settled = known.current.get(subdomain);
    if (settled) return settled.state;
    return (await run(subdomain)).state;
  }, [enabled, subdomain, run]);

  /** The server said taken at submit time (someone else got there first). */
  const markTaken = useCallback((name: string) => {
    const taken: AvailabilityResult = { subdomain: name, state: "taken", reason: "taken" };
    known.current.set(name, taken);
    setResult(taken);
  }, []);

  const retry = useCallback(() => void run(subdomain), [run, subdomain]);

  return { state, reason, checkNow, markTaken, retry };
}
