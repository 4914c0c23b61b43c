// /api/auth/*: sign-in, sign-out and password change, handled by better-auth behind the studio's allow-list
import { authHandler, route } from "@/lib/server/http";

// better-auth is created on first request, not at import, so a build never touches the database or the secret.
const handler = route({ permission: "public", output: "raw", handler: ({ req }) => authHandler(req) });
export const GET = handler;
export const POST = handler;
