// The object-store capability's public face: the rest of the studio imports it from here, never from the files beside
// this one (the lint's capability rule). Its main use cases live in store.ts.
export * from "./store";
export {
  copyScreenshotTo,
  type ImageInfo,
  openScreenshot,
  readScreenshot,
  screenshotExt,
  screenshotKey,
  storeScreenshotBytes,
} from "./screenshots";
