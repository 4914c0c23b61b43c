// The errors capability's public face: the rest of the studio imports it from here, never from the files beside this one.
export { appError, AppError, diskFullOr, type ErrorCode, HTTP_STATUS } from "./errors";
export { ImageProblem } from "./image-problem";
export { readStoredError, storedMessageOf, storeMessage } from "./stored-message";
export { fromStore, isFromStore } from "./stored";
export { isDiskFull } from "./errors";
