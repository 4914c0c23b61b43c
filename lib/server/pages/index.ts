// The pages capability's public face: the sign-in check every page runs before it draws (Next's headers and
// redirect), apart from lib/server/people so that the API lane and the command line never load Next's request scope.
export { optionalActor, pageActor } from "./page-auth";
