"use client";

import { useEffect, useState } from "react";

/** Decoded images by URL, shared by the canvas and the prefetcher, so a prefetched step paints at once. */
const cache = new Map<string, HTMLImageElement>();
const pending = new Map<string, Promise<HTMLImageElement>>();
const CACHE_LIMIT = 64;

/** Fetch and decode an image ahead of time (the next steps' screenshots). */
export function preloadImage(url: string): Promise<HTMLImageElement> {
  const hit = cache.get(url);
  if (hit) return Promise.resolve(hit);
  const inFlight = pending.get(url);
  if (inFlight) return inFlight;
  const p = new Promise<HTMLImageElement>((resolve, reject) => {
    const img = new window.Image();
    img.onload = () => {
      // decode() off the main thread where supported, so the first draw does not stall.
      const ready = typeof img.decode === "function" ? img.decode().catch(() => undefined) : Promise.resolve();
      void ready.then(() => {
        cache.set(url, img);
        if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
        pending.delete(url);
        resolve(img);
      });
    };
    img.onerror = () => {
      pending.delete(url);
      reject(new Error(`image ${url} failed to load`));
    };
    img.src = url;
  });
  pending.set(url, p);
  return p;
}

/** Load an image element for Konva; undefined until it has loaded (immediately when prefetched), or while `url` is null. */
export function useImage(url: string | null): { image: HTMLImageElement | undefined; isError: boolean } {
  const [state, setState] = useState<{ url: string | null; image?: HTMLImageElement; isError: boolean }>(() => ({
    url,
    image: url ? cache.get(url) : undefined,
    isError: false,
  }));
  useEffect(() => {
    if (!url) return;
    let isLive = true;
    const hit = cache.get(url);
    if (hit) {
      setState((s) => (s.url === url && s.image === hit ? s : { url, image: hit, isError: false }));
      return;
    }
    preloadImage(url).then(
      (img) => isLive && setState({ url, image: img, isError: false }),
      () => isLive && setState({ url, isError: true }),
    );
    return () => {
      isLive = false;
    };
  }, [url]);
  if (!url) return { image: undefined, isError: false };
  // A stale image from the previous URL is never shown with the new step's overlay.
  if (state.url === url) return { image: state.image, isError: state.isError };
  return { image: cache.get(url), isError: false };
}
