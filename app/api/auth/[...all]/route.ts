// /api/auth/*: sign-in, sign-out and password change, handled by better-auth behind the studio's allow-list
import { authHandler } from "@/lib/server/auth-handler";

// better-auth is created on first request, not at import, so a build never touches the database or the secret.
export const GET = (req: Request) => authHandler(req);
export const POST = (req: Request) => authHandler(req);
