"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorBox } from "@/components/ui/states";
import { assignablePeopleQuery, assignTrajectories, trajectoryKeys } from "@/lib/queries/trajectories";

/** For admins: give the selected trajectories to a person, or back to the pool. */
export function AssignBar({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const client = useQueryClient();
  const people = useQuery(assignablePeopleQuery());
  const [to, setTo] = useState("");
  const assign = useMutation({
    mutationFn: (assignee: string | null) => assignTrajectories(selected, assignee),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      onDone();
    },
  });
  return (
    <div className="assign-bar" role="region" aria-label="Assign selected trajectories">
      <span>{selected.length} selected</span>
      <label className="field">
        <span>Assign to</span>
        <select className="select" value={to} onChange={(e) => setTo(e.target.value)} aria-label="Assign to">
          <option value="">Choose a person…</option>
          {people.data?.people.map((p) => (
            <option key={p.email} value={p.email}>
              {p.name} ({p.email})
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn btn-primary" disabled={!to || selected.length === 0 || assign.isPending} onClick={() => assign.mutate(to)}>
        Assign
      </button>
      <button type="button" className="btn" disabled={selected.length === 0 || assign.isPending} onClick={() => assign.mutate(null)}>
        Return to pool
      </button>
      {assign.isSuccess && <span role="status">{assign.data.assigned} assigned</span>}
      {assign.isError && <ErrorBox error={assign.error} />}
    </div>
  );
}
