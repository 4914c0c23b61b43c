import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { can, type Action, type Actor } from "@/lib/domain/permissions";
import { getActor } from "../people";

/** The signed-in person for a page, or a redirect to sign-in (back to `path` afterwards). */
export async function pageActor(path: string, action?: Action): Promise<Actor> {
  const actor = await getActor(await headers());
  if (!actor) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  if (action && !can(actor, action)) redirect(`/forbidden?need=${encodeURIComponent(action)}`);
  return actor;
}

/** The signed-in person, if any (the layout shows the navigation only to them). */
export async function optionalActor(): Promise<Actor | null> {
  return getActor(await headers());
}
