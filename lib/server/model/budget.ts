import PQueue from "p-queue";
import { appError } from "../errors";
import { env } from "../env";

/**
 * How much of the model endpoint one person, and everyone together, may use, per studio process
 * (like the concurrency gate: N instances allow N times these figures). Read from the environment at
 * each call, so an operator's change applies on restart and tests can set them:
 *
 * - STUDIO_MODEL_PERSON_PER_MINUTE (default 30): model requests one person may start per minute
 *   (suggestions and test connection).
 * - STUDIO_MODEL_PERSON_QUEUE (default 2): one person's requests admitted at once (waiting or in flight).
 * - STUDIO_MODEL_ENDPOINT_PER_MINUTE (default 240): people's requests per minute to one endpoint.
 * - STUDIO_MODEL_ENDPOINT_QUEUE (default 32): requests waiting for a free slot on one endpoint
 *   (beyond the `concurrency` in flight).
 *
 * Past any of them the request is refused at once with 429 and words saying which budget and when
 * to try again; nothing is sent. Jobs are bounded by their own worker count (at most `concurrency`
 * calls, each waiting for a slot like anyone else) and do not spend people's budgets.
 */
export type ModelBudgets = { personPerMinute: number; personQueue: number; endpointPerMinute: number; endpointQueue: number };

export function modelBudgets(): ModelBudgets {
  const e = env();
  return {
    personPerMinute: e.STUDIO_MODEL_PERSON_PER_MINUTE ?? 30,
    personQueue: e.STUDIO_MODEL_PERSON_QUEUE ?? 2,
    endpointPerMinute: e.STUDIO_MODEL_ENDPOINT_PER_MINUTE ?? 240,
    endpointQueue: e.STUDIO_MODEL_ENDPOINT_QUEUE ?? 32,
  };
}

const MINUTE_MS = 60_000;

type Window = number[];

/** Drop timestamps older than a minute; the window's length is then the count in the last minute. */
function recent(w: Window, now: number): Window {
  while (w.length > 0 && w[0]! <= now - MINUTE_MS) w.shift();
  return w;
}

/**
 * One endpoint's concurrency gate: at most `concurrency` calls in flight, the rest wait in order (p-queue).
 * A waiter whose signal aborts leaves the queue at once, so its request is never sent.
 */
export type Gate = PQueue;

type BudgetState = {
  gates: Map<string, Gate>;
  personMinute: Map<string, Window>;
  personOpen: Map<string, number>;
  endpointMinute: Map<string, Window>;
};
const globalForBudget = globalThis as unknown as { studioModelBudget?: BudgetState };
const state = (globalForBudget.studioModelBudget ??= {
  gates: new Map(),
  personMinute: new Map(),
  personOpen: new Map(),
  endpointMinute: new Map(),
});

/** The gate of one endpoint (base URL and model) in this process, with its limit set to `concurrency`. */
export function gateFor(endpoint: string, concurrency: number): Gate {
  const limit = Math.max(1, concurrency);
  let gate = state.gates.get(endpoint);
  if (!gate) state.gates.set(endpoint, (gate = new PQueue({ concurrency: limit })));
  // An admin saved a new concurrency: waiters move up at once if it grew.
  if (gate.concurrency !== limit) gate.concurrency = limit;
  return gate;
}

/** Who a model call is for: a person (their budget and the endpoint's people budget apply) or a job. */
export type ModelCaller = { personId: string } | { jobId: string };

/**
 * Admit one call or refuse it with 429 (nothing counted then). The returned function gives the
 * person's queue place back; call it once the call has ended, however it ended.
 */
export function admit(endpoint: string, gate: Gate, caller: ModelCaller, now = Date.now()): () => void {
  if (!("personId" in caller)) return () => undefined;
  const b = modelBudgets();
  const person = caller.personId;
  const open = state.personOpen.get(person) ?? 0;
  if (open >= b.personQueue)
    throw appError("too_many_requests", "model.budget.personQueue", { n: b.personQueue }, { reason: "budget", budget: "person-queue" });
  const mine = recent(state.personMinute.get(person) ?? [], now);
  if (mine.length >= b.personPerMinute)
    throw appError(
      "too_many_requests",
      "model.budget.personMinute",
      { n: b.personPerMinute, s: Math.max(1, Math.ceil((mine[0]! + MINUTE_MS - now) / 1000)) },
      { reason: "budget", budget: "person-minute" },
    );
  const all = recent(state.endpointMinute.get(endpoint) ?? [], now);
  if (all.length >= b.endpointPerMinute)
    throw appError(
      "too_many_requests",
      "model.budget.endpointMinute",
      { n: b.endpointPerMinute, s: Math.max(1, Math.ceil((all[0]! + MINUTE_MS - now) / 1000)) },
      { reason: "budget", budget: "endpoint-minute" },
    );
  if (gate.size >= b.endpointQueue)
    throw appError(
      "too_many_requests",
      "model.budget.endpointQueue",
      { n: b.endpointQueue },
      { reason: "budget", budget: "endpoint-queue" },
    );
  mine.push(now);
  state.personMinute.set(person, mine);
  all.push(now);
  state.endpointMinute.set(endpoint, all);
  state.personOpen.set(person, open + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (state.personOpen.get(person) ?? 1) - 1;
    if (left > 0) state.personOpen.set(person, left);
    else state.personOpen.delete(person);
  };
}

/** Forget every count (tests that set new budgets start from zero). */
export function resetModelBudgets(): void {
  state.personMinute.clear();
  state.personOpen.clear();
  state.endpointMinute.clear();
}
