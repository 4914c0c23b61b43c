import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { optionalActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Sign in" };

function safeNext(next: string | string[] | undefined): string {
  const n = Array.isArray(next) ? next[0] : next;
  // Only same-site paths: never bounce a person to another host after signing in.
  return n && n.startsWith("/") && !n.startsWith("//") ? n : "/trajectories";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  if (await optionalActor()) redirect(next);
  return (
    <main className="auth-page">
      <SignInForm next={next} />
    </main>
  );
}
