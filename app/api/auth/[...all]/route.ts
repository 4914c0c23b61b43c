// /api/auth/*: sign-in, sign-out, session and password change, handled by better-auth
import { toNextJsHandler } from "better-auth/next-js";
import { auth } from "@/lib/server/auth";

// Created on first request, not at import, so a build never touches the database or the secret.
export const GET = (req: Request) => toNextJsHandler(auth()).GET(req);
export const POST = (req: Request) => toNextJsHandler(auth()).POST(req);
