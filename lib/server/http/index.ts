// The http capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in respond.ts.
export * from "./respond";
export { authHandler } from "./auth-handler";
export { type Answer, route } from "./route";
