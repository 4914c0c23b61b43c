import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { optionalActor } from "@/lib/server/pages";
import { safeNextPath } from "@/lib/domain/safe-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNextPath((await searchParams).next);
  if (await optionalActor()) redirect(next);
  return (
    <main className="auth-page">
      <SignInForm next={next} />
    </main>
  );
}
